//! Values passed between the workers and lanes of one gang through the gang's own storage
//! (§1.2 execution model, §2.5.10–§2.5.11 gang-private copies, §2.7.10–§2.7.11).
//!
//! **What is watched.** Storage that belongs to one gang but that its workers and vector lanes
//! share: a variable of the gang's code (declared in a gang loop's body, kept in memory by the
//! checking executable when a worker or vector partition writes it and the code around the
//! partition uses it, `accsim_core::exec::compile`'s `partition_shared_locals`), a local of a
//! `routine worker` shared by the lanes of its vector loops, and the gang's `private`,
//! `firstprivate` and `reduction` copies made by the runtime. A frame made inside a partition
//! (a routine called by one lane) belongs to that thread and is not watched. Different gangs
//! never share such storage, so the state is per gang.
//!
//! **Rule.** A thread that reads a value written by another thread of its gang, with no
//! synchronisation between the two (workers rejoin only at the end of a worker loop, lanes only
//! at the end of a vector loop, §1.2), races with the writer; and a value written by two threads
//! with no synchronisation between them (not both `atomic`, §2.12) is undetermined, so any
//! thread but the last writer that reads it before it is written again reads the result of a
//! race (`int where=-1;` followed by a vector loop whose lanes set `where=j`, then
//! `last[i]=where`). Threads that each write such a variable before reading it exchange no
//! value through it: compilers give each thread its own copy (a loop counter of a sequential
//! loop inside a vector loop, a temporary), and that is not reported.
//!
//! **State.** Per byte of watched storage a device thread wrote: the last write (thread,
//! vector epoch, site) and one earlier write of another thread that it is unordered with (the
//! contested write). The worker epoch is found as the race checker finds it: epochs come from
//! one increasing counter, and a write of the current worker epoch has a vector epoch not older
//! than the first one seen with it ([`super::race`]).
//!
//! **Misses.** A variable written and read only inside one partition, by different threads
//! (a flag one lane sets and the others read in the same vector loop), stays a register unless
//! the code around the partition uses it; bytes written only at gang level before a partition
//! are not recorded (they are ordered before every thread of the partition).

use accsim_core::diag::{Diagnostic, Loc, Severity};
use accsim_core::exec::check::Access;
use accsim_core::ir::acc::Level;
use accsim_core::finding::FindingKind;
use rustc_hash::FxHashMap;

use super::race::older;
use super::report::finding;
use super::{Kernel, Thread};

/// A watched location of a gang's storage, as [`super::CheckRun`] finds it.
#[derive(Clone, Copy, Debug)]
pub struct GangLoc {
    pub alloc: u32,
    pub offset: u32,
    /// The allocation was made before the innermost partition running now began, or is a
    /// gang copy of the runtime: the threads of the partition may share it. Accesses to other
    /// storage are only compared with what is recorded (nothing, unless a partition that
    /// shared it wrote it).
    pub shared: bool,
}

/// What a watched allocation holds, for messages.
#[derive(Clone, Debug)]
pub enum Holds {
    /// A variable of device code; `declared_in`: declared in a worker or vector loop's body, so
    /// one per worker or per lane (the frame holds it once; each thread's use is a variable of
    /// its own).
    /// `name`: the program's name for it, `None` for a local the passes made (shown as "a local
    /// variable").
    Variable { name: Option<String>, declared_in: Option<Level> },
    /// A gang's private or firstprivate copy made by the runtime for a clause of the construct:
    /// the variable it copies (from [`accsim_core::exec::events::Event::GangCopy`]) and the
    /// clause.
    GangCopy { var: Option<String>, clause: &'static str },
}

/// A write recorded in a cell: the site (index + 1 into [`SharedFrames::sites`], 0: none) and
/// the writing thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Write {
    site: u32,
    worker: u32,
    lane: u32,
    lsync: u32,
}

#[derive(Clone, Copy, Debug, Default)]
struct Cell {
    last: Write,
    contested: Write,
}

#[derive(Default)]
pub struct SharedFrames {
    /// The launch and gang the cells belong to.
    owner: Option<(u32, u32)>,
    /// (allocation, worker and lane of a per-thread variable) → byte offset → cell.
    cells: FxHashMap<(u32, u32, u32), FxHashMap<u32, Cell>>,
    sites: Vec<(Loc, bool)>,
    site_ids: FxHashMap<(Loc, bool), u32>,
    /// The current worker epoch and the first vector epoch seen with it.
    wepoch: Option<(u32, u32)>,
}

impl SharedFrames {
    fn site(&mut self, loc: Loc, atomic: bool) -> u32 {
        let n = self.sites.len() as u32 + 1;
        let id = *self.site_ids.entry((loc, atomic)).or_insert(n);
        if id == n {
            self.sites.push((loc, atomic));
        }
        id
    }

    fn site_of(&self, w: Write) -> Option<(Loc, bool)> {
        w.site.checked_sub(1).and_then(|i| self.sites.get(i as usize)).copied()
    }

    /// Are write `w` and the running thread `t` unordered (different threads of the gang, no
    /// synchronisation between)? `w0`: the first vector epoch of `t`'s worker epoch.
    fn unordered(w: Write, t: &Thread, w0: u32) -> bool {
        if w.site == 0 || older(w.lsync, w0) {
            return false;
        }
        w.worker != t.worker || (w.lsync == t.lsync && w.lane != t.lane)
    }

    fn same_thread(w: Write, t: &Thread) -> bool {
        w.site != 0 && w.worker == t.worker && w.lane == t.lane && w.lsync == t.lsync
    }

    fn atomic(&self, w: Write) -> bool {
        self.site_of(w).is_some_and(|(_, a)| a)
    }

    pub fn access(&mut self, at: GangLoc, holds: &Holds, a: &Access, t: &Thread, k: &Kernel, found: &mut Vec<Diagnostic>) {
        if self.owner != Some((k.launch, t.gang)) {
            self.owner = Some((k.launch, t.gang));
            self.cells.clear();
            self.wepoch = None;
        }
        let w0 = match self.wepoch {
            Some((w, l)) if w == t.wsync => l,
            _ => {
                self.wepoch = Some((t.wsync, t.lsync));
                t.lsync
            }
        };
        let key = match holds {
            Holds::Variable { declared_in: Some(Level::Worker), .. } => (at.alloc, t.worker, u32::MAX),
            Holds::Variable { declared_in: Some(Level::Vector), .. } => (at.alloc, t.worker, t.lane),
            _ => (at.alloc, u32::MAX, u32::MAX),
        };
        if a.size == 0 || (!at.shared && !self.cells.contains_key(&key)) {
            return;
        }
        let start = at.offset;
        let end = start.saturating_add(a.size.min(u32::MAX as u64) as u32);
        if a.write {
            let me = Write { site: self.site(a.loc, a.atomic), worker: t.worker, lane: t.lane, lsync: t.lsync };
            if !at.shared {
                // Not shared by the running partition: only keep what is recorded up to date.
                let Some(cells) = self.cells.get_mut(&key) else { return };
                for off in start..end {
                    cells.remove(&off);
                }
                return;
            }
            let both_atomic = |s: &SharedFrames, w: Write| a.atomic && s.atomic(w);
            let mut updates = Vec::with_capacity((end - start) as usize);
            {
                let cells = self.cells.get(&key);
                for off in start..end {
                    let old = cells.and_then(|c| c.get(&off)).copied().unwrap_or_default();
                    // The earlier write this one races with, if any: the last one, or the one
                    // the last raced with.
                    let contested = [old.last, old.contested].into_iter().find(|&w| w != me && Self::unordered(w, t, w0) && !both_atomic(self, w)).unwrap_or_default();
                    updates.push((off, Cell { last: me, contested }));
                }
            }
            let cells = self.cells.entry(key).or_default();
            for (off, c) in updates {
                cells.insert(off, c);
            }
            return;
        }
        let Some(cells) = self.cells.get(&key) else { return };
        for off in start..end {
            let Some(c) = cells.get(&off).copied() else { continue };
            if Self::unordered(c.last, t, w0) && !(a.atomic && self.atomic(c.last)) {
                found.push(self.flow_finding(holds, a, t, c.last, k));
                return;
            }
            if c.contested.site != 0 && !Self::same_thread(c.last, t) {
                found.push(self.contested_finding(holds, a, t, c, k));
                return;
            }
        }
    }

    fn thread_of(w: Write, gang: u32) -> Thread {
        Thread { gang, worker: w.worker, lane: w.lane, wsync: 0, lsync: w.lsync }
    }

    fn between(a: Write, b: &Thread) -> &'static str {
        if a.worker != b.worker {
            "workers of a gang synchronise only at the end of a worker loop (§1.2)"
        } else {
            "vector lanes synchronise only at the end of a vector loop (§1.2)"
        }
    }

    fn flow_finding(&self, holds: &Holds, a: &Access, t: &Thread, w: Write, k: &Kernel) -> Diagnostic {
        let what = describe(holds);
        let writer = Self::thread_of(w, t.gang);
        let wloc = self.site_of(w).map_or(a.loc, |(l, _)| l);
        finding(
            FindingKind::DataRace,
            Severity::Error,
            format!("data race on {what}: {} reads it while {} wrote it, with no synchronisation between ({}; {what} is one variable of the {}, shared by its threads)", t.describe(), writer.describe(), Self::between(w, t), owner(holds)),
            a.loc,
        )
        .with_related(wloc, format!("{} wrote {what} here", writer.describe()))
        .with_related(k.loc, format!("in the kernel of this compute construct (line {})", k.loc.line))
        .with_help(help(holds))
    }

    fn contested_finding(&self, holds: &Holds, a: &Access, t: &Thread, c: Cell, k: &Kernel) -> Diagnostic {
        let what = describe(holds);
        let (last, other) = (Self::thread_of(c.last, t.gang), Self::thread_of(c.contested, t.gang));
        let lloc = self.site_of(c.last).map_or(a.loc, |(l, _)| l);
        let oloc = self.site_of(c.contested).map_or(a.loc, |(l, _)| l);
        finding(
            FindingKind::DataRace,
            Severity::Error,
            format!(
                "data race on {what}: {} and {} both wrote it, with no synchronisation between, then {} reads it: the value depends on the order the threads run in ({}; {what} is one variable of the {}, shared by its threads)",
                other.describe(),
                last.describe(),
                t.describe(),
                Self::between(c.contested, &last),
                owner(holds)
            ),
            a.loc,
        )
        .with_related(oloc, format!("{} wrote {what} here", other.describe()))
        .with_related(lloc, format!("{} wrote {what} here", last.describe()))
        .with_related(k.loc, format!("in the kernel of this compute construct (line {})", k.loc.line))
        .with_help(help(holds))
    }
}

fn describe(holds: &Holds) -> String {
    match holds {
        Holds::Variable { name: Some(name), .. } => format!("`{name}`"),
        Holds::Variable { name: None, .. } => "a local variable".to_string(),
        Holds::GangCopy { var: Some(var), clause } => format!("the gang's `{clause}` copy of `{var}`"),
        Holds::GangCopy { var: None, .. } => "the gang's copy of a `private`/`firstprivate` variable".to_string(),
    }
}

/// Whose variable it is: the gang's, or (declared in a worker loop) the worker's.
fn owner(holds: &Holds) -> &'static str {
    match holds {
        Holds::Variable { declared_in: Some(Level::Worker), .. } => "worker",
        Holds::Variable { declared_in: Some(Level::Vector), .. } => "lane",
        _ => "gang",
    }
}

fn help(holds: &Holds) -> String {
    let name = match holds {
        Holds::Variable { name: Some(name), .. } => name.as_str(),
        Holds::GangCopy { var: Some(var), .. } => var.as_str(),
        Holds::Variable { name: None, .. } | Holds::GangCopy { var: None, .. } => "x",
    };
    format!("give each thread its own copy (`private({name})` on the worker or vector loop, or declare it inside the loop), combine the threads' values with a `reduction` clause, or make the updates `#pragma acc atomic` (§2.7.10, §2.7.11, §2.12)")
}

impl super::Check for SharedFrames {
    fn kinds(&self) -> &'static [FindingKind] {
        &[FindingKind::DataRace]
    }

    fn hooks(&self) -> super::Hooks {
        super::Hooks { device_access: false, host_access: false, data: false, gang_access: true }
    }

    fn gang_access(&mut self, cx: &super::Context<'_>, at: GangLoc, holds: &Holds, a: &Access, found: &mut Vec<Diagnostic>) {
        if let Some(k) = cx.kernel {
            self.access(at, holds, a, &cx.thread, &k, found);
        }
    }
}
