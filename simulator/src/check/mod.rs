//! The checkers of `accsim check` (DESIGN.md "Checking").
//!
//! A checking run compiles the program with access hooks
//! ([`accsim_core::exec::compile_for_checking`]) and runs it on the sequential device, so every
//! memory access, every device thread change and every data-environment operation reaches
//! [`CheckRun`] — a subscriber of the run's event stream ([`accsim_core::exec::events`]) — in
//! program order, on one thread: the findings are deterministic. `CheckRun` keeps the state
//! every checker needs — *who* is running (the host, or gang `g`, worker `w`, lane `l` of a
//! kernel, with the synchronisation epochs of §1.2), *where* an access goes (host memory, a
//! device copy of which host allocation, a gang-private block), and the data environment itself
//! ([`coherence`]: host and device copies of mapped data, with its findings: stale reads,
//! uninitialised device reads, discarded device results, redundant transfers) — and hands each
//! event to the checkers of the [`registry`], each a [`Check`] in a module of its own:
//!
//! - [`race`]: data races between the threads of one kernel;
//! - [`shared_frame`]: values passed between the workers and lanes of one gang through the
//!   gang's own storage (its variables and its private copies);
//! - [`async_race`]: the host or another queue touching data of pending queue work.
//!
//! The address-space rule (the host dereferencing device memory, §1.3) is `CheckRun`'s own: it
//! decides where an access goes before any checker sees it.
//!
//! **Order.** An access goes to the coherence model first (it updates the copies' state), then
//! to the checkers in registry order; a data event goes to the checkers first (they see the data
//! environment as it was before the event), then to the coherence model. Findings are reported
//! in that order.
//!
//! Each finding carries both sites; [`report::Findings`] deduplicates them (one finding per kind
//! and pair of sites) and caps their number.
//!
//! **Proven kernels.** A kernel whose accesses are affine in its loop counters is proven
//! race-free when it is launched, if the launch's values allow it
//! ([`accsim_core::kernel::footprint`]); it then runs as `accsim run` runs it (in parallel,
//! vectorised, unobserved), and [`CheckRun::proven_launch`] hands the coherence checker the
//! bytes each of its sites read and the runs each wrote, with the writing gang. The race checker
//! has nothing to do (the proof is its answer), and the async-race checker is idle (only
//! synchronous kernels, with no queue busy, are taken). Whenever a read could find something —
//! bytes that hold a newer host value or were never written on the device — the footprint is
//! refused and the kernel is checked access by access, so findings are exactly those of
//! `accsim check --every-access` (simulator/tests/proofs.rs compares both on every sample).

pub mod async_race;
pub mod coherence;
pub mod race;
pub mod report;
pub mod runs;
pub mod shared_frame;

use std::sync::{Arc, Mutex};

use accsim_core::diag::{Diagnostic, Loc};
use accsim_core::finding::FindingKind;
use accsim_core::exec::check::{Access, Level, ThreadEvent};
use accsim_core::exec::events::{Event, Stamp, Subscriber};
use accsim_core::kernel::footprint::Footprint;
use rustc_hash::FxHashMap;
use accsim_core::exec::memory::{AllocId, AllocKind, Memory, Space};

pub use report::Findings;

/// The kernel being run.
#[derive(Clone, Copy, Debug)]
pub struct Kernel {
    pub loc: Loc,
    /// Runs on the host with host data (`if(false)`, the host device).
    pub on_host: bool,
    pub queue: Option<i64>,
    /// Launches so far, this one included (distinguishes kernels in per-location state).
    pub launch: u32,
}

/// The device thread running now and its synchronisation epochs.
///
/// `wsync` changes whenever the workers of the current gang synchronise (a worker partitioned
/// loop begins or ends), `lsync` whenever the lanes of the current worker do (a vector loop
/// begins or ends, a worker's share starts) and whenever `wsync` changes. Both come from one
/// counter, so two accesses of one gang with equal `wsync` lie in the same worker-partitioned
/// stretch of code, unordered unless made by the same worker (§1.2: workers and lanes rejoin
/// only at the end of a partitioned loop).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Thread {
    pub gang: u32,
    pub worker: u32,
    pub lane: u32,
    pub wsync: u32,
    pub lsync: u32,
}

impl Thread {
    /// "gang 3", "gang 3, worker 1, lane 7" (the parts that are not 0).
    pub fn describe(&self) -> String {
        let mut s = format!("gang {}", self.gang);
        if self.worker != 0 {
            s += &format!(", worker {}", self.worker);
        }
        if self.lane != 0 {
            s += &format!(", lane {}", self.lane);
        }
        s
    }
}

/// A location of device memory as the checkers key it: the device allocation (or, for a
/// declared global named directly by device code, the global's id) and the byte offset.
#[derive(Clone, Copy, Debug)]
pub struct DeviceLoc {
    pub alloc: u32,
    pub offset: u32,
    /// The host allocation whose copy this is, when known.
    pub host: Option<u32>,
}

/// What a checker is told besides the event: the data environment as the coherence model
/// tracks it (which device block copies which host allocation, variable names, whether bytes
/// are in sync), the running kernel and the running device thread.
pub struct Context<'a> {
    pub coherence: &'a coherence::Coherence,
    pub kernel: Option<Kernel>,
    pub thread: Thread,
}

/// Which methods of a [`Check`] do something (asked once: the others are not called, which
/// keeps the per-access cost to the checkers that look at accesses).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hooks {
    pub device_access: bool,
    pub host_access: bool,
    pub data: bool,
    pub gang_access: bool,
}

/// One checker of `accsim check`: a module of this folder that implements it and is listed in
/// [`registry`]. Every method has a default that does nothing; findings go to `found`.
pub trait Check: Send {
    /// The kinds of finding this checker reports.
    fn kinds(&self) -> &'static [FindingKind];

    /// The methods this checker implements.
    fn hooks(&self) -> Hooks;

    /// Device code of `cx.kernel` (running on the device) made access `a` to shared device
    /// memory at `at`; `private`: the location is a gang-private block of the runtime (private,
    /// firstprivate and reduction copies, §2.5.9–§2.5.11).
    fn device_access(&mut self, _cx: &Context<'_>, _at: DeviceLoc, _private: bool, _a: &Access, _found: &mut Vec<Diagnostic>) {}

    /// Device code of `cx.kernel` made access `a` to storage of the running gang that its
    /// workers and lanes may share ([`shared_frame`]): a variable of device code kept in
    /// memory, or a gang's private, firstprivate or reduction copy (§2.5.10–§2.5.11).
    fn gang_access(&mut self, _cx: &Context<'_>, _at: shared_frame::GangLoc, _holds: &shared_frame::Holds, _a: &Access, _found: &mut Vec<Diagnostic>) {}

    /// Host code (or a kernel running on the host) made access `a` to host memory.
    fn host_access(&mut self, _cx: &Context<'_>, _a: &Access, _found: &mut Vec<Diagnostic>) {}

    /// A data-environment, launch or queue event, before the coherence model takes it;
    /// `queue`: the activity queue it belongs to.
    fn data(&mut self, _cx: &Context<'_>, _mem: &Memory, _queue: Option<i64>, _e: &Event<'_>, _found: &mut Vec<Diagnostic>) {}

    /// Whether a kernel proven race-free may now run on its footprint, unobserved (a checker
    /// whose state needs the kernel's accesses answers `false`). Default: `true`.
    fn allows_footprint(&self) -> bool {
        true
    }

    /// Whether every host access must reach this checker now (not only those of the
    /// allocations the coherence model follows, [`coherence::Coherence::follows_host`]): asked
    /// after each data event when host code runs as native code
    /// ([`accsim_core::exec::observed_host`]). Default: `false`.
    fn follows_all_host_accesses(&self) -> bool {
        false
    }
}

/// The checkers of `accsim check`, in the order they see each event. A new checker is a module
/// of this folder implementing [`Check`], added here.
pub fn registry() -> Vec<Box<dyn Check>> {
    registry_for(Default::default())
}

/// The checkers of a run under Cray's `acc_model` (`--acc-model`, `--cray`): the async-race
/// checker names the model in what its implicit queue causes.
pub fn registry_for(model: accsim_core::dialect::cray::AccModel) -> Vec<Box<dyn Check>> {
    vec![Box::<race::Races>::default(), Box::<shared_frame::SharedFrames>::default(), Box::new(async_race::AsyncRaces::for_acc_model(model))]
}

/// The checker object a checking run carries (see the module documentation).
pub struct CheckRun {
    findings: Arc<Mutex<Findings>>,
    kernel: Option<Kernel>,
    thread: Thread,
    next_sync: u32,
    launches: u32,
    /// Device blocks device code touched lately and the host allocations they copy
    /// ([`coherence::Coherence::host_of`], which changes only at data events), by block id
    /// modulo their number.
    blocks: [Option<(u32, Option<u32>)>; 4],
    pub coherence: coherence::Coherence,
    /// The checkers of the [`registry`].
    checks: Vec<Box<dyn Check>>,
    /// Indices into `checks` of those with each hook ([`Check::hooks`]).
    device_checks: Vec<usize>,
    host_checks: Vec<usize>,
    data_checks: Vec<usize>,
    gang_checks: Vec<usize>,
    /// For each worker or vector partition running now, outermost first, the first allocation
    /// id made after it began: storage made earlier may be shared by its threads.
    partition_marks: Vec<u32>,
    /// Per function of the executable, its name and its locals' names, empty for a local the
    /// passes made (messages about variables of device code, [`CheckRun::name_locals`]).
    local_names: Vec<(String, Vec<String>, Vec<(u32, accsim_core::ir::acc::Level)>)>,
    /// The gang copies of the running kernel (allocation id → variable and clause, from
    /// [`Event::GangCopy`]): findings about a copy name its variable.
    gang_copies: FxHashMap<u32, (String, &'static str)>,
    /// Take the footprints of kernels proven race-free at launch instead of their accesses
    /// ([`Subscriber::proven_launch`]); `accsim check --every-access` turns it off.
    pub proofs: bool,
    /// When host code runs as native code: the host allocations whose accesses the checkers
    /// need, kept up to date after each data event ([`CheckRun::follow`]).
    pub observed: Option<Arc<accsim_core::exec::observed_host::ObservedHost>>,
}

/// The most iterations and runs listed for one read of a proven kernel whose hull covers
/// bytes it must not read stale ([`accsim_core::kernel::footprint::ReadSpan::runs`]): more, and
/// the kernel is checked access by access.
const EXACT_READ_LIMIT: usize = 1 << 20;

/// A [`CheckRun`] shared with a tool that reads its state while the run is paused (the GUI reads
/// the coherence model at each pause): the subscriber locks it for each event.
pub struct SharedCheckRun(pub Arc<Mutex<CheckRun>>);

impl Subscriber for SharedCheckRun {
    fn event(&mut self, mem: &Memory, at: &Stamp<'_>, e: &Event<'_>) {
        if let Ok(mut run) = self.0.lock() {
            run.event(mem, at, e);
        }
    }

    fn device_events(&self) -> bool {
        true
    }

    fn wants_proofs(&self) -> bool {
        self.0.lock().is_ok_and(|run| run.wants_proofs())
    }

    fn proven_launch(&mut self, mem: &Memory, fp: &Footprint) -> bool {
        self.0.lock().is_ok_and(|mut run| run.proven_launch(mem, fp))
    }

    fn proven_atomic_writes(&mut self, mem: &Memory, writes: &[accsim_core::exec::device::AtomicWrite]) {
        if let Ok(mut run) = self.0.lock() {
            run.proven_atomic_writes(mem, writes);
        }
    }
}

impl CheckRun {
    /// A checker and the handle its findings are read through after the run.
    pub fn new() -> (CheckRun, Arc<Mutex<Findings>>) {
        let findings: Arc<Mutex<Findings>> = Arc::default();
        let run = CheckRun {
            findings: findings.clone(),
            kernel: None,
            thread: Thread::default(),
            next_sync: 1,
            launches: 0,
            blocks: [None; 4],
            coherence: Default::default(),
            checks: Vec::new(),
            device_checks: Vec::new(),
            host_checks: Vec::new(),
            data_checks: Vec::new(),
            gang_checks: Vec::new(),
            partition_marks: Vec::new(),
            local_names: Vec::new(),
            gang_copies: FxHashMap::default(),
            proofs: true,
            observed: None,
        };
        (run.with_checks(registry()), findings)
    }

    /// This run with the checkers of [`registry_for`] `model`.
    pub fn with_acc_model(self, model: accsim_core::dialect::cray::AccModel) -> CheckRun {
        self.with_checks(registry_for(model))
    }

    /// This run with `checks` (in the order they see each event) instead of its own.
    pub fn with_checks(mut self, checks: Vec<Box<dyn Check>>) -> CheckRun {
        let with = |hook: fn(&Hooks) -> bool| -> Vec<usize> { checks.iter().enumerate().filter(|(_, c)| hook(&c.hooks())).map(|(i, _)| i).collect() };
        self.device_checks = with(|h| h.device_access);
        self.host_checks = with(|h| h.host_access);
        self.data_checks = with(|h| h.data);
        self.gang_checks = with(|h| h.gang_access);
        self.checks = checks;
        self
    }

    /// Learn the names of the executable's functions and locals, which findings about variables
    /// of device code use (without them such a variable is "a local variable").
    pub fn name_locals(&mut self, exe: &accsim_core::exec::Executable) {
        // Only the program's variables (and threads' copies of them) are named
        // (`ir::LocalRole`): a temporary, a capture's address or a schedule variable is no
        // variable the reader wrote.
        let program_name = |n: &Option<String>| n.clone().unwrap_or_default();
        self.local_names = exe.funcs.iter().map(|f| (f.name.clone(), f.program_names.iter().map(program_name).collect(), f.thread_locals.clone())).collect();
    }

    /// The storage of the running gang that its threads may share, at `addr` (see
    /// [`shared_frame`]): a frame local or VLA of device code, or a gang copy of the runtime.
    fn gang_loc(&self, mem: &Memory, addr: u64) -> Option<(shared_frame::GangLoc, shared_frame::Holds)> {
        let id = (addr >> 32) as u32;
        let a = mem.allocation(AllocId(id))?;
        let in_partition = self.partition_marks.last().is_some_and(|&mark| id < mark);
        let (shared, holds) = match a.kind() {
            AllocKind::Local(f, l) | AllocKind::Vla(f, l) => {
                let func = self.local_names.get(f as usize);
                // Display wording: a name with a leading underscore is reserved to the
                // implementation (C11 §7.1.3), so no name the reader wrote (the Fortran
                // translation's temporaries are `_f…`).
                let name = func.and_then(|(_, names, _)| names.get(l as usize)).filter(|n| !n.is_empty() && !n.starts_with('_'));
                let declared_in = func.and_then(|(_, _, w)| w.iter().find(|(x, _)| *x == l).map(|(_, level)| *level));
                (in_partition, shared_frame::Holds::Variable { name: name.cloned(), declared_in })
            }
            // The gang's threads combine their partial results into a reduction copy
            // (§2.5.11, §2.7.11): no thread reads another's value there.
            kind if kind.is_gang_reduction_copy() => return None,
            kind if kind.is_gang_private() => {
                let (var, clause) = self.gang_copies.get(&id).map_or((None, "private"), |(v, c)| (Some(v.clone()), *c));
                (true, shared_frame::Holds::GangCopy { var, clause })
            }
            _ => return None,
        };
        Some((shared_frame::GangLoc { alloc: id, offset: addr as u32, shared }, holds))
    }

    /// A new synchronisation epoch (never 0, the epoch of no thread yet, nor `u32::MAX`,
    /// the race checker's sealed epoch).
    fn fresh(&mut self) -> u32 {
        self.next_sync = self.next_sync.wrapping_add(1).max(1);
        if self.next_sync == u32::MAX {
            self.next_sync = 1;
        }
        self.next_sync
    }

    #[inline(always)]
    fn report(&self, found: Vec<Diagnostic>) {
        if !found.is_empty() {
            self.report_found(found);
        }
    }

    fn report_found(&self, found: Vec<Diagnostic>) {
        // The thread running now is the primary site's (device code only).
        let thread = self.kernel.filter(|k| !k.on_host).map(|_| self.thread);
        if let Ok(mut f) = self.findings.lock() {
            for d in found {
                f.push_by(d, thread);
            }
        }
    }

    /// The device location an access of device code names, if it is shared device memory, and
    /// whether it is a private (per-gang) block of the runtime.
    fn device_loc(&mut self, mem: &Memory, addr: u64) -> Option<(DeviceLoc, bool)> {
        let id = (addr >> 32) as u32;
        let a = mem.allocation(AllocId(id))?;
        let offset = addr as u32;
        match (a.space, a.kind()) {
            (Space::Device, kind) => {
                let slot = &mut self.blocks[id as usize % 4];
                let host = match *slot {
                    Some((b, h)) if b == id => h,
                    _ => {
                        let h = self.coherence.host_of(id);
                        *slot = Some((id, h));
                        h
                    }
                };
                let private = kind.is_gang_private();
                Some((DeviceLoc { alloc: id, offset, host }, private))
            }
            // A declared global named directly: the device view backs it with its device copy.
            (Space::Host, AllocKind::Global(_)) if self.coherence.is_mapped(id) => Some((DeviceLoc { alloc: id, offset, host: Some(id) }, false)),
            _ => None,
        }
    }
}

impl Subscriber for CheckRun {
    fn event(&mut self, mem: &Memory, at: &Stamp<'_>, e: &Event<'_>) {
        match e {
            Event::Access(a) => self.access(mem, a),
            Event::Thread(t) => {
                self.partition_marks(mem, *t);
                self.thread(*t)
            }
            Event::Finding(d) => self.note((*d).clone()),
            Event::GangCopy { copy, var, clause, .. } => {
                self.gang_copies.insert((copy >> 32) as u32, (var.to_string(), clause));
            }
            // The timeline's own events: nothing the checkers follow.
            Event::Launched { .. } | Event::WaitDirective { .. } | Event::Present { .. } | Event::LoopSchedule(_) => {}
            _ => self.data(mem, at.queue, e),
        }
    }

    fn device_events(&self) -> bool {
        true
    }

    fn wants_proofs(&self) -> bool {
        self.proofs
    }

    fn proven_launch(&mut self, mem: &Memory, fp: &Footprint) -> bool {
        // Only a synchronous kernel while no queue has work: an asynchronous one's accesses
        // are kept, as runs, for the async-race checker, and those must be exact.
        let Some(k) = self.kernel.filter(|k| self.proofs && !k.on_host && k.queue.is_none()) else { return false };
        if !self.checks.iter().all(|c| c.allows_footprint()) {
            return false;
        }
        let mut host = |addr: u64| -> Option<(u32, u32)> {
            let (at, private) = self.device_loc(mem, addr)?;
            (!private).then_some(())?;
            Some((at.host?, at.offset))
        };
        let mut reads = Vec::with_capacity(fp.reads.len());
        let mut spans = Vec::with_capacity(fp.reads.len());
        for r in &fp.reads {
            if let Some((hid, off)) = host(r.range.start) {
                reads.push((hid, off..off + (r.range.end - r.range.start) as u32, r.executed, r.written_first));
                spans.push((r, off));
            }
        }
        // A read's bytes run by run, at the same host offsets as its hull.
        let exact = |i: usize| -> Option<Vec<std::ops::Range<u32>>> {
            let (r, off) = spans.get(i)?;
            let runs = r.runs(EXACT_READ_LIMIT)?;
            Some(runs.into_iter().map(|x| off + (x.start - r.range.start) as u32..off + (x.end - r.range.start) as u32).collect())
        };
        // A site's runs lie in one device block (`Footprint`), the copy of one host allocation
        // at the same offsets: its first run names the allocation for all.
        let mut writes = Vec::with_capacity(fp.writes.len());
        for w in &fp.writes {
            if let Some((hid, _)) = w.runs.first().and_then(|run| host(run.start)) {
                writes.push((hid, w.loc, &w.runs[..]));
            }
        }
        self.coherence.proven_launch(&reads, &exact, &writes, &k)
    }

    fn proven_atomic_writes(&mut self, mem: &Memory, writes: &[accsim_core::exec::device::AtomicWrite]) {
        let Some(k) = self.kernel else { return };
        let mut host = Vec::with_capacity(writes.len());
        for (r, gang, loc) in writes {
            if let Some((DeviceLoc { host: Some(hid), offset, .. }, false)) = self.device_loc(mem, r.start) {
                host.push((hid, offset..offset.saturating_add((r.end - r.start) as u32), *loc, *gang));
            }
        }
        self.coherence.proven_atomic_writes(&host, &k);
    }
}

impl CheckRun {
    fn access(&mut self, mem: &Memory, a: &Access) {
        let mut found = Vec::new();
        match self.kernel {
            Some(k) if !k.on_host => {
                if !self.gang_checks.is_empty() {
                    if let Some((at, holds)) = self.gang_loc(mem, a.addr) {
                        let cx = Context { coherence: &self.coherence, kernel: self.kernel, thread: self.thread };
                        for &i in &self.gang_checks {
                            self.checks[i].gang_access(&cx, at, &holds, a, &mut found);
                        }
                    }
                }
                let Some((at, private)) = self.device_loc(mem, a.addr) else {
                    self.report(found);
                    return;
                };
                let t = self.thread;
                self.coherence.device_access(at, a, &t, &k, &mut found);
                let cx = Context { coherence: &self.coherence, kernel: self.kernel, thread: t };
                for &i in &self.device_checks {
                    self.checks[i].device_access(&cx, at, private, a, &mut found);
                }
            }
            _ => {
                let id = (a.addr >> 32) as u32;
                let Some(alloc) = mem.allocation(AllocId(id)) else { return };
                if alloc.space == Space::Device {
                    // The host cannot address device memory (§1.3): a device pointer
                    // (`acc_malloc`, `acc_deviceptr`, `use_device`) dereferenced on the host.
                    let verb = if a.write { "writes" } else { "reads" };
                    let mut d = report::finding(
                        FindingKind::HostDerefDevicePtr,
                        accsim_core::diag::Severity::Error,
                        format!("host code {verb} device memory through a device pointer: the host cannot address the device's separate memory (§1.3)"),
                        a.loc,
                    )
                    .with_help("dereference device pointers only in device code (a compute construct or a `routine`), or copy the data back with `acc_memcpy_from_device`/`update host`");
                    if alloc.origin().line != 0 {
                        d = d.with_related(alloc.origin(), "the device memory was allocated here");
                    }
                    self.report(vec![d]);
                    return;
                }
                self.coherence.host_access(id, a, &mut found);
                let cx = Context { coherence: &self.coherence, kernel: self.kernel, thread: self.thread };
                for &i in &self.host_checks {
                    self.checks[i].host_access(&cx, a, &mut found);
                }
            }
        }
        self.report(found);
    }

    /// Follow the partitions running now ([`CheckRun::partition_marks`]).
    fn partition_marks(&mut self, mem: &Memory, e: ThreadEvent) {
        match e {
            ThreadEvent::GangStart(_) => self.partition_marks.clear(),
            ThreadEvent::PartitionBegin(..) => self.partition_marks.push(mem.next_id()),
            ThreadEvent::PartitionEnd(_) => {
                self.partition_marks.pop();
            }
            ThreadEvent::Partition(..) | ThreadEvent::GangsDone => {}
        }
    }

    fn thread(&mut self, e: ThreadEvent) {
        match e {
            ThreadEvent::GangStart(g) => {
                let (w, l) = (self.fresh(), self.fresh());
                self.thread = Thread { gang: g as u32, worker: 0, lane: 0, wsync: w, lsync: l };
            }
            ThreadEvent::PartitionBegin(Level::Worker, _) => {
                // A new worker epoch always starts a new vector epoch too (the race checker
                // relies on it: `race` module documentation).
                self.thread.wsync = self.fresh();
                self.thread.lsync = self.fresh();
            }
            ThreadEvent::PartitionBegin(Level::Vector, _) => self.thread.lsync = self.fresh(),
            ThreadEvent::Partition(Level::Worker, w) => {
                self.thread.worker = w as u32;
                self.thread.lane = 0;
                self.thread.lsync = self.fresh();
            }
            ThreadEvent::Partition(Level::Vector, l) => self.thread.lane = l as u32,
            ThreadEvent::PartitionEnd(Level::Worker) => {
                self.thread.worker = 0;
                self.thread.lane = 0;
                self.thread.wsync = self.fresh();
                self.thread.lsync = self.fresh();
            }
            ThreadEvent::PartitionEnd(Level::Vector) => {
                self.thread.lane = 0;
                self.thread.lsync = self.fresh();
            }
            ThreadEvent::GangsDone => {}
        }
    }

    fn note(&mut self, d: Diagnostic) {
        if let Ok(mut f) = self.findings.lock() {
            f.push_by(d, None);
        }
    }

    fn data(&mut self, mem: &Memory, queue: Option<i64>, e: &Event<'_>) {
        self.blocks = [None; 4];
        let mut found = Vec::new();
        if let Event::Created { host, var: name, loc, .. } = e {
            // A data clause or routine maps host memory (§2.6.5); given device memory
            // (`acc_malloc`), the runtime copies from and to an address the host cannot use.
            if let Some(alloc) = mem.allocation(AllocId((host.start >> 32) as u32)).filter(|a| a.space == Space::Device) {
                let mut d = report::finding(
                    FindingKind::HostDerefDevicePtr,
                    accsim_core::diag::Severity::Error,
                    format!("`{name}` points to device memory, but a data clause or routine maps it as host memory: the host side of the mapping is an address the host cannot use (§1.3, §2.6.5)"),
                    *loc,
                )
                .with_help(format!("name device memory in a `deviceptr({name})` clause instead (§2.6.5.1)"));
                if alloc.origin().line != 0 {
                    d = d.with_related(alloc.origin(), "the device memory was allocated here");
                }
                found.push(d);
            }
        }
        match e {
            Event::LaunchBegin { loc, on_host, .. } => {
                self.launches += 1;
                self.kernel = Some(Kernel { loc: *loc, on_host: *on_host, queue, launch: self.launches });
                self.thread = Thread::default();
                self.gang_copies.clear();
            }
            Event::LaunchEnd { .. } => {
                self.kernel = None;
                self.thread = Thread::default();
            }
            _ => {}
        }
        let cx = Context { coherence: &self.coherence, kernel: self.kernel, thread: self.thread };
        for &i in &self.data_checks {
            self.checks[i].data(&cx, mem, queue, e, &mut found);
        }
        self.coherence.data(queue, e, &mut found);
        self.report(found);
        self.follow(e);
    }

    /// After data event `e`: tell native host code which host accesses the checkers need
    /// ([`CheckRun::observed`]). Only the host allocation the event names can have become
    /// followed ([`coherence::Coherence::follows_host`]); the async-race checker follows every
    /// access while a queue has work.
    fn follow(&self, e: &Event<'_>) {
        let Some(observed) = &self.observed else { return };
        let host = match e {
            Event::Created { host, .. } | Event::Present { host, .. } | Event::Released { host, .. } => Some(host.start),
            Event::Upload { host, .. } | Event::Download { host, .. } => Some(*host),
            _ => None,
        };
        if let Some(addr) = host {
            let id = (addr >> 32) as u32;
            observed.set(id, self.coherence.follows_host(id));
        }
        observed.set_all(self.checks.iter().any(|c| c.follows_all_host_accesses()));
    }
}
