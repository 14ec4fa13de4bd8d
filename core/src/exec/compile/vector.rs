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
//! a block at a time and folded into `acc` one after the other, in iteration order.
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

use super::{class_of, dispatch, BinVisitor, Counter, CounterLimit, Cx, Home, IndexF, Poly, R};
use crate::exec::machine::{ArithFault, Machine, Trap};
use crate::exec::value::{cast_fn, CastFn, Kind};
use crate::ir::*;

thread_local! {
    /// The block buffer of the loops this thread runs (a kernel's gangs run on several threads).
    static SCRATCH: std::cell::RefCell<Vec<u64>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Iterations per block.
const BLOCK: usize = 256;
/// Loops shorter than this run the ordinary way (the set-up would cost more than it saves).
const MIN_TRIP: i64 = 8;
/// Most nodes in one value expression.
const MAX_NODES: usize = 64;

/// An element-wise operation on a block: `out[i] = f(a[i], b[i])`.
type ColOp = Box<dyn Fn(&[u64], &[u64], &mut [u64]) -> Result<(), ArithFault> + Send + Sync>;

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

/// A fold of a block into an accumulator: `acc = f(acc, v[i])` for each `i` in order.
type FoldOp = Box<dyn Fn(u64, &[u64]) -> Result<u64, ArithFault> + Send + Sync>;

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

/// Where the value of each iteration goes.
enum Sink {
    /// `p[ix] = value`.
    Store(Access),
    /// `r op= value` on a register `r` that nothing else in the body reads (a sum, a dot
    /// product): folded in iteration order, so every rounding is the ordinary loop's.
    Fold(usize, FoldOp),
}

/// An array access `regs[base] + ix * size` of `kind`.
struct Access {
    kind: Kind,
    base: usize,
    ix: IndexF,
    size: u64,
}

impl Access {
    /// The bytes of one element (the accesses are of 4- or 8-byte kinds).
    fn bytes(&self) -> usize {
        match self.kind {
            Kind::I32 | Kind::U32 | Kind::F32 => 4,
            _ => 8,
        }
    }
}

/// A node of the value expression; operands are earlier nodes (post-order).
enum VNode {
    Const(u64),
    Reg(usize),
    /// The counter's value in the iteration.
    Counter,
    /// `loads[i]`.
    Load(usize),
    Bin(ColOp, usize, usize),
    Map(CastFn, usize),
}

/// A vectorisable loop body (see the module docs).
pub struct VecLoop {
    /// The register assignments before the last statement, in order.
    derived: Vec<(usize, IndexF)>,
    loads: Vec<Access>,
    sink: Sink,
    /// The value stored is the last node.
    nodes: Vec<VNode>,
}

/// A run of addresses: the first and the stride in bytes.
#[derive(Clone, Copy)]
struct Run {
    ptr: u64,
    step: i64,
}

impl VecLoop {
    /// Run the loop (its body already due: do-while form) a block at a time; `Ok(false)` when the
    /// caller must run the remaining iterations the ordinary way (the counter then names the
    /// first of them). `cost`: the steps one iteration costs.
    pub fn run(&self, m: &mut Machine, c: &Counter, cost: u64) -> Result<bool, Trap> {
        if m.observer.is_some() || m.checker.is_some() {
            return Ok(false);
        }
        let k = m.bp + c.slot;
        let v0 = m.regs[k] as i64;
        let limit = match c.limit {
            CounterLimit::Const(l) => l,
            CounterLimit::Reg(r) => m.regs[m.bp + r] as i64,
        };
        let trip = if v0 < limit { limit.wrapping_sub(v0) } else { 1 };
        if !(MIN_TRIP..1 << 31).contains(&trip) {
            return Ok(false);
        }
        let norm_c = |v: i64| if c.narrow { v as i32 as i64 as u64 } else { v as u64 };
        let saved: Vec<u64> = self.derived.iter().map(|&(s, _)| m.regs[m.bp + s]).collect();
        let runs = self.runs(m, c.slot, v0, trip, norm_c);
        let restore = |m: &mut Machine| {
            m.regs[k] = norm_c(v0);
            for (&(s, _), &v) in self.derived.iter().zip(&saved) {
                m.regs[m.bp + s] = v;
            }
        };
        let Some((loads, store)) = runs else {
            restore(m);
            return Ok(false);
        };
        let ok = store.is_none_or(|st| self.disjoint(&loads, st, trip));
        restore(m);
        if !ok {
            return Ok(false);
        }
        // The thread's block buffer, reused from loop to loop (no allocation per loop run).
        let mut buf = SCRATCH.with(|s| s.take());
        if buf.len() < self.nodes.len() * BLOCK {
            buf.resize(self.nodes.len() * BLOCK, 0);
        }
        let mut t = 0i64;
        let mut result = Ok(());
        while t < trip {
            let len = (trip - t).min(BLOCK as i64);
            let steps = cost * len as u64;
            if m.fuel < steps {
                break;
            }
            match self.block(m, &mut buf, &loads, store, v0, t, len as usize, norm_c) {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
            m.fuel -= steps;
            t += len;
        }
        SCRATCH.with(|s| s.replace(buf));
        result?;
        if t < trip {
            m.regs[k] = norm_c(v0 + t);
            return Ok(false);
        }
        // The registers as the last iteration leaves them, then the counter stepped past it.
        m.regs[k] = norm_c(v0 + trip - 1);
        for (s, ix) in &self.derived {
            m.regs[m.bp + s] = ix.eval(m);
        }
        m.regs[k] = norm_c(v0 + trip);
        Ok(true)
    }

    /// The address runs of the loads and the store, from the indices at the first two
    /// iterations; `None` when an index narrowed to `int` wraps somewhere in the loop.
    fn runs(&self, m: &mut Machine, slot: usize, v0: i64, trip: i64, norm_c: impl Fn(i64) -> u64) -> Option<(Vec<Run>, Option<Run>)> {
        let k = m.bp + slot;
        let span = trip - 1;
        let mut at = [Vec::new(), Vec::new()];
        for (t, out) in at.iter_mut().enumerate() {
            m.regs[k] = norm_c(v0 + t as i64);
            for (s, ix) in &self.derived {
                let raw = ix.raw(m).0;
                out.push((raw, ix.narrowed()));
                m.regs[m.bp + s] = ix.eval(m);
            }
            for a in self.loads.iter().chain(self.stored()) {
                out.push((a.ix.raw(m).0, a.ix.narrowed()));
            }
        }
        // A narrowed value that fits an int at the first and the last iteration, with a step that
        // fits one, never wraps in between: it is affine, and so is what is computed from it.
        let fits = |r: i64| r as i32 as i64 == r;
        for (&(r0, narrow), &(r1, _)) in at[0].iter().zip(&at[1]) {
            let st = r1.wrapping_sub(r0) as i64;
            if narrow && !(fits(r0 as i64) && fits(st) && fits((r0 as i64) + st * span)) {
                return None;
            }
        }
        let nd = self.derived.len();
        let run = |i: usize, a: &Access, m: &Machine| {
            let norm = |r: u64| if a.ix.narrowed() { r as i32 as i64 as u64 } else { r };
            let (x0, x1) = (norm(at[0][nd + i].0), norm(at[1][nd + i].0));
            Run {
                ptr: m.regs[m.bp + a.base].wrapping_add(x0.wrapping_mul(a.size)),
                step: x1.wrapping_sub(x0).wrapping_mul(a.size) as i64,
            }
        };
        let loads = self.loads.iter().enumerate().map(|(i, a)| run(i, a, m)).collect();
        let store = self.stored().map(|a| run(self.loads.len(), a, m));
        Some((loads, store))
    }

    /// The store's access (none for a fold).
    fn stored(&self) -> Option<&Access> {
        match &self.sink {
            Sink::Store(a) => Some(a),
            Sink::Fold(..) => None,
        }
    }

    /// No store of an iteration reaches a load of another: the stored bytes and each loaded run's
    /// bytes are apart, or the two runs are the same run of non-overlapping elements.
    fn disjoint(&self, loads: &[Run], store: Run, trip: i64) -> bool {
        let Some(sa) = self.stored() else {
            return true;
        };
        let extent = |r: Run, n: usize| -> Option<(u64, i64, i64)> {
            let first = r.ptr as u32 as i64;
            let last = first.checked_add(r.step.checked_mul(trip - 1)?)?;
            Some((r.ptr >> 32, first.min(last), first.max(last).checked_add(n as i64)?))
        };
        let sn = sa.bytes();
        let Some((sid, slo, shi)) = extent(store, sn) else {
            return false;
        };
        loads.iter().zip(&self.loads).all(|(&l, a)| {
            let n = a.bytes();
            let same = l.ptr == store.ptr && l.step == store.step && n == sn && l.step.unsigned_abs() >= n as u64;
            same || matches!(extent(l, n), Some((id, lo, hi)) if id != sid || hi <= slo || shi <= lo)
        })
    }

    /// Run iterations `t .. t+len`; `Ok(false)` (nothing stored) when one of them must run the
    /// ordinary way.
    #[allow(clippy::too_many_arguments)]
    fn block(&self, m: &mut Machine, buf: &mut [u64], loads: &[Run], store: Option<Run>, v0: i64, t: i64, len: usize, norm_c: impl Fn(i64) -> u64) -> Result<bool, Trap> {
        for (i, node) in self.nodes.iter().enumerate() {
            let (prev, cur) = buf.split_at_mut(i * BLOCK);
            let out = &mut cur[..len];
            let col = |j: usize| &prev[j * BLOCK..j * BLOCK + len];
            match node {
                VNode::Const(c) => out.fill(*c),
                VNode::Reg(s) => out.fill(m.regs[m.bp + s]),
                VNode::Counter => {
                    for (j, o) in out.iter_mut().enumerate() {
                        *o = norm_c(v0 + t + j as i64);
                    }
                }
                VNode::Load(j) => {
                    let (r, a) = (loads[*j], &self.loads[*j]);
                    let ptr = r.ptr.wrapping_add((r.step as u64).wrapping_mul(t as u64));
                    let ok = match a.bytes() {
                        4 => m.mem.load_run::<4>(ptr, r.step, out),
                        _ => m.mem.load_run::<8>(ptr, r.step, out),
                    };
                    if !ok {
                        return Ok(false);
                    }
                    if a.kind == Kind::I32 {
                        for o in out.iter_mut() {
                            *o = *o as u32 as i32 as i64 as u64;
                        }
                    }
                }
                VNode::Bin(f, a, b) => {
                    if f(col(*a), col(*b), out).is_err() {
                        return Ok(false);
                    }
                }
                VNode::Map(f, a) => {
                    for (o, x) in out.iter_mut().zip(col(*a)) {
                        *o = f(*x);
                    }
                }
            }
        }
        let last = self.nodes.len() - 1;
        let vals = &buf[last * BLOCK..last * BLOCK + len];
        Ok(match (&self.sink, store) {
            (Sink::Store(a), Some(store)) => {
                let ptr = store.ptr.wrapping_add((store.step as u64).wrapping_mul(t as u64));
                match a.bytes() {
                    4 => m.mem.store_run::<4>(ptr, store.step, vals),
                    _ => m.mem.store_run::<8>(ptr, store.step, vals),
                }
            }
            (Sink::Fold(slot, f), _) => match f(m.regs[m.bp + slot], vals) {
                Ok(acc) => {
                    m.regs[m.bp + slot] = acc;
                    true
                }
                Err(_) => false,
            },
            (Sink::Store(_), None) => false,
        })
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
    match &s.kind {
        StmtKind::Expr(e) => out.push(e),
        StmtKind::Block(v) => {
            for x in v {
                flatten(x, out)?;
            }
        }
        StmtKind::Empty => {}
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
        let mut assigned = vec![c.slot];
        for e in pre {
            match &e.kind {
                ExprKind::Assign { place: Place::Local(l), .. } => match self.homes.get(l.0 as usize) {
                    Some(Home::Reg(s)) if !assigned.contains(s) => assigned.push(*s),
                    _ => return Ok(None),
                },
                _ => return Ok(None),
            }
        }
        // A fold's accumulator, which nothing else may read.
        let acc = match &last.kind {
            ExprKind::CompoundAssign { place: Place::Local(l), .. } => match self.homes.get(l.0 as usize) {
                Some(&Home::Reg(s)) if !assigned.contains(&s) => Some(s),
                _ => return Ok(None),
            },
            _ => None,
        };
        assigned.extend(acc);
        let mut derived = Vec::new();
        for (i, e) in pre.iter().enumerate() {
            let ExprKind::Assign { value, .. } = &e.kind else {
                return Ok(None);
            };
            let k = self.kind(e.ty);
            let narrow = match k {
                Kind::I32 => true,
                Kind::I64 | Kind::U64 => false,
                _ => return Ok(None),
            };
            if self.kind(value.ty) != k {
                return Ok(None);
            }
            // Only the counter and registers assigned before it, never one assigned later (that
            // would be last iteration's value).
            let known = &assigned[..i + 1];
            let Some(p) = self.poly_w(value, k, narrow) else {
                return Ok(None);
            };
            if !affine(&p, known) || reads(&p).any(|s| assigned.contains(&s) && !known.contains(&s)) {
                return Ok(None);
            }
            derived.push((assigned[i + 1], IndexF::new(p, narrow)));
        }
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
        let mut v = VecLoop { derived, loads: Vec::new(), sink, nodes: Vec::new() };
        if self.vec_node(value, c, &assigned, &mut v)?.is_none() || v.nodes.len() > MAX_NODES {
            return Ok(None);
        }
        Ok(Some(v))
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
    fn vec_node(&mut self, e: &Expr, c: &Counter, assigned: &[usize], v: &mut VecLoop) -> R<Option<usize>> {
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
