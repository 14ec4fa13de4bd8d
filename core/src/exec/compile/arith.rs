//! Expression closures built from the operation table (`exec/arith.rs`), compound assignments,
//! and complex arithmetic.

use super::*;

pub(super) use crate::exec::arith::{bf32, class_of, dispatch, f32b, f64b, BinVisitor};

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
