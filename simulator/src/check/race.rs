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
//! write and up to two reads by different threads (thread, epochs, byte mask, atomic, site),
//! stamped with the launch number so that nothing needs clearing between kernels.
//!
//! **Cost.** 64 bytes of shadow per granule touched; O(1) per access.
//!
//! **False positives: none** for the rule above (an access pair is reported only when the two
//! threads and epochs prove it unordered). **Misses:** with three or more reading threads of a
//! granule, a write may be compared with only two of the reads; accesses made by C library
//! shims inside device code are not seen.

use std::collections::HashMap;

use accsim_core::diag::{Diagnostic, Loc, Severity};
use accsim_core::exec::check::Access;

use super::coherence::Coherence;
use super::report::{element, finding, var_name};
use super::{DeviceLoc, Kernel, Thread};

#[derive(Clone, Copy, Debug, Default)]
struct Rec {
    /// Launch number; 0: no access recorded.
    launch: u32,
    thread: Thread,
    mask: u8,
    atomic: bool,
    loc: Loc,
}

#[derive(Clone, Copy, Debug, Default)]
struct Granule {
    write: Rec,
    reads: [Rec; 2],
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
    shadow: HashMap<u32, Vec<Granule>>,
}

impl Races {
    pub fn access(&mut self, at: DeviceLoc, a: &Access, t: &Thread, k: &Kernel, coh: &Coherence, found: &mut Vec<Diagnostic>) {
        let start = at.offset as u64;
        let end = start + a.size;
        let g = self.shadow.entry(at.alloc).or_default();
        let last = ((end - 1) / 4) as usize;
        if g.len() <= last {
            g.resize(last + 1, Granule::default());
        }
        let mut reported = false;
        let first = (start / 4) as usize;
        for (gi, gr) in g.iter_mut().enumerate().take(last + 1).skip(first) {
            let lo = (gi as u64 * 4).max(start);
            let hi = (gi as u64 * 4 + 4).min(end);
            let mask = (((1u16 << (hi - lo)) - 1) << (lo - gi as u64 * 4)) as u8;
            let cur = Rec { launch: k.launch, thread: *t, mask, atomic: a.atomic, loc: a.loc };
            let conflicts = |p: &Rec| p.launch == k.launch && p.mask & mask != 0 && !(p.atomic && a.atomic) && unordered(&p.thread, t);
            if !reported {
                let other = if a.write {
                    [gr.write, gr.reads[0], gr.reads[1]].into_iter().find(|p| conflicts(p))
                } else {
                    Some(gr.write).filter(|p| conflicts(p))
                };
                if let Some(p) = other {
                    reported = true;
                    let name = at.host.and_then(|h| coh.name_of(h)).map(var_name).unwrap_or("");
                    let what = element(name, at.offset, a.size, at.host.is_none_or(|h| coh.whole(h, a.size)));
                    let prev_write = gr.write.launch == k.launch && p.loc == gr.write.loc && p.thread == gr.write.thread;
                    found.push(race_finding(&what, a, t, &p, prev_write, k));
                }
            }
            if a.write {
                gr.write = cur;
            } else {
                // Keep reads of two different threads; a read ordered after a kept one replaces it.
                let slot = gr.reads.iter().position(|r| r.launch != k.launch || r.thread == *t || !unordered(&r.thread, t)).unwrap_or(1);
                gr.reads[slot] = cur;
            }
        }
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
