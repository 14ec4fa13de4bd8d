//! Arithmetic on complex values (C11 6.3.1.8, Annex G) as gcc's code and libgcc's helpers do
//! it, in the element precision: `+`, `-`, `*` by the textbook formulas, `/` by libgcc's
//! `__divdc3` (Smith's method) for finite operands. The interpreter computes with it at run time
//! and the front end when it folds a constant (`double _Complex g = 1.0 + 2.0*I;` at file scope),
//! so both give the same bits.

use crate::ir::BinOp;

/// The element types of complex values: `float` and `double` (`long double` is a double here).
pub trait Fl:
    Copy
    + PartialOrd
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + std::ops::Div<Output = Self>
{
    fn abs(self) -> Self;
}
impl Fl for f32 {
    fn abs(self) -> Self {
        f32::abs(self)
    }
}
impl Fl for f64 {
    fn abs(self) -> Self {
        f64::abs(self)
    }
}

/// `(a + bi) op (c + di)` for `op` one of `+`, `-`, `*` and `/` (any other is taken as `/`).
pub fn complex_op<T: Fl>(op: BinOp, a: T, b: T, c: T, d: T) -> (T, T) {
    match op {
        BinOp::Add => (a + c, b + d),
        BinOp::Sub => (a - c, b - d),
        BinOp::Mul => (a * c - b * d, a * d + b * c),
        _ => {
            // libgcc's __divdc3 (Smith's method) for finite operands.
            if c.abs() < d.abs() {
                let ratio = c / d;
                let denom = c * ratio + d;
                ((a * ratio + b) / denom, (b * ratio - a) / denom)
            } else {
                let ratio = d / c;
                let denom = d * ratio + c;
                ((b * ratio + a) / denom, (b - a * ratio) / denom)
            }
        }
    }
}

