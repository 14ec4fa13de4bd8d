//! How a C value of each type is held in a 64-bit word, and the conversions between them
//! (C11 6.3) with x86-64 results where C leaves them undefined (gcc -O0 code).

use crate::ir::{FloatKind, IntType, Type, TypeId, TypeTable};

/// The run-time representation class of a type.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Void,
    Bool,
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
    /// `long double`: computed as f64, 16 bytes in memory (the f64 then 8 zero bytes).
    LongDouble,
    Ptr,
    /// Values that are addresses of their bytes (records, complex, arrays, functions).
    Aggregate,
}

impl Kind {
    /// The value word of a scalar of this kind whose little-endian bytes start `raw` (the bytes
    /// past its size ignored): integers sign- or zero-extended, floats as their bits.
    #[inline]
    pub fn from_raw(self, raw: u64) -> u64 {
        match self {
            Kind::Bool | Kind::U8 => raw & 0xff,
            Kind::I8 => raw as u8 as i8 as i64 as u64,
            Kind::U16 => raw & 0xffff,
            Kind::I16 => raw as u16 as i16 as i64 as u64,
            Kind::U32 | Kind::F32 => raw & 0xffff_ffff,
            Kind::I32 => raw as u32 as i32 as i64 as u64,
            Kind::I64 | Kind::U64 | Kind::F64 | Kind::Ptr | Kind::LongDouble | Kind::Void | Kind::Aggregate => raw,
        }
    }

    pub fn of(types: &TypeTable, ty: TypeId) -> Kind {
        match types.get(ty) {
            Type::Void => Kind::Void,
            Type::Bool => Kind::Bool,
            Type::Int(IntType { bytes, signed }) => match (bytes, signed) {
                (1, true) => Kind::I8,
                (1, false) => Kind::U8,
                (2, true) => Kind::I16,
                (2, false) => Kind::U16,
                (4, true) => Kind::I32,
                (4, false) => Kind::U32,
                (_, true) => Kind::I64,
                (_, false) => Kind::U64,
            },
            Type::Float(FloatKind::F32) => Kind::F32,
            Type::Float(FloatKind::F64) => Kind::F64,
            Type::Float(FloatKind::LongDouble) => Kind::LongDouble,
            Type::Pointer(_) => Kind::Ptr,
            Type::Complex(_)
            | Type::Array(..)
            | Type::Vla(..)
            | Type::Record(_)
            | Type::Function(_) => Kind::Aggregate,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, Kind::F32 | Kind::F64 | Kind::LongDouble)
    }
    pub fn is_int(self) -> bool {
        matches!(
            self,
            Kind::Bool
                | Kind::I8
                | Kind::U8
                | Kind::I16
                | Kind::U16
                | Kind::I32
                | Kind::U32
                | Kind::I64
                | Kind::U64
        )
    }
    pub fn is_signed(self) -> bool {
        matches!(self, Kind::I8 | Kind::I16 | Kind::I32 | Kind::I64)
    }
    /// Bytes in memory of a scalar kind.
    pub fn bytes(self) -> u64 {
        match self {
            Kind::Bool | Kind::I8 | Kind::U8 => 1,
            Kind::I16 | Kind::U16 => 2,
            Kind::I32 | Kind::U32 | Kind::F32 => 4,
            Kind::I64 | Kind::U64 | Kind::F64 | Kind::Ptr => 8,
            Kind::LongDouble => 16,
            Kind::Void | Kind::Aggregate => 0,
        }
    }
}

/// Bring an integer word to the canonical form of kind `k` (truncate, then sign/zero-extend).
#[inline]
pub fn norm(k: Kind, v: u64) -> u64 {
    match k {
        Kind::I8 => v as i8 as i64 as u64,
        Kind::U8 => v as u8 as u64,
        Kind::I16 => v as i16 as i64 as u64,
        Kind::U16 => v as u16 as u64,
        Kind::I32 => v as i32 as i64 as u64,
        Kind::U32 => v as u32 as u64,
        Kind::Bool => (v != 0) as u64,
        Kind::F32 => v as u32 as u64,
        _ => v,
    }
}

/// The word as a float of kind `k` (f32 values widened exactly).
#[inline]
pub fn as_f64(k: Kind, v: u64) -> f64 {
    match k {
        Kind::F32 => f32::from_bits(v as u32) as f64,
        _ => f64::from_bits(v),
    }
}

/// x86-64 `cvttsd2si` with a 32-bit destination: out of range and NaN give 0x80000000.
#[inline]
pub fn cvtt32(x: f64) -> i32 {
    if x > -2147483649.0 && x < 2147483648.0 {
        x as i32
    } else {
        i32::MIN
    }
}

/// 2^63 as a double.
const TWO63: f64 = 9_223_372_036_854_775_808.0;

/// x86-64 `cvttsd2si` with a 64-bit destination: out of range and NaN give 2^63.
#[inline]
pub fn cvtt64(x: f64) -> i64 {
    if (-TWO63..TWO63).contains(&x) {
        x as i64
    } else {
        i64::MIN
    }
}

/// Float to `unsigned long` as gcc emits it: below 2^63 (or NaN) one cvttsd2si, otherwise
/// cvttsd2si of x - 2^63 with the top bit flipped.
#[inline]
pub fn f64_to_u64(x: f64) -> u64 {
    if x >= TWO63 {
        (cvtt64(x - TWO63) as u64) ^ (1 << 63)
    } else {
        cvtt64(x) as u64
    }
}

/// A conversion between two kinds, as a plain function.
pub type CastFn = fn(u64) -> u64;

/// The conversion `from` → `to`; `None` when it is the identity on words.
pub fn cast_fn(from: Kind, to: Kind) -> Option<CastFn> {
    use Kind::*;
    if from == to {
        return None;
    }
    let f: CastFn = match (from, to) {
        (_, Void) | (_, Aggregate) | (Aggregate, _) | (Void, _) => return None,
        // Float sources.
        (F32 | F64 | LongDouble, Bool) => match from {
            F32 => |v| (f32::from_bits(v as u32) != 0.0) as u64,
            _ => |v| (f64::from_bits(v) != 0.0) as u64,
        },
        (F32, F64 | LongDouble) => |v| (f32::from_bits(v as u32) as f64).to_bits(),
        (F64 | LongDouble, F32) => |v| (f64::from_bits(v) as f32).to_bits() as u64,
        (F64, LongDouble) | (LongDouble, F64) => return None,
        (F32 | F64 | LongDouble, _) => {
            let wide = from != F32;
            match (wide, to) {
                (true, I8) => |v| cvtt32(f64::from_bits(v)) as i8 as i64 as u64,
                (false, I8) => |v| cvtt32(f32::from_bits(v as u32) as f64) as i8 as i64 as u64,
                (true, U8) => |v| cvtt32(f64::from_bits(v)) as u8 as u64,
                (false, U8) => |v| cvtt32(f32::from_bits(v as u32) as f64) as u8 as u64,
                (true, I16) => |v| cvtt32(f64::from_bits(v)) as i16 as i64 as u64,
                (false, I16) => |v| cvtt32(f32::from_bits(v as u32) as f64) as i16 as i64 as u64,
                (true, U16) => |v| cvtt32(f64::from_bits(v)) as u16 as u64,
                (false, U16) => |v| cvtt32(f32::from_bits(v as u32) as f64) as u16 as u64,
                (true, I32) => |v| cvtt32(f64::from_bits(v)) as i64 as u64,
                (false, I32) => |v| cvtt32(f32::from_bits(v as u32) as f64) as i64 as u64,
                (true, U32) => |v| cvtt64(f64::from_bits(v)) as u32 as u64,
                (false, U32) => |v| cvtt64(f32::from_bits(v as u32) as f64) as u32 as u64,
                (true, U64) => |v| f64_to_u64(f64::from_bits(v)),
                (false, U64) => |v| f64_to_u64(f32::from_bits(v as u32) as f64),
                (true, _) => |v| cvtt64(f64::from_bits(v)) as u64,
                (false, _) => |v| cvtt64(f32::from_bits(v as u32) as f64) as u64,
            }
        }
        // Integer (and pointer) sources to floats.
        (_, F32) => {
            if from.is_signed() {
                |v| (v as i64 as f32).to_bits() as u64
            } else {
                |v| (v as f32).to_bits() as u64
            }
        }
        (_, F64 | LongDouble) => {
            if from.is_signed() {
                |v| (v as i64 as f64).to_bits()
            } else {
                |v| (v as f64).to_bits()
            }
        }
        // Integer to integer.
        (_, Bool) => |v| (v != 0) as u64,
        (_, I8) => |v| v as i8 as i64 as u64,
        (_, U8) => |v| v as u8 as u64,
        (_, I16) => |v| v as i16 as i64 as u64,
        (_, U16) => |v| v as u16 as u64,
        (_, I32) => |v| v as i32 as i64 as u64,
        (_, U32) => |v| v as u32 as u64,
        (_, I64 | U64 | Ptr) => return None,
    };
    Some(f)
}

/// Apply a cast (identity when `None`).
#[inline]
pub fn apply(c: Option<CastFn>, v: u64) -> u64 {
    match c {
        Some(f) => f(v),
        None => v,
    }
}

/// Whether a value of kind `k` is "true" (compares unequal to 0).
#[inline]
pub fn truthy(k: Kind, v: u64) -> bool {
    match k {
        Kind::F32 => f32::from_bits(v as u32) != 0.0,
        Kind::F64 | Kind::LongDouble => f64::from_bits(v) != 0.0,
        _ => v != 0,
    }
}
