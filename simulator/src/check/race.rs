//! Data races between the threads of one kernel (§1.2 execution model, §1.3 memory model,
//! §2.12 `atomic`).
//!
//! **Rule.** Two accesses to the same device location by different threads of one kernel, at
//! least one a write, not both atomic, race unless a synchronisation point the model has orders
//! them. Gangs never synchronise inside a kernel, so accesses of different gangs always race —
//! including gang-redundant code where every gang writes the same location. Workers of a gang
//! are ordered only by the start and the end of a worker-partitioned loop, lanes of a worker
//! only by the start and end of a vector loop (the `wsync`/`lsync` epochs of
//! [`super::Thread`]). The end of the kernel orders everything.
//!
//! **What is shared.** Only device memory that exists for the whole kernel: device copies of
//! mapped data, `acc_malloc` blocks, declared globals. Private and firstprivate copies and
//! reduction partials are per gang (separate blocks, so different gangs never meet), and
//! variables declared inside the region or privatised at worker/vector level live in the
//! thread's own frame, which is never reported: private data never races, and a reduction's
//! per-thread partials are private by construction.
//!
//! **State.** Per granule of device memory touched by the current kernel (4 bytes; 8 while a
//! block sees only whole aligned 8-byte words, see [`Shadow`]): the last write and up to two
//! reads by different threads. Each is 8 bytes: the index of an interned
//! access record of the launch (gang, worker, lane, site, byte mask, atomic: a small set, the
//! launch's threads × the access sites of its code), and the thread's vector epoch (`lsync`).
//! The worker epoch need not be kept: every change of `wsync` also starts a new `lsync`
//! (`super::CheckRun`), and epochs come from one increasing counter, so an access of this
//! gang has the current `wsync` exactly when its `lsync` is not older than the first `lsync`
//! seen with the current `wsync`. Granules are kept in pages stamped with the launch number:
//! a page touched by a new kernel is cleared then, so nothing is cleared between kernels; a
//! page's write slots and read slots are allocated when first needed.
//!
//! **Cost.** 8 bytes of shadow per granule a kernel writes, 16 per granule it reads; O(1) per
//! access: the record of an access is found as thread × site through small tables (a
//! direct-mapped cache of sites), and the record table stays small enough to stay in cache.
//!
//! **False positives: none** for the rule above (an access pair is reported only when the two
//! threads and epochs prove it unordered). **Misses:** with three or more reading threads of a
//! granule, a write may be compared with only two of the reads; a granule keeps one write, so
//! after writes of different bytes of it (a `char` array) a later write may be compared with
//! the last of them only; accesses made by C library shims inside device code are not seen.
//! Epochs are compared modulo 2³², which is exact while one kernel runs fewer than 2³¹
//! partitioned loops.

use accsim_core::diag::{Diagnostic, Loc, Severity};
use accsim_core::finding::FindingKind;
use accsim_core::exec::check::Access;
use rustc_hash::FxHashMap;

use super::coherence::Coherence;
use super::report::{element, finding};
use super::{DeviceLoc, Kernel, Thread};

/// Who made an access of the current launch and where (without its epochs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Rec {
    gang: u32,
    worker: u32,
    lane: u32,
    loc: Loc,
    mask: u8,
    atomic: bool,
}

/// One access in a granule's shadow: index + 1 of its [`Rec`] (0: none) and its thread's
/// `lsync` epoch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Slot {
    rec: u32,
    epoch: u32,
}

/// Granules per page (the unit of allocation and of the lazy per-launch reset).
const PAGE: usize = 1024;

/// Entries of [`Races::recent`].
const RECENT: usize = 64;

/// A page of granules: the write slots and the read slots, each allocated when first needed
/// in the page's launch (a block that a kernel only reads has no write slots, and the
/// reverse).
#[derive(Default)]
struct Page {
    /// The launch the slots belong to.
    launch: u32,
    writes: Option<Box<[Slot]>>,
    reads: Option<Box<[[Slot; 2]]>>,
}

/// The shadow of one device block.
///
/// Granules are 8 bytes while every access of the block is whole aligned 8-byte words: such a
/// granule stands for two 4-byte granules whose slots would be equal (each access covers both
/// halves with the same mask). The first other access splits every granule into its two halves
/// for good.
struct Shadow {
    pages: Vec<Page>,
    /// Granule size: 8 or 4.
    size: u64,
}

impl Default for Shadow {
    fn default() -> Shadow {
        Shadow { pages: Vec::new(), size: 8 }
    }
}

impl Shadow {
    /// Go from 8-byte to 4-byte granules.
    fn split(&mut self) {
        let halves = |v: &[Slot]| -> Box<[Slot]> { v.iter().flat_map(|&s| [s, s]).collect() };
        let mut pages = Vec::with_capacity(self.pages.len() * 2);
        for p in std::mem::take(&mut self.pages) {
            let mut lo = Page { launch: p.launch, ..Page::default() };
            let mut hi = Page { launch: p.launch, ..Page::default() };
            if let Some(w) = &p.writes {
                lo.writes = Some(halves(&w[..PAGE / 2]));
                hi.writes = Some(halves(&w[PAGE / 2..]));
            }
            if let Some(r) = &p.reads {
                lo.reads = Some(r[..PAGE / 2].iter().flat_map(|&s| [s, s]).collect());
                hi.reads = Some(r[PAGE / 2..].iter().flat_map(|&s| [s, s]).collect());
            }
            pages.push(lo);
            pages.push(hi);
        }
        self.pages = pages;
        self.size = 4;
    }

    /// The page of granule `g`, cleared for launch `launch` if it belonged to another.
    #[inline]
    fn page(&mut self, g: usize, launch: u32) -> &mut Page {
        let p = g / PAGE;
        if self.pages.len() <= p {
            self.pages.resize_with(p + 1, Page::default);
        }
        let page = &mut self.pages[p];
        if page.launch != launch {
            *page = Page { launch, ..Page::default() };
        }
        page
    }

}

impl Page {
    fn write(&self, g: usize) -> Slot {
        self.writes.as_ref().map_or(Slot::default(), |w| w[g % PAGE])
    }

    fn reads(&self, g: usize) -> [Slot; 2] {
        self.reads.as_ref().map_or([Slot::default(); 2], |r| r[g % PAGE])
    }

    fn set_write(&mut self, g: usize, s: Slot) {
        self.writes.get_or_insert_with(|| vec![Slot::default(); PAGE].into_boxed_slice())[g % PAGE] = s;
    }

    fn set_read(&mut self, g: usize, i: usize, s: Slot) {
        self.reads.get_or_insert_with(|| vec![[Slot::default(); 2]; PAGE].into_boxed_slice())[g % PAGE][i] = s;
    }
}

/// The previous access of a race, as the report names it.
struct Prev {
    thread: Thread,
    loc: Loc,
}

/// Is epoch `a` older than `b` (modulo 2³², see the module documentation)? The shared-frame
/// checker's epochs wrap the same way.
pub(super) fn older(a: u32, b: u32) -> bool {
    (a.wrapping_sub(b) as i32) < 0
}

#[derive(Default)]
pub struct Races {
    /// By device allocation id.
    shadow: Vec<Option<Box<Shadow>>>,
    /// The launch `records` belong to.
    launch: u32,
    records: Records,
    /// The gang and `wsync` of the last access, and the first `lsync` seen with them.
    wepoch: Option<(u32, u32, u32)>,
}

/// The access records of a launch.
struct Records {
    /// Records by index; `pairs[thread][site]` is the index + 1 of the record of a thread
    /// (an index of `threads`) at a site (an index of `sites`), 0 if none yet.
    recs: Vec<Rec>,
    pairs: Vec<Vec<u32>>,
    threads: FxHashMap<(u32, u32, u32), u32>,
    /// The thread of the last access and its index.
    thread: Option<(u32, u32, u32, u32)>,
    /// Access sites (location, byte mask, atomic) of the run, and a direct-mapped cache of them.
    sites: FxHashMap<(Loc, u8, bool), u32>,
    recent: [Option<(Loc, u8, bool, u32)>; RECENT],
}

impl Default for Records {
    fn default() -> Records {
        Records {
            recs: Vec::new(),
            pairs: Vec::new(),
            threads: FxHashMap::default(),
            thread: None,
            sites: FxHashMap::default(),
            recent: [None; RECENT],
        }
    }
}

impl Records {
    /// Forget the records of the last launch (sites are kept: they do not depend on it).
    fn clear(&mut self) {
        self.recs.clear();
        self.pairs.clear();
        self.threads.clear();
        self.thread = None;
    }

    /// The index + 1 of the record of thread `t`'s access at `loc` to the bytes `mask`.
    #[inline(always)]
    fn rec(&mut self, t: &Thread, loc: Loc, mask: u8, atomic: bool) -> u32 {
        let tid = match self.thread {
            Some((g, w, l, i)) if (g, w, l) == (t.gang, t.worker, t.lane) => i,
            _ => {
                let n = self.threads.len() as u32;
                let i = *self.threads.entry((t.gang, t.worker, t.lane)).or_insert(n);
                if i == n {
                    self.pairs.push(Vec::new());
                }
                self.thread = Some((t.gang, t.worker, t.lane, i));
                i
            }
        };
        let h = (loc.line as usize).wrapping_mul(31).wrapping_add(loc.col as usize).wrapping_mul(8).wrapping_add(mask as usize) % RECENT;
        let sid = match self.recent[h] {
            Some((l, m, a, i)) if l == loc && m == mask && a == atomic => i,
            _ => {
                let n = self.sites.len() as u32;
                let i = *self.sites.entry((loc, mask, atomic)).or_insert(n);
                self.recent[h] = Some((loc, mask, atomic, i));
                i
            }
        };
        let row = &mut self.pairs[tid as usize];
        if row.len() <= sid as usize {
            row.resize(sid as usize + 1, 0);
        }
        if row[sid as usize] == 0 {
            self.recs.push(Rec { gang: t.gang, worker: t.worker, lane: t.lane, loc, mask, atomic });
            row[sid as usize] = self.recs.len() as u32;
        }
        row[sid as usize]
    }

    fn get(&self, s: Slot) -> Option<&Rec> {
        s.rec.checked_sub(1).and_then(|i| self.recs.get(i as usize))
    }
}

impl Races {
    /// Are the access `s` (of the current launch) and the running thread `t` in conflict in
    /// time: different threads, no synchronisation between them? `w0`: the first `lsync` of
    /// `t`'s worker epoch.
    fn unordered(p: &Rec, s: Slot, t: &Thread, w0: u32) -> bool {
        if p.gang != t.gang {
            return true;
        }
        if older(s.epoch, w0) {
            // Another `wsync` of this gang.
            return false;
        }
        if p.worker != t.worker {
            return true;
        }
        s.epoch == t.lsync && p.lane != t.lane
    }

    /// Was `s` made by the running thread `t`?
    fn same_thread(p: &Rec, s: Slot, t: &Thread) -> bool {
        p.gang == t.gang && p.worker == t.worker && p.lane == t.lane && s.epoch == t.lsync
    }

    // Called only through `Check::device_access`: inlined there (one call per access).
    #[inline(always)]
    pub fn access(&mut self, at: DeviceLoc, a: &Access, t: &Thread, k: &Kernel, coh: &Coherence, found: &mut Vec<Diagnostic>) {
        if self.launch != k.launch {
            self.launch = k.launch;
            self.records.clear();
            self.wepoch = None;
        }
        let w0 = match self.wepoch {
            Some((g, w, l)) if g == t.gang && w == t.wsync => l,
            _ => {
                self.wepoch = Some((t.gang, t.wsync, t.lsync));
                t.lsync
            }
        };
        if a.size == 0 {
            return;
        }
        let start = at.offset as u64;
        let end = start + a.size;
        let i = at.alloc as usize;
        if self.shadow.len() <= i {
            self.shadow.resize_with(i + 1, || None);
        }
        let Races { shadow, records, .. } = self;
        let sh = shadow[i].get_or_insert_with(Default::default);
        if sh.size == 8 && (!start.is_multiple_of(8) || !a.size.is_multiple_of(8)) {
            sh.split();
        }
        let gs = sh.size;
        let shift = gs.trailing_zeros();
        let launch = k.launch;
        let mut reported = false;
        for gi in (start >> shift) as usize..=((end - 1) >> shift) as usize {
            // The bytes of the access in the (4-byte) granule, or in each half of an 8-byte one.
            let lo = (gi as u64 * gs).max(start);
            let hi = (gi as u64 * gs + gs.min(4)).min(end);
            let mask = (((1u16 << (hi - lo)) - 1) << (lo - gi as u64 * gs)) as u8;
            let cur = Slot { rec: records.rec(t, a.loc, mask, a.atomic), epoch: t.lsync };
            let page = sh.page(gi, launch);
            let write = page.write(gi);
            let conflicts = |s: Slot| s != cur && records.get(s).is_some_and(|p| p.mask & mask != 0 && !(p.atomic && a.atomic) && Self::unordered(p, s, t, w0));
            if !reported {
                let other = if a.write {
                    let reads = page.reads(gi);
                    [write, reads[0], reads[1]].into_iter().find(|&s| conflicts(s))
                } else {
                    Some(write).filter(|&s| conflicts(s))
                };
                if let Some((s, p)) = other.and_then(|s| Some((s, *records.get(s)?))) {
                    reported = true;
                    let name = at.host.and_then(|h| coh.name_of(h)).unwrap_or("");
                    let what = element(name, at.offset, a.size, at.host.is_none_or(|h| coh.whole(h, a.size)));
                    let prev_write = records.get(write).is_some_and(|w| p.loc == w.loc && (p.gang, p.worker, p.lane) == (w.gang, w.worker, w.lane) && s.epoch == write.epoch);
                    let prev = Prev { thread: Thread { gang: p.gang, worker: p.worker, lane: p.lane, wsync: 0, lsync: s.epoch }, loc: p.loc };
                    found.push(race_finding(&what, a, t, &prev, prev_write, k));
                }
            }
            if a.write {
                if write != cur {
                    page.set_write(gi, cur);
                }
            } else {
                let reads = page.reads(gi);
                if reads[0] != cur {
                    // Keep reads of two different threads; a read ordered after a kept one replaces it.
                    let slot = reads.iter().position(|&r| records.get(r).is_none_or(|p| Self::same_thread(p, r, t) || !Self::unordered(p, r, t, w0))).unwrap_or(1);
                    if reads[slot] != cur {
                        page.set_read(gi, slot, cur);
                    }
                }
            }
        }
    }
}

fn race_finding(what: &str, a: &Access, t: &Thread, p: &Prev, prev_write: bool, k: &Kernel) -> Diagnostic {
    let verb = |w: bool| if w { "writes" } else { "reads" };
    let past = if prev_write { "wrote" } else { "read" };
    let between = if p.thread.gang != t.gang {
        "gangs never synchronise inside a kernel (§1.2)".to_string()
    } else if p.thread.worker != t.worker {
        "workers of a gang synchronise only at the end of a worker loop (§1.2)".to_string()
    } else {
        "vector lanes synchronise only at the end of a vector loop (§1.2)".to_string()
    };
    let mut d = finding(
        FindingKind::DataRace,
        Severity::Error,
        format!("data race on {what}: {} {} it while {} {past} it, with no synchronisation between ({between})", t.describe(), verb(a.write), p.thread.describe()),
        a.loc,
    )
    .with_related(p.loc, format!("{} {past} {what} here", p.thread.describe()))
    .with_related(k.loc, format!("in the kernel of this compute construct (line {})", k.loc.line));
    d = d.with_help(if p.thread.gang != t.gang && p.loc == a.loc {
        "every gang runs this code (gang-redundant mode): partition the loop (`loop gang`), guard the write, use a `reduction`, or make the update `atomic` (§2.12)".to_string()
    } else {
        "give each thread its own element, use a `reduction` clause, or make the update `#pragma acc atomic` (§2.12)".to_string()
    });
    d
}

impl super::Check for Races {
    fn kinds(&self) -> &'static [FindingKind] {
        &[FindingKind::DataRace]
    }

    fn hooks(&self) -> super::Hooks {
        super::Hooks { device_access: true, host_access: false, data: false, gang_access: false }
    }

    fn device_access(&mut self, cx: &super::Context<'_>, at: DeviceLoc, private: bool, a: &Access, found: &mut Vec<Diagnostic>) {
        // Private, firstprivate and reduction copies are the runtime's own per-gang blocks:
        // private data and reductions never race (§2.5.9–§2.5.11).
        if let (false, Some(k)) = (private, cx.kernel) {
            self.access(at, a, &cx.thread, &k, cx.coherence, found);
        }
    }
}
