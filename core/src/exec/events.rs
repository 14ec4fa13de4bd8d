//! The event stream (DESIGN.md "Events are the single source of observation"): everything a run
//! shows an observer — the data environment's operations (device copies created, found present
//! and released, transfers, pointer attachment, §2.6, §2.14), kernel launches and waits (§2.13,
//! §2.14), the device threads of a kernel starting and rejoining (§1.2), the memory accesses of a
//! checking executable, and findings — is one [`Event`], delivered in program order to the run's
//! [`Subscribers`]. `--notify`, `--time`, `--trace` ([`Timeline`]), the checkers of `accsim
//! check` (simulator/src/check) and the GUI are subscribers.
//!
//! **Model clock.** Every event carries a [`Stamp`]: the activity queue it belongs to and its
//! time on a *model clock*, so the same program gives the same trace every run. One interpreter
//! step is one nanosecond; a transfer of `b` bytes takes `1 µs + b / 10 GB/s` (a PCIe-like
//! link); device allocation and free take 1 µs. Host steps and kernel steps advance the clock as
//! they run; transfers and launches are on the host track (the queues run their work when it is
//! issued, so every queue's work is also host-synchronous).
//!
//! **Cost.** Accesses and device-thread events are delivered only to subscribers that ask for
//! them ([`Subscriber::device_events`]) and only by an executable compiled for checking; a run
//! with no subscriber builds no event (the clock still advances). Device code runs one gang at a
//! time on the interpreter thread while a subscriber wants device events
//! ([`super::device::SequentialDevice`], which moves the subscribers into the device fork).
//!
//! The owned [`Record`]s of the timeline are what `--notify` prints (NV_ACC_NOTIFY-style lines),
//! `--time` summarises per construct (NV_ACC_TIME-style) and `--trace FILE.json` writes as a
//! Chrome trace (`accsim::json::chrome_trace` in the simulator crate).

use std::collections::BTreeMap;
use std::fmt::Write;
use std::ops::Range;

use crate::diag::{Diagnostic, Loc, SourceMap};
use crate::dialect::cray::{queue_name, AUTO_ASYNC_QUEUE};

use super::memory::Memory;

/// One memory access of the program.
#[derive(Clone, Copy, Debug)]
pub struct Access {
    pub addr: u64,
    pub size: u64,
    pub write: bool,
    /// Inside an `atomic` construct (§2.12).
    pub atomic: bool,
    pub loc: Loc,
}

/// A level of the execution model below the gang (§1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    Worker,
    Vector,
}

/// What an atomic counter update of a proven kernel wrote, as the checkers are told it
/// ([`Subscriber::proven_atomic_writes`]): the bytes (device addresses), the gang that wrote
/// them last in the sequential device's gang order, and the update's site.
pub type AtomicWrite = (Range<u64>, u32, Loc);

/// The structure of a kernel's execution, as device code runs.
#[derive(Clone, Copy, Debug)]
pub enum ThreadEvent {
    /// Gang `gang` of the running kernel starts (gang-redundant, worker-single, vector-single).
    GangStart(u64),
    /// A worker or vector partitioned loop starts (at `loc`).
    PartitionBegin(Level, Loc),
    /// The thread with this index at that level starts its share of the partitioned loop.
    Partition(Level, u64),
    /// The partitioned loop ends: its threads rejoin (a synchronisation point, §1.2).
    PartitionEnd(Level),
    /// Every gang of the running kernel has finished (reported by the device before it hands
    /// the kernel's memory back, so a memory model can commit what it holds back, §1.3).
    GangsDone,
}

/// One thing a run did, as its observers see it. Host addresses are
/// [`Space::Host`](super::memory::Space) pointer words, device addresses device ones.
#[derive(Clone, Debug)]
pub enum Event<'a> {
    /// A device copy of `host` was created at `device` (for `name`, by the clause at `loc`):
    /// 1 µs of model time (§2.6.4). In these data events `name` is the data as the clause or
    /// routine call names it (`a[0:n]`), `var` the variable it belongs to (`a`).
    Created { host: Range<u64>, device: u64, name: &'a str, var: &'a str, loc: Loc },
    /// A present or present_or_ clause (or an implicit mapping) found `host` present already
    /// at `device` (§2.6.5.6–§2.6.5.11): no allocation, no transfer.
    Present { host: Range<u64>, device: u64, name: &'a str, var: &'a str, loc: Loc },
    /// The device copy of `host` (at `device`) was released (end of its lifetime), after its
    /// copy-out if it had one: 1 µs of model time.
    Released { host: Range<u64>, device: u64, name: &'a str, var: &'a str, loc: Loc },
    /// `len` bytes were copied host → device (`copyin`, `update device`,
    /// `acc_memcpy_to_device`). `var`: the variable of the clause; `None` for the runtime routine
    /// `acc_memcpy_to_device`, which the timeline does not show and the model clock does not time.
    Upload { device: u64, host: u64, len: u64, var: Option<&'a str>, loc: Loc },
    /// `len` bytes were copied device → host (`copyout`, `update host`, `acc_memcpy_from_device`);
    /// `var` as for [`Event::Upload`].
    Download { host: u64, device: u64, len: u64, var: Option<&'a str>, loc: Loc },
    /// The runtime wrote a device pointer into device memory (attaching a row, §2.6).
    PointerAttached { device: u64, loc: Loc },
    /// A kernel starts (`on_host`: it runs on the host with host data, `if(false)`).
    LaunchBegin { fid: u32, gangs: u64, workers: u64, vector: u64, loc: Loc, on_host: bool },
    /// The schedule of a loop of the kernel just begun (§2.7.2–§2.7.4: gang, worker, vector
    /// partitioning; `seq` when each thread runs the loop whole), one event per loop of the
    /// kernel, after [`Event::LaunchBegin`].
    LoopSchedule(&'a LoopSchedule),
    /// The kernel started by the last [`Event::LaunchBegin`] finished (or trapped).
    LaunchEnd { loc: Loc },
    /// The kernel finished without a trap, after `steps` interpreter steps (its model time).
    Launched { kernel: &'a str, gangs: u64, workers: u64, vector_length: u64, steps: u64, loc: Loc },
    /// The host waited for queue `queue` (all queues when `None`), or found it idle: the host is
    /// ordered after that queue's work (§2.14.1, §3.2.11).
    Waited { queue: Option<i64>, loc: Loc },
    /// A `wait` directive (§2.14.1) finished waiting for `queue` (all queues when `None`).
    WaitDirective { queue: Option<i64>, loc: Loc },
    /// Work issued from now on to queue `waiter` waits for the work issued so far to queue `on`
    /// (every other queue when `None`); the host does not wait (`acc_wait_async`,
    /// `acc_wait_all_async`, `wait(…) async(…)`: §3.2.9, §3.2.11, §2.13.3).
    QueueJoined { waiter: i64, on: Option<i64>, loc: Loc },
    /// The running device thread changed (§1.2; checking executables only, to subscribers of
    /// device events).
    Thread(ThreadEvent),
    /// A memory access of the program (checking executables only, to subscribers of device
    /// events).
    Access(Access),
    /// The runtime made a gang's own copy (at `copy`) of `var` for a `private`, `firstprivate`
    /// or `reduction` clause of a compute construct (§2.5.9–§2.5.11), so that findings about
    /// the copy name the variable (to subscribers of device events).
    GangCopy { copy: u64, var: &'a str, clause: &'static str, loc: Loc },
    /// A finding about the program made while it runs (a `portability` note: what accsim did
    /// where compilers differ).
    Finding(&'a Diagnostic),
}

impl Event<'_> {
    /// The source location of the event (the directive, call or access that caused it).
    pub fn loc(&self) -> Loc {
        match self {
            Event::Created { loc, .. }
            | Event::Present { loc, .. }
            | Event::Released { loc, .. }
            | Event::Upload { loc, .. }
            | Event::Download { loc, .. }
            | Event::PointerAttached { loc, .. }
            | Event::LaunchBegin { loc, .. }
            | Event::LaunchEnd { loc }
            | Event::LoopSchedule(LoopSchedule { loc, .. })
            | Event::Launched { loc, .. }
            | Event::Waited { loc, .. }
            | Event::WaitDirective { loc, .. }
            | Event::QueueJoined { loc, .. }
            | Event::GangCopy { loc, .. } => *loc,
            Event::Access(a) => a.loc,
            Event::Finding(d) => d.primary.unwrap_or_default(),
            Event::Thread(_) => Loc::default(),
        }
    }

    /// A device-thread event or an access (delivered only to [`Subscriber::device_events`]).
    pub fn is_device_event(&self) -> bool {
        matches!(self, Event::Thread(_) | Event::Access(_) | Event::GangCopy { .. })
    }
}

/// How a loop of a kernel is executed (what the scheduler chose, `accsim info` shows it too).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopSchedule {
    pub loc: Loc,
    pub gang: bool,
    pub worker: bool,
    pub vector: bool,
    /// Loops collapsed into this one (`collapse(n)`, 1 without the clause).
    pub collapse: u32,
    /// The loop runs sequentially in each thread (`seq`, or no parallelism proven).
    pub seq: bool,
}

impl LoopSchedule {
    pub fn of(l: &crate::ir::acc::LoopInfo) -> LoopSchedule {
        LoopSchedule { loc: l.loc, gang: l.gang, worker: l.worker, vector: l.vector, collapse: l.collapse, seq: l.seq_reason.is_some() }
    }
}

/// When and where an event happened.
#[derive(Clone, Copy, Debug)]
pub struct Stamp<'a> {
    /// The function the host (or device thread) was running.
    pub function: &'a str,
    /// The activity queue (`async(n)`), `None` for synchronous work.
    pub queue: Option<i64>,
    /// Model time the event started (ns) and how long it took.
    pub start_ns: u64,
    pub dur_ns: u64,
}

/// Receives the events of a run (see the module documentation).
pub trait Subscriber: Send {
    /// One event, with the memory the program runs on (read-only).
    fn event(&mut self, mem: &Memory, at: &Stamp<'_>, e: &Event<'_>);

    /// Whether this subscriber wants [`Event::Access`] and [`Event::Thread`] (asked once, when
    /// the run starts). A run with such a subscriber runs device code on the sequential device
    /// and without vectorised loops, so that every access is seen. Default: `false`.
    fn device_events(&self) -> bool {
        false
    }

    /// Whether the subscriber takes footprints ([`Subscriber::proven_launch`]): when none does,
    /// kernels are not even evaluated for a proof. Default: `false`.
    fn wants_proofs(&self) -> bool {
        false
    }

    /// The kernel just begun ([`Event::LaunchBegin`]) was proven race-free at this launch, and
    /// `fp` lists what it reads and writes (`crate::kernel::footprint`). A subscriber that can
    /// take the footprint for the accesses — it would find nothing in them, and it records what
    /// they would have recorded — answers `true`; when every subscriber that wants device events
    /// does, the kernel runs without reporting its accesses or thread events. Default: `false`.
    fn proven_launch(&mut self, _mem: &Memory, _fp: &crate::kernel::footprint::Footprint) -> bool {
        false
    }

    /// The kernel whose footprint this subscriber took ran, and its atomic counter updates
    /// (the footprint's `atomics`) wrote these bytes, each last by the gang given, at the site
    /// given ([`super::device::launch_recording_atomics`]). Default: nothing.
    fn proven_atomic_writes(&mut self, _mem: &Memory, _writes: &[AtomicWrite]) {}
}

/// The subscribers of a run, and whether any of them wants device events.
#[derive(Default)]
pub struct Subscribers {
    list: Vec<Box<dyn Subscriber>>,
    /// For each subscriber, its [`Subscriber::device_events`] (asked once).
    wants_device: Vec<bool>,
    device: bool,
}

impl Subscribers {
    pub fn new(list: Vec<Box<dyn Subscriber>>) -> Subscribers {
        let wants_device: Vec<bool> = list.iter().map(|s| s.device_events()).collect();
        let device = wants_device.contains(&true);
        Subscribers { list, wants_device, device }
    }

    /// Nobody listens: events need not be built.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Some subscriber wants accesses and device-thread events.
    #[inline]
    pub fn wants_device_events(&self) -> bool {
        self.device
    }

    /// Deliver `e` (device events only to the subscribers that asked for them).
    #[inline]
    pub fn deliver(&mut self, mem: &Memory, at: &Stamp<'_>, e: &Event<'_>) {
        let device = e.is_device_event();
        for (s, &wants) in self.list.iter_mut().zip(&self.wants_device) {
            if wants || !device {
                s.event(mem, at, e);
            }
        }
    }

    /// Whether some subscriber takes footprints.
    pub fn wants_proofs(&self) -> bool {
        self.list.iter().zip(&self.wants_device).any(|(s, &wants)| wants && s.wants_proofs())
    }

    /// Offer the footprint of a proven kernel to the subscribers of device events: true when
    /// every one of them took it (the kernel may then run unobserved).
    pub fn proven_launch(&mut self, mem: &Memory, fp: &crate::kernel::footprint::Footprint) -> bool {
        let mut taken = self.device;
        for (s, _) in self.list.iter_mut().zip(&self.wants_device).filter(|(_, &wants)| wants) {
            taken &= s.proven_launch(mem, fp);
        }
        taken
    }

    /// Tell the subscribers of device events what a proven kernel's atomic counter updates wrote
    /// ([`Subscriber::proven_atomic_writes`]).
    pub fn proven_atomic_writes(&mut self, mem: &Memory, writes: &[AtomicWrite]) {
        for (s, _) in self.list.iter_mut().zip(&self.wants_device).filter(|(_, &wants)| wants) {
            s.proven_atomic_writes(mem, writes);
        }
    }

    /// Stop (`false`) or resume delivering device events (a kernel that runs on its footprint).
    pub fn set_device_events(&mut self, on: bool) {
        self.device = on && self.wants_device.contains(&true);
    }
}

/// The timeline's kinds of [`Record`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordKind {
    Alloc { bytes: u64, var: String },
    Free { bytes: u64, var: String },
    Upload { bytes: u64, var: String },
    Download { bytes: u64, var: String },
    Launch { kernel: String, gangs: u64, workers: u64, vector_length: u64, steps: u64 },
    Wait { queue: Option<i64> },
}

/// One entry of the timeline: what, where (the directive or call that caused it), when (model
/// ns), how long. An owned copy of an [`Event`] that `--notify`, `--time` and `--trace` show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub kind: RecordKind,
    pub loc: Loc,
    /// The function the host was running.
    pub function: String,
    /// The activity queue (`async(n)`), `None` for synchronous work.
    pub queue: Option<i64>,
    pub start_ns: u64,
    pub dur_ns: u64,
}

impl Record {
    /// The timeline's record of an event, for those the timeline shows.
    pub fn of(at: &Stamp<'_>, e: &Event<'_>) -> Option<Record> {
        let kind = match *e {
            Event::Created { ref host, name, .. } => RecordKind::Alloc { bytes: host.end - host.start, var: name.to_string() },
            Event::Released { ref host, name, .. } => RecordKind::Free { bytes: host.end - host.start, var: name.to_string() },
            Event::Upload { len, var: Some(var), .. } => RecordKind::Upload { bytes: len, var: var.to_string() },
            Event::Download { len, var: Some(var), .. } => RecordKind::Download { bytes: len, var: var.to_string() },
            Event::Launched { kernel, gangs, workers, vector_length, steps, .. } => {
                RecordKind::Launch { kernel: kernel.to_string(), gangs, workers, vector_length, steps }
            }
            Event::WaitDirective { queue, .. } => RecordKind::Wait { queue },
            // The host's wait for Cray's implicit queue before a synchronous data operation
            // (dialect::cray): no directive says it, so the timeline shows where it happens.
            Event::Waited { queue: Some(AUTO_ASYNC_QUEUE), loc } if loc.line != 0 => RecordKind::Wait { queue: Some(AUTO_ASYNC_QUEUE) },
            _ => return None,
        };
        Some(Record { kind, loc: e.loc(), function: at.function.to_string(), queue: at.queue, start_ns: at.start_ns, dur_ns: at.dur_ns })
    }
}

/// The subscriber of `--notify`, `--time`, `--trace` and the GUI's queue panel: hands each
/// [`Record`] of the timeline to a function as it happens.
pub struct Timeline<F: FnMut(&Record) + Send>(pub F);

impl<F: FnMut(&Record) + Send> Subscriber for Timeline<F> {
    fn event(&mut self, _mem: &Memory, at: &Stamp<'_>, e: &Event<'_>) {
        if let Some(r) = Record::of(at, e) {
            (self.0)(&r);
        }
    }
}

/// The model time an event takes, and whether it advances the clock (a launch's steps were
/// counted as the kernel ran).
pub fn model_time(e: &Event<'_>) -> (u64, bool) {
    match *e {
        Event::Created { .. } | Event::Released { .. } => (1000, true),
        Event::Upload { len, var: Some(_), .. } | Event::Download { len, var: Some(_), .. } => (transfer_ns(len), true),
        Event::Launched { steps, .. } => (steps, false),
        _ => (0, false),
    }
}

/// Cost of a transfer on the model clock.
pub fn transfer_ns(bytes: u64) -> u64 {
    1000 + bytes / 10
}

/// The NV_ACC_NOTIFY-style line of an event.
pub fn notify_line(e: &Record, map: &SourceMap) -> String {
    let file = map.name(e.loc.file);
    let at = format!("file={file} function={} line={} device=0", e.function, e.loc.line);
    let q = e.queue.map(|q| format!(" queue={}", queue_name(q))).unwrap_or_default();
    match &e.kind {
        RecordKind::Alloc { bytes, var } => format!("alloc device data {at}{q} variable={var} bytes={bytes}"),
        RecordKind::Free { bytes, var } => format!("free device data {at}{q} variable={var} bytes={bytes}"),
        RecordKind::Upload { bytes, var } => format!("upload data {at}{q} variable={var} bytes={bytes}"),
        RecordKind::Download { bytes, var } => format!("download data {at}{q} variable={var} bytes={bytes}"),
        RecordKind::Launch { kernel, gangs, workers, vector_length, .. } => {
            format!("launch kernel {at}{q} kernel={kernel} num_gangs={gangs} num_workers={workers} vector_length={vector_length}")
        }
        RecordKind::Wait { queue } => match queue {
            Some(n) => format!("wait {at} queue={}", queue_name(*n)),
            None => format!("wait {at} all queues"),
        },
    }
}

/// The NV_ACC_TIME-style summary: per function, per source line, how often each construct was
/// reached, kernels launched, bytes moved, and model time.
pub fn time_summary(events: &[Record], map: &SourceMap) -> String {
    #[derive(Default)]
    struct Line {
        launches: u64,
        steps: u64,
        uploads: u64,
        up_bytes: u64,
        downloads: u64,
        down_bytes: u64,
        allocs: u64,
        time_ns: u64,
        config: Option<(u64, u64, u64)>,
    }
    let mut by_fn: BTreeMap<(String, String), BTreeMap<u32, Line>> = BTreeMap::new();
    for e in events {
        let file = map.name(e.loc.file).to_string();
        let l = by_fn.entry((file, e.function.clone())).or_default().entry(e.loc.line).or_default();
        l.time_ns += e.dur_ns;
        match &e.kind {
            RecordKind::Launch { gangs, workers, vector_length, steps, .. } => {
                l.launches += 1;
                l.steps += steps;
                l.config = Some((*gangs, *workers, *vector_length));
            }
            RecordKind::Upload { bytes, .. } => {
                l.uploads += 1;
                l.up_bytes += bytes;
            }
            RecordKind::Download { bytes, .. } => {
                l.downloads += 1;
                l.down_bytes += bytes;
            }
            RecordKind::Alloc { .. } => l.allocs += 1,
            _ => {}
        }
    }
    let mut out = String::from("Accelerator timing (accsim model clock: 1 interpreter step = 1 ns)\n");
    for ((file, func), lines) in &by_fn {
        let total: u64 = lines.values().map(|l| l.time_ns).sum();
        let _ = writeln!(out, "{file}\n  {func}  simulated device 0\n    time(us): {}", total / 1000);
        for (line, l) in lines {
            if l.launches > 0 {
                let (g, w, v) = l.config.unwrap_or((0, 0, 0));
                let _ = writeln!(
                    out,
                    "    {line}: kernel launched {} time{}\n        num_gangs: {g}  num_workers: {w}  vector_length: {v}\n        simulated work: {} steps  time(us): {}",
                    l.launches,
                    if l.launches == 1 { "" } else { "s" },
                    l.steps,
                    l.time_ns / 1000
                );
            }
            if l.uploads + l.downloads + l.allocs > 0 {
                let _ = writeln!(
                    out,
                    "    {line}: data region: allocations {}, copyin transfers {} ({} bytes), copyout transfers {} ({} bytes)",
                    l.allocs, l.uploads, l.up_bytes, l.downloads, l.down_bytes
                );
            }
        }
    }
    out
}
