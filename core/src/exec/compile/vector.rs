//! Vectorised counted loops: a straight-line loop body that stores one element-wise expression
//! runs a block of iterations at a time, column by column, as a compiler's vectoriser would.
//!
//! The shape: `for (...; c < limit; c++) { r1 = e1; …; rk = ek; p[ix] = value; }` (a
//! [`super::Loop1`] with a [`Counter`]) where each `ri` is a register given an integer expression
//! affine in the counter (the loop variable that a fast share of a collapsed loop sets from its
//! counter, `core/src/kernel/schedule.rs`), `p` is a register the body does not assign, `ix` is
//! affine in the counter, and `value` is built from constants, registers the body does not assign,
//! the counter, array elements `q[iy]` with `q` and `iy` of the same kinds, arithmetic,
//! comparisons, conversions and negation. Each access is then a run of addresses with a constant
//! stride. The last statement may instead be `acc op= value` on a register that nothing else in
//! the body reads (the `sum += a[i*n+k] * b[k*n+j]` of a matrix product): the values are computed
//! a block at a time and folded into `acc` one after the other, in iteration order. A body whose
//! value a short nest of loops with constant bounds accumulates (a filter's point: `s = 0; for
//! (di…) for (dj…) s += w[…] * in[…]; out[ix] = s;`) runs the same way, tap by tap ([`NestLoop`]).
//!
//! **Exactness.** A block computes, per iteration, the same operations on the same values as the
//! ordinary loop and stores the same words in iteration order; only the order of the loads relative
//! to the stores of other iterations differs, so the loop is run this way only when no store can
//! reach a load of another iteration: the stored run shares no byte with a loaded run, or is the
//! very same run (each element read then written by its own iteration). An index narrowed to
//! `int` must not wrap anywhere in the loop (then it is exactly affine). Where an access would
//! fault, an operation would trap (integer division by zero), fuel runs out, or an observer or a
//! checker is attached, the ordinary loop runs the iterations that remain, so faults, traps and
//! observations happen exactly where they would. Steps are charged as the ordinary loop charges
//! them (one per statement and one per test), a block at a time. Registers are left as the
//! ordinary loop leaves them: the counter stepped past the last iteration, `ri` as the last
//! iteration set them.
//!
//! Cost: about a dozen machine instructions per element and node instead of a closure call per
//! node and a memory look-up per access.

use crate::exec::machine::code::vector::*;
use super::{body_stmt, class_of, dispatch, BinVisitor, Counter, CounterLimit, Cx, Home, IndexF, Poly, R};
use crate::exec::machine::ArithFault;
use crate::exec::value::{cast_fn, CastFn, Kind};
use crate::ir::*;

/// Most nodes in one value expression.
const MAX_NODES: usize = 64;
/// Most taps in a nest.
const MAX_TAPS: i64 = 256;

struct ColV;

impl BinVisitor for ColV {
    type Out = ColOp;
    fn visit<F>(self, f: F) -> ColOp
    where
        F: Fn(u64, u64) -> Result<u64, ArithFault> + Copy + Send + Sync + 'static,
    {
        Box::new(move |a: &[u64], b: &[u64], out: &mut [u64]| {
            for ((o, x), y) in out.iter_mut().zip(a).zip(b) {
                *o = f(*x, *y)?;
            }
            Ok(())
        })
    }
}

struct FoldV;

impl BinVisitor for FoldV {
    type Out = FoldOp;
    fn visit<F>(self, f: F) -> FoldOp
    where
        F: Fn(u64, u64) -> Result<u64, ArithFault> + Copy + Send + Sync + 'static,
    {
        Box::new(move |acc: u64, v: &[u64]| v.iter().try_fold(acc, |a, x| f(a, *x)))
    }
}

/// Whether a polynomial is affine in the registers `vary` (no product of two of them).
fn affine(p: &Poly, vary: &[usize]) -> bool {
    p.terms.iter().all(|t| !(vary.contains(&t.a) && t.b.is_some_and(|b| vary.contains(&b))))
}

/// The registers a polynomial reads.
fn reads(p: &Poly) -> impl Iterator<Item = usize> + '_ {
    p.terms.iter().flat_map(|t| std::iter::once(t.a).chain(t.b))
}

/// The expression statements of a block, in order; `None` for any other statement.
fn flatten<'s>(s: &'s Stmt, out: &mut Vec<&'s Expr>) -> Option<()> {
    let mut items = Vec::new();
    block_items(s, &mut items, |k| matches!(k, StmtKind::Expr(_)))?;
    out.extend(items.into_iter().filter_map(|x| match &x.kind {
        StmtKind::Expr(e) => Some(e),
        _ => None,
    }));
    Some(())
}

/// The statements of a block, blocks flattened: expression statements and `for` loops; `None`
/// for any other statement.
fn items_of<'s>(s: &'s Stmt, out: &mut Vec<&'s Stmt>) -> Option<()> {
    block_items(s, out, |k| matches!(k, StmtKind::Expr(_) | StmtKind::For { .. }))
}

/// The statements of a block that `keep` accepts, in order, nested blocks flattened and empty
/// statements skipped; `None` when any other statement is there.
fn block_items<'s>(s: &'s Stmt, out: &mut Vec<&'s Stmt>, keep: fn(&StmtKind) -> bool) -> Option<()> {
    match &s.kind {
        StmtKind::Block(v) => {
            for x in v {
                block_items(x, out, keep)?;
            }
        }
        StmtKind::Empty => {}
        k if keep(k) => out.push(s),
        _ => return None,
    }
    Some(())
}

impl Cx<'_> {
    /// The [`VecLoop`] of a counted loop's body, when it has the shape of the module docs.
    pub(super) fn vec_loop(&mut self, body: &Stmt, c: &Counter) -> R<Option<VecLoop>> {
        let mut stmts = Vec::new();
        if flatten(body, &mut stmts).is_none() {
            return Ok(None);
        }
        let Some((last, pre)) = stmts.split_last() else {
            return Ok(None);
        };
        // Every register the body assigns (the counter, by its step).
        let Some(mut assigned) = self.pre_regs(pre, c) else {
            return Ok(None);
        };
        // A fold's accumulator, which nothing else may read.
        let acc = match &last.kind {
            ExprKind::CompoundAssign { place: Place::Local(l), .. } => match self.homes.get(l.0 as usize) {
                Some(&Home::Reg(s)) if !assigned.contains(&s) => Some(s),
                _ => return Ok(None),
            },
            _ => None,
        };
        assigned.extend(acc);
        let Some(derived) = self.derived(pre, &assigned) else {
            return Ok(None);
        };
        let (sink, value) = match &last.kind {
            ExprKind::Assign { place: Place::Mem(addr), value } => match self.access(addr, self.kind(last.ty), &assigned) {
                Some(a) => (Sink::Store(a), value),
                None => return Ok(None),
            },
            ExprKind::CompoundAssign { op, place: Place::Local(l), value, op_ty } => {
                let k = self.kind(last.ty);
                let Some(&Home::Reg(slot)) = self.homes.get(l.0 as usize) else {
                    return Ok(None);
                };
                let (cls, post) = class_of(k, false);
                if op.is_comparison() || post.is_some() || self.kind(*op_ty) != k || self.kind(value.ty) != k || acc != Some(slot) {
                    return Ok(None);
                }
                let Some(f) = dispatch(*op, cls, FoldV) else {
                    return Ok(None);
                };
                (Sink::Fold(slot, f), value)
            }
            _ => return Ok(None),
        };
        let mut v = VecLoop { derived, sink, e: VExpr::default() };
        if self.vec_node(value, c, &assigned, &mut v.e)?.is_none() || v.e.nodes.len() > MAX_NODES {
            return Ok(None);
        }
        Ok(Some(v))
    }

    /// The [`NestLoop`] of a counted loop's body, when it has the shape of its docs.
    pub(super) fn nest_loop(&mut self, body: &Stmt, c: Counter) -> R<Option<NestLoop>> {
        let mut items = Vec::new();
        if items_of(body, &mut items).is_none() || items.len() < 3 {
            return Ok(None);
        }
        let (pre_items, tail) = items.split_at(items.len() - 3);
        let (StmtKind::Expr(init_e), StmtKind::Expr(last)) = (&tail[0].kind, &tail[2].kind) else {
            return Ok(None);
        };
        let mut pre = Vec::new();
        for s in pre_items {
            match &s.kind {
                StmtKind::Expr(e) => pre.push(e),
                _ => return Ok(None),
            }
        }
        let Some(mut assigned) = self.pre_regs(&pre, &c) else {
            return Ok(None);
        };
        let ExprKind::Assign { place: Place::Local(l), value: init } = &init_e.kind else {
            return Ok(None);
        };
        let k = self.kind(init_e.ty);
        let acc = match self.homes.get(l.0 as usize) {
            Some(&Home::Reg(s)) if !assigned.contains(&s) && self.kind(init.ty) == k => s,
            _ => return Ok(None),
        };
        assigned.push(acc);
        // The nest, outermost first; its cost from the innermost loop out: `init` and the first
        // test, then per iteration the body and the step-and-test.
        let mut levels = Vec::new();
        let mut cur = tail[1];
        let tap_e = loop {
            let StmtKind::For { init: Some(fi), cond: Some(fc), step: Some(fs), body: fb } = &cur.kind else {
                return Ok(None);
            };
            let (Some(ctr), Some(_)) = (self.counter(fs, fc), self.fused_step(fs, fc)?) else {
                return Ok(None);
            };
            let (CounterLimit::Const(to), Some(StmtKind::Expr(ie))) = (ctr.limit, body_stmt(fi).map(|s| &s.kind)) else {
                return Ok(None);
            };
            let ExprKind::Assign { place: Place::Local(il), value: from } = &ie.kind else {
                return Ok(None);
            };
            if !self.is_reg(il, ctr.slot) || assigned.contains(&ctr.slot) || self.kind(from.ty) != self.kind(ie.ty) {
                return Ok(None);
            }
            let super::Ce::Const(from) = self.expr(from)? else {
                return Ok(None);
            };
            let from = norm(ctr.narrow, from as i64) as i64;
            if from >= to {
                return Ok(None);
            }
            levels.push(Level { slot: ctr.slot, narrow: ctr.narrow, from, to });
            assigned.push(ctr.slot);
            match body_stmt(fb) {
                Some(s) if matches!(s.kind, StmtKind::For { .. }) => cur = s,
                Some(Stmt { kind: StmtKind::Expr(e), .. }) => break e,
                _ => return Ok(None),
            }
        };
        let taps = levels.iter().try_fold(1i64, |n, l| n.checked_mul(l.to - l.from).filter(|&n| n <= MAX_TAPS));
        let Some(taps) = taps else {
            return Ok(None);
        };
        let ExprKind::CompoundAssign { op, place: Place::Local(fl), value: tap_v, op_ty } = &tap_e.kind else {
            return Ok(None);
        };
        let (cls, post) = class_of(k, false);
        if !self.is_reg(fl, acc)
            || self.kind(tap_e.ty) != k
            || op.is_comparison()
            || post.is_some()
            || self.kind(*op_ty) != k
            || self.kind(tap_v.ty) != k
        {
            return Ok(None);
        }
        let Some(fold) = dispatch(*op, cls, ColV) else {
            return Ok(None);
        };
        // The store of the accumulator.
        let ExprKind::Assign { place: Place::Mem(addr), value: stored } = &last.kind else {
            return Ok(None);
        };
        if !matches!(&stored.kind, ExprKind::Local(sl) if self.is_reg(sl, acc)) || self.kind(stored.ty) != k || self.kind(last.ty) != k {
            return Ok(None);
        }
        let Some(store) = self.access(addr, k, &assigned) else {
            return Ok(None);
        };
        let Some(derived) = self.derived(&pre, &assigned) else {
            return Ok(None);
        };
        let (mut init_v, mut tap) = (VExpr::default(), VExpr::default());
        if self.vec_node(init, &c, &assigned, &mut init_v)?.is_none() || !init_v.loads.is_empty() || self.vec_node(tap_v, &c, &assigned, &mut tap)?.is_none() {
            return Ok(None);
        }
        let nest = levels.iter().rev().fold(1, |inner, l| 2 + (l.to - l.from) as u64 * (inner + 1));
        let cost = pre.len() as u64 + nest + 3;
        Ok(Some(NestLoop { counter: c, derived, acc, init: init_v, levels, taps: taps as usize, fold, tap, store, cost }))
    }

    /// Whether local `l` lives in register `slot`.
    fn is_reg(&self, l: &LocalId, slot: usize) -> bool {
        matches!(self.homes.get(l.0 as usize), Some(&Home::Reg(s)) if s == slot)
    }

    /// The registers of a body's leading assignments `pre`, after the counter's; `None` when one
    /// is not an assignment to a register of its own.
    fn pre_regs(&self, pre: &[&Expr], c: &Counter) -> Option<Vec<usize>> {
        let mut assigned = vec![c.slot];
        for e in pre {
            match &e.kind {
                ExprKind::Assign { place: Place::Local(l), .. } => match self.homes.get(l.0 as usize) {
                    Some(Home::Reg(s)) if !assigned.contains(s) => assigned.push(*s),
                    _ => return None,
                },
                _ => return None,
            }
        }
        Some(assigned)
    }

    /// The derived registers of the assignments `pre` (`assigned`: the counter, their registers
    /// in order, then the other registers the body assigns), each affine in the counter and the
    /// registers assigned before it.
    fn derived(&mut self, pre: &[&Expr], assigned: &[usize]) -> Option<Vec<(usize, IndexF)>> {
        let mut derived = Vec::new();
        for (i, e) in pre.iter().enumerate() {
            let ExprKind::Assign { value, .. } = &e.kind else {
                return None;
            };
            let k = self.kind(e.ty);
            let narrow = match k {
                Kind::I32 => true,
                Kind::I64 | Kind::U64 => false,
                _ => return None,
            };
            if self.kind(value.ty) != k {
                return None;
            }
            // Only the counter and registers assigned before it, never one assigned later (that
            // would be last iteration's value).
            let known = &assigned[..i + 1];
            let p = self.poly_w(value, k, narrow)?;
            if !affine(&p, known) || reads(&p).any(|s| assigned.contains(&s) && !known.contains(&s)) {
                return None;
            }
            derived.push((assigned[i + 1], IndexF::new(p, narrow)));
        }
        Some(derived)
    }

    /// `regs[base] + ix * size` of `kind` for an address `p + ix` with `p` a register the body
    /// does not assign and `ix` affine in the ones it does.
    fn access(&self, addr: &Expr, kind: Kind, assigned: &[usize]) -> Option<Access> {
        if !matches!(kind, Kind::F64 | Kind::I64 | Kind::U64 | Kind::Ptr | Kind::I32 | Kind::U32 | Kind::F32) {
            return None;
        }
        let ExprKind::PtrAdd { ptr, index, elem } = &addr.kind else {
            return None;
        };
        let ExprKind::Local(l) = ptr.kind else {
            return None;
        };
        let Some(&Home::Reg(base)) = self.homes.get(l.0 as usize) else {
            return None;
        };
        let size = self.t.size_of(*elem).filter(|_| !matches!(self.t.get(*elem), Type::Vla(..)))?;
        let (p, narrow) = self.index_terms(index)?;
        if assigned.contains(&base) || !affine(&p, assigned) {
            return None;
        }
        Some(Access { kind, base, ix: IndexF::new(p, narrow), size })
    }

    /// Append the nodes of `e` to `v`; the index of its node, or `None` when it is not of the
    /// vectorisable shape.
    fn vec_node(&mut self, e: &Expr, c: &Counter, assigned: &[usize], v: &mut VExpr) -> R<Option<usize>> {
        let k = self.kind(e.ty);
        let node = match &e.kind {
            ExprKind::Int(_) | ExprKind::Float(_) => match self.expr(e)? {
                super::Ce::Const(x) => VNode::Const(x),
                _ => return Ok(None),
            },
            ExprKind::Local(l) => match self.homes.get(l.0 as usize) {
                Some(&Home::Reg(s)) if s == c.slot => VNode::Counter,
                Some(&Home::Reg(s)) if !assigned.contains(&s) => VNode::Reg(s),
                _ => return Ok(None),
            },
            ExprKind::Load(a) => {
                let Some(acc) = self.access(a, k, assigned) else {
                    return Ok(None);
                };
                v.loads.push(acc);
                VNode::Load(v.loads.len() - 1)
            }
            ExprKind::Binary(op, a, b) => {
                let opk = if op.is_comparison() { self.kind(a.ty) } else { k };
                let (cls, post) = class_of(opk, op.is_comparison());
                if post.is_some() {
                    return Ok(None);
                }
                let Some(f) = dispatch(*op, cls, ColV) else {
                    return Ok(None);
                };
                let Some(x) = self.vec_node(a, c, assigned, v)? else {
                    return Ok(None);
                };
                let Some(y) = self.vec_node(b, c, assigned, v)? else {
                    return Ok(None);
                };
                VNode::Bin(f, x, y)
            }
            ExprKind::Cast(a) => {
                let from = self.kind(a.ty);
                if !matches!(from, Kind::F64 | Kind::F32 | Kind::I32 | Kind::U32 | Kind::I64 | Kind::U64)
                    || !matches!(k, Kind::F64 | Kind::F32 | Kind::I32 | Kind::U32 | Kind::I64 | Kind::U64)
                {
                    return Ok(None);
                }
                let Some(x) = self.vec_node(a, c, assigned, v)? else {
                    return Ok(None);
                };
                match cast_fn(from, k) {
                    None => return Ok(Some(x)),
                    // A constant's conversion is folded as the ordinary code folds it.
                    Some(_) if matches!(v.nodes.get(x), Some(VNode::Const(_))) => match self.expr(e)? {
                        super::Ce::Const(folded) => {
                            v.nodes[x] = VNode::Const(folded);
                            return Ok(Some(x));
                        }
                        _ => return Ok(None),
                    },
                    Some(f) => VNode::Map(f, x),
                }
            }
            ExprKind::Unary(UnOp::Neg, a) => {
                let f: CastFn = match k {
                    Kind::F32 => |x| x ^ 0x8000_0000,
                    Kind::F64 => |x| x ^ (1 << 63),
                    Kind::I32 => |x| (x as i32).wrapping_neg() as i64 as u64,
                    Kind::I64 | Kind::U64 => |x| x.wrapping_neg(),
                    _ => return Ok(None),
                };
                let Some(x) = self.vec_node(a, c, assigned, v)? else {
                    return Ok(None);
                };
                VNode::Map(f, x)
            }
            _ => return Ok(None),
        };
        if v.nodes.len() >= MAX_NODES {
            return Ok(None);
        }
        v.nodes.push(node);
        Ok(Some(v.nodes.len() - 1))
    }
}
