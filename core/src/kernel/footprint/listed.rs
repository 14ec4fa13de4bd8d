//! The race proof by listing (issue 15): two sites whose addresses the per-coefficient test
//! ([`AccessPlan::apart`]) cannot keep apart are compared byte run by byte run, each run with the
//! iteration of the partitioned loops that makes it.
//!
//! **Why.** The coefficient test looks at each counter's range alone, so it cannot use bounds
//! that depend on an outer counter: a triangular loop `for (j = i + 1; j < m; j++)` writing
//! `c[i][j]` and `c[j][i]` (PolyBench's correlation and covariance, symmetric matrix products)
//! touches the upper triangle from row `i` and the lower one from column `i`, which meet only on
//! the diagonal that `j > i` leaves out; per coefficient, `c[i][j]` of one gang may be `c[j][i]`
//! of another.
//!
//! **The rule (§1.2).** Equal values of the partitioned counters enclosing an access mean the same
//! thread (the schedule gives each iteration of a partitioned loop to one thread); when every
//! partitioned loop enclosing either site encloses both, one iteration of them runs both sites on
//! one thread, in program order. So the sites cannot race when no byte is touched by both in two
//! different iterations of those loops. The runs are listed with the launch's values (the same
//! enumeration as a write's footprint, [`AccessPlan::runs`]), each tagged with its iteration
//! number; a byte reached from two iterations, or from a site whose own runs are reached from two
//! iterations, refuses the proof. Different iterations may be the same thread (a gang runs many):
//! refusing them only costs speed.
//!
//! **Cost.** Both sites' runs (bounded by [`LISTED_RUNS`]), listed twice (counted, then compared),
//! and a sort of the shorter list, the only one kept in memory; beyond the bound, the kernel is
//! checked access by access.

use std::ops::Range;

use super::evaluate::{CGuard, Conc, Ev};
use super::{AccessPlan, PlanSite};

/// The most runs listed for one pair of sites.
const LISTED_RUNS: usize = 1 << 20;

/// A site with the launch's values: what [`AccessPlan::apart_listed`] compares.
pub(super) struct Listed<'s> {
    pub site: &'s PlanSite,
    pub addr: &'s Conc,
    pub guards: &'s [CGuard],
    pub chain: &'s [u32],
}

/// A byte run and the iteration of the common partitioned loops that touches it; `MANY`: more
/// than one.
type Tagged = (Range<u64>, u64);
const MANY: u64 = u64::MAX;

impl AccessPlan {
    /// Can sites `a` and `b` (one of them writes) touch one byte only from one iteration of the
    /// partitioned loops enclosing them (module documentation)?
    pub(super) fn apart_listed(&self, ev: &Ev, a: &Listed<'_>, b: &Listed<'_>) -> bool {
        let common: Vec<u32> = a.chain.iter().zip(b.chain).take_while(|(x, y)| x == y).map(|(x, _)| *x).collect();
        let partitioned = |l: &u32| self.loops[*l as usize].partitioned;
        if a.chain.iter().chain(b.chain).filter(|l| partitioned(l)).any(|l| !common.contains(l)) {
            return false;
        }
        if ev.cfg.gangs > 1 && !common.iter().any(|&l| self.loops[l as usize].gang.is_some()) {
            return false;
        }
        if !a.guards.iter().chain(b.guards).all(CGuard::known) {
            return false;
        }
        let tag_loops: Vec<u32> = common.iter().copied().filter(partitioned).collect();
        // Both sites' runs count against one bound; each site is counted first, so that only
        // the shorter list is kept (as disjoint segments) and the longer one is compared with
        // it as it is listed: a column written element by element against a row is then one
        // run per row in memory, not one per element (issue 15: `check`'s memory). Which side
        // is kept does not change the verdict's soundness: a byte both touch from different
        // iterations is refused either way.
        let mut budget = LISTED_RUNS;
        let (Some(na), Some(nb)) = (self.count_tagged(ev, a, &tag_loops, &mut budget), self.count_tagged(ev, b, &tag_loops, &mut budget)) else {
            return false;
        };
        let (kept, streamed) = if na <= nb { (a, b) } else { (b, a) };
        // Counted already: listing them again stays within the bound.
        let mut unbounded = usize::MAX;
        let mut list = Vec::with_capacity(na.min(nb));
        if self.tagged_runs(ev, kept, &tag_loops, &mut unbounded, &mut |r| {
            list.push(r);
            Some(())
        })
        .is_none()
        {
            return false;
        }
        let segments = disjoint(list);
        let mut steps = LISTED_RUNS;
        let mut compare = |(r, tag): Tagged| -> Option<()> {
            let first = segments.partition_point(|(s, _)| s.end <= r.start);
            for (_, t) in segments[first..].iter().take_while(|(s, _)| s.start < r.end) {
                if *t == MANY || tag == MANY || *t != tag {
                    return None;
                }
                steps = steps.checked_sub(1)?;
            }
            Some(())
        };
        self.tagged_runs(ev, streamed, &tag_loops, &mut unbounded, &mut compare).is_some()
    }

    /// How many runs [`AccessPlan::tagged_runs`] lists for `s`; `None` beyond the budget or
    /// when an iteration number does not fit.
    fn count_tagged(&self, ev: &Ev, s: &Listed<'_>, tag_loops: &[u32], budget: &mut usize) -> Option<usize> {
        let mut n = 0usize;
        self.tagged_runs(ev, s, tag_loops, budget, &mut |_| {
            n += 1;
            Some(())
        })?;
        Some(n)
    }

    /// The byte runs site `s` touches, each tagged with the iteration number of `tag_loops`
    /// (the partitioned loops of its chain, outermost first) that touches it, handed to `sink`
    /// in the order they are listed (adjacent runs of one tag merged); `None` beyond the budget,
    /// when an iteration number does not fit, or when `sink` says `None`.
    fn tagged_runs(&self, ev: &Ev, s: &Listed<'_>, tag_loops: &[u32], budget: &mut usize, sink: &mut dyn FnMut(Tagged) -> Option<()>) -> Option<()> {
        let mut vals = vec![0i64; self.loops.len()];
        let mut out = Lister { last: None, budget, sink };
        self.list_tagged(ev, s, tag_loops, 0, &mut vals, &mut out)?;
        out.finish()
    }

    #[allow(clippy::too_many_arguments)]
    fn list_tagged(&self, ev: &Ev, s: &Listed<'_>, tag_loops: &[u32], depth: usize, vals: &mut [i64], out: &mut Lister<'_>) -> Option<()> {
        let size = s.site.size;
        let tag = |vals: &[i64]| -> Option<u64> {
            // Mixed radix over the loops' own iteration numbers: equal tags, equal iterations.
            let mut t: u64 = 0;
            for &l in tag_loops {
                let (first, n) = ev.loops[l as usize].span(vals);
                let step = ev.loops[l as usize].step;
                let i = (vals[l as usize] - first).checked_div(step)?;
                t = t.checked_mul(u64::try_from(n).ok()?.max(1))?.checked_add(u64::try_from(i).ok()?)?;
            }
            (t != MANY).then_some(t)
        };
        if depth == s.chain.len() {
            if !s.guards.iter().all(|g| g.holds(vals)) {
                return Some(());
            }
            let a = u64::try_from(s.addr.at(vals)).ok()?;
            return out.push(a..a.checked_add(size)?, tag(vals)?);
        }
        let l = s.chain[depth];
        let lp = &ev.loops[l as usize];
        let (first, n) = lp.span(vals);
        let c = s.addr.coef(l) as i128 * lp.step as i128;
        if s.guards.is_empty() && depth + 1 == s.chain.len() && !self.loops[l as usize].partitioned && n > 0 && (c == 0 || c.unsigned_abs() == size as u128) {
            // An innermost loop that is not partitioned and moves the address by its size (or
            // not at all): one run, one iteration of the partitioned loops.
            vals[l as usize] = first;
            let a = s.addr.at(vals) as i128;
            let b = a + (n as i128 - 1) * c;
            let (lo, hi) = (u64::try_from(a.min(b)).ok()?, u64::try_from(a.max(b)).ok()?);
            return out.push(lo..hi.checked_add(size)?, tag(vals)?);
        }
        for t in 0..n {
            vals[l as usize] = first + t * lp.step;
            self.list_tagged(ev, s, tag_loops, depth + 1, vals, out)?;
        }
        Some(())
    }
}

/// Tagged runs as they are listed: a run that continues the last one with the same tag extends
/// it; every other run counts against `budget` and the last one goes to `sink`.
struct Lister<'f> {
    last: Option<Tagged>,
    budget: &'f mut usize,
    sink: &'f mut dyn FnMut(Tagged) -> Option<()>,
}

impl Lister<'_> {
    fn push(&mut self, r: Range<u64>, t: u64) -> Option<()> {
        if let Some((last, lt)) = &mut self.last {
            if *lt == t && last.end == r.start {
                last.end = r.end;
                return Some(());
            }
        }
        *self.budget = self.budget.checked_sub(1)?;
        match self.last.replace((r, t)) {
            Some(done) => (self.sink)(done),
            None => Some(()),
        }
    }

    /// Hand the last run to the sink.
    fn finish(&mut self) -> Option<()> {
        match self.last.take() {
            Some(done) => (self.sink)(done),
            None => Some(()),
        }
    }
}

/// `runs` as disjoint segments in address order, each with the one tag of the runs covering it,
/// or [`MANY`] where runs of different tags overlap.
fn disjoint(mut runs: Vec<Tagged>) -> Vec<Tagged> {
    runs.sort_unstable_by_key(|(r, _)| r.start);
    // Merged in place: `kept` segments so far, at the front.
    let mut kept: usize = 0;
    for i in 0..runs.len() {
        let (r, t) = runs[i].clone();
        match kept.checked_sub(1).map(|k| &mut runs[k]) {
            Some((last, lt)) if r.start < last.end => {
                if *lt != t {
                    *lt = MANY;
                }
                last.end = last.end.max(r.end);
            }
            _ => {
                runs[kept] = (r, t);
                kept += 1;
            }
        }
    }
    runs.truncate(kept);
    runs
}
