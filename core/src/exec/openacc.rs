//! The OpenACC runtime inside the interpreter: the data environment (§2.6) on top of the present
//! table, kernel launches on the simulated device, `update`, `enter/exit data`, `host_data`, and
//! the runtime library of chapter 3.
//!
//! **Device memory.** The simulated device's memory is a separate address space: allocations of
//! [`Space::Device`] in the same allocation table. A device copy *mirrors the offsets* of the host
//! allocation it copies: mapping bytes `[o, o+len)` of a host block allocates a device block of
//! `o+len` bytes and copies to the same offsets, so translating a host pointer to the device keeps
//! its offset — also for a pointer to an array's start when only `a[lo:len]` is mapped (the
//! "virtual" base compilers compute). Bytes outside the mapped range are never copied.
//!
//! **Lifetimes.** Data constructs and compute constructs push a [`Region`] whose releases run at
//! the construct's end (structured counts); `enter data`/`exit data` and `acc_copyin`… change the
//! dynamic counts. Copy-out happens when both counts drop to zero, as OpenACC 2.5 specifies and
//! as the present-or clauses of 2.0 behave; `--strict-2.0` makes copy/copyin/copyout/create of
//! present data an error instead, lets a present-or clause or routine that finds its data present
//! take no reference (2.0's "no action"), and lets exit data end the lifetime.
//!
//! **Runtime library (chapter 3).** [`call_runtime`] runs the routines for the calling thread:
//! `acc_on_device` answers by where the code runs (host thread or device thread); the others are
//! host routines. Misuses that libgomp and nvc stop at stop the program with the call's location
//! (the argument checks below [`call_runtime`]); on the host device (a shared-memory device) the
//! data routines take no action.
//!
//! **Queues.** By default `async` work runs when it is issued (a legal schedule: §2.13 lets the
//! device start queued work at once), so `wait` has nothing to wait for. With `--schedule seed:N`
//! ([`DeviceConfig::schedule`]) queued work is delayed, per queue and in order, until a wait on
//! its queue, as late as the specification allows, so that a missing wait shows: launches,
//! updates, the ends of compute constructs and `exit data` are queued (allocation and copy-in
//! of `enter data` and of a construct's clauses happen at issue, a legal schedule since nothing
//! queued before them on the queue writes the host data they read). `acc_async_test` that finds
//! delayed work starts it and answers 0, so that polling ends (§3.2.6). `async(acc_async_sync)`
//! is no async clause (§2.13.1).
//!
//! **The device.** Allocations, transfers and launches go through the run's [`Device`]
//! (`core/src/exec/device.rs`); the present table and lifetimes stay here.

use std::ops::Range;

use crate::data::present::{DataLifetime, Presence, PresentEntry};
use crate::{diag::{Diagnostic, Loc}, phase::run_parts::RunPart};
use crate::ir::acc::{CaptureMode, DataClause};

pub use super::acc_state::{AccState, DeviceConfig, HostRange, UnmappedPointer};
use super::acc_state::{Deferred, ImplicitCopy, Region, Release};
use super::device::{Device, KernelLaunch, SequentialDevice, ACC_MALLOC_BLOCK};
use super::machine::{Machine, Trap};
use super::memory::{AllocId, AllocKind, Space};
use super::events::{Event, Stamp};
use super::value::Kind;
use crate::dialect::cray::AUTO_ASYNC_QUEUE;

mod library;
pub use library::{call_runtime, queue_wait, runtime_fn, startup, AccFn};
use library::{device_type_env, device_type_named, env_value};

/// What the device copies of data clauses and routines are called.
const DEVICE_COPY: &str = "device copy";

/// The special async-values (§2.13.1, §3.1, the project's openacc.h): `async(acc_async_noval)`
/// is `async` without a value, `async(acc_async_sync)` is no async clause.
pub const ACC_ASYNC_NOVAL: i64 = -1;
pub const ACC_ASYNC_SYNC: i64 = -2;

/// acc_device_t values (§3.1 and the project's openacc.h).
pub const ACC_DEVICE_NONE: u64 = 0;
pub const ACC_DEVICE_DEFAULT: u64 = 1;
pub const ACC_DEVICE_HOST: u64 = 2;
pub const ACC_DEVICE_NOT_HOST: u64 = 3;
pub const ACC_DEVICE_NVIDIA: u64 = 4;

fn err(kind: &'static str, msg: String, loc: Loc) -> Trap {
    Trap::error(Diagnostic::error(kind, msg, loc))
}

impl AccState {
    pub fn new(config: DeviceConfig) -> Self {
        // Checked when the program starts ([`check_environment`]).
        let on_host = device_type_env().and_then(|(_, v)| device_type_named(&v)) == Some(ACC_DEVICE_HOST);
        let device_num = env_value("ACC_DEVICE_NUM").and_then(|v| v.trim().parse().ok()).unwrap_or(0);
        let pgi_notify = env_value("ACC_NOTIFY").and_then(|v| v.trim().parse::<u64>().ok()).is_some_and(|n| n != 0);
        let device_selected = device_type_env().is_some();
        AccState { config, on_host, device_num, pgi_notify, device_selected, ..Default::default() }
    }
}

// ---------------------------------------------------------------- events

/// The model clock now (see [`super::events`]).
pub fn now_ns(m: &Machine) -> u64 {
    m.now_ns()
}

/// Report an event to the run's subscribers ([`super::events`]), first advancing the model
/// clock by the time it takes ([`super::events::model_time`]; a launch's steps were counted as
/// the kernel ran). Nothing is built when nobody subscribes.
pub fn emit(m: &mut Machine, e: Event<'_>) {
    let (dur_ns, advance) = super::events::model_time(&e);
    if advance {
        m.acc.extra_ns += dur_ns;
    }
    if m.acc.queue == Some(AUTO_ASYNC_QUEUE) {
        m.acc.auto_async_busy = true;
    }
    if m.acc.pgi_notify {
        if let Event::Launched { kernel, gangs, vector_length, loc, .. } = &e {
            let function = m.exe.funcs.get(m.cur_func as usize).map_or("", |f| f.name.as_str());
            let line = format!("launch kernel function={function} line={} device=0 kernel={kernel} grid={gangs} block={vector_length}\n", loc.line);
            m.write_stdout(line.as_bytes());
        }
    }
    if m.events.is_empty() {
        return;
    }
    let exe: &super::Executable = m.exe;
    let at = Stamp {
        function: exe.funcs.get(m.cur_func as usize).map_or("", |f| f.name.as_str()),
        queue: m.acc.queue,
        start_ns: now_ns(m) - dur_ns,
        dur_ns,
    };
    m.events.deliver(&m.mem, &at, &e);
}

// ---------------------------------------------------------------- device memory

/// The device address of host address `h`, if `h` is inside mapped data.
pub fn translate(m: &Machine, h: u64) -> Option<u64> {
    m.acc.translate(h)
}

/// Translate a pointer *value* to the device: inside mapped data, or into an allocation part of
/// which is mapped (an array's start when only `a[lo:len]` is mapped: the virtual base).
pub fn translate_pointer(m: &Machine, h: u64) -> Option<u64> {
    m.acc.translate_pointer(h)
}

/// A device block for the host bytes `[host_start, host_start+len)`. The block mirrors the host
/// allocation's offsets (a pointer to the array's start translates to the block's start, the
/// virtual base of a part mapped alone), and its bytes below the part are unaddressable: device
/// code reading `a[0]` when `copy(a[10:50])` mapped the part is out of bounds, as reading
/// `a[60]` is (§2.6.5: a subarray maps only its elements).
fn device_alloc(m: &mut Machine, host_start: u64, len: u64, loc: Loc) -> Result<u64, Trap> {
    let off = host_start & 0xffff_ffff;
    let device = m.device.clone();
    let base = crate::phase::run_parts::timed(RunPart::Transfers, || device.alloc(&mut m.device_ctx(), off + len, DEVICE_COPY, loc))?;
    m.mem.set_lower_bound(super::memory::AllocId((base >> 32) as u32), off);
    Ok(base + off)
}

fn device_free(m: &mut Machine, dev: u64, loc: Loc) {
    let device = m.device.clone();
    crate::phase::run_parts::timed(RunPart::Transfers, || device.free(&mut m.device_ctx(), dev, loc));
}

/// Copy host → device (for the clause variable `var`; `None`: `acc_memcpy_to_device`).
fn upload(m: &mut Machine, dev: u64, host: u64, len: u64, var: Option<&str>, loc: Loc) -> Result<(), Trap> {
    if len == 0 {
        return Ok(());
    }
    let device = m.device.clone();
    crate::phase::run_parts::timed(RunPart::Transfers, || device.upload(&mut m.device_ctx(), dev, host, len, loc))?;
    emit(m, Event::Upload { device: dev, host, len, var, loc });
    Ok(())
}

/// Copy device → host (for the clause variable `var`; `None`: `acc_memcpy_from_device`).
fn download(m: &mut Machine, host: u64, dev: u64, len: u64, var: Option<&str>, loc: Loc) -> Result<(), Trap> {
    if len == 0 {
        return Ok(());
    }
    let device = m.device.clone();
    crate::phase::run_parts::timed(RunPart::Transfers, || device.download(&mut m.device_ctx(), host, dev, len, loc))?;
    emit(m, Event::Download { host, device: dev, len, var, loc });
    Ok(())
}

/// Store a device pointer into device memory (attaching a pointer to its target, §2.6).
pub fn attach_pointer(m: &mut Machine, dev: u64, value: u64, loc: Loc) -> Result<(), Trap> {
    let device = m.device.clone();
    device.write_pointer(&mut m.device_ctx(), dev, value, loc)?;
    emit(m, Event::PointerAttached { device: dev, loc });
    Ok(())
}

// ---------------------------------------------------------------- data clauses

/// Map `r` for a data clause (entering a construct or `enter data`).
pub fn map(m: &mut Machine, clause: DataClause, r: &HostRange, lifetime: DataLifetime) -> Result<(), Trap> {
    let len = r.range.end - r.range.start;
    match clause {
        DataClause::DevicePtr | DataClause::Delete | DataClause::Link => return Ok(()),
        _ => {}
    }
    if len == 0 {
        return Ok(());
    }
    match m.acc.present.lookup(r.range.clone()) {
        Presence::Present(start) => {
            let strict_error = m.acc.config.strict_2_0
                && matches!(clause, DataClause::Copy | DataClause::CopyIn | DataClause::CopyOut | DataClause::Create);
            if strict_error {
                let e = m.acc.present.get(start).cloned();
                let mut d = Diagnostic::error(
                    "present",
                    format!("`{}` is already present on the device; OpenACC 2.0 `{}` requires it not to be (--strict-2.0)", r.name, clause_name(clause)),
                    r.loc,
                );
                if let Some(e) = e {
                    d = d.with_related(e.created_at, format!("`{}` was mapped here", e.name));
                }
                d = d.with_help("use the present_or_ form (pcopy, pcopyin…), or drop --strict-2.0 for OpenACC 2.5 semantics");
                return Err(Trap::error(d));
            }
            // OpenACC 2.0 (§2.6.5.7–§2.6.5.11, §3.2.18, §3.2.20): a present or present_or_ clause, or
            // routine, finding the data present "takes no action": no reference, so the lifetime that
            // mapped the data alone decides when it leaves. 2.5 counts a reference.
            let takes_reference = !m.acc.config.strict_2_0;
            if let Some(e) = m.acc.present.get_mut(start).filter(|_| takes_reference) {
                match lifetime {
                    DataLifetime::Structured => e.structured += 1,
                    DataLifetime::Dynamic => e.dynamic += 1,
                }
            }
            let wants_out = matches!(clause, DataClause::Copy | DataClause::CopyOut | DataClause::PresentOrCopy | DataClause::PresentOrCopyOut);
            if let Some(reg) = m.acc.regions.last_mut().filter(|_| lifetime == DataLifetime::Structured) {
                // Named twice by one construct (`copyin(a) copyout(a)`): the data is copied out
                // when the construct ends, as the second clause asks.
                let created_here = reg.releases.iter().any(|r| r.host_start == start && r.copy_out != wants_out);
                if created_here && wants_out {
                    for r in reg.releases.iter_mut().filter(|r| r.host_start == start) {
                        r.copy_out = true;
                    }
                }
                if takes_reference {
                    reg.releases.push(Release { host_start: start, copy_out: false });
                }
            }
            if !m.events.is_empty() {
                let device = m.acc.present.get(start).map_or(0, |e| e.to_device(r.range.start));
                emit(m, Event::Present { host: r.range.clone(), device, name: &r.name, var: &r.var, loc: r.loc });
            }
            Ok(())
        }
        Presence::Partial(start) => Err(partial(m, r, start)),
        Presence::Absent => {
            if clause == DataClause::Present {
                return Err(Trap::error(
                    Diagnostic::error("not-present", format!("`{}` is not present on the device (`present` clause, §2.6.5.6)", r.name), r.loc)
                        .with_help("map it first with a data construct, `enter data`, or use `present_or_copy`"),
                ));
            }
            check_within_host_object(m, clause, r)?;
            fast_addr_warning(m, r, len);
            let dev = device_alloc(m, r.range.start, len, r.loc)?;
            emit(m, Event::Created { host: r.range.clone(), device: dev, name: &r.name, var: &r.var, loc: r.loc });
            if matches!(clause, DataClause::Copy | DataClause::CopyIn | DataClause::PresentOrCopy | DataClause::PresentOrCopyIn) {
                upload(m, dev, r.range.start, len, Some(&r.name), r.loc)?;
            }
            let (s, d) = if lifetime == DataLifetime::Structured { (1, 0) } else { (0, 1) };
            let entry = PresentEntry {
                host: r.range.clone(),
                device_start: dev,
                structured: s,
                dynamic: d,
                name: r.name.clone(),
                var: r.var.clone(),
                created_at: r.loc,
                user_mapped: false,
            };
            if let Err(t) = insert_entry(m, entry, r.loc) {
                device_free(m, dev, r.loc);
                return Err(t);
            }
            let copy_out = matches!(clause, DataClause::Copy | DataClause::CopyOut | DataClause::PresentOrCopy | DataClause::PresentOrCopyOut);
            if lifetime == DataLifetime::Structured {
                if let Some(reg) = m.acc.regions.last_mut() {
                    reg.releases.push(Release { host_start: r.range.start, copy_out });
                }
            }
            Ok(())
        }
    }
}

/// The bytes a data clause maps lie inside the host object they name (§2.7.1: a subarray is
/// "a contiguous subarray of an array"; C's bounds are the object's). Checked before the device
/// copy is made, for every clause: a `create(a[0:1<<20])` of a 16-byte array was accepted
/// silently, and made a megabyte of device memory (issue 14).
fn check_within_host_object(m: &Machine, clause: DataClause, r: &HostRange) -> Result<(), Trap> {
    let id = AllocId((r.range.start >> 32) as u32);
    let Some(a) = m.mem.allocation(id).filter(|a| a.live && a.space == Space::Host) else {
        return Ok(());
    };
    let (first, end) = (r.range.start as u32 as u64, (r.range.start as u32 as u64).saturating_add(r.range.end - r.range.start));
    if end <= a.size() {
        return Ok(());
    }
    Err(Trap::error(
        Diagnostic::error(
            "out-of-bounds",
            format!("`{}` in a `{}` clause maps bytes {first}..{end} of {} ({} bytes)", r.name, clause_name(clause), m.describe_alloc(id), a.size()),
            r.loc,
        )
        .with_related(a.origin(), if a.kind() == AllocKind::Heap { "allocated here" } else { "declared here" })
        .with_note("§2.7.1: a subarray in a data clause names elements of the array; these lie beyond its end"),
    ))
}

fn partial(m: &Machine, r: &HostRange, start: u64) -> Trap {
    let e = m.acc.present.get(start);
    let mut d = Diagnostic::error(
        "partially-present",
        format!("`{}` is partially present on the device: part of it is mapped, part is not (§2.6.4)", r.name),
        r.loc,
    );
    if let Some(e) = e {
        d = d.with_related(e.created_at, format!("`{}` ({} bytes) was mapped here", e.name, e.len()));
    }
    Trap::error(d)
}

fn clause_name(c: DataClause) -> &'static str {
    match c {
        DataClause::Copy => "copy",
        DataClause::CopyIn => "copyin",
        DataClause::CopyOut => "copyout",
        DataClause::Create => "create",
        DataClause::PresentOrCopy => "present_or_copy",
        DataClause::PresentOrCopyIn => "present_or_copyin",
        DataClause::PresentOrCopyOut => "present_or_copyout",
        DataClause::PresentOrCreate => "present_or_create",
        DataClause::Present => "present",
        DataClause::DevicePtr => "deviceptr",
        DataClause::Delete => "delete",
        DataClause::DeviceResident => "device_resident",
        DataClause::Link => "link",
    }
}

/// Put `e` in the present table, its bytes counted against `--max-memory`
/// ([`PresentEntry::bookkeeping`]).
pub(super) fn insert_entry(m: &mut Machine, e: PresentEntry, loc: Loc) -> Result<(), Trap> {
    let bytes = e.bookkeeping();
    if !m.mem.charge(bytes) {
        return Err(m.memory_limit(format!("mapping `{}` needs {bytes} bytes for its present table entry, with {} mapped", e.name, m.acc.present.len()), loc));
    }
    m.acc.present.insert(e);
    Ok(())
}

/// Take the entry at `start` out of the present table, its bytes no longer counted.
pub(super) fn remove_entry(m: &mut Machine, start: u64) -> Option<PresentEntry> {
    let e = m.acc.present.remove(start)?;
    m.mem.uncharge(e.bookkeeping());
    Some(e)
}

/// Drop one reference of `kind` from the entry at `start`; copy out and free when none is left.
fn release(m: &mut Machine, start: u64, kind: DataLifetime, copy_out: bool, loc: Loc) -> Result<(), Trap> {
    let Some(e) = m.acc.present.get_mut(start) else { return Ok(()) };
    match kind {
        DataLifetime::Structured => e.structured = e.structured.saturating_sub(1),
        DataLifetime::Dynamic => e.dynamic = e.dynamic.saturating_sub(1),
    }
    if e.structured == 0 && e.dynamic == 0 && !e.user_mapped {
        let Some(e) = remove_entry(m, start) else { return Ok(()) };
        if copy_out {
            download(m, e.host.start, e.device_start, e.len(), Some(&e.name), loc)?;
        }
        emit(m, Event::Released { host: e.host.clone(), device: e.device_start, name: &e.name, var: &e.var, loc });
        device_free(m, e.device_start, loc);
    }
    Ok(())
}

/// `exit data copyout/delete`, `acc_copyout`, `acc_delete`; with `async` under the adversarial
/// schedule, queued until a wait (§2.13.1: operations on one queue run in issue order).
pub fn exit_data(m: &mut Machine, r: &HostRange, copy_out: bool, finalize: bool) -> Result<(), Trap> {
    if let Some(q) = m.acc.queue {
        if should_defer(m, q) {
            m.acc.deferred.entry(q).or_default().push(Deferred::ExitData { range: r.clone(), copy_out, finalize });
            return Ok(());
        }
    }
    run_exit_data(m, r, copy_out, finalize)
}

fn run_exit_data(m: &mut Machine, r: &HostRange, copy_out: bool, finalize: bool) -> Result<(), Trap> {
    match m.acc.present.lookup(r.range.clone()) {
        Presence::Present(start) => {
            let e = m.acc.present.get(start).cloned();
            if let Some(e) = &e {
                if e.dynamic == 0 {
                    return Err(Trap::error(
                        Diagnostic::error(
                            "not-entered",
                            format!("`{}` leaves the device with `exit data`, but it was never entered with `enter data` (§2.6.6)", r.name),
                            r.loc,
                        )
                        .with_related(e.created_at, format!("`{}` is mapped by this construct, which releases it itself", e.name)),
                    ));
                }
            }
            if let Some(e) = e.filter(|e| e.user_mapped && (e.dynamic <= 1 || finalize)) {
                // The lifetime acc_map_data started is the program's to end (§3.2.26): the
                // device memory is not the runtime's to copy from and free.
                return Err(Trap::error(
                    Diagnostic::error(
                        "not-map-data",
                        format!("`{}`: the data was mapped by acc_map_data, and only acc_unmap_data ends that mapping (§3.2.25, §3.2.26)", r.name),
                        r.loc,
                    )
                    .with_related(e.created_at, "mapped here with acc_map_data")
                    .with_help("copy the data back with acc_update_self, then call acc_unmap_data"),
                ));
            }
            // OpenACC 2.0 (§3.2.21, §3.2.22): exit data and acc_copyout/acc_delete end the data
            // lifetime, whatever else entered it; 2.5 drops one reference.
            if finalize || m.acc.config.strict_2_0 {
                if let Some(e) = m.acc.present.get_mut(start) {
                    e.dynamic = 1;
                }
            }
            release(m, start, DataLifetime::Dynamic, copy_out, r.loc)
        }
        Presence::Partial(start) => Err(partial(m, r, start)),
        Presence::Absent => Err(Trap::error(
            Diagnostic::error(
                "not-entered",
                format!("`{}` is not present on the device: `exit data` of data that was never entered (§2.6.6)", r.name),
                r.loc,
            )
            .with_help("pair every `exit data` with an `enter data` of the same data"),
        )),
    }
}

/// `update host/self/device` (§2.10.1) and `acc_update_device/self`; with `async` under the
/// adversarial schedule, queued until a wait.
pub fn update(m: &mut Machine, r: &HostRange, to_device: bool) -> Result<(), Trap> {
    if let Some(q) = m.acc.queue {
        if should_defer(m, q) {
            m.acc.deferred.entry(q).or_default().push(Deferred::Update { range: r.clone(), to_device });
            return Ok(());
        }
    }
    run_update(m, r, to_device)
}

fn run_update(m: &mut Machine, r: &HostRange, to_device: bool) -> Result<(), Trap> {
    let len = r.range.end - r.range.start;
    if len == 0 {
        return Ok(());
    }
    match m.acc.present.lookup(r.range.clone()) {
        Presence::Present(start) => {
            let dev = m.acc.present.get(start).map(|e| e.to_device(r.range.start)).unwrap_or(0);
            if to_device {
                upload(m, dev, r.range.start, len, Some(&r.name), r.loc)?;
            } else {
                download(m, r.range.start, dev, len, Some(&r.name), r.loc)?;
            }
            Ok(())
        }
        Presence::Partial(start) => Err(partial(m, r, start)),
        Presence::Absent => Err(Trap::error(
            Diagnostic::error("not-present", format!("`update` of `{}`, which is not present on the device (§2.10.1)", r.name), r.loc)
                .with_help("map the data with a data construct or `enter data` before updating it"),
        )),
    }
}

// ---------------------------------------------------------------- queues

/// Should the async operation being issued on queue `q` wait (adversarial schedule)? Queues are
/// FIFO: behind delayed work, everything is delayed.
fn should_defer(m: &mut Machine, q: i64) -> bool {
    if q == AUTO_ASYNC_QUEUE {
        // Work goes on the implicit queue, run now or delayed: a later synchronous operation
        // waits for it.
        m.acc.auto_async_busy = true;
    }
    if m.acc.deferred.get(&q).is_some_and(|w| !w.is_empty()) {
        return true;
    }
    match m.acc.config.schedule {
        None => false,
        Some(0) => true,
        Some(seed) => {
            // xorshift64*, seeded once: the same seed gives the same choices.
            if m.acc.schedule_state == 0 {
                m.acc.schedule_state = seed | 1;
            }
            let mut x = m.acc.schedule_state;
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            m.acc.schedule_state = x;
            x.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 63 == 1
        }
    }
}

/// Run the work waiting on queue `q` (all queues when `None`): a wait (§2.14).
pub fn wait_queues(m: &mut Machine, q: Option<i64>) -> Result<(), Trap> {
    wait_queues_at(m, q, Loc::default())
}

/// [`wait_queues`] for a wait the program's line `loc` makes (its events name the line).
pub fn wait_queues_at(m: &mut Machine, q: Option<i64>, loc: Loc) -> Result<(), Trap> {
    let queues: Vec<i64> = match q {
        Some(q) => vec![q],
        None => m.acc.deferred.keys().copied().collect(),
    };
    if q.is_none_or(|q| q == AUTO_ASYNC_QUEUE) {
        m.acc.auto_async_busy = false;
    }
    run_deferred(m, queues)?;
    emit(m, Event::Waited { queue: q, loc });
    // The device's own queues (CUDA streams) finish their work too.
    let device = m.device.clone();
    device.wait(&mut m.device_ctx(), q)
}

/// Queue `waiter`'s later work waits for the work queued so far on `on` (every other queue
/// when `None`), the host going on: `acc_wait_async`, `acc_wait_all_async` and `wait(…)
/// async(…)` (§3.2.9, §3.2.11, §2.13.3). The engine runs the delayed work of `on` now (a legal
/// schedule: it would have to run before `waiter`'s next work anyway) and the device finishes
/// its own; the checkers learn that only `waiter` is ordered after that work, not the host.
pub fn join_queues(m: &mut Machine, waiter: i64, on: Option<i64>, loc: Loc) -> Result<(), Trap> {
    let queues: Vec<i64> = match on {
        Some(q) => vec![q],
        None => m.acc.deferred.keys().copied().filter(|q| *q != waiter).collect(),
    };
    run_deferred(m, queues)?;
    let device = m.device.clone();
    device.wait(&mut m.device_ctx(), on)?;
    emit(m, Event::QueueJoined { waiter, on, loc });
    Ok(())
}

/// Run the engine's delayed work of `queues`, each in issue order.
fn run_deferred(m: &mut Machine, queues: Vec<i64>) -> Result<(), Trap> {
    for q in queues {
        let work = m.acc.deferred.remove(&q).unwrap_or_default();
        let saved = m.acc.queue;
        m.acc.queue = Some(q);
        for w in work {
            match w {
                Deferred::Update { range, to_device } => run_update(m, &range, to_device)?,
                Deferred::Launch { fid, gangs, workers, vector, caps, loc } => run_launch(m, fid, gangs, workers, vector, &caps, loc)?,
                Deferred::RegionExit { region, loc } => finish_region(m, region, loc)?,
                Deferred::ExitData { range, copy_out, finalize } => run_exit_data(m, &range, copy_out, finalize)?,
            }
        }
        m.acc.queue = saved;
    }
    Ok(())
}

/// Run the engine's delayed work of queue `q` (all queues when `None`) without ordering the
/// host after it: the device makes progress while the host polls with `acc_async_test`.
fn start_delayed_work(m: &mut Machine, q: Option<i64>) -> Result<(), Trap> {
    let queues: Vec<i64> = match q {
        Some(q) => vec![q],
        None => m.acc.deferred.keys().copied().collect(),
    };
    run_deferred(m, queues)
}

/// Is queue `q` (all queues when `None`) idle? (`acc_async_test`)
pub fn queue_idle(m: &Machine, q: Option<i64>) -> bool {
    let engine_idle = match q {
        Some(q) => m.acc.deferred.get(&q).is_none_or(|w| w.is_empty()),
        None => m.acc.deferred.values().all(|w| w.is_empty()),
    };
    engine_idle && m.device.queue_idle(q)
}

// ---------------------------------------------------------------- auto-async (Cray CCE)

/// The queue a directive without `async` puts its work on under Cray's `acc_model`
/// ([`crate::dialect::cray`]): the implicit queue for a compute construct's kernel under
/// `auto_async_kernel`/`auto_async_all`, and for the transfers of data directives under
/// `auto_async_all`; otherwise none (the host does the work and waits).
pub fn auto_async_queue(m: &Machine, compute: bool) -> Option<i64> {
    let model = m.acc.config.acc_model;
    let auto = if compute { model.kernels_async() } else { model.transfers_async() };
    auto.then_some(AUTO_ASYNC_QUEUE)
}

/// "Ensuring program order is maintained": before a synchronous data operation at `loc`, the
/// host waits for the work of the implicit queue (only when something went on it).
pub fn auto_async_join(m: &mut Machine, loc: Loc) -> Result<(), Trap> {
    if m.acc.auto_async_busy {
        wait_queues_at(m, Some(AUTO_ASYNC_QUEUE), loc)?;
    }
    Ok(())
}

/// Cray's `fast_addr` ([`crate::dialect::cray`]): "Attempt to use 32 bit integers in all
/// addressing … This optimization may result in incorrect behavior for some codes": a device
/// copy of [`crate::dialect::cray::FAST_ADDR_LIMIT`] bytes or more has offsets a 32-bit signed
/// integer cannot hold. A warning finding (`check`, the GUI), made before the copy is allocated.
fn fast_addr_warning(m: &mut Machine, r: &HostRange, len: u64) {
    if !m.acc.config.acc_model.fast_addr || len < crate::dialect::cray::FAST_ADDR_LIMIT || m.events.is_empty() {
        return;
    }
    let mut d = Diagnostic::error(
        "cray-limit",
        format!("the device copy of `{}` is {len} bytes: under acc_model=fast_addr, Cray CCE addresses it with 32-bit integers, which cannot reach past 2 GiB", r.name),
        r.loc,
    )
    .with_help("run with `--acc-model no_fast_addr` (CCE: `-h acc_model=no_fast_addr`) for data this large");
    d.severity = crate::diag::Severity::Warning;
    emit(m, Event::Finding(&d));
}

/// Under `--cray`, a `vector_length` known only at launch that CCE does not accept
/// ([`crate::dialect::cray_info::vector_length_rule`]): a `cray-limit` warning finding (`check`,
/// the GUI) naming the value, once per clause and value.
pub fn cray_vector_length_at_launch(m: &mut Machine, vector: u64, with_workers: bool, loc: Loc) {
    if !m.acc.config.cray || m.events.is_empty() || !m.acc.cray_vector_warned.insert((loc, vector)) {
        return;
    }
    if let Some(d) = crate::dialect::cray_info::vector_length_warning(vector as i64 as i128, with_workers, loc, true) {
        emit(m, Event::Finding(&d));
    }
}

// ---------------------------------------------------------------- regions

/// Enter a data, compute or `host_data` construct.
pub fn region_enter(m: &mut Machine, on_host: bool, queue: Option<i64>, host_data: bool) {
    m.acc.device_selected = true;
    m.acc.regions.push(Region { on_host, queue, host_data, ..Default::default() });
    m.acc.queue = queue;
}

/// A function-scope `declare` directive: its data lives until the current call returns (§2.13).
pub fn declare_enter(m: &mut Machine) {
    let depth = m.depth;
    let on_host = region_on_host(m);
    m.acc.regions.push(Region { function_depth: Some(depth), on_host, ..Default::default() });
}

/// The current call returns: release the data of its `declare` directives.
pub fn function_return(m: &mut Machine, loc: Loc) -> Result<(), Trap> {
    while m.acc.regions.last().is_some_and(|r| r.function_depth == Some(m.depth)) {
        region_exit(m, loc)?;
    }
    Ok(())
}

/// Is the innermost construct running on the host (`if(false)`, or the host device)?
pub fn region_on_host(m: &Machine) -> bool {
    m.acc.on_host || m.acc.regions.last().is_some_and(|r| r.on_host)
}

/// Leave the innermost construct: release its data (copying out), restore `use_device` pointers.
pub fn region_exit(m: &mut Machine, loc: Loc) -> Result<(), Trap> {
    let Some(mut reg) = m.acc.regions.pop() else { return Ok(()) };
    // `auto_async_kernel`: only kernels are asynchronous; a construct's copy-out and release
    // are synchronous, after the kernels queued before them (program order). A data construct
    // waits whenever it has data (a kernel inside may still hold a reference, its construct's
    // end being queued); a compute construct only when its end moves data.
    let sync_exit = match reg.queue {
        None => !reg.releases.is_empty(),
        Some(AUTO_ASYNC_QUEUE) => region_moves_data(m, &reg),
        Some(_) => false,
    };
    if sync_exit && m.acc.auto_async_busy && !m.acc.config.acc_model.transfers_async() {
        m.acc.queue = None;
        wait_queues_at(m, Some(AUTO_ASYNC_QUEUE), loc)?;
        reg.queue = None;
    }
    if let Some(q) = reg.queue.filter(|_| reg.function_depth.is_none()) {
        if should_defer(m, q) {
            // The construct's copy-out and release belong to its queue (§2.13).
            m.acc.deferred.entry(q).or_default().push(Deferred::RegionExit { region: reg, loc });
            m.acc.queue = m.acc.regions.last().and_then(|r| r.queue);
            return Ok(());
        }
    }
    finish_region(m, reg, loc)
}

/// Does leaving construct `reg` copy data out or free device memory (a structured reference
/// that is the data's last)?
fn region_moves_data(m: &Machine, reg: &Region) -> bool {
    reg.releases.iter().any(|r| m.acc.present.get(r.host_start).is_some_and(|e| e.structured <= 1 && e.dynamic == 0 && !e.user_mapped))
}

fn finish_region(m: &mut Machine, reg: Region, loc: Loc) -> Result<(), Trap> {
    m.acc.queue = reg.queue;
    implicit_pointer_note(m, &reg, loc);
    for (addr, v) in reg.restore {
        m.mem.store_u64(addr, v).map_err(|f| m.fault(f, loc))?;
    }
    for (dev, host_value) in reg.detach {
        attach_pointer(m, dev, host_value, loc)?;
    }
    for r in reg.releases.into_iter().rev() {
        release(m, r.host_start, DataLifetime::Structured, r.copy_out, loc)?;
    }
    m.acc.queue = m.acc.regions.last().and_then(|r| r.queue);
    Ok(())
}

/// Cray `deep_copy` ([`crate::dialect::cray`]): when the innermost construct ends, device
/// pointer member `dev` gets back `host_value` before the data is copied out and released.
pub fn detach_at_region_exit(m: &mut Machine, dev: u64, host_value: u64) {
    if let Some(r) = m.acc.regions.last_mut() {
        r.detach.push((dev, host_value));
    }
}

/// `host_data use_device(p)`: inside the construct, pointer variable `p` (at `addr`) holds the
/// device address of the data it points to (§2.8).
pub fn use_device(m: &mut Machine, addr: u64, name: &str, loc: Loc) -> Result<(), Trap> {
    let h = m.mem.load_u64(addr).map_err(|f| m.fault(f, loc))?;
    let Some(d) = translate_pointer(m, h) else {
        return Err(err("not-present", format!("`use_device({name})`: the data `{name}` points to is not present on the device (§2.8)"), loc));
    };
    m.mem.store_u64(addr, d).map_err(|f| m.fault(f, loc))?;
    if let Some(r) = m.acc.regions.last_mut() {
        r.restore.push((addr, h));
    }
    Ok(())
}

/// `host_data use_device(a)` on an array `a` at host address `h`: the address of its device
/// copy, which the array's name stands for inside the construct (§2.8). An array mapped in part
/// (`copy(a[10:20])`) has its device copy's virtual base there, as a pointer into it has.
pub fn use_device_array(m: &Machine, h: u64, name: &str, loc: Loc) -> Result<u64, Trap> {
    if m.acc.on_host || region_on_host(m) {
        return Ok(h);
    }
    translate_pointer(m, h).ok_or_else(|| err("not-present", format!("`use_device({name})`: the array `{name}` is not present on the device (§2.8)"), loc))
}

/// A data clause named the pointer at host address `addr` whole, and maps the pointer alone
/// (`--strict-2.0`, or its target's extent is unknown and nothing containing it is present):
/// remember what it points to, so that a device access there can say so.
pub fn note_pointer_mapped_alone(m: &mut Machine, addr: u64, name: &str, loc: Loc) -> Result<(), Trap> {
    let target = m.mem.load_u64(addr).map_err(|f| m.fault(f, loc))?;
    m.acc.pointers_mapped_alone.insert((target >> 32) as u32, (name.to_string(), loc));
    Ok(())
}

// ---------------------------------------------------------------- launches

pub use super::gang::CaptureArg;

/// Run kernel function `fid` on the device: once per gang, with per-gang private copies and
/// reductions combined at the end (§2.5.1, §2.7.11).
pub fn launch(m: &mut Machine, fid: u32, gangs: u64, workers: u64, vector: u64, caps: &[CaptureArg], loc: Loc) -> Result<(), Trap> {
    if let Some(q) = m.acc.queue {
        if should_defer(m, q) && !region_on_host(m) {
            m.acc.deferred.entry(q).or_default().push(Deferred::Launch { fid, gangs, workers, vector, caps: caps.to_vec(), loc });
            return Ok(());
        }
    }
    crate::phase::run_parts::timed(RunPart::Launches, || run_launch(m, fid, gangs, workers, vector, caps, loc))
}

fn run_launch(m: &mut Machine, fid: u32, mut gangs: u64, mut workers: u64, mut vector: u64, caps: &[CaptureArg], loc: Loc) -> Result<(), Trap> {
    let host = region_on_host(m);
    if host {
        (gangs, workers, vector) = (1, 1, 1);
    }
    check_launch_size(m, gangs, workers, vector, loc)?;
    m.acc.launches += 1;
    let launch_start = now_ns(m);
    // What the gangs share: scalars by value, mapped data by its device address.
    let mut shared = Vec::with_capacity(caps.len());
    for c in caps {
        let v = match c.mode {
            CaptureMode::Value => {
                if c.is_pointer && !host {
                    translate_pointer(m, c.host).unwrap_or(c.host)
                } else {
                    c.host
                }
            }
            CaptureMode::Present if host => c.host,
            CaptureMode::Present => match translate(m, c.host) {
                // Present already (a clause of the construct, an enclosing data region…).
                Some(d) if matches!(m.acc.present.lookup(c.host..c.host + c.size.max(1)), Presence::Present(_)) => d,
                // Mapped in part by a subarray of a clause: the device copy of that part, at the
                // array's offsets (the virtual base; accesses outside the part are out of bounds
                // of the device copy, or read bytes never copied).
                _ if c.mapped_part && !matches!(m.acc.present.lookup(c.host..c.host + c.size.max(1)), Presence::Absent) => translate_pointer(m, c.host).unwrap_or(c.host),
                _ => {
                    let r = HostRange { range: c.host..c.host + c.size, name: c.name.clone(), var: c.name.clone(), loc };
                    // Implicit present_or_copy (§2.5.1/§2.6.1), released with the compute construct.
                    map(m, DataClause::PresentOrCopy, &r, DataLifetime::Structured)?;
                    translate(m, c.host).unwrap_or(c.host)
                }
            },
            _ => 0,
        };
        shared.push(v);
    }
    if !host {
        implicit_pointer_data(m, &KernelLaunch { fid, gangs, workers, vector, caps, shared: &shared, loc, queue: m.acc.queue, on_host: host })?;
        // The pointers copied now point at their device copies.
        for (c, v) in caps.iter().zip(shared.iter_mut()) {
            if c.implicit_pointer && c.mode == CaptureMode::Value {
                *v = translate_pointer(m, c.host).unwrap_or(c.host);
            }
        }
    }
    let k = KernelLaunch { fid, gangs, workers, vector, caps, shared: &shared, loc, queue: m.acc.queue, on_host: host };
    emit(m, Event::LaunchBegin { fid, gangs, workers, vector, loc, on_host: host });
    if let Some(model) = m.memory_model.as_deref_mut() {
        model.launch(host);
    }
    if !host && !m.events.is_empty() {
        let exe: &super::Executable = m.exe;
        for l in exe.schedules.get(&fid).into_iter().flatten() {
            emit(m, Event::LoopSchedule(l));
        }
    }
    let ran = if host {
        SequentialDevice.launch(&mut m.device_ctx(), &k)
    } else if let Some((plain, atomics)) = proven_launch(m, &k) {
        // Proven race-free with its footprint taken by the checkers: run it as `accsim run`
        // does (the executable without hooks, the device's own schedule), its accesses and
        // threads unobserved.
        // Its gangs run the plain executable's native code when the run has it (issue 15).
        let exe = m.exe;
        m.exe = plain;
        m.events.set_device_events(false);
        let native = match m.proven_native.clone() {
            Some(n) => m.native.replace(n),
            None => m.native.clone(),
        };
        if !native_launch(m, &k) {
            // The engine leaves this launch to the interpreter (`NativeCode::prepare_launch`).
            m.native = None;
        }
        let ran = if atomics.is_empty() {
            let device = m.device.clone();
            device.launch(&mut m.device_ctx(), &k).map(|()| Vec::new())
        } else {
            super::device::launch_recording_atomics(&mut m.device_ctx(), &k, &atomics)
        };
        m.native = native;
        m.events.set_device_events(true);
        m.exe = exe;
        ran.map(|written| {
            if !written.is_empty() {
                m.events.proven_atomic_writes(&m.mem, &written);
            }
        })
    } else {
        let engine = if native_launch(m, &k) { None } else { m.native.take() };
        let device = m.device.clone();
        let ran = device.launch(&mut m.device_ctx(), &k);
        if engine.is_some() {
            m.native = engine;
        }
        ran
    };
    emit(m, Event::LaunchEnd { loc });
    ran?;
    if !m.events.is_empty() || m.acc.pgi_notify {
        let steps = now_ns(m).saturating_sub(launch_start);
        let exe: &super::Executable = m.exe;
        let kernel = exe.funcs.get(fid as usize).map_or("", |f| f.name.as_str());
        emit(m, Event::Launched { kernel, gangs, workers, vector_length: vector, steps, loc });
    }
    Ok(())
}

/// Ask the run's native engine, if any, to prepare launch `k` (its code generated before the
/// device threads start); `false` when the engine leaves the whole launch to the interpreter
/// (issue 15's tiers: a launch of little counted work). Both engines give the same results.
fn native_launch(m: &mut Machine, k: &KernelLaunch) -> bool {
    let Some(n) = m.native.clone() else { return true };
    let captures: Vec<Option<u64>> = k
        .caps
        .iter()
        .zip(k.shared.iter())
        .map(|(c, &v)| matches!(c.mode, CaptureMode::Value | CaptureMode::Present).then_some(v))
        .collect();
    n.prepare_launch(&super::machine::LaunchShape { fid: k.fid, gangs: k.gangs, workers: k.workers, vector: k.vector, captures: &captures })
}

/// An `atomic` statement reached while its thread runs another one: a routine called in the
/// outer statement's expression runs an atomic (§2.12 allows only one memory location updated
/// atomically per statement; the lock the outer one holds would never be released).
pub fn atomic_in_atomic(outer: Loc, loc: Loc) -> Trap {
    Trap::error(
        Diagnostic::error("nested-atomic", "an `atomic` statement runs while this thread runs another `atomic` statement", loc)
            .with_related(outer, "the atomic statement that is running")
            .with_note("§2.12: an atomic construct updates one storage location; a routine called in its expression must not run an atomic construct"),
    )
}

/// Most workers × vector lanes of one gang: the faithful schedule keeps state per lane, and a
/// CUDA block holds 1024 threads (`--device cuda` runs the rows of workers a block holds).
pub const MAX_LANES_PER_GANG: u64 = 1 << 20;

/// The launch configuration checked before anything is allocated for it (issue 14): each of
/// `num_gangs`, `num_workers` and `vector_length` is positive (§2.5.6–§2.5.8: "the number of
/// parallel gangs", an `int` expression; the words are sign-extended, so a negative `int` is a
/// huge count here), the gangs fit the steps left (each gang's call costs at least one step), and
/// workers × lanes stay within [`MAX_LANES_PER_GANG`].
fn check_launch_size(m: &Machine, gangs: u64, workers: u64, vector: u64, loc: Loc) -> Result<(), Trap> {
    let [g, w, v] = [gangs, workers, vector].map(|n| n as i64);
    if g <= 0 || w <= 0 || v <= 0 {
        return Err(Trap::error(
            Diagnostic::error("launch", format!("invalid launch configuration: num_gangs({g}) num_workers({w}) vector_length({v})"), loc)
                .with_note("§2.5.6–§2.5.8: each is a number of gangs, workers or vector lanes, so it must be positive"),
        ));
    }
    if let Some(left) = m.steps_left() {
        if gangs > left {
            return Err(m.steps_limit(format!("a launch of {gangs} gangs needs at least {gangs} steps and {left} are left"), loc));
        }
    }
    if workers.saturating_mul(vector) > MAX_LANES_PER_GANG {
        return Err(Trap::limit(
            Diagnostic::error("launch limit", format!("num_workers({workers}) × vector_length({vector}) is more than the {MAX_LANES_PER_GANG} lanes per gang accsim simulates"), loc)
                .with_help("use fewer workers or a shorter vector length (a CUDA block holds 1024 threads)"),
        ));
    }
    Ok(())
}

/// The data a pointer that no clause names points to (§2.5.1, §2.5.2: such a pointer is
/// firstprivate in a parallel construct and copied in a kernels construct, "the data addressed
/// by that pointer are not implicitly copied", §2.6.5 of 2.5 says as much of members).
///
/// OpenACC 2.0 copies the pointer alone, and `--strict-2.0` does: a device access through it
/// reaches host memory (`device-deref-host-ptr`). The PGI/NVIDIA compilers instead copy what the
/// kernel accesses through it ("Generating implicit copy(y[:n])"), inferred from the loop bounds
/// and subscripts, and refuse a kernel where they cannot; the most common first OpenACC program
/// relies on it, and accsim does the same by default (issue 12 item 7). For each such pointer
/// whose target is host memory of which nothing is present, the kernel's access plan
/// (`kernel::footprint`, affine addresses in the loop counters) is evaluated with this launch's
/// values, and the hull of the sites that fall in the target's allocation (clipped to it) is
/// mapped `present_or_copy` when some site writes it (a partial write must not lose the rest)
/// and `present_or_copyin` when all only read, for the construct (structured lifetime), as an
/// implicit clause would be: the checkers see an ordinary mapping. Several pointers into one
/// allocation share one hull. When the kernel has no plan, nothing is copied and the access
/// fails as under 2.0, its help naming the subarray to write ([`UnmappedPointer`]).
///
/// A kernels construct split into several kernels copies at each kernel's launch what that
/// kernel accesses; when a later kernel of the construct accesses more of a block, or writes
/// what an earlier one only read, the copy is widened (nvc copies the union over the construct
/// once; with no host code between the kernels the data is the same).
fn implicit_pointer_data(m: &mut Machine, k: &KernelLaunch<'_>) -> Result<(), Trap> {
    // The pointers whose target has no device copy, or one an earlier kernel of this construct
    // made implicitly: (capture, pointer value, allocation, that copy's host start).
    let mut targets: Vec<(usize, u64, u32, Option<u64>)> = Vec::new();
    for (i, c) in k.caps.iter().enumerate().filter(|(_, c)| c.implicit_pointer) {
        let p = match c.mode {
            CaptureMode::Value => c.host,
            CaptureMode::FirstPrivate if c.section.is_none() => m.mem.load_u64(c.host).map_err(|f| m.fault(f, k.loc))?,
            _ => continue,
        };
        let id = (p >> 32) as u32;
        let host_data = m.mem.allocation(AllocId(id)).is_some_and(|a| a.live && a.space == Space::Host);
        if !host_data || m.acc.pointers_mapped_alone.contains_key(&id) {
            continue;
        }
        let earlier = m.acc.regions.last().and_then(|r| r.implicit_pointer_data.iter().map(|c| c.start).find(|s| (s >> 32) as u32 == id));
        if earlier.is_none() && translate_pointer(m, p).is_some() {
            continue;
        }
        targets.push((i, p, id, earlier));
    }
    m.acc.implicit_pointers_unmapped.clear();
    if targets.is_empty() {
        return Ok(());
    }
    // What the kernel accesses in each target allocation: (hull, written).
    let accessed: Result<std::collections::BTreeMap<u32, (Range<u64>, bool)>, String> = match m.exe.plans.get(&k.fid) {
        None => Err("it has no access plan".into()),
        Some(Err(why)) => Err(why.clone()),
        Some(Ok(plan)) => plan.site_bytes(&HostPointers { launch: LaunchView { m, k }, pointers: targets.iter().map(|t| (t.0 as u32, t.1)).collect() }).map(|sites| {
            let mut hulls: std::collections::BTreeMap<u32, (Range<u64>, bool)> = std::collections::BTreeMap::new();
            for s in sites.iter().filter(|s| s.range.start < s.range.end) {
                let id = (s.range.start >> 32) as u32;
                if !targets.iter().any(|t| t.2 == id) {
                    continue;
                }
                let e = hulls.entry(id).or_insert((s.range.clone(), false));
                e.0 = e.0.start.min(s.range.start)..e.0.end.max(s.range.end);
                e.1 |= s.write;
            }
            hulls
        }),
    };
    let strict = m.acc.config.strict_2_0;
    let mut copied: Vec<u32> = Vec::new();
    for &(i, p, id, earlier) in &targets {
        let c = &k.caps[i];
        let hull = accessed.as_ref().ok().and_then(|h| h.get(&id)).map(|(r, w)| {
            // Clipped to the allocation: an access beyond it is out of bounds of the device copy.
            let (base, size) = m.mem.allocation(AllocId(id)).map_or((0, 0), |a| ((id as u64) << 32, a.size()));
            (r.start.max(base)..r.end.min(base + size), *w)
        });
        let subarray = |r: &Range<u64>| {
            let es = c.elem_size.max(1) as i64;
            let lo = (r.start as i64 - p as i64).div_euclid(es);
            let len = (r.end - r.start).div_ceil(es as u64);
            format!("{}[{lo}:{len}]", c.name)
        };
        let (range, written) = match hull {
            Some((r, w)) if r.start < r.end && !strict => (r, w),
            Some((r, w)) if r.start < r.end => {
                let why = "OpenACC 2.0 gives the pointer an implicit attribute, not the data it points to (§2.5.1, §2.5.2; --strict-2.0)".to_string();
                m.acc.implicit_pointers_unmapped.insert(id, UnmappedPointer { name: c.name.clone(), construct: k.loc, accessed: Some(format!("{}({})", if w { "copy" } else { "copyin" }, subarray(&r))), why });
                continue;
            }
            // The kernel accesses nothing there at this launch.
            Some(_) => continue,
            None => {
                let why = if strict {
                    "OpenACC 2.0 gives the pointer an implicit attribute, not the data it points to (§2.5.1, §2.5.2; --strict-2.0)".to_string()
                } else {
                    let reason = accessed.as_ref().err().map_or_else(|| "no access through it is an affine function of the loop counters".to_string(), |w| w.clone());
                    format!("accsim, like nvc, copies what a kernel accesses through such a pointer, but cannot tell what this kernel accesses ({reason}): the size of the GPU copy is unknown")
                };
                m.acc.implicit_pointers_unmapped.insert(id, UnmappedPointer { name: c.name.clone(), construct: k.loc, accessed: None, why });
                continue;
            }
        };
        if copied.contains(&id) {
            continue;
        }
        copied.push(id);
        let (mut range, mut written) = (range, written);
        if let Some(start) = earlier {
            // An earlier kernel of this construct copied part of the block: widen that copy
            // to what both access, copying its changes back first (the host runs nothing
            // between the kernels of one construct, so the data is as if the construct had
            // copied the union from the start).
            let Some(old) = m.acc.present.get(start).map(|e| e.host.clone()) else { continue };
            let Some(reg) = m.acc.regions.last_mut() else { continue };
            let old_written = reg.releases.iter().any(|r| r.host_start == start && r.copy_out);
            if range.start >= old.start && range.end <= old.end {
                // Inside the copy: a write now copies it back at the end.
                if written && !old_written {
                    reg.releases.iter_mut().filter(|r| r.host_start == start).for_each(|r| r.copy_out = true);
                }
                continue;
            }
            reg.releases.retain(|r| r.host_start != start);
            reg.implicit_pointer_data.retain(|c| c.start != start);
            release(m, start, DataLifetime::Structured, old_written, k.loc)?;
            range = range.start.min(old.start)..range.end.max(old.end);
            written |= old_written;
        }
        let clause = if written { DataClause::PresentOrCopy } else { DataClause::PresentOrCopyIn };
        map(m, clause, &HostRange { range: range.clone(), name: c.name.clone(), var: c.name.clone(), loc: k.loc }, DataLifetime::Structured)?;
        if let Some(reg) = m.acc.regions.last_mut() {
            reg.implicit_pointer_data.push(ImplicitCopy { start: range.start, name: c.name.clone(), pointer: p, elem_size: c.elem_size });
        }
    }
    Ok(())
}

/// `accsim check`: the construct that ends made implicit copies for pointers no clause names
/// ([`implicit_pointer_data`]): one note with the clauses, as nvc's "Generating implicit
/// copy(y[:n]), copyin(x[:n])".
fn implicit_pointer_note(m: &mut Machine, reg: &Region, loc: Loc) {
    if reg.implicit_pointer_data.is_empty() || m.events.is_empty() {
        return;
    }
    let mut names = Vec::new();
    let mut clauses = Vec::new();
    for c in &reg.implicit_pointer_data {
        let Some(e) = m.acc.present.get(c.start) else { continue };
        let written = reg.releases.iter().any(|r| r.host_start == c.start && r.copy_out);
        let es = c.elem_size.max(1);
        let lo = (e.host.start as i64 - c.pointer as i64).div_euclid(es as i64);
        let len = e.len().div_ceil(es);
        names.push(format!("`{}`", c.name));
        clauses.push(format!("`{}({}[{lo}:{len}])`", if written { "copy" } else { "copyin" }, c.name));
    }
    if names.is_empty() {
        return;
    }
    let pointers = if names.len() == 1 { "the pointer" } else { "the pointers" };
    let (names, clauses) = (names.join(", "), clauses.join(", "));
    let mut d = Diagnostic::error(
        crate::finding::FindingKind::Portability.name(),
        format!("no data clause names {names}: OpenACC 2.0 copies only {pointers}; like nvc, accsim made the implicit {clauses}, which `--strict-2.0` does not"),
        loc,
    )
    .with_help(format!("write {clauses} on the construct (the bounds as expressions) to map the same data with every compiler"));
    d.severity = crate::diag::Severity::Note;
    emit(m, Event::Finding(&d));
}

/// Whether `ACCSIM_EXPLAIN_PROOFS` asks for each launch's proof decisions on stderr: read once
/// per run, not at every launch.
fn explain_proofs() -> bool {
    static EXPLAIN: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *EXPLAIN.get_or_init(|| std::env::var_os("ACCSIM_EXPLAIN_PROOFS").is_some())
}

/// `accsim check`: prove the kernel race-free at this launch and hand its footprint to the
/// checkers (`kernel::footprint`, [`super::events::Subscriber::proven_launch`]). The executable to
/// run it on when the checkers took the footprint.
fn proven_launch<'e>(m: &mut Machine<'e>, k: &KernelLaunch<'_>) -> Option<(&'e super::Executable, Vec<crate::kernel::footprint::AtomicTarget>)> {
    if m.observer.is_some() || m.memory_model.is_some() || !m.events.wants_proofs() {
        return None;
    }
    let exe: &'e super::Executable = m.exe;
    let explain = explain_proofs();
    if exe.funcs.get(k.fid as usize).is_some_and(|f| f.shares_locals) {
        // Variables of the gang's code that its threads share live in the frame, which no
        // footprint covers (`compile::checking::partition_shared_locals`).
        if explain {
            eprintln!("accsim: kernel at line {} checked access by access: its workers or lanes share a variable of the gang's code", k.loc.line);
        }
        return None;
    }
    let cfg = crate::kernel::footprint::Config { gangs: k.gangs, workers: k.workers, vector: k.vector };
    let fp = exe.plans.get(&k.fid).ok_or_else(|| "no plan".to_string()).and_then(|p| {
        let plan = p.as_ref().map_err(|why| format!("no plan ({why})"))?;
        plan.evaluate(&LaunchView { m, k }, cfg)
    });
    let (plain, fp) = match (exe.plain.as_deref(), fp) {
        (Some(plain), Ok(fp)) => (plain, fp),
        (_, Err(why)) => {
            if explain {
                eprintln!("accsim: kernel at line {} checked access by access: {why}", k.loc.line);
            }
            return None;
        }
        (None, _) => return None,
    };
    let taken = m.events.proven_launch(&m.mem, &fp);
    if explain {
        let how = if taken { "proven race-free, run on its footprint" } else { "proven race-free, but the checkers need its accesses" };
        eprintln!("accsim: kernel at line {}: {how}", k.loc.line);
    }
    taken.then_some((plain, fp.atomics))
}

/// The device blocks whose `atomic` counter updates the device threads of launch `k` may count
/// in tables of their own (issue 15; the rule is `memory`'s `counters` module): those of the
/// kernel's access plan at this launch when no other access of the kernel may touch them
/// ([`crate::kernel::footprint::AccessPlan::private_counters`]). Empty for a kernel without
/// atomic updates, one without a plan, and one whose threads share frame variables, which no
/// plan covers (as for `accsim check`'s proofs, [`proven_launch`]). A device that runs gangs
/// on several threads gives them to [`super::DeviceFork::count_privately`].
pub fn private_counters(cx: &super::device::DeviceCtx<'_, '_>, k: &KernelLaunch<'_>) -> Vec<crate::kernel::footprint::AtomicTarget> {
    let m: &Machine = cx.m;
    let Some(Ok(plan)) = m.exe.plans.get(&k.fid) else { return Vec::new() };
    if k.on_host || plan.atomics.is_empty() || m.exe.funcs.get(k.fid as usize).is_none_or(|f| f.shares_locals) {
        return Vec::new();
    }
    let explain = explain_proofs();
    match plan.private_counters(&LaunchView { m, k }, k.gangs) {
        Ok(targets) => {
            if explain && !targets.is_empty() {
                eprintln!("accsim: kernel at line {}: {} atomic counter block(s) counted per device thread", k.loc.line, targets.len());
            }
            targets
        }
        Err(why) => {
            if explain {
                eprintln!("accsim: kernel at line {}: atomic counters updated in place: {why}", k.loc.line);
            }
            Vec::new()
        }
    }
}

/// A launch's values, the pointers of [`implicit_pointer_data`] with their host values (not
/// the device copy an earlier kernel of the construct made), so that the sites through them
/// fall in their host allocations.
struct HostPointers<'a, 'm, 'e> {
    launch: LaunchView<'a, 'm, 'e>,
    /// (capture, host pointer value).
    pointers: Vec<(u32, u64)>,
}

impl crate::kernel::footprint::LaunchValues for HostPointers<'_, '_, '_> {
    fn arg(&self, cap: u32) -> Option<i64> {
        match self.pointers.iter().find(|p| p.0 == cap) {
            Some(&(_, v)) => Some(v as i64),
            None => self.launch.arg(cap),
        }
    }

    fn deref(&self, cap: u32, k: Kind) -> Option<i64> {
        match self.pointers.iter().find(|p| p.0 == cap) {
            Some(&(_, v)) => Some(v as i64),
            None => self.launch.deref(cap, k),
        }
    }

    fn block(&self, addr: u64) -> Option<(u64, u64, bool)> {
        self.launch.block(addr)
    }
}

/// A launch's values, as an access plan reads them.
struct LaunchView<'a, 'm, 'e> {
    m: &'a Machine<'e>,
    k: &'a KernelLaunch<'m>,
}

impl crate::kernel::footprint::LaunchValues for LaunchView<'_, '_, '_> {
    fn arg(&self, cap: u32) -> Option<i64> {
        let c = self.k.caps.get(cap as usize)?;
        matches!(c.mode, CaptureMode::Value | CaptureMode::Present).then(|| self.k.shared[cap as usize] as i64)
    }

    fn deref(&self, cap: u32, k: Kind) -> Option<i64> {
        let c = self.k.caps.get(cap as usize)?;
        let at = match c.mode {
            CaptureMode::Present => self.k.shared[cap as usize],
            CaptureMode::FirstPrivate if c.section.is_none() => c.host,
            _ => return None,
        };
        let v = match self.m.load_kind(k, at) {
            Ok(v) => v,
            // A device whose memory is its own (a GPU: the interpreter holds an empty
            // placeholder) is asked for the bytes, decoded as `load_kind` decodes them.
            Err(_) if c.mode == CaptureMode::Present && !self.k.on_host => {
                let w = self.m.device.peek_u64(&self.m.mem, at)?;
                match k {
                    Kind::Void | Kind::Aggregate => at,
                    _ => k.from_raw(w),
                }
            }
            Err(_) => return None,
        };
        // A gang's firstprivate copy of a pointer is translated to the device copy it names.
        if c.mode == CaptureMode::FirstPrivate && c.is_pointer && !self.k.on_host {
            return Some(translate_pointer(self.m, v).unwrap_or(v) as i64);
        }
        Some(v as i64)
    }

    fn block(&self, addr: u64) -> Option<(u64, u64, bool)> {
        let a = self.m.mem.allocation(AllocId((addr >> 32) as u32))?;
        if !a.live || a.space != Space::Device {
            return None;
        }
        let size = self.m.device.block_len(&self.m.mem, addr).unwrap_or(a.size());
        Some(((addr >> 32) << 32, size, !a.is_gang_private()))
    }
}
