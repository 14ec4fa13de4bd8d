//! The `Device` seam: what the engine asks of an accelerator.
//!
//! Host code always runs in the interpreter; the data environment (present table, counts,
//! lifetimes, §2.6) and the activity-queue scheduler stay in [`super::openacc`]. A device only
//! allocates and frees its memory, moves bytes between the memories, and runs compute regions
//! (kernels) with their gang/worker/vector configuration and bound arguments (DESIGN.md, "The
//! `Device` trait").
//!
//! A device method gets a [`DeviceCtx`]: exactly what a device may use of the engine (the
//! memories, the present table's translations, the activity queue of the operation, and for the
//! modeled accelerator the gang runner and whether something observes every step), never the
//! interpreter itself.
//!
//! Device memory is always named by pointer words of the engine's allocation table
//! ([`Space::Device`] allocations), so the present table, pointer translation and messages work
//! the same on every device; a real GPU keeps its own buffers beside them and translates.
//!
//! Implementations:
//! - [`SequentialDevice`] (here): the modeled accelerator with its gangs run one after another on
//!   the interpreter thread. Used when something observes every step (the GUI, the checkers).
//! - `SimDevice` (simulator crate): the same model with the gangs of a kernel run in parallel on
//!   rayon, through [`launch_gangs`] and [`DeviceCtx::device_fork`].
//! - `CudaDevice` (cuda-backend crate): CUDA C kernels on an NVIDIA GPU.

use std::ops::Range;
use std::sync::Arc;

use crate::diag::Loc;

use super::machine::{Machine, Trap};

pub use super::machine::{Device, DeviceCtx, DeviceHandle, KernelLaunch};
use super::memory::{AllocId, AllocKind, Space};
use super::gang::{self, CaptureArg, GangCopy};

/// What `acc_malloc` blocks are called (messages, `acc_free`'s check that it frees one, and the
/// `what` of [`Device::alloc`] for them: a device whose memory is its own may give such a block
/// host-visible bytes, since host code that stores into it (a bug `check` reports, §3.2.15)
/// runs on as it does on the simulator).
pub const ACC_MALLOC_BLOCK: &str = "acc_malloc block";

/// The device of a run that names none: the modeled accelerator.
impl Default for DeviceHandle {
    fn default() -> Self {
        DeviceHandle(Arc::new(SequentialDevice))
    }
}

/// The modeled accelerator, gangs one after another on the interpreter thread.
#[derive(Debug, Default, Clone, Copy)]
pub struct SequentialDevice;

impl Device for SequentialDevice {
    fn name(&self) -> &'static str {
        "simulated"
    }

    fn launch(&self, cx: &mut DeviceCtx<'_, '_>, k: &KernelLaunch<'_>) -> Result<(), Trap> {
        if k.on_host {
            // `if(false)` and the host device: the region runs on the host, with host data.
            return launch_gangs(cx, k, |cx, k, args| args.iter().try_for_each(|a| cx.m.call_kernel(k.fid, a, k.loc)));
        }
        launch_gangs(cx, k, |cx, k, args| {
            // One device thread for all gangs, on this thread; it takes the observer along so
            // that a stepping GUI or a checker sees every device step.
            let m = &mut *cx.m;
            let mut fork = m.device_fork();
            // The gangs run one after another on this thread, the host waiting: alone.
            fork.machine.alone = true;
            fork.machine.observer = m.observer.take();
            fork.machine.events = std::mem::take(&mut m.events);
            fork.machine.memory_model = m.memory_model.take();
            let order = gang_order(m.acc.config.gang_order, k, args.len());
            let ran = crate::phase::run_parts::timed(crate::phase::run_parts::RunPart::Gangs, || order.iter().try_for_each(|&g| fork.machine.call_kernel(k.fid, &args[g], k.loc)));
            super::check::thread_event(&mut fork.machine, super::check::ThreadEvent::GangsDone);
            m.observer = fork.machine.observer.take();
            m.events = std::mem::take(&mut fork.machine.events);
            m.memory_model = fork.machine.memory_model.take();
            let joined = m.join_device_forks(vec![fork], k.loc);
            ran.and(joined)
        })
    }
}

/// The order in which the sequential device runs the `n` gangs of launch `k`: 0..n, or with
/// `seed` (`DeviceConfig::gang_order`, set by `accsim explore`) a permutation drawn from the seed
/// and the kernel (Fisher–Yates on a splitmix64 stream): deterministic for a seed, different
/// between seeds. Any order is an execution the model allows: gangs are unordered (§1.2).
pub(crate) fn gang_order(seed: Option<u64>, k: &KernelLaunch<'_>, n: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    let Some(seed) = seed else { return order };
    let mut x = seed ^ ((k.fid as u64) << 32) ^ ((k.loc.line as u64) << 12) ^ k.loc.col as u64;
    let mut next = || {
        x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    for i in (1..n).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

/// The arguments of one gang's call of the kernel function.
pub type GangArgs = Vec<u64>;

/// Gangs whose private copies and arguments exist at one time: a launch of more gangs runs
/// them batch after batch (gangs never synchronise, §1.2, so one batch after another is one of
/// the schedules the specification allows), and its bookkeeping does not grow with
/// `num_gangs` (issue 14: `num_gangs(1<<30)` allocated 24 GiB up front).
pub const GANG_BATCH: u64 = 1 << 16;

/// Bytes of bookkeeping one gang's arguments take besides its private copies (the argument
/// vector and its partials), counted against `--max-memory` with them.
fn gang_bookkeeping(k: &KernelLaunch<'_>) -> u64 {
    (4 + k.caps.len() as u64) * 8 + 2 * std::mem::size_of::<Vec<u64>>() as u64
}

/// Run a kernel on the modeled accelerator: give each gang its private copies (private,
/// firstprivate, reduction: §2.5.9–§2.5.11, §2.7.10–§2.7.11), let `run` execute the gangs (in
/// any order, on any threads: gangs never synchronise with each other), then combine the
/// reduction partials into their variables gang by gang, in gang order, and free the copies.
/// The gangs are made and run in batches of [`GANG_BATCH`], in gang order; each batch's
/// bookkeeping is counted against `--max-memory` before it is allocated.
pub fn launch_gangs(
    cx: &mut DeviceCtx<'_, '_>,
    k: &KernelLaunch<'_>,
    mut run: impl FnMut(&mut DeviceCtx<'_, '_>, &KernelLaunch<'_>, &[GangArgs]) -> Result<(), Trap>,
) -> Result<(), Trap> {
    // Combine reductions into the variables — their device copy when they are mapped (a
    // `copy(sum)` clause), else the host variable.
    let targets: Vec<u64> = {
        let m = &*cx.m;
        k.caps.iter().map(|c| if k.on_host { c.host } else { m.acc.translate(c.host).unwrap_or(c.host) }).collect()
    };
    let mut first = 0;
    while first < k.gangs {
        let batch = first..k.gangs.min(first.saturating_add(GANG_BATCH));
        let bookkeeping = (batch.end - batch.start).saturating_mul(gang_bookkeeping(k));
        if bookkeeping > cx.m.mem.headroom() {
            return Err(cx.m.memory_limit(format!("a launch of {} gangs needs {bookkeeping} bytes for its gangs' arguments", k.gangs), k.loc));
        }
        first = batch.end;
        launch_batch(cx, k, batch, &targets, &mut run)?;
    }
    Ok(())
}

/// Make the private copies and arguments of gangs `batch`, run them, combine their reductions
/// gang by gang and free their copies.
fn launch_batch(
    cx: &mut DeviceCtx<'_, '_>,
    k: &KernelLaunch<'_>,
    batch: Range<u64>,
    targets: &[u64],
    run: &mut impl FnMut(&mut DeviceCtx<'_, '_>, &KernelLaunch<'_>, &[GangArgs]) -> Result<(), Trap>,
) -> Result<(), Trap> {
    let loc = k.loc;
    let space = if k.on_host { Space::Host } else { Space::Device };
    let count = (batch.end - batch.start) as usize;
    let mut args = Vec::with_capacity(count);
    let mut partials: Vec<Vec<u64>> = Vec::with_capacity(count);
    let mut made = Ok(());
    for g in batch {
        let mut a = vec![g, k.gangs, k.workers, k.vector];
        let mut mine = Vec::new();
        for (c, &s) in k.caps.iter().zip(k.shared) {
            let v = match GangCopy::of(c, k.on_host) {
                GangCopy::Shared => s,
                _ => match private_copy(cx.m, c, space, k.on_host, &mut mine, loc) {
                    Ok(p) => {
                        mine.push(p);
                        p
                    }
                    Err(e) => {
                        made = Err(e);
                        break;
                    }
                },
            };
            a.push(v);
        }
        partials.push(mine);
        if made.is_err() {
            break;
        }
        args.push(a);
    }
    let ran = made.and_then(|()| run(cx, k, &args));
    let m = &mut *cx.m;
    let mut combined = Ok(());
    for mine in partials {
        let mut it = mine.into_iter();
        for (c, &target) in k.caps.iter().zip(targets) {
            let copy = GangCopy::of(c, k.on_host);
            if copy == GangCopy::Shared {
                continue;
            }
            if matches!(copy, GangCopy::Section { .. }) {
                if let Some(block) = it.next() {
                    m.mem.release(AllocId((block >> 32) as u32), loc);
                }
            }
            let Some(p) = it.next() else { break };
            if let (GangCopy::Reduction(op, ty), true, Ok(())) = (copy, ran.is_ok(), &combined) {
                combined = gang::combine_into(&mut m.mem, target, p, ty, op).map_err(|f| m.fault(f, loc));
            }
            m.mem.release(AllocId((p >> 32) as u32), loc);
        }
    }
    ran.and(combined)
}

/// Tell the checkers that the gang copy at `copy` is `c`'s variable (findings about the copy
/// name it, §2.5.10, §2.5.11).
fn copy_made(m: &mut Machine, copy: u64, c: &CaptureArg, clause: &'static str, loc: Loc) {
    if m.events.wants_device_events() {
        super::check::deliver_now(m, &super::events::Event::GangCopy { copy, var: &c.name, clause, loc });
    }
}

/// A gang's own copy of capture `c` ([`GangCopy`]): for a private/firstprivate subarray
/// (`private(p[0:n])`) the copied block is pushed on `mine` first and the returned pointer
/// variable aims into it.
fn private_copy(m: &mut Machine, c: &CaptureArg, space: Space, on_host: bool, mine: &mut Vec<u64>, loc: Loc) -> Result<u64, Trap> {
    let copy = GangCopy::of(c, on_host);
    // The kind names the clause: the checker tells a reduction copy, which the gang's threads
    // combine into (§2.5.11), from a private or firstprivate one, which they share (§2.5.10).
    let kind = if matches!(copy, GangCopy::Reduction(..)) { "gang-private reduction copy" } else { "gang-private copy" };
    let p = m.mem.alloc(c.size.max(1), AllocKind::Runtime(kind), space, loc).map_err(|f| m.fault(f, loc))?;
    let clause = match copy {
        GangCopy::Reduction(..) => "reduction",
        GangCopy::FirstPrivate { .. } | GangCopy::Section { copy: true, .. } => "firstprivate",
        _ => "private",
    };
    copy_made(m, p, c, clause, loc);
    let fault = |m: &Machine, f| m.fault(f, loc);
    match copy {
        GangCopy::Section { host: Range { start, end }, copy } => {
            let len = end - start;
            let block = m.mem.alloc(len.max(1), AllocKind::Runtime("gang-private subarray"), space, loc).map_err(|f| fault(m, f))?;
            copy_made(m, block, c, clause, loc);
            if copy {
                m.mem.copy(block, start, len).map_err(|f| fault(m, f))?;
            }
            let hv = m.mem.load_u64(c.host).map_err(|f| fault(m, f))?;
            m.mem.store_u64(p, block.wrapping_add(hv.wrapping_sub(start))).map_err(|f| fault(m, f))?;
            mine.push(block);
        }
        GangCopy::FirstPrivate { translate_pointer } => {
            m.mem.copy(p, c.host, c.size).map_err(|f| fault(m, f))?;
            if translate_pointer {
                let hv = m.mem.load_u64(p).map_err(|f| fault(m, f))?;
                if let Some(d) = m.acc.translate_pointer(hv) {
                    m.mem.store_u64(p, d).map_err(|f| fault(m, f))?;
                }
            }
        }
        GangCopy::Reduction(op, ty) => gang::write_identity(&mut m.mem, p, ty, op).map_err(|f| fault(m, f))?,
        GangCopy::Private | GangCopy::Shared => {}
    }
    Ok(p)
}


pub use super::events::AtomicWrite;

/// Run a kernel proven race-free whose footprint has atomic targets
/// (`kernel::footprint::atomics`): its fast-share variant, its gangs one after another on one
/// device thread in the sequential device's order, each target block compared before and after
/// each gang. The elements that changed while a gang ran are the ones it updated (the plan makes
/// sure of it); the last gang that changed an element is the one a checked run would name.
pub fn launch_recording_atomics(cx: &mut DeviceCtx<'_, '_>, k: &KernelLaunch<'_>, targets: &[crate::kernel::footprint::AtomicTarget]) -> Result<Vec<AtomicWrite>, Trap> {
    let fast = KernelLaunch { fid: cx.fast_kernel(k.fid), ..*k };
    let elements = |t: &crate::kernel::footprint::AtomicTarget| ((t.block.end - t.block.start).saturating_sub(t.align) / t.size.max(1)) as usize;
    let mut last: Vec<Vec<u32>> = targets.iter().map(|t| vec![u32::MAX; elements(t)]).collect();
    let snapshot = |mem: &super::memory::Memory, t: &crate::kernel::footprint::AtomicTarget| -> Vec<u8> {
        mem.read_bytes(t.block.start, t.block.end - t.block.start).map(|b| b.into_owned()).unwrap_or_default()
    };
    launch_gangs(cx, &fast, |cx, k, args| {
        let m = &mut *cx.m;
        let mut fork = m.device_fork();
        // One gang after another on this thread: alone (see `Machine::alone`).
        fork.machine.alone = true;
        let order = gang_order(m.acc.config.gang_order, k, args.len());
        let mut ran = Ok(());
        for &g in &order {
            let before: Vec<Vec<u8>> = targets.iter().map(|t| snapshot(&fork.machine.mem, t)).collect();
            if let Err(e) = fork.machine.call_kernel(k.fid, &args[g], k.loc) {
                ran = Err(e);
                break;
            }
            let gang = args[g].first().copied().unwrap_or(0) as u32;
            for ((t, was), last) in targets.iter().zip(&before).zip(&mut last) {
                let now = snapshot(&fork.machine.mem, t);
                let (size, align) = (t.size as usize, t.align as usize);
                for (e, slot) in last.iter_mut().enumerate() {
                    let at = align + e * size;
                    if was.get(at..at + size) != now.get(at..at + size) {
                        *slot = gang;
                    }
                }
            }
        }
        let joined = m.join_device_forks(vec![fork], k.loc);
        ran.and(joined)
    })?;
    let mut written: Vec<AtomicWrite> = Vec::new();
    for (t, last) in targets.iter().zip(&last) {
        for (e, &gang) in last.iter().enumerate().filter(|(_, &g)| g != u32::MAX) {
            let start = t.block.start + t.align + e as u64 * t.size;
            match written.last_mut() {
                Some((r, g, loc)) if *g == gang && *loc == t.loc && r.end == start => r.end = start + t.size,
                _ => written.push((start..start + t.size, gang, t.loc)),
            }
        }
    }
    Ok(written)
}
