//! accsim's native-code engine (issue 15): host functions of the typed IR compiled to machine code
//! with Cranelift, run by `accsim run` in place of the interpreter when nothing observes the run.
//!
//! [`Engine::compile`] records which functions the translator covers (see [`translate`] for
//! what that is) and, for each other function, why it stays in the interpreter
//! ([`Engine::report`], shown by `accsim info`). The engine plugs into the interpreter through
//! [`accsim_core::exec::native::NativeCode`]: a call of a compiled function (from the interpreter
//! or from native code) runs its native code on the same machine — the same checked memory, C
//! library shim and OpenACC runtime — so output, exit status and faults are the interpreter's.
//!
//! Kernels on the simulated device run natively too when nothing observes their accesses: the
//! fast-share variant of each kernel (`accsim_core::kernel::schedule`), its gangs on the device
//! threads (rayon), reading and writing the shared device words in place (a device thread's span
//! table lists device memory; host memory stays unreachable from it: the slow path faults).
//!
//! A function whose locals live in memory (arrays, records, address-taken scalars) allocates
//! its frame through the interpreter's prologue ([`accsim_core::exec::Machine::native_frame_enter`]),
//! so addresses and faults are the interpreter's. OpenACC statements (data constructs, launches,
//! `update`, `enter`/`exit data`, `wait`, `atomic`) run their interpreter instructions through
//! [`accsim_core::exec::Machine::native_run_site`], the locals passed in a register frame; the
//! body of a data or compute construct stays native code.
//!
//! Not covered yet (they run in the interpreter): VLA locals, `host_data`, `switch`/`goto`,
//! variadic functions, records and long doubles as values. The bounds of affine accesses of
//! counted loops are checked once at loop entry ([`loops`]; the loop as it is, each access
//! checked, runs where those checks fail, in code made when it first does: [`outline`]), where
//! the loop's element-wise
//! iterations run in 128-bit lanes ([`simd`]), their addresses streams from one base per group
//! of accesses a constant apart, set at entry ([`streams`]), and the elements at loop-invariant
//! addresses in registers ([`invariant`]) when no other access of the loop touches their bytes; register
//! `double`s and `float`s live in float registers; scalar memory locals whose address
//! is only read and written in place live in Cranelift variables ([`promote`]); loops of a few
//! constant iterations are unrolled ([`unroll`]); calls of functions that return a pure
//! expression of their parameters are translated inline (`Translator::inlinable`).
//!
//! Compilation is lazy and tiered by counted work ([`tiers`], [`work`]): a function is translated
//! to Cranelift IR and made machine code, once per run, when its tier says so — at its first
//! call when its work cannot be counted before it runs, else once its calls (a kernel: its
//! launches) have counted enough work; until then the interpreter runs it, with the same
//! results. A call from native code of a function with no code yet reads 0 in the engine's code
//! table and takes the interpreter's call path, where the tiers decide. A function whose code
//! generation fails runs in the interpreter. [`Engine::compile_all`] generates everything at
//! once (`accsim info`'s report); `ACCSIM_JIT=eager` compiles everything at its first call.
//!
//! Code is generated in batches, in parallel (issue 15's compile-time target): the call that
//! compiles a function (or the launch of a kernel) translates and generates it and every
//! function its code may reach that has no code yet and would be compiled at its first call
//! anyway (a kernel: everything it reaches, since its gangs must not find a callee without code)
//! — not the library routines the interpreter still runs for their first calls
//! ([`LIBRARY_CALLS_INTERPRETED`]) — each on a thread of its own (Cranelift compiles one function
//! at a time, with no shared state but the ISA), then defines them in the module in function
//! order and makes them executable at once. The code of each function does not depend on the threads, and which
//! functions a batch holds depends only on the program and on the order of first calls, which
//! the host thread makes: runs stay deterministic (see [`NativeCode::prepare`]).
//! Functions whose Cranelift IR is the same share one generation of machine code ([`shared`]):
//! the code names its function's id and source locations through symbols written in when each
//! function's code is defined, and a kernel is translated with its captures in the order of
//! their first use ([`canon`]), so a sweep written twice with its arrays swapped is one code.
//! The interpreter enters native code through one trampoline per number of parameters ([`enter`]:
//! a Rust function where native code uses the C convention, else generated once per count).

pub mod heap;
mod apart;
mod canon;
mod cold;
mod enter;
mod invariant;
mod keeps_table;
mod loop_entry;
mod loops;
mod outer;
mod outline;
mod promote;
mod runtime;
mod simd;
mod shared;
mod site_locals;
mod streams;
#[cfg(test)]
mod tests;
mod tiers;
pub mod translate;
mod unroll;
pub mod work;

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use cranelift_codegen::ir::UserFuncName;
use cranelift_codegen::isa::OwnedTargetIsa;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_codegen::Context;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, FuncId as ClifFuncId, Linkage, Module, ModuleReloc};
use rayon::prelude::*;

use accsim_core::diag::Loc;

/// The engine's hash tables, keyed by pointers into the IR, local and function ids and source
/// locations: hashed by FxHash, not the standard library's SipHash, which was 17% of the
/// translation's instructions (issue 15's compile time); their order does not depend on a
/// per-process seed either.
pub(crate) type HashMap<K, V> = rustc_hash::FxHashMap<K, V>;
pub(crate) type HashSet<K> = rustc_hash::FxHashSet<K>;
use accsim_core::exec::native::{LaunchShape, NativeCode, NativeHandle};
use accsim_core::exec::{Executable, Machine, Trap};
use accsim_core::ir::{Function, Program, Storage};
use accsim_core::kernel::ProgramInfo;

use translate::{eligible, native_signature, Translator};

/// What became of one function.
#[derive(Clone, Debug)]
pub struct FunctionReport {
    pub name: String,
    pub loc: Loc,
    /// `Ok` when it runs as native code; otherwise why the interpreter runs it.
    pub native: Result<(), String>,
    /// When its code is generated ([`tiers`]).
    pub tier: String,
}

/// A function's state in [`Engine::state`].
const PENDING: u8 = 0;
const NATIVE: u8 = 1;
const INTERPRETED: u8 = 2;

/// The code of one program (`p`, compiled by the interpreter into `exe`): each function it
/// covers is translated to Cranelift IR and made machine code when the engine's tiers decide
/// ([`tiers`]), once per run.
pub struct Engine<'p> {
    p: &'p Program,
    exe: &'p Executable,
    /// Keep memory locals in registers where [`promote`] allows it.
    promote: bool,
    /// By function id: a kernel (or a kernel's variant): its launches decide its tier.
    is_kernel: Vec<bool>,
    /// Kernel function → its fast-share variant, which its launches run.
    fast_variant: HashMap<u32, u32>,
    /// By function id: whether the engine may compile it (the translator's first verdict).
    may_be_native: Vec<bool>,
    /// By function id: whether a call of it leaves the span table as it was ([`keeps_table`]).
    keeps_table: Vec<bool>,
    /// By function id: its work can never be counted before a call (a `while`, `do` or `goto`):
    /// compiled at its first call, in the batch of the first function that reaches it.
    uncounted: Vec<bool>,
    call_conv: cranelift_codegen::isa::CallConv,
    target: cranelift_codegen::isa::TargetFrontendConfig,
    /// By function id: the address of its native code (the function's own signature, called
    /// by native code), 0 until it is generated. Native code reads it in place.
    code: Box<[AtomicU64]>,
    /// By function id: the address of the trampoline the interpreter enters it through
    /// (`entry_signature`, one per number of parameters).
    entries: Box<[AtomicU64]>,
    /// By function id: [`PENDING`] (waiting for its tier's decision), [`NATIVE`] or [`INTERPRETED`].
    state: Box<[AtomicU8]>,
    /// The number of parameters of each function.
    nparams: Vec<usize>,
    /// By function id: the source locations its native code passes to helpers, set when it is
    /// translated (`runtime::Ctx::loc`).
    locs: Box<[OnceLock<Vec<Loc>>]>,
    /// By function id: another function may be the same code ([`shared::twinned`]): its code
    /// names its own words through symbols, and is shared ([`shared`]); the others' code
    /// holds them as constants, as Cranelift makes best.
    twinned: Vec<bool>,
    /// By function id: for a kernel translated in canonical form ([`canon`]), the position of
    /// the argument its code takes at each position; set with `locs`.
    arg_orders: Box<[OnceLock<Vec<usize>>]>,
    names: Vec<String>,
    report: Mutex<Vec<FunctionReport>>,
    lazy: Mutex<Lazy>,
    /// Seconds spent translating and generating code (`ACCSIM_NATIVE_COMPILE_TIME`).
    seconds: Mutex<f64>,
    /// Of those, the seconds of setting the engine up (the ISAs, the module, the verdicts).
    setup_seconds: f64,
    /// Of those, the nanoseconds of the translation to Cranelift IR (`ACCSIM_PHASE_TIMES`),
    /// summed over the threads of each batch.
    translate_nanos: AtomicU64,
    /// By function id: the functions its native code may call (direct callees, functions whose
    /// address it takes), the kernels it launches and, for a kernel, its fast-share variant
    /// ([`NativeCode::prepare`]).
    reaches: Vec<Vec<u32>>,
    /// By function id: nothing in the program calls it, takes its address or launches it (the
    /// program's `main`): it runs once ([`unroll::unroll_table`]).
    runs_once: Vec<bool>,
    /// By function id: where the optimisation of a [`Tier::QuickThenOptimised`] function's
    /// code stands ([`TIER_UP_NONE`], [`TIER_UP_WAITING`], [`TIER_UP_STARTED`]).
    optimise: Box<[AtomicU8]>,
    /// By function id: the work ([`work`]) of the launches its quick code has run.
    quick_work: Box<[AtomicU64]>,
    /// By function id: how many more calls the interpreter runs before the function's code is
    /// generated ([`LIBRARY_CALLS_INTERPRETED`] for a library routine, 0 for the program's own).
    interpreted_calls_left: Box<[AtomicU32]>,
    /// What the interpreter ran before the tiers compiled (see [`tiers`]).
    tiering: tiers::Tiering,
    /// By function id: a kernel whose launches have nothing left to decide
    /// ([`NativeCode::prepare_launch`]): it and every function its code may reach have their
    /// final code (none has code still to generate or optimised code still to wait for), so a
    /// launch neither counts its work nor walks its call graph any more.
    settled: Box<[AtomicBool]>,
    /// The stubs native code calls cold helpers through ([`cold`]), defined with the first batch.
    cold_stubs: OnceLock<cold::ColdStubs>,
    /// The slots of the checked versions of loops, made when they first run ([`outline`]).
    outlines: outline::Outlines,
    /// The functions run in the interpreter whose loops are compiled one by one ([`loop_entry`]).
    loop_entries: loop_entry::LoopEntries<'p>,
}

/// The states of [`Engine::optimise`]: nothing to do (the function's code is final), waiting
/// for its quick code to have run [`tiers::QUICK_WORK_BEFORE_OPTIMISING`], optimisation started (or
/// done).
const TIER_UP_NONE: u8 = 0;
const TIER_UP_WAITING: u8 = 1;
const TIER_UP_STARTED: u8 = 2;

/// The calls of a library routine (a function defined in a system header: the C library's
/// inline functions, the Fortran translation's runtime, `ir::FunctionOrigin::SystemHeader`) that
/// the interpreter runs before its code is generated. A program calls most of them a few times
/// (one formatted `print` at the end: the format interpreter is 20 KB of machine code, whose
/// generation cost more than the rest of a small Fortran program's run, issue 16), and one it
/// calls more often is compiled after these calls. The count depends on the program only, so a
/// run stays deterministic; a kernel launch generates everything its kernel reaches first
/// ([`NativeCode::prepare`]).
const LIBRARY_CALLS_INTERPRETED: u32 = 64;

/// What code generation on first call needs: the module (which owns the executable memory the
/// addresses point into) and the IR of the functions not generated yet.
struct Lazy {
    module: JITModule,
    /// The module's ISA, shared by the threads that generate a batch ([`Tier::Optimised`]).
    isa: OwnedTargetIsa,
    /// The same ISA configured for [`Tier::Quick`].
    isa_quick: OwnedTargetIsa,
    /// By function id: how its code is generated.
    tiers: Vec<Tier>,
    /// By function id: the IR of a [`Tier::QuickThenOptimised`] function whose quick code runs,
    /// kept for its optimised code.
    optimised_ir: Vec<Option<cranelift_codegen::ir::Function>>,
    /// The contexts of the stubs, the trampolines and of translations on the calling thread.
    cctx: Context,
    fctx: FunctionBuilderContext,
    /// The context of code generations on the calling thread (and of [`Engine::optimise_now`]):
    /// reused, so that each generation finds the register allocator's tables and Cranelift's
    /// analyses already allocated and their pages already in memory (issue 15: blur's kernel
    /// after its `main`).
    codegen: Context,
    /// By number of parameters: the trampoline the interpreter enters native code through.
    trampolines: HashMap<usize, ClifFuncId>,
    /// The threads that translate and generate batches ([`code_pool`]).
    pool: Option<rayon::ThreadPool>,
    /// The machine code generated so far, shared by functions of the same IR ([`shared`]).
    shared: shared::CodeCache,
}

/// A function's Cranelift IR, its table of source locations and, for a kernel in canonical form
/// ([`canon`]), the order its arguments are passed in.
type TranslatedIr = (cranelift_codegen::ir::Function, Vec<Loc>, Option<Vec<usize>>);

/// What a batch's thread makes of one function (its id, module id, tier and whether its code is
/// dumped): its Cranelift IR, its table of source locations, the order its arguments are passed
/// in when it is a kernel in canonical form ([`canon`]) and the seconds of its translation.
type Translated = (u32, ClifFuncId, Tier, bool, Result<(cranelift_codegen::ir::Function, Vec<Loc>, Option<Vec<usize>>, f64), String>);

/// A function of a batch whose machine code is generated (those of the same IR share it), filed
/// under `key` ([`shared::key`]); `dump`: `ACCSIM_NATIVE_DUMP` names it.
struct Job {
    tier: Tier,
    func: cranelift_codegen::ir::Function,
    id: ClifFuncId,
    fid: u32,
    dump: bool,
    /// Other functions may share its code ([`shared::twinned`], and its code is not dumped).
    share: bool,
    key: u64,
}

/// A function of a batch, translated: where its code comes from, its table of source
/// locations, its arguments' order ([`canon`]), the seconds of its translation and its IR kept
/// for its optimised code ([`Tier::QuickThenOptimised`]).
struct Source {
    code: CodeSource,
    locs: Vec<Loc>,
    order: Option<Vec<usize>>,
    translate_s: f64,
    keep: Option<cranelift_codegen::ir::Function>,
}

/// Machine code made in a batch, and its text when `ACCSIM_NATIVE_DUMP` names the function.
type SharedCode = (Arc<shared::Code>, Option<String>);

/// A [`Job`] done: its key and tier, its IR when the cache files it, and its code.
type JobDone = (u64, Tier, Option<cranelift_codegen::ir::Function>, Result<SharedCode, String>);

/// Where a function of a batch gets its machine code ([`shared`]): code generated before, or
/// the batch's job of that index.
enum CodeSource {
    Made(Arc<shared::Code>),
    Job(usize),
}

/// The machine code of one function, generated on a thread of a batch or shared ([`shared`]).
struct Generated {
    bytes: Vec<u8>,
    align: u64,
    relocs: Vec<ModuleReloc>,
    /// The optimised IR and the machine code, when `ACCSIM_NATIVE_DUMP` names the function.
    dump: Option<String>,
    /// The Cranelift IR instructions it was generated from, and the seconds the generation took
    /// (`ACCSIM_PHASE_TIMES` prints them with each function's tier).
    insts: usize,
    seconds: f64,
}

// SAFETY: the module is only used under the engine's mutex (one thread at a time); the code it
// finalized is immutable and executable, and any thread may run it.
unsafe impl Send for Lazy {}

/// With this variable set, the engine writes `/tmp/perf-PID.map`, the map `perf report` reads
/// to name the compiled functions (a profiling aid; the run is unchanged).
const PERF_MAP_VAR: &str = "ACCSIM_NATIVE_PERF_MAP";

/// With this variable set to a function's name, the engine prints that function's optimised
/// Cranelift IR and machine code on stderr (a profiling aid; the run is unchanged).
const DUMP_VAR: &str = "ACCSIM_NATIVE_DUMP";

/// With this variable set, the engine prints the time it spent compiling when it is dropped
/// (`accsim: native code compiled in S s`, read by `accsim-bench`).
const COMPILE_TIME_VAR: &str = "ACCSIM_NATIVE_COMPILE_TIME";

fn dump_wanted(name: &str) -> bool {
    std::env::var(DUMP_VAR).is_ok_and(|v| v.split(',').any(|n| n == name))
}

impl<'p> Engine<'p> {
    /// The engine of `p` (linked and compiled into `exe` by the interpreter; `info` is its side
    /// table, with each kernel's fast-share variant): what it covers is translated and compiled
    /// when the tiers say so. Functions outlined for the device are left to the interpreter,
    /// except the fast-share variants of kernels.
    pub fn compile(p: &'p Program, info: &ProgramInfo, exe: &'p Executable) -> Result<Engine<'p>, String> {
        Engine::compile_some(p, info, exe, None, None, true)
    }

    /// [`Engine::compile`] on `threads` threads (`None`: one per core; `accsim run
    /// --threads`): the translation, then each batch of code generation.
    pub fn compile_on(p: &'p Program, info: &ProgramInfo, exe: &'p Executable, threads: Option<usize>) -> Result<Engine<'p>, String> {
        Engine::compile_some(p, info, exe, None, threads, true)
    }

    /// Compile the host functions of `p` for `accsim check`, `exe` being the executable compiled
    /// for checking: host code runs as native code whose accesses of the allocations the
    /// checkers follow take the slow path, which reports them
    /// ([`accsim_core::exec::observed_host`]). Kernels and their variants stay in the interpreter
    /// (a checked kernel's accesses are all followed; a proven one runs on
    /// [`Engine::compile_kernels`]' code), and no memory local is kept in a register
    /// ([`promote`]): a scalar named in a data clause has a device copy whose host reads the
    /// checkers follow.
    pub fn compile_for_checking(p: &'p Program, info: &ProgramInfo, exe: &'p Executable) -> Result<Engine<'p>, String> {
        let device: HashSet<u32> = info.kernel_functions(p).map(|f| f.0).collect();
        let host: HashSet<u32> = (0..p.functions.len() as u32).filter(|f| !device.contains(f)).collect();
        Engine::compile_some(p, info, exe, Some(&host), None, false)
    }

    /// Compile the kernels of `p` (each one's fast-share variant, or the kernel when it has
    /// none) and the functions they call, for the executable `exe` that runs kernels `accsim
    /// check` proves race-free at launch (`Executable::plain`); the other functions stay in the
    /// interpreter.
    pub fn compile_kernels(p: &'p Program, info: &ProgramInfo, exe: &'p Executable, threads: Option<usize>) -> Result<Engine<'p>, String> {
        let mut keep: HashSet<u32> = p
            .kernels
            .iter()
            .enumerate()
            .map(|(i, k)| info.fast(accsim_core::ir::acc::KernelId(i as u32)).unwrap_or(k.func).0)
            .collect();
        let mut todo: Vec<u32> = keep.iter().copied().collect();
        while let Some(f) = todo.pop() {
            let Some(func) = p.functions.get(f as usize) else { continue };
            accsim_core::kernel::outline::walk_stmt(
                &func.body,
                &mut |e| {
                    if let accsim_core::ir::ExprKind::Call { callee: accsim_core::ir::Callee::Direct(g), .. } = &e.kind {
                        if keep.insert(g.0) {
                            todo.push(g.0);
                        }
                    }
                },
                &mut |_| {},
            );
        }
        Engine::compile_some(p, info, exe, Some(&keep), threads, true)
    }

    /// [`Engine::compile`], of the functions in `only` when given, on `threads` threads;
    /// `promote`: keep memory locals in registers where [`promote`] allows it.
    fn compile_some(p: &'p Program, info: &ProgramInfo, exe: &'p Executable, only: Option<&HashSet<u32>>, threads: Option<usize>, promote: bool) -> Result<Engine<'p>, String> {
        let start = std::time::Instant::now();
        let isa = make_isa(Tier::Optimised)?;
        let isa_quick = make_isa(Tier::Quick)?;
        let call_conv = isa.default_call_conv();
        let module = JITModule::new(JITBuilder::with_isa(isa.clone(), default_libcall_names()));
        let target = module.target_config();
        let n = p.functions.len();

        // A kernel's checked variant runs only when a checker or an observer follows the run,
        // which never enters native code; its fast-share variant (or a kernel without one)
        // runs on the device threads.
        let checked_only: HashSet<u32> = info.fast_kernels(p).map(|(k, _)| k.0).collect();
        let verdict: Vec<Result<(), String>> = p
            .functions
            .iter()
            .enumerate()
            .map(|(i, f)| {
                if only.is_some_and(|o| !o.contains(&(i as u32))) {
                    Err("not run by a kernel proven race-free".into())
                } else if checked_only.contains(&(i as u32)) {
                    Err("the checked variant of a kernel (runs only when the run is observed)".into())
                } else if exe.funcs.get(i).is_none() {
                    Err("not in the executable".into())
                } else {
                    eligible(p, f)
                }
            })
            .collect();
        let may_be_native: Vec<bool> = verdict.iter().map(Result::is_ok).collect();
        let mut reaches: Vec<Vec<u32>> = p
            .functions
            .iter()
            .map(|f| {
                let mut out = Vec::new();
                let mut launched = Vec::new();
                accsim_core::kernel::outline::walk_stmt(
                    &f.body,
                    &mut |e| match &e.kind {
                        accsim_core::ir::ExprKind::Call { callee: accsim_core::ir::Callee::Direct(g), .. } | accsim_core::ir::ExprKind::FuncAddr(g) => out.push(g.0),
                        _ => {}
                    },
                    &mut |s| {
                        // A launch runs the kernel's fast-share variant (or the kernel) natively.
                        if let accsim_core::ir::StmtKind::AccLaunch(k) = &s.kind {
                            if let Some(kernel) = p.kernels.get(k.0 as usize) {
                                launched.push(info.fast(*k).unwrap_or(kernel.func).0);
                            }
                        }
                    },
                );
                out.append(&mut launched);
                out.sort_unstable();
                out.dedup();
                out
            })
            .collect();
        for (i, k) in p.kernels.iter().enumerate() {
            if let (Some(fast), Some(r)) = (info.fast(accsim_core::ir::acc::KernelId(i as u32)), reaches.get_mut(k.func.0 as usize)) {
                r.push(fast.0);
            }
        }
        let twinned = shared::twinned(p);
        let mut runs_once = vec![true; n];
        for &g in reaches.iter().flatten() {
            if let Some(r) = runs_once.get_mut(g as usize) {
                *r = false;
            }
        }
        let kernel_functions: HashSet<u32> = info.kernel_functions(p).map(|f| f.0).collect();
        let tiers: Vec<Tier> = p
            .functions
            .iter()
            .enumerate()
            .map(|(i, f)| {
                // The code of a kernel is generated quick, then optimised once its launches'
                // counted work pays for it, or at once for a launch of much work or on much data
                // (`NativeCode::prepare_launch`); a kernel whose code is dumped is optimised at
                // once (the dump shows the code that runs).
                if kernel_functions.contains(&(i as u32)) && !dump_wanted(&f.name) {
                    Tier::QuickThenOptimised
                } else {
                    tier_of(f)
                }
            })
            .collect();
        let optimise: Box<[AtomicU8]> = tiers.iter().map(|&t| AtomicU8::new(if t == Tier::QuickThenOptimised { TIER_UP_WAITING } else { TIER_UP_NONE })).collect();
        let code: Box<[AtomicU64]> = (0..n).map(|_| AtomicU64::new(0)).collect();
        let pool = code_pool(threads);
        // Translation to Cranelift IR happens with code generation, function by function, when
        // the tiers decide to compile (`Engine::generate`).
        let state: Box<[AtomicU8]> = verdict
            .iter()
            .map(|v| AtomicU8::new(if v.is_ok() { PENDING } else { INTERPRETED }))
            .collect();
        let is_kernel: Vec<bool> = (0..n as u32).map(|f| kernel_functions.contains(&f)).collect();
        let tiering = tiers::Tiering::new(n);
        let uncounted: Vec<bool> = p.functions.iter().map(tiers::uncounted).collect();
        let loop_entries = loop_entry::LoopEntries::new(p, &may_be_native, &runs_once, &is_kernel, tiering.eager, call_conv, promote);
        let report = p
            .functions
            .iter()
            .enumerate()
            .zip(verdict)
            .map(|((i, f), native)| FunctionReport {
                name: f.name.clone(),
                loc: f.loc,
                native,
                tier: match loop_entries.runs_by_loop(i as u32) {
                    true => tiers::describe_by_loop(),
                    false => tiers::describe(tiering.eager, is_kernel[i], uncounted[i], f.origin == accsim_core::ir::FunctionOrigin::SystemHeader),
                },
            })
            .collect();
        let interpreted_calls_left = p
            .functions
            .iter()
            .map(|f| AtomicU32::new(if f.origin == accsim_core::ir::FunctionOrigin::SystemHeader { LIBRARY_CALLS_INTERPRETED } else { 0 }))
            .collect();
        let keeps_table = keeps_table::keeps_table(p);
        let outlines = outline::Outlines::new(p);
        let setup_seconds = start.elapsed().as_secs_f64();
        accsim_core::phase::report("native-setup", setup_seconds);
        let fast_variant = p.kernels.iter().enumerate().filter_map(|(i, k)| info.fast(accsim_core::ir::acc::KernelId(i as u32)).map(|f| (k.func.0, f.0))).collect();
        Ok(Engine {
            p,
            exe,
            fast_variant,
            promote,
            is_kernel,
            may_be_native,
            keeps_table,
            uncounted,
            call_conv,
            target,
            interpreted_calls_left,
            code,
            entries: (0..n).map(|_| AtomicU64::new(0)).collect(),
            state,
            nparams: p.functions.iter().map(|f| f.params.len()).collect(),
            // The functions', the checked versions' and the loop entries' ([`outline::Outlines::loc_table`]).
            locs: (0..n + 2 * outlines.len()).map(|_| OnceLock::new()).collect(),
            twinned,
            arg_orders: (0..n).map(|_| OnceLock::new()).collect(),
            names: p.functions.iter().map(|f| f.name.clone()).collect(),
            report: Mutex::new(report),
            lazy: Mutex::new(Lazy {
                module,
                isa,
                isa_quick,
                cctx: Context::new(),
                fctx: FunctionBuilderContext::new(),
                codegen: Context::new(),
                tiers,
                optimised_ir: (0..n).map(|_| None).collect(),
                trampolines: HashMap::default(),
                pool,
                shared: shared::CodeCache::default(),
            }),
            seconds: Mutex::new(setup_seconds),
            setup_seconds,
            translate_nanos: AtomicU64::new(0),
            reaches,
            runs_once,
            optimise,
            quick_work: (0..n).map(|_| AtomicU64::new(0)).collect(),
            tiering,
            settled: (0..n).map(|_| AtomicBool::new(false)).collect(),
            cold_stubs: OnceLock::new(),
            outlines,
            loop_entries,
        })
    }

    /// The handle a run takes in [`accsim_core::exec::RunOptions::native`].
    pub fn handle(self) -> NativeHandle
    where
        'p: 'static,
    {
        Arc::new(self)
    }

    /// Generate the machine code of every function now (what `accsim info` reports on: a
    /// function whose code generation fails is reported as interpreted).
    pub fn compile_all(&self) {
        let all: Vec<u32> = (0..self.state.len() as u32).collect();
        self.generate(&all);
    }

    /// For each function of the program: native, or why not.
    pub fn report(&self) -> Vec<FunctionReport> {
        self.report.lock().map(|r| r.clone()).unwrap_or_default()
    }

    /// Whether function `fid` has native code for this call (`args`: its argument words): a
    /// library routine's code is generated after its first [`LIBRARY_CALLS_INTERPRETED`] calls;
    /// another host function's when its tier says so ([`tiers`]: at once for work it cannot
    /// count, else once its calls' counted work is large enough), with, as one batch, what it
    /// reaches that would be compiled at its first call anyway. A kernel's launches decide its
    /// own ([`NativeCode::prepare_launch`]).
    fn ensure(&self, fid: u32, args: &[u64]) -> bool {
        if self.loop_entries.runs_by_loop(fid) {
            // Its loops are compiled one by one ([`loop_entry`]).
            return false;
        }
        if let Some(left) = self.interpreted_calls_left.get(fid as usize) {
            if left.load(Ordering::Acquire) > 0 && self.state.get(fid as usize).is_some_and(|s| s.load(Ordering::Acquire) == PENDING) {
                // Concurrent callers (host code is one thread; kernels' callees are generated
                // before launch) could only make the count reach 0 a call earlier.
                let _ = left.fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1));
                return false;
            }
        }
        let Some(state) = self.state.get(fid as usize) else { return false };
        if state.load(Ordering::Acquire) == PENDING {
            let kernel = self.is_kernel.get(fid as usize).copied().unwrap_or(false);
            if !kernel && self.interpret_call(fid, args) {
                return false;
            }
            // A library routine still interpreted for its first calls waits for its own; so do
            // kernels (their launches decide) and functions whose calls the tiers count.
            let interpreted_first = |f: u32| self.interpreted_calls_left.get(f as usize).is_some_and(|l| l.load(Ordering::Acquire) > 0);
            let eager = self.tiering.eager;
            self.generate(&self.reach(fid, |f| {
                let at_first_call = eager || self.uncounted.get(f as usize).copied().unwrap_or(false) && !self.is_kernel.get(f as usize).copied().unwrap_or(false);
                self.state.get(f as usize).is_some_and(|s| s.load(Ordering::Acquire) == PENDING) && (f == fid || (!interpreted_first(f) && at_first_call))
            }));
        }
        state.load(Ordering::Acquire) == NATIVE
    }

    /// Whether host function `fid`'s call with `args` runs in the interpreter ([`tiers`]).
    fn interpret_call(&self, fid: u32, args: &[u64]) -> bool {
        if self.tiering.eager {
            return false;
        }
        let Some(f) = self.p.functions.get(fid as usize) else { return false };
        if f.origin == accsim_core::ir::FunctionOrigin::SystemHeader {
            // A library routine has its own count (`LIBRARY_CALLS_INTERPRETED`).
            return false;
        }
        let known: Vec<Option<u64>> = args.iter().map(|&w| Some(w)).collect();
        match work::estimate(self.p, f, &known, false) {
            Some(w) => self.tiering.interpret(fid, w, tiers::CALLS_INTERPRETED),
            None => false,
        }
    }

    /// The counted work of a launch of kernel `launch.fid` ([`work::launch_estimate`]).
    fn launch_work(&self, launch: &LaunchShape) -> Option<u64> {
        let f = self.p.functions.get(launch.fid as usize)?;
        work::launch_estimate(self.p, f, launch.gangs, launch.workers, launch.vector, launch.captures)
    }

    /// `fid` and the functions its code may reach, transitively (through [`Engine::reaches`]),
    /// that have no code yet, in function order.
    fn pending_reach(&self, fid: u32) -> Vec<u32> {
        self.reach(fid, |f| self.state.get(f as usize).is_some_and(|s| s.load(Ordering::Acquire) == PENDING))
    }

    /// `fid` and the functions its code may reach, transitively, that `keep`, in function order.
    fn reach(&self, fid: u32, keep: impl Fn(u32) -> bool) -> Vec<u32> {
        let mut seen: HashSet<u32> = HashSet::default();
        let mut todo = vec![fid];
        while let Some(f) = todo.pop() {
            if !seen.insert(f) {
                continue;
            }
            todo.extend(self.reaches.get(f as usize).into_iter().flatten().copied());
        }
        let mut out: Vec<u32> = seen.into_iter().filter(|&f| keep(f)).collect();
        out.sort_unstable();
        out
    }

    /// Define the stubs native code calls cold helpers through ([`cold`]), with the first code
    /// the engine makes.
    pub(crate) fn define_cold_stubs(&self, lazy: &mut Lazy) -> Result<(), String> {
        if self.cold_stubs.get().is_none() {
            let stubs = cold::ColdStubs::define(&mut lazy.module, &mut lazy.cctx, &mut lazy.fctx, self.call_conv)?;
            let _ = self.cold_stubs.set(stubs);
        }
        Ok(())
    }

    /// Generate the machine code of the functions of `fids` that have none yet, as one batch
    /// (see the crate's documentation): Cranelift compiles them in parallel, then they are
    /// defined in function order and made executable together. A function whose code
    /// generation fails runs in the interpreter.
    fn generate(&self, fids: &[u32]) {
        let Ok(mut lazy) = self.lazy.lock() else { return };
        let start = std::time::Instant::now();
        if let Err(why) = self.define_cold_stubs(&mut lazy) {
            for &fid in fids {
                if self.state.get(fid as usize).is_some_and(|s| s.load(Ordering::Acquire) == PENDING) {
                    self.interpreted(fid, format!("the helper stubs: {why}"));
                }
            }
            return;
        }
        // Another thread may have generated some of them while this one waited.
        let mut work = Vec::new();
        for &fid in fids {
            if self.state.get(fid as usize).is_none_or(|s| s.load(Ordering::Acquire) != PENDING) {
                continue;
            }
            let name = self.names.get(fid as usize).map_or("", String::as_str);
            let mut tier = lazy.tiers.get(fid as usize).copied().unwrap_or(Tier::Optimised);
            if tier == Tier::QuickThenOptimised && self.optimise[fid as usize].load(Ordering::Relaxed) == TIER_UP_NONE {
                tier = Tier::Optimised;
                self.optimise[fid as usize].store(TIER_UP_NONE, Ordering::Relaxed);
            }
            let nparams = self.nparams.get(fid as usize).copied().unwrap_or(0);
            match lazy.module.declare_function(&format!("f{fid}"), Linkage::Local, &native_signature(self.call_conv, nparams)) {
                Ok(id) => work.push((fid, id, tier, dump_wanted(name))),
                Err(why) => self.interpreted(fid, format!("`{name}`: {why}")),
            }
        }
        let (isa, isa_quick) = (lazy.isa.clone(), lazy.isa_quick.clone());
        // Each function is translated on a thread of the engine's pool, with its own table of
        // source locations (a location's index in native code is the function id in the high 32
        // bits, the index in the function's table in the low ones; see `runtime::Ctx::loc`).
        let translate_one = |(fctx, cctx): &mut (FunctionBuilderContext, Context), (fid, id, tier, dump): (u32, ClifFuncId, Tier, bool)| {
            let started = std::time::Instant::now();
            // A recursive call may call this very code (not through the code table) when no
            // other code replaces it: not a twin's, not quick code optimised later.
            let own = (tier != Tier::QuickThenOptimised && !self.is_twinned(fid)).then_some(id);
            let translated = self.translate(fid, own, fctx, cctx);
            let took = started.elapsed();
            self.translate_nanos.fetch_add(took.as_nanos() as u64, Ordering::Relaxed);
            let name = self.names.get(fid as usize).map_or("", String::as_str);
            let translated = translated.map_err(|why| format!("`{name}`: {why}"));
            (fid, id, tier, dump, translated.map(|(mut func, locs, order)| {
                func.name = UserFuncName::user(0, id.as_u32());
                (func, locs, order, took.as_secs_f64())
            }))
        };
        let contexts = || (FunctionBuilderContext::new(), Context::new());
        let translated: Vec<Translated> = match &lazy.pool {
            Some(pool) if work.len() > 1 => pool.install(|| work.into_par_iter().map_init(contexts, translate_one).collect()),
            _ => {
                let mut c = (std::mem::take(&mut lazy.fctx), std::mem::replace(&mut lazy.cctx, Context::new()));
                let translated = work.into_iter().map(|w| translate_one(&mut c, w)).collect();
                (lazy.fctx, lazy.cctx) = c;
                translated
            }
        };
        // A function whose IR is the same as one generated before, or as another of this batch,
        // shares its machine code ([`shared`]); the others are generated, in parallel. The IR
        // moves into its job; a copy stays only for the cache (a function that may have a twin)
        // and for optimised code to come ([`Tier::QuickThenOptimised`]).
        let mut jobs: Vec<Job> = Vec::new();
        let mut sources: Vec<(u32, ClifFuncId, Tier, Result<Source, String>)> = Vec::new();
        for (fid, id, tier, dump, t) in translated {
            let source = t.map(|(func, locs, order, translate_s)| {
                let keep = (tier == Tier::QuickThenOptimised).then(|| func.clone());
                let key = shared::key(tier, &func);
                let share = !dump && self.is_twinned(fid);
                let found = if !share {
                    None
                } else if let Some(code) = lazy.shared.get(key, tier, &func) {
                    Some(CodeSource::Made(code))
                } else {
                    jobs.iter().position(|j| j.share && j.key == key && j.tier == tier && shared::same(&j.func, &func)).map(CodeSource::Job)
                };
                let code = found.unwrap_or_else(|| {
                    jobs.push(Job { tier, func, id, fid, dump, share, key });
                    CodeSource::Job(jobs.len() - 1)
                });
                Source { code, locs, order, translate_s, keep }
            });
            sources.push((fid, id, tier, source));
        }
        let compile_one = |cctx: &mut Context, j: Job| {
            let isa = if j.tier == Tier::Optimised { &*isa } else { &*isa_quick };
            let name = self.names.get(j.fid as usize).map_or("", String::as_str);
            let for_cache = j.share.then(|| j.func.clone());
            let made = shared::compile(cctx, isa, j.func, j.id, name, j.dump)
                .map(|(code, dump)| (Arc::new(code), dump))
                .map_err(|why| format!("`{name}`: {why}"));
            (j.key, j.tier, for_cache, made)
        };
        let compiled: Vec<JobDone> = {
            let lazy = &mut *lazy;
            match &lazy.pool {
                Some(pool) if jobs.len() > 1 => pool.install(|| jobs.into_par_iter().map_init(Context::new, compile_one).collect()),
                _ => jobs.into_iter().map(|j| compile_one(&mut lazy.codegen, j)).collect(),
            }
        };
        let compiled: Vec<Result<SharedCode, String>> = compiled
            .into_iter()
            .map(|(key, tier, for_cache, made)| {
                if let (Some(func), Ok((code, _))) = (for_cache, &made) {
                    lazy.shared.insert(key, tier, func, code.clone());
                }
                made
            })
            .collect();
        let mut generated_by_job = vec![false; compiled.len()];
        let made: Vec<(u32, ClifFuncId, Result<Generated, String>)> = sources
            .into_iter()
            .map(|(fid, id, tier, source)| {
                let name = self.names.get(fid as usize).map_or("", String::as_str);
                let r = source.and_then(|Source { code, locs, order, translate_s, keep }| {
                    // The first function of a job is the one generated; the others share it.
                    let (code, dump, first) = match code {
                        CodeSource::Made(code) => (code, None, false),
                        CodeSource::Job(j) => {
                            let (code, dump) = compiled.get(j).ok_or("internal: no such job")?.clone()?;
                            let first = !std::mem::replace(&mut generated_by_job[j], true);
                            (code, dump.filter(|_| first), first)
                        }
                    };
                    let g = code.instantiate(fid, id, dump, if first { code.seconds } else { 0.0 }).map_err(|why| format!("`{name}`: {why}"))?;
                    let tier = if keep.is_some() { "quick (optimised later)" } else if tier == Tier::Quick { "quick" } else { "optimised" };
                    let tier = if first { tier.to_string() } else { format!("{tier}, the code of `{}`", code.first) };
                    report_cost(name, &tier, &g, translate_s);
                    if let Some(slot) = lazy.optimised_ir.get_mut(fid as usize) {
                        *slot = keep;
                    }
                    if let Some(l) = self.locs.get(fid as usize) {
                        let _ = l.set(locs);
                    }
                    if let (Some(o), Some(order)) = (self.arg_orders.get(fid as usize), order) {
                        let _ = o.set(order);
                    }
                    Ok(g)
                });
                (fid, id, r)
            })
            .collect();
        let mut defined = Vec::new();
        for (fid, id, made) in made {
            let name = self.names.get(fid as usize).map_or("", String::as_str);
            let nparams = self.nparams.get(fid as usize).copied().unwrap_or(0);
            let call_conv = self.call_conv;
            match made.and_then(|g| lazy.define(id, nparams, call_conv, &g).map(|trampoline| (g, trampoline)).map_err(|why| format!("`{name}`: {why}"))) {
                Ok((g, trampoline)) => defined.push((fid, id, g, trampoline)),
                Err(why) => self.interpreted(fid, why),
            }
        }
        if let Err(e) = lazy.module.finalize_definitions() {
            for (fid, ..) in defined {
                self.interpreted(fid, e.to_string());
            }
            return;
        }
        for (fid, id, g, trampoline) in defined {
            let name = self.names.get(fid as usize).map_or("", String::as_str);
            let code = lazy.module.get_finalized_function(id) as u64;
            let entry = match trampoline {
                Entry::Rust(address) => address,
                Entry::Made(id) => lazy.module.get_finalized_function(id) as u64,
            };
            if let Some(text) = &g.dump {
                eprintln!("accsim: native code of `{name}`:\n{text}");
            }
            perf_map_entry(code, g.bytes.len(), name);
            self.entries[fid as usize].store(entry, Ordering::Release);
            self.code[fid as usize].store(code, Ordering::Release);
            self.state[fid as usize].store(NATIVE, Ordering::Release);
        }
        drop(lazy);
        if let Ok(mut s) = self.seconds.lock() {
            *s += start.elapsed().as_secs_f64();
        }
    }

    /// Whether another function may be the same code as function `fid` ([`shared::twinned`]).
    fn is_twinned(&self, fid: u32) -> bool {
        self.twinned.get(fid as usize).copied().unwrap_or(false)
    }

    /// Generate the optimised code of function `fid`, whose quick code runs, if no thread has
    /// started to, and make later calls run it.
    fn optimise_now(&self, fid: u32) {
        let Some(state) = self.optimise.get(fid as usize) else { return };
        if state.compare_exchange(TIER_UP_WAITING, TIER_UP_STARTED, Ordering::AcqRel, Ordering::Relaxed).is_err() {
            return;
        }
        let Ok(mut lazy) = self.lazy.lock() else { return };
        let start = std::time::Instant::now();
        let Some(func) = lazy.optimised_ir.get_mut(fid as usize).and_then(Option::take) else { return };
        let name = self.names.get(fid as usize).map_or("", String::as_str);
        // The quick code stays where it is: calls running it finish there.
        let Ok(id) = lazy.module.declare_function(&format!("o{fid}"), Linkage::Local, &func.signature) else { return };
        let mut func = func;
        func.name = UserFuncName::user(0, id.as_u32());
        let isa = lazy.isa.clone();
        let key = shared::key(Tier::Optimised, &func);
        let twinned = self.is_twinned(fid);
        let (code, shared) = match lazy.shared.get(key, Tier::Optimised, &func).filter(|_| twinned) {
            Some(code) => (code, true),
            None => {
                let for_cache = twinned.then(|| func.clone());
                let Ok((code, _)) = shared::compile(&mut lazy.codegen, &*isa, func, id, name, false) else { return };
                let code = Arc::new(code);
                if let Some(func) = for_cache {
                    lazy.shared.insert(key, Tier::Optimised, func, code.clone());
                }
                (code, false)
            }
        };
        let tier = if shared { format!("optimised (after quick code), the code of `{}`", code.first) } else { "optimised (after quick code)".to_string() };
        let Ok(g) = code.instantiate(fid, id, None, if shared { 0.0 } else { code.seconds }) else { return };
        report_cost(name, &tier, &g, 0.0);
        let Ok(code) = lazy.define_alone(id, &g, name) else { return };
        self.code[fid as usize].store(code, Ordering::Release);
        drop(lazy);
        if let Ok(mut s) = self.seconds.lock() {
            *s += start.elapsed().as_secs_f64();
        }
    }

    /// Generate the optimised code of kernel `fid` and of every function its code may reach
    /// whose quick code runs and waits for it; whether there was any.
    fn optimise_reach(&self, fid: u32) -> bool {
        let waiting = self.reach(fid, |f| self.optimise.get(f as usize).is_some_and(|o| o.load(Ordering::Relaxed) == TIER_UP_WAITING));
        for &f in &waiting {
            self.optimise_now(f);
        }
        !waiting.is_empty()
    }

    /// Mark kernel `fid` settled when neither it nor any function its code may reach has code
    /// still to generate ([`PENDING`]) or optimised code still to wait for
    /// ([`TIER_UP_WAITING`]): its code and theirs are then final (a function's state only
    /// moves from pending to native or interpreted, and its optimisation from waiting to
    /// started), so later launches have nothing to decide.
    fn settle(&self, fid: u32) {
        let unsettled = |f: u32| {
            self.state.get(f as usize).is_some_and(|s| s.load(Ordering::Acquire) == PENDING)
                || self.optimise.get(f as usize).is_some_and(|o| o.load(Ordering::Acquire) == TIER_UP_WAITING)
        };
        if self.reach(fid, unsettled).is_empty() {
            if let Some(s) = self.settled.get(fid as usize) {
                s.store(true, Ordering::Release);
            }
        }
    }

    /// Whether kernel `fid`'s launches are settled ([`Engine::settle`]).
    #[cfg(test)]
    fn is_settled(&self, fid: u32) -> bool {
        let fid = self.fast_variant.get(&fid).copied().unwrap_or(fid);
        self.settled.get(fid as usize).is_some_and(|s| s.load(Ordering::Acquire))
    }

    /// Translate function `fid` to Cranelift IR (with its table of source locations), or say
    /// why it cannot be.
    fn translate(&self, fid: u32, own: Option<ClifFuncId>, fctx: &mut FunctionBuilderContext, cctx: &mut Context) -> Result<TranslatedIr, String> {
        let f = self.p.functions.get(fid as usize).ok_or("no such function")?;
        // A kernel is translated in its canonical form, whose code kernels that are the same up
        // to the order of their captures share ([`canon`]); its launches pass the arguments in
        // that form's order.
        let twinned = self.is_twinned(fid);
        let canonical = if twinned && self.is_kernel.get(fid as usize).copied().unwrap_or(false) { canon::canonical(self.p, f) } else { None };
        let (f, order) = match &canonical {
            Some(c) => (&c.func, Some(c.order.clone())),
            None => (f, None),
        };
        let signature = native_signature(self.call_conv, f.params.len());
        let (func, locs) = self.translate_from(fid, own, twinned, None, f, signature, fctx, cctx)?;
        Ok((func, locs, order))
    }

    /// Translate function `fid`'s `f` (`own`, `twinned`: [`Origin`]), or with `part` a loop's
    /// code of its own ([`outline`], [`loop_entry`]), into Cranelift IR of `signature`, with its
    /// table of source locations, on the contexts `fctx` and `cctx`.
    fn translate_from(
        &self,
        fid: u32,
        own: Option<ClifFuncId>,
        twinned: bool,
        part: Option<outline::Part>,
        f: &Function,
        signature: cranelift_codegen::ir::Signature,
        fctx: &mut FunctionBuilderContext,
        cctx: &mut Context,
    ) -> Result<(cranelift_codegen::ir::Function, Vec<Loc>), String> {
        let mut locs = Vec::new();
        let mut loc_index = HashMap::default();
        cctx.func.clear();
        cctx.func.signature = signature;
        let is_kernel = self.is_kernel.get(fid as usize).copied().unwrap_or(false);
        let table = self.code.as_ptr() as i64;
        let runs_once = self.runs_once.get(fid as usize).copied().unwrap_or(false);
        let cold_stubs = self.cold_stubs.get().ok_or("internal: no helper stubs")?;
        let constants = match part {
            Some(outline::Part { k, entry: true, .. }) => self.loop_entries.constants(fid, k),
            _ => &[],
        };
        let from = Origin { fid, own, twinned, outlines: &self.outlines, part, call_conv: self.call_conv, constants };
        match translate_into(self.p, self.exe, from, f, cctx, fctx, self.target, &mut locs, &mut loc_index, table, &self.may_be_native, &self.keeps_table, is_kernel, runs_once, self.promote, cold_stubs) {
            Ok(()) => Ok((std::mem::replace(&mut cctx.func, cranelift_codegen::ir::Function::new()), locs)),
            Err(why) => {
                // The builder stopped half-way: its context is not reusable.
                *fctx = FunctionBuilderContext::new();
                Err(why)
            }
        }
    }

    /// Function `fid` runs in the interpreter: its code generation failed (`why`).
    fn interpreted(&self, fid: u32, why: String) {
        if let Ok(mut r) = self.report.lock() {
            if let Some(row) = r.get_mut(fid as usize) {
                row.native = Err(why);
            }
        }
        if let Some(s) = self.state.get(fid as usize) {
            s.store(INTERPRETED, Ordering::Release);
        }
    }
}

/// What [`translate_into`] translates: function `fid`'s code (`own`: its module id, for its
/// recursive calls; `twinned`: [`shared::twinned`]), or, with `part`, the checked version of
/// one of its `for` statements ([`outline`]) or the whole loop, entered from the interpreter
/// ([`loop_entry`]).
struct Origin<'e> {
    fid: u32,
    own: Option<ClifFuncId>,
    twinned: bool,
    outlines: &'e outline::Outlines,
    part: Option<outline::Part>,
    /// The platform's calling convention, of the calls the code makes (a checked version's own
    /// is `preserve_all`, [`outline::signature`]).
    call_conv: cranelift_codegen::isa::CallConv,
    /// A loop entry's locals taken as constants, with their words ([`loop_entry`]).
    constants: &'e [(usize, u64)],
}

/// [`runtime::Outliner::make`] of an engine: the code of a checked version
/// ([`Engine::part_code`]).
///
/// # Safety
/// `engine` is the address of the `Engine` whose [`NativeCode::call`] made the entry.
unsafe fn outliner_make(engine: *const (), slot: u32) -> u64 {
    // SAFETY: the entry's engine (`runtime::Outliner`), alive while its code runs.
    let engine = unsafe { &*(engine as *const Engine<'_>) };
    engine.part_code(slot, false)
}

/// The trampoline a function is entered through ([`enter`]).
enum Entry {
    /// A Rust function's address.
    Rust(u64),
    /// A trampoline generated in the module.
    Made(ClifFuncId),
}

impl Lazy {
    /// Define the generated code `g` of function `id` (of `nparams` parameters, calling
    /// convention `call_conv`) in the module: the trampoline the interpreter enters it through.
    fn define(&mut self, id: ClifFuncId, nparams: usize, call_conv: cranelift_codegen::isa::CallConv, g: &Generated) -> Result<Entry, String> {
        self.module
            .define_function_bytes(id, g.align, &g.bytes, &g.relocs)
            .map_err(|e| format!("{e:?}"))?;
        match enter::rust_trampoline(call_conv, nparams) {
            Some(address) => Ok(Entry::Rust(address)),
            None => self.trampoline(nparams).map(Entry::Made),
        }
    }

    /// Define the generated code `g` of function `id` (named `name`) in the module by itself,
    /// apart from a batch (a function's optimised code after its quick code, a loop's checked
    /// version), and make it executable: its address.
    fn define_alone(&mut self, id: ClifFuncId, g: &Generated, name: &str) -> Result<u64, String> {
        self.module.define_function_bytes(id, g.align, &g.bytes, &g.relocs).map_err(|e| e.to_string())?;
        self.module.finalize_definitions().map_err(|e| e.to_string())?;
        let code = self.module.get_finalized_function(id) as u64;
        perf_map_entry(code, g.bytes.len(), name);
        Ok(code)
    }

    /// The trampoline of functions of `nparams` parameters, defined on first use.
    fn trampoline(&mut self, nparams: usize) -> Result<ClifFuncId, String> {
        if let Some(&id) = self.trampolines.get(&nparams) {
            return Ok(id);
        }
        let call_conv = self.isa.default_call_conv();
        let target = self.module.target_config();
        let id = self
            .module
            .declare_function(&format!("enter{nparams}"), Linkage::Local, &entry_signature(call_conv))
            .map_err(|e| e.to_string())?;
        define_trampoline(&mut self.module, &mut self.cctx, &mut self.fctx, call_conv, target, id, nparams)?;
        self.trampolines.insert(nparams, id);
        Ok(id)
    }

}

/// The threads that translate functions and generate batches of code: `threads` of them
/// (`None`: one per core), or `None` (everything on the calling thread) for one thread or when
/// they cannot start.
fn code_pool(threads: Option<usize>) -> Option<rayon::ThreadPool> {
    if threads == Some(1) {
        return None;
    }
    let mut b = rayon::ThreadPoolBuilder::new().thread_name(|i| format!("accsim-codegen-{i}"));
    if let Some(n) = threads {
        b = b.num_threads(n.max(1));
    }
    b.build().ok().filter(|p| p.current_num_threads() > 1)
}

/// With [`PERF_MAP_VAR`] set, add the code of `name` at `code` (`size` bytes) to
/// `/tmp/perf-PID.map`.
fn perf_map_entry(code: u64, size: usize, name: &str) {
    if std::env::var_os(PERF_MAP_VAR).is_some() {
        use std::io::Write as _;
        let path = format!("/tmp/perf-{}.map", std::process::id());
        if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(path) {
            let _ = writeln!(f, "{code:x} {size:x} native:{name}");
        }
    }
}

/// With `ACCSIM_PHASE_TIMES`, what generating function `name`'s code cost: its tier, the
/// Cranelift IR instructions it was made from, the bytes of machine code and the seconds of
/// translation and generation (issue 15's compile share: where the time goes, kernel by kernel).
fn report_cost(name: &str, tier: &str, g: &Generated, translate_s: f64) {
    if accsim_core::phase::wanted() {
        eprintln!(
            "accsim: native `{name}`: {tier}, {} IR instructions, {} bytes of code, translated in {translate_s:.6} s, generated in {:.6} s",
            g.insts,
            g.bytes.len(),
            g.seconds
        );
    }
}

impl Drop for Engine<'_> {
    fn drop(&mut self) {
        let s = self.seconds.lock().map(|s| *s).unwrap_or(0.0);
        let translate = self.translate_nanos.load(Ordering::Relaxed) as f64 * 1e-9;
        accsim_core::phase::report("native-translate", translate);
        accsim_core::phase::report("native-generate", (s - self.setup_seconds - translate).max(0.0));
        if accsim_core::phase::wanted() {
            eprintln!("{}", self.tiering.summary(&self.state.iter().map(|s| s.load(Ordering::Relaxed) == NATIVE).collect::<Vec<_>>()));
            eprintln!("{}", self.loop_entries.summary());
        }
        if std::env::var_os(COMPILE_TIME_VAR).is_some() {
            eprintln!("accsim: native code compiled in {s:.6} s");
        }
    }
}

/// How a function's machine code is generated.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Tier {
    /// Cranelift's optimiser (`opt_level=speed`: e-graph rewrites, GVN, LICM) and its
    /// backtracking register allocator: the code of loops.
    Optimised,
    /// No mid-end optimisation and the single-pass register allocator: a third to a half of
    /// the generation time, code about half as fast (the `styles` suite all in this tier).
    Quick,
    /// [`Tier::Quick`] first, [`Tier::Optimised`] once the kernel's launches have counted
    /// [`tiers::QUICK_WORK_BEFORE_OPTIMISING`] (at once for a launch of much work or of work
    /// not counted: `NativeCode::prepare_launch`). Both are the same IR, so a run's output,
    /// faults, fuel and steps do not depend on when the switch happens.
    QuickThenOptimised,
}

/// The tier of function `f`'s code: [`Tier::Quick`] for a function with no loop that runs
/// OpenACC statements (the host side of data constructs and launches: each of its statements
/// runs at most once per call, and its time goes to the OpenACC runtime and the kernels, not to
/// its own code), [`Tier::Optimised`] for every other function (a loop-free function called in
/// a hot loop or recursively, like `calltree`'s, runs 15% slower in the quick tier).
fn tier_of(f: &Function) -> Tier {
    use accsim_core::ir::StmtKind;
    let (mut loops, mut acc) = (false, false);
    accsim_core::kernel::outline::walk_stmt(&f.body, &mut |_| {}, &mut |s| match s.kind {
        StmtKind::While(..) | StmtKind::DoWhile(..) | StmtKind::For { .. } | StmtKind::Partition(_) | StmtKind::Goto(_) => loops = true,
        StmtKind::Acc { .. } | StmtKind::AccLaunch(_) => acc = true,
        _ => {}
    });
    if acc && !loops {
        Tier::Quick
    } else {
        Tier::Optimised
    }
}

/// The ISA of this machine, configured for `tier`.
fn make_isa(tier: Tier) -> Result<OwnedTargetIsa, String> {
    let mut flags = settings::builder();
    let (opt, regalloc) = match tier {
        Tier::Optimised => ("speed", "backtracking"),
        Tier::Quick | Tier::QuickThenOptimised => ("none", "single_pass"),
    };
    flags.set("opt_level", opt).map_err(|e| e.to_string())?;
    flags.set("regalloc_algorithm", regalloc).map_err(|e| e.to_string())?;
    // Cranelift's IR verifier took 30% of the code generation time (issue 15's 20,000-line
    // program: 6.3 → 4.4 s of user CPU); it checks the translator, not the program, so it
    // runs in builds with debug assertions (the tests) and not in release builds.
    flags.set("enable_verifier", if cfg!(debug_assertions) { "true" } else { "false" }).map_err(|e| e.to_string())?;
    flags.set("is_pic", "false").map_err(|e| e.to_string())?;
    // The code is defined in the module as bytes (`define_function_bytes`), which registers no
    // unwind information: computing it was wasted (the machine code is the same without it).
    flags.set("unwind_info", "false").map_err(|e| e.to_string())?;
    cranelift_native::builder()
        .map_err(|e| format!("no native code for this machine: {e}"))?
        .finish(settings::Flags::new(flags))
        .map_err(|e| e.to_string())
}

/// The signature of the trampoline the interpreter enters native code through: the context,
/// the address of the argument words and the address of the function's code.
fn entry_signature(call_conv: cranelift_codegen::isa::CallConv) -> cranelift_codegen::ir::Signature {
    use cranelift_codegen::ir::{types, AbiParam};
    let mut s = cranelift_codegen::ir::Signature::new(call_conv);
    s.params.push(AbiParam::new(types::I64));
    s.params.push(AbiParam::new(types::I64));
    s.params.push(AbiParam::new(types::I64));
    s.returns.push(AbiParam::new(types::I64));
    s
}

/// Define the trampoline `id` of functions of `nparams` parameters (see [`entry_signature`]):
/// load the `nparams` argument words, call the code.
fn define_trampoline(
    module: &mut JITModule,
    cctx: &mut Context,
    fctx: &mut FunctionBuilderContext,
    call_conv: cranelift_codegen::isa::CallConv,
    target: cranelift_codegen::isa::TargetFrontendConfig,
    id: ClifFuncId,
    nparams: usize,
) -> Result<(), String> {
    use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData};
    cctx.func.signature = entry_signature(call_conv);
    cctx.func.name = UserFuncName::user(1, id.as_u32());
    {
        let mut b = FunctionBuilder::new(&mut cctx.func, fctx);
        let block = b.create_block();
        b.append_block_params_for_function_params(block);
        b.switch_to_block(block);
        let (ctx, argv, code) = (b.block_params(block)[0], b.block_params(block)[1], b.block_params(block)[2]);
        // The fuel and the depth go in registers ([`native_signature`]); the fuel left comes
        // back to the context, where the entry reads it.
        let fuel = b.ins().load(types::I64, MemFlagsData::trusted(), ctx, runtime::OFF_FUEL);
        let depth = b.ins().load(types::I64, MemFlagsData::trusted(), ctx, runtime::OFF_DEPTH);
        let mut args = vec![ctx, fuel, depth];
        for k in 0..nparams {
            args.push(b.ins().load(types::I64, MemFlagsData::trusted(), argv, (8 * k) as i32));
        }
        let sig = b.import_signature(native_signature(call_conv, nparams));
        let call = b.ins().call_indirect(sig, code, &args);
        let (r, left) = (b.inst_results(call)[0], b.inst_results(call)[1]);
        // 0 after a trap, whose exit stored the fuel left in the context.
        let stored = b.ins().load(types::I64, MemFlagsData::trusted(), ctx, runtime::OFF_FUEL);
        let left = b.ins().select(left, left, stored);
        b.ins().store(MemFlagsData::trusted(), left, ctx, runtime::OFF_FUEL);
        b.ins().return_(&[r]);
        b.seal_all_blocks();
        b.finalize(target);
    }
    module.define_function(id, cctx).map_err(|e| format!("{e:?}"))?;
    module.clear_context(cctx);
    Ok(())
}

/// Translate `f` into `cctx.func` (whose signature is set).
fn translate_into(
    p: &Program,
    exe: &Executable,
    from: Origin<'_>,
    f: &Function,
    cctx: &mut Context,
    fctx: &mut FunctionBuilderContext,
    target: cranelift_codegen::isa::TargetFrontendConfig,
    locs: &mut Vec<Loc>,
    loc_index: &mut HashMap<Loc, u64>,
    code_table: i64,
    may_be_native: &[bool],
    keeps_table: &[bool],
    is_kernel: bool,
    runs_once: bool,
    promote: bool,
    cold_stubs: &cold::ColdStubs,
) -> Result<(), String> {
    let Origin { fid, own, twinned, outlines, part, call_conv, constants } = from;
    use cranelift_codegen::ir::{types, InstBuilder};
    let (promoted, rewritten) = promote::translated_form(p, f, promote);
    let f = rewritten.as_ref().unwrap_or(f);
    // The statements translated: the function's body, or the loop of a part.
    let root = match part {
        Some(outline::Part { k, .. }) => *accsim_core::ir::visit::for_statements(&f.body).get(k as usize).ok_or("internal: no such loop")?,
        None => &f.body,
    };
    let unrolled = unroll::unroll_table(p, f, root, runs_once);
    let none_unrolled = unroll::UnrollTable::default();
    let small_loops = unroll::small_nests(p, f, root, runs_once);
    let mut b = FunctionBuilder::new(&mut cctx.func, fctx);
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let params = b.block_params(entry).to_vec();
    let in_memory: Vec<bool> = f.locals.iter().zip(&promoted).map(|(l, &kept)| l.storage == Storage::Memory && !kept).collect();
    let var_types: Vec<_> = f.locals.iter().zip(&in_memory).map(|(l, &mem)| translate::variable_type(p, l.ty, mem)).collect();
    let vars: Vec<_> = var_types.iter().map(|&ty| b.declare_var(ty)).collect();
    for (v, &ty) in vars.iter().zip(&var_types) {
        let zero = translate::zero_of(&mut b, ty);
        b.def_var(*v, zero);
    }
    for (i, l) in f.params.iter().enumerate().filter(|_| part.is_none()) {
        let v = *vars.get(l.0 as usize).ok_or("internal: unknown parameter")?;
        let ty = var_types.get(l.0 as usize).copied().unwrap_or(types::I64);
        let value = translate::word_to(&mut b, ty, params[i + translate::FIRST_ARG]);
        b.def_var(v, value);
    }
    let trap_exit = b.create_block();
    let table = b.declare_var(types::I64);
    let table_len = b.declare_var(types::I64);
    let fuel = b.declare_var(types::I64);
    // No inlined call can reach the call-depth limit unless the depth at entry is within the
    // levels of inlining of it (an inlined call at level L is at depth + L, L < INLINE_LEVELS).
    let depth = params[2];
    let near_depth_limit = b.ins().icmp_imm_s(
        cranelift_codegen::ir::condcodes::IntCC::UnsignedGreaterThanOrEqual,
        depth,
        (accsim_core::exec::MAX_CALL_DEPTH - (translate::INLINE_LEVELS - 1)) as i64,
    );
    // The function's own code, for its recursive calls ([`Translator::own_code`]).
    let own_code = own.map(|id| {
        let name = b.func.declare_imported_user_function(cranelift_codegen::ir::UserExternalName::new(0, id.as_u32()));
        let signature = b.import_signature(native_signature(call_conv, f.params.len()));
        b.import_function(cranelift_codegen::ir::ExtFuncData {
            name: cranelift_codegen::ir::ExternalName::user(name),
            signature,
            colocated: true,
            patchable: false,
        })
    });
    let mut t = Translator {
        p,
        exe,
        b,
        entry,
        yes: None,
        known: None,
        call_conv,
        locs,
        loc_index,
        code_table,
        may_be_native,
        keeps_table,
        vars,
        ctx: params[0],
        loops: Vec::new(),
        trap_exit,
        sigs: HashMap::default(),
        cold_stubs: cold::loops_carry_floats(p, f, &in_memory).then_some(cold_stubs),
        func: f,
        table,
        table_len,
        fuel,
        near_depth_limit,
        depth,
        own_code,
        loop_free: {
            let mut loops = false;
            // A `goto` may make a loop; a partitioned loop is one.
            accsim_core::ir::visit::walk(
                &f.body,
                true,
                &mut |s| {
                    use accsim_core::ir::StmtKind;
                    loops |= matches!(s.kind, StmtKind::For { .. } | StmtKind::While(..) | StmtKind::DoWhile(..) | StmtKind::Goto(_) | StmtKind::Partition(_));
                },
                &mut |_| {},
            );
            !loops
        },
        fid,
        own_base: None,
        twinned,
        in_memory,
        frame_locals: f.locals.iter().map(|l| l.storage == Storage::Memory).collect(),
        homes: vec![None; f.locals.len()],
        frame: None,
        site_counts: HashMap::default(),
        direct: HashMap::default(),
        direct_locals: HashMap::default(),
        frozen: HashMap::default(),
        is_kernel,
        unrolled: &unrolled,
        none_unrolled: &none_unrolled,
        small_loops: &small_loops,
        unroll_all: &unrolled,
        prepaid: HashSet::default(),
        inline_args: Vec::new(),
        inline_fuel_at_hand: false,
        held: HashMap::default(),
        exact_memo: None,
        exact_through: Vec::new(),
        exact_box: 0,
        lane_reductions: Vec::new(),
        lane_streams: HashMap::default(),
        lane_at: None,
        outlines: Some(outlines),
        outline_facts: None,
        outlined: None,
        loc_fid: part.map_or(fid, |part| outlines.loc_table(part)),
    };
    t.reload_table();
    t.b.def_var(fuel, params[1]);
    match part {
        None => {
            t.enter_frame(&params[translate::FIRST_ARG..]);
            t.stmt(&f.body)?;
            // Falling off the end returns 0 (as the interpreter's instruction list does).
            let z = t.b.ins().iconst(types::I64, 0);
            t.ret(z);
        }
        Some(outline::Part { entry: false, .. }) => t.checked_version_body(root, params[translate::FIRST_ARG], &var_types)?,
        Some(outline::Part { entry: true, .. }) => t.loop_entry_body(root, params[translate::FIRST_ARG], constants)?,
    }
    t.b.switch_to_block(trap_exit);
    // A trap frees the frame too (the interpreter frees each frame as the trap unwinds it).
    t.ret_trapped();
    t.b.seal_all_blocks();
    t.b.finalize(target);
    Ok(())
}

impl NativeCode for Engine<'_> {
    fn compiled(&self, fid: u32, args: &[u64]) -> bool {
        self.ensure(fid, args)
    }

    fn prepare(&self, fid: u32) {
        self.generate(&self.pending_reach(fid));
    }

    /// The tier of a launch ([`tiers`]): a kernel with no code yet runs in the interpreter
    /// while its launches' counted work is small; compiled, it runs quick code until its
    /// launches' work pays for the optimised code (at once for a launch of much work or of work
    /// that cannot be counted: the first gangs of a long launch would otherwise all run the
    /// quick code, on every device thread at once). Once the kernel and everything it may
    /// reach have their final code, the kernel is settled ([`Engine::settled`]) and its
    /// launches go straight to its code: every later launch would decide nothing.
    fn prepare_launch(&self, launch: &LaunchShape) -> bool {
        // The function that runs: the kernel's fast-share variant (same parameters), if any.
        let fid = self.fast_variant.get(&launch.fid).copied().unwrap_or(launch.fid);
        if self.settled.get(fid as usize).is_some_and(|s| s.load(Ordering::Acquire)) {
            return true;
        }
        let launch = &LaunchShape { fid, ..*launch };
        let pending = self.state.get(fid as usize).is_some_and(|s| s.load(Ordering::Acquire) == PENDING);
        let work = self.launch_work(launch);
        if pending {
            if let Some(w) = work {
                if self.tiering.interpret(fid, w, tiers::LAUNCHES_INTERPRETED) {
                    self.tiering.launch_interpreted();
                    return false;
                }
            }
        }
        let optimise_at_once = work.is_none_or(|w| w >= tiers::OPTIMISE_AT_ONCE_WORK);
        if pending && optimise_at_once {
            // Generated optimised, not quick first (`Engine::generate`).
            if let Some(o) = self.optimise.get(fid as usize) {
                let _ = o.compare_exchange(TIER_UP_WAITING, TIER_UP_NONE, Ordering::AcqRel, Ordering::Relaxed);
            }
        }
        self.prepare(fid);
        // Whether this launch changed the code of the kernel or of what it reaches.
        let mut changed = pending;
        if optimise_at_once {
            // The kernel (its fast-share variant) and what it calls, generated quick earlier.
            changed |= self.optimise_reach(fid);
        } else if !pending && self.optimise.get(fid as usize).is_some_and(|o| o.load(Ordering::Relaxed) == TIER_UP_WAITING) {
            let w = work.unwrap_or(u64::MAX);
            let total = self.quick_work.get(fid as usize).map_or(u64::MAX, |q| q.fetch_add(w, Ordering::Relaxed).saturating_add(w));
            if total >= tiers::QUICK_WORK_BEFORE_OPTIMISING {
                changed |= self.optimise_reach(fid);
            }
        }
        if changed {
            self.settle(fid);
        }
        true
    }

    fn run_loop(&self, m: &mut Machine, fid: u32, k: u32, loc: Loc) -> Result<accsim_core::exec::native::LoopRun, Trap> {
        Engine::run_loop(self, m, fid, k, loc)
    }

    fn call(&self, m: &mut Machine, fid: u32, args: &[u64], loc: Loc) -> Result<u64, Trap> {
        let code = match self.entries.get(fid as usize).map(|e| e.load(Ordering::Acquire)) {
            Some(code) if code != 0 => code,
            _ => {
                return Err(Trap::error(accsim_core::diag::Diagnostic::internal(
                    "native call of a function that has no native code",
                    None,
                )))
            }
        };
        let nparams = self.nparams.get(fid as usize).copied().unwrap_or(0);
        // A kernel in canonical form takes its arguments in that form's order ([`canon`]).
        let permuted: Vec<u64>;
        let args = match self.arg_orders.get(fid as usize).and_then(OnceLock::get) {
            Some(order) => {
                permuted = order.iter().map(|&i| args.get(i).copied().unwrap_or(0)).collect();
                &permuted[..]
            }
            None => args,
        };
        let function = self.code.get(fid as usize).map_or(0, |c| c.load(Ordering::Acquire));
        let outliner = runtime::Outliner { engine: self as *const Self as *const (), make: outliner_make };
        runtime::enter(m, code as usize as *const u8, function as usize as *const u8, args, nparams, &self.locs, &self.names, loc, outliner)
    }
}
