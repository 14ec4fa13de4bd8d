//! Superinstructions of counted loops: the fused `i++; i < n` step ([`Counter`]), and the
//! multiply-accumulate loop `s += x[...] * y[...]` run with addresses stepped instead of
//! recomputed ([`MacLoop`]).

use super::*;
use crate::exec::float_ops as fl;

impl MacLoop {
    /// Blocks of `B` iterations of a multiply-accumulate loop from iteration `t` on, both runs
    /// read at once, while every load of a block succeeds (loads have no effect, so reading
    /// ahead is not observable); `t`, the addresses `a` and the accumulator `acc` are left at the
    /// first iteration not run.
    pub(super) fn blocks<const B: usize>(&self, m: &mut Machine, a: &mut [u64; 2], d: [u64; 2], trip: i64, t: &mut i64, acc: &mut u64) {
        let (mut xs, mut ys) = ([0u64; B], [0u64; B]);
        while *t < trip {
            let len = (trip - *t).min(B as i64) as usize;
            let (x, y) = (&mut xs[..len], &mut ys[..len]);
            let ok = if self.f64 {
                m.mem.load_run::<8>(a[0], d[0] as i64, x) && m.mem.load_run::<8>(a[1], d[1] as i64, y)
            } else {
                m.mem.load_run::<4>(a[0], d[0] as i64, x) && m.mem.load_run::<4>(a[1], d[1] as i64, y)
            };
            if !ok {
                return;
            }
            *acc = if self.f64 {
                x.iter().zip(y.iter()).fold(f64b(*acc), |s, (&x, &y)| fl::add64(s, fl::mul64(f64b(x), f64b(y)))).to_bits()
            } else {
                bf32(x.iter().zip(y.iter()).fold(f32b(*acc), |s, (&x, &y)| fl::add32(s, fl::mul32(f32b(x), f32b(y)))))
            };
            m.fuel -= 2 * len as u64;
            *t += len as i64;
            a[0] = a[0].wrapping_add(d[0].wrapping_mul(len as u64));
            a[1] = a[1].wrapping_add(d[1].wrapping_mul(len as u64));
        }
    }
}

impl Loop1 {
    /// Run the loop (its body already due: do-while form) through its [`MacLoop`], when it has one
    /// and the fast path applies; `Ok(false)` when the caller must run it the ordinary way. Costs
    /// and results are those of the ordinary loop: 2 steps an iteration, the same loads in the same
    /// order, the same roundings, the same registers afterwards, the same faults.
    pub fn run_mac(&self, m: &mut Machine) -> Result<bool, Trap> {
        let (Some(mac), Some(c)) = (&self.mac, &self.counter) else {
            return Ok(false);
        };
        if m.observer.is_some() {
            return Ok(false);
        }
        let (k, v0, trip) = c.trip(m);
        if !(1..1 << 30).contains(&trip) || !m.reserve_fuel(2 * trip as u64) {
            return Ok(false);
        }
        let last = v0 + trip - 1;
        let norm_c = |v: i64| if c.narrow { v as i32 as i64 as u64 } else { v as u64 };
        // The base pointers (the body writes no memory, so a pointer read through a variable
        // stays the same); a base that cannot be read is left to the ordinary loop to report.
        let base = |m: &Machine, b: Base| match b {
            Base::Reg(s) => Some(m.regs[m.bp + s]),
            Base::Ind(s, _) => m.mem.load_u64(m.regs[m.bp + s]).ok(),
        };
        let (Some(bx), Some(by)) = (base(m, mac.x.base), base(m, mac.y.base)) else {
            return Ok(false);
        };
        if !mac.x.ix.affine_in(c.slot) || !mac.y.ix.affine_in(c.slot) {
            return Ok(false);
        }
        // The indices at the first iteration and the second (the step: they are affine in the
        // counter), with the counter set to each in turn.
        let (x0, y0) = (mac.x.ix.raw(m).0, mac.y.ix.raw(m).0);
        m.regs[k] = norm_c(v0 + 1);
        let (x1, y1) = (mac.x.ix.raw(m).0, mac.y.ix.raw(m).0);
        m.regs[k] = norm_c(v0);
        let span = trip - 1;
        // A narrowed (int) index must not wrap around anywhere in the loop: the first and the
        // last are ints and the step is small, so none between wraps.
        let ok = |l: &LoadS, r0: u64, r1: u64| {
            if !l.ix.narrowed() {
                return true;
            }
            let st = r1.wrapping_sub(r0) as i64;
            let fits = |r: i64| r as i32 as i64 == r;
            fits(r0 as i64) && (-(1 << 31)..1 << 31).contains(&st) && fits((r0 as i64) + st * span)
        };
        if !ok(&mac.x, x0, x1) || !ok(&mac.y, y0, y1) {
            return Ok(false);
        }
        let mut a = [
            bx.wrapping_add(x0.wrapping_mul(mac.x.size)),
            by.wrapping_add(y0.wrapping_mul(mac.y.size)),
        ];
        let d = [
            x1.wrapping_sub(x0).wrapping_mul(mac.x.size),
            y1.wrapping_sub(y0).wrapping_mul(mac.y.size),
        ];
        let s = m.bp + mac.s;
        let mut t = 0i64;
        // Whole blocks of both runs at once while every load of the block succeeds (loads have
        // no effect, so reading ahead is not observable); what is left, from the first block
        // with a faulting load on, one load at a time below.
        // (A short loop, like the taps of a stencil, goes one load at a time: there, blocks cost
        // as much as they save.)
        let mut acc = m.regs[s];
        if trip >= 16 {
            mac.blocks::<64>(m, &mut a, d, trip, &mut t, &mut acc);
        }
        m.regs[s] = acc;
        let r = if t == trip {
            Ok(())
        } else if mac.f64 {
            let mut acc = f64b(m.regs[s]);
            let r = loop {
                m.fuel -= 1;
                let x = match m.mem.load_u64(a[0]) {
                    Ok(x) => x,
                    Err(f) => break Err(m.fault(f, mac.x.loc)),
                };
                let y = match m.mem.load_u64(a[1]) {
                    Ok(y) => y,
                    Err(f) => break Err(m.fault(f, mac.y.loc)),
                };
                acc = fl::add64(acc, fl::mul64(f64b(x), f64b(y)));
                m.fuel -= 1;
                t += 1;
                if t == trip {
                    break Ok(());
                }
                a[0] = a[0].wrapping_add(d[0]);
                a[1] = a[1].wrapping_add(d[1]);
            };
            m.regs[s] = acc.to_bits();
            r
        } else {
            let mut acc = f32b(m.regs[s]);
            let r = loop {
                m.fuel -= 1;
                let x = match m.mem.load_u32(a[0]) {
                    Ok(x) => x,
                    Err(f) => break Err(m.fault(f, mac.x.loc)),
                };
                let y = match m.mem.load_u32(a[1]) {
                    Ok(y) => y,
                    Err(f) => break Err(m.fault(f, mac.y.loc)),
                };
                acc = fl::add32(acc, fl::mul32(f32::from_bits(x), f32::from_bits(y)));
                m.fuel -= 1;
                t += 1;
                if t == trip {
                    break Ok(());
                }
                a[0] = a[0].wrapping_add(d[0]);
                a[1] = a[1].wrapping_add(d[1]);
            };
            m.regs[s] = bf32(acc);
            r
        };
        // The counter as the ordinary loop leaves it: stepped past the last iteration, or at the
        // iteration that faulted.
        if r.is_ok() {
            m.regs[k] = norm_c(last + 1);
        } else {
            m.regs[k] = norm_c(v0 + t);
        }
        r.map(|()| true)
    }
}

impl<'a> Cx<'a> {
    /// `step; cond` of a `for` as one closure, for `i++`/`i--`/`i += c`-free counted loops
    /// (`for (...; i < n; i++)` with `n` a constant or register local).
    /// The `i++; i < n` of a counted loop over a signed `int` or `long` register local, with
    /// `n` a constant or a register local.
    pub(super) fn counter(&mut self, step: &Expr, cond: &Expr) -> Option<Counter> {
        let k = self.kind(step.ty);
        let l = match &step.kind {
            ExprKind::IncDec {
                place: Place::Local(l),
                delta: 1,
                ..
            } => l,
            // `i += 1` in the counter's own type is `i++`.
            ExprKind::CompoundAssign {
                op: BinOp::Add,
                place: Place::Local(l),
                value,
                op_ty,
            } if self.kind(*op_ty) == k
                && self.kind(value.ty) == k
                && matches!(value.kind, ExprKind::Int(v) if norm(k, v) == 1) =>
            {
                l
            }
            _ => return None,
        };
        let Some(Home::Reg(slot)) = self.homes.get(l.0 as usize).copied() else {
            return None;
        };
        let ExprKind::Binary(BinOp::Lt, a, b) = &cond.kind else {
            return None;
        };
        if !matches!(k, Kind::I32 | Kind::I64) || self.kind(a.ty) != k || self.kind(b.ty) != k {
            return None;
        }
        if !matches!(&a.kind, ExprKind::Local(l2) if l2 == l) {
            return None;
        }
        let limit = match &b.kind {
            ExprKind::Int(v) => CounterLimit::Const(norm(k, *v) as i64),
            ExprKind::Local(r) => match self.homes.get(r.0 as usize) {
                Some(Home::Reg(rs)) => CounterLimit::Reg(*rs),
                _ => return None,
            },
            _ => return None,
        };
        Some(Counter {
            slot,
            narrow: k == Kind::I32,
            limit,
        })
    }

    pub(super) fn fused_step(&mut self, step: &Expr, cond: &Expr) -> R<Option<ExprFn>> {
        let k = self.kind(step.ty);
        if !matches!(k, Kind::I32 | Kind::I64 | Kind::U64) {
            return Ok(None);
        }
        let (l, delta) = match &step.kind {
            ExprKind::IncDec {
                place: Place::Local(l),
                ..
            } => (l, None),
            ExprKind::CompoundAssign {
                op: BinOp::Add,
                place: Place::Local(l),
                value,
                op_ty,
            } if self.kind(*op_ty) == k && self.kind(value.ty) == k => (l, Some(value)),
            _ => return Ok(None),
        };
        let Some(Home::Reg(s)) = self.homes.get(l.0 as usize).copied() else {
            return Ok(None);
        };
        let ExprKind::Binary(op, a, b) = &cond.kind else {
            return Ok(None);
        };
        if !op.is_comparison() || self.kind(a.ty) != k {
            return Ok(None);
        }
        let ExprKind::Local(l2) = &a.kind else {
            return Ok(None);
        };
        if l2 != l {
            return Ok(None);
        }
        let delta = match delta {
            Some(v) => self.expr(v)?,
            None => match &step.kind {
                ExprKind::IncDec { delta, .. } => Ce::Const(*delta as i64 as u64),
                _ => return Ok(None),
            },
        };
        let rhs = self.expr(b)?;
        let (cls, _) = class_of(k, true);
        let v = StepCondV {
            slot: s,
            delta,
            narrow: k == Kind::I32,
            rhs,
        };
        Ok(dispatch(*op, cls, v).flatten())
    }

    /// The parts of a `s += x[...] * y[...]` loop body for [`Loop1::run_mac`].
    pub(super) fn mac_loop(&mut self, e: &Expr) -> R<Option<MacLoop>> {
        let ExprKind::CompoundAssign {
            op: BinOp::Add,
            place: Place::Local(l),
            value,
            op_ty,
        } = &e.kind
        else {
            return Ok(None);
        };
        let Some(Home::Reg(s)) = self.homes.get(l.0 as usize).copied() else {
            return Ok(None);
        };
        let k = self.kind(e.ty);
        if !matches!(k, Kind::F64 | Kind::F32) || self.kind(*op_ty) != k || self.kind(value.ty) != k
        {
            return Ok(None);
        }
        let ExprKind::Binary(BinOp::Mul, x, y) = &value.kind else {
            return Ok(None);
        };
        Ok(match (self.expr(x)?, self.expr(y)?) {
            (Ce::Load(a), Ce::Load(b)) if a.kind == k && b.kind == k => {
                Some(MacLoop {
                    s,
                    f64: k == Kind::F64,
                    x: a,
                    y: b,
                })
            }
            _ => None,
        })
    }

    /// `s += x * y` on a register `double`/`float` with array-element or register operands, as one
    /// closure: the inner loop of dot products, matrix products and convolutions.
    pub(super) fn multiply_accumulate(
        &mut self,
        op: BinOp,
        place: &Place,
        value: &Expr,
        op_ty: TypeId,
        k: Kind,
    ) -> R<Option<ExprFn>> {
        let Place::Local(l) = place else {
            return Ok(None);
        };
        if self.checking {
            return Ok(None);
        }
        let Some(Home::Reg(s)) = self.homes.get(l.0 as usize).copied() else {
            return Ok(None);
        };
        let ExprKind::Binary(BinOp::Mul, x, y) = &value.kind else {
            return Ok(None);
        };
        if op != BinOp::Add
            || !matches!(k, Kind::F64 | Kind::F32)
            || self.kind(op_ty) != k
            || self.kind(value.ty) != k
        {
            return Ok(None);
        }
        let (x, y) = (self.expr(x)?, self.expr(y)?);
        macro_rules! mac {
            ($xe:expr, $ye:expr) => {
                if k == Kind::F64 {
                    ef(move |m| {
                        let p = fl::mul64(f64b($xe(m)?), f64b($ye(m)?));
                        let r = fl::add64(f64b(m.regs[m.bp + s]), p).to_bits();
                        m.regs[m.bp + s] = r;
                        Ok(r)
                    })
                } else {
                    ef(move |m| {
                        let p = fl::mul32(f32b($xe(m)?), f32b($ye(m)?));
                        let r = bf32(fl::add32(f32b(m.regs[m.bp + s]), p));
                        m.regs[m.bp + s] = r;
                        Ok(r)
                    })
                }
            };
        }
        Ok(Some(match (x, y) {
            (Ce::Load(a), Ce::Load(b)) => mac!(|m: &Machine| a.eval(m), |m: &Machine| b.eval(m)),
            (Ce::Load(a), Ce::Reg(t)) => mac!(
                |m: &Machine| a.eval(m),
                |m: &Machine| -> Result<u64, Trap> { Ok(m.regs[m.bp + t]) }
            ),
            (Ce::Reg(t), Ce::Load(b)) => mac!(
                |m: &Machine| -> Result<u64, Trap> { Ok(m.regs[m.bp + t]) },
                |m: &Machine| b.eval(m)
            ),
            (x, y) => {
                let (a, b) = (x.into_fn(), y.into_fn());
                mac!(|m: &mut Machine| a(m), |m: &mut Machine| b(m))
            }
        }))
    }
}
