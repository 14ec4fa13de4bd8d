//! Vectorised counted loops at run time: the loop shapes that `exec/compile/vector.rs`
//! recognises (its module docs give the shapes and the exactness rules), run a block of
//! iterations at a time.

use super::super::Machine;
use super::super::super::value::{CastFn, Kind};
use super::super::{ArithFault, Trap};
use super::index::IndexF;
use super::Counter;

thread_local! {
    /// The block buffer of the loops this thread runs (a kernel's gangs run on several threads).
    static SCRATCH: std::cell::RefCell<Vec<u64>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Iterations per block.
const BLOCK: usize = 256;
/// Loops shorter than this run the ordinary way (the set-up would cost more than it saves).
const MIN_TRIP: i64 = 8;

/// An element-wise operation on a block: `out[i] = f(a[i], b[i])`.
pub(in crate::exec) type ColOp = Box<dyn Fn(&[u64], &[u64], &mut [u64]) -> Result<(), ArithFault> + Send + Sync>;

/// A fold of a block into an accumulator: `acc = f(acc, v[i])` for each `i` in order.
pub(in crate::exec) type FoldOp = Box<dyn Fn(u64, &[u64]) -> Result<u64, ArithFault> + Send + Sync>;

/// Where the value of each iteration goes.
pub(in crate::exec) enum Sink {
    /// `p[ix] = value`.
    Store(Access),
    /// `r op= value` on a register `r` that nothing else in the body reads (a sum, a dot
    /// product): folded in iteration order, so every rounding is the ordinary loop's.
    Fold(usize, FoldOp),
}

/// An array access `regs[base] + ix * size` of `kind`.
pub(in crate::exec) struct Access {
    pub(in crate::exec) kind: Kind,
    pub(in crate::exec) base: usize,
    pub(in crate::exec) ix: IndexF,
    pub(in crate::exec) size: u64,
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
pub(in crate::exec) enum VNode {
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
pub(in crate::exec) struct VExpr {
    pub(in crate::exec) loads: Vec<Access>,
    pub(in crate::exec) nodes: Vec<VNode>,
}

/// A vectorisable loop body (see the module docs).
pub struct VecLoop {
    /// The register assignments before the last statement, in order.
    pub(in crate::exec) derived: Vec<(usize, IndexF)>,
    pub(in crate::exec) sink: Sink,
    pub(in crate::exec) e: VExpr,
}

/// A loop of a tap nest: `for (slot = from; slot < to; slot++)`, constant bounds.
pub(in crate::exec) struct Level {
    pub(in crate::exec) slot: usize,
    pub(in crate::exec) narrow: bool,
    pub(in crate::exec) from: i64,
    pub(in crate::exec) to: i64,
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
    pub(in crate::exec) counter: Counter,
    pub(in crate::exec) derived: Vec<(usize, IndexF)>,
    pub(in crate::exec) acc: usize,
    /// Without loads.
    pub(in crate::exec) init: VExpr,
    pub(in crate::exec) levels: Vec<Level>,
    pub(in crate::exec) taps: usize,
    pub(in crate::exec) fold: ColOp,
    pub(in crate::exec) tap: VExpr,
    pub(in crate::exec) store: Access,
    /// Steps one iteration costs.
    pub(in crate::exec) cost: u64,
}


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
pub(in crate::exec) fn norm(narrow: bool, v: i64) -> u64 {
    if narrow {
        v as i32 as i64 as u64
    } else {
        v as u64
    }
}

/// A run of addresses: the first and the stride in bytes.
#[derive(Clone, Copy)]
struct Run {
    pub(in crate::exec) ptr: u64,
    pub(in crate::exec) step: i64,
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

