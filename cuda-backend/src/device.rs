//! `CudaDevice`: core's [`Device`] on a real NVIDIA GPU (DESIGN.md, "Real GPU").
//!
//! # Model
//!
//! - **Memory.** Device memory is named, as on every device, by pointer words of the engine's
//!   allocation table: each allocation the engine asks for is an empty [`Space::Device`]
//!   placeholder (so the present table, §2.6, and messages stay in core), and a CUDA buffer of
//!   the requested size lives beside it. A pointer word `(id, offset)` of a placeholder
//!   translates to `buffer(id) + offset`; the translation is applied to kernel arguments, to the
//!   pointers that [`Device::write_pointer`] stores (attaching `a[i]` rows), and to the
//!   addresses of copies. Pointer values inside copied bytes are not translated: host pointers
//!   uploaded in a struct stay host pointers, as with every OpenACC implementation. A device
//!   address that host code took (`acc_deviceptr`, `host_data use_device`) is a pointer word too;
//!   where device code makes a pointer of an integer, the kernel looks the word up in the table
//!   of live blocks that the launch writes into the module ([`emit::Module::device_addresses`]).
//!   An `acc_malloc` block's placeholder has the block's size, so that host code storing into it
//!   (a bug `check` reports, §3.2.15) runs on as on the simulator; the GPU does not see those
//!   bytes.
//! - **Kernels.** [`crate::emit`] turns every compute region of the validated program into a
//!   CUDA C kernel; NVRTC compiles the whole module once per program, for the GPU's compute
//!   capability, and the PTX is cached on disk keyed by a hash of the source, the architecture
//!   and the NVRTC version ([`ptx_cache_dir`]), so a second run compiles nothing. A launch is
//!   `grid = num_gangs`, `block = (vector_length, num_workers)`, or the shape of the `--loop-map`
//!   that the kernel's loop nest takes ([`crate::loopmap`]). A launch whose workers × lanes
//!   exceed a block (`num_workers(100) vector_length(32)`) runs with the rows of workers the
//!   block holds, whose loops take the excess workers' iterations ([`crate::emit::Module::block_fit`]).
//! - **Private copies and reductions** (§2.5.9–§2.5.11). A per-gang capture (`private`,
//!   `firstprivate`, a `reduction` of the construct) is one contiguous buffer of one copy per
//!   gang, which the emitted kernel indexes by `blockIdx.x`: firstprivate copies start as the
//!   host value (pointers translated), reduction copies as the operator's identity. The kernel
//!   combines its threads' partial results into its gang's copy; after the kernel the copies are
//!   combined gang by gang, in gang order, into the variable (its device copy when mapped,
//!   else the host variable), as the simulator does.
//! - **Globals** that device code reaches without a capture (`declare`) are `__device__`
//!   variables of the module: before each launch they are filled from the global's device copy
//!   (or host value when it has none), and the device copy is refreshed after it.
//! - **Queues** (§2.13). Work of `async(n)` goes to a CUDA stream of its own, created on first
//!   use with the blocking flag, so synchronous work (on the legacy default stream) is ordered
//!   after it; [`Device::wait`] synchronises the stream, [`Device::queue_idle`] queries it and
//!   `acc_get_cuda_stream` returns it. Synchronous launches are waited for before the host goes
//!   on, so that a failing kernel is reported at its own construct. Copies to the host are
//!   synchronous (the interpreter reads the bytes next); launches with a reduction wait for their
//!   kernel (the combine runs on the host).
//!
//! # Limits
//!
//! Device `printf` goes to the process's standard output (flushed when a kernel is waited
//! for), not to a captured stream. Pointer values that device code stores into memory are GPU
//! addresses: a program that copies such a pointer back and compares it with a host-side
//! pointer sees a different value than on the simulator.

use std::collections::HashMap;
use std::ffi::{c_void, CString};
use std::path::PathBuf;
use std::sync::Mutex;

use accsim_core::diag::{Diagnostic, Loc};
use accsim_core::exec::device::{Device, DeviceCtx, KernelLaunch, ACC_MALLOC_BLOCK};
use accsim_core::exec::memory::{AllocId, AllocKind, Memory, Space};
use accsim_core::exec::gang::{self, GangCopy};
use accsim_core::exec::{Executable, Trap};
use accsim_core::ir::acc::CaptureMode;
use accsim_core::ir::Program;
use cudarc::driver::sys;

use crate::emit::{self, EmitError};
use crate::loopmap::LoopMap;
use crate::probe::{self, CudaError};

/// Why the GPU device could not be set up for a program.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error("{0}")]
    Cuda(#[from] CudaError),
    /// A compute region uses a form the CUDA back-end does not translate.
    #[error(transparent)]
    Unsupported(#[from] EmitError),
    /// NVRTC rejected the generated CUDA C: a bug in accsim's emitter.
    #[error("internal error: NVRTC does not compile the generated CUDA C:\n{0}")]
    Compile(String),
    /// The `--loop-map` asked for fits no compute region of the program: one error per region.
    #[error("the loop mapping fits no compute region")]
    LoopMap(Vec<Diagnostic>),
}

/// One GPU buffer beside an engine placeholder.
#[derive(Clone, Copy)]
struct Buffer {
    ptr: sys::CUdeviceptr,
    len: u64,
}

/// Everything that holds CUDA handles.
struct State {
    ordinal: u64,
    device: sys::CUdevice,
    ctx: sys::CUcontext,
    module: sys::CUmodule,
    functions: HashMap<u32, sys::CUfunction>,
    /// GPU buffers by the engine's placeholder allocation id.
    buffers: HashMap<u32, Buffer>,
    /// One stream per activity queue.
    streams: HashMap<i64, sys::CUstream>,
    /// Host bytes of asynchronous uploads, kept until their stream is synchronised.
    staging: HashMap<i64, Vec<Vec<u8>>>,
    /// The construct of the last launch on each queue, for errors found when waiting.
    last_launch: HashMap<i64, Loc>,
    /// `__device__` copies of globals: (global id, symbol address, size).
    globals: Vec<(u32, sys::CUdeviceptr, u64)>,
    /// The module's `accsim_blocks` and `accsim_block_count` (emit::Module::device_addresses).
    block_table: Option<(sys::CUdeviceptr, sys::CUdeviceptr)>,
}

// SAFETY: the CUDA driver API is thread-safe; the handles in `State` (context, module, functions,
// streams, device pointers) are plain identifiers valid in any thread once the context is made
// current there, which every entry point does (`State::enter`). The state is only reached through
// the `Mutex` of `CudaDevice`.
unsafe impl Send for State {}

/// The GPU behind `accsim run --device cuda`.
pub struct CudaDevice {
    state: Mutex<State>,
    /// The program's module: source and globals (for re-loading on another GPU).
    module: emit::Module,
    /// Kernel names by function index.
    names: HashMap<u32, String>,
    /// Number of CUDA devices.
    count: u64,
    /// Whether the PTX came from the cache (for tests and `--notify`).
    pub ptx_from_cache: bool,
    /// A description of the GPU (name, capability, memory).
    pub description: String,
    /// Warnings of the `--loop-map`: the compute regions it does not fit.
    pub loop_map_warnings: Vec<Diagnostic>,
}

fn driver_err(call: &'static str) -> impl Fn(sys::CUresult) -> CudaError {
    move |r| CudaError::Driver { call, message: describe(r) }
}

fn describe(r: sys::CUresult) -> String {
    let e = cudarc::driver::result::DriverError(r);
    match (e.error_name(), e.error_string()) {
        (Ok(n), Ok(s)) => format!("{} ({})", s.to_string_lossy(), n.to_string_lossy()),
        _ => format!("{r:?}"),
    }
}

fn check(r: sys::CUresult) -> Result<(), sys::CUresult> {
    if r == sys::CUresult::CUDA_SUCCESS {
        Ok(())
    } else {
        Err(r)
    }
}

/// Where compiled PTX is cached: `$ACCSIM_PTX_CACHE`, else `$XDG_CACHE_HOME/accsim/ptx`, else
/// `~/.cache/accsim/ptx`.
pub fn ptx_cache_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("ACCSIM_PTX_CACHE") {
        return Some(PathBuf::from(d));
    }
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME") {
        return Some(PathBuf::from(d).join("accsim/ptx"));
    }
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/accsim/ptx"))
}

/// A stable 128-bit FNV-1a hash (two 64-bit lanes with different offsets), as hex: the cache key.
pub fn source_key(parts: &[&str]) -> String {
    let mut a: u64 = 0xcbf2_9ce4_8422_2325;
    let mut b: u64 = 0x6c62_272e_07bb_0142;
    for p in parts {
        for &byte in p.as_bytes().iter().chain([0u8].iter()) {
            a = (a ^ byte as u64).wrapping_mul(0x0000_0100_0000_01b3);
            b = (b ^ byte as u64).wrapping_mul(0x0000_0100_0000_01b3).rotate_left(5);
        }
    }
    format!("{a:016x}{b:016x}")
}

/// The environment variable of the GPU fault-injection tests (cuda-backend/tests/
/// fault-injection.sh): `nvrtc` makes the generated CUDA C fail to compile (accsim's fault:
/// exit 101); `nvrtc-env` makes NVRTC itself fail as when it runs out of memory (the
/// environment's: exit 5); `oom` makes every device allocation fail as on a full GPU (exit 4).
pub const INJECT_FAULT_ENV: &str = "ACCSIM_CUDA_INJECT_FAULT";

/// Whether fault `name` is injected ([`INJECT_FAULT_ENV`]).
fn injected(name: &str) -> bool {
    std::env::var(INJECT_FAULT_ENV).is_ok_and(|v| v == name)
}

/// The CUDA C to compile: the module's, or with [`INJECT_FAULT_ENV`]`=nvrtc` the same with a line
/// NVRTC rejects appended, so that the tests see how an NVRTC failure is reported (issue 14).
fn injected_source(source: &str) -> std::borrow::Cow<'_, str> {
    match std::env::var(INJECT_FAULT_ENV).as_deref() {
        Ok("nvrtc") => format!("{source}\n#error \"fault injected by {INJECT_FAULT_ENV}=nvrtc\"\n").into(),
        // A source of its own, so that NVRTC runs (no PTX from the cache).
        Ok("nvrtc-env") => format!("{source}\n// {INJECT_FAULT_ENV}=nvrtc-env\n").into(),
        _ => source.into(),
    }
}

/// The device heap of a module whose code allocates variable-length arrays ([`emit::Module::device_heap`]).
const DEVICE_HEAP_BYTES: usize = 1 << 30;

/// NVRTC's options besides the architecture. `--fmad=false`: C evaluates `a * b + c` with two
/// roundings unless `#pragma STDC FP_CONTRACT ON` allows a fused multiply-add (C11 §6.5p8,
/// §7.12.2; gcc does not contract on x86-64 without an FMA target), and so does the simulator;
/// NVRTC contracts by default, which made race-free programs differ from the simulator in the
/// last bits (`vla_param_whole.c`) and `validate` compare unlike with unlike. Division and
/// square root are IEEE-rounded by NVRTC's defaults (`--prec-div`, `--prec-sqrt`).
const NVRTC_OPTIONS: [&str; 2] = ["--std=c++17", "--fmad=false"];

/// Compile `source` for `arch` (`compute_90`) with NVRTC and [`NVRTC_OPTIONS`].
fn nvrtc_compile(source: &str, arch: &str) -> Result<Vec<u8>, OpenError> {
    use cudarc::nvrtc::result as nv;
    let nv_err = |call: &'static str| move |e: cudarc::nvrtc::result::NvrtcError| OpenError::Cuda(CudaError::Nvrtc { call, message: format!("{e:?}") });
    let src = CString::new(source).map_err(|_| OpenError::Compile("the generated source contains a NUL byte".into()))?;
    let prog = nv::create_program(&src, Some(c"accsim.cu")).map_err(nv_err("nvrtcCreateProgram"))?;
    let opts: Vec<String> = std::iter::once(format!("--gpu-architecture={arch}")).chain(NVRTC_OPTIONS.iter().map(|o| o.to_string())).collect();
    // SAFETY: `prog` was just created and is destroyed below, after its last use; `src` outlives it.
    let compiled = unsafe { nv::compile_program(prog, &opts) };
    let compiled = if injected("nvrtc-env") { Err(cudarc::nvrtc::result::NvrtcError(cudarc::nvrtc::sys::nvrtcResult::NVRTC_ERROR_OUT_OF_MEMORY)) } else { compiled };
    let result = match compiled {
        Ok(()) => {
            // SAFETY: as above; the program compiled.
            unsafe { nv::get_ptx(prog) }.map(|v| v.into_iter().map(|c| c as u8).collect::<Vec<u8>>()).map_err(nv_err("nvrtcGetPTX"))
        }
        // NVRTC itself failed (out of memory, a broken installation): the environment's
        // failure, not a rejection of the code.
        Err(e) if e.0 != cudarc::nvrtc::sys::nvrtcResult::NVRTC_ERROR_COMPILATION => Err(nv_err("nvrtcCompileProgram")(e)),
        Err(_) => {
            // SAFETY: as above.
            let log = unsafe { nv::get_program_log(prog) }.map(|v| v.into_iter().map(|c| c as u8).take_while(|&c| c != 0).collect::<Vec<u8>>()).unwrap_or_default();
            Err(OpenError::Compile(String::from_utf8_lossy(&log).into_owned()))
        }
    };
    // SAFETY: `prog` is live and not used after this.
    let _ = unsafe { nv::destroy_program(prog) };
    result
}

impl CudaDevice {
    /// Set up GPU `ordinal` for program `p`: probe the driver, emit the CUDA C under loop mapping
    /// `map` ([`crate::loopmap`]; `kernel_maps` for the kernels with one of their own, OpenUH
    /// nests), compile it (or take it from the PTX cache), load it. Never panics on a machine
    /// without CUDA.
    pub fn new(p: &Program, program_info: &accsim_core::kernel::ProgramInfo, ordinal: u64, map: LoopMap, kernel_maps: std::collections::BTreeMap<u32, LoopMap>) -> Result<CudaDevice, OpenError> {
        let info = probe::probe()?;
        if ordinal >= info.device_count as u64 {
            return Err(OpenError::Cuda(CudaError::Driver {
                call: "cuDeviceGet",
                message: format!("there is no GPU number {ordinal}: the driver reports {} device(s) (ACC_DEVICE_NUM)", info.device_count),
            }));
        }
        let module = emit::module_mapped_by_kernel(p, program_info, map, kernel_maps)?;
        let loop_map_warnings = crate::loopmap::report(map, &module).map_err(OpenError::LoopMap)?;
        let names = p.kernels.iter().filter_map(|k| emit::function_name(p, k.func).map(|n| (k.func.0, n))).collect();
        let (state, from_cache, description) = State::open(ordinal, &module)?;
        Ok(CudaDevice {
            state: Mutex::new(state),
            module,
            names,
            count: info.device_count as u64,
            ptx_from_cache: from_cache,
            description,
            loop_map_warnings,
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic while holding the lock cannot leave CUDA handles half-made: recover the state.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl State {
    fn open(ordinal: u64, module: &emit::Module) -> Result<(State, bool, String), OpenError> {
        let mut device: sys::CUdevice = 0;
        // SAFETY: `device` is a valid out-pointer; `probe` initialised the driver.
        check(unsafe { sys::cuDeviceGet(&mut device, ordinal as i32) }).map_err(driver_err("cuDeviceGet"))?;
        let mut ctx: sys::CUcontext = std::ptr::null_mut();
        // SAFETY: `device` is a valid device handle; `ctx` a valid out-pointer.
        check(unsafe { sys::cuDevicePrimaryCtxRetain(&mut ctx, device) }).map_err(driver_err("cuDevicePrimaryCtxRetain"))?;
        // SAFETY: `ctx` was just retained.
        check(unsafe { sys::cuCtxSetCurrent(ctx) }).map_err(driver_err("cuCtxSetCurrent"))?;
        let attr = |a| {
            let mut v = 0i32;
            // SAFETY: valid device and out-pointer.
            check(unsafe { sys::cuDeviceGetAttribute(&mut v, a, device) }).map(|_| v).map_err(driver_err("cuDeviceGetAttribute"))
        };
        let major = attr(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?;
        let minor = attr(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?;
        let name = cudarc::driver::result::device::get_name(device).unwrap_or_default();
        let arch = format!("compute_{major}{minor}");
        let mut nv = (0i32, 0i32);
        // SAFETY: valid out-pointers.
        let _ = unsafe { cudarc::nvrtc::sys::nvrtcVersion(&mut nv.0, &mut nv.1) };
        let source = injected_source(&module.source);
        let key = source_key(&[&source, &arch, &format!("nvrtc {}.{}", nv.0, nv.1), &NVRTC_OPTIONS.join(" ")]);
        let cached = ptx_cache_dir().map(|d| d.join(format!("{key}.ptx")));
        let (mut ptx, from_cache) = match cached.as_ref().and_then(|f| std::fs::read(f).ok()) {
            Some(bytes) => (bytes, true),
            None => {
                let bytes = nvrtc_compile(&source, &arch)?;
                if let Some(f) = &cached {
                    // The cache is an optimisation: a read-only home only costs a compile.
                    if let Some(dir) = f.parent() {
                        let _ = std::fs::create_dir_all(dir);
                    }
                    let tmp = f.with_extension(format!("tmp{}", std::process::id()));
                    if std::fs::write(&tmp, &bytes).is_ok() {
                        let _ = std::fs::rename(&tmp, f);
                    }
                }
                (bytes, false)
            }
        };
        if ptx.last() != Some(&0) {
            ptx.push(0);
        }
        if module.device_heap {
            // Private copies of variable-length arrays come from the device heap, one per
            // thread: CUDA's 8 MB default holds few of them at a launch of many threads.
            // SAFETY: the context is current; the limit is set before any launch.
            check(unsafe { sys::cuCtxSetLimit(sys::CUlimit::CU_LIMIT_MALLOC_HEAP_SIZE, DEVICE_HEAP_BYTES) }).map_err(driver_err("cuCtxSetLimit"))?;
        }
        let mut m: sys::CUmodule = std::ptr::null_mut();
        // SAFETY: `ptx` is a NUL-terminated PTX image that lives across the call.
        check(unsafe { sys::cuModuleLoadData(&mut m, ptx.as_ptr() as *const c_void) }).map_err(driver_err("cuModuleLoadData"))?;
        let mut globals = Vec::new();
        for (g, sym) in &module.globals {
            let c = CString::new(sym.as_str()).unwrap_or_default();
            let (mut ptr, mut size) = (0 as sys::CUdeviceptr, 0usize);
            // SAFETY: `m` was just loaded; `c` is NUL-terminated; valid out-pointers.
            check(unsafe { sys::cuModuleGetGlobal_v2(&mut ptr, &mut size, m, c.as_ptr()) }).map_err(driver_err("cuModuleGetGlobal"))?;
            globals.push((g.0, ptr, size as u64));
        }
        let symbol = |name: &std::ffi::CStr| {
            let (mut ptr, mut size) = (0 as sys::CUdeviceptr, 0usize);
            // SAFETY: `m` was just loaded; `name` is NUL-terminated; valid out-pointers.
            check(unsafe { sys::cuModuleGetGlobal_v2(&mut ptr, &mut size, m, name.as_ptr()) }).map(|_| ptr).map_err(driver_err("cuModuleGetGlobal"))
        };
        let block_table = if module.device_addresses { Some((symbol(c"accsim_blocks")?, symbol(c"accsim_block_count")?)) } else { None };
        let description = format!("{name} (compute capability {major}.{minor}), GPU {ordinal}");
        let st = State {
            ordinal,
            device,
            ctx,
            module: m,
            functions: HashMap::new(),
            buffers: HashMap::new(),
            streams: HashMap::new(),
            staging: HashMap::new(),
            last_launch: HashMap::new(),
            globals,
            block_table,
        };
        Ok((st, from_cache, description))
    }

    /// Make the context current on the calling thread (the interpreter thread of each run).
    fn enter(&self) -> Result<(), sys::CUresult> {
        // SAFETY: `ctx` is a retained primary context, live as long as `self`.
        check(unsafe { sys::cuCtxSetCurrent(self.ctx) })
    }

    /// The GPU address of pointer word `w`, if `w` points into a device buffer.
    fn gpu(&self, w: u64) -> Option<sys::CUdeviceptr> {
        let b = self.buffers.get(&((w >> 32) as u32))?;
        let off = w & 0xffff_ffff;
        (off <= b.len).then_some(b.ptr + off)
    }

    fn stream(&mut self, q: Option<i64>) -> Result<sys::CUstream, sys::CUresult> {
        let Some(q) = q else { return Ok(std::ptr::null_mut()) };
        if let Some(s) = self.streams.get(&q) {
            return Ok(*s);
        }
        let mut s: sys::CUstream = std::ptr::null_mut();
        // SAFETY: valid out-pointer; the context is current. CU_STREAM_DEFAULT (0): the stream
        // synchronises with the legacy default stream, which synchronous work uses.
        check(unsafe { sys::cuStreamCreate(&mut s, 0) })?;
        self.streams.insert(q, s);
        Ok(s)
    }

    fn function(&mut self, fid: u32, name: &str) -> Result<sys::CUfunction, sys::CUresult> {
        if let Some(f) = self.functions.get(&fid) {
            return Ok(*f);
        }
        let c = CString::new(name).map_err(|_| sys::CUresult::CUDA_ERROR_INVALID_VALUE)?;
        let mut f: sys::CUfunction = std::ptr::null_mut();
        // SAFETY: the module is loaded; `c` is NUL-terminated.
        check(unsafe { sys::cuModuleGetFunction(&mut f, self.module, c.as_ptr()) })?;
        self.functions.insert(fid, f);
        Ok(f)
    }

    fn htod(&self, dst: sys::CUdeviceptr, src: &[u8]) -> Result<(), sys::CUresult> {
        if src.is_empty() {
            return Ok(());
        }
        // SAFETY: `dst` points into a live buffer with at least `src.len()` bytes (callers check
        // through `gpu` and the engine's bounds); `src` is valid for reads.
        check(unsafe { sys::cuMemcpyHtoD_v2(dst, src.as_ptr() as *const c_void, src.len()) })
    }

    fn dtoh(&self, dst: &mut [u8], src: sys::CUdeviceptr) -> Result<(), sys::CUresult> {
        if dst.is_empty() {
            return Ok(());
        }
        // SAFETY: `src` points into a live buffer with at least `dst.len()` bytes; `dst` is
        // valid for writes.
        check(unsafe { sys::cuMemcpyDtoH_v2(dst.as_mut_ptr() as *mut c_void, src, dst.len()) })
    }

    fn sync_all(&mut self) -> Result<(), sys::CUresult> {
        // SAFETY: the context is current.
        let r = check(unsafe { sys::cuCtxSynchronize() });
        self.staging.clear();
        r
    }
}

impl Drop for State {
    fn drop(&mut self) {
        if self.enter().is_err() {
            return;
        }
        // SAFETY: every handle below was created in this context and is released once.
        unsafe {
            let _ = sys::cuCtxSynchronize();
            for b in self.buffers.values() {
                let _ = sys::cuMemFree_v2(b.ptr);
            }
            for s in self.streams.values() {
                let _ = sys::cuStreamDestroy_v2(*s);
            }
            let _ = sys::cuModuleUnload(self.module);
            let _ = sys::cuDevicePrimaryCtxRelease_v2(self.device);
        }
    }
}

/// A driver failure during the program, reported at the construct or transfer that caused it.
fn gpu_error(what: &str, r: sys::CUresult, loc: Loc) -> Trap {
    Trap::error(Diagnostic::error("gpu", format!("{what} failed on the GPU: {}", describe(r)), loc))
}

/// The `staging` key of synchronous work (the legacy stream); no activity queue has it (`async`
/// without an argument is -1, `acc_async_sync` -2 and `acc_async_noval` -1).
const SYNC_QUEUE: i64 = i64::MIN;

/// A per-gang buffer made for one launch.
struct GangBuffer {
    ptr: sys::CUdeviceptr,
    /// For a private/firstprivate subarray: the blocks the pointer cells aim into.
    blocks: Option<sys::CUdeviceptr>,
}

impl Device for CudaDevice {
    fn name(&self) -> &'static str {
        "cuda"
    }

    fn count(&self) -> u64 {
        self.count
    }

    fn peek_u64(&self, _mem: &Memory, dev: u64) -> Option<u64> {
        let mut st = self.lock();
        st.enter().ok()?;
        // Queued work may still write it.
        st.sync_all().ok()?;
        let at = st.gpu(dev)?;
        // Only the bytes the block holds: the device copy of an `int` is a 4-byte buffer, and
        // the driver refuses a copy that runs past its allocation (the access plan of a
        // `kernels` construct then could not read `n` of `for (i = 0; i < n; i++)` and made no
        // implicit copy of the pointers' targets). The rest reads as zero, as `load_kind`
        // decodes only the low bytes of the kind.
        let b = st.buffers.get(&((dev >> 32) as u32))?;
        let avail = b.len.saturating_sub(dev & 0xffff_ffff).min(8) as usize;
        let mut w = [0u8; 8];
        if avail > 0 {
            st.dtoh(&mut w[..avail], at).ok()?;
        }
        Some(u64::from_le_bytes(w))
    }

    fn block_len(&self, _mem: &Memory, dev: u64) -> Option<u64> {
        self.lock().buffers.get(&((dev >> 32) as u32)).map(|b| b.len)
    }

    fn alloc(&self, cx: &mut DeviceCtx<'_, '_>, len: u64, what: &'static str, loc: Loc) -> Result<u64, Trap> {
        let mut st = self.lock();
        st.enter().map_err(|r| gpu_error("making the CUDA context current", r, loc))?;
        // An empty placeholder: the bytes live on the GPU. An `acc_malloc` block gets a
        // placeholder of its size: host code that stores into it or copies from it (a bug that
        // `check` reports, §3.2.15: the host cannot address device memory) then runs on as on
        // the simulator, whose device memory the host can reach, instead of stopping at the
        // placeholder's end. Those host accesses see the placeholder's bytes, not the GPU's.
        let shadow = if what == ACC_MALLOC_BLOCK { len } else { 0 };
        let word = cx.mem_mut().alloc(shadow, AllocKind::Runtime(what), Space::Device, loc).map_err(|f| cx.fault(f, loc))?;
        let mut ptr: sys::CUdeviceptr = 0;
        // SAFETY: valid out-pointer; the context is current.
        let r = check(unsafe { sys::cuMemAlloc_v2(&mut ptr, len.max(1) as usize) });
        let r = if injected("oom") && r.is_ok() {
            // SAFETY: `ptr` was just allocated and is not used after this.
            let _ = unsafe { sys::cuMemFree_v2(ptr) };
            Err(sys::CUresult::CUDA_ERROR_OUT_OF_MEMORY)
        } else {
            r
        };
        if let Err(r) = r {
            cx.mem_mut().release(AllocId((word >> 32) as u32), loc);
            if r == sys::CUresult::CUDA_ERROR_OUT_OF_MEMORY {
                // A full GPU is a limit of the machine (exit 4), not an error of the program.
                return Err(Trap::limit(
                    Diagnostic::error("gpu memory", format!("the GPU's memory is full: allocating {len} bytes of device memory ({what}): {}", describe(r)), loc)
                        .with_help("free device data the program no longer needs (`exit data delete`, `acc_free`), or run a smaller problem"),
                ));
            }
            return Err(gpu_error(&format!("allocating {len} bytes of device memory ({what})"), r, loc));
        }
        // SAFETY: `ptr` was just allocated with at least `len` bytes.
        let zeroed = check(unsafe { sys::cuMemsetD8_v2(ptr, 0, len as usize) });
        st.buffers.insert((word >> 32) as u32, Buffer { ptr, len });
        zeroed.map_err(|r| gpu_error("clearing device memory", r, loc))?;
        Ok(word)
    }

    fn free(&self, cx: &mut DeviceCtx<'_, '_>, dev: u64, loc: Loc) {
        let mut st = self.lock();
        let id = (dev >> 32) as u32;
        if let Some(b) = st.buffers.remove(&id) {
            if st.enter().is_ok() {
                // Queued kernels may still use the buffer.
                let _ = st.sync_all();
                // SAFETY: `b.ptr` was allocated by `cuMemAlloc` and is freed once (removed above).
                let _ = unsafe { sys::cuMemFree_v2(b.ptr) };
            }
        }
        cx.mem_mut().release(AllocId(id), loc);
    }

    fn upload(&self, cx: &mut DeviceCtx<'_, '_>, dev: u64, host: u64, len: u64, loc: Loc) -> Result<(), Trap> {
        let bytes = cx.mem().read_bytes(host, len).map_err(|f| cx.fault(f, loc))?.into_owned();
        let queue = cx.queue();
        let mut st = self.lock();
        st.enter().map_err(|r| gpu_error("making the CUDA context current", r, loc))?;
        let dst = self.checked(&st, dev, len, cx.mem(), loc)?;
        match queue {
            Some(q) => {
                let s = st.stream(Some(q)).map_err(|r| gpu_error("creating a stream", r, loc))?;
                // SAFETY: `dst` has `len` bytes (checked); `bytes` stays alive in `staging` until
                // the stream is synchronised.
                check(unsafe { sys::cuMemcpyHtoDAsync_v2(dst, bytes.as_ptr() as *const c_void, bytes.len(), s) }).map_err(|r| gpu_error("copying to the device", r, loc))?;
                st.staging.entry(q).or_default().push(bytes);
                Ok(())
            }
            None => st.htod(dst, &bytes).map_err(|r| gpu_error("copying to the device", r, loc)),
        }
    }

    fn download(&self, cx: &mut DeviceCtx<'_, '_>, host: u64, dev: u64, len: u64, loc: Loc) -> Result<(), Trap> {
        cx.mem().check_writable(host, len).map_err(|f| cx.fault(f, loc))?;
        let mut bytes = vec![0u8; len as usize];
        {
            let st = self.lock();
            st.enter().map_err(|r| gpu_error("making the CUDA context current", r, loc))?;
            let src = self.checked(&st, dev, len, cx.mem(), loc)?;
            // A synchronous copy on the legacy stream: after all queued work.
            st.dtoh(&mut bytes, src).map_err(|r| gpu_error("copying from the device", r, loc))?;
        }
        cx.mem_mut().write_bytes(host, &bytes).map_err(|f| cx.fault(f, loc))
    }

    fn write_pointer(&self, cx: &mut DeviceCtx<'_, '_>, dev: u64, value: u64, loc: Loc) -> Result<(), Trap> {
        let st = self.lock();
        st.enter().map_err(|r| gpu_error("making the CUDA context current", r, loc))?;
        let dst = self.checked(&st, dev, 8, cx.mem(), loc)?;
        let v = st.gpu(value).unwrap_or(value);
        st.htod(dst, &v.to_le_bytes()).map_err(|r| gpu_error("attaching a pointer", r, loc))
    }

    fn launch(&self, cx: &mut DeviceCtx<'_, '_>, k: &KernelLaunch<'_>) -> Result<(), Trap> {
        let loc = k.loc;
        let Some(name) = self.names.get(&k.fid) else {
            return Err(Trap::error(Diagnostic::internal(format!("kernel function {} has no CUDA kernel", k.fid), Some(loc))));
        };
        // A launch whose workers × lanes exceed a block runs with the rows the block holds
        // (`Module::block_fit`): the excess workers' iterations run in the loops of those.
        let (grid, block) = self.module.shape(k.fid, k.gangs, k.workers, k.vector);
        if block.iter().product::<u64>() > 1024 || grid.iter().any(|&g| g > i32::MAX as u64) {
            return Err(Trap::error(Diagnostic::unsupported(
                format!("a launch of num_gangs({}) num_workers({}) vector_length({}): a CUDA grid holds at most 2^31 - 1 blocks and a block 1024 threads", k.gangs, k.workers, k.vector),
                loc,
            )));
        }
        // Host output written before the kernel comes before the kernel's printf.
        cx.flush_stdout();
        let mut st = self.lock();
        st.enter().map_err(|r| gpu_error("making the CUDA context current", r, loc))?;
        let f = st.function(k.fid, name).map_err(|r| gpu_error(&format!("finding kernel `{name}`"), r, loc))?;
        let stream = st.stream(k.queue).map_err(|r| gpu_error("creating a stream", r, loc))?;
        let fail = |what: &str, r| gpu_error(what, r, loc);

        // Globals: device copy (or host value) → the module's `__device__` variable.
        let mut refresh = Vec::new();
        for &(g, sym, size) in &st.globals {
            let host = Executable::global_ptr(g);
            match cx.translate(host).and_then(|d| st.gpu(d)) {
                Some(src) => {
                    // SAFETY: both ranges are `size` bytes of live device memory.
                    check(unsafe { sys::cuMemcpyDtoDAsync_v2(sym, src, size as usize, stream) }).map_err(|r| fail("filling a declared global", r))?;
                    refresh.push((src, sym, size));
                }
                None => {
                    let bytes = cx.mem().read_bytes(host, size).map_err(|fl| cx.fault(fl, loc))?.into_owned();
                    st.htod(sym, &bytes).map_err(|r| fail("filling a declared global", r))?;
                }
            }
        }

        // The table of live device blocks, for device code that makes pointers of integers.
        let mut table = None;
        if let Some((blocks_sym, count_sym)) = st.block_table {
            let mut live: Vec<(u32, sys::CUdeviceptr, u64)> = st.buffers.iter().map(|(&id, b)| (id, b.ptr, b.len)).collect();
            live.sort_unstable();
            let bytes: Vec<u8> = live.iter().flat_map(|&(id, ptr, len)| [id as u64, ptr, len]).flat_map(u64::to_le_bytes).collect();
            let at = alloc_async(bytes.len(), stream).map_err(|r| fail("allocating the table of device blocks", r))?;
            table = Some(at);
            self.upload_async(&mut st, at, bytes, stream, k.queue).map_err(|r| fail("writing the table of device blocks", r))?;
            self.upload_async(&mut st, blocks_sym, at.to_le_bytes().to_vec(), stream, k.queue).map_err(|r| fail("writing the table of device blocks", r))?;
            self.upload_async(&mut st, count_sym, (live.len() as u64).to_le_bytes().to_vec(), stream, k.queue).map_err(|r| fail("writing the table of device blocks", r))?;
        }

        // Arguments, one per capture; per-gang buffers for private copies and reductions.
        let mut args: Vec<u64> = Vec::with_capacity(k.caps.len());
        let mut gang_buffers: Vec<Option<GangBuffer>> = Vec::with_capacity(k.caps.len());
        let mut restore = Vec::new();
        let made = self.marshal(&mut st, cx, k, stream, &mut args, &mut gang_buffers, &mut restore);
        // A declared global that the kernel also reaches through a capture: the kernel uses the
        // module's variable for both, so that no store is lost when it is copied back.
        for (a, c) in args.iter_mut().zip(k.caps) {
            if !(c.mode == CaptureMode::Present || (c.mode == CaptureMode::Value && c.is_pointer)) {
                continue;
            }
            if let Some(&(src, sym, _)) = refresh.iter().find(|&&(src, _, size)| *a >= src && *a < src + size) {
                *a = *a - src + sym;
            }
        }
        let launched = made.and_then(|()| {
            let mut params: Vec<*mut c_void> = args.iter_mut().map(|a| a as *mut u64 as *mut c_void).collect();
            // SAFETY: `f` is a kernel of the loaded module whose parameters are exactly the
            // captures, each at most 8 bytes (scalars and pointers), read little-endian from its
            // `u64` slot; `params` and `args` live across the call; every pointer argument is a
            // live GPU buffer or the program's own value.
            check(unsafe {
                sys::cuLaunchKernel(f, grid[0] as u32, grid[1] as u32, grid[2] as u32, block[0] as u32, block[1] as u32, block[2] as u32, 0, stream, params.as_mut_ptr(), std::ptr::null_mut())
            })
            .map_err(|r| fail(&format!("launching kernel `{name}`"), r))
        });
        for &(dst, sym, size) in &refresh {
            // SAFETY: as above.
            let _ = unsafe { sys::cuMemcpyDtoDAsync_v2(dst, sym, size as usize, stream) };
        }
        let has_reduction = k.caps.iter().any(|c| matches!(c.mode, CaptureMode::Reduction(_)));
        let must_wait = launched.is_ok() && (k.queue.is_none() || has_reduction || !restore.is_empty());
        let waited = if must_wait {
            // SAFETY: `stream` is the null stream or a stream of this context.
            check(unsafe { sys::cuStreamSynchronize(stream) }).map_err(|r| fail(&format!("kernel `{name}`"), r))
        } else {
            Ok(())
        };
        if let Some(q) = k.queue {
            st.last_launch.insert(q, loc);
        }
        if waited.is_ok() && must_wait {
            st.staging.remove(&k.queue.unwrap_or(SYNC_QUEUE));
        }
        let combined = match (&launched, &waited) {
            (Ok(()), Ok(())) => self.combine(&st, cx, k, &gang_buffers),
            _ => Ok(()),
        };
        for &(at, word) in &restore {
            let _ = st.htod(at, &word.to_le_bytes());
        }
        if let Some(t) = table {
            // SAFETY: allocated with `cuMemAllocAsync` on `stream` for this launch; freed once,
            // in stream order after the kernel.
            let _ = unsafe { sys::cuMemFreeAsync(t, stream) };
        }
        for b in gang_buffers.into_iter().flatten() {
            // SAFETY: allocated with `cuMemAllocAsync` on `stream` for this launch; freed once, in
            // stream order after the kernel.
            unsafe {
                let _ = sys::cuMemFreeAsync(b.ptr, stream);
                if let Some(bl) = b.blocks {
                    let _ = sys::cuMemFreeAsync(bl, stream);
                }
            }
        }
        launched.and(waited).and(combined)
    }

    fn wait(&self, _cx: &mut DeviceCtx<'_, '_>, queue: Option<i64>) -> Result<(), Trap> {
        let mut st = self.lock();
        let loc = queue.and_then(|q| st.last_launch.get(&q).copied()).unwrap_or_default();
        st.enter().map_err(|r| gpu_error("making the CUDA context current", r, loc))?;
        match queue {
            None => st.sync_all().map_err(|r| gpu_error("waiting for all queues", r, loc)),
            Some(q) => {
                let Some(&s) = st.streams.get(&q) else { return Ok(()) };
                // SAFETY: `s` is a stream of this context.
                let r = check(unsafe { sys::cuStreamSynchronize(s) });
                st.staging.remove(&q);
                r.map_err(|r| gpu_error(&format!("waiting for queue {q}"), r, loc))
            }
        }
    }

    fn queue_idle(&self, queue: Option<i64>) -> bool {
        let st = self.lock();
        if st.enter().is_err() {
            return true;
        }
        let idle = |s: sys::CUstream| {
            // SAFETY: `s` is a stream of this context.
            let r = unsafe { sys::cuStreamQuery(s) };
            r != sys::CUresult::CUDA_ERROR_NOT_READY
        };
        match queue {
            Some(q) => st.streams.get(&q).is_none_or(|&s| idle(s)),
            None => st.streams.values().all(|&s| idle(s)),
        }
    }

    fn native_stream(&self, queue: i64) -> u64 {
        let mut st = self.lock();
        if st.enter().is_err() {
            return 0;
        }
        st.stream(Some(queue)).map(|s| s as u64).unwrap_or(0)
    }

    fn set_device_num(&self, n: u64) -> Result<(), String> {
        let mut st = self.lock();
        if n == st.ordinal {
            return Ok(());
        }
        if n >= self.count {
            return Err(format!("there is no GPU number {n}; the driver reports {} device(s)", self.count));
        }
        if !st.buffers.is_empty() {
            return Err("accsim cannot move to another GPU while data is present on the current one".into());
        }
        let (fresh, _, _) = State::open(n, &self.module).map_err(|e| e.to_string())?;
        *st = fresh;
        Ok(())
    }
}

impl CudaDevice {
    /// The GPU address of `len` bytes at device pointer word `dev`, or an error in the program.
    fn checked(&self, st: &State, dev: u64, len: u64, mem: &Memory, loc: Loc) -> Result<sys::CUdeviceptr, Trap> {
        let id = (dev >> 32) as u32;
        match st.buffers.get(&id) {
            Some(b) if (dev & 0xffff_ffff) + len <= b.len => Ok(b.ptr + (dev & 0xffff_ffff)),
            Some(b) => Err(Trap::error(Diagnostic::error(
                "out-of-bounds",
                format!("a copy of {len} bytes at offset {} of a {}-byte device block runs past its end", dev & 0xffff_ffff, b.len),
                loc,
            ))),
            None => {
                let what = match mem.allocation(AllocId(id)) {
                    Some(a) if a.space == Space::Host => "host memory, not device memory",
                    Some(a) if !a.live => "device memory that was already freed",
                    _ => "no device memory",
                };
                Err(Trap::error(Diagnostic::error("device-address", format!("a device copy addresses {what} ({dev:#x})"), loc)))
            }
        }
    }

    /// The kernel arguments of launch `k`, with a per-gang buffer for each private copy and
    /// reduction (in `gangs`, `None` for the others).
    #[allow(clippy::too_many_arguments)]
    fn marshal(&self, st: &mut State, cx: &mut DeviceCtx<'_, '_>, k: &KernelLaunch<'_>, stream: sys::CUstream, args: &mut Vec<u64>, gangs: &mut Vec<Option<GangBuffer>>, restore: &mut Vec<(sys::CUdeviceptr, u64)>) -> Result<(), Trap> {
        let loc = k.loc;
        let shared_fp = self.module.shared_firstprivate.get(&k.fid);
        for (i, (c, &s)) in k.caps.iter().zip(k.shared).enumerate() {
            // A read-only firstprivate value: one copy for all gangs (see emit::Module).
            let n = if shared_fp.and_then(|v| v.get(i)).copied().unwrap_or(false) { 1 } else { k.gangs as usize };
            let copy = GangCopy::of(c, k.on_host);
            match copy {
                GangCopy::Shared => {
                    let v = if c.is_pointer || c.mode == CaptureMode::Present { st.gpu(s).unwrap_or(s) } else { s };
                    if c.mode == CaptureMode::Present && c.is_pointer && c.size == 8 && v != s {
                        // The device copy of a pointer variable (a pointer mapped itself, a `use_device`
                        // pointer): its bytes came from the host, so they hold the engine's
                        // device pointer word; the kernel needs the GPU address.
                        let mut w = [0u8; 8];
                        st.dtoh(&mut w, v).map_err(|r| gpu_error("reading a device pointer", r, loc))?;
                        let word = u64::from_le_bytes(w);
                        if let Some(g) = st.gpu(word) {
                            st.htod(v, &g.to_le_bytes()).map_err(|r| gpu_error("translating a device pointer", r, loc))?;
                            // Put the word back after the kernel: a copy-out must give the host
                            // the pointer it had.
                            restore.push((v, word));
                        }
                    }
                    args.push(v);
                    gangs.push(None);
                }
                copy => {
                    let size = c.size.max(1) as usize;
                    let (one, blocks): (Vec<u8>, Option<(Vec<u8>, usize, u64)>) = match copy {
                        GangCopy::Section { host: sec, copy } => {
                            // `private(p[lo:n])`: per gang a pointer cell aiming into its own block.
                            let len = (sec.end - sec.start) as usize;
                            let block = if copy {
                                cx.mem().read_bytes(sec.start, len as u64).map_err(|f| cx.fault(f, loc))?.into_owned()
                            } else {
                                vec![0u8; len]
                            };
                            let hv = cx.mem().load_u64(c.host).map_err(|f| cx.fault(f, loc))?;
                            (Vec::new(), Some((block, len.max(1), hv.wrapping_sub(sec.start))))
                        }
                        GangCopy::FirstPrivate { translate_pointer } => {
                            let mut b = cx.mem().read_bytes(c.host, c.size).map_err(|f| cx.fault(f, loc))?.into_owned();
                            if translate_pointer && b.len() >= 8 {
                                let hv = u64::from_le_bytes(b[..8].try_into().unwrap_or([0; 8]));
                                // A host pointer into mapped data, or already a device pointer (deviceptr, acc_malloc).
                                let d = cx.translate_pointer(hv).unwrap_or(hv);
                                let dv = st.gpu(d).unwrap_or(d);
                                b[..8].copy_from_slice(&dv.to_le_bytes());
                            }
                            (b, None)
                        }
                        GangCopy::Reduction(op, ty) => (gang::identity_bytes(ty, op, size), None),
                        GangCopy::Private | GangCopy::Shared => (vec![0u8; size], None),
                    };
                    let cell = if blocks.is_some() { 8 } else { size };
                    let ptr = alloc_async(n * cell, stream).map_err(|r| gpu_error("allocating private copies", r, loc))?;
                    let mut gb = GangBuffer { ptr, blocks: None };
                    let mut image = Vec::with_capacity(n * cell);
                    if let Some((block, len, offset)) = blocks {
                        let bl = alloc_async(n * len, stream).map_err(|r| gpu_error("allocating private copies", r, loc))?;
                        gb.blocks = Some(bl);
                        let mut all = Vec::with_capacity(n * len);
                        for g in 0..n {
                            all.extend_from_slice(&block);
                            all.resize((g + 1) * len, 0);
                            let p = (bl + (g * len) as u64).wrapping_add(offset);
                            image.extend_from_slice(&p.to_le_bytes());
                        }
                        self.upload_async(st, bl, all, stream, k.queue).map_err(|r| gpu_error("initialising private copies", r, loc))?;
                    } else {
                        for _ in 0..n {
                            image.extend_from_slice(&one);
                            image.resize(image.len().div_ceil(cell) * cell, 0);
                        }
                    }
                    self.upload_async(st, ptr, image, stream, k.queue).map_err(|r| gpu_error("initialising private copies", r, loc))?;
                    args.push(ptr);
                    gangs.push(Some(gb));
                }
            }
        }
        Ok(())
    }

    fn upload_async(&self, st: &mut State, dst: sys::CUdeviceptr, bytes: Vec<u8>, stream: sys::CUstream, queue: Option<i64>) -> Result<(), sys::CUresult> {
        if bytes.is_empty() {
            return Ok(());
        }
        // SAFETY: `dst` was allocated for at least `bytes.len()` bytes; `bytes` stays alive in
        // `staging` until the stream is synchronised (or is copied synchronously).
        check(unsafe { sys::cuMemcpyHtoDAsync_v2(dst, bytes.as_ptr() as *const c_void, bytes.len(), stream) })?;
        // Kept until the stream is synchronised (a synchronous launch waits for its kernel).
        st.staging.entry(queue.unwrap_or(SYNC_QUEUE)).or_default().push(bytes);
        Ok(())
    }

    /// After the kernel: combine each gang's reduction copy into the variable, in gang order.
    fn combine(&self, st: &State, cx: &mut DeviceCtx<'_, '_>, k: &KernelLaunch<'_>, gangs: &[Option<GangBuffer>]) -> Result<(), Trap> {
        let loc = k.loc;
        for (c, gb) in k.caps.iter().zip(gangs) {
            let (GangCopy::Reduction(op, ty), Some(gb)) = (GangCopy::of(c, k.on_host), gb) else { continue };
            let size = c.size.max(1) as usize;
            let mut parts = vec![0u8; size * k.gangs as usize];
            st.dtoh(&mut parts, gb.ptr).map_err(|r| gpu_error("reading reduction results", r, loc))?;
            // The variable: its device copy when mapped (`copy(sum)`), else the host variable.
            let target = cx.translate(c.host).and_then(|d| st.gpu(d));
            let mut acc = match target {
                Some(p) => {
                    let mut b = vec![0u8; size];
                    st.dtoh(&mut b, p).map_err(|r| gpu_error("reading a reduction variable", r, loc))?;
                    b
                }
                None => cx.mem().read_bytes(c.host, size as u64).map_err(|f| cx.fault(f, loc))?.into_owned(),
            };
            for part in parts.chunks(size) {
                gang::combine_bytes(ty, op, &mut acc, part);
            }
            match target {
                Some(p) => st.htod(p, &acc).map_err(|r| gpu_error("writing a reduction variable", r, loc))?,
                None => cx.mem_mut().write_bytes(c.host, &acc).map_err(|f| cx.fault(f, loc))?,
            }
        }
        Ok(())
    }
}

/// Stream-ordered allocation of `len` bytes (at least 1).
fn alloc_async(len: usize, stream: sys::CUstream) -> Result<sys::CUdeviceptr, sys::CUresult> {
    let mut p: sys::CUdeviceptr = 0;
    // SAFETY: valid out-pointer; the context is current and `stream` belongs to it.
    check(unsafe { sys::cuMemAllocAsync(&mut p, len.max(1), stream) })?;
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_keys_are_stable_and_distinct() {
        let a = source_key(&["kernel", "compute_90"]);
        assert_eq!(a, source_key(&["kernel", "compute_90"]));
        assert_ne!(a, source_key(&["kernel", "compute_80"]));
        assert_ne!(source_key(&["ab", "c"]), source_key(&["a", "bc"]));
        assert_eq!(a.len(), 32);
    }
}
