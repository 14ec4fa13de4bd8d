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

use super::{body_stmt, class_of, dispatch, BinVisitor, Counter, CounterLimit, Cx, Home, IndexF, Poly, R};
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

/// An element-wise value expression: its loads and its nodes (the value is the last node).
#[derive(Default)]
struct VExpr {
    loads: Vec<Access>,
    nodes: Vec<VNode>,
}

/// A vectorisable loop body (see the module docs).
pub struct VecLoop {
    /// The register assignments before the last statement, in order.
    derived: Vec<(usize, IndexF)>,
    sink: Sink,
    e: VExpr,
}

/// A loop of a tap nest: `for (slot = from; slot < to; slot++)`, constant bounds.
struct Level {
    slot: usize,
    narrow: bool,
    from: i64,
    to: i64,
}

/// A loop body whose value is accumulated by a nest of counted loops with constant bounds:
/// `r1 = e1; …; acc = init; for (d1 = a1; d1 < b1; d1++) … for (dn …) acc op= tap; p[ix] = acc;`
/// (a 5×5 filter's point). A block of iterations runs as the ordinary loop runs one: `acc`'s
/// column is set to `init`, then each tap (the nest's iterations in their order) folds its
/// column into it element by element, so each iteration sees the same operations on the same
/// values in the same order; then the column is stored in iteration order. The exactness rules
/// of the module docs apply to every tap's loads (each a run for fixed `d`s, checked apart from
/// the store), and the fuel charged is the ordinary loop's: one step per statement, per test and
/// per loop entry (its `init` and first test).
pub struct NestLoop {
    counter: Counter,
    derived: Vec<(usize, IndexF)>,
    acc: usize,
    /// Without loads.
    init: VExpr,
    levels: Vec<Level>,
    taps: usize,
    fold: ColOp,
    tap: VExpr,
    store: Access,
    /// Steps one iteration costs.
    cost: u64,
}

/// Most taps in a nest.
const MAX_TAPS: i64 = 256;

impl NestLoop {
    /// Set the nest's loop variables to the values of tap `i` (the nest's iterations in order).
    fn set_tap(&self, m: &mut Machine, mut i: usize) {
        for l in self.levels.iter().rev() {
            let n = (l.to - l.from) as usize;
            m.regs[m.bp + l.slot] = norm(l.narrow, l.from + (i % n) as i64);
            i /= n;
        }
    }

    /// Run the loop a block at a time from its first iteration (entry test already passed);
    /// `Ok(true)` when all of it ran, else the counter names the first iteration the ordinary
    /// loop must run.
    pub fn run(&self, m: &mut Machine) -> Result<bool, Trap> {
        let c = &self.counter;
        let Some((k, v0, trip)) = trip_of(m, c) else {
            return Ok(false);
        };
        let norm_c = |v: i64| norm(c.narrow, v);
        let saved = save(m, &self.derived);
        let tap_loads: Vec<&Access> = self.tap.loads.iter().collect();
        let mut tap_runs = Vec::with_capacity(self.taps * tap_loads.len());
        let mut ok = true;
        for i in 0..self.taps {
            self.set_tap(m, i);
            match runs(m, &self.derived, &tap_loads, c.slot, v0, trip, norm_c) {
                Some(r) => tap_runs.extend(r),
                None => ok = false,
            }
        }
        // At the store the nest's variables hold their final values.
        for l in &self.levels {
            m.regs[m.bp + l.slot] = norm(l.narrow, l.to);
        }
        let store = runs(m, &self.derived, &[&self.store], c.slot, v0, trip, norm_c);
        restore(m, &self.derived, &saved, k, norm_c(v0));
        let Some(store) = store.and_then(|s| s.first().copied()).filter(|_| ok) else {
            return Ok(false);
        };
        let sized: Vec<(Run, usize)> = tap_runs.iter().zip(self.tap.loads.iter().cycle()).map(|(&r, a)| (r, a.bytes())).collect();
        if !disjoint(&sized, store, self.store.bytes(), trip) {
            return Ok(false);
        }
        let mut buf = SCRATCH.with(|s| s.take());
        let need = (2 + self.tap.nodes.len().max(self.init.nodes.len())) * BLOCK;
        if buf.len() < need {
            buf.resize(need, 0);
        }
        let mut t = 0i64;
        while t < trip {
            let len = (trip - t).min(BLOCK as i64);
            let steps = self.cost * len as u64;
            if !m.reserve_fuel(steps) || !self.block(m, &mut buf, &tap_runs, store, v0, t, len as usize, norm_c) {
                break;
            }
            m.fuel -= steps;
            t += len;
        }
        SCRATCH.with(|s| s.replace(buf));
        if t < trip {
            m.regs[k] = norm_c(v0 + t);
            return Ok(false);
        }
        for l in &self.levels {
            m.regs[m.bp + l.slot] = norm(l.narrow, l.to);
        }
        finish(m, &self.derived, k, v0, trip, norm_c);
        Ok(true)
    }

    /// Run iterations `t .. t+len`; false (nothing stored) when one of them must run the
    /// ordinary way.
    #[allow(clippy::too_many_arguments)]
    fn block(&self, m: &mut Machine, buf: &mut [u64], tap_runs: &[Run], store: Run, v0: i64, t: i64, len: usize, norm_c: impl Fn(i64) -> u64 + Copy) -> bool {
        let (acc, rest) = buf.split_at_mut(BLOCK);
        let (tmp, nodes) = rest.split_at_mut(BLOCK);
        let (acc, tmp) = (&mut acc[..len], &mut tmp[..len]);
        let col = |e: &VExpr| (e.nodes.len() - 1) * BLOCK;
        if !self.init.eval(m, nodes, &[], v0, t, len, norm_c) {
            return false;
        }
        let at = col(&self.init);
        acc.copy_from_slice(&nodes[at..at + len]);
        let (nl, at) = (self.tap.loads.len(), col(&self.tap));
        for i in 0..self.taps {
            if !self.tap.eval(m, nodes, &tap_runs[i * nl..(i + 1) * nl], v0, t, len, norm_c) || (self.fold)(acc, &nodes[at..at + len], tmp).is_err() {
                return false;
            }
            acc.copy_from_slice(tmp);
        }
        if !store_block(m, &self.store, store, t, acc) {
            return false;
        }
        m.regs[m.bp + self.acc] = acc[len - 1];
        true
    }
}

/// An integer's register value (an `int`'s sign-extended).
fn norm(narrow: bool, v: i64) -> u64 {
    if narrow {
        v as i32 as i64 as u64
    } else {
        v as u64
    }
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
        let Some((k, v0, trip)) = trip_of(m, c) else {
            return Ok(false);
        };
        let norm_c = |v: i64| if c.narrow { v as i32 as i64 as u64 } else { v as u64 };
        let saved = save(m, &self.derived);
        let accesses: Vec<&Access> = self.e.loads.iter().chain(self.stored()).collect();
        let runs = runs(m, &self.derived, &accesses, c.slot, v0, trip, norm_c);
        restore(m, &self.derived, &saved, k, norm_c(v0));
        let Some(mut loads) = runs else {
            return Ok(false);
        };
        let store = self.stored().and_then(|_| loads.pop());
        let sized: Vec<(Run, usize)> = loads.iter().zip(&self.e.loads).map(|(&r, a)| (r, a.bytes())).collect();
        if !store.is_none_or(|st| self.stored().is_some_and(|sa| disjoint(&sized, st, sa.bytes(), trip))) {
            return Ok(false);
        }
        // The thread's block buffer, reused from loop to loop (no allocation per loop run).
        let mut buf = SCRATCH.with(|s| s.take());
        if buf.len() < self.e.nodes.len() * BLOCK {
            buf.resize(self.e.nodes.len() * BLOCK, 0);
        }
        let mut t = 0i64;
        let mut result = Ok(());
        while t < trip {
            let len = (trip - t).min(BLOCK as i64);
            let steps = cost * len as u64;
            if !m.reserve_fuel(steps) {
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
        finish(m, &self.derived, k, v0, trip, norm_c);
        Ok(true)
    }

    /// The store's access (none for a fold).
    fn stored(&self) -> Option<&Access> {
        match &self.sink {
            Sink::Store(a) => Some(a),
            Sink::Fold(..) => None,
        }
    }

    /// Run iterations `t .. t+len`; `Ok(false)` (nothing stored) when one of them must run the
    /// ordinary way.
    #[allow(clippy::too_many_arguments)]
    fn block(&self, m: &mut Machine, buf: &mut [u64], loads: &[Run], store: Option<Run>, v0: i64, t: i64, len: usize, norm_c: impl Fn(i64) -> u64) -> Result<bool, Trap> {
        if !self.e.eval(m, buf, loads, v0, t, len, norm_c) {
            return Ok(false);
        }
        let last = self.e.nodes.len() - 1;
        let vals = &buf[last * BLOCK..last * BLOCK + len];
        Ok(match (&self.sink, store) {
            (Sink::Store(a), Some(store)) => store_block(m, a, store, t, vals),
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

/// Store a block's values `vals` at iterations `t ..` of the run `store` of access `a`; false
/// (nothing stored) when a store would fault.
fn store_block(m: &mut Machine, a: &Access, store: Run, t: i64, vals: &[u64]) -> bool {
    let ptr = store.ptr.wrapping_add((store.step as u64).wrapping_mul(t as u64));
    match a.bytes() {
        4 => m.mem.store_run::<4>(ptr, store.step, vals),
        _ => m.mem.store_run::<8>(ptr, store.step, vals),
    }
}

impl VExpr {
    /// Compute the nodes of iterations `t .. t+len` into `buf` (a column of [`BLOCK`] words per
    /// node); false when a load would fault or an operation trap.
    #[allow(clippy::too_many_arguments)]
    fn eval(&self, m: &Machine, buf: &mut [u64], loads: &[Run], v0: i64, t: i64, len: usize, norm_c: impl Fn(i64) -> u64) -> bool {
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
                        return false;
                    }
                    if a.kind == Kind::I32 {
                        for o in out.iter_mut() {
                            *o = *o as u32 as i32 as i64 as u64;
                        }
                    }
                }
                VNode::Bin(f, a, b) => {
                    if f(col(*a), col(*b), out).is_err() {
                        return false;
                    }
                }
                VNode::Map(f, a) => {
                    for (o, x) in out.iter_mut().zip(col(*a)) {
                        *o = f(*x);
                    }
                }
            }
        }
        true
    }
}

/// The counter's register, first value and trip count, when the loop is long enough to run a
/// block at a time and nothing observes or checks it.
fn trip_of(m: &Machine, c: &Counter) -> Option<(usize, i64, i64)> {
    if m.observer.is_some() || m.events.wants_device_events() || m.memory_model.is_some() {
        return None;
    }
    let (k, v0, trip) = c.trip(m);
    (MIN_TRIP..1 << 31).contains(&trip).then_some((k, v0, trip))
}

/// The values of the derived registers.
fn save(m: &Machine, derived: &[(usize, IndexF)]) -> Vec<u64> {
    derived.iter().map(|&(s, _)| m.regs[m.bp + s]).collect()
}

/// Leave the derived registers as the last of `trip` iterations from `v0` sets them, then the
/// counter (register `k`) stepped past it.
fn finish(m: &mut Machine, derived: &[(usize, IndexF)], k: usize, v0: i64, trip: i64, norm_c: impl Fn(i64) -> u64) {
    m.regs[k] = norm_c(v0 + trip - 1);
    for (s, ix) in derived {
        m.regs[m.bp + s] = ix.eval(m);
    }
    m.regs[k] = norm_c(v0 + trip);
}

/// Put back the counter (register `k`) and the derived registers.
fn restore(m: &mut Machine, derived: &[(usize, IndexF)], saved: &[u64], k: usize, counter: u64) {
    m.regs[k] = counter;
    for (&(s, _), &v) in derived.iter().zip(saved) {
        m.regs[m.bp + s] = v;
    }
}

/// The address runs of `accesses`, from the indices at the first two iterations (the counter in
/// `slot`, the derived registers set as the body sets them; the caller restores them); `None`
/// when an index narrowed to `int` wraps somewhere in the loop.
fn runs(m: &mut Machine, derived: &[(usize, IndexF)], accesses: &[&Access], slot: usize, v0: i64, trip: i64, norm_c: impl Fn(i64) -> u64) -> Option<Vec<Run>> {
    let k = m.bp + slot;
    let span = trip - 1;
    let mut at = [Vec::new(), Vec::new()];
    for (t, out) in at.iter_mut().enumerate() {
        m.regs[k] = norm_c(v0 + t as i64);
        for (s, ix) in derived {
            let raw = ix.raw(m).0;
            out.push((raw, ix.narrowed()));
            m.regs[m.bp + s] = ix.eval(m);
        }
        for a in accesses {
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
    let nd = derived.len();
    let run = |i: usize, a: &Access| {
        let norm = |r: u64| if a.ix.narrowed() { r as i32 as i64 as u64 } else { r };
        let (x0, x1) = (norm(at[0][nd + i].0), norm(at[1][nd + i].0));
        Run {
            ptr: m.regs[m.bp + a.base].wrapping_add(x0.wrapping_mul(a.size)),
            step: x1.wrapping_sub(x0).wrapping_mul(a.size) as i64,
        }
    };
    Some(accesses.iter().enumerate().map(|(i, a)| run(i, a)).collect())
}

/// No store of an iteration reaches a load of another: the stored bytes (`sn` an element) and
/// each loaded run's bytes are apart, or the two runs are the same run of non-overlapping
/// elements (each element read, then written, by its own iteration).
fn disjoint(loads: &[(Run, usize)], store: Run, sn: usize, trip: i64) -> bool {
    let extent = |r: Run, n: usize| -> Option<(u64, i64, i64)> {
        let first = r.ptr as u32 as i64;
        let last = first.checked_add(r.step.checked_mul(trip - 1)?)?;
        Some((r.ptr >> 32, first.min(last), first.max(last).checked_add(n as i64)?))
    };
    let Some((sid, slo, shi)) = extent(store, sn) else {
        return false;
    };
    loads.iter().all(|&(l, n)| {
        let same = l.ptr == store.ptr && l.step == store.step && n == sn && l.step.unsigned_abs() >= n as u64;
        same || matches!(extent(l, n), Some((id, lo, hi)) if id != sid || hi <= slo || shi <= lo)
    })
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
