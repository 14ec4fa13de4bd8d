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
//! **State.** Per 4-byte granule of device memory touched by the current kernel: the last
//! write and up to two reads by different threads. Each is 8 bytes: the index of an interned
//! access record of the launch (gang, worker, lane, site, byte mask, atomic: a small set, the
//! launch's threads × the access sites of its code), and the thread's vector epoch (`lsync`).
//! The worker epoch need not be kept: every change of `wsync` also starts a new `lsync`
//! (`super::CheckRun`), and epochs come from one increasing counter, so an access of this
//! gang has the current `wsync` exactly when its `lsync` is not older than the first `lsync`
//! seen with the current `wsync`. Granules are kept in pages stamped with the launch number:
//! a page touched by a new kernel is cleared then, so nothing is cleared between kernels.
//!
//! **Cost.** 24 bytes of shadow per granule touched; O(1) per access: the record of an access
//! is found through a small direct-mapped table before the launch's hash table, and the
//! record table stays small enough to stay in cache.
//!
//! **False positives: none** for the rule above (an access pair is reported only when the two
//! threads and epochs prove it unordered). **Misses:** with three or more reading threads of a
//! granule, a write may be compared with only two of the reads; accesses made by C library
//! shims inside device code are not seen. Epochs are compared modulo 2³², which is exact while
//! one kernel runs fewer than 2³¹ partitioned loops.

use accsim_core::diag::{Diagnostic, Loc, Severity};
use accsim_core::exec::check::Access;
use rustc_hash::FxHashMap;

use super::coherence::Coherence;
use super::report::{element, finding, var_name};
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

#[derive(Clone, Copy, Debug, Default)]
struct Granule {
    write: Slot,
    reads: [Slot; 2],
}

/// Granules per page (the unit of the lazy per-launch reset).
const PAGE: usize = 1024;

/// Entries of [`Races::recent`].
const RECENT: usize = 64;

/// The shadow of one device block.
#[derive(Default)]
struct Shadow {
    granules: Vec<Granule>,
    /// The launch each page of `granules` was last cleared for.
    stamps: Vec<u32>,
}

impl Shadow {
    /// Granules `first..=last`, grown and cleared for launch `launch` as needed.
    fn granules(&mut self, first: usize, last: usize, launch: u32) -> &mut [Granule] {
        if self.granules.len() <= last {
            self.granules.resize(last + 1, Granule::default());
            self.stamps.resize(self.granules.len().div_ceil(PAGE), 0);
        }
        for p in first / PAGE..=last / PAGE {
            if self.stamps[p] != launch {
                self.stamps[p] = launch;
                let end = ((p + 1) * PAGE).min(self.granules.len());
                self.granules[p * PAGE..end].fill(Granule::default());
            }
        }
        &mut self.granules[first..=last]
    }
}

/// The previous access of a race, as the report names it.
struct Prev {
    thread: Thread,
    loc: Loc,
}

/// Is epoch `a` older than `b` (modulo 2³², see the module documentation)?
fn older(a: u32, b: u32) -> bool {
    (a.wrapping_sub(b) as i32) < 0
}

#[derive(Default)]
pub struct Races {
    /// By device allocation id.
    shadow: Vec<Option<Box<Shadow>>>,
    /// The launch `recs` belong to.
    launch: u32,
    recs: Vec<Rec>,
    rec_ids: FxHashMap<Rec, u32>,
    /// Recently used records, by a hash of the record.
    recent: Vec<(Rec, u32)>,
    /// The gang and `wsync` of the last access, and the first `lsync` seen with them.
    wepoch: Option<(u32, u32, u32)>,
}

impl Races {
    /// The index + 1 of record `r`.
    fn rec(&mut self, r: Rec) -> u32 {
        let h = (r.lane as usize)
            .wrapping_mul(0x9E37_79B9)
            .wrapping_add((r.gang as usize).wrapping_mul(0x85EB_CA6B))
            .wrapping_add((r.worker as usize) << 7)
            .wrapping_add((r.loc.line as usize).wrapping_mul(31).wrapping_add(r.loc.col as usize) << 3)
            .wrapping_add(r.mask as usize)
            % RECENT;
        if self.recent.is_empty() {
            self.recent = vec![(r, 0); RECENT];
        }
        let e = self.recent[h];
        if e.1 != 0 && e.0 == r {
            return e.1;
        }
        let id = *self.rec_ids.entry(r).or_insert_with(|| {
            self.recs.push(r);
            self.recs.len() as u32
        });
        self.recent[h] = (r, id);
        id
    }

    fn get(&self, s: Slot) -> Option<&Rec> {
        s.rec.checked_sub(1).and_then(|i| self.recs.get(i as usize))
    }

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

    pub fn access(&mut self, at: DeviceLoc, a: &Access, t: &Thread, k: &Kernel, coh: &Coherence, found: &mut Vec<Diagnostic>) {
        if self.launch != k.launch {
            self.launch = k.launch;
            self.recs.clear();
            self.rec_ids.clear();
            self.recent.clear();
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
        let (first, last) = ((start / 4) as usize, ((end - 1) / 4) as usize);
        let i = at.alloc as usize;
        if self.shadow.len() <= i {
            self.shadow.resize_with(i + 1, || None);
        }
        let mut sh = self.shadow[i].take().unwrap_or_default();
        let grs = sh.granules(first, last, k.launch);
        let mut reported = false;
        for (n, gi) in (first..=last).enumerate() {
            let lo = (gi as u64 * 4).max(start);
            let hi = (gi as u64 * 4 + 4).min(end);
            let mask = (((1u16 << (hi - lo)) - 1) << (lo - gi as u64 * 4)) as u8;
            let cur = Slot { rec: self.rec(Rec { gang: t.gang, worker: t.worker, lane: t.lane, loc: a.loc, mask, atomic: a.atomic }), epoch: t.lsync };
            let gr = grs[n];
            let conflicts = |s: Slot| s != cur && self.get(s).is_some_and(|p| p.mask & mask != 0 && !(p.atomic && a.atomic) && Self::unordered(p, s, t, w0));
            if !reported {
                let other = if a.write { [gr.write, gr.reads[0], gr.reads[1]].into_iter().find(|&s| conflicts(s)) } else { Some(gr.write).filter(|&s| conflicts(s)) };
                if let Some((s, p)) = other.and_then(|s| Some((s, *self.get(s)?))) {
                    reported = true;
                    let name = at.host.and_then(|h| coh.name_of(h)).map(var_name).unwrap_or("");
                    let what = element(name, at.offset, a.size, at.host.is_none_or(|h| coh.whole(h, a.size)));
                    let prev_write = self.get(gr.write).is_some_and(|w| p.loc == w.loc && (p.gang, p.worker, p.lane) == (w.gang, w.worker, w.lane) && s.epoch == gr.write.epoch);
                    let prev = Prev { thread: Thread { gang: p.gang, worker: p.worker, lane: p.lane, wsync: 0, lsync: s.epoch }, loc: p.loc };
                    found.push(race_finding(&what, a, t, &prev, prev_write, k));
                }
            }
            let g = &mut grs[n];
            if a.write {
                g.write = cur;
            } else if g.reads[0] != cur {
                // Keep reads of two different threads; a read ordered after a kept one replaces it.
                let slot = g.reads.iter().position(|&r| self.get(r).is_none_or(|p| Self::same_thread(p, r, t) || !Self::unordered(p, r, t, w0))).unwrap_or(1);
                g.reads[slot] = cur;
            }
        }
        self.shadow[i] = Some(sh);
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
        "data-race",
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
