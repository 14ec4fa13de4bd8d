//! The runtime library of chapter 3 (`acc_copyin`, `acc_malloc`, `acc_map_data`, `acc_wait`…)
//! as the interpreter and the native engine call it, with the argument checks that libgomp and
//! nvc stop at, and the start-up checks of the environment variables of chapter 4.

use super::*;

// ---------------------------------------------------------------- runtime library (chapter 3)

/// The routines of §3.2 (and the NVIDIA platform routines of §6.2.1).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AccFn {
    GetNumDevices,
    SetDeviceType,
    GetDeviceType,
    /// PGI 1.3 §3.2.3 `acc_get_device`: `acc_device_none` until a device type is selected.
    GetDevicePgi13,
    SetDeviceNum,
    GetDeviceNum,
    AsyncTest,
    AsyncTestAll,
    Wait,
    WaitAsync,
    WaitAll,
    WaitAllAsync,
    Init,
    Shutdown,
    OnDevice,
    Malloc,
    Free,
    CopyIn,
    PresentOrCopyIn,
    Create,
    PresentOrCreate,
    CopyOut,
    Delete,
    UpdateDevice,
    UpdateSelf,
    MapData,
    UnmapData,
    DevicePtr,
    HostPtr,
    IsPresent,
    MemcpyToDevice,
    MemcpyFromDevice,
    /// acc_get_current_cuda_device/context: no CUDA objects on the simulator.
    CudaNull,
    /// acc_get_cuda_stream: the device's native stream of a queue (0 on the simulator).
    CudaStream,
    SetCudaStream,
    /// Cray CCE's debug-output routines (the CCE man page, "CRAY_ACC_DEBUG Output Routines").
    CrayGetGlobalLevel,
    CraySetGlobalLevel,
    CrayGetThreadLevel,
    CraySetThreadLevel,
    CrayGetGlobalPrefix,
    CraySetGlobalPrefix,
    CrayGetThreadPrefix,
    CraySetThreadPrefix,
}

/// The runtime routines by name: the 2.0 name of each first, then the other names it has (the
/// 2.0 draft's, OpenACC 1.0's, abbreviations).
const ROUTINES: &[(&str, AccFn)] = {
    use AccFn::*;
    &[
        ("acc_get_num_devices", GetNumDevices),
        ("acc_set_device_type", SetDeviceType),
        ("acc_get_device_type", GetDeviceType),
        // PGI Accelerator 1.3 §3.2.2, §3.2.3 (accel.h): the 2.0 routines' earlier names.
        ("acc_set_device", SetDeviceType),
        ("acc_get_device", GetDevicePgi13),
        ("acc_set_device_num", SetDeviceNum),
        ("acc_get_device_num", GetDeviceNum),
        ("acc_async_test", AsyncTest),
        ("acc_async_test_all", AsyncTestAll),
        ("acc_wait", Wait),
        ("acc_async_wait", Wait),
        ("acc_wait_async", WaitAsync),
        ("acc_wait_all", WaitAll),
        ("acc_async_wait_all", WaitAll),
        ("acc_wait_all_async", WaitAllAsync),
        ("acc_init", Init),
        ("acc_shutdown", Shutdown),
        ("acc_on_device", OnDevice),
        ("acc_malloc", Malloc),
        ("acc_free", Free),
        ("acc_copyin", CopyIn),
        ("acc_present_or_copyin", PresentOrCopyIn),
        ("acc_pcopyin", PresentOrCopyIn),
        ("acc_create", Create),
        ("acc_present_or_create", PresentOrCreate),
        ("acc_pcreate", PresentOrCreate),
        ("acc_copyout", CopyOut),
        ("acc_delete", Delete),
        ("acc_update_device", UpdateDevice),
        ("acc_update_self", UpdateSelf),
        ("acc_update_local", UpdateSelf),
        ("acc_update_host", UpdateSelf),
        ("acc_map_data", MapData),
        ("acc_unmap_data", UnmapData),
        ("acc_deviceptr", DevicePtr),
        ("acc_hostptr", HostPtr),
        ("acc_is_present", IsPresent),
        ("acc_memcpy_to_device", MemcpyToDevice),
        ("acc_memcpy_from_device", MemcpyFromDevice),
        ("acc_get_current_cuda_device", CudaNull),
        ("acc_get_current_cuda_context", CudaNull),
        ("acc_get_cuda_stream", CudaStream),
        ("acc_set_cuda_stream", SetCudaStream),
        ("cray_acc_get_debug_global_level", CrayGetGlobalLevel),
        ("cray_acc_set_debug_global_level", CraySetGlobalLevel),
        ("cray_acc_get_debug_thread_level", CrayGetThreadLevel),
        ("cray_acc_set_debug_thread_level", CraySetThreadLevel),
        ("cray_acc_get_debug_global_prefix", CrayGetGlobalPrefix),
        ("cray_acc_set_debug_global_prefix", CraySetGlobalPrefix),
        ("cray_acc_get_debug_thread_prefix", CrayGetThreadPrefix),
        ("cray_acc_set_debug_thread_prefix", CraySetThreadPrefix),
    ]
};

/// The runtime routine called `name`, if it is one.
pub fn runtime_fn(name: &str) -> Option<AccFn> {
    ROUTINES.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)
}

/// The 2.0 name of routine `f`, for messages.
fn routine_name(f: AccFn) -> &'static str {
    ROUTINES.iter().find(|(_, g)| *g == f).map_or("an OpenACC runtime routine", |(n, _)| n)
}

/// OpenACC 2.0's acc_copyin and acc_create (§3.2.17, §3.2.19): "It is a runtime error to call
/// this routine if the data is already present on the device" (`--strict-2.0`; by default the
/// routine counts a reference, as OpenACC 2.5 does).
fn already_present_2_0(m: &Machine, r: &HostRange, routine: &str, loc: Loc) -> Result<(), Trap> {
    let Presence::Present(start) = m.acc.present.lookup(r.range.clone()) else { return Ok(()) };
    let section = if routine == "acc_copyin" { "§3.2.17" } else { "§3.2.19" };
    let mut d = Diagnostic::error(
        "present",
        format!("{routine} of `{}`, which is already present on the device: a runtime error in OpenACC 2.0 ({section}; --strict-2.0)", r.name),
        loc,
    );
    if let Some(e) = m.acc.present.get(start) {
        d = d.with_related(e.created_at, format!("`{}` was mapped here", e.name));
    }
    Err(Trap::error(d.with_help(format!("call acc_present_or_{} instead, or drop --strict-2.0 for OpenACC 2.5's reference counts", &routine[4..]))))
}

/// A wait for queue `on` (every queue when `None`) put on queue `waiter` (§3.2.9, §3.2.11);
/// `acc_async_sync` as the queue makes it the host's own wait (§2.13.1).
pub fn queue_wait(m: &mut Machine, on: Option<i64>, waiter: i64, loc: Loc) -> Result<(), Trap> {
    if waiter == ACC_ASYNC_SYNC {
        return wait_queues(m, on);
    }
    join_queues(m, waiter, on, loc)
}

/// `acc_on_device(t)` (§3.2.14) where `m` runs: true for `acc_device_host` on the host — outside
/// compute regions, and inside those that run on the host (`if(false)`, the host device) — and
/// false in device code; on the accelerator true for its own type, `acc_device_not_host` and
/// `acc_device_default` (the modeled device is the default one unless the host is selected).
/// Compute regions and `routine` functions call this at run time, so the answer follows where
/// the code actually runs (the CUDA emitter writes the device answer inline).
fn on_device(m: &Machine, t: u64) -> bool {
    if m.acc.device_thread {
        return t != ACC_DEVICE_HOST && t != ACC_DEVICE_NONE;
    }
    t == ACC_DEVICE_HOST || (m.acc.on_host && t == ACC_DEVICE_DEFAULT)
}

fn api_range(m: &Machine, h: u64, bytes: u64, what: &str, loc: Loc) -> HostRange {
    // The variable the call's first argument names (`acc_copyin(b, n)`: `b`), as a clause would
    // name it; the routine and its values when the argument is another expression.
    let name = match m.exe.api_names.get(&loc) {
        Some(var) => var.clone(),
        None => format!("{what}({h:#x}, {bytes})"),
    };
    HostRange { range: h..h.wrapping_add(bytes), var: name.clone(), name, loc }
}

/// Call runtime routine `f` with `args` (the C argument words).
pub fn call_runtime(m: &mut Machine, f: AccFn, args: &[u64], loc: Loc) -> Result<u64, Trap> {
    use AccFn::*;
    let a = |i: usize| args.get(i).copied().unwrap_or(0);
    let dev_type = |t: u64| t as u32 as u64;
    if m.acc.device_thread && f != AccFn::OnDevice {
        // Chapter 3's routines are host routines; only acc_on_device is meant for device code
        // (§3.2.14). A GPU has no device version of the others (nvc refuses them).
        return Err(err(
            "device-code",
            format!("{} called in device code: of the runtime routines only acc_on_device runs on the device (§3.2)", routine_name(f)),
            loc,
        ));
    }
    Ok(match f {
        GetNumDevices => match dev_type(a(0)) {
            ACC_DEVICE_NONE => 0,
            ACC_DEVICE_HOST => 1,
            _ => m.device.count(),
        },
        SetDeviceType => {
            let t = dev_type(a(0));
            if !matches!(t, ACC_DEVICE_DEFAULT | ACC_DEVICE_HOST | ACC_DEVICE_NOT_HOST | ACC_DEVICE_NVIDIA) {
                // "The argument must be one of the defined accelerator types" with a device.
                return Err(err("device", format!("acc_set_device_type({}): not a device type to run on (§3.2.2)", a(0) as i32), loc));
            }
            m.acc.on_host = t == ACC_DEVICE_HOST;
            m.acc.device_selected = true;
            0
        }
        // 1.3 §3.2.3: "If the device type has not yet been selected, the value acc_device_none
        // will be returned"; it is selected by acc_set_device, acc_init, the environment, or
        // the default behaviour of the program (its first accelerator region).
        GetDevicePgi13 if !m.acc.device_selected => ACC_DEVICE_NONE,
        GetDeviceType | GetDevicePgi13 => {
            if m.acc.on_host {
                ACC_DEVICE_HOST
            } else {
                ACC_DEVICE_NVIDIA
            }
        }
        SetDeviceNum => {
            // §3.2.4: "This routine may not be called within an accelerator parallel, kernels or
            // data region." (A function-scope `declare` and `host_data` are not such regions.)
            if m.acc.regions.iter().any(|r| r.function_depth.is_none() && !r.host_data) {
                return Err(err(
                    "device",
                    format!("acc_set_device_num({}) inside a data, parallel or kernels region: the device of its data cannot change (§3.2.4)", a(0) as i32),
                    loc,
                ));
            }
            let n = a(0) as i32;
            if n < 0 {
                return Err(err("device", format!("acc_set_device_num({n}): device numbers start at 0 (§3.2.4)"), loc));
            }
            if dev_type(a(1)) != ACC_DEVICE_HOST {
                if let Err(why) = m.device.set_device_num(n as u64) {
                    return Err(err("device", format!("acc_set_device_num({n}): {why} (§3.2.4)"), loc));
                }
            } else if n > 0 {
                // "greater than the value returned by acc_get_num_devices": implementation-defined.
                return Err(err("device", format!("acc_set_device_num({n}, acc_device_host): the host is one device, number 0 (§3.2.4)"), loc));
            }
            m.acc.device_num = n as u64;
            if dev_type(a(1)) == ACC_DEVICE_HOST {
                m.acc.on_host = true;
            } else if matches!(dev_type(a(1)), ACC_DEVICE_NVIDIA | ACC_DEVICE_NOT_HOST) {
                m.acc.on_host = false;
            }
            0
        }
        GetDeviceNum => m.acc.device_num,
        AsyncTest | AsyncTestAll => {
            let q = (f == AsyncTest).then_some(a(0) as i32 as i64);
            let idle = queue_idle(m, q);
            if idle {
                // A test that finds the queue idle orders its work before what follows (§3.2.11).
                emit(m, Event::Waited { queue: q, loc });
            } else {
                // The work is still running when tested, and goes on while the host polls: the
                // delayed work runs now, so that a later test finds it complete (§3.2.6: polling
                // until the test is nonzero is a wait). The host is not ordered after it until
                // then: no `Waited` here.
                start_delayed_work(m, q)?;
            }
            idle as u64
        }
        // acc_async_wait and acc_async_wait_all, declared without a prototype, are OpenACC 1.0's
        // acc_wait/acc_wait_all with one/no argument and the 2.0 document's queued forms with
        // two/one (openacc.h): the number of arguments passed decides.
        Wait if args.len() < 2 => {
            wait_queues(m, Some(a(0) as i32 as i64))?;
            0
        }
        Wait | WaitAsync => {
            queue_wait(m, Some(a(0) as i32 as i64), a(1) as i32 as i64, loc)?;
            0
        }
        WaitAll if args.is_empty() => {
            wait_queues(m, None)?;
            0
        }
        WaitAll | WaitAllAsync => {
            queue_wait(m, None, a(0) as i32 as i64, loc)?;
            0
        }
        Init => {
            m.acc.device_selected = true;
            0
        }
        Shutdown => 0,
        OnDevice => on_device(m, dev_type(a(0))) as u64,
        Malloc => {
            if a(0) == 0 {
                return Ok(0);
            }
            if m.acc.on_host {
                // The host device's memory is the host's (§3.2.15 on a shared-memory device).
                return m.mem.alloc(a(0), AllocKind::Runtime(ACC_MALLOC_BLOCK), Space::Host, loc).map_err(|f| m.fault(f, loc));
            }
            let device = m.device.clone();
            device.alloc(&mut m.device_ctx(), a(0), ACC_MALLOC_BLOCK, loc)?
        }
        Free => {
            acc_free(m, a(0), loc)?;
            0
        }
        CopyIn | PresentOrCopyIn | Create | PresentOrCreate => {
            let clause = match f {
                CopyIn => DataClause::CopyIn,
                PresentOrCopyIn => DataClause::PresentOrCopyIn,
                Create => DataClause::Create,
                _ => DataClause::PresentOrCreate,
            };
            let name = match f {
                CopyIn => "acc_copyin",
                PresentOrCopyIn => "acc_present_or_copyin",
                Create => "acc_create",
                _ => "acc_present_or_create",
            };
            let r = api_range(m, a(0), a(1), name, loc);
            if !data_arguments(name, a(0), a(1), loc)? {
                return Ok(0);
            }
            if m.acc.on_host {
                // "If the device shares memory with the caller, no action is taken" (§3.2.18):
                // the data is its own device copy.
                return Ok(a(0));
            }
            if m.acc.config.strict_2_0 && matches!(f, CopyIn | Create) {
                already_present_2_0(m, &r, name, loc)?;
            }
            map(m, clause, &r, DataLifetime::Dynamic)?;
            translate(m, a(0)).unwrap_or(0)
        }
        CopyOut | Delete => {
            let name = if f == CopyOut { "acc_copyout" } else { "acc_delete" };
            let r = api_range(m, a(0), a(1), name, loc);
            if data_arguments(name, a(0), a(1), loc)? && !m.acc.on_host {
                // The 2.0 routines are synchronous (§3.2.21, §3.2.22).
                let saved = m.acc.queue.take();
                let done = exit_data(m, &r, f == CopyOut, false);
                m.acc.queue = saved;
                done?;
            }
            0
        }
        UpdateDevice | UpdateSelf => {
            let name = if f == UpdateDevice { "acc_update_device" } else { "acc_update_self" };
            let r = api_range(m, a(0), a(1), name, loc);
            if data_arguments(name, a(0), a(1), loc)? && !m.acc.on_host {
                update(m, &r, f == UpdateDevice)?;
            }
            0
        }
        MapData => {
            let (h, d, n) = (a(0), a(1), a(2));
            let r = api_range(m, h, n, "acc_map_data", loc);
            if m.acc.on_host {
                shared_memory_map_data(h, d, n, loc)?;
                return Ok(0);
            }
            check_map_data(m, h, d, n, loc)?;
            let entry = PresentEntry {
                host: r.range.clone(),
                device_start: d,
                structured: 0,
                dynamic: 1,
                name: r.name,
                var: r.var,
                created_at: loc,
                user_mapped: true,
            };
            insert_entry(m, entry, loc)?;
            0
        }
        UnmapData => {
            // On the host device acc_map_data mapped nothing.
            if !m.acc.on_host {
                acc_unmap_data(m, a(0), loc)?;
            }
            0
        }
        DevicePtr => {
            if m.acc.on_host {
                a(0)
            } else {
                translate(m, a(0)).unwrap_or(0)
            }
        }
        HostPtr => {
            if m.acc.on_host {
                a(0)
            } else {
                let d = a(0);
                m.acc.present.containing_device(d).map(|e| e.host.start + (d - e.device_start)).unwrap_or(0)
            }
        }
        IsPresent => {
            if m.acc.on_host {
                1
            } else {
                let n = a(1).max(1);
                matches!(m.acc.present.lookup(a(0)..a(0) + n), Presence::Present(_)) as u64
            }
        }
        MemcpyToDevice | MemcpyFromDevice if m.acc.on_host => {
            // Both addresses are host memory on the host device: a plain copy.
            if a(2) != 0 {
                m.mem.copy(a(0), a(1), a(2)).map_err(|f| m.fault(f, loc))?;
            }
            0
        }
        MemcpyToDevice => {
            if memcpy_arguments(m, "acc_memcpy_to_device", (a(0), Space::Device), (a(1), Space::Host), a(2), loc)? {
                upload(m, a(0), a(1), a(2), None, loc)?;
            }
            0
        }
        MemcpyFromDevice => {
            if memcpy_arguments(m, "acc_memcpy_from_device", (a(0), Space::Host), (a(1), Space::Device), a(2), loc)? {
                download(m, a(0), a(1), a(2), None, loc)?;
            }
            0
        }
        CudaNull => 0,
        CudaStream => m.device.native_stream(a(0) as i32 as i64),
        SetCudaStream => 0,
        CrayGetGlobalLevel => m.acc.cray_debug.global_level() as i32 as i64 as u64,
        CrayGetThreadLevel => m.acc.cray_debug.thread_level() as i32 as i64 as u64,
        CraySetGlobalLevel => {
            m.acc.cray_debug.set_global_level(a(0) as u32 as i32 as i64);
            0
        }
        CraySetThreadLevel => {
            m.acc.cray_debug.set_thread_level(a(0) as u32 as i32 as i64);
            0
        }
        CraySetGlobalPrefix | CraySetThreadPrefix => {
            let prefix = m.mem.read_c_string(a(0), None).map_err(|fault| m.fault(fault, loc))?;
            let prefix = String::from_utf8_lossy(&prefix).into_owned();
            if f == CraySetGlobalPrefix {
                m.acc.cray_debug.set_global_prefix(prefix);
            } else {
                m.acc.cray_debug.set_thread_prefix(prefix);
            }
            0
        }
        CrayGetGlobalPrefix | CrayGetThreadPrefix => {
            // A new string the program owns (CCE's returns the runtime's; a copy is as good for
            // restoring the setting later, which is what the routines are for).
            let prefix = if f == CrayGetGlobalPrefix { m.acc.cray_debug.global_prefix() } else { m.acc.cray_debug.thread_prefix() };
            let mut bytes = prefix.into_bytes();
            bytes.push(0);
            let p = m
                .mem
                .alloc(bytes.len() as u64, AllocKind::Heap, Space::Host, loc)
                .map_err(|fault| m.fault(fault, loc))?;
            m.mem.write_bytes(p, &bytes).map_err(|fault| m.fault(fault, loc))?;
            p
        }
    })
}

// ---------------------------------------------------------------- argument checks of chapter 3

/// The arguments of a data routine (§3.2.17–§3.2.24: `acc_copyin`, `acc_present_or_copyin`,
/// `acc_create`, `acc_present_or_create`, `acc_copyout`, `acc_delete`, `acc_update_device`,
/// `acc_update_self`): whether there is data to act on.
///
/// OpenACC 2.0 says only that the arguments are "a pointer to the data and length in bytes", and
/// makes each routine equivalent to its directive (`enter data copyin(…)`, …). accsim decides:
/// - zero bytes name no data, as a zero-length subarray in the directive does: the routine does
///   nothing (and `acc_copyin`/`acc_create` return NULL), whatever the pointer. Later
///   specifications agree for a null pointer; libgomp (GCC 10–12) stops instead;
/// - a null pointer with a nonzero length points to no data: a runtime error (`bad-argument`),
///   as libgomp reports for the routines that start a lifetime (nvc faults).
///
/// Reviewed in session 6 (conformance/RESULTS.md, "Decisions"): 2.0 names no error for a zero
/// length, so the no-op stays.
fn data_arguments(routine: &str, h: u64, bytes: u64, loc: Loc) -> Result<bool, Trap> {
    if bytes == 0 {
        return Ok(false);
    }
    if h == 0 {
        return Err(Trap::error(
            Diagnostic::error("bad-argument", format!("{routine}(NULL, {bytes}): a null pointer is not host data (§3.2)"), loc)
                .with_help("allocate the data before mapping it, or pass a length of 0 to do nothing"),
        ));
    }
    Ok(true)
}

/// What made mapping `e`, for messages: a runtime routine call (`acc_copyin(0x…, 80)`) or a
/// data clause (`a[0:n]`).
fn mapped_by(e: &PresentEntry) -> String {
    if e.user_mapped {
        // The entry is named after its host data; the mapping is the program's own (§3.2.25).
        "`acc_map_data`".to_string()
    } else if e.name.starts_with("acc_") {
        format!("`{}`", e.name)
    } else {
        format!("the data clause `{}`", e.name)
    }
}

/// The entry whose device range overlaps `d..d + len`, if any.
fn entry_at_device<'m>(m: &'m Machine, d: u64, len: u64) -> Option<&'m PresentEntry> {
    let end = d.saturating_add(len.max(1));
    m.acc.present.entries().find(|e| e.device_start < end && d < e.device_start + e.len().max(1))
}

/// `acc_free(d)` (§3.2.16): `d` must be a block returned by `acc_malloc` (NULL does nothing, as
/// `free`), and no host data may still be mapped to it — libgomp refuses that too: the data
/// clauses and routines would go on using freed memory.
fn acc_free(m: &mut Machine, d: u64, loc: Loc) -> Result<(), Trap> {
    if d == 0 {
        return Ok(());
    }
    if let Some(e) = entry_at_device(m, d, 1) {
        let (by, at) = (mapped_by(e), e.created_at);
        return Err(Trap::error(
            Diagnostic::error("still-mapped", format!("acc_free({d:#x}): the device memory is still mapped to host data, by {by} (§3.2.16)"), loc)
                .with_related(at, "mapped here")
                .with_help("end the mapping first (acc_unmap_data, acc_delete, exit data) and free the memory after it"),
        ));
    }
    let id = AllocId((d >> 32) as u32);
    let block = m.mem.allocation(id).map(|a| (a.space, a.kind(), a.live, a.freed_at()));
    match block {
        Some((space, AllocKind::Runtime(ACC_MALLOC_BLOCK), live, freed_at)) if d as u32 == 0 => {
            if !live {
                let mut e = Diagnostic::error("double-free", format!("acc_free({d:#x}): the block was already freed (§3.2.16)"), loc);
                if let Some(at) = freed_at {
                    e = e.with_related(at, "freed here");
                }
                return Err(Trap::error(e));
            }
            // A block acc_malloc made on the host device is host memory.
            match space {
                Space::Device => device_free(m, d, loc),
                Space::Host => m.mem.release(id, loc),
            }
            Ok(())
        }
        _ => {
            let what = if block.is_some() { m.describe_alloc(id) } else { "no allocation".to_string() };
            Err(Trap::error(
                Diagnostic::error("bad-argument", format!("acc_free({d:#x}): not a block returned by acc_malloc (it points into {what}) (§3.2.16)"), loc)
                    .with_help("acc_free takes exactly what acc_malloc returned; data clause copies are freed by ending their lifetime"),
            ))
        }
    }
}

/// `acc_map_data` on the host device, which shares the host's memory: host data is its own device
/// data, so only `d == h` maps anything (and nothing needs doing); other device memory cannot
/// back host data there — libgomp stops too ("cannot map data on shared-memory system").
fn shared_memory_map_data(h: u64, d: u64, bytes: u64, loc: Loc) -> Result<(), Trap> {
    if d == h {
        return Ok(());
    }
    Err(Trap::error(
        Diagnostic::error(
            "bad-argument",
            format!("acc_map_data({h:#x}, {d:#x}, {bytes}): the host device shares the host's memory, so other memory cannot back host data (§3.2.25)"),
            loc,
        )
        .with_help("on the host device the data is its own device copy; skip acc_map_data when acc_get_device_type() is acc_device_host"),
    ))
}

/// `acc_map_data(h, d, bytes)` (§3.2.25): host data `h` must not be present ("an error"); a
/// device address already mapped is undefined behaviour in 2.0, which accsim reports, as libgomp
/// does; `d` must be live device memory holding `bytes` (from `acc_malloc`); null pointers and a
/// zero length map nothing that could be looked up, an error as in libgomp.
fn check_map_data(m: &Machine, h: u64, d: u64, bytes: u64, loc: Loc) -> Result<(), Trap> {
    let call = format!("acc_map_data({h:#x}, {d:#x}, {bytes})");
    let bad = |what: String| Trap::error(Diagnostic::error("bad-argument", format!("{call}: {what} (§3.2.25)"), loc));
    if h == 0 || d == 0 || bytes == 0 {
        let which = if bytes == 0 { "the length is 0" } else if h == 0 { "the host address is NULL" } else { "the device address is NULL" };
        return Err(bad(which.to_string()));
    }
    if let Presence::Present(s) | Presence::Partial(s) = m.acc.present.lookup(h..h.saturating_add(bytes)) {
        let (by, at) = m.acc.present.get(s).map(|e| (mapped_by(e), e.created_at)).unwrap_or_default();
        return Err(Trap::error(
            Diagnostic::error("already-mapped", format!("{call}: the host data is already present on the device, mapped by {by} (§3.2.25)"), loc)
                .with_related(at, "mapped here"),
        ));
    }
    if let Some(e) = entry_at_device(m, d, bytes) {
        return Err(Trap::error(
            Diagnostic::error("already-mapped", format!("{call}: the device memory is already mapped to host data, by {} (§3.2.25)", mapped_by(e)), loc)
                .with_related(e.created_at, "mapped here")
                .with_help("each device block backs one host block; acc_malloc another one"),
        ));
    }
    match m.mem.allocation(AllocId((d >> 32) as u32)) {
        Some(a) if a.space == Space::Device && a.live => {
            let size = m.device.block_len(&m.mem, d).unwrap_or(a.size());
            if (d & 0xffff_ffff).saturating_add(bytes) > size {
                return Err(bad(format!("the device block holds {size} bytes from its start")));
            }
        }
        Some(a) if a.space == Space::Device => return Err(bad("the device memory was freed".to_string())),
        _ => return Err(bad(format!("{d:#x} is not a device address (it points into {})", m.describe_alloc(AllocId((d >> 32) as u32))))),
    }
    Ok(())
}

/// `acc_unmap_data(h)` (§3.2.26): only a mapping made by `acc_map_data` may be unmapped, from its
/// start ("undefined behavior" otherwise in 2.0; libgomp stops, and so does accsim).
fn acc_unmap_data(m: &mut Machine, h: u64, loc: Loc) -> Result<(), Trap> {
    let call = format!("acc_unmap_data({h:#x})");
    let Some(e) = m.acc.present.containing(h) else {
        return Err(err("not-present", format!("{call}: no data is mapped there (§3.2.26)"), loc));
    };
    let (start, name, at) = (e.host.start, e.name.clone(), e.created_at);
    if !e.user_mapped {
        return Err(Trap::error(
            Diagnostic::error("not-map-data", format!("{call}: the data was mapped by {}, not by acc_map_data (§3.2.26)", mapped_by(e)), loc)
                .with_related(at, "mapped here")
                .with_help("end a data clause's or acc_copyin's lifetime with exit data or acc_delete"),
        ));
    }
    if start != h {
        return Err(Trap::error(
            Diagnostic::error("not-map-data", format!("{call}: the address is inside the mapping of `{name}`, which starts at {start:#x} (§3.2.26)"), loc)
                .with_related(at, format!("`{name}` was mapped here")),
        ));
    }
    remove_entry(m, start);
    Ok(())
}

/// The arguments of `acc_memcpy_to_device` / `acc_memcpy_from_device` (§3.2.30, §3.2.31): the
/// device side must be device memory ("the destination address must be a device address"), the
/// other host memory — the routines copy between the two memories, never within one, so
/// swapped or overlapping arguments are caught here. Zero bytes copy nothing; whether the bytes
/// lie inside their blocks is the copy's own bounds check.
fn memcpy_arguments(m: &Machine, routine: &str, dest: (u64, Space), src: (u64, Space), bytes: u64, loc: Loc) -> Result<bool, Trap> {
    if bytes == 0 {
        return Ok(false);
    }
    for ((p, want), role) in [(dest, "destination"), (src, "source")] {
        let space = m.mem.allocation(AllocId((p >> 32) as u32)).filter(|_| p != 0).map(|a| a.space);
        if space == Some(want) {
            continue;
        }
        let (wanted, hint) = match want {
            Space::Device => ("a device address", "such as acc_malloc or acc_deviceptr return"),
            Space::Host => ("a host address", "a pointer into the program's own memory"),
        };
        let is = if p == 0 { "NULL".to_string() } else { format!("{p:#x}, which points into {}", m.describe_alloc(AllocId((p >> 32) as u32))) };
        let section = if routine.ends_with("to_device") { "§3.2.30" } else { "§3.2.31" };
        return Err(Trap::error(
            Diagnostic::error("bad-argument", format!("{routine}: the {role} must be {wanted}, {hint}; it is {is} ({section})"), loc)
                .with_help("the arguments are (destination, source, bytes)"),
        ));
    }
    // A device copy made by a data clause or routine mirrors its host block's offsets, but only
    // the mapped bytes are device data: the copy must stay inside them.
    let device = if dest.1 == Space::Device { dest.0 } else { src.0 };
    let is_copy = m.mem.allocation(AllocId((device >> 32) as u32)).is_some_and(|a| a.kind() == AllocKind::Runtime(DEVICE_COPY));
    if is_copy {
        let inside = m.acc.present.containing_device(device).filter(|e| device.saturating_add(bytes) <= e.device_start + e.len());
        if inside.is_none() {
            let around = m.acc.present.containing_device(device).map(|e| format!(": the device copy of `{}` holds {} bytes from {:#x}", e.name, e.len(), e.device_start));
            let section = if routine.ends_with("to_device") { "§3.2.30" } else { "§3.2.31" };
            return Err(Trap::error(
                Diagnostic::error(
                    "bad-argument",
                    format!("{routine}: {bytes} bytes at device address {device:#x} are not all mapped device data{} ({section})", around.unwrap_or_default()),
                    loc,
                )
                .with_help("copy within the mapped bytes (acc_deviceptr of the mapped data)"),
            ));
        }
    }
    Ok(true)
}

/// The value of environment variable `name`, unless unset or blank.
pub(super) fn env_value(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

/// The device type the environment selects: `ACC_DEVICE_TYPE` (2.0 §4.1), else PGI Accelerator
/// 1.3's `ACC_DEVICE` (1.3 §4.1, same values), with the variable's name for messages.
pub(super) fn device_type_env() -> Option<(&'static str, String)> {
    env_value("ACC_DEVICE_TYPE").map(|v| ("ACC_DEVICE_TYPE", v)).or_else(|| env_value("ACC_DEVICE").map(|v| ("ACC_DEVICE", v)))
}

/// The device type an `ACC_DEVICE_TYPE` value names (§4.1: the values are
/// implementation-defined; accsim's are the acc_device_t names without the prefix, in any case).
pub(super) fn device_type_named(v: &str) -> Option<u64> {
    match v.trim().to_ascii_lowercase().as_str() {
        "host" => Some(ACC_DEVICE_HOST),
        "not_host" => Some(ACC_DEVICE_NOT_HOST),
        "nvidia" => Some(ACC_DEVICE_NVIDIA),
        "default" => Some(ACC_DEVICE_DEFAULT),
        _ => None,
    }
}

/// The device selection of the environment, checked as the program starts, before any device
/// work: an `ACC_DEVICE_TYPE` that names no device type (§4.1) and an `ACC_DEVICE_NUM` that is
/// not a number or is beyond the devices of the selected type (§4.2: "implementation-defined";
/// nvc and libgomp stop) are errors, not silently the default device.
fn check_environment(m: &Machine) -> Result<(), Trap> {
    let env_error = |msg: String, help: &str| {
        let mut d = Diagnostic::error("environment", msg, Loc::default()).with_help(help.to_string());
        d.primary = None;
        Trap::error(d)
    };
    if let Some((name, v)) = device_type_env() {
        if device_type_named(&v).is_none() {
            return Err(env_error(format!("{name}={v:?} is not a device type (§4.1)"), "accsim knows host, not_host, nvidia and default"));
        }
    }
    if let Some(v) = env_value("ACC_DEVICE_NUM") {
        let (count, kind) = if m.acc.on_host { (1, "host") } else { (m.device.count(), m.device.name()) };
        match v.trim().parse::<u64>() {
            Err(_) => return Err(env_error(format!("ACC_DEVICE_NUM={v:?} is not a device number (§4.2)"), "device numbers are nonnegative integers, from 0")),
            Ok(n) if n >= count => {
                let devices = if count == 1 { format!("one {kind} device, number 0") } else { format!("{count} {kind} devices, numbered 0 to {}", count - 1) };
                return Err(env_error(format!("ACC_DEVICE_NUM={n}: there is no such device (§4.2)"), &format!("there is {devices}")));
            }
            Ok(_) => {}
        }
    }
    Ok(())
}

/// Start the runtime: check the environment's device selection, then map the globals of
/// file-scope `declare` directives for the whole run.
pub fn startup(m: &mut Machine) -> Result<(), Trap> {
    check_environment(m)?;
    startup_declares(m)
}

/// Map the globals of file-scope `declare` directives for the whole run. `declare link(x)`
/// allocates nothing: `x`'s device copy is made by the data clause, compute construct or
/// `enter data` that names it, and lives as long as that data lifetime (§2.10.2).
fn startup_declares(m: &mut Machine) -> Result<(), Trap> {
    if m.acc.on_host {
        return Ok(());
    }
    let exe = m.exe;
    for (dc, ptr, size, name, var, loc) in &exe.declares {
        let r = HostRange { range: *ptr..*ptr + *size, name: name.clone(), var: var.clone(), loc: *loc };
        let clause = match dc {
            DataClause::Link => continue,
            DataClause::CopyOut | DataClause::PresentOrCopyOut | DataClause::DeviceResident => DataClause::Create,
            c => *c,
        };
        map(m, clause, &r, DataLifetime::Dynamic)?;
    }
    Ok(())
}
