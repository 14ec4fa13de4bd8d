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
//! write and up to two reads by different threads, each a 4-byte index of an interned access
//! record (thread, epochs, byte mask, atomic, site) of the current launch. The set of records
//! of a kernel is small (its threads × the access sites of its code), so a granule's shadow is
//! 12 bytes; the full record is looked up only to compare threads and to report. Granules are
//! kept in pages stamped with the launch number: a page touched by a new kernel is cleared
//! then, so nothing is cleared between kernels.
//!
//! **Cost.** 12 bytes of shadow per granule touched; O(1) per access: the record of the
//! current thread's access at a site is found through a per-thread table (cleared when the
//! thread changes), and a granule's slots are compared by index before their records are read.
//!
//! **False positives: none** for the rule above (an access pair is reported only when the two
//! threads and epochs prove it unordered). **Misses:** with three or more reading threads of a
//! granule, a write may be compared with only two of the reads; accesses made by C library
//! shims inside device code are not seen.

use accsim_core::diag::{Diagnostic, Loc, Severity};
use accsim_core::exec::check::Access;
use rustc_hash::FxHashMap;

use super::coherence::Coherence;
use super::report::{element, finding, var_name};
use super::{DeviceLoc, Kernel, Thread};

/// An access of the current launch, as a granule's shadow refers to it.
#[derive(Clone, Copy, Debug)]
struct Rec {
    thread: Thread,
    mask: u8,
    atomic: bool,
    loc: Loc,
}

/// Index + 1 of a [`Rec`] of the current launch in [`Races::recs`]; 0: no access.
type RecId = u32;

#[derive(Clone, Copy, Debug, Default)]
struct Granule {
    write: RecId,
    reads: [RecId; 2],
}

/// Granules per page (the unit of the lazy per-launch reset).
const PAGE: usize = 1024;

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

/// Do `a` and `b` (of the current launch) conflict in time: different threads, no
/// synchronisation between them?
fn unordered(a: &Thread, b: &Thread) -> bool {
    if a.gang != b.gang {
        return true;
    }
    if a.wsync != b.wsync {
        return false;
    }
    if a.worker != b.worker {
        return true;
    }
    a.lsync == b.lsync && a.lane != b.lane
}

#[derive(Default)]
pub struct Races {
    /// By device allocation id.
    shadow: Vec<Option<Box<Shadow>>>,
    /// The launch `recs` belong to.
    launch: u32,
    recs: Vec<Rec>,
    /// The thread `mine` belongs to, and its records by (site, mask, atomic).
    thread: Thread,
    mine: FxHashMap<(Loc, u8, bool), RecId>,
}

impl Races {
    /// The record of the current thread's access at `loc` to the bytes `mask` of a granule.
    fn rec(&mut self, t: &Thread, loc: Loc, mask: u8, atomic: bool) -> RecId {
        if self.thread != *t {
            self.thread = *t;
            self.mine.clear();
        }
        *self.mine.entry((loc, mask, atomic)).or_insert_with(|| {
            self.recs.push(Rec { thread: *t, mask, atomic, loc });
            self.recs.len() as RecId
        })
    }

    fn get(&self, id: RecId) -> Option<&Rec> {
        id.checked_sub(1).and_then(|i| self.recs.get(i as usize))
    }

    pub fn access(&mut self, at: DeviceLoc, a: &Access, t: &Thread, k: &Kernel, coh: &Coherence, found: &mut Vec<Diagnostic>) {
        if self.launch != k.launch {
            self.launch = k.launch;
            self.recs.clear();
            self.mine.clear();
        }
        let start = at.offset as u64;
        let end = start + a.size;
        if a.size == 0 {
            return;
        }
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
            let cur = self.rec(t, a.loc, mask, a.atomic);
            let gr = grs[n];
            let conflicts = |id: RecId| id != cur && self.get(id).is_some_and(|p| p.mask & mask != 0 && !(p.atomic && a.atomic) && unordered(&p.thread, t));
            if !reported {
                let other = if a.write { [gr.write, gr.reads[0], gr.reads[1]].into_iter().find(|&p| conflicts(p)) } else { Some(gr.write).filter(|&p| conflicts(p)) };
                if let Some(p) = other.and_then(|p| self.get(p)) {
                    reported = true;
                    let name = at.host.and_then(|h| coh.name_of(h)).map(var_name).unwrap_or("");
                    let what = element(name, at.offset, a.size, at.host.is_none_or(|h| coh.whole(h, a.size)));
                    let prev_write = self.get(gr.write).is_some_and(|w| p.loc == w.loc && p.thread == w.thread);
                    found.push(race_finding(&what, a, t, p, prev_write, k));
                }
            }
            let g = &mut grs[n];
            if a.write {
                g.write = cur;
            } else if g.reads[0] != cur {
                // Keep reads of two different threads; a read ordered after a kept one replaces it.
                let slot = g.reads.iter().position(|&r| self.get(r).is_none_or(|r| r.thread == *t || !unordered(&r.thread, t))).unwrap_or(1);
                g.reads[slot] = cur;
            }
        }
        self.shadow[i] = Some(sh);
    }
}

fn race_finding(what: &str, a: &Access, t: &Thread, p: &Rec, prev_write: bool, k: &Kernel) -> Diagnostic {
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
