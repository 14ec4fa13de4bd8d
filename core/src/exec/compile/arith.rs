//! The operation table: each binary operation and comparison of C, per operand class, as one
//! closure shape (integer widths, IEEE single and double precision), and complex arithmetic.

use super::*;

/// The class an arithmetic operation or comparison is carried out in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Cls {
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
}

/// A generic consumer of one entry of the operation table (monomorphised per operation).
pub(super) trait BinVisitor {
    type Out;
    fn visit<F>(self, f: F) -> Self::Out
    where
        F: Fn(u64, u64) -> Result<u64, ArithFault> + Copy + Send + Sync + 'static;
}

#[inline(always)]
pub(super) fn f32b(x: u64) -> f32 {
    f32::from_bits(x as u32)
}
#[inline(always)]
pub(super) fn f64b(x: u64) -> f64 {
    f64::from_bits(x)
}
#[inline(always)]
pub(super) fn bf32(x: f32) -> u64 {
    x.to_bits() as u64
}

pub(super) fn dispatch<V: BinVisitor>(op: BinOp, cls: Cls, v: V) -> Option<V::Out> {
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
        (Add, F32) => v.visit(|x, y| Ok(bf32(f32b(x) + f32b(y)))),
        (Sub, F32) => v.visit(|x, y| Ok(bf32(f32b(x) - f32b(y)))),
        (Mul, F32) => v.visit(|x, y| Ok(bf32(f32b(x) * f32b(y)))),
        (Div, F32) => v.visit(|x, y| Ok(bf32(f32b(x) / f32b(y)))),
        (Eq, F32) => v.visit(|x, y| Ok((f32b(x) == f32b(y)) as u64)),
        (Ne, F32) => v.visit(|x, y| Ok((f32b(x) != f32b(y)) as u64)),
        (Lt, F32) => v.visit(|x, y| Ok((f32b(x) < f32b(y)) as u64)),
        (Le, F32) => v.visit(|x, y| Ok((f32b(x) <= f32b(y)) as u64)),
        (Gt, F32) => v.visit(|x, y| Ok((f32b(x) > f32b(y)) as u64)),
        (Ge, F32) => v.visit(|x, y| Ok((f32b(x) >= f32b(y)) as u64)),
        (Add, F64) => v.visit(|x, y| Ok((f64b(x) + f64b(y)).to_bits())),
        (Sub, F64) => v.visit(|x, y| Ok((f64b(x) - f64b(y)).to_bits())),
        (Mul, F64) => v.visit(|x, y| Ok((f64b(x) * f64b(y)).to_bits())),
        (Div, F64) => v.visit(|x, y| Ok((f64b(x) / f64b(y)).to_bits())),
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
pub(super) fn class_of(k: Kind, comparison: bool) -> (Cls, Option<Kind>) {
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

/// Builds the closure of a binary expression from its operands' shapes.
pub(super) struct BinaryV {
    pub(super) a: Ce,
    pub(super) b: Ce,
    pub(super) loc: Loc,
}

impl BinaryV {
    pub(super) fn go<F>(a: Ce, b: Ce, loc: Loc, f: F) -> Ce
    where
        F: Fn(u64, u64) -> Result<u64, ArithFault> + Copy + Send + Sync + 'static,
    {
        match (a, b) {
            (Ce::Const(x), Ce::Const(y)) if f(x, y).is_ok() => Ce::Const(f(x, y).unwrap_or(0)),
            (Ce::Reg(s), Ce::Const(c)) => Ce::Dyn(ef(move |m| {
                f(m.regs[m.bp + s], c).map_err(|e| arith_trap(e, loc))
            })),
            (Ce::Reg(s), Ce::Reg(t)) => Ce::Dyn(ef(move |m| {
                f(m.regs[m.bp + s], m.regs[m.bp + t]).map_err(|e| arith_trap(e, loc))
            })),
            (Ce::Dyn(a), Ce::Const(c)) => {
                Ce::Dyn(ef(move |m| f(a(m)?, c).map_err(|e| arith_trap(e, loc))))
            }
            (Ce::Dyn(a), Ce::Reg(t)) => Ce::Dyn(ef(move |m| {
                f(a(m)?, m.regs[m.bp + t]).map_err(|e| arith_trap(e, loc))
            })),
            (Ce::Reg(s), Ce::Dyn(b)) => Ce::Dyn(ef(move |m| {
                f(m.regs[m.bp + s], b(m)?).map_err(|e| arith_trap(e, loc))
            })),
            (Ce::Load(a), Ce::Load(b)) => Ce::Dyn(ef(move |m| {
                let x = a.eval(m)?;
                f(x, b.eval(m)?).map_err(|e| arith_trap(e, loc))
            })),
            (Ce::Dyn(a), Ce::Load(b)) => Ce::Dyn(ef(move |m| {
                let x = a(m)?;
                f(x, b.eval(m)?).map_err(|e| arith_trap(e, loc))
            })),
            (Ce::Load(a), Ce::Dyn(b)) => Ce::Dyn(ef(move |m| {
                let x = a.eval(m)?;
                f(x, b(m)?).map_err(|e| arith_trap(e, loc))
            })),
            (Ce::Const(c), Ce::Load(b)) => Ce::Dyn(ef(move |m| {
                f(c, b.eval(m)?).map_err(|e| arith_trap(e, loc))
            })),
            (Ce::Load(a), Ce::Const(c)) => Ce::Dyn(ef(move |m| {
                f(a.eval(m)?, c).map_err(|e| arith_trap(e, loc))
            })),
            (Ce::Reg(s), Ce::Load(b)) => Ce::Dyn(ef(move |m| {
                f(m.regs[m.bp + s], b.eval(m)?).map_err(|e| arith_trap(e, loc))
            })),
            (Ce::Load(a), Ce::Reg(t)) => Ce::Dyn(ef(move |m| {
                f(a.eval(m)?, m.regs[m.bp + t]).map_err(|e| arith_trap(e, loc))
            })),
            (a, b) => {
                let (a, b) = (a.into_fn(), b.into_fn());
                Ce::Dyn(ef(move |m| {
                    let x = a(m)?;
                    f(x, b(m)?).map_err(|e| arith_trap(e, loc))
                }))
            }
        }
    }
}

impl BinVisitor for BinaryV {
    type Out = Ce;
    fn visit<F>(self, f: F) -> Ce
    where
        F: Fn(u64, u64) -> Result<u64, ArithFault> + Copy + Send + Sync + 'static,
    {
        BinaryV::go(self.a, self.b, self.loc, f)
    }
}

/// Builds the fused `i++, i < n` of a counted loop: step a register local, then compare it.
pub(super) struct StepCondV {
    pub(super) slot: usize,
    pub(super) delta: Ce,
    pub(super) narrow: bool,
    pub(super) rhs: Ce,
}

impl BinVisitor for StepCondV {
    type Out = Option<ExprFn>;
    fn visit<F>(self, f: F) -> Option<ExprFn>
    where
        F: Fn(u64, u64) -> Result<u64, ArithFault> + Copy + Send + Sync + 'static,
    {
        let StepCondV {
            slot: s,
            delta,
            narrow,
            rhs,
        } = self;
        let add = move |x: u64, d: u64| {
            if narrow {
                (x as i32).wrapping_add(d as i32) as i64 as u64
            } else {
                x.wrapping_add(d)
            }
        };
        let d = match delta {
            Ce::Const(d) => d,
            delta => {
                // `i += e; i < rhs`: e first, then the update, then the test.
                let (df, r) = (delta.into_fn(), rhs.into_fn());
                return Some(ef(move |m| {
                    let d = df(m)?;
                    let v = add(m.regs[m.bp + s], d);
                    m.regs[m.bp + s] = v;
                    Ok(f(v, r(m)?).unwrap_or(0))
                }));
            }
        };
        Some(match (rhs, narrow) {
            (Ce::Const(c), true) => ef(move |m| {
                let v = (m.regs[m.bp + s] as i32).wrapping_add(d as i32) as i64 as u64;
                m.regs[m.bp + s] = v;
                Ok(f(v, c).unwrap_or(0))
            }),
            (Ce::Const(c), false) => ef(move |m| {
                let v = m.regs[m.bp + s].wrapping_add(d);
                m.regs[m.bp + s] = v;
                Ok(f(v, c).unwrap_or(0))
            }),
            (Ce::Reg(r), true) => ef(move |m| {
                let v = (m.regs[m.bp + s] as i32).wrapping_add(d as i32) as i64 as u64;
                m.regs[m.bp + s] = v;
                Ok(f(v, m.regs[m.bp + r]).unwrap_or(0))
            }),
            (Ce::Reg(r), false) => ef(move |m| {
                let v = m.regs[m.bp + s].wrapping_add(d);
                m.regs[m.bp + s] = v;
                Ok(f(v, m.regs[m.bp + r]).unwrap_or(0))
            }),
            (rhs, _) => {
                let r = rhs.into_fn();
                ef(move |m| {
                    let v = add(m.regs[m.bp + s], d);
                    m.regs[m.bp + s] = v;
                    Ok(f(v, r(m)?).unwrap_or(0))
                })
            }
        })
    }
}

/// A compiled lvalue.
pub(super) enum PlaceC {
    Reg(usize),
    Mem(ExprFn, Kind),
}

/// Builds `place op= value`.
pub(super) struct CompoundV {
    pub(super) place: PlaceC,
    pub(super) val: ExprFn,
    pub(super) cin: Option<CastFn>,
    pub(super) cout: Option<CastFn>,
    pub(super) post: Option<Kind>,
    pub(super) loc: Loc,
}

impl BinVisitor for CompoundV {
    type Out = ExprFn;
    fn visit<F>(self, f: F) -> ExprFn
    where
        F: Fn(u64, u64) -> Result<u64, ArithFault> + Copy + Send + Sync + 'static,
    {
        let CompoundV {
            place,
            val,
            cin,
            cout,
            post,
            loc,
        } = self;
        let plain = post.is_none();
        let post = post.unwrap_or(Kind::U64);
        match place {
            PlaceC::Reg(s) if cin.is_none() && cout.is_none() && plain => ef(move |m| {
                let y = val(m)?;
                let r = f(m.regs[m.bp + s], y).map_err(|e| arith_trap(e, loc))?;
                m.regs[m.bp + s] = r;
                Ok(r)
            }),
            PlaceC::Reg(s) if cin.is_none() && cout.is_none() => ef(move |m| {
                let y = val(m)?;
                let r = norm(
                    post,
                    f(m.regs[m.bp + s], y).map_err(|e| arith_trap(e, loc))?,
                );
                m.regs[m.bp + s] = r;
                Ok(r)
            }),
            PlaceC::Reg(s) => ef(move |m| {
                let y = val(m)?;
                let x = apply(cin, m.regs[m.bp + s]);
                let r = apply(cout, norm(post, f(x, y).map_err(|e| arith_trap(e, loc))?));
                m.regs[m.bp + s] = r;
                Ok(r)
            }),
            PlaceC::Mem(addr, k) => ef(move |m| {
                let y = val(m)?;
                let a = addr(m)?;
                let x = apply(cin, m.load_kind(k, a).map_err(|e| m.fault(e, loc))?);
                let r = apply(cout, norm(post, f(x, y).map_err(|e| arith_trap(e, loc))?));
                m.store_kind(k, a, r).map_err(|e| m.fault(e, loc))?;
                Ok(r)
            }),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Complex arithmetic: crate::libc::complex (shared with the constant folding of static
// initializers, so that a folded constant equals the value computed at run time).

pub(super) use crate::libc::complex::complex_op;

impl<'m> Machine<'m> {
    /// Real and imaginary parts of the complex value at `p` (f32 parts widened).
    pub fn load_complex(&self, ek: Kind, p: u64) -> Result<(f64, f64), crate::exec::memory::MemFault> {
        let step = ek.bytes();
        let re = self.load_kind(ek, p)?;
        let im = self.load_kind(ek, p.wrapping_add(step))?;
        Ok((crate::exec::value::as_f64(ek, re), crate::exec::value::as_f64(ek, im)))
    }
    pub fn store_complex(
        &mut self,
        ek: Kind,
        p: u64,
        re: f64,
        im: f64,
    ) -> Result<(), crate::exec::memory::MemFault> {
        let w = |x: f64| {
            if ek == Kind::F32 {
                (x as f32).to_bits() as u64
            } else {
                x.to_bits()
            }
        };
        self.store_kind(ek, p, w(re))?;
        self.store_kind(ek, p.wrapping_add(ek.bytes()), w(im))
    }
}

/// gcc's compile-time conversion of a floating constant to an integer type: saturating at the
/// type's limits, NaN to 0 (Rust's `as` does exactly this).
pub(super) fn fold_float_to_int(from: Kind, to: Kind, v: u64) -> u64 {
    let x = crate::exec::value::as_f64(from, v);
    match to {
        Kind::Bool => (x != 0.0) as u64,
        Kind::I8 => x as i8 as i64 as u64,
        Kind::U8 => x as u8 as u64,
        Kind::I16 => x as i16 as i64 as u64,
        Kind::U16 => x as u16 as u64,
        Kind::I32 => x as i32 as i64 as u64,
        Kind::U32 => x as u32 as u64,
        Kind::I64 => x as i64 as u64,
        _ => x as u64,
    }
}

impl<'a> Cx<'a> {
    pub(super) fn binary(&mut self, op: BinOp, a: Ce, b: Ce, k: Kind, loc: Loc) -> R<Ce> {
        let (cls, post) = class_of(k, op.is_comparison());
        let r = dispatch(op, cls, BinaryV { a, b, loc }).ok_or_else(|| {
            Diagnostic::internal(format!("no {op:?} for operands of kind {k:?}"), Some(loc))
        })?;
        Ok(match post {
            Some(pk) => match r {
                Ce::Const(c) => Ce::Const(norm(pk, c)),
                r => {
                    let f = r.into_fn();
                    Ce::Dyn(ef(move |m| Ok(norm(pk, f(m)?))))
                }
            },
            None => r,
        })
    }
}
