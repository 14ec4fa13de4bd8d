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
        let mut fx = FuncCx { func, names, homes: vec![Home::Thread; func.locals.len()], cases: Vec::new(), kernel: false, assumed: None, gang_reductions: HashSet::new(), mapped: HashMap::new(), barriers: Plan::default(), group: None, scratch: BTreeMap::new(), control_slots: BTreeMap::new(), store_guard: None, first_worker_only: false, thread_cells: HashSet::new(), rounds: None };
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
        let mut fx = FuncCx { func, names, homes, cases: Vec::new(), kernel: true, assumed: None, gang_reductions, mapped, barriers: Plan::default(), group: None, scratch: BTreeMap::new(), control_slots: BTreeMap::new(), store_guard: None, first_worker_only: false, thread_cells, rounds: None };
        fx.barriers = {
            let gang_copies = func.params.iter().skip(4).zip(&k.captures).filter(|(l, c)| matches!(c.mode, CaptureMode::Private | CaptureMode::Reduction(_)) || (c.mode == CaptureMode::FirstPrivate && !only_loaded(func, **l))).map(|(l, _)| *l).filter(|l| !fx.thread_cells.contains(l)).collect();
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
                    // compiler keep what it points to in a register across other stores.
                    let d = self.decl(local.ty, &format!("__restrict__ {name}"), func.loc);
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

    // ------------------------------------------------------------------ statements

    fn stmt(&mut self, fx: &mut FuncCx<'_>, s: &Stmt, depth: usize, th: Threads, out: &mut String) {
        let pad = "    ".repeat(depth);
        if let Some(ml) = fx.mapped.get(&(s as *const Stmt)).cloned() {
            self.mapped_loop(fx, ml, depth, out);
            return;
        }
        if fx.kernel && !fx.first_worker_only && self.first_worker_only(fx, s, th) {
            // Worker-single code inside a vector loop: the workers of a lane run it redundantly
            // and only the first has effects (every store there is guarded so); no partitioned
            // loop, and so no barrier, can be inside a vector loop (§2.7). A statement whose
            // control expression stores to shared memory, which cannot be broadcast without a
            // barrier among those workers, is run by the first worker alone.
            let _ = writeln!(out, "{pad}if (threadIdx.y == 0) // worker-single code in a vector loop: the first worker alone runs this statement, whose control stores to memory the block shares");
            let _ = writeln!(out, "{pad}{{");
            fx.first_worker_only = true;
            self.stmt(fx, s, depth + 1, th, out);
            fx.first_worker_only = false;
            let _ = writeln!(out, "{pad}}}");
            return;
        }
        match &s.kind {
            StmtKind::Empty => {}
            StmtKind::Expr(e) if fx.kernel && th.depth() > 0 && self.gang_reduction_update(fx, e).is_some() => {
                let guard = th.guard().map(|g| format!("if ({g}) ")).unwrap_or_default();
                match self.gang_reduction_update(fx, e) {
                    Some(Ok(text)) => {
                        let _ = writeln!(out, "{pad}// update of the gang's reduction copy by the threads of a partitioned loop: atomic");
                        let _ = writeln!(out, "{pad}{guard}{text}");
                    }
                    Some(Err(why)) => {
                        let u = self.unsupported(format!("this update of a reduction variable ({why})"), e.loc);
                        let _ = writeln!(out, "{pad}// {u}");
                    }
                    None => {}
                }
            }
            StmtKind::Expr(e) => {
                let text = self.expr(fx, e);
                let text = strip_parens(&text);
                let effect = self.has_shared_effect(fx, e);
                self.guarded(text, effect, depth, th, out);
            }
            StmtKind::Block(v) => {
                let _ = writeln!(out, "{pad}{{");
                self.block_items(fx, v, depth + 1, th, out);
                let _ = writeln!(out, "{pad}}}");
            }
            StmtKind::If(c, t, e) => {
                let c = self.control_expr(fx, c, th);
                let _ = writeln!(out, "{pad}if ({c})");
                self.sub_stmt(fx, t, depth, th, out);
                if let Some(e) = e {
                    let _ = writeln!(out, "{pad}else");
                    self.sub_stmt(fx, e, depth, th, out);
                }
            }
            StmtKind::While(c, b) => {
                let c = self.control_expr(fx, c, th);
                let _ = writeln!(out, "{pad}while ({c})");
                self.sub_stmt(fx, b, depth, th, out);
            }
            StmtKind::DoWhile(b, c) => {
                let _ = writeln!(out, "{pad}do");
                self.sub_stmt(fx, b, depth, th, out);
                let c = self.control_expr(fx, c, th);
                let _ = writeln!(out, "{pad}while ({c});");
            }
            StmtKind::Partition(p) => match thread_loop(s) {
                Some((tl, body)) if fx.kernel => self.thread_loop(fx, s, tl, body, depth, th, out),
                // In a device function (a `routine worker|vector`), the calling thread runs the
                // level's threads one after the other.
                _ => {
                    let var_ty = fx.func.locals.get(p.var.0 as usize).map_or(p.count.ty, |l| l.ty);
                    let as_loop = p.sequential_loop(&self.p.types, var_ty, s.loc);
                    self.stmt(fx, &as_loop, depth, th, out);
                }
            },
            StmtKind::For { init, cond, step, body } => {
                if fx.kernel && fx.barriers.is_rounds(s) && fx.rounds != Some(s as *const Stmt) {
                    // The rounds of one partitioned loop are iterations of that loop: no
                    // barrier between them (§1.2); those the loop needs go around it.
                    let outer = fx.rounds.replace(s);
                    let why = fx.barriers.before(s).map(str::to_string);
                    self.barrier(why, true, depth, th, out);
                    let _ = writeln!(out, "{pad}// partitioned loop, round by round (no barrier between rounds)");
                    self.stmt(fx, s, depth, th, out);
                    let why = fx.barriers.after(s).map(str::to_string);
                    self.barrier(why, false, depth, th, out);
                    fx.rounds = outer;
                    return;
                }
                let init = match init.as_deref() {
                    None => String::new(),
                    Some(Stmt { kind: StmtKind::Expr(e), .. }) => self.control_expr(fx, e, th),
                    Some(Stmt { kind: StmtKind::Block(v), .. }) if v.iter().all(|x| matches!(x.kind, StmtKind::Expr(_))) => {
                        let mut parts = Vec::new();
                        for x in v {
                            if let StmtKind::Expr(e) = &x.kind {
                                parts.push(self.control_expr(fx, e, th));
                            }
                        }
                        parts.join(", ")
                    }
                    Some(other) => {
                        // Declarations with initializers that are not expressions: run them first.
                        let _ = writeln!(out, "{pad}{{");
                        self.stmt(fx, other, depth + 1, th, out);
                        let inner = Stmt { kind: StmtKind::For { init: None, cond: cond.clone(), step: step.clone(), body: body.clone() }, loc: s.loc };
                        self.stmt(fx, &inner, depth + 1, th, out);
                        let _ = writeln!(out, "{pad}}}");
                        return;
                    }
                };
                let c = cond.as_ref().map(|c| self.control_expr(fx, c, th)).unwrap_or_default();
                let st = step.as_ref().map(|c| self.control_expr(fx, c, th)).unwrap_or_default();
                let (init, c, st) = (strip_parens(&init), strip_parens(&c), strip_parens(&st));
                let _ = writeln!(out, "{pad}for ({init}; {c}; {st})");
                self.sub_stmt(fx, body, depth, th, out);
            }
            StmtKind::Switch { cond, body, cases, default } => {
                let c = self.control_expr(fx, cond, th);
                let mut map: HashMap<LabelId, (Vec<u64>, bool, TypeId)> = HashMap::new();
                for (v, l) in cases {
                    map.entry(*l).or_insert_with(|| (Vec::new(), false, cond.ty)).0.push(*v);
                }
                if let Some(d) = default {
                    map.entry(*d).or_insert_with(|| (Vec::new(), false, cond.ty)).1 = true;
                }
                fx.cases.push(map);
                let _ = writeln!(out, "{pad}switch ({c})");
                self.sub_stmt(fx, body, depth, th, out);
                fx.cases.pop();
            }
            StmtKind::Label(l) => {
                if let Some((vals, dflt, ty)) = fx.cases.last().and_then(|m| m.get(l)).cloned() {
                    for v in vals {
                        let lit = self.int_lit(v, ty);
                        let _ = writeln!(out, "{pad}case {lit}:");
                    }
                    if dflt {
                        let _ = writeln!(out, "{pad}default:");
                    }
                    let _ = writeln!(out, "{pad};");
                } else {
                    let _ = writeln!(out, "{pad}L{}:;", l.0);
                }
            }
            StmtKind::Goto(l) => {
                let _ = writeln!(out, "{pad}goto L{};", l.0);
            }
            StmtKind::Break => {
                let _ = writeln!(out, "{pad}break;");
            }
            StmtKind::Continue => {
                let _ = writeln!(out, "{pad}continue;");
            }
            StmtKind::Return(e) => match e {
                None => {
                    let _ = writeln!(out, "{pad}return;");
                }
                Some(e) => {
                    let v = self.expr(fx, e);
                    let v = if self.is_aggregate(e.ty) {
                        let t = self.ty(e.ty, e.loc);
                        format!("*({t} *)({v})")
                    } else {
                        v
                    };
                    let _ = writeln!(out, "{pad}return {v};");
                }
            },
            StmtKind::ZeroFill { addr, size } => {
                let a = self.expr(fx, addr);
                let private = self.is_private_addr(fx, addr);
                self.guarded(&format!("memset({a}, 0, {size})"), !private, depth, th, out);
            }
            StmtKind::VlaAlloc(l) => match fx.func.locals.get(l.0 as usize) {
                Some(local) if fx.homes[l.0 as usize] == Home::Thread => {
                    let size = self.vm_size(fx, local.ty, s.loc);
                    let name = fx.names[l.0 as usize].clone();
                    let _ = writeln!(out, "{pad}{name}.alloc({size}, {}); // this thread's `{}`", s.loc.line, local.name);
                }
                _ => {
                    let u = self.unsupported("a variable-length array shared by the threads of a gang in device code", s.loc);
                    let _ = writeln!(out, "{pad}// {u}");
                }
            },
            StmtKind::AccLaunch(_) => {
                let u = self.unsupported("a compute construct inside device code", s.loc);
                let _ = writeln!(out, "{pad}// {u}");
            }
            StmtKind::Acc { directive, body } => {
                let d = self.p.acc.get(directive.0 as usize).and_then(|d| d.as_ref());
                let text = self.p.directives.get(directive.0 as usize).map(|d| d.text.clone()).unwrap_or_default();
                match (d.map(|d| &d.kind), body) {
                    (Some(AccKind::Atomic(_)), Some(b)) => self.atomic(fx, &text, b, depth, th, out),
                    (_, Some(b)) => {
                        let _ = writeln!(out, "{pad}// #pragma acc {text}");
                        self.stmt(fx, b, depth, th, out);
                    }
                    (_, None) => {
                        let _ = writeln!(out, "{pad}// #pragma acc {text}");
                    }
                }
            }
        }
    }

    /// An expression that controls a statement (condition, `for` clauses). Every thread of the
    /// block evaluates it; when it stores to memory the threads share (or calls the C library)
    /// in code that one thread runs (gang-redundant, worker-single or vector-single), that thread
    /// alone evaluates it and the others take its value: a barrier of the threads that run the
    /// code redundantly (all of the block's, or the worker's lanes) before the store (so that
    /// none still reads what it overwrites), the store by the one thread into a shared slot, a
    /// barrier, and every thread reads the slot (`[&] { … }()`, a C++ lambda, so that it stays
    /// an expression in a `for` clause). The workers of one vector lane (a vector loop outside
    /// worker loops, whose code is worker-single) have no barrier of their own: not supported.
    fn control_expr(&mut self, fx: &mut FuncCx<'_>, e: &Expr, th: Threads) -> String {
        let Some(guard) = th.guard() else { return self.expr(fx, e) };
        if !self.has_shared_effect(fx, e) || fx.first_worker_only {
            return self.expr(fx, e);
        }
        let sync = match (th.worker, th.vector) {
            (false, false) => "__syncthreads()",
            (true, false) => {
                self.prelude.insert("sync_worker");
                self.worker_barriers = true;
                "accsim_sync_worker()"
            }
            _ if self.only_plain_shared_stores(fx, e) => {
                // No barrier for the workers of one lane: every thread evaluates the expression
                // and the first worker alone stores (`g ? (p = v) : v`); the value is `v` either
                // way.
                let outer = fx.store_guard.replace(guard);
                let text = self.expr(fx, e);
                fx.store_guard = outer;
                return text;
            }
            _ => {
                // `first_worker_only` runs such statements in the first worker alone.
                let u = self.unsupported("a store to shared memory (or a library call) inside a condition or `for` clause of worker-single code in a vector loop (its workers have no barrier of their own)", e.loc);
                let text = self.expr(fx, e);
                return format!("{u} {text}");
            }
        };
        let text = self.expr(fx, e);
        if matches!(self.p.types.get(e.ty), Type::Void) {
            return format!("[&] {{ {sync}; if ({guard}) {text}; {sync}; }}()");
        }
        if self.is_aggregate(e.ty) {
            let u = self.unsupported("a store to shared memory inside a condition or `for` clause whose value is a struct or union", e.loc);
            return format!("{u} {text}");
        }
        let t = self.ty(e.ty, e.loc);
        let (name, slot, decl) = if th.worker {
            let n = format!("__ctl_w_{}", sanitize(&t));
            (n.clone(), format!("{n}[threadIdx.y]"), format!("__shared__ {}", self.decl(e.ty, &format!("{n}[{MAX_WORKERS}]"), e.loc)))
        } else {
            let n = format!("__ctl_{}", sanitize(&t));
            (n.clone(), n.clone(), format!("__shared__ {}", self.decl(e.ty, &n, e.loc)))
        };
        fx.control_slots.entry(name).or_insert((decl, th.worker));
        format!("[&]() -> {t} {{ {sync}; if ({guard}) {slot} = {text}; {sync}; return {slot}; }}()")
    }

    /// A nested statement of a control statement, always in braces.
    fn sub_stmt(&mut self, fx: &mut FuncCx<'_>, s: &Stmt, depth: usize, th: Threads, out: &mut String) {
        if matches!(s.kind, StmtKind::Block(_)) {
            self.stmt(fx, s, depth, th, out);
        } else {
            let pad = "    ".repeat(depth);
            let _ = writeln!(out, "{pad}{{");
            self.stmt(fx, s, depth + 1, th, out);
            let _ = writeln!(out, "{pad}}}");
        }
    }

    /// Block items; the statements after a thread's share of a partitioned loop (the loop over
    /// `__chunk_start`) are the reduction combines.
    fn block_items(&mut self, fx: &mut FuncCx<'_>, v: &[Stmt], depth: usize, th: Threads, out: &mut String) {
        let mut combining = false;
        for x in v {
            if combining && fx.kernel && th.depth() > 0 {
                // The combine is wrapped in the `atomic update` the scheduler adds (§2.7.11).
                let x = match &x.kind {
                    StmtKind::Acc { body: Some(b), .. } => b.as_ref(),
                    _ => x,
                };
                if let StmtKind::Expr(Expr { kind: ExprKind::Assign { place, value }, ty, loc }) = &x.kind {
                    self.combine(fx, place, value, *ty, *loc, depth, th, out);
                    continue;
                }
            }
            self.stmt(fx, x, depth, th, out);
            if fx.kernel && is_share_loop(fx.func, x) {
                combining = true;
            }
        }
    }

    fn guarded(&mut self, text: &str, effect: bool, depth: usize, th: Threads, out: &mut String) {
        let pad = "    ".repeat(depth);
        match th.guard() {
            Some(g) if effect => {
                let _ = writeln!(out, "{pad}if ({g}) {text};");
            }
            _ => {
                let _ = writeln!(out, "{pad}{text};");
            }
        }
    }

    /// A worker or lane loop of the scheduler: each thread of the block (or of the worker) runs
    /// its own share. Its barriers are those [`crate::barrier`] keeps, of the kind of the
    /// context: block-wide, or among one worker's lanes inside a worker loop.
    #[allow(clippy::too_many_arguments)]
    fn thread_loop(&mut self, fx: &mut FuncCx<'_>, s: &Stmt, tl: ThreadLoop, body: &Stmt, depth: usize, th: Threads, out: &mut String) {
        let pad = "    ".repeat(depth);
        let (inner_body, inner, group) = enter(&tl, body, th);
        let mut sets = Vec::new();
        let what = match tl {
            ThreadLoop::Worker(v) => {
                sets.push((v, "threadIdx.y"));
                match barrier::joined_vector_loop(body).and_then(thread_loop) {
                    Some((ThreadLoop::Vector(lane), _)) => {
                        sets.push((lane, "threadIdx.x"));
                        "worker- and vector"
                    }
                    _ => "worker",
                }
            }
            ThreadLoop::Vector(v) => {
                sets.push((v, "threadIdx.x"));
                "vector"
            }
        };
        let own = !fx.barriers.in_rounds(s);
        if own {
            let why = fx.barriers.before(s).map(str::to_string);
            self.barrier(why, true, depth, th, out);
        }
        let _ = writeln!(out, "{pad}{{ // {what}-partitioned: each thread runs its share");
        for (v, idx) in sets {
            let _ = writeln!(out, "{pad}    {} = {idx};", fx.names[v.0 as usize]);
        }
        let outer_group = fx.group.replace(group);
        match &inner_body.kind {
            StmtKind::Block(v) => self.block_items(fx, v, depth + 1, inner, out),
            _ => self.stmt(fx, inner_body, depth + 1, inner, out),
        }
        fx.group = outer_group;
        let _ = writeln!(out, "{pad}}}");
        if own {
            let why = fx.barriers.after(s).map(str::to_string);
            self.barrier(why, false, depth, th, out);
        }
    }

    /// A barrier that [`crate::barrier`] keeps (`why`), before or after a partitioned loop that
    /// runs in context `th`: among the block's threads, or among one worker's lanes.
    fn barrier(&mut self, why: Option<String>, before: bool, depth: usize, th: Threads, out: &mut String) {
        let Some(why) = why else { return };
        let pad = "    ".repeat(depth);
        let sync = if th.worker {
            self.prelude.insert("sync_worker");
            self.worker_barriers = true;
            "accsim_sync_worker()"
        } else {
            "__syncthreads()"
        };
        let side = if before { "before" } else { "after" };
        let _ = writeln!(out, "{pad}{sync}; // barrier {side} the partitioned loop: {why}");
    }

    /// One loop of a nest under a `--loop-map` ([`crate::loopmap`]): every thread of the grid
    /// runs the iterations of its index, with the mapping's stride; no barrier, since the nest is
    /// the whole kernel and has no per-thread state.
    fn mapped_loop(&mut self, fx: &mut FuncCx<'_>, ml: MappedLoop<'_>, depth: usize, out: &mut String) {
        let pad = "    ".repeat(depth);
        let k = fx.names[ml.temps.iteration.0 as usize].clone();
        let n = fx.names[ml.temps.iterations.0 as usize].clone();
        let _ = writeln!(out, "{pad}// {}, loop {} of {} (line {}): iteration {} + i·({})", self.current_map, ml.level + 1, ml.depth, ml.line, ml.start, ml.stride);
        let _ = writeln!(out, "{pad}for ({k} = {}; {k} < {n}; {k} += {})", ml.start, ml.stride);
        self.sub_stmt(fx, ml.iteration, depth, Threads::ALL, out);
    }

    /// `*r = *r op v` or `*r op= v` where `r` points to the gang's copy of a reduction variable:
    /// the atomic read-modify-write, or `None` when `e` is no such update.
    fn gang_reduction_update(&mut self, fx: &mut FuncCx<'_>, e: &Expr) -> Option<Result<String, String>> {
        let is_copy = |a: &Expr| matches!(a.strip_casts().kind, ExprKind::Local(l) if fx.gang_reductions.contains(&l));
        match &e.kind {
            ExprKind::Assign { place: Place::Mem(a), value } if is_copy(a) => {
                let (addr, read) = self.target(fx, &Place::Mem(a.clone()), e.ty, e.loc)?;
                let update = self.update_of_value(fx, value, e.ty, &read);
                Some(self.rmw(fx, &addr, &read, e.ty, update, None, e.loc))
            }
            ExprKind::CompoundAssign { op, place: Place::Mem(a), value, op_ty } if is_copy(a) && *op_ty == e.ty => {
                let (addr, read) = self.target(fx, &Place::Mem(a.clone()), e.ty, e.loc)?;
                Some(self.rmw(fx, &addr, &read, e.ty, Update::Op(*op, value), None, e.loc))
            }
            _ => None,
        }
    }

    /// `place = f(place, private)`: a thread's reduction copy combined into the variable of the
    /// enclosing context (§2.7.11). The threads of the loop first combine their copies by a
    /// block reduction (`accsim_reduce`: warp shuffles, then a tree in shared memory); then the
    /// group's first thread combines the result into the variable, atomically, since other
    /// groups (blocks, workers) may combine into it at the same time.
    #[allow(clippy::too_many_arguments)]
    fn combine(&mut self, fx: &mut FuncCx<'_>, place: &Place, value: &Expr, ty: TypeId, loc: Loc, depth: usize, th: Threads, out: &mut String) {
        let pad = "    ".repeat(depth);
        let target_local = match place {
            Place::Local(l) => Some(*l),
            Place::Mem(_) => None,
        };
        if let Some(l) = target_local {
            if fx.homes[l.0 as usize] == Home::Thread {
                let u = self.unsupported("a reduction into a thread-private register", loc);
                let _ = writeln!(out, "{pad}// {u}");
                return;
            }
        }
        let Some((addr, read)) = self.target(fx, place, ty, loc) else { return };
        let group = fx.group.unwrap_or(Group::Block);
        let leader = combine_threads(th, group);
        let guard = leader.guard().map(|g| format!("if ({g}) ")).unwrap_or_default();
        let t = self.ty(ty, loc);
        // Complex `+` and `*` (C's float/double _Complex, the two operators §2.5.11's table
        // allows on them): `+` adds the parts one by one, `*` multiplies as core's gang model
        // does (in double precision, rounded to the part type) with a compare-and-swap loop.
        let complex_part = match (&value.kind, self.p.types.get(ty)) {
            (ExprKind::ComplexBinary { op: op @ (BinOp::Add | BinOp::Mul), .. }, Type::Complex(FloatKind::F32)) => Some(("float", *op)),
            (ExprKind::ComplexBinary { op: op @ (BinOp::Add | BinOp::Mul), .. }, Type::Complex(FloatKind::F64)) => Some(("double", *op)),
            (ExprKind::ComplexBinary { op: op @ (BinOp::Add | BinOp::Mul), .. }, Type::Complex(FloatKind::LongDouble)) => Some(("long double", *op)),
            _ => None,
        };
        // The thread's copy: the local the combine reads besides the target (and its address).
        let mut in_target: HashSet<LocalId> = target_local.into_iter().collect();
        if let Place::Mem(a) = place {
            walk_expr(a, &mut |e| {
                if let ExprKind::Local(l) | ExprKind::LocalAddr(l) = &e.kind {
                    in_target.insert(*l);
                }
            });
        }
        // A thread's copy is a register, unless a nested partitioned loop with a reduction on
        // the same variable combines into it (`loop worker reduction(+:s)` around `loop vector
        // reduction(+:s)`): then it is the worker's (or block's) shared slot, which every
        // thread of the group reads after that inner combine.
        let mut mine = None;
        let mut shared_mine = None;
        walk_expr(value, &mut |e| {
            if let ExprKind::Local(l) | ExprKind::LocalAddr(l) = &e.kind {
                if !in_target.contains(l) {
                    let slot = if fx.homes[l.0 as usize] == Home::Thread { &mut mine } else { &mut shared_mine };
                    slot.get_or_insert(*l);
                }
            }
        });
        let Some(mine) = mine.or(shared_mine) else {
            let u = self.unsupported("this reduction combine (no thread copy found)", loc);
            let _ = writeln!(out, "{pad}// {u}");
            return;
        };
        let mine_name = fx.names[mine.0 as usize].clone();
        let mine_home = std::mem::replace(&mut fx.homes[mine.0 as usize], Home::Thread);
        // The final combine of the group's result `__r`, and the operator as a function of two values.
        let (last, op) = if let Some((part, complex_op)) = complex_part {
            if complex_op == BinOp::Mul {
                self.prelude.insert("reduce_complex_mul");
                if part == "long double" {
                    self.prelude.insert("reduce_complex_mul_ld");
                }
                (format!("accsim_cmul_atomic(({t} *)({addr}), __r);"), "return accsim_cmul_combine(__assumed, __mine);".to_string())
            } else {
                // A `long double` part is the double in the first 8 of its 16 bytes.
                let (part, im, cast) = if part == "long double" { ("double", 2, "(double)") } else { (part, 1, "") };
                let last = format!("{{ atomicAdd(&(({part} *)({addr}))[0], {cast}__r.re); atomicAdd(&(({part} *)({addr}))[{im}], {cast}__r.im); }}");
                (last, format!("{t} __s = {{__assumed.re + __mine.re, __assumed.im + __mine.im}}; return __s;"))
            }
        } else {
            fx.names[mine.0 as usize] = "__r".into();
            let update = self.update_of_value(fx, value, ty, &read);
            let last = self.rmw(fx, &addr, &read, ty, update, None, loc);
            fx.names[mine.0 as usize] = "__mine".into();
            fx.assumed = Some(read.clone());
            let op = self.expr(fx, value);
            fx.assumed = None;
            match last {
                Ok(last) => (last, format!("return {op};")),
                Err(why) => {
                    fx.names[mine.0 as usize] = mine_name;
                    fx.homes[mine.0 as usize] = mine_home;
                    let u = self.unsupported(format!("this reduction combine ({why})"), loc);
                    let _ = writeln!(out, "{pad}// {u}");
                    return;
                }
            }
        };
        fx.names[mine.0 as usize] = mine_name.clone();
        fx.homes[mine.0 as usize] = mine_home;
        let value_of_mine = if complex_part.is_some() { format!("*({t} *)(&{})", self.local_ref(fx, mine)) } else { self.local_ref(fx, mine) };
        self.prelude.insert("reduce");
        if let Some((part, _)) = complex_part {
            self.prelude.insert("reduce_complex");
            if part == "long double" {
                self.prelude.insert("reduce_complex_ld");
            }
        }
        let scratch = fx.scratch.entry(t.clone()).or_insert_with(|| format!("__scratch_{}", sanitize(&t))).clone();
        let (rank, count, stride, over) = match group {
            Group::Lanes => ("threadIdx.x", "blockDim.x", "1", "the worker's vector lanes"),
            Group::Workers => ("threadIdx.y", "blockDim.y", "blockDim.x", "the workers"),
            Group::Block => ("threadIdx.y * blockDim.x + threadIdx.x", "blockDim.x * blockDim.y", "1", "the workers and vector lanes"),
        };
        let sync = if th.worker && group == Group::Lanes {
            self.prelude.insert("sync_worker");
            self.worker_barriers = true;
            "accsim_sync_worker()"
        } else {
            "__syncthreads()"
        };
        let _ = writeln!(out, "{pad}// reduction combine (line {}): a block reduction over {over}, then one atomic combine by the first of them", loc.line);
        let _ = writeln!(out, "{pad}{{");
        let _ = writeln!(out, "{pad}    {t} __r = accsim_reduce({value_of_mine}, {scratch}, {rank}, {count}, {stride}, []({t} __assumed, {t} __mine) {{ {op} }}, [] {{ {sync}; }});");
        let _ = writeln!(out, "{pad}    {guard}{last}");
        let _ = writeln!(out, "{pad}}}");
    }

    /// The address of an atomic's or a combine's target and the text that reads it.
    fn target(&mut self, fx: &mut FuncCx<'_>, place: &Place, ty: TypeId, loc: Loc) -> Option<(String, String)> {
        match place {
            Place::Mem(a) => {
                let a_text = self.expr(fx, a);
                let ld = Expr { kind: ExprKind::Load(a.clone()), ty, loc };
                Some((a_text, self.expr(fx, &ld)))
            }
            Place::Local(l) => {
                let r = self.local_ref(fx, *l);
                Some((format!("&{r}"), r))
            }
        }
    }

    /// `new = value`, where `value` reads the target (`read`): an operator with an operand when
    /// the value has that shape, else the whole expression.
    fn update_of_value<'e>(&mut self, fx: &mut FuncCx<'_>, value: &'e Expr, ty: TypeId, read: &str) -> Update<'e> {
        let stripped = value.strip_casts();
        if let ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor), a, b) = &stripped.kind {
            if stripped.ty == ty {
                if self.expr(fx, a) == read {
                    return Update::Op(*op, b);
                }
                if *op != BinOp::Sub && self.expr(fx, b) == read {
                    return Update::Op(*op, a);
                }
            }
        }
        Update::Value(value)
    }

    /// One read-modify-write of the `ty` object at `addr` (whose read is `read`), as a statement:
    /// an `atomicAdd`/`atomicAnd`/`atomicOr`/`atomicXor` when the update is one, else a
    /// compare-and-swap loop. `capture`: store the old (`true`) or new value into this lvalue.
    #[allow(clippy::too_many_arguments)]
    fn rmw(&mut self, fx: &mut FuncCx<'_>, addr: &str, read: &str, ty: TypeId, update: Update<'_>, capture: Option<(String, bool)>, loc: Loc) -> Result<String, String> {
        let t = self.p.types.get(ty).clone();
        let (int, wide, small) = match t {
            Type::Int(IntType { bytes: 4, .. }) => (true, false, false),
            Type::Int(IntType { bytes: 8, .. }) => (true, true, false),
            Type::Float(FloatKind::F32) => (false, false, false),
            Type::Float(FloatKind::F64) => (false, true, false),
            // `long double`: the double in its first 8 bytes (prelude `ldouble`).
            Type::Float(FloatKind::LongDouble) => (false, true, false),
            // 1- and 2-byte objects: a compare-and-swap of the aligned word that holds them.
            Type::Int(IntType { bytes: 1 | 2, .. }) | Type::Bool => (true, false, true),
            _ => return Err(format!("atomic operations on `{}`: only integers, float and double", self.p.types.display(ty))),
        };
        let (addr, tn) = if matches!(t, Type::Float(FloatKind::LongDouble)) {
            (format!("((double *)({addr}))"), "double".to_string())
        } else {
            (addr.to_string(), self.ty(ty, loc))
        };
        let addr = addr.as_str();
        if small {
            self.prelude.insert("cas_small");
        }
        if let (Update::Op(op, operand), false) = (&update, small) {
            let f = match op {
                BinOp::Add | BinOp::Sub => Some("atomicAdd"),
                BinOp::BitAnd if int => Some("atomicAnd"),
                BinOp::BitOr if int => Some("atomicOr"),
                BinOp::BitXor if int => Some("atomicXor"),
                _ => None,
            };
            let new_capture = matches!(capture, Some((_, false)));
            if let (Some(f), false) = (f, new_capture) {
                let v = self.expr(fx, operand);
                let v = if *op == BinOp::Sub { format!("-({v})") } else { v };
                let call = if int && wide {
                    format!("{f}((unsigned long long *)({addr}), (unsigned long long)({v}))")
                } else {
                    format!("{f}({addr}, {v})")
                };
                return Ok(match capture {
                    Some((lhs, _)) => format!("{lhs} = ({tn}){call};"),
                    None => format!("{call};"),
                });
            }
        }
        self.prelude.insert("cas");
        fx.assumed = Some(read.to_string());
        let new = match update {
            Update::Op(op, operand) => {
                let v = self.expr(fx, operand);
                format!("(__assumed {} {v})", binop(op))
            }
            Update::Value(v) => self.expr(fx, v),
            Update::Text(t) => t,
        };
        fx.assumed = None;
        let capture = match capture {
            Some((lhs, true)) => format!(" {lhs} = __assumed;"),
            Some((lhs, false)) => format!(" {lhs} = __new;"),
            None => String::new(),
        };
        Ok(format!(
            "{{ {tn} *__p = {addr}, __old = *__p, __assumed, __new; do {{ __assumed = __old; __new = {new}; __old = accsim_cas(__p, __assumed, __new); }} while (!accsim_same_bits(__assumed, __old));{capture} }}"
        ))
    }

    fn atomic(&mut self, fx: &mut FuncCx<'_>, text: &str, body: &Stmt, depth: usize, th: Threads, out: &mut String) {
        let pad = "    ".repeat(depth);
        let guard = th.guard().map(|g| format!("if ({g}) ")).unwrap_or_default();
        let _ = writeln!(out, "{pad}// #pragma acc {text}");
        let exprs: Vec<&Expr> = match &body.kind {
            StmtKind::Expr(e) => vec![e],
            StmtKind::Block(v) => v.iter().filter_map(|s| if let StmtKind::Expr(e) = &s.kind { Some(e) } else { None }).collect(),
            _ => Vec::new(),
        };
        if !exprs.is_empty() && exprs.iter().all(|e| self.atomic_on_own_copy(fx, e)) {
            // Only this thread's own copies are involved (a routine's reduction combine into its
            // local, which the one calling thread runs for each of its lanes): nothing is
            // shared, and CUDA atomics do not operate on a thread's local memory (an atomic
            // there is a launch failure), so the statement runs as written.
            self.stmt(fx, body, depth, th, out);
            return;
        }
        let result = match exprs.as_slice() {
            [e] => self.atomic_one(fx, e, None),
            // `{ v = x; x op= e; }` (old) or `{ x op= e; v = x; }` (new).
            [a, b] => match (assign_of_load(a), assign_of_load(b)) {
                (Some((vp, x)), _) => {
                    let lhs = self.place(fx, vp, a.ty, a.loc);
                    self.atomic_one(fx, b, Some((lhs, true, x)))
                }
                (None, Some((vp, x))) => {
                    let lhs = self.place(fx, vp, b.ty, b.loc);
                    self.atomic_one(fx, a, Some((lhs, false, x)))
                }
                _ => Err("this `atomic capture` block".into()),
            },
            _ => Err("this `atomic` body".into()),
        };
        match result {
            Ok(Some(t)) => {
                let _ = writeln!(out, "{pad}{guard}{t}");
            }
            Ok(None) => {
                // `read` and `write` of an aligned 4- or 8-byte object are single accesses.
                self.stmt(fx, body, depth, th, out);
            }
            Err(why) => {
                let u = self.unsupported(format!("{why} in an `atomic` construct"), body.loc);
                let _ = writeln!(out, "{pad}// {u}");
                self.stmt(fx, body, depth, th, out);
            }
        }
    }

    /// Whether the statement `e` of an `atomic` construct updates and reads only copies that
    /// belong to the running thread (registers, and memory locals of [`Home::Thread`]).
    fn atomic_on_own_copy(&self, fx: &FuncCx<'_>, e: &Expr) -> bool {
        let own_place = |p: &Place| match p {
            Place::Local(l) => fx.homes.get(l.0 as usize) == Some(&Home::Thread),
            Place::Mem(a) => self.is_private_addr(fx, a),
        };
        // §2.12: the construct makes the accesses of `x` atomic; `v` and `expr` are ordinary.
        match &e.kind {
            ExprKind::IncDec { place, .. } | ExprKind::CompoundAssign { place, .. } => own_place(place),
            // A capture's `v = x` (or an atomic read): `x` is what is read.
            ExprKind::Assign { value, .. } if matches!(value.strip_casts().kind, ExprKind::Load(_)) => {
                matches!(&value.strip_casts().kind, ExprKind::Load(a) if self.is_private_addr(fx, a))
            }
            // `x = expr` (a write) or `x = x op expr`, or a capture's `v = x op= expr`.
            ExprKind::Assign { place, value } => own_place(place) && (!matches!(value.kind, ExprKind::IncDec { .. } | ExprKind::CompoundAssign { .. } | ExprKind::Assign { .. }) || self.atomic_on_own_copy(fx, value)),
            _ => false,
        }
    }

    /// One atomic update (with an optional capture: lvalue text, old value, and the address
    /// that the capture reads, which must be the updated one). `Ok(None)`: a plain read or write.
    fn atomic_one(&mut self, fx: &mut FuncCx<'_>, e: &Expr, capture: Option<(String, bool, &Expr)>) -> Result<Option<String>, String> {
        let loc = e.loc;
        let same_target = |this: &mut Self, fx: &mut FuncCx<'_>, a: &Expr, c: &Option<(String, bool, &Expr)>| match c {
            Some((_, _, x)) => this.expr(fx, x) == this.expr(fx, a),
            None => true,
        };
        let cap = capture.as_ref().map(|(l, old, _)| (l.clone(), *old));
        match &e.kind {
            // `v = x++` and the like: capture of an update.
            // `v = x = x op e` (the value of an assignment is the new value).
            ExprKind::Assign { place: vp, value } if capture.is_none() && matches!(value.kind, ExprKind::IncDec { .. } | ExprKind::CompoundAssign { .. } | ExprKind::Assign { place: Place::Mem(_), .. }) => {
                let lhs = self.place(fx, vp, e.ty, loc);
                let old = matches!(value.kind, ExprKind::IncDec { post: true, .. });
                let (ExprKind::IncDec { place: Place::Mem(x), .. } | ExprKind::CompoundAssign { place: Place::Mem(x), .. } | ExprKind::Assign { place: Place::Mem(x), .. }) = &value.kind else {
                    return Err("a capture of a register".into());
                };
                self.atomic_one(fx, value, Some((lhs, old, x.as_ref())))
            }
            ExprKind::IncDec { place: Place::Mem(a), delta, .. } => {
                if !same_target(self, fx, a, &capture) {
                    return Err("a capture of another variable".into());
                }
                let one = if self.p.types.is_float(e.ty) { ExprKind::Float(1.0) } else { ExprKind::Int(1) };
                let one = Expr { kind: one, ty: e.ty, loc };
                let (read_addr, read) = self.target(fx, &Place::Mem(a.clone()), e.ty, loc).ok_or("no target")?;
                let op = if *delta > 0 { BinOp::Add } else { BinOp::Sub };
                self.rmw(fx, &read_addr, &read, e.ty, Update::Op(op, &one), cap, loc).map(Some)
            }
            ExprKind::CompoundAssign { op, place: Place::Mem(a), value, op_ty } => {
                if !same_target(self, fx, a, &capture) {
                    return Err("a capture of another variable".into());
                }
                let (addr, read) = self.target(fx, &Place::Mem(a.clone()), e.ty, loc).ok_or("no target")?;
                if *op_ty == e.ty {
                    self.rmw(fx, &addr, &read, e.ty, Update::Op(*op, value), cap, loc).map(Some)
                } else {
                    // Computed in `op_ty`, converted back (C11 6.5.16.2).
                    fx.assumed = None;
                    let v = self.expr(fx, value);
                    let ot = self.ty(*op_ty, loc);
                    let t = self.ty(e.ty, loc);
                    let text = format!("({t})(({ot})__assumed {} {v})", binop(*op));
                    self.rmw(fx, &addr, &read, e.ty, Update::Text(text), cap, loc).map(Some)
                }
            }
            ExprKind::Assign { place: Place::Mem(a), value } => {
                let (addr, read) = self.target(fx, &Place::Mem(a.clone()), e.ty, loc).ok_or("no target")?;
                let mut reads_target = false;
                let mut loads = Vec::new();
                walk_expr(value, &mut |x| {
                    if let ExprKind::Load(y) = &x.kind {
                        reads_target |= same_expr(y, a);
                        loads.push(y.as_ref().clone());
                    }
                });
                if !reads_target {
                    // Addresses the structural comparison does not cover (conversions, calls):
                    // the same C text is the same address.
                    let target = self.expr(fx, a);
                    reads_target = loads.iter().any(|y| self.expr(fx, y) == target);
                }
                if !reads_target && capture.is_none() {
                    return Ok(None); // atomic write
                }
                if !same_target(self, fx, a, &capture) {
                    return Err("a capture of another variable".into());
                }
                let update = self.update_of_value(fx, value, e.ty, &read);
                self.rmw(fx, &addr, &read, e.ty, update, cap, loc).map(Some)
            }
            // atomic read: `v = x`.
            ExprKind::Assign { value, .. } if capture.is_none() && matches!(value.kind, ExprKind::Load(_)) => Ok(None),
            // `v = x` where the IR keeps `x` in a register of the thread (a scalar it only reads):
            // nothing is shared, a plain copy.
            ExprKind::Assign { place: Place::Local(_), value } if capture.is_none() && matches!(value.strip_casts().kind, ExprKind::Local(_)) => Ok(None),
            _ => Err("this form".into()),
        }
    }

    // ------------------------------------------------------------------ effects

    /// Whether the expression stores to memory shared by the block's threads (or calls the C library).
    fn has_shared_effect(&self, fx: &FuncCx<'_>, e: &Expr) -> bool {
        let mut found = false;
        walk_expr(e, &mut |x| {
            let place = match &x.kind {
                ExprKind::Assign { place, .. } | ExprKind::CompoundAssign { place, .. } | ExprKind::IncDec { place, .. } => Some(place),
                ExprKind::Call { callee: Callee::Extern(x), .. } => {
                    found |= extern_stores(self.p, *x);
                    None
                }
                ExprKind::Call { callee: Callee::Direct(f), .. } => {
                    found |= self.impure.contains(f);
                    None
                }
                ExprKind::Call { callee: Callee::Indirect(_), .. } => {
                    found = true;
                    None
                }
                _ => None,
            };
            match place {
                Some(Place::Local(l)) => found |= fx.homes[l.0 as usize] != Home::Thread,
                Some(Place::Mem(a)) => found |= !self.is_private_addr(fx, a),
                None => {}
            }
        });
        found
    }

    /// Whether statement `s`, in context `th`, is worker-single code inside a vector loop (guard
    /// `threadIdx.y == 0`) with a control expression that stores to shared memory other than by
    /// plain assignments (which `control_expr` guards one by one).
    fn first_worker_only(&self, fx: &FuncCx<'_>, s: &Stmt, th: Threads) -> bool {
        if !th.vector || th.worker {
            return false;
        }
        let controls: Vec<&Expr> = match &s.kind {
            StmtKind::If(c, ..) | StmtKind::While(c, _) | StmtKind::DoWhile(_, c) | StmtKind::Switch { cond: c, .. } => vec![c],
            StmtKind::For { init, cond, step, .. } => {
                let mut v: Vec<&Expr> = cond.iter().chain(step.iter()).collect();
                match init.as_deref().map(|i| &i.kind) {
                    Some(StmtKind::Expr(e)) => v.push(e),
                    Some(StmtKind::Block(items)) => v.extend(items.iter().filter_map(|x| match &x.kind {
                        StmtKind::Expr(e) => Some(e),
                        _ => None,
                    })),
                    _ => {}
                }
                v
            }
            _ => return false,
        };
        controls.into_iter().any(|e| self.has_shared_effect(fx, e) && !self.only_plain_shared_stores(fx, e))
    }

    /// Does a store to `place` reach memory the block's threads share?
    fn stores_shared(&self, fx: &FuncCx<'_>, place: &Place) -> bool {
        match place {
            Place::Local(l) => fx.homes[l.0 as usize] != Home::Thread,
            Place::Mem(a) => !self.is_private_addr(fx, a),
        }
    }

    /// Are the shared effects of `e` only plain assignments of scalars (`p = v`, no `+=`, `++`,
    /// or call with effects), whose value is `v` whether or not the store is made?
    fn only_plain_shared_stores(&self, fx: &FuncCx<'_>, e: &Expr) -> bool {
        let mut plain = true;
        walk_expr(e, &mut |x| match &x.kind {
            ExprKind::Assign { place, .. } if self.stores_shared(fx, place) => plain &= matches!(self.p.types.get(x.ty), Type::Int(_) | Type::Bool | Type::Float(_) | Type::Pointer(_)),
            ExprKind::CompoundAssign { place, .. } | ExprKind::IncDec { place, .. } if self.stores_shared(fx, place) => plain = false,
            ExprKind::Call { .. } => plain &= !self.has_shared_effect(fx, x),
            _ => {}
        });
        plain
    }

    /// An address inside a thread-private local.
    fn is_private_addr(&self, fx: &FuncCx<'_>, a: &Expr) -> bool {
        match &a.kind {
            ExprKind::LocalAddr(l) => fx.homes[l.0 as usize] == Home::Thread,
            ExprKind::Local(p) => fx.thread_cells.contains(p),
            ExprKind::Cast(x) => self.is_private_addr(fx, x),
            ExprKind::PtrAdd { ptr, .. } => self.is_private_addr(fx, ptr),
            _ => false,
        }
    }

    // ------------------------------------------------------------------ expressions

    /// The size in bytes of `ty` as an `unsigned long` expression: the product of a variably
    /// modified type's count locals (captured by the kernel, or set in a routine's prologue) and
    /// its element size; a constant for any other type.
    fn vm_size(&mut self, fx: &FuncCx<'_>, ty: TypeId, loc: Loc) -> String {
        match self.p.types.get(ty).clone() {
            Type::Vla(e, count) => {
                let inner = self.vm_size(fx, e, loc);
                let n = self.local_ref(fx, count);
                format!("({inner} * {n})")
            }
            Type::Array(e, Some(n)) if self.p.types.is_variably_modified(e) => {
                let inner = self.vm_size(fx, e, loc);
                format!("({inner} * {n}UL)")
            }
            _ => match self.p.types.size_of(ty) {
                Some(n) => format!("{n}UL"),
                None => self.unsupported("the size of an incomplete type in device code", loc),
            },
        }
    }

    fn local_ref(&self, fx: &FuncCx<'_>, l: LocalId) -> String {
        let n = &fx.names[l.0 as usize];
        match fx.homes.get(l.0 as usize) {
            Some(Home::Worker) => format!("{n}[threadIdx.y]"),
            _ => n.clone(),
        }
    }

    fn int_lit(&mut self, v: u64, ty: TypeId) -> String {
        match self.p.types.get(ty) {
            Type::Int(IntType { bytes, signed: true }) => {
                let x = match bytes {
                    1 => v as i8 as i64,
                    2 => v as i16 as i64,
                    4 => v as i32 as i64,
                    _ => v as i64,
                };
                let suffix = if *bytes == 8 { "L" } else { "" };
                if x == i64::MIN {
                    "(-9223372036854775807L - 1)".into()
                } else if *bytes == 4 && x == i32::MIN as i64 {
                    "(-2147483647 - 1)".into()
                } else if x < 0 {
                    format!("({x}{suffix})")
                } else {
                    format!("{x}{suffix}")
                }
            }
            Type::Int(IntType { bytes, signed: false }) => {
                let x = match bytes {
                    1 => v as u8 as u64,
                    2 => v as u16 as u64,
                    4 => v as u32 as u64,
                    _ => v,
                };
                if *bytes == 8 { format!("{x}UL") } else { format!("{x}u") }
            }
            Type::Bool => format!("{}", (v != 0) as u8),
            _ => {
                let t = self.ty(ty, Loc::default());
                if v == 0 { format!("({t})0") } else { format!("({t}){v:#x}UL") }
            }
        }
    }

    fn expr(&mut self, fx: &mut FuncCx<'_>, e: &Expr) -> String {
        let text = self.expr_inner(fx, e);
        match &fx.assumed {
            Some(r) if *r == text => "__assumed".into(),
            _ => text,
        }
    }

    fn place(&mut self, fx: &mut FuncCx<'_>, p: &Place, ty: TypeId, loc: Loc) -> String {
        match p {
            Place::Local(l) => self.local_ref(fx, *l),
            Place::Mem(a) => self.deref(fx, a, ty, loc),
        }
    }

    /// `*(T *)(a)`, or `p[i]` when `a` is `p + i` with `p` already a `T *`.
    fn deref(&mut self, fx: &mut FuncCx<'_>, a: &Expr, ty: TypeId, loc: Loc) -> String {
        if let Some((base, m, false)) = self.member_of(fx, a) {
            return format!("{base}->{m}");
        }
        if let ExprKind::PtrAdd { ptr, index, elem } = &a.kind {
            if *elem == ty && self.p.types.pointee(ptr.ty) == Some(ty) {
                let p = self.expr(fx, ptr);
                let i = self.expr(fx, index);
                return format!("{p}[{i}]");
            }
        }
        if let ExprKind::LocalAddr(l) = &a.kind {
            if fx.func.locals.get(l.0 as usize).is_some_and(|x| x.ty == ty && x.storage != Storage::VlaAddress) {
                return self.local_ref(fx, *l);
            }
        }
        let at = self.expr(fx, a);
        if self.p.types.pointee(a.ty) == Some(ty) {
            format!("(*{at})")
        } else {
            let t = self.ty(ty, loc);
            format!("(*({t} *)({at}))")
        }
    }

    fn expr_inner(&mut self, fx: &mut FuncCx<'_>, e: &Expr) -> String {
        let loc = e.loc;
        match &e.kind {
            ExprKind::Int(v) => self.int_lit(*v, e.ty),
            ExprKind::Float(f) => float_lit(*f, self.p.types.get(e.ty)),
            ExprKind::Str(s) => c_string(self.p.strings.get(s.0 as usize).map(|v| v.as_slice()).unwrap_or(b"")),
            ExprKind::LocalAddr(l) | ExprKind::Local(l) if fx.func.locals.get(l.0 as usize).is_some_and(|x| x.storage == Storage::VlaAddress) => {
                // A variable-length array: the address of its heap storage.
                let r = self.local_ref(fx, *l);
                let t = self.value_ty(e.ty, loc);
                format!("(({t}){r}.p)")
            }
            ExprKind::Local(l) => {
                let r = self.local_ref(fx, *l);
                // The expression may be typed differently from the local (an array capture's
                // address used as a pointer to its first row).
                if fx.func.locals.get(l.0 as usize).is_some_and(|x| x.ty != e.ty) {
                    let t = self.value_ty(e.ty, loc);
                    format!("(({t}){r})")
                } else {
                    r
                }
            }
            ExprKind::LocalAddr(l) => {
                let r = self.local_ref(fx, *l);
                let lt = fx.func.locals.get(l.0 as usize).map(|x| x.ty);
                if lt.is_some_and(|t| self.p.types.pointee(e.ty) == Some(t)) || lt.is_some_and(|t| t == e.ty) {
                    format!("&{r}")
                } else {
                    let t = self.value_ty(e.ty, loc);
                    format!("(({t})&{r})")
                }
            }
            ExprKind::GlobalAddr(g) => {
                // A global reached without a capture (a `declare`d global used by a routine): a
                // `__device__` variable of the module, which the device fills by name.
                self.globals.insert(g.0);
                let n = self.p.globals.get(g.0 as usize).map(|g| sanitize(&g.name)).unwrap_or_default();
                let t = self.value_ty(e.ty, loc);
                format!("(({t})&{n})")
            }
            ExprKind::FuncAddr(f) => format!("&{}", sanitize(&self.p.functions[f.0 as usize].name)),
            ExprKind::ExternAddr(x) => {
                let n = self.p.externs.get(x.0 as usize).map(|x| x.name.clone()).unwrap_or_default();
                self.unsupported(format!("the address of library function or object `{n}` in device code"), loc)
            }
            ExprKind::Load(a) => {
                if self.is_aggregate(e.ty) {
                    // A record or complex value is its address.
                    let at = self.expr(fx, a);
                    let t = self.value_ty(e.ty, loc);
                    if self.p.types.pointee(a.ty) == Some(e.ty) || a.ty == e.ty { at } else { format!("(({t})({at}))") }
                } else {
                    self.deref(fx, a, e.ty, loc)
                }
            }
            ExprKind::Unary(op, x) => {
                let x = self.expr(fx, x);
                let o = match op {
                    UnOp::Neg => "-",
                    UnOp::BitNot => "~",
                    UnOp::Not => "!",
                };
                format!("{o}{x}")
            }
            ExprKind::Binary(op, a, b) => {
                let a = self.expr(fx, a);
                let b = self.expr(fx, b);
                format!("({a} {} {b})", binop(*op))
            }
            ExprKind::Cast(x) => {
                if let Some((base, m, decays)) = self.member_of(fx, e) {
                    return if decays { format!("{base}->{m}") } else { format!("&{base}->{m}") };
                }
                let t = self.value_ty(e.ty, loc);
                let xs = self.expr(fx, x);
                if matches!(self.p.types.get(x.ty), Type::Int(IntType { bytes: 8, .. })) && matches!(self.p.types.get(e.ty), Type::Pointer(_)) {
                    // An integer made a pointer: it may be a device address that host code took
                    // (`acc_deviceptr`, `host_data use_device`, §2.8, §3.2.28) and passed in
                    // copied data; such an address names a device block of accsim's (prelude
                    // `device_address`).
                    self.prelude.insert("device_address");
                    return format!("(({t})accsim_device_address((unsigned long long)({xs})))");
                }
                format!("(({t}){xs})")
            }
            ExprKind::PtrAdd { ptr, index, elem } if self.p.types.is_variably_modified(*elem) => {
                // A row of a variable-length array (`V + i` on `float V[n][p]`): its size is
                // known at run time only, so the step is in bytes (C11 6.5.6p8 with 6.7.6.2p5).
                let p = self.expr(fx, ptr);
                let i = self.expr(fx, index);
                let size = self.vm_size(fx, *elem, loc);
                let t = self.value_ty(e.ty, loc);
                format!("(({t})((char *)({p}) + (long)({i}) * (long){size}))")
            }
            ExprKind::PtrDiff { lhs, rhs, elem } if self.p.types.is_variably_modified(*elem) => {
                let a = self.expr(fx, lhs);
                let b = self.expr(fx, rhs);
                let size = self.vm_size(fx, *elem, loc);
                format!("(long)(((char *)({a}) - (char *)({b})) / (long){size})")
            }
            ExprKind::PtrAdd { ptr, index, elem } => {
                let p = self.expr(fx, ptr);
                let i = self.expr(fx, index);
                let sum = if self.p.types.pointee(ptr.ty) == Some(*elem) {
                    format!("({p} + {i})")
                } else {
                    let t = self.decl(*elem, "*", loc);
                    format!("(({t})({p}) + {i})")
                };
                // The sum is an `elem *`; the IR may type it otherwise (a row decayed to its
                // first element).
                if self.p.types.pointee(e.ty) == Some(*elem) {
                    sum
                } else {
                    let t = self.value_ty(e.ty, loc);
                    format!("(({t}){sum})")
                }
            }
            ExprKind::PtrDiff { lhs, rhs, elem } => {
                let t = self.decl(*elem, "*", loc);
                let a = self.expr(fx, lhs);
                let b = self.expr(fx, rhs);
                format!("(long)(({t})({a}) - ({t})({b}))")
            }
            ExprKind::Assign { place, value } => {
                let v = self.expr(fx, value);
                let register = matches!(place, Place::Local(l) if fx.func.locals.get(l.0 as usize).is_some_and(|x| x.storage == Storage::Register));
                match self.p.types.get(e.ty).clone() {
                    Type::Record(_) | Type::Complex(_) if register => {
                        let pl = self.place(fx, place, e.ty, loc);
                        format!("({pl} = {v})")
                    }
                    Type::Record(_) | Type::Complex(_) => {
                        let t = self.ty(e.ty, loc);
                        let dst = match place {
                            Place::Mem(a) => self.expr(fx, a),
                            Place::Local(l) => format!("&{}", self.local_ref(fx, *l)),
                        };
                        format!("(*({t} *)({dst}) = *({t} *)({v}), ({t} *)({dst}))")
                    }
                    Type::Array(..) => {
                        let n = self.p.types.size_of(e.ty).unwrap_or(0);
                        let dst = match place {
                            Place::Mem(a) => self.expr(fx, a),
                            Place::Local(l) => self.local_ref(fx, *l),
                        };
                        format!("memcpy({dst}, {v}, {n})")
                    }
                    _ if fx.store_guard.is_some() && self.stores_shared(fx, place) => {
                        let g = fx.store_guard.unwrap_or_default();
                        let pl = self.place(fx, place, e.ty, loc);
                        let t = self.ty(e.ty, loc);
                        format!("(({g}) ? ({pl} = {v}) : ({t})({v}))")
                    }
                    _ => {
                        let pl = self.place(fx, place, e.ty, loc);
                        format!("({pl} = {v})")
                    }
                }
            }
            ExprKind::CompoundAssign { op, place, value, .. } => {
                let pl = self.place(fx, place, e.ty, loc);
                let v = self.expr(fx, value);
                format!("({pl} {}= {v})", binop(*op))
            }
            ExprKind::IncDec { place, delta, post } => {
                let pl = self.place(fx, place, e.ty, loc);
                let op = if *delta > 0 { "++" } else { "--" };
                if *post { format!("{pl}{op}") } else { format!("{op}{pl}") }
            }
            ExprKind::Cond(c, a, b) => {
                let c = self.expr(fx, c);
                let a = self.expr(fx, a);
                let b = self.expr(fx, b);
                format!("({c} ? {a} : {b})")
            }
            ExprKind::LogicalAnd(a, b) => {
                let a = self.expr(fx, a);
                let b = self.expr(fx, b);
                format!("({a} && {b})")
            }
            ExprKind::LogicalOr(a, b) => {
                let a = self.expr(fx, a);
                let b = self.expr(fx, b);
                format!("({a} || {b})")
            }
            ExprKind::Comma(a, b) => {
                let a = self.expr(fx, a);
                let b = self.expr(fx, b);
                format!("({a}, {b})")
            }
            ExprKind::Call { callee, args, result } => {
                let mut a = Vec::new();
                for x in args {
                    let t = self.expr(fx, x);
                    if self.is_aggregate(x.ty) {
                        let ct = self.ty(x.ty, loc);
                        a.push(format!("*({ct} *)({t})"));
                    } else {
                        a.push(t);
                    }
                }
                let c = match callee {
                    Callee::Direct(f) => sanitize(&self.p.functions[f.0 as usize].name),
                    Callee::Extern(x) => {
                        let n = self.p.externs.get(x.0 as usize).map(|x| x.name.clone()).unwrap_or_default();
                        if n == ACC_ON_DEVICE {
                            // §3.2.14 on the GPU: true for its type, not_host and default; false
                            // for acc_device_host (2) and acc_device_none (0).
                            let [t] = a.as_slice() else {
                                return self.unsupported("`acc_on_device` with other than one argument", loc);
                            };
                            return format!("((((int){t}) != 2) && (((int){t}) != 0))");
                        }
                        if n == LAUNCH_DIM_FN {
                            let [t] = a.as_slice() else {
                                return self.unsupported(format!("`{n}` with other than one argument"), loc);
                            };
                            return format!("((long)(({t}) == 0 ? blockIdx.y * gridDim.x + blockIdx.x : ({t}) == 1 ? gridDim.x * gridDim.y : 1))");
                        }
                        if COMPLEX_LIB.contains(&n.as_str()) {
                            self.prelude.insert("complex_lib");
                            n
                        } else if DEVICE_LIBC.contains(&n.as_str()) {
                            n
                        } else {
                            return self.unsupported(format!("calling `{n}` on the GPU (no device version)"), loc);
                        }
                    }
                    Callee::Indirect(f) => {
                        let f = self.expr(fx, f);
                        format!("(*{f})")
                    }
                };
                let call = format!("{c}({})", a.join(", "));
                match result {
                    Some(r) => {
                        let t = self.ty(e.ty, loc);
                        let r = self.local_ref(fx, *r);
                        format!("(*({t} *)&{r} = {call}, ({t} *)&{r})")
                    }
                    None => call,
                }
            }
            ExprKind::SizeOfDynamic(t) => self.vm_size(fx, *t, loc),
            ExprKind::ComplexBinary { op, lhs, rhs, dst } => {
                self.prelude.insert("complex");
                let f = match op {
                    BinOp::Add => "accsim_cadd",
                    BinOp::Sub => "accsim_csub",
                    BinOp::Mul => "accsim_cmul",
                    BinOp::Div => "accsim_cdiv",
                    _ => return self.unsupported("this complex operator", loc),
                };
                let a = self.expr(fx, lhs);
                let b = self.expr(fx, rhs);
                let d = self.local_ref(fx, *dst);
                format!("{f}(&{d}, {a}, {b})")
            }
            ExprKind::ComplexNeg { value, dst } => {
                self.prelude.insert("complex");
                let a = self.expr(fx, value);
                let d = self.local_ref(fx, *dst);
                format!("accsim_cneg(&{d}, {a})")
            }
            ExprKind::ComplexMake { re, im, dst } => {
                self.prelude.insert("complex");
                let a = self.expr(fx, re);
                let b = self.expr(fx, im);
                let d = self.local_ref(fx, *dst);
                format!("accsim_cmake(&{d}, {a}, {b})")
            }
            ExprKind::ComplexCompare { op, lhs, rhs } => {
                self.prelude.insert("complex");
                let a = self.expr(fx, lhs);
                let b = self.expr(fx, rhs);
                let not = if *op == BinOp::Ne { "!" } else { "" };
                format!("{not}accsim_ceq({a}, {b})")
            }
            ExprKind::WithInit { init, value } | ExprKind::StmtExpr { body: init, value: Some(value) } => {
                let mut s = String::from("({ ");
                for st in init {
                    let mut o = String::new();
                    self.stmt(fx, st, 0, Threads::ALL, &mut o);
                    s.push_str(&one_line(&o));
                    s.push(' ');
                }
                let v = self.expr(fx, value);
                let _ = write!(s, "{v}; }})");
                s
            }
            ExprKind::StmtExpr { body, value: None } => {
                let mut s = String::from("({ ");
                for st in body {
                    let mut o = String::new();
                    self.stmt(fx, st, 0, Threads::ALL, &mut o);
                    s.push_str(&one_line(&o));
                    s.push(' ');
                }
                s.push_str("})");
                s
            }
            ExprKind::VaStart(_) | ExprKind::VaArg(_) | ExprKind::VaCopy(..) => self.unsupported("variable arguments (`va_*`) in device code", loc),
        }
    }
}

/// C library functions with a CUDA device version of the same name and meaning.
const DEVICE_LIBC: &[&str] = &[
    "printf", "malloc", "free", "memcpy", "memset", "abs", "labs", "llabs", "sqrt", "sqrtf", "cbrt", "cbrtf", "fabs", "fabsf", "exp", "expf", "exp2", "exp2f", "log",
    "logf", "log2", "log2f", "log10", "log10f", "pow", "powf", "sin", "sinf", "cos", "cosf", "tan", "tanf", "asin", "asinf", "acos", "acosf", "atan", "atanf",
    "atan2", "atan2f", "sinh", "sinhf", "cosh", "coshf", "tanh", "tanhf", "floor", "floorf", "ceil", "ceilf", "round", "roundf", "trunc", "truncf", "fmod",
    "fmodf", "fmin", "fminf", "fmax", "fmaxf", "hypot", "hypotf", "erf", "erff", "fma", "fmaf", "copysign", "copysignf",
];

/// `<complex.h>` functions on float/double _Complex, defined by the prelude piece `complex_lib`.
const COMPLEX_LIB: &[&str] = &["creal", "crealf", "cimag", "cimagf", "conj", "conjf", "cabs", "cabsf"];

/// `e` without the parentheses around the whole of it (`(x = y)` → `x = y`).
fn strip_parens(e: &str) -> &str {
    let b = e.as_bytes();
    if b.first() != Some(&b'(') || b.last() != Some(&b')') {
        return e;
    }
    // The first parenthesis must close at the end, outside character and string literals.
    let mut depth = 0i32;
    let mut quote: Option<u8> = None;
    let mut escaped = false;
    for (i, &c) in b.iter().enumerate() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == b'\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            b'"' | b'\'' => quote = Some(c),
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 && i + 1 != b.len() {
                    return e;
                }
            }
            _ => {}
        }
    }
    &e[1..e.len() - 1]
}

/// Statements on one line, for a statement expression (line comments become block comments).
fn one_line(text: &str) -> String {
    let parts: Vec<String> = text
        .lines()
        .map(|l| {
            let l = l.trim();
            // The emitter's own comments: whole lines, or after an opening brace.
            let at = if l.starts_with("// ") { Some(0) } else { l.find("{ // ").map(|i| i + 2) };
            match at {
                Some(i) => format!("{}/* {} */", &l[..i], l[i + 3..].replace("*/", "* /")),
                None => l.to_string(),
            }
        })
        .collect();
    parts.join(" ")
}

fn binop(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::Rem => "%",
        BinOp::Shl => "<<",
        BinOp::Shr => ">>",
        BinOp::BitAnd => "&",
        BinOp::BitOr => "|",
        BinOp::BitXor => "^",
        BinOp::Eq => "==",
        BinOp::Ne => "!=",
        BinOp::Lt => "<",
        BinOp::Le => "<=",
        BinOp::Gt => ">",
        BinOp::Ge => ">=",
    }
}

fn join(base: &str, declarator: &str) -> String {
    if declarator.is_empty() { base.to_string() } else { format!("{base} {declarator}") }
}

fn float_lit(f: f64, ty: &Type) -> String {
    let single = matches!(ty, Type::Float(FloatKind::F32));
    if f.is_nan() {
        return if single { "__int_as_float(0x7fc00000)".into() } else { "__longlong_as_double(0x7ff8000000000000LL)".into() };
    }
    if f.is_infinite() {
        let neg = if f < 0.0 { "-" } else { "" };
        return if single { format!("{neg}__int_as_float(0x7f800000)") } else { format!("{neg}__longlong_as_double(0x7ff0000000000000LL)") };
    }
    let s = if single { format!("{:?}", f as f32) } else { format!("{f:?}") };
    let s = if s.contains(['.', 'e', 'E']) { s } else { format!("{s}.0") };
    let s = if single { format!("{s}f") } else { s };
    if f < 0.0 || (f == 0.0 && f.is_sign_negative()) { format!("({s})") } else { s }
}

fn c_string(bytes: &[u8]) -> String {
    let bytes = bytes.strip_suffix(&[0]).unwrap_or(bytes);
    let mut s = String::from("\"");
    for &b in bytes {
        match b {
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            b'\n' => s.push_str("\\n"),
            b'\t' => s.push_str("\\t"),
            b'?' => s.push_str("\\?"),
            0x20..=0x7e => s.push(b as char),
            _ => {
                let _ = write!(s, "\\{b:03o}");
            }
        }
    }
    s.push('"');
    s
}

/// A member name that is not a C++ keyword (C allows `class`, `new`, `this`… as names).
fn member_name(name: &str) -> String {
    const CXX: &[&str] = &[
        "bool", "catch", "class", "delete", "explicit", "export", "false", "friend", "mutable", "namespace", "new", "operator", "private", "protected", "public",
        "template", "this", "throw", "true", "try", "typeid", "typename", "using", "virtual", "nullptr", "decltype", "constexpr", "noexcept", "char16_t", "char32_t",
    ];
    let n = sanitize(name);
    if CXX.contains(&n.as_str()) { format!("{n}_") } else { n }
}

fn sanitize(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect()
}

/// A unique C name for a local: a kernel function's launch parameters (its first four
/// parameters, `KernelParams::FIXED`) keep theirs, others get their index.
fn local_name(l: &Local, id: LocalId) -> String {
    if l.role == LocalRole::LaunchParam && id.0 < 4 {
        return l.name.clone();
    }
    let base = match l.name.as_str() {
        n if l.role == LocalRole::CaptureAddress => format!("{}_addr", sanitize(n.trim_start_matches('&'))),
        "<private>" => "priv".into(),
        "<temp>" => "tmp".into(),
        "<addr>" => "addr".into(),
        n => sanitize(n.trim_matches(['<', '>'])),
    };
    let base = base.trim_start_matches('_');
    // `_0` would become `0_6`: names start with a letter.
    let base = if base.is_empty() || base.starts_with(|c: char| c.is_ascii_digit()) { format!("v{base}") } else { base.to_string() };
    format!("{base}_{}", id.0)
}

/// Whether local `l` of `func` is the schedule variable `var` (`kernel::schedule` records it in
/// the local's role).
pub(crate) fn is_schedule_var(func: &Function, l: LocalId, var: ScheduleVar) -> bool {
    func.locals.get(l.0 as usize).is_some_and(|x| x.role == LocalRole::Schedule(var))
}

/// The assignment a `for` statement's init is (`for (x = …; …)`, possibly as a block of one).
fn for_init_assign(s: &Stmt) -> Option<(LocalId, &Expr)> {
    let StmtKind::For { init: Some(init), .. } = &s.kind else { return None };
    let e = match &init.kind {
        StmtKind::Expr(e) => e,
        StmtKind::Block(v) if v.len() == 1 => match &v[0].kind {
            StmtKind::Expr(e) => e,
            _ => return None,
        },
        _ => return None,
    };
    match &e.kind {
        ExprKind::Assign { place: Place::Local(l), value } => Some((*l, value)),
        _ => None,
    }
}

/// The local a `for` statement's init assigns (`for (x = …; …)`).
pub(crate) fn for_init_local(s: &Stmt) -> Option<LocalId> {
    for_init_assign(s).map(|(l, _)| l)
}

/// A worker or vector partition of a kernel ([`accsim_core::ir::acc::Partition`], made by
/// `kernel::schedule`) and the statement each of its threads runs.
pub(crate) fn thread_loop(s: &Stmt) -> Option<(ThreadLoop, &Stmt)> {
    let StmtKind::Partition(p) = &s.kind else { return None };
    match p.level {
        Level::Worker => Some((ThreadLoop::Worker(p.var), &p.body)),
        Level::Vector => Some((ThreadLoop::Vector(p.var), &p.body)),
        Level::Gang => None,
    }
}

/// The loop over a thread's chunks of a partitioned loop (`for (__chunk_start = …)`).
/// Is every use of pointer local `l` a load through it (never a store, never the address itself)?
fn only_loaded(func: &Function, l: LocalId) -> bool {
    let (mut uses, mut loads) = (0usize, 0usize);
    walk_stmt(&func.body, &mut |e| match &e.kind {
        ExprKind::Local(x) if *x == l => uses += 1,
        ExprKind::Assign { place: Place::Local(x), .. } | ExprKind::CompoundAssign { place: Place::Local(x), .. } | ExprKind::IncDec { place: Place::Local(x), .. } if *x == l => uses += 1,
        ExprKind::Load(a) if matches!(a.kind, ExprKind::Local(x) if x == l) => loads += 1,
        _ => {}
    });
    uses == loads
}

pub(crate) fn is_share_loop(func: &Function, s: &Stmt) -> bool {
    if for_init_local(s).is_some_and(|l| is_schedule_var(func, l, ScheduleVar::ChunkStart)) {
        return true;
    }
    // Without a `static` chunk the share is the grid-stride loop `for (k = thread; …)`.
    for_init_assign(s).is_some_and(|(_, value)| matches!(&value.strip_casts().kind, ExprKind::Local(t) if is_schedule_var(func, *t, ScheduleVar::Thread)))
}

/// Where each local of a kernel lives: a local written inside a partitioned loop and also used
/// in a less partitioned context is shared by the threads of that context.
/// Where each local of kernel function `func` lives: in a `__shared__` slot when a thread loop
/// writes it and a less partitioned context uses it, and values flow between threads through it
/// ([`crate::liveness`]); else in each thread's registers.
fn homes(p: &Program, func: &Function) -> Vec<Home> {
    // For each local: the least partitioned context that uses it, and the contexts that write it.
    let mut first: BTreeMap<LocalId, Threads> = BTreeMap::new();
    let mut written: BTreeMap<LocalId, Vec<Threads>> = BTreeMap::new();
    scan(&func.body, Threads::default(), &mut first, &mut written);
    let mut homes = vec![Home::Thread; func.locals.len()];
    for (l, ws) in written {
        // The execution model's own variables (launch parameters, schedule variables) and the
        // parameters stay in each thread's registers.
        if func.locals.get(l.0 as usize).is_none_or(|x| x.role.is_execution_model()) || func.params.contains(&l) {
            continue;
        }
        let Some(f) = first.get(&l) else { continue };
        if ws.iter().any(|w| w.depth() > f.depth()) && crate::liveness::flows_between_threads(p, func, l) {
            homes[l.0 as usize] = if f.worker { Home::Worker } else { Home::Block };
        }
    }
    homes
}

fn scan(s: &Stmt, th: Threads, first: &mut BTreeMap<LocalId, Threads>, written: &mut BTreeMap<LocalId, Vec<Threads>>) {
    let note_expr = |e: &Expr, first: &mut BTreeMap<LocalId, Threads>, written: &mut BTreeMap<LocalId, Vec<Threads>>| {
        walk_expr(e, &mut |x| {
            let mut use_local = |l: LocalId, w: bool| {
                let f = first.entry(l).or_insert(th);
                if th.depth() < f.depth() {
                    *f = th;
                }
                if w {
                    written.entry(l).or_default().push(th);
                }
            };
            match &x.kind {
                ExprKind::Local(l) => use_local(*l, false),
                // An address escapes: count it as a write.
                ExprKind::LocalAddr(l) => use_local(*l, true),
                ExprKind::Assign { place: Place::Local(l), .. } | ExprKind::CompoundAssign { place: Place::Local(l), .. } | ExprKind::IncDec { place: Place::Local(l), .. } => use_local(*l, true),
                ExprKind::ComplexBinary { dst, .. } | ExprKind::ComplexNeg { dst, .. } | ExprKind::ComplexMake { dst, .. } => use_local(*dst, true),
                ExprKind::Call { result: Some(r), .. } => use_local(*r, true),
                _ => {}
            }
        });
    };
    match &s.kind {
        StmtKind::Partition(_) => {
            if let Some((tl, body)) = thread_loop(s) {
                let inner = match tl {
                    ThreadLoop::Worker(_) => Threads { worker: true, ..th },
                    ThreadLoop::Vector(_) => Threads { vector: true, ..th },
                };
                scan(body, inner, first, written);
            }
        }
        StmtKind::For { cond, step, body, init } => {
            if let Some(i) = init {
                scan(i, th, first, written);
            }
            if let Some(c) = cond {
                note_expr(c, first, written);
            }
            if let Some(c) = step {
                note_expr(c, first, written);
            }
            scan(body, th, first, written);
        }
        StmtKind::Expr(e) | StmtKind::ZeroFill { addr: e, .. } | StmtKind::Return(Some(e)) => note_expr(e, first, written),
        StmtKind::Block(v) => v.iter().for_each(|x| scan(x, th, first, written)),
        StmtKind::If(c, t, e) => {
            note_expr(c, first, written);
            scan(t, th, first, written);
            if let Some(e) = e {
                scan(e, th, first, written);
            }
        }
        StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
            note_expr(c, first, written);
            scan(b, th, first, written);
        }
        StmtKind::Switch { cond, body, .. } => {
            note_expr(cond, first, written);
            scan(body, th, first, written);
        }
        StmtKind::Acc { body: Some(b), .. } => scan(b, th, first, written),
        _ => {}
    }
}
