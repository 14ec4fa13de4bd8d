//! `SimDevice`: the modeled accelerator of OpenACC 2.0 (§1.2, §1.3) with the gangs of each
//! kernel run in parallel on a rayon pool and the thread that launches it.
//!
//! **Why this is sound.** Gangs never synchronise with each other inside a kernel (§1.2: "there
//! is no support for synchronization between gangs"); only atomics cross gangs, and the end of
//! the kernel orders everything before what follows. So each gang can run to completion on any
//! thread, in any order. A group of consecutive gangs runs on one device thread: a
//! [`accsim_core::exec::DeviceFork`] of the interpreter's machine, sharing the device memory
//! (relaxed-atomic words, see `accsim_core::exec::memory`) and nothing of the host memory.
//! Private copies, reduction partials and their combination are made on the interpreter thread
//! by [`launch_gangs`], in gang order, so the results of a race-free program do not depend on
//! the number of threads (simulator/tests/parallel.rs checks 1 and several).
//!
//! **What is deterministic.** Output written by device code (`printf` in a kernel) appears in gang
//! order; an error stops the kernel and the error of the lowest failing gang is reported; the
//! step count is the sum over gangs. A program with a data race may give different results from
//! run to run, as on a GPU: `accsim check` finds the race, and runs its gangs in order.
//!
//! **When gangs run on the interpreter thread instead.** When the run is observed step by step
//! (the GUI, the checkers: they see one thread at a time). `if(false)` regions and the host
//! device run on the host (§2.5.3) and never reach a device (see `openacc::run_launch`).

use accsim_core::exec::device::{launch_gangs, Device, DeviceCtx, KernelLaunch, SequentialDevice};
use accsim_core::exec::{DeviceFork, Trap};
use accsim_core::kernel::footprint::AtomicTarget;
use accsim_core::phase::run_parts::{self, RunPart};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Stack of each device thread: a C call in device code (a `routine`) is a Rust call.
pub const DEVICE_THREAD_STACK: usize = 256 << 20;

/// Groups of gangs per thread: small enough to balance uneven gangs (the threads take groups
/// one at a time from a shared counter), few enough that making them stays cheap. A fork costs
/// nothing in the number of allocations (the forks of a launch share the machine's allocation
/// table, `Memory::device_view`, each with its own frames and buffers), but the launching thread makes and joins every fork one after another, a few
/// microseconds each: with 4 groups per thread, 64 forks per launch at 16 threads were most of
/// the serial cost of a small launch (issue 15: 2,000 launches of a 100×100 stencil took 0.5 s
/// at 16 threads against 0.15 s at one). Two still leave a thread that finishes early a group
/// to take.
const GROUPS_PER_THREAD: usize = 2;

/// The most bytes of private counter tables one launch makes, over all its groups of gangs
/// (`DeviceFork::count_privately`): a histogram of 2^21 `long` bins at 16 threads (64 groups)
/// would need 1 GiB; such a launch updates the shared bins in place, where threads rarely meet.
pub const PRIVATE_COUNTS_LIMIT: u64 = 16 << 20;

/// The simulated accelerator, gangs on a rayon pool and the launching thread.
pub struct SimDevice {
    /// Threads that run gangs, the launching thread included.
    threads: usize,
    /// The other `threads - 1` (one, unused, for a device of one thread).
    pool: rayon::ThreadPool,
}

/// Rayon's default thread count: `RAYON_NUM_THREADS` when it is a positive number, else one per
/// core.
fn default_threads() -> usize {
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

impl SimDevice {
    /// A device whose gangs run on `threads` threads (default: one per core, or
    /// `RAYON_NUM_THREADS`): the thread that launches and `threads - 1` of a pool.
    pub fn new(threads: Option<usize>) -> Result<SimDevice, rayon::ThreadPoolBuildError> {
        let threads = threads.unwrap_or_else(default_threads).max(1);
        let pool = rayon::ThreadPoolBuilder::new()
            .stack_size(DEVICE_THREAD_STACK)
            .thread_name(|i| format!("accsim-device-{i}"))
            .num_threads((threads - 1).max(1))
            .build()?;
        Ok(SimDevice { threads, pool })
    }

    /// How many threads run gangs.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Run `work` on every thread of the device at once, the calling thread one of them, and
    /// return when every call has returned. `work` takes its items from a counter of its own,
    /// so which thread does which item is free; what is done is not.
    ///
    /// Why not a parallel iterator (issue 15, 16 threads): the launching thread waited asleep
    /// while the pool split the items, each half stolen by a thread that the previous one woke
    /// (a chain of wake-ups), and was woken again at the end: about 0.1 ms of every launch at
    /// 16 threads (2,000 launches of a 100×100 stencil: 0.28 s against 0.08 s at one thread).
    /// A broadcast wakes every pool thread at once, and the launching thread, awake, starts on
    /// the first items at once.
    fn on_every_thread(&self, work: &(dyn Fn() + Sync)) {
        self.pool.in_place_scope(|s| {
            s.spawn_broadcast(|_, _| work());
            work();
        });
    }

    /// Run the gangs `args` (one call each) on the device's threads, in groups of consecutive
    /// gangs, each group on one thread ([`SimDevice::on_every_thread`]).
    /// `counters`: the launch's atomic counter blocks that each group may count in tables of
    /// its own ([`DeviceFork::count_privately`]), when their tables for all groups fit in
    /// [`PRIVATE_COUNTS_LIMIT`].
    fn run_parallel(&self, cx: &mut DeviceCtx<'_, '_>, k: &KernelLaunch<'_>, args: &[Vec<u64>], counters: &[AtomicTarget]) -> Result<(), Trap> {
        let groups = (self.threads() * GROUPS_PER_THREAD).clamp(1, args.len().max(1));
        let per_group = args.len().div_ceil(groups).max(1);
        let chunks: Vec<&[Vec<u64>]> = args.chunks(per_group).collect();
        let mut forks: Vec<DeviceFork> = run_parts::timed(RunPart::Forks, || chunks.iter().map(|_| cx.device_fork()).collect());
        let table_bytes = counters.iter().map(|t| t.block.end - t.block.start).sum::<u64>().saturating_mul(forks.len() as u64);
        if !counters.is_empty() && table_bytes <= PRIVATE_COUNTS_LIMIT {
            for f in &mut forks {
                f.count_privately(counters);
            }
        }
        // Each group's fork and result; the group a thread takes is its alone (one lock each).
        let slots: Vec<Mutex<(DeviceFork, Result<(), Trap>)>> = forks.into_iter().map(|f| Mutex::new((f, Ok(())))).collect();
        let next = AtomicUsize::new(0);
        run_parts::timed(RunPart::Gangs, || {
            self.on_every_thread(&|| {
                // A pool thread's stack is the device's; the launching thread's fork keeps the
                // interpreter stack's bounds it was made with.
                let on_pool = self.pool.current_thread_index().is_some();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let (Some(gangs), Some(slot)) = (chunks.get(i), slots.get(i)) else { break };
                    let mut slot = slot.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                    let (fork, result) = &mut *slot;
                    if on_pool {
                        fork.enter_thread(DEVICE_THREAD_STACK);
                    }
                    *result = gangs.iter().try_for_each(|a| fork.call_kernel(k.fid, a, k.loc));
                }
            })
        });
        let (forks, results): (Vec<DeviceFork>, Vec<Result<(), Trap>>) = slots.into_iter().map(|s| s.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner())).unzip();
        let joined = run_parts::timed(RunPart::Forks, || cx.join_device_forks(forks, k.loc));
        // The first failing group in gang order is the lowest failing gang's error.
        results.into_iter().collect::<Result<(), Trap>>()?;
        joined
    }
}

impl SimDevice {
    /// A transfer of a data clause (§2.6): a large one in pieces on every device thread
    /// ([`SimDevice::on_every_thread`]), so that its copy
    /// and the first touch of its fresh pages take every device thread (the bytes are the same,
    /// `Memory::copy_in_pieces`).
    fn transfer(&self, cx: &mut DeviceCtx<'_, '_>, dst: u64, src: u64, len: u64, loc: accsim_core::diag::Loc) -> Result<(), Trap> {
        let mem = cx.mem_mut();
        let copied = if self.threads() > 1 {
            let on_threads = |pieces: usize, piece: &(dyn Fn(usize) + Sync)| {
                let next = AtomicUsize::new(0);
                self.on_every_thread(&|| {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= pieces {
                            break;
                        }
                        piece(i);
                    }
                });
            };
            mem.copy_in_pieces(dst, src, len, &on_threads)
        } else {
            mem.copy(dst, src, len)
        };
        copied.map_err(|f| cx.fault(f, loc))
    }
}

impl Device for SimDevice {
    fn name(&self) -> &'static str {
        "simulated"
    }

    fn upload(&self, cx: &mut DeviceCtx<'_, '_>, dev: u64, host: u64, len: u64, loc: accsim_core::diag::Loc) -> Result<(), Trap> {
        self.transfer(cx, dev, host, len, loc)
    }

    fn download(&self, cx: &mut DeviceCtx<'_, '_>, host: u64, dev: u64, len: u64, loc: accsim_core::diag::Loc) -> Result<(), Trap> {
        self.transfer(cx, host, dev, len, loc)
    }

    fn launch(&self, cx: &mut DeviceCtx<'_, '_>, k: &KernelLaunch<'_>) -> Result<(), Trap> {
        if cx.observed() {
            return SequentialDevice.launch(cx, k);
        }
        // Nothing watches the threads: the fast-share variant of the kernel (same results for a
        // race-free program, see `accsim_core::kernel::schedule`).
        let fast = KernelLaunch { fid: cx.fast_kernel(k.fid), ..*k };
        if self.threads() == 1 {
            return SequentialDevice.launch(cx, &fast);
        }
        // Atomic counters whose only accesses are their updates: counted by each group of gangs
        // in a table of its own (issue 15; the rule is `accsim_core::exec::memory`'s `counters`).
        let counters = accsim_core::exec::openacc::private_counters(cx, k);
        launch_gangs(cx, &fast, |cx, k, args| self.run_parallel(cx, k, args, &counters))
    }
}
