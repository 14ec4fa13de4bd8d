//! Showing C values read from a paused machine: scalars by their type, pointers as
//! `host#id+offset` / `device#id+offset` (accsim's pointers name their allocation and address
//! space, §1.3), arrays as their first elements.

use accsim_core::exec::inspect::{LocalValue, MachineView};
use accsim_core::ir::{FloatKind, Type, TypeId, TypeTable};

/// Elements of an array shown in the variables panel.
const ARRAY_PREVIEW: u64 = 8;

/// A scalar element type of mapped data.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Scalar {
    Int { bytes: u8, signed: bool },
    F32,
    F64,
    Pointer,
    Byte,
}

impl Scalar {
    pub fn size(self) -> u64 {
        match self {
            Scalar::Int { bytes, .. } => u64::from(bytes),
            Scalar::F32 => 4,
            Scalar::F64 | Scalar::Pointer => 8,
            Scalar::Byte => 1,
        }
    }

    pub fn name(self) -> String {
        match self {
            Scalar::Int { bytes, signed } => format!("{}int{}", if signed { "" } else { "u" }, bytes * 8),
            Scalar::F32 => "float".into(),
            Scalar::F64 => "double".into(),
            Scalar::Pointer => "pointer".into(),
            Scalar::Byte => "byte".into(),
        }
    }

    /// The scalar type of `ty` (an array's or pointee's innermost element).
    pub fn of(types: &TypeTable, ty: TypeId) -> Scalar {
        match types.get(ty) {
            Type::Bool => Scalar::Int { bytes: 1, signed: false },
            Type::Int(i) => Scalar::Int { bytes: i.bytes, signed: i.signed },
            Type::Float(FloatKind::F32) => Scalar::F32,
            Type::Float(_) => Scalar::F64,
            Type::Pointer(_) => Scalar::Pointer,
            Type::Array(e, _) | Type::Vla(e, _) => Scalar::of(types, *e),
            _ => Scalar::Byte,
        }
    }

    /// The element type of data reached through a variable of type `ty` (array or pointer).
    pub fn element_of(types: &TypeTable, ty: TypeId) -> Scalar {
        match types.get(ty) {
            Type::Pointer(p) => Scalar::of(types, *p),
            _ => Scalar::of(types, ty),
        }
    }

    /// Formats `bytes` (little-endian, `self.size()` of them).
    pub fn format(self, bytes: &[u8]) -> String {
        let mut w = [0u8; 8];
        let n = bytes.len().min(8);
        w[..n].copy_from_slice(&bytes[..n]);
        let word = u64::from_le_bytes(w);
        match self {
            Scalar::Int { bytes: b, signed: true } => {
                let shift = 64 - u32::from(b) * 8;
                (((word << shift) as i64) >> shift).to_string()
            }
            Scalar::Int { .. } => word.to_string(),
            Scalar::F32 => short_float(f64::from(f32::from_bits(word as u32))),
            Scalar::F64 => short_float(f64::from_bits(word)),
            Scalar::Pointer => pointer(word, None),
            Scalar::Byte => format!("{:02x}", word as u8),
        }
    }
}

/// `%g`-like: short, exact enough for a panel.
fn short_float(v: f64) -> String {
    if v == v.trunc() && v.abs() < 1e15 {
        format!("{v:.1}")
    } else if v.abs() >= 1e-4 && v.abs() < 1e7 {
        let s = format!("{v:.6}");
        s.trim_end_matches('0').to_owned()
    } else {
        format!("{v:.4e}")
    }
}

/// A pointer word: null, or allocation id and offset in its address space.
fn pointer(word: u64, view: Option<&MachineView<'_>>) -> String {
    if word == 0 {
        return "NULL".into();
    }
    let space = match view.and_then(|v| v.allocation(word)) {
        Some(a) if a.device => "device",
        Some(_) => "host",
        None => "ptr",
    };
    format!("{space}#{}+{}", word >> 32, word as u32)
}

/// A register word of type `ty` (see `accsim_core::ir` for how each type is held).
fn register(types: &TypeTable, ty: TypeId, word: u64, view: &MachineView<'_>) -> String {
    match types.get(ty) {
        Type::Pointer(_) => pointer(word, Some(view)),
        Type::Float(FloatKind::F32) => short_float(f64::from(f32::from_bits(word as u32))),
        Type::Float(_) => short_float(f64::from_bits(word)),
        Type::Int(i) if i.signed => (word as i64).to_string(),
        Type::Bool | Type::Int(_) => word.to_string(),
        _ => format!("{word:#x}"),
    }
}

/// The value of a local of the running call.
pub fn local(types: &TypeTable, ty: TypeId, value: LocalValue, view: &MachineView<'_>) -> String {
    match value {
        LocalValue::Register(word) => register(types, ty, word, view),
        LocalValue::Memory(addr) => memory(types, ty, addr, view),
    }
}

/// The value of an object of type `ty` at `addr`.
fn memory(types: &TypeTable, ty: TypeId, addr: u64, view: &MachineView<'_>) -> String {
    let unreadable = || "(not readable)".to_owned();
    match types.get(ty) {
        Type::Array(e, n) => {
            let size = types.size_of(*e).unwrap_or(1).max(1);
            let n = n.unwrap_or(0);
            let shown: Vec<String> = (0..n.min(ARRAY_PREVIEW))
                .map(|i| memory(types, *e, addr + i * size, view))
                .collect();
            let more = if n > ARRAY_PREVIEW { ", …" } else { "" };
            format!("[{n}] {{{}{more}}}", shown.join(", "))
        }
        Type::Record(_) | Type::Complex(_) | Type::Function(_) | Type::Vla(..) | Type::Void => {
            format!("{{…}} at {}", pointer(addr, Some(view)))
        }
        _ => {
            let size = types.size_of(ty).unwrap_or(8).min(8);
            match view.load_bytes(addr, size) {
                Some(bytes) => {
                    let mut w = [0u8; 8];
                    w[..bytes.len()].copy_from_slice(&bytes);
                    let word = u64::from_le_bytes(w);
                    let word = match types.get(ty) {
                        Type::Int(i) if i.signed => {
                            let shift = 64 - u32::from(i.bytes) * 8;
                            (((word << shift) as i64) >> shift) as u64
                        }
                        _ => word,
                    };
                    register(types, ty, word, view)
                }
                None => unreadable(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_format_by_type() {
        assert_eq!(Scalar::Int { bytes: 4, signed: true }.format(&(-3i32).to_le_bytes()), "-3");
        assert_eq!(Scalar::Int { bytes: 2, signed: false }.format(&[0xff, 0xff]), "65535");
        assert_eq!(Scalar::F32.format(&2.5f32.to_le_bytes()), "2.5");
        assert_eq!(Scalar::F64.format(&3.0f64.to_le_bytes()), "3.0");
        assert_eq!(Scalar::F64.format(&0.125f64.to_le_bytes()), "0.125");
        assert_eq!(Scalar::Pointer.format(&0u64.to_le_bytes()), "NULL");
        assert_eq!(Scalar::Pointer.format(&((7u64 << 32) | 16).to_le_bytes()), "ptr#7+16");
        assert_eq!(Scalar::Byte.format(&[0xab]), "ab");
    }
}
