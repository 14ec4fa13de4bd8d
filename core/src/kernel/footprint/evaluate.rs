//! Evaluation of an access plan at a kernel's launch ([`AccessPlan::evaluate`]): the plan's
//! affine functions with the launch's values, the race proof over the counters' ranges and the
//! listing of the bytes each site reads and writes (the rules are in the documentation of
//! [`super`]). The plan itself is built by the analysis in `footprint.rs` at outlining.

use std::ops::Range;

use crate::diag::Loc;

use super::listed;
use super::{AccessPlan, AtomicTarget, Cmp, GangLoop, Guard, LaunchValues, PlanSite, Rel};

/// An affine function with the launch's values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Conc {
    pub(super) k: i64,
    pub(super) terms: Vec<(u32, i64)>,
}

/// A closed interval of integers.
#[derive(Clone, Copy, Debug)]
pub(super) struct Iv {
    pub(super) lo: i128,
    pub(super) hi: i128,
}

impl Conc {
    pub(super) fn interval(&self, ivs: &[Iv]) -> Iv {
        self.interval_without(ivs, &|_| false)
    }

    /// The interval over the counters' ranges, the counters `fixed` left out (held at 0).
    fn interval_without(&self, ivs: &[Iv], fixed: &dyn Fn(u32) -> bool) -> Iv {
        let mut r = Iv { lo: self.k as i128, hi: self.k as i128 };
        for &(l, c) in self.terms.iter().filter(|(l, _)| !fixed(*l)) {
            let x = ivs[l as usize];
            let (a, b) = (x.lo * c as i128, x.hi * c as i128);
            r.lo += a.min(b);
            r.hi += a.max(b);
        }
        r
    }

    pub(super) fn at(&self, vals: &[i64]) -> i64 {
        self.terms.iter().fold(self.k, |s, &(l, c)| s.wrapping_add(c.wrapping_mul(vals[l as usize])))
    }

    pub(super) fn coef(&self, l: u32) -> i64 {
        self.terms.iter().find(|t| t.0 == l).map_or(0, |t| t.1)
    }
}

/// A [`Guard`] with the launch's values.
#[derive(Clone, Debug)]
pub(super) enum CGuard {
    Cmp(Conc, Rel),
    All(Vec<CGuard>),
    Any(Vec<CGuard>),
    Unknown,
}

impl CGuard {
    pub(super) fn of(g: &Guard, v: &dyn LaunchValues) -> CGuard {
        match g {
            Guard::Cmp(l, r) => l.eval(v).map_or(CGuard::Unknown, |c| CGuard::Cmp(c, *r)),
            Guard::All(gs) => CGuard::All(gs.iter().map(|g| CGuard::of(g, v)).collect()),
            Guard::Any(gs) => CGuard::Any(gs.iter().map(|g| CGuard::of(g, v)).collect()),
            Guard::Unknown => CGuard::Unknown,
        }
    }

    pub(super) fn known(&self) -> bool {
        match self {
            CGuard::Cmp(..) => true,
            CGuard::All(gs) | CGuard::Any(gs) => gs.iter().all(CGuard::known),
            CGuard::Unknown => false,
        }
    }

    /// Whether it holds at the counters `vals` (an unknown part does not).
    pub(super) fn holds(&self, vals: &[i64]) -> bool {
        match self {
            CGuard::Cmp(c, r) => r.holds(c.at(vals) as i128),
            CGuard::All(gs) => gs.iter().all(|g| g.holds(vals)),
            CGuard::Any(gs) => gs.iter().any(|g| g.holds(vals)),
            CGuard::Unknown => false,
        }
    }

    /// Narrow the counters' ranges to where the guard can hold (its conjuncts that compare one
    /// counter with a launch value).
    pub(super) fn narrow(&self, ivs: &mut [Iv]) {
        match self {
            CGuard::All(gs) => gs.iter().for_each(|g| g.narrow(ivs)),
            CGuard::Cmp(c, r) if c.terms.len() == 1 => {
                let (l, a) = c.terms[0];
                let iv = &mut ivs[l as usize];
                // a·x + k rel 0, as x rel' q with a > 0.
                let (a, k, r) = if a > 0 {
                    (a as i128, c.k as i128, *r)
                } else {
                    let flipped = match r {
                        Rel::Lt => Rel::Gt,
                        Rel::Le => Rel::Ge,
                        Rel::Gt => Rel::Lt,
                        Rel::Ge => Rel::Le,
                        other => *other,
                    };
                    (-(a as i128), -(c.k as i128), flipped)
                };
                let exact = (-k).rem_euclid(a) == 0;
                let q = (-k).div_euclid(a);
                match r {
                    Rel::Lt => iv.hi = iv.hi.min((-k - 1).div_euclid(a)),
                    Rel::Le => iv.hi = iv.hi.min(q),
                    Rel::Gt => iv.lo = iv.lo.max(q + 1),
                    Rel::Ge => iv.lo = iv.lo.max(if exact { q } else { q + 1 }),
                    Rel::Eq if exact => (iv.lo, iv.hi) = (iv.lo.max(q), iv.hi.min(q)),
                    Rel::Eq => iv.hi = iv.lo - 1,
                    Rel::Ne if exact && q == iv.lo => iv.lo += 1,
                    Rel::Ne if exact && q == iv.hi => iv.hi -= 1,
                    Rel::Ne => {}
                }
            }
            _ => {}
        }
    }
}

/// The bytes a proven kernel reads at one site.
#[derive(Clone, Debug)]
pub struct ReadSpan {
    pub loc: Loc,
    /// Every byte the site may read lies here (device addresses).
    pub range: Range<u64>,
    /// The site runs at least once.
    pub executed: bool,
    /// Every byte it reads was written before in the same iteration by the same thread: an
    /// earlier site of its loop body, unconditional there, writes the same address (`Anew[j][i]
    /// = …; err = fmax(err, fabs(Anew[j][i] - A[j][i]));`), and the plan follows no jump. What
    /// it reads is then never a value from before the launch.
    pub written_first: bool,
    /// The site's address over its loops, to list its bytes run by run when the hull
    /// `range` is too coarse ([`ReadSpan::runs`]); `None` for a site outside every loop.
    pub(super) site: Option<std::sync::Arc<ReadSite>>,
}

/// A read site with the launch's values: its address, its loops and its conditions.
#[derive(Debug)]
pub(super) struct ReadSite {
    addr: Conc,
    size: u64,
    chain: Vec<u32>,
    guards: Vec<CGuard>,
    loops: std::sync::Arc<Vec<Loop>>,
}

impl ReadSpan {
    /// Every byte the site may read, as sorted, disjoint runs of device addresses within
    /// [`ReadSpan::range`]: the address at each iteration of its loops that meets its
    /// conditions (a superset of the bytes it reads: an iteration a `break` would skip is
    /// still listed). `None` when the site has a condition that is not affine, or when more
    /// than `limit` iterations or runs would have to be listed. A site outside every loop is
    /// its hull.
    ///
    /// The uninitialised-read check of `accsim check` (the coherence checker) reads these when
    /// the hull covers bytes no one initialised but the site may not read them: a stencil's
    /// interior rows of a `create`d array whose border columns are never written (issue 15).
    pub fn runs(&self, limit: usize) -> Option<Vec<Range<u64>>> {
        let Some(site) = &self.site else { return Some(vec![self.range.clone()]) };
        if !site.guards.iter().all(CGuard::known) {
            return None;
        }
        let mut out = Vec::new();
        let mut vals = vec![0i64; site.loops.len()];
        let mut steps = limit;
        site.list(0, &mut vals, &mut out, &mut steps)?;
        out.sort_by_key(|r| r.start);
        let mut merged: Vec<Range<u64>> = Vec::with_capacity(out.len());
        for r in out {
            match merged.last_mut() {
                Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                _ => merged.push(r),
            }
        }
        Some(merged)
    }
}

impl ReadSite {
    /// The runs of the counters `chain[depth..]` (the outer ones set in `vals`); `steps`
    /// bounds the iterations and runs looked at.
    fn list(&self, depth: usize, vals: &mut [i64], out: &mut Vec<Range<u64>>, steps: &mut usize) -> Option<()> {
        let push = |out: &mut Vec<Range<u64>>, r: Range<u64>, steps: &mut usize| -> Option<()> {
            if let Some(last) = out.last_mut() {
                if r.start <= last.end && last.start <= r.end {
                    last.start = last.start.min(r.start);
                    last.end = last.end.max(r.end);
                    return Some(());
                }
            }
            *steps = steps.checked_sub(1)?;
            out.push(r);
            Some(())
        };
        if depth == self.chain.len() {
            if !self.guards.iter().all(|g| g.holds(vals)) {
                return Some(());
            }
            let a = self.addr.at(vals) as u64;
            return push(out, a..a.checked_add(self.size)?, steps);
        }
        let l = self.chain[depth];
        let lp = &self.loops[l as usize];
        let (first, n) = lp.span(vals);
        let stride = (self.addr.coef(l) as i128 * lp.step as i128).unsigned_abs();
        if self.guards.is_empty() && depth + 1 == self.chain.len() && stride <= self.size as u128 {
            // The innermost loop reads a contiguous stretch.
            if n == 0 {
                return Some(());
            }
            vals[l as usize] = first;
            let a = self.addr.at(vals) as i128;
            let b = a + (n as i128 - 1) * self.addr.coef(l) as i128 * lp.step as i128;
            let (lo, hi) = (a.min(b), a.max(b) + self.size as i128);
            return push(out, u64::try_from(lo).ok()?..u64::try_from(hi).ok()?, steps);
        }
        for t in 0..n {
            *steps = steps.checked_sub(1)?;
            vals[l as usize] = first + t * lp.step;
            self.list(depth + 1, vals, out, steps)?;
        }
        Some(())
    }
}

/// The bytes a proven kernel writes at one site, exactly, with the gang that writes each run.
#[derive(Clone, Debug)]
pub struct WriteSpan {
    pub loc: Loc,
    pub runs: Vec<WriteRun>,
}

/// Bytes one gang writes: `count` pieces of `len` bytes, the first at device address `start`,
/// each `stride` bytes after the one before, apart from each other (`stride > len`; `count` 1:
/// one piece, `stride` 0). An innermost loop that walks down a column (`c[j][i]` over `j`) is
/// one strided run instead of a run per element: the list of a kernel's writes grows with its
/// rows, not with its elements (issue 15: `check` within 3× the program's data in memory).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteRun {
    pub start: u64,
    pub len: u32,
    pub stride: u32,
    pub count: u32,
    pub gang: u32,
}

impl WriteRun {
    /// One piece of `r`'s bytes.
    pub fn contiguous(r: Range<u64>, gang: u32) -> Result<WriteRun, String> {
        let len = u32::try_from(r.end - r.start).map_err(|_| "a written run larger than a device block".to_string())?;
        Ok(WriteRun { start: r.start, len, stride: 0, count: 1, gang })
    }

    /// The pieces, in address order.
    pub fn pieces(&self) -> impl Iterator<Item = Range<u64>> + '_ {
        (0..self.count as u64).map(move |k| {
            let s = self.start + k * self.stride as u64;
            s..s + self.len as u64
        })
    }

    /// One past the run's last byte.
    fn end(&self) -> u64 {
        self.start + (self.count as u64 - 1) * self.stride as u64 + self.len as u64
    }
}

/// What a proven kernel accesses: reads and writes by site, writes in program order.
#[derive(Clone, Debug, Default)]
pub struct Footprint {
    pub reads: Vec<ReadSpan>,
    pub writes: Vec<WriteSpan>,
    /// Blocks that atomic counter updates may change: what they wrote is known only once the
    /// kernel ran, gang by gang ([`atomics`]).
    pub atomics: Vec<AtomicTarget>,
}

/// The most runs a footprint may list before the plan gives up (checking access by access is
/// then cheaper than the list).
const MAX_RUNS: usize = 1 << 22;

/// The launch configuration.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    pub gangs: u64,
    pub workers: u64,
    pub vector: u64,
}

/// The loops of a plan at one launch (see [`AccessPlan::counters`]).
pub(super) struct Counters {
    loops: Vec<Loop>,
    pub(super) ivs: Vec<Iv>,
    pub(super) never: Vec<bool>,
    always: Vec<bool>,
}

/// The bytes one access site may touch at a launch ([`AccessPlan::site_bytes`]).
#[derive(Clone, Debug)]
pub struct SiteBytes {
    pub loc: Loc,
    pub write: bool,
    pub range: Range<u64>,
}

#[derive(Debug, PartialEq, Eq)]
pub(super) struct Loop {
    lb: Conc,
    ub: Conc,
    pub(super) step: i64,
    cmp: Cmp,
}

impl Loop {
    /// The counter's values for the outer counters `vals`: first, count.
    pub(super) fn span(&self, vals: &[i64]) -> (i64, i64) {
        let (lb, ub, s) = (self.lb.at(vals), self.ub.at(vals), self.step);
        // In 64 bits where nothing overflows (the bounds of real loops), the same count as the
        // 128-bit path below, without its software division (`__divti3`: a quarter of `accsim
        // check`'s proof work on conv3d's 10 launches, called per outer counter value).
        let narrow = || -> Option<i64> {
            match self.cmp {
                Cmp::Lt => ub.checked_sub(lb)?.checked_add(s.checked_sub(1)?)?.checked_div_euclid(s),
                Cmp::Le => ub.checked_sub(lb)?.checked_add(s)?.checked_div_euclid(s),
                Cmp::Gt => lb.checked_sub(ub)?.checked_sub(s)?.checked_sub(1)?.checked_div_euclid(s.checked_neg()?),
                Cmp::Ge => lb.checked_sub(ub)?.checked_sub(s)?.checked_div_euclid(s.checked_neg()?),
            }
        };
        if let Some(n) = narrow() {
            return (lb, n.max(0));
        }
        let (lb, ub, s) = (lb as i128, ub as i128, s as i128);
        let n = match self.cmp {
            Cmp::Lt => (ub - lb + s - 1).div_euclid(s),
            Cmp::Le => (ub - lb + s).div_euclid(s),
            Cmp::Gt => (lb - ub - s - 1).div_euclid(-s),
            Cmp::Ge => (lb - ub - s).div_euclid(-s),
        };
        (lb as i64, n.max(0) as i64)
    }
}

impl AccessPlan {
    /// The loops enclosing a site whose innermost loop is `lp`, outermost first.
    pub(super) fn loop_chain(&self, lp: Option<u32>) -> Vec<u32> {
        let mut chain = Vec::new();
        let mut at = lp;
        while let Some(l) = at {
            chain.push(l);
            at = self.loops[l as usize].parent;
        }
        chain.reverse();
        chain
    }

    /// Prove the kernel at this launch and list what it accesses (see the module
    /// documentation), or say why not.
    pub fn evaluate(&self, v: &dyn LaunchValues, cfg: Config) -> Result<Footprint, String> {
        let bad = || "a launch value is not known".to_string();
        let Counters { loops, ivs, never, always } = self.counters(v)?;
        // Sites: their addresses, bytes and blocks.
        struct S<'p> {
            site: &'p PlanSite,
            addr: Conc,
            bytes: Range<i128>,
            chain: Vec<u32>,
            guards: Vec<CGuard>,
        }
        let mut sites = Vec::new();
        for s in &self.sites {
            let chain = self.loop_chain(s.lp);
            if chain.iter().any(|&l| never[l as usize]) {
                continue;
            }
            let addr = s.addr.eval(v).ok_or_else(bad)?;
            // A guarded site runs only where its conditions hold: narrow its counters' ranges.
            let guards: Vec<CGuard> = s.guards.iter().map(|g| CGuard::of(g, v)).collect();
            let mut narrowed;
            let site_ivs: &[Iv] = if guards.is_empty() {
                &ivs
            } else {
                narrowed = ivs.clone();
                guards.iter().for_each(|g| g.narrow(&mut narrowed));
                if chain.iter().any(|&l| narrowed[l as usize].hi < narrowed[l as usize].lo) {
                    continue;
                }
                &narrowed
            };
            let iv = addr.interval(site_ivs);
            let bytes = iv.lo..iv.hi + s.size as i128;
            if bytes.start < 0 || bytes.end > u64::MAX as i128 {
                return Err("an address out of range".into());
            }
            let (start, len, shared) = v.block(bytes.start as u64).ok_or("an access outside device memory")?;
            if bytes.end > start as i128 + len as i128 {
                return Err("an access past the end of its block".into());
            }
            if !shared {
                continue;
            }
            sites.push(S { site: s, addr, bytes, chain, guards });
        }
        let mut chunks = Vec::with_capacity(self.gangs.len());
        for g in &self.gangs {
            let c = match &g.chunk {
                Some(c) => c.eval(v).ok_or_else(bad)?,
                None => 1,
            };
            if c <= 0 {
                return Err("a gang chunk that is not positive".into());
            }
            chunks.push(c);
        }
        let ev = Ev { loops: std::sync::Arc::new(loops), cfg, chunks };
        let (loops, chunks) = (&ev.loops[..], &ev.chunks[..]);
        let (atomics, atomic_reads) = self.atomic_targets(v, &ivs, &never, cfg.gangs, true, &mut |chain, guards| {
            let mut vals = vec![0i64; self.loops.len()];
            let mut points = 1 << 20;
            (guards.is_empty() && chain.iter().all(|&l| always[l as usize])) || (guards.iter().all(CGuard::known) && self.exists(&ev, guards, chain, 0, &mut vals, &mut points))
        })?;
        // The race proof.
        let overlaps = |a: &Range<i128>, b: &Range<i128>| a.start < b.end && b.start < a.end;
        for s in &sites {
            if let Some(t) = atomics.iter().find(|t| overlaps(&s.bytes, &(t.block.start as i128..t.block.end as i128))) {
                return Err(format!("lines {} and {}: an access of data an `atomic` statement updates", s.site.loc.line, t.loc.line));
            }
        }
        for (i, w) in sites.iter().enumerate().filter(|(_, s)| s.site.write) {
            let in_gang = w.chain.iter().any(|&l| self.loops[l as usize].gang.is_some());
            if !in_gang && cfg.gangs > 1 {
                return Err(format!("line {}: a write that every gang makes", w.site.loc.line));
            }
            if !self.separates(&w.addr, w.site.size as i128, &w.chain, loops, &ivs) {
                return Err(format!("line {}: a write that two threads may make to one place", w.site.loc.line));
            }
            for (j, x) in sites.iter().enumerate() {
                if i == j || !overlaps(&w.bytes, &x.bytes) {
                    continue;
                }
                let same = x.site.lp == w.site.lp && x.addr == w.addr && x.site.size == w.site.size;
                if !same
                    && !self.apart(&w.addr, w.site.size, &w.chain, &x.addr, x.site.size, &x.chain, cfg, loops, &ivs, chunks)
                    && !self.apart_listed(
                        &ev,
                        &listed::Listed { site: w.site, addr: &w.addr, guards: &w.guards, chain: &w.chain },
                        &listed::Listed { site: x.site, addr: &x.addr, guards: &x.guards, chain: &x.chain },
                    )
                {
                    return Err(format!("lines {} and {}: accesses that may touch one place from two threads", w.site.loc.line, x.site.loc.line));
                }
            }
        }
        // The footprint.
        let mut fp = Footprint { atomics, ..Footprint::default() };
        let mut budget = MAX_RUNS;
        for (i, s) in sites.iter().enumerate() {
            let known = s.guards.iter().all(CGuard::known);
            let mut vals = vec![0i64; self.loops.len()];
            if !s.site.write {
                let executed = if !s.site.guards.is_empty() {
                    // Guarded: it runs if some iteration meets its conditions.
                    let mut points = 1 << 20;
                    known && self.exists(&ev, &s.guards, &s.chain, 0, &mut vals, &mut points)
                } else {
                    // Surely entered by the counters' ranges, or an iteration found (a
                    // triangular loop `j > i` runs for all but the last `i`).
                    let mut points = 1 << 20;
                    s.chain.iter().all(|&l| always[l as usize]) || self.exists(&ev, &[], &s.chain, 0, &mut vals, &mut points)
                };
                let site = (!s.chain.is_empty()).then(|| {
                    std::sync::Arc::new(ReadSite { addr: s.addr.clone(), size: s.site.size, chain: s.chain.clone(), guards: s.guards.clone(), loops: ev.loops.clone() })
                });
                let written_first = sites[..i].iter().any(|w| w.site.write && w.site.guards.is_empty() && w.site.lp == s.site.lp && w.site.size == s.site.size && w.addr == s.addr);
                fp.reads.push(ReadSpan { loc: s.site.loc, range: s.bytes.start as u64..s.bytes.end as u64, executed, written_first, site });
                continue;
            }
            if !known {
                return Err(format!("line {}: a write under a condition that is not affine", s.site.loc.line));
            }
            let mut runs = Vec::new();
            self.runs(&ev, s.site, &s.guards, &s.addr, &s.chain, 0, &mut vals, &mut runs, &mut budget)?;
            fp.writes.push(WriteSpan { loc: s.site.loc, runs });
        }
        fp.reads.extend(atomic_reads);
        Ok(fp)
    }

    /// The loops with the launch's values, each counter's range (`never`: the loop runs no
    /// iteration; `always`: it surely runs one), once the no-wrap conditions are checked.
    pub(super) fn counters(&self, v: &dyn LaunchValues) -> Result<Counters, String> {
        let bad = || "a launch value is not known".to_string();
        // Loops: bounds, steps, the counters' ranges.
        let mut loops = Vec::with_capacity(self.loops.len());
        let mut ivs: Vec<Iv> = Vec::with_capacity(self.loops.len());
        let mut never = vec![false; self.loops.len()];
        let mut always = vec![true; self.loops.len()];
        for (i, l) in self.loops.iter().enumerate() {
            let step = l.step.eval(v).ok_or_else(bad)?;
            if step == 0 || (step > 0) != matches!(l.cmp, Cmp::Lt | Cmp::Le) {
                return Err("a loop whose step does not move towards its bound".into());
            }
            let lp = Loop { lb: l.lb.eval(v).ok_or_else(bad)?, ub: l.ub.eval(v).ok_or_else(bad)?, step, cmp: l.cmp };
            let (lbi, ubi) = (lp.lb.interval(&ivs), lp.ub.interval(&ivs));
            let iv = match l.cmp {
                Cmp::Lt => Iv { lo: lbi.lo, hi: ubi.hi - 1 },
                Cmp::Le => Iv { lo: lbi.lo, hi: ubi.hi },
                Cmp::Gt => Iv { lo: ubi.lo + 1, hi: lbi.hi },
                Cmp::Ge => Iv { lo: ubi.lo, hi: lbi.hi },
            };
            let parent = l.parent.map(|p| p as usize);
            never[i] = iv.hi < iv.lo || parent.is_some_and(|p| never[p]);
            // Surely entered: the smallest bound gap still gives an iteration.
            let entered = match l.cmp {
                Cmp::Lt => lbi.hi < ubi.lo,
                Cmp::Le => lbi.hi <= ubi.lo,
                Cmp::Gt => lbi.lo > ubi.hi,
                Cmp::Ge => lbi.lo >= ubi.hi,
            };
            always[i] = entered && parent.is_none_or(|p| always[p]);
            let (flo, fhi) = l.fmt.range();
            if !never[i] && (iv.lo < flo || iv.hi > fhi) {
                return Err("a loop counter outside its type".into());
            }
            ivs.push(if never[i] { Iv { lo: 0, hi: 0 } } else { iv });
            loops.push(lp);
        }
        for (lin, f) in &self.checks {
            let c = lin.eval(v).ok_or_else(bad)?;
            let iv = c.interval(&ivs);
            let (lo, hi) = f.range();
            // Unsigned 64-bit words (pointers) may be anything a signed word is.
            let (lo, hi) = if f.bytes == 8 { (i64::MIN as i128, u64::MAX as i128) } else { (lo, hi) };
            if iv.lo < lo || iv.hi > hi {
                return Err("integer index arithmetic may wrap".into());
            }
        }
        Ok(Counters { loops, ivs, never, always })
    }

    /// Whether the kernel accesses memory through capture `cap`'s value (an address built on
    /// the pointer it passes): `None` when no site does, `Some(true)` when some site writes
    /// there. For `accsim info`'s note on a pointer no clause names.
    pub fn access_through(&self, cap: u32) -> Option<bool> {
        let mut found = None;
        for s in self.sites.iter().filter(|s| s.addr.k.mentions(cap) || s.addr.terms.iter().any(|(_, c)| c.mentions(cap))) {
            found = Some(found.unwrap_or(false) | s.write);
        }
        found
    }

    /// Every byte each access site may touch at this launch, as addresses with the launch's
    /// values (the hull of its address over its counters' ranges, narrowed by its guards), with
    /// no proof and no look at the memory: sites in loops that run no iteration, or whose
    /// guards never hold, are left out. The implicit data of a pointer that no data clause
    /// names is this hull (`exec::openacc`, the copies nvc makes: "Generating implicit
    /// copy(y[:n])").
    pub fn site_bytes(&self, v: &dyn LaunchValues) -> Result<Vec<SiteBytes>, String> {
        let Counters { ivs, never, .. } = self.counters(v)?;
        let mut out = Vec::with_capacity(self.sites.len());
        for s in &self.sites {
            let chain = self.loop_chain(s.lp);
            if chain.iter().any(|&l| never[l as usize]) {
                continue;
            }
            let addr = s.addr.eval(v).ok_or("a launch value is not known")?;
            let mut narrowed = ivs.clone();
            s.guards.iter().for_each(|g| CGuard::of(g, v).narrow(&mut narrowed));
            if chain.iter().any(|&l| narrowed[l as usize].hi < narrowed[l as usize].lo) {
                continue;
            }
            let iv = addr.interval(&narrowed);
            let (start, end) = (iv.lo, iv.hi + s.size as i128);
            if start < 0 || end > u64::MAX as i128 {
                return Err("an address out of range".into());
            }
            out.push(SiteBytes { loc: s.loc, write: s.write, range: start as u64..end as u64 });
        }
        Ok(out)
    }

    /// Are two sites in different loops apart: can they touch one place only when the same
    /// team runs them, in order?
    ///
    /// Let `C` be the loops enclosing both (two gang loops in a row with the same schedule and
    /// iterations count as one: an iteration goes to the same thread in both). Within one
    /// iteration of `C`, run by one gang (`C` has its gang loop, or the launch has one gang), the
    /// two sites lie in different statements
    /// run one after the other: by one thread, or across the start or end of a worker or vector
    /// loop, where the gang's workers and lanes synchronise (§1.2). So they are ordered unless
    /// they meet across two iterations of `C` with different partitioned counters; that cannot
    /// happen when both addresses give `C`'s counters the same coefficients and those separate
    /// the partitioned counters of `C` beyond the bytes both sites reach from one iteration.
    #[allow(clippy::too_many_arguments)]
    fn apart(&self, a: &Conc, asize: u64, achain: &[u32], b: &Conc, bsize: u64, bchain: &[u32], cfg: Config, loops: &[Loop], ivs: &[Iv], chunks: &[i64]) -> bool {
        // The common loops, as pairs (a's counter, b's counter).
        let mut common: Vec<(u32, u32)> = achain.iter().zip(bchain).take_while(|(x, y)| x == y).map(|(x, y)| (*x, *y)).collect();
        // Two gang loops one after the other with the same schedule and the same iterations
        // give each iteration to the same thread (`kernel::schedule`): they count as one loop.
        let n = common.len();
        if let (Some(&la), Some(&lb)) = (achain.get(n), bchain.get(n)) {
            if let (Some(ga), Some(gb)) = (self.loops[la as usize].gang, self.loops[lb as usize].gang) {
                let (x, y) = (&self.gangs[ga as usize], &self.gangs[gb as usize]);
                let dims = x.dims.len();
                let alike = ga != gb
                    && dims == y.dims.len()
                    && (x.worker, x.vector) == (y.worker, y.vector)
                    && chunks[ga as usize] == chunks[gb as usize]
                    && x.dims.iter().zip(&y.dims).enumerate().all(|(d, (&p, &q))| {
                        let (lp, lq) = (&loops[p as usize], &loops[q as usize]);
                        achain.get(n + d) == Some(&p) && bchain.get(n + d) == Some(&q) && lp.lb == lq.lb && lp.ub == lq.ub && lp.step == lq.step && lp.cmp == lq.cmp
                    });
                if alike {
                    common.extend(x.dims.iter().copied().zip(y.dims.iter().copied()));
                }
            }
        }
        if cfg.gangs > 1 && !common.iter().any(|&(l, _)| self.loops[l as usize].gang.is_some()) {
            return false;
        }
        if common.iter().any(|&(p, q)| a.coef(p) != b.coef(q)) {
            return false;
        }
        // The bytes each site reaches from the base of one iteration of the common loops.
        let rest = |c: &Conc, size: u64, mine: &dyn Fn(u32) -> bool| {
            let r = c.interval_without(ivs, mine);
            Iv { lo: r.lo, hi: r.hi + size as i128 }
        };
        let ra = rest(a, asize, &|l| common.iter().any(|c| c.0 == l));
        let rb = rest(b, bsize, &|l| common.iter().any(|c| c.1 == l));
        let reach = ra.hi.max(rb.hi) - ra.lo.min(rb.lo);
        let chain: Vec<u32> = common.iter().map(|c| c.0).collect();
        self.separates(a, reach, &chain, loops, ivs)
    }

    /// Does the address separate the partitioned counters of `chain` (module documentation):
    /// iterations with different partitioned counters touch disjoint bytes, each reaching
    /// `reach` bytes from its address?
    fn separates(&self, addr: &Conc, reach: i128, chain: &[u32], loops: &[Loop], ivs: &[Iv]) -> bool {
        // Each counter as an iteration number t (0 ≤ t < trip), its coefficient scaled by the step.
        let mut terms: Vec<(i128, i128, bool)> = Vec::new();
        for &l in chain {
            let iv = ivs[l as usize];
            let step = loops[l as usize].step as i128;
            let trips = (iv.hi - iv.lo) / step.abs() + 1;
            if trips <= 1 {
                continue;
            }
            let c = addr.coef(l) as i128 * step.abs();
            let part = self.loops[l as usize].partitioned;
            if c == 0 {
                if part {
                    return false;
                }
                continue;
            }
            terms.push((c.abs(), trips - 1, part));
        }
        terms.sort_by_key(|t| t.0);
        let Some(min_part) = terms.iter().filter(|t| t.2).map(|t| t.0).min() else { return true };
        let mut span: i128 = reach - 1;
        for &(c, range, _) in &terms {
            if c >= min_part && c <= span {
                return false;
            }
            span += c * range;
        }
        true
    }

    /// The runs a write site writes, with their gangs, for the counters of `chain[depth..]`
    /// (the outer ones set in `vals`).
    #[allow(clippy::too_many_arguments)]
    fn runs(&self, ev: &Ev, site: &PlanSite, guards: &[CGuard], addr: &Conc, chain: &[u32], depth: usize, vals: &mut [i64], out: &mut Vec<WriteRun>, budget: &mut usize) -> Result<(), String> {
        let push = |out: &mut Vec<WriteRun>, r: WriteRun, budget: &mut usize| -> Result<(), String> {
            if let Some(last) = out.last_mut() {
                // A piece that continues the last one, or the same bytes again (an accumulator).
                if last.gang == r.gang && last.count == 1 && r.count == 1 && (last.end() == r.start || *last == r) {
                    last.len = u32::try_from(r.end().max(last.end()) - last.start).map_err(|_| "a written run larger than a device block".to_string())?;
                    return Ok(());
                }
            }
            if *budget == 0 {
                return Err("a footprint too large to list".into());
            }
            *budget -= 1;
            out.push(r);
            Ok(())
        };
        if depth == chain.len() {
            if !guards.iter().all(|g| g.holds(vals)) {
                return Ok(());
            }
            let a = addr.at(vals) as u64;
            let g = self.gang_of(ev, chain, vals);
            return push(out, WriteRun::contiguous(a..a + site.size, g)?, budget);
        }
        let l = chain[depth];
        let lp = &ev.loops[l as usize];
        let (first, n) = lp.span(vals);
        let c = addr.coef(l);
        if guards.is_empty() && depth + 1 == chain.len() {
            // The innermost loop: for each stretch of iterations one gang runs, one run when
            // the address moves by at most the access size (contiguous, or the same bytes at
            // every iteration: an accumulator `x[i]` written in the inner loop of `j`), else
            // one strided run (a column).
            let stride = (c as i128 * lp.step as i128).unsigned_abs();
            let mut t = 0;
            while t < n {
                vals[l as usize] = first + t * lp.step;
                let g = self.gang_of(ev, chain, vals);
                let len = self.same_gang(ev, chain, l, vals, n - t);
                let a = addr.at(vals);
                let b = a + (len - 1) * c * lp.step;
                let run = if stride <= site.size as u128 || len == 1 {
                    WriteRun::contiguous(a.min(b) as u64..a.max(b) as u64 + site.size, g)?
                } else {
                    let too_far = || "a written run larger than a device block".to_string();
                    WriteRun {
                        start: a.min(b) as u64,
                        len: u32::try_from(site.size).map_err(|_| too_far())?,
                        stride: u32::try_from(stride).map_err(|_| too_far())?,
                        count: u32::try_from(len).map_err(|_| too_far())?,
                        gang: g,
                    }
                };
                push(out, run, budget)?;
                t += len;
            }
            return Ok(());
        }
        for t in 0..n {
            vals[l as usize] = first + t * lp.step;
            self.runs(ev, site, guards, addr, chain, depth + 1, vals, out, budget)?;
        }
        Ok(())
    }

    /// Does some iteration of `chain[depth..]` (the outer counters set in `vals`) meet the
    /// guards? `false` also when more than `points` iterations would have to be looked at.
    fn exists(&self, ev: &Ev, guards: &[CGuard], chain: &[u32], depth: usize, vals: &mut [i64], points: &mut usize) -> bool {
        if depth == chain.len() {
            *points = points.saturating_sub(1);
            return guards.iter().all(|g| g.holds(vals));
        }
        let l = chain[depth];
        let lp = &ev.loops[l as usize];
        let (first, n) = lp.span(vals);
        for t in 0..n {
            if *points == 0 {
                return false;
            }
            vals[l as usize] = first + t * lp.step;
            if self.exists(ev, guards, chain, depth + 1, vals, points) {
                return true;
            }
        }
        false
    }

    /// The gang that runs the iteration `vals` of the loops `chain`.
    fn gang_of(&self, ev: &Ev, chain: &[u32], vals: &[i64]) -> u32 {
        let Some((g, k)) = self.linear(ev, chain, vals) else { return 0 };
        if let Some((n0, rest)) = self.blocked(ev, g, vals) {
            // Gang h runs the outermost indices [h*n0/G, (h+1)*n0/G) (`kernel::schedule`): the
            // row's gang is the largest h with h*n0/G <= row.
            let row = k / rest;
            return (((row + 1) * ev.cfg.gangs as i64 - 1) / n0).max(0) as u32;
        }
        let (c, t, per) = ev.share(&self.gangs[g as usize], g);
        (((k / c) % t) / per) as u32
    }

    /// For a gang loop without a `static` chunk (each gang runs a block of its outermost
    /// index): the outermost loop's trip count and the iterations of the loops inside it.
    fn blocked(&self, ev: &Ev, g: u32, vals: &[i64]) -> Option<(i64, i64)> {
        let gl = &self.gangs[g as usize];
        if gl.chunk.is_some() {
            return None;
        }
        let (&outer, inner) = gl.dims.split_first()?;
        let n0 = ev.loops[outer as usize].span(vals).1;
        let rest = inner.iter().map(|&d| ev.loops[d as usize].span(vals).1).product::<i64>();
        (n0 > 0 && rest > 0).then_some((n0, rest))
    }

    /// The gang loop among `chain` and the linear iteration number of `vals` in it.
    fn linear(&self, ev: &Ev, chain: &[u32], vals: &[i64]) -> Option<(u32, i64)> {
        let g = chain.iter().find_map(|&l| self.loops[l as usize].gang)?;
        let mut k = 0i64;
        for &d in &self.gangs[g as usize].dims {
            let lp = &ev.loops[d as usize];
            let (first, n) = lp.span(vals);
            k = k * n + (vals[d as usize] - first) / lp.step;
        }
        Some((g, k))
    }

    /// How many iterations of loop `l` from `vals[l]` on (at most `left`) the same gang runs.
    fn same_gang(&self, ev: &Ev, chain: &[u32], l: u32, vals: &[i64], left: i64) -> i64 {
        let Some((g, k)) = self.linear(ev, chain, vals) else { return left };
        let gl = &self.gangs[g as usize];
        let (c, t, per) = ev.share(gl, g);
        if gl.dims.last() != Some(&l) || t == per {
            return left;
        }
        if let Some((n0, rest)) = self.blocked(ev, g, vals) {
            // The gang's block ends where the next gang's first row starts.
            let gangs = ev.cfg.gangs as i64;
            let next = (k / rest + 1) * gangs - 1;
            let h = (next / n0).max(0);
            let end = ((h + 1) * n0 / gangs) * rest;
            return (end - k).max(1).min(left);
        }
        // The linear iteration moves on with this loop; the gang changes at multiples of c·per.
        let block = c * per;
        (block - k % block).min(left)
    }
}

/// A launch's loops and configuration, for listing runs.
pub(super) struct Ev {
    pub(super) loops: std::sync::Arc<Vec<Loop>>,
    pub(super) cfg: Config,
    /// Each gang loop's chunk.
    chunks: Vec<i64>,
}

impl Ev {
    /// Chunk, threads and threads per gang of gang loop `g`.
    fn share(&self, gl: &GangLoop, g: u32) -> (i64, i64, i64) {
        let per = ((if gl.worker { self.cfg.workers } else { 1 }) * (if gl.vector { self.cfg.vector } else { 1 })).max(1) as i64;
        (self.chunks[g as usize], (self.cfg.gangs as i64 * per).max(1), per)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 128-bit count of the trip count formula, for comparing the 64-bit path with it.
    fn wide(lb: i64, ub: i64, s: i64, cmp: Cmp) -> i64 {
        let (lb, ub, s) = (lb as i128, ub as i128, s as i128);
        let n = match cmp {
            Cmp::Lt => (ub - lb + s - 1).div_euclid(s),
            Cmp::Le => (ub - lb + s).div_euclid(s),
            Cmp::Gt => (lb - ub - s - 1).div_euclid(-s),
            Cmp::Ge => (lb - ub - s).div_euclid(-s),
        };
        n.max(0) as i64
    }

    /// `Loop::span` counts what the 128-bit formula counts, for small bounds and steps of
    /// both signs, and at the ends of `i64` where the 64-bit path overflows.
    #[test]
    fn span_counts_as_the_wide_formula() {
        let edges = [i64::MIN, i64::MIN + 1, -3, -1, 0, 1, 5, i64::MAX - 1, i64::MAX];
        let values: Vec<i64> = (-12..=12).chain(edges).collect();
        for cmp in [Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge] {
            for &lb in &values {
                for &ub in &values {
                    for s in [-7, -2, -1, 1, 2, 3, 7, i64::MAX, i64::MIN + 1] {
                        let lp = Loop { lb: Conc { k: lb, terms: Vec::new() }, ub: Conc { k: ub, terms: Vec::new() }, step: s, cmp };
                        assert_eq!(lp.span(&[]), (lb, wide(lb, ub, s, cmp)), "{lb} {cmp:?} {ub} step {s}");
                    }
                }
            }
        }
    }
}
