//! Atomic counters in proven kernels (issue 15: a histogram's `#pragma acc atomic update` of
//! `hist[bin]++`, `bin` computed from loaded data).
//!
//! **The rule (§2.12).** Atomic accesses of one location do not race with each other; every
//! other access of it by another thread does. A kernel whose only accesses of a block are atomic
//! updates is race-free on that block whatever the addresses, so the plan needs no affine address
//! for them: an atomic site is a counter update `p[e]++`, `p[e]--`, `p[e] += c` or `p[e] -= c`
//! (`c` an integer constant, not 0) of an integer element, `p` a launch value and `e` anything;
//! it may touch any element of `p`'s device block. At launch the proof refuses the kernel when
//! another site, atomic or not, may touch that block.
//!
//! **What the checkers are told.** The coherence model needs the bytes written and the gang that
//! wrote each last (in the checked run's gang order). A proven kernel with atomic targets runs
//! its gangs one after another (`exec::openacc`), and the elements of the block that change
//! during a gang are the ones it updated: each update adds a step of the same sign, so a gang
//! that updates an element `k` times changes it by `k·|step|` at least and by less than the
//! element's range (the plan's bound: every iteration of the site's loops times the largest
//! step stays under `2^bits`), never by a multiple of `2^bits`. The reads are the whole block,
//! as a hull the coherence model takes only where no byte in it is stale or uninitialised.

use std::ops::Range;

use crate::diag::Loc;
use crate::ir::acc::AtomicKind;
use crate::ir::*;

use super::evaluate::{CGuard, Counters, Iv};
use super::{AccessPlan, An, Guard, LaunchValues, Lin, ReadSpan, A};

/// An atomic counter update of the plan (see the module documentation).
#[derive(Clone, Debug)]
pub struct PlanAtomic {
    pub loc: Loc,
    /// The pointer the element index is added to.
    pub base: Lin,
    /// The element's size.
    pub size: u64,
    /// What one update adds.
    pub step: i64,
    pub lp: Option<u32>,
    pub guards: Vec<Guard>,
}

/// A device block that atomic counter updates of a proven kernel may change: the elements
/// `align + k·size` of `block` that change while a gang runs are the ones it updated.
#[derive(Clone, Debug)]
pub struct AtomicTarget {
    pub loc: Loc,
    pub block: Range<u64>,
    pub size: u64,
    /// The offset of the elements' start from the block's start, below `size`.
    pub align: u64,
}

/// The most bytes compared after the gangs of one launch (a block's size times the gangs).
const COMPARED_LIMIT: u128 = 1 << 30;

impl An<'_, '_> {
    /// An `atomic` construct of the kernel body: a counter update (module documentation) or
    /// no plan.
    pub(super) fn atomic(&mut self, kind: AtomicKind, body: Option<&Stmt>) -> A<()> {
        let refuse = || Err::<(), String>("an `atomic` statement that is not a counter update".into());
        if kind != AtomicKind::Update {
            return refuse();
        }
        let mut s = body;
        while let Some(StmtKind::Block(v)) = s.map(|x| &x.kind) {
            let [one] = v.as_slice() else { return refuse() };
            s = Some(one);
        }
        let Some(StmtKind::Expr(e)) = s.map(|x| &x.kind) else { return refuse() };
        let (addr, step) = match &e.kind {
            ExprKind::IncDec { place: Place::Mem(a), delta, .. } => (a, *delta as i64),
            ExprKind::CompoundAssign { op: op @ (BinOp::Add | BinOp::Sub), place: Place::Mem(a), value, .. } => match value.strip_casts().kind {
                ExprKind::Int(c) if self.types().is_integer(value.strip_casts().ty) && c != 0 && c <= i64::MAX as u64 => (a, if *op == BinOp::Sub { -(c as i64) } else { c as i64 }),
                _ => return refuse(),
            },
            _ => return refuse(),
        };
        let Some(elem) = self.types().pointee(addr.ty) else { return refuse() };
        if !matches!(self.types().get(elem), Type::Int(_)) {
            return refuse();
        }
        let size = self.size(elem)?;
        let ExprKind::PtrAdd { ptr, index, elem: stepped } = &addr.kind else { return refuse() };
        if self.size(*stepped)? != size {
            return refuse();
        }
        if self.private_root(ptr.strip_casts()) {
            // A gang's own copy: no other gang sees it.
            self.value(index)?;
            return Ok(());
        }
        self.value(index)?;
        let Some(base) = self.value(ptr)? else {
            return Err(format!("an atomic update at line {} through a pointer that is not a launch value", e.loc.line));
        };
        self.commit(&base);
        self.plan.atomics.push(PlanAtomic { loc: e.loc, base, size, step, lp: self.stack.last().copied(), guards: self.guards.clone() });
        Ok(())
    }
}

impl AccessPlan {
    /// The blocks the atomic counter updates may change at this launch, and their reads, or why
    /// the kernel is not proven (module documentation). `ivs`: the counters' ranges; `never`:
    /// loops that run no iteration; `executed(chain, guards)`: whether a site runs at all.
    /// `compared`: the blocks are compared gang by gang (`accsim check`), which needs counters
    /// that never wrap and blocks of bounded size; counting them per thread
    /// ([`AccessPlan::private_counters`]) needs neither.
    pub(super) fn atomic_targets(&self, v: &dyn LaunchValues, ivs: &[Iv], never: &[bool], gangs: u64, compared: bool, executed: &mut dyn FnMut(&[u32], &[CGuard]) -> bool) -> Result<(Vec<AtomicTarget>, Vec<ReadSpan>), String> {
        let bad = || "a launch value is not known".to_string();
        let mut targets: Vec<(AtomicTarget, i64)> = Vec::new();
        let mut reads = Vec::new();
        for a in &self.atomics {
            let chain = self.loop_chain(a.lp);
            if chain.iter().any(|&l| never[l as usize]) {
                continue;
            }
            let guards: Vec<CGuard> = a.guards.iter().map(|g| CGuard::of(g, v)).collect();
            let mut narrowed = ivs.to_vec();
            guards.iter().for_each(|g| g.narrow(&mut narrowed));
            if chain.iter().any(|&l| narrowed[l as usize].hi < narrowed[l as usize].lo) {
                continue;
            }
            let base = a.base.eval(v).ok_or_else(bad)?;
            if base.terms.iter().any(|&(_, c)| c % a.size as i64 != 0) {
                return Err(format!("line {}: an atomic update whose elements move with the loop counters", a.loc.line));
            }
            let start = base.interval(&narrowed).lo;
            let (first, len, shared) = v.block(u64::try_from(start).map_err(|_| "an address out of range")?).ok_or("an atomic update outside device memory")?;
            if !shared {
                continue;
            }
            // Every update of every iteration, times the largest step, stays under the
            // element's range: a gang's updates of an element never add up to 2^bits.
            let iterations = chain.iter().map(|&l| ((ivs[l as usize].hi - ivs[l as usize].lo).max(0) as u128) + 1).fold(1u128, |n, t| n.saturating_mul(t));
            if compared && iterations.saturating_mul(a.step.unsigned_abs() as u128) >= 1u128 << (8 * a.size.min(15)) {
                return Err(format!("line {}: an atomic counter that may wrap around", a.loc.line));
            }
            if compared && (len as u128).saturating_mul(gangs as u128) > COMPARED_LIMIT {
                return Err(format!("line {}: an atomic target too large to compare gang by gang", a.loc.line));
            }
            let align = (base.k as i128 - first as i128).rem_euclid(a.size as i128) as u64;
            let target = AtomicTarget { loc: a.loc, block: first..first + len, size: a.size, align };
            // One site per block: the coherence model names the site of each element's last
            // write, which comparing the block after each gang cannot tell between two sites.
            if let Some((t, _)) = targets.iter().find(|(t, _)| t.block == target.block) {
                return Err(format!("lines {} and {}: two atomic updates of one block", t.loc.line, a.loc.line));
            }
            targets.push((target, a.step));
            reads.push(ReadSpan { loc: a.loc, range: first..first + len, executed: executed(&chain, &guards), written_first: false, site: None });
        }
        Ok((targets.into_iter().map(|(t, _)| t).collect(), reads))
    }
}

impl AccessPlan {
    /// The device blocks whose atomic counter updates the device threads of this launch may
    /// count in zeroed tables of their own, added into the blocks when the threads are done
    /// (issue 15, `exec::memory`'s `counters` module, where the rule is argued): the blocks of
    /// [`AccessPlan::atomic_targets`], when no other site of the kernel, atomic or not, may
    /// touch them (the hulls of [`AccessPlan::site_bytes`]). Empty when the kernel has no atomic
    /// update; an error says why the kernel's counters cannot be counted so.
    pub fn private_counters(&self, v: &dyn LaunchValues, gangs: u64) -> Result<Vec<AtomicTarget>, String> {
        if self.atomics.is_empty() {
            return Ok(Vec::new());
        }
        let Counters { ivs, never, .. } = self.counters(v)?;
        let (targets, _) = self.atomic_targets(v, &ivs, &never, gangs, false, &mut |_, _| true)?;
        for s in self.site_bytes(v)? {
            if let Some(t) = targets.iter().find(|t| s.range.start < t.block.end && t.block.start < s.range.end) {
                return Err(format!("lines {} and {}: an access of data an `atomic` statement updates", s.loc.line, t.loc.line));
            }
        }
        Ok(targets)
    }
}
