//! The reduction table, cell by cell (§2.5.11: operator × type), through both appliers: on the
//! interpreter's memory ([`combine_into`], [`write_identity`]) and on byte images
//! ([`combine_bytes`], [`identity_bytes`]), which must agree byte for byte. The expected values
//! are computed with Rust's own arithmetic on the C type.

use super::*;
use crate::diag::Loc;
use crate::exec::memory::{AllocKind, Space};
use ReductionOp::*;

const INT_OPS: [ReductionOp; 9] = [Add, Mul, Max, Min, BitAnd, BitOr, BitXor, And, Or];
const FLOAT_OPS: [ReductionOp; 6] = [Add, Mul, Max, Min, And, Or];

/// `a op b` through every applier, each compared with `want` (the variable's bytes).
fn check_cell(ty: ReductionType, op: ReductionOp, a: &[u8], b: &[u8], want: &[u8]) {
    let size = a.len();
    let cell = format!("{op:?} on {ty:?}");
    // Byte images (a GPU's memory).
    let mut acc = a.to_vec();
    combine_bytes(ty, op, &mut acc, b);
    assert_eq!(acc, want, "combine_bytes, {cell}");
    // The interpreter's memory.
    let mut mem = Memory::new(1 << 20);
    let va = mem.alloc(size as u64, AllocKind::Runtime("test"), Space::Device, Loc::default()).unwrap();
    let vb = mem.alloc(size as u64, AllocKind::Runtime("test"), Space::Device, Loc::default()).unwrap();
    mem.write_bytes(va, a).unwrap();
    mem.write_bytes(vb, b).unwrap();
    combine_into(&mut mem, va, vb, ty, op).unwrap();
    assert_eq!(&*mem.read_bytes(va, size as u64).unwrap(), want, "combine_into, {cell}");
    // The identity leaves a value of the operator's range unchanged (`&&` and `||` give 0 or 1).
    let id = identity_bytes(ty, op, size);
    let mut acc = want.to_vec();
    combine_bytes(ty, op, &mut acc, &id);
    assert_eq!(acc, want, "identity on the right, {cell}");
    let mut acc = id.clone();
    combine_bytes(ty, op, &mut acc, want);
    assert_eq!(acc, want, "identity on the left, {cell}");
    write_identity(&mut mem, vb, ty, op).unwrap();
    assert_eq!(&*mem.read_bytes(vb, size as u64).unwrap(), &id[..], "write_identity, {cell}");
}

macro_rules! int_type {
    ($test:ident, $t:ty, $kind:expr, $a:expr, $b:expr) => {
        #[test]
        fn $test() {
            let (a, b): ($t, $t) = ($a, $b);
            let truth = |x: bool| x as $t;
            for op in INT_OPS {
                let want: $t = match op {
                    Add => a.wrapping_add(b),
                    Mul => a.wrapping_mul(b),
                    Max => a.max(b),
                    Min => a.min(b),
                    BitAnd => a & b,
                    BitOr => a | b,
                    BitXor => a ^ b,
                    And => truth(a != 0 && b != 0),
                    Or => truth(a != 0 || b != 0),
                };
                check_cell(ReductionType::Scalar($kind), op, &a.to_le_bytes(), &b.to_le_bytes(), &want.to_le_bytes());
            }
            // `&&` with a zero operand, `||` of two zeros.
            check_cell(ReductionType::Scalar($kind), And, &a.to_le_bytes(), &(0 as $t).to_le_bytes(), &(0 as $t).to_le_bytes());
            check_cell(ReductionType::Scalar($kind), Or, &(0 as $t).to_le_bytes(), &(0 as $t).to_le_bytes(), &(0 as $t).to_le_bytes());
        }
    };
}

int_type!(signed_char, i8, Kind::I8, -100, 77);
int_type!(unsigned_char, u8, Kind::U8, 200, 77);
int_type!(short, i16, Kind::I16, -30_000, 1234);
int_type!(unsigned_short, u16, Kind::U16, 60_000, 1234);
int_type!(int, i32, Kind::I32, -2_000_000_000, 1_234_567);
int_type!(unsigned_int, u32, Kind::U32, 4_000_000_000, 1_234_567);
int_type!(long, i64, Kind::I64, -9_000_000_000_000_000_000, 123_456_789);
int_type!(unsigned_long, u64, Kind::U64, 18_000_000_000_000_000_000, 123_456_789);

#[test]
fn bool_() {
    let ty = ReductionType::Scalar(Kind::Bool);
    for (a, b) in [(0u8, 0u8), (0, 1), (1, 0), (1, 1)] {
        let (x, y) = (a != 0, b != 0);
        for op in INT_OPS {
            // C converts each result to _Bool.
            let want = match op {
                Add | BitOr | Or | Max => x || y,
                Mul | BitAnd | And | Min => x && y,
                BitXor => x != y,
            };
            check_cell(ty, op, &[a], &[b], &[want as u8]);
        }
    }
}

#[test]
fn float() {
    let (a, b) = (1.1f32, -2.7f32);
    for op in FLOAT_OPS {
        // `+` and `*` in single precision (as the C code does).
        let want = match op {
            Add => a + b,
            Mul => a * b,
            Max => a.max(b),
            Min => a.min(b),
            And | Or => 1.0,
            _ => unreachable!(),
        };
        check_cell(ReductionType::Scalar(Kind::F32), op, &a.to_le_bytes(), &b.to_le_bytes(), &want.to_le_bytes());
    }
    check_cell(ReductionType::Scalar(Kind::F32), And, &a.to_le_bytes(), &0f32.to_le_bytes(), &0f32.to_le_bytes());
}

#[test]
fn double() {
    let (a, b) = (1.1f64, -2.7f64);
    for op in FLOAT_OPS {
        let want = match op {
            Add => a + b,
            Mul => a * b,
            Max => a.max(b),
            Min => a.min(b),
            And | Or => 1.0,
            _ => unreachable!(),
        };
        check_cell(ReductionType::Scalar(Kind::F64), op, &a.to_le_bytes(), &b.to_le_bytes(), &want.to_le_bytes());
    }
    check_cell(ReductionType::Scalar(Kind::F64), Or, &0f64.to_le_bytes(), &0f64.to_le_bytes(), &0f64.to_le_bytes());
}

/// A `long double` as accsim stores it: 16 bytes, the double then zeros.
fn long_double(x: f64) -> Vec<u8> {
    let mut b = x.to_le_bytes().to_vec();
    b.resize(16, 0);
    b
}

#[test]
fn long_double_() {
    let (a, b) = (1.1f64, -2.7f64);
    for op in FLOAT_OPS {
        let want = match op {
            Add => a + b,
            Mul => a * b,
            Max => a.max(b),
            Min => a.min(b),
            And | Or => 1.0,
            _ => unreachable!(),
        };
        check_cell(ReductionType::Scalar(Kind::LongDouble), op, &long_double(a), &long_double(b), &long_double(want));
    }
}

/// The bytes of a complex number whose parts are `part(re)` then `part(im)`.
fn complex(re: Vec<u8>, im: Vec<u8>) -> Vec<u8> {
    [re, im].concat()
}

#[test]
fn float_complex() {
    let f = |x: f32| x.to_le_bytes().to_vec();
    let ty = ReductionType::of(Kind::Aggregate, 8);
    assert_eq!(ty, ReductionType::Complex(Kind::F32));
    // (1 + 2i)(3 + 4i) = -5 + 10i; computed in double precision, rounded to float.
    check_cell(ty, Mul, &complex(f(1.0), f(2.0)), &complex(f(3.0), f(4.0)), &complex(f(-5.0), f(10.0)));
    check_cell(ty, Add, &complex(f(1.5), f(2.0)), &complex(f(3.0), f(-4.25)), &complex(f(4.5), f(-2.25)));
}

#[test]
fn double_complex() {
    let f = |x: f64| x.to_le_bytes().to_vec();
    let ty = ReductionType::of(Kind::Aggregate, 16);
    assert_eq!(ty, ReductionType::Complex(Kind::F64));
    check_cell(ty, Mul, &complex(f(1.0), f(2.0)), &complex(f(3.0), f(4.0)), &complex(f(-5.0), f(10.0)));
    check_cell(ty, Add, &complex(f(1.5), f(2.0)), &complex(f(3.0), f(-4.25)), &complex(f(4.5), f(-2.25)));
}

/// Issue 13: a 32-byte `long double _Complex` is two 16-byte parts, so its imaginary part is at
/// offset 16 (the CUDA device used to read and write it at offset 8, inside the real part).
#[test]
fn long_double_complex() {
    let ty = ReductionType::of(Kind::Aggregate, 32);
    assert_eq!(ty, ReductionType::Complex(Kind::LongDouble));
    assert_eq!(ty.size(), 32);
    let f = long_double;
    check_cell(ty, Mul, &complex(f(1.0), f(2.0)), &complex(f(3.0), f(4.0)), &complex(f(-5.0), f(10.0)));
    check_cell(ty, Add, &complex(f(1.5), f(2.0)), &complex(f(3.0), f(-4.25)), &complex(f(4.5), f(-2.25)));
    assert_eq!(identity_bytes(ty, Mul, 32), complex(f(1.0), f(0.0)));
    assert_eq!(decode(ty, &complex(f(1.0), f(2.0))), RedValue::Complex(1.0, 2.0));
}

#[test]
fn identities_follow_the_table() {
    // §2.5.11: max starts at the least value of the type, min at the greatest, & at all ones.
    let word = |k, op| match identity(ReductionType::Scalar(k), op) {
        RedValue::Scalar(w) => w,
        v => panic!("a scalar identity, not {v:?}"),
    };
    assert_eq!(word(Kind::I32, Max), i32::MIN as i64 as u64);
    assert_eq!(word(Kind::U16, Min), u16::MAX as u64);
    assert_eq!(word(Kind::U8, BitAnd), 0xff);
    assert_eq!(word(Kind::I64, BitAnd), u64::MAX);
    assert_eq!(word(Kind::F32, Max), f32::NEG_INFINITY.to_bits() as u64);
    assert_eq!(word(Kind::F64, Min), f64::INFINITY.to_bits());
    assert_eq!(word(Kind::Bool, Mul), 1);
}

#[test]
fn gang_copies_follow_the_clauses() {
    let cap = |mode, section: Option<Range<u64>>| CaptureArg {
        mode,
        host: 0,
        size: 16,
        kind: Kind::Aggregate,
        is_pointer: true,
        name: "x".into(),
        section,
        mapped_part: false,
        implicit_pointer: false,
        elem_size: 8,
    };
    assert_eq!(GangCopy::of(&cap(CaptureMode::Present, None), false), GangCopy::Shared);
    assert_eq!(GangCopy::of(&cap(CaptureMode::Private, None), false), GangCopy::Private);
    assert_eq!(GangCopy::of(&cap(CaptureMode::FirstPrivate, None), false), GangCopy::FirstPrivate { translate_pointer: true });
    assert_eq!(GangCopy::of(&cap(CaptureMode::FirstPrivate, None), true), GangCopy::FirstPrivate { translate_pointer: false });
    assert_eq!(GangCopy::of(&cap(CaptureMode::Private, Some(8..24)), false), GangCopy::Section { host: 8..24, copy: false });
    assert_eq!(
        GangCopy::of(&cap(CaptureMode::Reduction(Add), None), false),
        GangCopy::Reduction(Add, ReductionType::Complex(Kind::F64))
    );
}
