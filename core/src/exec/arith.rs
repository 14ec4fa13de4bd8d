//! The operation table: each binary operation and comparison of C, per operand class (integer
//! widths, IEEE single and double precision), as one closure shape that a visitor monomorphises.
//! The executable form builds its expression closures from it (`compile/arith.rs`); the word
//! updates of `atomic` statements (`atomic.rs`) apply it at once ([`binary_now`]). It lies below
//! both, so that the two compute every operation the same way.

use crate::ir::BinOp;

use super::float_ops as fl;
use super::machine::ArithFault;
use super::value::{norm, Kind};

/// The class an arithmetic operation or comparison is carried out in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(in crate::exec) enum Cls {
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
}

/// A generic consumer of one entry of the operation table (monomorphised per operation).
pub(in crate::exec) trait BinVisitor {
    type Out;
    fn visit<F>(self, f: F) -> Self::Out
    where
        F: Fn(u64, u64) -> Result<u64, ArithFault> + Copy + Send + Sync + 'static;
}

#[inline(always)]
pub(in crate::exec) fn f32b(x: u64) -> f32 {
    f32::from_bits(x as u32)
}
#[inline(always)]
pub(in crate::exec) fn f64b(x: u64) -> f64 {
    f64::from_bits(x)
}
#[inline(always)]
pub(in crate::exec) fn bf32(x: f32) -> u64 {
    x.to_bits() as u64
}

pub(in crate::exec) fn dispatch<V: BinVisitor>(op: BinOp, cls: Cls, v: V) -> Option<V::Out> {
    use BinOp::*;
    use Cls::*;
    macro_rules! sdiv {
        ($t:ty, $x:ident, $y:ident, $e:expr) => {
            v.visit(|x, y| {
                let ($x, $y) = (x as $t, y as $t);
                if $y == 0 {
                    Err(ArithFault::DivZero)
                } else if $x == <$t>::MIN && $y == -1 {
                    Err(ArithFault::Overflow)
                } else {
                    Ok($e as i64 as u64)
                }
            })
        };
    }
    macro_rules! udiv {
        ($t:ty, $x:ident, $y:ident, $e:expr) => {
            v.visit(|x, y| {
                let ($x, $y) = (x as $t, y as $t);
                if $y == 0 {
                    Err(ArithFault::DivZero)
                } else {
                    Ok($e as u64)
                }
            })
        };
    }
    Some(match (op, cls) {
        (Add, I32) => v.visit(|x, y| Ok((x as i32).wrapping_add(y as i32) as i64 as u64)),
        (Sub, I32) => v.visit(|x, y| Ok((x as i32).wrapping_sub(y as i32) as i64 as u64)),
        (Mul, I32) => v.visit(|x, y| Ok((x as i32).wrapping_mul(y as i32) as i64 as u64)),
        (Div, I32) => sdiv!(i32, a, b, a / b),
        (Rem, I32) => sdiv!(i32, a, b, a % b),
        (Shl, I32) => v.visit(|x, y| Ok((x as i32).wrapping_shl(y as u32) as i64 as u64)),
        (Shr, I32) => v.visit(|x, y| Ok((x as i32).wrapping_shr(y as u32) as i64 as u64)),
        (Add, U32) => v.visit(|x, y| Ok((x as u32).wrapping_add(y as u32) as u64)),
        (Sub, U32) => v.visit(|x, y| Ok((x as u32).wrapping_sub(y as u32) as u64)),
        (Mul, U32) => v.visit(|x, y| Ok((x as u32).wrapping_mul(y as u32) as u64)),
        (Div, U32) => udiv!(u32, a, b, a / b),
        (Rem, U32) => udiv!(u32, a, b, a % b),
        (Shl, U32) => v.visit(|x, y| Ok((x as u32).wrapping_shl(y as u32) as u64)),
        (Shr, U32) => v.visit(|x, y| Ok((x as u32).wrapping_shr(y as u32) as u64)),
        (Add, I64 | U64) => v.visit(|x, y| Ok(x.wrapping_add(y))),
        (Sub, I64 | U64) => v.visit(|x, y| Ok(x.wrapping_sub(y))),
        (Mul, I64 | U64) => v.visit(|x, y| Ok(x.wrapping_mul(y))),
        (Div, I64) => sdiv!(i64, a, b, a / b),
        (Rem, I64) => sdiv!(i64, a, b, a % b),
        (Div, U64) => udiv!(u64, a, b, a / b),
        (Rem, U64) => udiv!(u64, a, b, a % b),
        (Shl, I64 | U64) => v.visit(|x, y| Ok(x.wrapping_shl(y as u32))),
        (Shr, I64) => v.visit(|x, y| Ok((x as i64).wrapping_shr(y as u32) as u64)),
        (Shr, U64) => v.visit(|x, y| Ok(x.wrapping_shr(y as u32))),
        (BitAnd, I32 | U32 | I64 | U64) => v.visit(|x, y| Ok(x & y)),
        (BitOr, I32 | U32 | I64 | U64) => v.visit(|x, y| Ok(x | y)),
        (BitXor, I32 | U32 | I64 | U64) => v.visit(|x, y| Ok(x ^ y)),
        (Eq, I32 | U32 | I64 | U64) => v.visit(|x, y| Ok((x == y) as u64)),
        (Ne, I32 | U32 | I64 | U64) => v.visit(|x, y| Ok((x != y) as u64)),
        (Lt, I32 | I64) => v.visit(|x, y| Ok(((x as i64) < (y as i64)) as u64)),
        (Le, I32 | I64) => v.visit(|x, y| Ok(((x as i64) <= (y as i64)) as u64)),
        (Gt, I32 | I64) => v.visit(|x, y| Ok(((x as i64) > (y as i64)) as u64)),
        (Ge, I32 | I64) => v.visit(|x, y| Ok(((x as i64) >= (y as i64)) as u64)),
        (Lt, U32 | U64) => v.visit(|x, y| Ok((x < y) as u64)),
        (Le, U32 | U64) => v.visit(|x, y| Ok((x <= y) as u64)),
        (Gt, U32 | U64) => v.visit(|x, y| Ok((x > y) as u64)),
        (Ge, U32 | U64) => v.visit(|x, y| Ok((x >= y) as u64)),
        (Add, F32) => v.visit(|x, y| Ok(bf32(fl::add32(f32b(x), f32b(y))))),
        (Sub, F32) => v.visit(|x, y| Ok(bf32(fl::sub32(f32b(x), f32b(y))))),
        (Mul, F32) => v.visit(|x, y| Ok(bf32(fl::mul32(f32b(x), f32b(y))))),
        (Div, F32) => v.visit(|x, y| Ok(bf32(fl::div32(f32b(x), f32b(y))))),
        (Eq, F32) => v.visit(|x, y| Ok((f32b(x) == f32b(y)) as u64)),
        (Ne, F32) => v.visit(|x, y| Ok((f32b(x) != f32b(y)) as u64)),
        (Lt, F32) => v.visit(|x, y| Ok((f32b(x) < f32b(y)) as u64)),
        (Le, F32) => v.visit(|x, y| Ok((f32b(x) <= f32b(y)) as u64)),
        (Gt, F32) => v.visit(|x, y| Ok((f32b(x) > f32b(y)) as u64)),
        (Ge, F32) => v.visit(|x, y| Ok((f32b(x) >= f32b(y)) as u64)),
        (Add, F64) => v.visit(|x, y| Ok(fl::add64(f64b(x), f64b(y)).to_bits())),
        (Sub, F64) => v.visit(|x, y| Ok(fl::sub64(f64b(x), f64b(y)).to_bits())),
        (Mul, F64) => v.visit(|x, y| Ok(fl::mul64(f64b(x), f64b(y)).to_bits())),
        (Div, F64) => v.visit(|x, y| Ok(fl::div64(f64b(x), f64b(y)).to_bits())),
        (Eq, F64) => v.visit(|x, y| Ok((f64b(x) == f64b(y)) as u64)),
        (Ne, F64) => v.visit(|x, y| Ok((f64b(x) != f64b(y)) as u64)),
        (Lt, F64) => v.visit(|x, y| Ok((f64b(x) < f64b(y)) as u64)),
        (Le, F64) => v.visit(|x, y| Ok((f64b(x) <= f64b(y)) as u64)),
        (Gt, F64) => v.visit(|x, y| Ok((f64b(x) > f64b(y)) as u64)),
        (Ge, F64) => v.visit(|x, y| Ok((f64b(x) >= f64b(y)) as u64)),
        _ => return None,
    })
}

/// The class in which an operation on `k` is done, and whether its result must be re-normalised
/// (operands narrower than int, which the lowering should have promoted).
pub(in crate::exec) fn class_of(k: Kind, comparison: bool) -> (Cls, Option<Kind>) {
    match k {
        Kind::I32 => (Cls::I32, None),
        Kind::U32 => (Cls::U32, None),
        Kind::I64 => (Cls::I64, None),
        Kind::U64 | Kind::Ptr | Kind::Aggregate | Kind::Void => (Cls::U64, None),
        Kind::F32 => (Cls::F32, None),
        Kind::F64 | Kind::LongDouble => (Cls::F64, None),
        Kind::I8 | Kind::I16 => (Cls::I64, (!comparison).then_some(k)),
        Kind::U8 | Kind::U16 | Kind::Bool => (Cls::U64, (!comparison).then_some(k)),
    }
}

/// Binary operation `op` done at once on the words `x` and `y` in kind `k` (the table's entry,
/// as a plain expression or compound assignment computes it): for the word updates of `atomic`
/// statements (`exec::atomic`), which both engines make through here. A pair with no entry in the
/// table (a comparison) gives `x`.
pub(in crate::exec) fn binary_now(op: BinOp, k: Kind, x: u64, y: u64) -> Result<u64, ArithFault> {
    struct Now(u64, u64);
    impl BinVisitor for Now {
        type Out = Result<u64, ArithFault>;
        fn visit<F>(self, f: F) -> Self::Out
        where
            F: Fn(u64, u64) -> Result<u64, ArithFault> + Copy + Send + Sync + 'static,
        {
            f(self.0, self.1)
        }
    }
    let (cls, post) = class_of(k, false);
    let v = dispatch(op, cls, Now(x, y)).unwrap_or(Ok(x))?;
    Ok(post.map_or(v, |p| norm(p, v)))
}

