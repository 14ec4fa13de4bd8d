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
//! **Cost.** Both sites' runs (bounded by [`LISTED_RUNS`]) and a sort; beyond the bound, the kernel
//! is checked access by access.

use std::ops::Range;

use super::{AccessPlan, CGuard, Conc, Ev, PlanSite};

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
        let mut budget = LISTED_RUNS;
        let (Some(ra), Some(rb)) = (self.tagged_runs(ev, a, &tag_loops, &mut budget), self.tagged_runs(ev, b, &tag_loops, &mut budget)) else {
            return false;
        };
        let segments = disjoint(ra);
        let mut steps = LISTED_RUNS;
        for (r, tag) in rb {
            let first = segments.partition_point(|(s, _)| s.end <= r.start);
            for (_, t) in segments[first..].iter().take_while(|(s, _)| s.start < r.end) {
                if *t == MANY || tag == MANY || *t != tag {
                    return false;
                }
                steps = match steps.checked_sub(1) {
                    Some(n) => n,
                    None => return false,
                };
            }
        }
        true
    }

    /// The byte runs site `s` touches, each tagged with the iteration number of `tag_loops`
    /// (the partitioned loops of its chain, outermost first) that touches it; `None` beyond the
    /// budget or when an iteration number does not fit.
    fn tagged_runs(&self, ev: &Ev, s: &Listed<'_>, tag_loops: &[u32], budget: &mut usize) -> Option<Vec<Tagged>> {
        let mut out = Vec::new();
        let mut vals = vec![0i64; self.loops.len()];
        self.list_tagged(ev, s, tag_loops, 0, &mut vals, &mut out, budget)?;
        Some(out)
    }

    #[allow(clippy::too_many_arguments)]
    fn list_tagged(&self, ev: &Ev, s: &Listed<'_>, tag_loops: &[u32], depth: usize, vals: &mut [i64], out: &mut Vec<Tagged>, budget: &mut usize) -> Option<()> {
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
        let mut push = |out: &mut Vec<Tagged>, r: Range<u64>, t: u64| -> Option<()> {
            if let Some((last, lt)) = out.last_mut() {
                if *lt == t && last.end == r.start {
                    last.end = r.end;
                    return Some(());
                }
            }
            *budget = budget.checked_sub(1)?;
            out.push((r, t));
            Some(())
        };
        if depth == s.chain.len() {
            if !s.guards.iter().all(|g| g.holds(vals)) {
                return Some(());
            }
            let a = u64::try_from(s.addr.at(vals)).ok()?;
            return push(out, a..a.checked_add(size)?, tag(vals)?);
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
            return push(out, lo..hi.checked_add(size)?, tag(vals)?);
        }
        for t in 0..n {
            vals[l as usize] = first + t * lp.step;
            self.list_tagged(ev, s, tag_loops, depth + 1, vals, out, budget)?;
        }
        Some(())
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
