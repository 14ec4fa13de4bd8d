//! IR → readable CUDA C (`accsim emit-cuda`), the source-to-source half of DESIGN.md "Real GPU",
//! after OpenUH (Tian et al., "OpenUH: an optimizing, portable OpenACC compiler").
//!
//! # Model
//!
//! Every [`Kernel`] becomes one `extern "C" __global__` function, launched with
//! `grid = num_gangs`, `block = (vector_length, num_workers)`: gang → `blockIdx.x`, worker →
//! `threadIdx.y`, vector lane → `threadIdx.x` (OpenUH's default mapping). The kernel function of
//! the IR already runs once per gang and loops over the iterations that gang owns, so the emitter
//! keeps the IR's loops and only rewrites the explicit thread loops that `kernel::schedule` made:
//!
//! - `for (__worker = 0; __worker < __num_workers; …)` → `__worker = threadIdx.y;`, and
//!   `for (__lane = 0; __lane < __vector_length; …)` → `__lane = threadIdx.x;`. A barrier
//!   before and after a partitioned loop is written only where [`crate::barrier`] finds accesses
//!   on its two sides that may conflict (each kept barrier says why in a comment), of the kind of
//!   its context: `__syncthreads()`, or, for a vector loop inside a worker loop, a barrier among
//!   that worker's lanes (`accsim_sync_worker()`). The loop over rounds of a partitioned loop
//!   without per-thread state has no barrier between rounds; its barriers, if any, go around it.
//! - Code outside partitioned loops (gang-redundant, worker-single, vector-single) is executed
//!   redundantly by every thread of the block, so register values (loop bounds, outer loop
//!   variables) are known everywhere; its *stores* to memory other than the thread's own locals,
//!   and its calls to the C library (`printf`), are guarded so that only the threads of index 0
//!   along the dimensions not partitioned there execute them.
//! - A kernel local that is written inside a partitioned loop and whose value flows from there to
//!   other threads (the variable of a worker/vector `reduction`, a gang-private array filled by a
//!   vector loop; [`crate::liveness`]) lives in `__shared__` memory: one slot per block, or one
//!   per worker (`[threadIdx.y]`) when it is first used inside a worker loop. Other locals (a
//!   loop counter that several loop nests share) are registers of each thread.
//! - The reduction combine that the IR runs when a thread finishes its share (§2.7.11) becomes a
//!   block reduction over the threads of the loop (`accsim_reduce`: warp shuffles where the group
//!   is whole warps, then a tree in a `__shared__` scratch array; the group is the worker's lanes,
//!   the workers, or the block for a `worker vector` loop), then one combine by the group's first
//!   thread into the variable: an `atomicAdd` for `+` on int, unsigned, long, float, double (and
//!   complex `+`, part by part), `atomicAnd`/`Or`/`Xor`, or a compare-and-swap loop for the other
//!   operators, since other groups (workers, gangs) may combine into it at the same time.
//! - Captures (parameters after the four launch parameters) keep their IR meaning, except that a
//!   per-gang copy (`firstprivate`, `private`, `reduction` of the construct) is passed as the base
//!   of an array with one copy per gang, indexed by `blockIdx.x`. A `firstprivate` or `private`
//!   scalar copy through which no value flows between threads ([`crate::liveness`]: a counter
//!   that lives in memory) is copied into each thread's own local (`NAME_mine`), and the kernel
//!   reaches that instead.
//! - A control expression (condition, `for` clause) of single code that stores to shared memory
//!   is evaluated by the one thread that runs the code and its value broadcast after a barrier
//!   (`control_expr`); in worker-single code inside a vector loop, which has no barrier among
//!   the workers of a lane, a plain assignment is made by the first worker alone, and a
//!   statement with another such store is run by the first worker alone (the other workers'
//!   runs of worker-single code have no effect).
//! - Functions called from kernels (routines) become `__device__` functions that run in the
//!   calling thread. A call from single code is guarded like a store when the routine stores to
//!   memory or calls the C library; a routine that only computes a value is called by every
//!   thread, so that every thread has the value.
//! - `atomic` constructs become `atomicAdd`/`atomicAnd`/`atomicOr`/`atomicXor` where the
//!   update is one of those, else a compare-and-swap loop; `capture` stores the old or new value;
//!   `read` and `write` of an aligned 4- or 8-byte object are plain accesses.
//! - Records are written with their members (a `static_assert` checks accsim's layout, which is
//!   nvcc's on x86-64 hosts), and member accesses, which the IR states as byte offsets, are
//!   written `base->member` again.
//! - The output includes no header, as NVRTC wants (`printf`, `memcpy`, `memset`, `malloc`,
//!   `free` and the math functions are CUDA built-ins); [`crate::device`] compiles it with NVRTC.
//! - A `firstprivate` pointer or scalar that the kernel only reads (every use a load, the address
//!   never escapes) is one copy for all gangs (`NAME_one`, [`Module::shared_firstprivate`]); the
//!   pointer to a gang's copy is `__restrict__` (nothing else reaches it).
//! - An update of the construct's `reduction` variable inside a partitioned loop that has no
//!   `reduction` clause of its own (`parallel reduction(+:s)` … `loop` … `s += x`) is atomic, since
//!   the gang's threads share the gang's copy.
//! - Atomics and reduction combines on 1- and 2-byte objects (`char`, `short`, `_Bool`) are
//!   compare-and-swap loops on the aligned 4-byte word that holds them.
//!
//! # Limits
//!
//! Each form below is reported as "not supported" (never as an error in the program), and the
//! partial output has a `/* accsim: not supported: … */` comment at the place:
//!
//! VLAs, `va_*`, `long double`, C library functions other than `printf`, `malloc`, `free`,
//! `memcpy`, `memset` and the math functions, complex reductions other than `+`, reductions and
//! atomics on types other than integers, float and double.
//!
//! Not reported, and to know when reading the output: worker and vector loops inside routines run
//! sequentially in the calling thread; globals that device code reaches without a capture
//! (`declare`) become `__device__` variables of the same name, which the device must fill.
//! Guarded code assumes that every thread of a block computes the same register values outside
//! partitioned loops (true unless that code reads memory it stored itself before a barrier), and a
//! vector loop inside a worker loop needs `vector_length` to divide 32 or be a multiple of 32 (a
//! launch then runs at most 15 rows of workers, [`Module::block_fit`]).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt::Write;

use accsim_core::diag::Loc;
use accsim_core::ir::acc::{AccKind, CaptureMode, Kernel, KernelId, Level, LoopInfo};
use accsim_core::ir::*;
use accsim_core::kernel::ProgramInfo;

use crate::barrier::{self, combine_threads, enter, Facts, Group, Plan};
use crate::loopmap::{mapped_nest, LoopMap, MappedLoop};
use crate::prelude::prelude_text;

mod expr;
mod schedule;
mod stmt;
mod text;

use schedule::*;
use text::*;
pub(crate) use schedule::{for_init_local, is_schedule_var, is_share_loop, thread_loop};

/// A form the emitter cannot translate yet.
#[derive(Debug, Clone)]
pub struct Unsupported {
    pub what: String,
    pub loc: Loc,
}

/// Emission failed: `partial` is the CUDA text with a `// accsim: not supported: …` line at each
/// place that could not be translated.
#[derive(Debug, thiserror::Error)]
#[error("{} construct(s) not supported by the CUDA back-end: {}", .items.len(), .items.iter().map(|u| format!("line {}: {}", u.loc.line, u.what)).collect::<Vec<_>>().join("; "))]
pub struct EmitError {
    pub partial: String,
    pub items: Vec<Unsupported>,
}

impl EmitError {
    /// One "unsupported" diagnostic per form, for rendering with the program's source.
    pub fn diagnostics(&self) -> Vec<accsim_core::diag::Diagnostic> {
        self.items.iter().map(|u| accsim_core::diag::Diagnostic::unsupported(format!("the CUDA back-end does not support {}", u.what), u.loc)).collect()
    }
}

/// Rows of workers a block holds where a kernel keeps per-worker shared slots (1024 threads / 32
/// lanes); a launch with more runs their iterations on these ([`Module::block_fit`]).
pub const MAX_WORKERS: u32 = 32;

/// CUDA C for every kernel of `p`, with the device functions they call. `info` is the program's
/// side table (`ir::valid::ProgramInfo`): the schedule of each kernel's loops.
pub fn program(p: &Program, info: &ProgramInfo) -> Result<String, EmitError> {
    module(p, info).map(|m| m.source)
}

/// [`program`] under a loop mapping, with the regions the mapping does not fit.
pub fn program_mapped(p: &Program, info: &ProgramInfo, map: LoopMap) -> Result<(String, Vec<(Loc, String)>), EmitError> {
    module_mapped(p, info, map).map(|m| (m.source, m.map_misfits))
}

/// What a launcher needs besides the source: the `__device__` copies of globals it must fill.
#[derive(Debug, Clone)]
pub struct Module {
    /// The CUDA C text ([`program`]).
    pub source: String,
    /// Globals that device code reaches without a capture (`declare`), each with the name of its
    /// `__device__` variable, in global order.
    pub globals: Vec<(GlobalId, String)>,
    /// Per kernel function, per capture: `true` for a `firstprivate` copy the kernel only reads,
    /// which takes one copy for all gangs instead of one per gang.
    pub shared_firstprivate: BTreeMap<u32, Vec<bool>>,
    /// Per kernel function: the loop mapping its launch takes (absent: the default).
    pub loop_maps: BTreeMap<u32, LoopMap>,
    /// Under a `--loop-map`: the compute regions it does not fit, each with why (they keep the
    /// default mapping).
    pub map_misfits: Vec<(Loc, String)>,
    /// Per kernel function: what bounds the rows of workers its block can hold besides the
    /// 1024 threads of a CUDA block ([`Module::block_fit`]).
    pub worker_limits: BTreeMap<u32, WorkerLimits>,
    /// Device code allocates variable-length arrays with device `malloc` (`accsim_vla`): the
    /// context needs a device heap larger than CUDA's 8 MB default.
    pub device_heap: bool,
    /// Device code makes pointers of integers (`accsim_device_address`): before each launch the
    /// device writes the table of its live blocks into the module's `accsim_blocks`.
    pub device_addresses: bool,
}

/// What a kernel's code needs of the number of worker rows in a block.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WorkerLimits {
    /// The kernel has locals with one `__shared__` slot per worker ([`MAX_WORKERS`] slots).
    pub worker_slots: bool,
    /// The kernel synchronises one worker's lanes (`accsim_sync_worker`): a named barrier per
    /// worker when a worker's lanes are not within one warp, of which a block has 16.
    pub worker_barriers: bool,
}

impl Module {
    /// The launch shape (grid, block) of kernel function `fid`, for a launch of `gangs` gangs
    /// of `workers` workers of `vector` lanes, with the block made to fit ([`Module::block_fit`]).
    pub fn shape(&self, fid: u32, gangs: u64, workers: u64, vector: u64) -> ([u64; 3], [u64; 3]) {
        let (workers, vector) = self.block_fit(fid, workers, vector);
        self.loop_maps.get(&fid).copied().unwrap_or_default().shape(gangs, workers, vector)
    }

    /// The workers and vector lanes a block of kernel `fid` runs for a launch that asks for
    /// `workers` × `vector`: as asked when the block holds them; else at most 1024 lanes and as
    /// many rows of workers as the block then holds (1024 threads in all, at most
    /// [`MAX_WORKERS`] rows where the kernel keeps a slot per worker, at most 15 where it needs a
    /// named barrier per worker). The kernel reads the counts from `blockDim`, and every
    /// partitioned loop deals its iterations out over the threads there are, so the excess
    /// workers' (lanes') iterations run in the loops of the block's threads: OpenACC fixes no
    /// mapping of iterations to workers (§2.7.3), and nvc and gcc run such launches.
    pub fn block_fit(&self, fid: u32, workers: u64, vector: u64) -> (u64, u64) {
        let vector = vector.clamp(1, 1024);
        let limits = self.worker_limits.get(&fid).copied().unwrap_or_default();
        let mut rows = 1024 / vector;
        if limits.worker_slots {
            rows = rows.min(u64::from(MAX_WORKERS));
        }
        if limits.worker_barriers && !(vector <= 32 && 32 % vector == 0) {
            rows = rows.min(15);
        }
        (workers.clamp(1, rows.max(1)), vector)
    }
}

/// The CUDA name of kernel (or device function) `f`.
pub fn function_name(p: &Program, f: FuncId) -> Option<String> {
    p.functions.get(f.0 as usize).map(|func| sanitize(&func.name))
}

/// [`program`] with the list of device globals.
pub fn module(p: &Program, info: &ProgramInfo) -> Result<Module, EmitError> {
    module_mapped(p, info, LoopMap::Default)
}

/// [`module`] under loop mapping `map` (see [`crate::loopmap`]).
pub fn module_mapped(p: &Program, info: &ProgramInfo, map: LoopMap) -> Result<Module, EmitError> {
    module_mapped_by_kernel(p, info, map, BTreeMap::new())
}

/// [`module_mapped`] with a mapping of its own for some kernels (by kernel function id): the
/// paper's mapping of each OpenUH nest under `--dialect openuh` ([`crate::loopmap::openuh_mappings`]).
pub fn module_mapped_by_kernel(p: &Program, info: &ProgramInfo, map: LoopMap, kernel_maps: BTreeMap<u32, LoopMap>) -> Result<Module, EmitError> {
    let mut cx = Emitter {
        p,
        prelude: BTreeSet::new(),
        records: BTreeSet::new(),
        unsupported: Vec::new(),
        impure: impure_functions(p),
        globals: BTreeSet::new(),
        shared_firstprivate: BTreeMap::new(),
        loop_map: map,
        kernel_maps,
        current_map: map,
        loop_maps: BTreeMap::new(),
        map_misfits: Vec::new(),
        worker_limits: BTreeMap::new(),
        worker_barriers: false,
    };
    // Device functions: everything reachable from kernels through direct calls.
    let mut device_fns: BTreeSet<FuncId> = BTreeSet::new();
    let mut work: Vec<FuncId> = p.kernels.iter().map(|k| k.func).collect();
    let kernel_fns: HashSet<FuncId> = work.iter().copied().collect();
    while let Some(f) = work.pop() {
        let Some(func) = p.functions.get(f.0 as usize) else { continue };
        let mut calls = Vec::new();
        stmt_calls(&func.body, &mut calls);
        for c in calls {
            if !kernel_fns.contains(&c) && device_fns.insert(c) {
                work.push(c);
            }
        }
    }
    let mut body = String::new();
    if !device_fns.is_empty() {
        for f in &device_fns {
            let _ = writeln!(body, "{};", cx.signature(*f, "__device__ "));
        }
        body.push('\n');
        for f in &device_fns {
            cx.device_function(*f, &mut body);
        }
    }
    for (i, k) in p.kernels.iter().enumerate() {
        cx.kernel(k, info.loops(KernelId(i as u32)), &mut body);
    }
    let mut globals = String::new();
    for g in cx.globals.clone() {
        let gl = &p.globals[g as usize];
        let d = cx.decl(gl.ty, &sanitize(&gl.name), gl.loc);
        let _ = writeln!(globals, "__device__ {d}; // device copy of global `{}` (line {}), filled by the device through the module", gl.name, gl.loc.line);
    }
    // Before the prelude: a record's members may need a piece of it (a complex member).
    let records = cx.record_definitions();
    let mut out = String::new();
    out.push_str("// CUDA C generated by `accsim emit-cuda`.\n");
    out.push_str("// Launch each kernel with grid = num_gangs, block = (vector_length, num_workers).\n");
    for piece in &cx.prelude {
        out.push('\n');
        out.push_str(prelude_text(piece));
    }
    if !records.is_empty() {
        out.push('\n');
        out.push_str(&records);
    }
    if !globals.is_empty() {
        out.push('\n');
        out.push_str(&globals);
    }
    out.push('\n');
    out.push_str(&body);
    if !cx.unsupported.is_empty() {
        return Err(EmitError { partial: out, items: cx.unsupported });
    }
    let globals = cx.globals.iter().map(|&g| (GlobalId(g), sanitize(&p.globals[g as usize].name))).collect();
    let device_heap = cx.prelude.contains("vla");
    let device_addresses = cx.prelude.contains("device_address");
    Ok(Module { source: out, globals, shared_firstprivate: cx.shared_firstprivate, loop_maps: cx.loop_maps, map_misfits: cx.map_misfits, worker_limits: cx.worker_limits, device_heap, device_addresses })
}

/// The compute regions whose kernels (or the routines they call) compute with `long double`:
/// accsim computes it as a double everywhere, and on the GPU in its 16-byte layout (prelude
/// `ldouble`), as nvc does on the device; `info` and `run --notify` say so for these regions.
pub fn long_double_regions(p: &Program) -> Vec<Loc> {
    let wide = |mut t: TypeId| loop {
        match p.types.get(t) {
            Type::Float(FloatKind::LongDouble) | Type::Complex(FloatKind::LongDouble) => return true,
            Type::Pointer(e) | Type::Array(e, _) | Type::Vla(e, _) => t = *e,
            _ => return false,
        }
    };
    let uses = |f: FuncId| {
        p.functions.get(f.0 as usize).is_some_and(|func| {
            let mut found = func.locals.iter().any(|l| wide(l.ty));
            walk_stmt(&func.body, &mut |e| found |= wide(e.ty));
            found
        })
    };
    let mut out = Vec::new();
    for k in &p.kernels {
        let mut calls = Vec::new();
        if let Some(func) = p.functions.get(k.func.0 as usize) {
            stmt_calls(&func.body, &mut calls);
        }
        if uses(k.func) || calls.into_iter().any(uses) {
            out.push(k.loc);
        }
    }
    out.dedup();
    out
}

fn stmt_calls(s: &Stmt, out: &mut Vec<FuncId>) {
    walk_stmt(s, &mut |e| {
        if let ExprKind::Call { callee: Callee::Direct(f), .. } = &e.kind {
            out.push(*f);
        }
        if let ExprKind::FuncAddr(f) = &e.kind {
            out.push(*f);
        }
    });
}

/// Visit every expression of a statement (pre-order, nested expressions included).
pub(crate) fn walk_stmt<'a>(s: &'a Stmt, f: &mut dyn FnMut(&'a Expr)) {
    walk_stmt_and(s, &mut |_| {}, f);
}

/// [`walk_stmt`], calling `g` on each statement too (not those inside expressions); the IR's one
/// walker, [`accsim_core::ir::visit::walk`].
pub(crate) fn walk_stmt_and<'a>(s: &'a Stmt, g: &mut dyn FnMut(&'a Stmt), f: &mut dyn FnMut(&'a Expr)) {
    accsim_core::ir::visit::walk(s, false, g, f);
}

/// Visit every expression of an expression tree, and those of the statements inside it.
pub(crate) fn walk_expr<'a>(e: &'a Expr, f: &mut dyn FnMut(&'a Expr)) {
    accsim_core::ir::visit::walk_expr(e, false, &mut |_| {}, f);
}

/// Which thread dimensions are partitioned where a statement runs.
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) struct Threads {
    pub(crate) worker: bool,
    pub(crate) vector: bool,
}

impl Threads {
    pub(crate) const ALL: Threads = Threads { worker: true, vector: true };
    pub(crate) fn depth(self) -> u8 {
        self.worker as u8 + self.vector as u8
    }
    /// The condition that selects the one thread that runs single code here.
    pub(crate) fn guard(self) -> Option<&'static str> {
        match (self.worker, self.vector) {
            (false, false) => Some("threadIdx.x == 0 && threadIdx.y == 0"),
            (false, true) => Some("threadIdx.y == 0"),
            (true, false) => Some("threadIdx.x == 0"),
            (true, true) => None,
        }
    }
}

/// Where a local of the function being emitted lives.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Home {
    /// Private to the thread (a C local).
    Thread,
    /// One `__shared__` slot for the block.
    Block,
    /// One `__shared__` slot per worker.
    Worker,
}

/// The new value of an atomic read-modify-write.
enum Update<'e> {
    /// `old OP operand` (the operand has the object's type).
    Op(BinOp, &'e Expr),
    /// An expression that reads the object (each read becomes the old value).
    Value(&'e Expr),
    /// A C expression over `__assumed`, the old value.
    Text(String),
}

/// `v = *x`: the place assigned and the address loaded.
fn assign_of_load(e: &Expr) -> Option<(&Place, &Expr)> {
    match &e.kind {
        ExprKind::Assign { place, value } => match &value.kind {
            ExprKind::Load(x) => Some((place, x)),
            _ => None,
        },
        _ => None,
    }
}

/// Structural equality of two address expressions (locals and constants, loads, additions).
fn same_expr(a: &Expr, b: &Expr) -> bool {
    match (&a.kind, &b.kind) {
        (ExprKind::Local(x), ExprKind::Local(y)) | (ExprKind::LocalAddr(x), ExprKind::LocalAddr(y)) => x == y,
        (ExprKind::Int(x), ExprKind::Int(y)) => x == y,
        (ExprKind::Float(x), ExprKind::Float(y)) => x.to_bits() == y.to_bits() && a.ty == b.ty,
        (ExprKind::GlobalAddr(x), ExprKind::GlobalAddr(y)) => x == y,
        (ExprKind::Load(x), ExprKind::Load(y)) | (ExprKind::Cast(x), ExprKind::Cast(y)) => a.ty == b.ty && same_expr(x, y),
        (ExprKind::PtrAdd { ptr: p, index: i, elem: e }, ExprKind::PtrAdd { ptr: q, index: j, elem: f }) => e == f && same_expr(p, q) && same_expr(i, j),
        (ExprKind::Binary(o, x, y), ExprKind::Binary(p, z, w)) => o == p && same_expr(x, z) && same_expr(y, w),
        _ => false,
    }
}

/// A thread loop made by `kernel::schedule`.
pub(crate) enum ThreadLoop {
    Worker(LocalId),
    Vector(LocalId),
}

struct Emitter<'p> {
    p: &'p Program,
    /// Prelude pieces the output needs.
    prelude: BTreeSet<&'static str>,
    /// Record types used (by index).
    records: BTreeSet<u32>,
    unsupported: Vec<Unsupported>,
    /// Functions that store to memory other than their own locals, or call the C library.
    impure: HashSet<FuncId>,
    /// Globals used directly by device code (by index).
    globals: BTreeSet<u32>,
    /// See [`Module::shared_firstprivate`].
    shared_firstprivate: BTreeMap<u32, Vec<bool>>,
    /// The `--loop-map` asked for, and what came of it ([`Module::loop_maps`]).
    loop_map: LoopMap,
    /// Kernels with a mapping of their own (OpenUH nests), by kernel function id.
    kernel_maps: BTreeMap<u32, LoopMap>,
    /// The mapping of the kernel being emitted.
    current_map: LoopMap,
    loop_maps: BTreeMap<u32, LoopMap>,
    map_misfits: Vec<(Loc, String)>,
    /// See [`Module::worker_limits`]; `worker_barriers` of the kernel being emitted.
    worker_limits: BTreeMap<u32, WorkerLimits>,
    worker_barriers: bool,
}

/// C library functions that change state (the others in [`DEVICE_LIBC`] compute a value).
const LIBC_EFFECTS: &[&str] = &["printf", "malloc", "free", "memcpy", "memset"];

/// The runtime routine device code may call (§3.2.14); the emitter writes its answer inline.
const ACC_ON_DEVICE: &str = "acc_on_device";

/// The launch a routine runs in (accsim's own, `kernel::routine::LAUNCH_DIM_FN`): gang index and
/// gang count from the grid (every loop mapping's gang index); one worker and one lane, since a
/// routine runs in the calling thread, which then runs every worker's and lane's share itself.
const LAUNCH_DIM_FN: &str = accsim_core::kernel::routine::LAUNCH_DIM_FN;

/// Whether a call of C library function `x` may store to memory (or is not a device function).
pub(crate) fn extern_stores(p: &Program, x: ExternId) -> bool {
    p.externs.get(x.0 as usize).is_none_or(|x| x.name != ACC_ON_DEVICE && x.name != LAUNCH_DIM_FN && (!DEVICE_LIBC.contains(&x.name.as_str()) || LIBC_EFFECTS.contains(&x.name.as_str())))
}

/// Functions whose call may change memory other than their own locals (fixpoint over calls).
fn impure_functions(p: &Program) -> HashSet<FuncId> {
    let mut impure = HashSet::new();
    loop {
        let before = impure.len();
        for (i, f) in p.functions.iter().enumerate() {
            let id = FuncId(i as u32);
            if impure.contains(&id) {
                continue;
            }
            let mut bad = false;
            walk_stmt(&f.body, &mut |e| match &e.kind {
                ExprKind::Assign { place: Place::Mem(a), .. } | ExprKind::CompoundAssign { place: Place::Mem(a), .. } | ExprKind::IncDec { place: Place::Mem(a), .. } => {
                    bad |= !matches!(a.strip_casts().kind, ExprKind::LocalAddr(_));
                }
                ExprKind::Call { callee: Callee::Direct(g), .. } => bad |= impure.contains(g),
                ExprKind::Call { callee: Callee::Extern(x), .. } => bad |= extern_stores(p, *x),
                ExprKind::Call { callee: Callee::Indirect(_), .. } => bad = true,
                _ => {}
            });
            if bad {
                impure.insert(id);
            }
        }
        if impure.len() == before {
            return impure;
        }
    }
}

/// Per-function emission state.
struct FuncCx<'f> {
    func: &'f Function,
    names: Vec<String>,
    homes: Vec<Home>,
    /// Labels of the switch being emitted: label → its `case` values / `default`.
    cases: Vec<HashMap<LabelId, (Vec<u64>, bool, TypeId)>>,
    /// Kernel (true) or device function.
    kernel: bool,
    /// While emitting a reduction combine: the text of the target read, replaced by `__assumed`.
    assumed: Option<String>,
    /// Parameters that point to the gang's copy of a `reduction` variable of the construct.
    gang_reductions: HashSet<LocalId>,
    /// Under a `--loop-map` that fits the kernel: the share statements of the nest's loops (by
    /// address), each emitted as one loop over the iterations of the mapping's index.
    mapped: HashMap<*const Stmt, MappedLoop<'f>>,
    /// The kernel's barriers ([`crate::barrier`]).
    barriers: Plan,
    /// The reduction group of the innermost thread loop being emitted.
    group: Option<Group>,
    /// Block-reduction scratch arrays used by the kernel: element type → array name.
    scratch: BTreeMap<String, String>,
    /// Slots that broadcast a control expression's value from the one thread that evaluates it
    /// (`__ctl_T` for the block, `__ctl_w_T[MAX_WORKERS]` per worker): name → (declaration,
    /// one slot per worker).
    control_slots: BTreeMap<String, (String, bool)>,
    /// While emitting a control expression of worker-single code in a vector loop: the guard of
    /// each plain store to shared memory in it (see `control_expr`).
    store_guard: Option<&'static str>,
    /// Inside `if (threadIdx.y == 0)` around a statement of worker-single code in a vector loop
    /// whose control expression stores to shared memory (see `first_worker_only`).
    first_worker_only: bool,
    /// Parameters pointing to a per-gang scalar copy that each thread keeps as its own (no value
    /// flows between threads through it, [`crate::liveness::cell_flows_between_threads`]).
    thread_cells: HashSet<LocalId>,
    /// The loop over rounds being emitted (its barriers are written).
    rounds: Option<*const Stmt>,
    /// Stores of single code to a shared local that other threads read before the next
    /// partitioned loop: written between two barriers ([`crate::broadcast`]).
    broadcasts: HashSet<*const Stmt>,
}

impl<'p> Emitter<'p> {
    fn unsupported(&mut self, what: impl Into<String>, loc: Loc) -> String {
        let what = what.into();
        let text = format!("/* accsim: not supported: {what} */");
        if !self.unsupported.iter().any(|u| u.what == what && u.loc == loc) {
            self.unsupported.push(Unsupported { what, loc });
        }
        text
    }

    // ------------------------------------------------------------------ types

    /// Whether record `r` is written with its members (else as bytes): complete, every member
    /// named, no bit-fields.
    fn record_has_members(&self, r: RecordId) -> bool {
        let rec = self.p.types.record(r);
        rec.complete && !rec.members.is_empty() && rec.members.iter().all(|m| m.name.is_some() && m.bits.is_none())
    }

    /// Forward declarations and definitions of every record used, a record before the records
    /// that contain it by value. Each layout is checked against accsim's (x86-64, as nvcc's).
    fn record_definitions(&mut self) -> String {
        let mut order = Vec::new();
        let mut done = BTreeSet::new();
        loop {
            let pending: Vec<u32> = self.records.difference(&done).copied().collect();
            if pending.is_empty() {
                break;
            }
            for r in pending {
                self.visit_record(r, &mut done, &mut order);
            }
        }
        let mut out = String::new();
        for r in &order {
            let kw = if self.p.types.record(RecordId(*r)).is_union { "union" } else { "struct" };
            let _ = writeln!(out, "{kw} accsim_rec{r};");
        }
        for r in order {
            let rec = self.p.types.record(RecordId(r)).clone();
            let kw = if rec.is_union { "union" } else { "struct" };
            let what = match &rec.name {
                Some(n) => format!("{kw} {n}"),
                None => format!("an anonymous {kw}"),
            };
            let _ = writeln!(out, "{kw} __align__({}) accsim_rec{r} {{ // {what}", rec.align.max(1));
            if self.record_has_members(RecordId(r)) {
                let raised = self.raised_member_alignments(&rec);
                for (m, raise) in rec.members.iter().zip(raised) {
                    let name = member_name(m.name.as_deref().unwrap_or("_"));
                    let d = self.decl(m.ty, &name, Loc::default());
                    match raise {
                        Ok(Some(a)) => {
                            let _ = writeln!(out, "    __align__({a}) {d}; // GNU `aligned`: at offset {}", m.offset);
                        }
                        Ok(None) => {
                            let _ = writeln!(out, "    {d};");
                        }
                        Err(why) => {
                            let u = self.unsupported(format!("the layout of {what} ({why})"), Loc::default());
                            let _ = writeln!(out, "    {d}; {u}");
                        }
                    }
                }
            } else {
                // Members are reached by byte offset in the IR: the bytes and alignment suffice.
                let _ = writeln!(out, "    unsigned char bytes[{}];", rec.size.max(1));
            }
            let _ = writeln!(out, "}};\nstatic_assert(sizeof(accsim_rec{r}) == {}, \"layout of {what}\");", rec.size.max(1));
        }
        out
    }

    /// For each member of `rec`, the `__align__(n)` that gives it accsim's offset in CUDA C, where
    /// its natural alignment does not: GNU `aligned` on a member (or on its typedef) raises its
    /// alignment (gcc manual, "Common Variable Attributes"), which the record's own
    /// `__align__` does not express. The smallest power of two that puts the member at its
    /// offset is taken (the record's alignment and size come from the record's `__align__`); a
    /// member that no alignment puts there (a layout CUDA C cannot write) is an `Err` naming it,
    /// reported as not supported rather than left for NVRTC's `static_assert`.
    fn raised_member_alignments(&self, rec: &accsim_core::ir::types::Record) -> Vec<Result<Option<u64>, String>> {
        let mut end = 0u64;
        let mut out = Vec::with_capacity(rec.members.len());
        for m in &rec.members {
            let at = if rec.is_union { 0 } else { end };
            let natural = self.p.types.align_of(m.ty).max(1);
            let up = |x: u64, a: u64| x.div_ceil(a) * a;
            let raise = if up(at, natural) == m.offset {
                Ok(None)
            } else {
                let mut a = natural;
                loop {
                    a *= 2;
                    if up(at, a) == m.offset {
                        break Ok(Some(a));
                    }
                    if a > m.offset.max(natural) {
                        let name = m.name.as_deref().unwrap_or("an unnamed member");
                        break Err(format!("member `{name}` at offset {}, where CUDA C would place it at {}", m.offset, up(at, natural)));
                    }
                }
            };
            out.push(raise);
            end = end.max(m.offset + self.p.types.size_of(m.ty).unwrap_or(0));
        }
        out
    }

    fn visit_record(&mut self, r: u32, done: &mut BTreeSet<u32>, order: &mut Vec<u32>) {
        if !done.insert(r) {
            return;
        }
        let rec = self.p.types.record(RecordId(r)).clone();
        if self.record_has_members(RecordId(r)) {
            for m in &rec.members {
                // Records held by value come first; the others only need their name.
                let mut t = m.ty;
                while let Type::Array(e, _) = self.p.types.get(t) {
                    t = *e;
                }
                if let Type::Record(inner) = self.p.types.get(t) {
                    self.visit_record(inner.0, done, order);
                }
                let _ = self.decl(m.ty, "", Loc::default());
            }
        }
        order.push(r);
    }

    /// `&base->member` written as bytes (`(T *)((char *)base + offset)`): the base text, the
    /// member's name, and whether the member is an array used as a pointer to its first element.
    fn member_of(&mut self, fx: &mut FuncCx<'_>, e: &Expr) -> Option<(String, String, bool)> {
        let ExprKind::Cast(x) = &e.kind else { return None };
        let ExprKind::PtrAdd { ptr, index, elem } = &x.kind else { return None };
        let ExprKind::Int(off) = index.kind else { return None };
        if self.p.types.size_of(*elem) != Some(1) {
            return None;
        }
        let base = match &ptr.kind {
            ExprKind::Cast(b) => b.as_ref(),
            _ => ptr.as_ref(),
        };
        let Some(Type::Record(r)) = self.p.types.pointee(base.ty).map(|t| self.p.types.get(t).clone()) else { return None };
        if !self.record_has_members(r) {
            return None;
        }
        let want = self.p.types.pointee(e.ty)?;
        let rec = self.p.types.record(r).clone();
        let m = rec.members.iter().find(|m| {
            m.offset == off && (m.ty == want || matches!(self.p.types.get(m.ty), Type::Array(el, _) if *el == want))
        })?;
        let decays = m.ty != want;
        let b = self.expr(fx, base);
        let b = if b.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') { b } else { format!("({b})") };
        self.records.insert(r.0);
        Some((b, member_name(m.name.as_deref().unwrap_or("_")), decays))
    }

    /// `ty` as a C declarator around `name` (`float (*a)[1000]`).
    // `loc` is where a type the back-end could not write would be reported; since `long double`
    // is written (as a double in its layout) every type is, and the location only travels down.
    #[allow(clippy::only_used_in_recursion)]
    fn decl(&mut self, ty: TypeId, name: &str, loc: Loc) -> String {
        match self.p.types.get(ty).clone() {
            Type::Void => join("void", name),
            Type::Bool => join("bool", name),
            Type::Int(i) => {
                let base = match (i.bytes, i.signed) {
                    (1, true) => "signed char",
                    (1, false) => "unsigned char",
                    (2, true) => "short",
                    (2, false) => "unsigned short",
                    (4, true) => "int",
                    (4, false) => "unsigned",
                    (_, true) => "long",
                    (_, false) => "unsigned long",
                };
                join(base, name)
            }
            Type::Float(FloatKind::F32) => join("float", name),
            Type::Float(FloatKind::F64) => join("double", name),
            // `long double` as accsim computes it everywhere and nvc on the device: a double, in
            // the 16 bytes of the host's layout (prelude `ldouble`).
            Type::Float(FloatKind::LongDouble) => {
                self.prelude.insert("ldouble");
                join("accsim_ldouble", name)
            }
            Type::Complex(FloatKind::LongDouble) => {
                self.prelude.insert("complex");
                self.prelude.insert("ldouble");
                join("accsim_cldouble", name)
            }
            Type::Complex(k) => {
                self.prelude.insert("complex");
                join(if k == FloatKind::F32 { "accsim_cfloat" } else { "accsim_cdouble" }, name)
            }
            Type::Record(r) => {
                self.records.insert(r.0);
                join(&format!("accsim_rec{}", r.0), name)
            }
            Type::Pointer(t) => {
                let inner = if matches!(self.p.types.get(t), Type::Array(..) | Type::Function(_) | Type::Vla(..)) { format!("(*{name})") } else { format!("*{name}") };
                self.decl(t, &inner, loc)
            }
            Type::Array(t, n) => {
                let dim = n.map(|n| n.to_string()).unwrap_or_default();
                self.decl(t, &format!("{name}[{dim}]"), loc)
            }
            // A host VLA that device code reaches through a capture (`&c` of `double c[n]`, `&V`
            // of `float V[n][p]`, a parameter `float C[n][p]`): its extents live in count locals
            // that the kernel captures, and indexing through a variably modified element is
            // written as byte offsets (`vm_size`), so device code only needs the scalar element
            // (`double (*c)[]`, `float (*V)[]`).
            Type::Vla(t, _) => {
                let mut elem = t;
                while self.p.types.is_variably_modified(elem) {
                    match self.p.types.get(elem) {
                        Type::Vla(e, _) | Type::Array(e, _) => elem = *e,
                        _ => break,
                    }
                }
                self.decl(elem, &format!("{name}[]"), loc)
            }
            Type::Function(sig) => {
                let mut ps = Vec::new();
                for p in &sig.params {
                    ps.push(self.decl(*p, "", loc));
                }
                if sig.variadic {
                    ps.push("...".into());
                }
                let ps = if ps.is_empty() { "void".to_string() } else { ps.join(", ") };
                self.decl(sig.ret, &format!("{name}({ps})"), loc)
            }
        }
    }

    fn ty(&mut self, ty: TypeId, loc: Loc) -> String {
        self.decl(ty, "", loc)
    }

    /// The C type of a *value* of IR type `ty`: records and complex values are addresses.
    fn value_ty(&mut self, ty: TypeId, loc: Loc) -> String {
        if self.is_aggregate(ty) {
            let t = self.ty(ty, loc);
            format!("{t} *")
        } else {
            self.ty(ty, loc)
        }
    }

    fn is_aggregate(&self, ty: TypeId) -> bool {
        matches!(self.p.types.get(ty), Type::Record(_) | Type::Complex(_))
    }

    // ------------------------------------------------------------------ functions

    fn signature(&mut self, f: FuncId, prefix: &str) -> String {
        let func = &self.p.functions[f.0 as usize];
        let mut ps = Vec::new();
        for l in &func.params {
            let local = &func.locals[l.0 as usize];
            ps.push(self.decl(local.ty, &local_name(local, *l), func.loc));
        }
        if func.variadic {
            self.unsupported("variadic device functions", func.loc);
        }
        let ps = if ps.is_empty() { "void".to_string() } else { ps.join(", ") };
        let name = sanitize(&func.name);
        format!("{prefix}{}", self.decl(func.ret, &format!("{name}({ps})"), func.loc))
    }

    fn device_function(&mut self, f: FuncId, out: &mut String) {
        let func = &self.p.functions[f.0 as usize];
        let sig = self.signature(f, "__device__ ");
        let _ = writeln!(out, "// `{}`, line {}: a routine called from device code", func.name, func.loc.line);
        let _ = writeln!(out, "{sig}\n{{");
        let names = func.locals.iter().enumerate().map(|(i, l)| local_name(l, LocalId(i as u32))).collect();
        let mut fx = FuncCx { func, names, homes: vec![Home::Thread; func.locals.len()], cases: Vec::new(), kernel: false, assumed: None, gang_reductions: HashSet::new(), mapped: HashMap::new(), barriers: Plan::default(), group: None, scratch: BTreeMap::new(), control_slots: BTreeMap::new(), store_guard: None, first_worker_only: false, thread_cells: HashSet::new(), rounds: None, broadcasts: HashSet::new() };
        let params: HashSet<LocalId> = func.params.iter().copied().collect();
        for (i, l) in func.locals.iter().enumerate() {
            if !params.contains(&LocalId(i as u32)) {
                let d = self.local_decl(&fx, LocalId(i as u32), l);
                let _ = writeln!(out, "    {d};");
            }
        }
        self.stmt(&mut fx, &func.body, 1, Threads::ALL, out);
        out.push_str("}\n\n");
    }

    fn local_decl(&mut self, fx: &FuncCx<'_>, id: LocalId, l: &Local) -> String {
        let name = &fx.names[id.0 as usize];
        if l.storage == Storage::VlaAddress {
            // A variable-length array of one thread (a `private` copy of a VLA, §2.7.10, §2.5.10,
            // or a VLA declared in device code): storage of its run-time size from the device
            // heap, allocated by its `VlaAlloc` and freed when the function ends (C11
            // §6.2.4p7: its lifetime is its block's; the last allocation is freed on exit).
            if fx.homes[id.0 as usize] != Home::Thread {
                return self.unsupported(format!("variable-length array `{}` shared by the threads of a gang in device code", l.name), l.loc);
            }
            self.prelude.insert("vla");
            return format!("accsim_vla {name}");
        }
        if l.storage == Storage::Register && self.is_aggregate(l.ty) {
            // A register local of record or complex type holds the address of a value.
            let t = self.ty(l.ty, l.loc);
            return format!("{t} *{name}");
        }
        match fx.homes[id.0 as usize] {
            Home::Thread => self.decl(l.ty, name, l.loc),
            Home::Block => format!("__shared__ {}", self.decl(l.ty, name, l.loc)),
            Home::Worker => format!("__shared__ {}", self.decl(l.ty, &format!("{name}[{MAX_WORKERS}]"), l.loc)),
        }
    }

    /// Kernel `k`, whose loops have the schedules `loops` (from the side table).
    fn kernel(&mut self, k: &Kernel, loops: &[LoopInfo], out: &mut String) {
        let p = self.p;
        let Some(func) = p.functions.get(k.func.0 as usize) else { return };
        let text = p.directives.get(k.directive.0 as usize).map(|d| d.text.clone()).unwrap_or_default();
        let _ = writeln!(out, "// line {}: #pragma acc {text}", k.loc.line);
        if k.single {
            out.push_str("// (a kernels-construct part that runs on one gang)\n");
        }
        let launch = |e: &Option<Expr>, default: &str| match e {
            Some(Expr { kind: ExprKind::Int(v), .. }) => format!("{v}"),
            Some(_) => "a host expression".to_string(),
            None => default.to_string(),
        };
        let _ = writeln!(
            out,
            "// launch: num_gangs = {}, num_workers = {}, vector_length = {}",
            launch(&k.num_gangs, "the default"),
            launch(&k.num_workers, "the default"),
            launch(&k.vector_length, "the default")
        );
        let names: Vec<String> = func.locals.iter().enumerate().map(|(i, l)| local_name(l, LocalId(i as u32))).collect();
        for (i, c) in k.captures.iter().enumerate() {
            let Some(pl) = func.params.get(i + 4) else { continue };
            let what = match c.mode {
                CaptureMode::Value => "its value (firstprivate scalar)".to_string(),
                CaptureMode::Present => "the address of its device copy".to_string(),
                CaptureMode::FirstPrivate => "one copy per gang, initialised from the host value".to_string(),
                CaptureMode::Private => "one uninitialised copy per gang".to_string(),
                CaptureMode::Reduction(op) => format!("one copy per gang, initialised to the identity of `{}`, combined into the host variable after the kernel", op.as_str()),
            };
            let per_gang = matches!(c.mode, CaptureMode::FirstPrivate | CaptureMode::Private | CaptureMode::Reduction(_));
            let one = c.mode == CaptureMode::FirstPrivate && only_loaded(func, *pl);
            let what = if one { "its value, read-only: one copy for all gangs".to_string() } else { what };
            let param = if one {
                format!("{}_one", names[pl.0 as usize])
            } else if per_gang {
                format!("{}_gangs", names[pl.0 as usize])
            } else {
                names[pl.0 as usize].clone()
            };
            let _ = writeln!(out, "//   {param}: `{}`, {what}", c.name);
        }
        let homes = homes(p, func);
        // An update of a construct's reduction variable inside a partitioned loop without its own
        // `reduction` clause (`parallel reduction(+:s)` over `loop` … `s += a[i]`): the threads
        // of the gang share the gang's copy, so the update is atomic.
        let gang_reductions = func.params.iter().skip(4).zip(&k.captures).filter(|(_, c)| matches!(c.mode, CaptureMode::Reduction(_))).map(|(l, _)| *l).collect();
        let shared_locals = homes.iter().any(|h| *h != Home::Thread);
        self.current_map = self.kernel_maps.get(&k.func.0).copied().unwrap_or(self.loop_map);
        let mapped = if self.current_map == LoopMap::Default {
            HashMap::new()
        } else {
            match mapped_nest(self.current_map, loops, func, shared_locals) {
                Ok(m) => {
                    self.loop_maps.insert(k.func.0, self.current_map);
                    let _ = writeln!(out, "// loop mapping {} (OpenUH): launch with {}", self.current_map, self.current_map.describe_shape());
                    m
                }
                Err(why) => {
                    let _ = writeln!(out, "// loop mapping {} does not fit: {why}; the default mapping", self.current_map);
                    self.map_misfits.push((k.loc, why));
                    HashMap::new()
                }
            }
        };
        let map = self.loop_maps.get(&k.func.0).copied().unwrap_or_default();
        // Per-gang `firstprivate`/`private` scalar copies through which no value flows between
        // threads: a copy per thread (a C local initialised from the gang's copy), so that the
        // lanes of a vector loop do not share a counter that lives in memory.
        let thread_cells: HashSet<LocalId> = func
            .params
            .iter()
            .skip(4)
            .zip(&k.captures)
            .filter(|(l, c)| matches!(c.mode, CaptureMode::Private) || (c.mode == CaptureMode::FirstPrivate && !only_loaded(func, **l)))
            .filter(|(l, _)| {
                let pointee = self.p.types.pointee(func.locals[l.0 as usize].ty);
                pointee.is_some_and(|t| matches!(self.p.types.get(t), Type::Int(_) | Type::Bool | Type::Float(_) | Type::Pointer(_)))
            })
            .filter(|(l, _)| !crate::liveness::cell_flows_between_threads(p, func, **l))
            .map(|(l, _)| *l)
            .collect();
        let mut fx = FuncCx { func, names, homes, cases: Vec::new(), kernel: true, assumed: None, gang_reductions, mapped, barriers: Plan::default(), group: None, scratch: BTreeMap::new(), control_slots: BTreeMap::new(), store_guard: None, first_worker_only: false, thread_cells, rounds: None, broadcasts: HashSet::new() };
        let gang_copies: HashSet<LocalId> = func.params.iter().skip(4).zip(&k.captures).filter(|(l, c)| matches!(c.mode, CaptureMode::Private | CaptureMode::Reduction(_)) || (c.mode == CaptureMode::FirstPrivate && !only_loaded(func, **l))).map(|(l, _)| *l).filter(|l| !fx.thread_cells.contains(l)).collect();
        let broadcast_vars;
        (fx.broadcasts, broadcast_vars) = {
            let guarded = |e: &Expr| self.has_shared_effect(&fx, e);
            crate::broadcast::broadcast_stores(func, &fx.homes, &gang_copies, &guarded)
        };
        fx.barriers = {
            // A capture the kernel only loads from (the address never escapes) is memory this
            // kernel never stores to — unless another capture overlaps it, which only a struct
            // member captured on its own (inside its struct's copy) can.
            let members = k.captures.iter().any(|c| c.member.is_some());
            let read_only = func.params.iter().skip(4).zip(&k.captures).filter(|(l, c)| only_loaded(func, **l) && (c.mode == CaptureMode::FirstPrivate || !members)).map(|(l, _)| *l).collect();
            let partitioned_iterations = loops.iter().filter(|l| l.gang || l.worker || l.vector).filter_map(|l| l.temps.map(|t| t.iteration)).collect();
            let guarded = |e: &Expr| self.has_shared_effect(&fx, e);
            barrier::plan(&Facts { p, func, homes: &fx.homes, gang_copies, thread_cells: &fx.thread_cells, read_only, partitioned_iterations, impure: &self.impure, guarded: &guarded })
        };
        // Parameters: the captures (the four launch parameters come from the CUDA built-ins).
        let mut params = Vec::new();
        let mut setup = Vec::new();
        let mut shared_fp = Vec::new();
        for (i, pl) in func.params.iter().enumerate().skip(4) {
            let local = &func.locals[pl.0 as usize];
            let name = fx.names[pl.0 as usize].clone();
            let mode = k.captures.get(i - 4).map(|c| c.mode).unwrap_or(CaptureMode::Value);
            let read_only = mode == CaptureMode::FirstPrivate && only_loaded(func, *pl);
            shared_fp.push(read_only);
            match mode {
                CaptureMode::FirstPrivate if read_only => {
                    // Never written and its address never escapes: every gang reads the same
                    // value, so one copy serves all (no per-gang copies to make per launch).
                    let base = format!("{name}_one");
                    params.push(self.decl(local.ty, &base, func.loc));
                    let d = self.decl(local.ty, &format!("__restrict__ {name}"), func.loc);
                    setup.push(format!("{d} = {base}; // the firstprivate value, read-only: one copy for all gangs"));
                }
                CaptureMode::FirstPrivate | CaptureMode::Private if fx.thread_cells.contains(pl) => {
                    // No value flows between threads through the copy: each thread keeps its own.
                    let base = format!("{name}_gangs");
                    params.push(self.decl(local.ty, &base, func.loc));
                    let pointee = self.p.types.pointee(local.ty).unwrap_or(local.ty);
                    let cell = self.decl(pointee, &format!("{name}_mine"), func.loc);
                    // From the gang's copy in both modes: a `private(p[lo:n])` pointer's copy
                    // already aims into the gang's own block.
                    setup.push(format!("{cell} = {base}[__gang]; // this thread's copy of the gang's {} (no value flows between threads through it)", if mode == CaptureMode::FirstPrivate { "firstprivate copy" } else { "private copy" }));
                    let d = self.decl(local.ty, &format!("__restrict__ {name}"), func.loc);
                    setup.push(format!("{d} = &{name}_mine;"));
                }
                CaptureMode::FirstPrivate | CaptureMode::Private | CaptureMode::Reduction(_) => {
                    // One copy per gang: the parameter is the first gang's copy.
                    let base = format!("{name}_gangs");
                    params.push(self.decl(local.ty, &base, func.loc));
                    let what = match mode {
                        CaptureMode::Reduction(op) => format!("reduction({}) copy", op.as_str()),
                        CaptureMode::Private => "private copy".into(),
                        _ => "firstprivate copy".into(),
                    };
                    // Only this pointer reaches the gang's fresh copy: `__restrict__` lets the
                    // compiler keep what it points to in a register across other stores. Not for
                    // a copy that one thread stores and the others read after a barrier
                    // ([`crate::broadcast`]): they must load it again.
                    let restrict = if broadcast_vars.contains(pl) { "" } else { "__restrict__ " };
                    let d = self.decl(local.ty, &format!("{restrict}{name}"), func.loc);
                    let pointee = self.p.types.pointee(local.ty).unwrap_or(local.ty);
                    if self.p.types.is_variably_modified(pointee) {
                        // A variable-length array (`private(w)` of `double w[m]`): the copies
                        // are the array's run-time size apart, as the device lays them out.
                        let size = self.vm_size(&fx, pointee, func.loc);
                        let t = self.ty(local.ty, func.loc);
                        setup.push(format!("{d} = ({t})((char *){base} + __gang * {size}); // this gang's {what}"));
                    } else {
                        setup.push(format!("{d} = {base} + __gang; // this gang's {what}"));
                    }
                }
                CaptureMode::Value | CaptureMode::Present => params.push(self.decl(local.ty, &name, func.loc)),
            }
        }
        self.shared_firstprivate.insert(k.func.0, shared_fp);
        let name = sanitize(&func.name);
        let ps = if params.is_empty() { "void".to_string() } else { params.join(", ") };
        let _ = writeln!(out, "extern \"C\" __global__ void {name}({ps})\n{{");
        let (gang, gangs) = map.gang_index();
        let _ = writeln!(out, "    long __gang = {gang}, __num_gangs = {gangs};");
        out.push_str("    long __num_workers = blockDim.y, __vector_length = blockDim.x;\n");
        for s in setup {
            let _ = writeln!(out, "    {s}");
        }
        let params: HashSet<LocalId> = func.params.iter().copied().collect();
        for (i, l) in func.locals.iter().enumerate() {
            if !params.contains(&LocalId(i as u32)) {
                let d = self.local_decl(&fx, LocalId(i as u32), l);
                let _ = writeln!(out, "    {d};");
            }
        }
        let mut body = String::new();
        self.worker_barriers = false;
        self.stmt(&mut fx, &func.body, 1, Threads::default(), &mut body);
        let worker_slots = fx.homes.contains(&Home::Worker) || fx.control_slots.values().any(|&(_, per_worker)| per_worker);
        let limits = WorkerLimits { worker_slots, worker_barriers: self.worker_barriers };
        self.worker_limits.insert(k.func.0, limits);
        for (t, name) in &fx.scratch {
            let _ = writeln!(out, "    __shared__ {t} {name}[1024]; // block-reduction scratch: a slot per thread");
        }
        for (decl, _) in fx.control_slots.values() {
            let _ = writeln!(out, "    {decl}; // a control expression's value, from the thread that evaluates it");
        }
        out.push_str(&body);
        out.push_str("}\n\n");
    }
}
