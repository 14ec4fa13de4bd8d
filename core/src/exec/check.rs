//! The checking seam: what a program does, as the checkers of `accsim check` need to see it.
//!
//! An executable compiled for checking ([`super::compile_for_checking`]) calls the run's
//! [`Checker`] at every memory access of the program (loads, stores, read-modify-writes, record
//! copies), with the address, the size, whether it writes, whether it is inside an `atomic`
//! construct, and the source location; at the structure of the execution model (a gang starts,
//! a worker or vector partitioned loop starts, an iteration of it — a thread — starts, the loop
//! ends and its threads rejoin, §1.2); and at the data-environment operations of the runtime
//! (device copies created and released, transfers, kernel launches, waits, §2.6, §2.13–§2.14).
//!
//! **Cost.** Nothing for `accsim run`: the ordinary executable has no hook, and the runtime's
//! calls here test one `Option`. The checkers themselves live in the simulator crate.
//!
//! **Threads.** Device code runs one gang at a time on the interpreter thread when checking
//! ([`super::device::SequentialDevice`], which moves the checker into the device fork as it
//! does the observer); the worker and lane of an access are the current iterations of the
//! enclosing worker and vector partition loops of the kernel (`__worker`, `__lane` in the IR),
//! reported through [`ThreadEvent`]. Accesses made by C library shims (`memcpy`, `printf`'s
//! reads of strings) are not reported.

use std::ops::Range;

use crate::diag::Loc;

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

/// A data-environment or device operation of the OpenACC runtime. Host addresses are
/// [`Space::Host`](super::memory::Space) pointer words, device addresses device ones.
#[derive(Clone, Debug)]
pub enum DataEvent<'a> {
    /// A device copy of `host` was created at `device` (for `name`, by the clause at `loc`).
    Created { host: Range<u64>, device: u64, name: &'a str, loc: Loc },
    /// The device copy of `host` (at `device`) was released (end of its lifetime), after its
    /// copy-out if it had one.
    Released { host: Range<u64>, device: u64, name: &'a str, loc: Loc },
    /// `len` bytes were copied host → device (`copyin`, `update device`, `acc_memcpy_to_device`).
    Upload { device: u64, host: u64, len: u64, loc: Loc },
    /// `len` bytes were copied device → host (`copyout`, `update host`).
    Download { host: u64, device: u64, len: u64, loc: Loc },
    /// The runtime wrote a device pointer into device memory (attaching a row, §2.6).
    PointerAttached { device: u64, loc: Loc },
    /// A kernel starts (`on_host`: it runs on the host with host data, `if(false)`).
    LaunchBegin { fid: u32, gangs: u64, workers: u64, vector: u64, loc: Loc, on_host: bool },
    /// The kernel started by the last [`DataEvent::LaunchBegin`] finished.
    LaunchEnd { loc: Loc },
    /// The host waited for queue `queue` (all queues when `None`), or found it idle.
    Waited { queue: Option<i64>, loc: Loc },
    /// Work issued from now on to queue `waiter` waits for the work issued so far to queue `on`
    /// (every other queue when `None`); the host does not wait (`acc_wait_async`,
    /// `acc_wait_all_async`, `wait(…) async(…)`: §3.2.9, §3.2.11, §2.13.3).
    QueueJoined { waiter: i64, on: Option<i64>, loc: Loc },
}

/// Receives what a checking run does. `queue` in [`Checker::data`] is the activity queue the
/// operation belongs to (`async`), `None` for synchronous work.
pub trait Checker: Send {
    fn access(&mut self, mem: &Memory, a: &Access);
    fn thread(&mut self, e: ThreadEvent);
    fn data(&mut self, mem: &Memory, queue: Option<i64>, e: &DataEvent<'_>);

    /// Called before an access is made, with the memory it will use: a memory model (the
    /// weak-coherence store buffers of `accsim run --coherence weak`, §1.3) may change what the
    /// access sees. A read-modify-write calls it once, with `write` set. Default: nothing.
    fn before_access(&mut self, _mem: &mut Memory, _a: &Access) {}

    /// Called at every [`ThreadEvent`] with the memory the device code runs on, before
    /// [`Checker::thread`]: a memory model switches between the threads' views here. Default:
    /// nothing.
    fn thread_memory(&mut self, _mem: &mut Memory, _e: ThreadEvent) {}

    /// A note about the program found while it runs (a `portability` note: what accsim did
    /// where compilers differ), reported with the findings. Default: dropped.
    fn note(&mut self, _d: crate::diag::Diagnostic) {}

    /// Whether the checker takes footprints ([`Checker::proven_launch`]): when it does not,
    /// kernels are not even evaluated for a proof. Default: `false`.
    fn wants_proofs(&self) -> bool {
        false
    }

    /// The kernel just begun ([`DataEvent::LaunchBegin`]) was proven race-free at this launch,
    /// and `fp` lists what it reads and writes (`crate::kernel::footprint`). A checker that can
    /// take the footprint for the accesses — it would find nothing in them, and it records what
    /// they would have recorded — answers `true`, and the kernel then runs without reporting its
    /// accesses or thread events. Default: `false` (every access is reported).
    fn proven_launch(&mut self, _mem: &Memory, _fp: &crate::kernel::footprint::Footprint) -> bool {
        false
    }

    /// Whether [`Checker::before_access`] and [`Checker::thread_memory`] do anything (a memory
    /// model). Asked once, when the run starts: a checker that answers `false` (the default)
    /// costs one call per access and per thread event instead of two.
    fn memory_model(&self) -> bool {
        false
    }
}

/// Report a data event to the run's checker, if it has one.
#[inline]
pub fn data_event(m: &mut super::Machine<'_>, e: DataEvent<'_>) {
    if let Some(c) = m.checker.as_deref_mut() {
        c.data(&m.mem, m.acc.queue, &e);
    }
}

/// Report a memory access to the run's checker, if it has one.
#[inline]
pub fn access(m: &mut super::Machine<'_>, addr: u64, size: u64, write: bool, atomic: bool, loc: Loc) {
    if let Some(c) = m.checker.as_deref_mut() {
        c.access(&m.mem, &Access { addr, size, write, atomic, loc });
    }
}

/// Report a change of the running device thread.
#[inline]
pub fn thread_event(m: &mut super::Machine<'_>, e: ThreadEvent) {
    if let Some(c) = m.checker.as_deref_mut() {
        if m.checker_model {
            c.thread_memory(&mut m.mem, e);
        }
        c.thread(e);
    }
}

/// Tell the run's checker that an access is about to be made (see [`Checker::before_access`]).
#[inline]
pub fn before_access(m: &mut super::Machine<'_>, addr: u64, size: u64, write: bool, atomic: bool, loc: Loc) {
    if !m.checker_model {
        return;
    }
    if let Some(c) = m.checker.as_deref_mut() {
        c.before_access(&mut m.mem, &Access { addr, size, write, atomic, loc });
    }
}
