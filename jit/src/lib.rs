//! accsim's native-code engine (issue 15): host functions of the typed IR compiled to machine code
//! with Cranelift, run by `accsim run` in place of the interpreter when nothing observes the run.
//!
//! [`Engine::compile`] translates every host function the translator covers (see [`translate`] for
//! what that is) to Cranelift IR and records, for each other function, why it stays in the
//! interpreter
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
//! counted loops are checked once at loop entry ([`loops`]), where the loop's element-wise
//! iterations run in 128-bit lanes ([`simd`]) and the elements at loop-invariant addresses in
//! registers ([`invariant`]) when no other access of the loop touches their bytes; register
//! `double`s and `float`s live in float registers; scalar memory locals whose address
//! is only read and written in place live in Cranelift variables ([`promote`]); loops of a few
//! constant iterations are unrolled ([`unroll`]); calls of functions that return a pure
//! expression of their parameters are translated inline (`Translator::inlinable`).
//!
//! Code generation is lazy: a function's Cranelift IR becomes machine code on its first call
//! (from the interpreter or from native code: a direct call reads the callee's address from the
//! engine's code table and takes the interpreter's call path, which compiles it, while the entry
//! is 0), once per run; a function whose code generation fails runs in the interpreter.
//! [`Engine::compile_all`] generates everything at once (`accsim info`'s report).

mod invariant;
mod loops;
mod promote;
mod runtime;
mod simd;
pub mod translate;
mod unroll;

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Mutex};

use cranelift_codegen::ir::UserFuncName;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_codegen::Context;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, FuncId as ClifFuncId, Linkage, Module};

use accsim_core::diag::Loc;
use accsim_core::exec::native::{NativeCode, NativeHandle};
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
}

/// A function's state in [`Engine::state`].
const PENDING: u8 = 0;
const NATIVE: u8 = 1;
const INTERPRETED: u8 = 2;

/// The code of one program: Cranelift IR of the functions it covers, made machine code on
/// first call.
pub struct Engine {
    /// By function id: the address of its native code (the function's own signature, called
    /// by native code), 0 until it is generated. Native code reads it in place.
    code: Box<[AtomicU64]>,
    /// By function id: the address of its entry (`entry_signature`, called by the interpreter).
    entries: Box<[AtomicU64]>,
    /// By function id: [`PENDING`] (IR waiting for its first call), [`NATIVE`] or [`INTERPRETED`].
    state: Box<[AtomicU8]>,
    /// The number of parameters of each function.
    nparams: Vec<usize>,
    locs: Vec<Loc>,
    names: Vec<String>,
    report: Mutex<Vec<FunctionReport>>,
    lazy: Mutex<Lazy>,
    /// Seconds spent translating and generating code (`ACCSIM_NATIVE_COMPILE_TIME`).
    seconds: Mutex<f64>,
    /// By function id: the functions its native code may call (direct callees, functions whose
    /// address it takes) and, for a kernel, its fast-share variant ([`NativeCode::prepare`]).
    reaches: Vec<Vec<u32>>,
    /// By function id: how many more calls the interpreter runs before the function's code is
    /// generated ([`LIBRARY_CALLS_INTERPRETED`] for a library routine, 0 for the program's own).
    interpreted_calls_left: Box<[AtomicU32]>,
}

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
    cctx: Context,
    fctx: FunctionBuilderContext,
    ir: Vec<Option<cranelift_codegen::ir::Function>>,
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

impl Engine {
    /// Translate what the engine covers of `p` (linked and compiled into `exe` by the
    /// interpreter; `info` is its side table, with each kernel's fast-share variant). Functions
    /// outlined for the device are left to the interpreter, except the fast-share variants of
    /// kernels.
    pub fn compile(p: &Program, info: &ProgramInfo, exe: &Executable) -> Result<Engine, String> {
        Engine::compile_some(p, info, exe, None, true)
    }

    /// Compile the host functions of `p` for `accsim check`, `exe` being the executable compiled
    /// for checking: host code runs as native code whose accesses of the allocations the
    /// checkers follow take the slow path, which reports them
    /// ([`accsim_core::exec::observed_host`]). Kernels and their variants stay in the interpreter
    /// (a checked kernel's accesses are all followed; a proven one runs on
    /// [`Engine::compile_kernels`]' code), and no memory local is kept in a register
    /// ([`promote`]): a scalar named in a data clause has a device copy whose host reads the
    /// checkers follow.
    pub fn compile_for_checking(p: &Program, info: &ProgramInfo, exe: &Executable) -> Result<Engine, String> {
        let device: HashSet<u32> = info.kernel_functions(p).map(|f| f.0).collect();
        let host: HashSet<u32> = (0..p.functions.len() as u32).filter(|f| !device.contains(f)).collect();
        Engine::compile_some(p, info, exe, Some(&host), false)
    }

    /// Compile the kernels of `p` (each one's fast-share variant, or the kernel when it has
    /// none) and the functions they call, for the executable `exe` that runs kernels `accsim
    /// check` proves race-free at launch (`Executable::plain`); the other functions stay in the
    /// interpreter.
    pub fn compile_kernels(p: &Program, info: &ProgramInfo, exe: &Executable) -> Result<Engine, String> {
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
        Engine::compile_some(p, info, exe, Some(&keep), true)
    }

    /// [`Engine::compile`], of the functions in `only` when given; `promote`: keep memory locals
    /// in registers where [`promote`] allows it.
    fn compile_some(p: &Program, info: &ProgramInfo, exe: &Executable, only: Option<&HashSet<u32>>, promote: bool) -> Result<Engine, String> {
        let start = std::time::Instant::now();
        let mut flags = settings::builder();
        flags.set("opt_level", "speed").map_err(|e| e.to_string())?;
        // Cranelift's IR verifier took 30% of the code generation time (issue 15's 20,000-line
        // program: 6.3 → 4.4 s of user CPU); it checks the translator, not the program, so it
        // runs in builds with debug assertions (the tests) and not in release builds.
        flags.set("enable_verifier", if cfg!(debug_assertions) { "true" } else { "false" }).map_err(|e| e.to_string())?;
        flags.set("is_pic", "false").map_err(|e| e.to_string())?;
        let isa = cranelift_native::builder()
            .map_err(|e| format!("no native code for this machine: {e}"))?
            .finish(settings::Flags::new(flags))
            .map_err(|e| e.to_string())?;
        let call_conv = isa.default_call_conv();
        let module = JITModule::new(JITBuilder::with_isa(isa, default_libcall_names()));
        let target = module.target_config();
        let n = p.functions.len();

        // A kernel's checked variant runs only when a checker or an observer follows the run,
        // which never enters native code; its fast-share variant (or a kernel without one)
        // runs on the device threads.
        let checked_only: HashSet<u32> = info.fast_kernels(p).map(|(k, _)| k.0).collect();
        let mut verdict: Vec<Result<(), String>> = p
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
                accsim_core::kernel::outline::walk_stmt(
                    &f.body,
                    &mut |e| match &e.kind {
                        accsim_core::ir::ExprKind::Call { callee: accsim_core::ir::Callee::Direct(g), .. } | accsim_core::ir::ExprKind::FuncAddr(g) => out.push(g.0),
                        _ => {}
                    },
                    &mut |_| {},
                );
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
        let kernel_functions: HashSet<u32> = info.kernel_functions(p).map(|f| f.0).collect();
        let code: Box<[AtomicU64]> = (0..n).map(|_| AtomicU64::new(0)).collect();
        let table = code.as_ptr() as i64;

        let mut locs = Vec::new();
        let mut loc_index = HashMap::new();
        let mut fctx = FunctionBuilderContext::new();
        let mut cctx = Context::new();
        let mut ir = Vec::with_capacity(n);
        for (i, f) in p.functions.iter().enumerate() {
            if verdict[i].is_err() {
                ir.push(None);
                continue;
            }
            cctx.func.clear();
            cctx.func.signature = native_signature(call_conv, f.params.len());
            let is_kernel = kernel_functions.contains(&(i as u32));
            let r = translate_into(p, exe, i as u32, f, &mut cctx, &mut fctx, target, &mut locs, &mut loc_index, table, &may_be_native, is_kernel, promote);
            match r {
                Ok(()) => ir.push(Some(std::mem::replace(&mut cctx.func, cranelift_codegen::ir::Function::new()))),
                Err(why) => {
                    verdict[i] = Err(why);
                    ir.push(None);
                    // The builder stopped half-way: its context is not reusable.
                    fctx = FunctionBuilderContext::new();
                }
            }
        }
        let state: Box<[AtomicU8]> = verdict
            .iter()
            .map(|v| AtomicU8::new(if v.is_ok() { PENDING } else { INTERPRETED }))
            .collect();
        let report = p
            .functions
            .iter()
            .zip(verdict)
            .map(|(f, native)| FunctionReport {
                name: f.name.clone(),
                loc: f.loc,
                native,
            })
            .collect();
        let interpreted_calls_left = p
            .functions
            .iter()
            .map(|f| AtomicU32::new(if f.origin == accsim_core::ir::FunctionOrigin::SystemHeader { LIBRARY_CALLS_INTERPRETED } else { 0 }))
            .collect();
        Ok(Engine {
            interpreted_calls_left,
            code,
            entries: (0..n).map(|_| AtomicU64::new(0)).collect(),
            state,
            nparams: p.functions.iter().map(|f| f.params.len()).collect(),
            locs,
            names: p.functions.iter().map(|f| f.name.clone()).collect(),
            report: Mutex::new(report),
            lazy: Mutex::new(Lazy { module, cctx, fctx, ir }),
            seconds: Mutex::new(start.elapsed().as_secs_f64()),
            reaches,
        })
    }

    /// Generate the machine code of every function now (what `accsim info` reports on: a
    /// function whose code generation fails is reported as interpreted).
    pub fn compile_all(&self) {
        for fid in 0..self.state.len() as u32 {
            self.generate_now(fid);
        }
    }

    /// For each function of the program: native, or why not.
    pub fn report(&self) -> Vec<FunctionReport> {
        self.report.lock().map(|r| r.clone()).unwrap_or_default()
    }

    /// The handle a run takes in [`accsim_core::exec::RunOptions::native`].
    pub fn handle(self) -> NativeHandle {
        Arc::new(self)
    }

    /// Whether function `fid` has native code for this call: generated on the program's first
    /// call of one of its own functions, on the call after the first
    /// [`LIBRARY_CALLS_INTERPRETED`] of a library routine.
    fn ensure(&self, fid: u32) -> bool {
        if let Some(left) = self.interpreted_calls_left.get(fid as usize) {
            if left.load(Ordering::Acquire) > 0 && self.state.get(fid as usize).is_some_and(|s| s.load(Ordering::Acquire) == PENDING) {
                // Concurrent callers (host code is one thread; kernels' callees are generated
                // before launch) could only make the count reach 0 a call earlier.
                let _ = left.fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1));
                return false;
            }
        }
        self.generate_now(fid)
    }

    /// Whether function `fid` has native code, generating it now if it is pending.
    fn generate_now(&self, fid: u32) -> bool {
        let Some(state) = self.state.get(fid as usize) else { return false };
        match state.load(Ordering::Acquire) {
            NATIVE => return true,
            INTERPRETED => return false,
            _ => {}
        }
        let Ok(mut lazy) = self.lazy.lock() else { return false };
        // Another thread may have generated it while this one waited.
        match state.load(Ordering::Acquire) {
            NATIVE => return true,
            INTERPRETED => return false,
            _ => {}
        }
        let start = std::time::Instant::now();
        let name = self.names.get(fid as usize).cloned().unwrap_or_default();
        let nparams = self.nparams.get(fid as usize).copied().unwrap_or(0);
        // A failure of the code generator is a bug of accsim's; the function then runs in the
        // interpreter rather than stopping the program.
        let made = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| lazy.generate(fid, &name, nparams)))
            .unwrap_or_else(|_| Err("the code generator failed (an accsim bug)".into()));
        drop(lazy);
        if let Ok(mut s) = self.seconds.lock() {
            *s += start.elapsed().as_secs_f64();
        }
        match made {
            Ok((code, entry)) => {
                self.entries[fid as usize].store(entry, Ordering::Release);
                self.code[fid as usize].store(code, Ordering::Release);
                state.store(NATIVE, Ordering::Release);
                true
            }
            Err(why) => {
                if let Ok(mut r) = self.report.lock() {
                    if let Some(row) = r.get_mut(fid as usize) {
                        row.native = Err(why);
                    }
                }
                state.store(INTERPRETED, Ordering::Release);
                false
            }
        }
    }
}

impl Lazy {
    /// Generate the machine code of function `fid` and its entry: their addresses.
    fn generate(&mut self, fid: u32, name: &str, nparams: usize) -> Result<(u64, u64), String> {
        let func = self
            .ir
            .get_mut(fid as usize)
            .and_then(Option::take)
            .ok_or("no Cranelift IR for this function")?;
        let call_conv = func.signature.call_conv;
        let target = self.module.target_config();
        let id = self
            .module
            .declare_function(&format!("f{fid}"), Linkage::Local, &func.signature)
            .map_err(|e| e.to_string())?;
        let entry = self
            .module
            .declare_function(&format!("e{fid}"), Linkage::Local, &entry_signature(call_conv))
            .map_err(|e| e.to_string())?;
        self.cctx.clear();
        self.cctx.func = func;
        self.cctx.func.name = UserFuncName::user(0, id.as_u32());
        let dump = dump_wanted(name);
        self.cctx.set_disasm(dump);
        self.module
            .define_function(id, &mut self.cctx)
            .map_err(|e| format!("`{name}`: {e:?}"))?;
        if dump {
            let vcode = self.cctx.compiled_code().and_then(|c| c.vcode.clone()).unwrap_or_default();
            eprintln!("accsim: native code of `{name}`:\n{}\n{vcode}", self.cctx.func.display());
        }
        let size = self.cctx.compiled_code().map_or(0, |c| c.code_info().total_size);
        self.module.clear_context(&mut self.cctx);
        define_entry(&mut self.module, &mut self.cctx, &mut self.fctx, call_conv, target, entry, id, nparams)
            .map_err(|e| format!("`{name}`: {e}"))?;
        self.module.finalize_definitions().map_err(|e| e.to_string())?;
        let code = self.module.get_finalized_function(id) as u64;
        if std::env::var_os(PERF_MAP_VAR).is_some() {
            use std::io::Write as _;
            let path = format!("/tmp/perf-{}.map", std::process::id());
            if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(path) {
                let _ = writeln!(f, "{code:x} {size:x} native:{name}");
            }
        }
        Ok((code, self.module.get_finalized_function(entry) as u64))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if std::env::var_os(COMPILE_TIME_VAR).is_some() {
            let s = self.seconds.lock().map(|s| *s).unwrap_or(0.0);
            eprintln!("accsim: native code compiled in {s:.6} s");
        }
    }
}

/// The signature of the entry of a compiled function: the context and the address of its
/// argument words.
fn entry_signature(call_conv: cranelift_codegen::isa::CallConv) -> cranelift_codegen::ir::Signature {
    use cranelift_codegen::ir::{types, AbiParam};
    let mut s = cranelift_codegen::ir::Signature::new(call_conv);
    s.params.push(AbiParam::new(types::I64));
    s.params.push(AbiParam::new(types::I64));
    s.returns.push(AbiParam::new(types::I64));
    s
}

/// Define `entry` (see [`entry_signature`]): load the `nparams` argument words, call `func`.
fn define_entry(
    module: &mut JITModule,
    cctx: &mut Context,
    fctx: &mut FunctionBuilderContext,
    call_conv: cranelift_codegen::isa::CallConv,
    target: cranelift_codegen::isa::TargetFrontendConfig,
    entry: ClifFuncId,
    func: ClifFuncId,
    nparams: usize,
) -> Result<(), String> {
    use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData};
    cctx.func.signature = entry_signature(call_conv);
    cctx.func.name = UserFuncName::user(1, entry.as_u32());
    {
        let mut b = FunctionBuilder::new(&mut cctx.func, fctx);
        let block = b.create_block();
        b.append_block_params_for_function_params(block);
        b.switch_to_block(block);
        let (ctx, argv) = (b.block_params(block)[0], b.block_params(block)[1]);
        let mut args = vec![ctx];
        for k in 0..nparams {
            args.push(b.ins().load(types::I64, MemFlagsData::trusted(), argv, (8 * k) as i32));
        }
        let callee = module.declare_func_in_func(func, b.func);
        let call = b.ins().call(callee, &args);
        let r = b.inst_results(call)[0];
        b.ins().return_(&[r]);
        b.seal_all_blocks();
        b.finalize(target);
    }
    module.define_function(entry, cctx).map_err(|e| format!("{e:?}"))?;
    module.clear_context(cctx);
    Ok(())
}

/// Translate `f` into `cctx.func` (whose signature is set).
fn translate_into(
    p: &Program,
    exe: &Executable,
    fid: u32,
    f: &Function,
    cctx: &mut Context,
    fctx: &mut FunctionBuilderContext,
    target: cranelift_codegen::isa::TargetFrontendConfig,
    locs: &mut Vec<Loc>,
    loc_index: &mut HashMap<Loc, u64>,
    code_table: i64,
    may_be_native: &[bool],
    is_kernel: bool,
    promote: bool,
) -> Result<(), String> {
    use cranelift_codegen::ir::{types, InstBuilder};
    let promoted = if promote { promote::promotable(p, f) } else { vec![false; f.locals.len()] };
    let rewritten;
    let f = if promoted.iter().any(|&x| x) {
        rewritten = promote::rewrite(f, &promoted);
        &rewritten
    } else {
        f
    };
    let unrolled = unroll::unroll_table(p, f);
    let call_conv = cctx.func.signature.call_conv;
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
    for (i, l) in f.params.iter().enumerate() {
        let v = *vars.get(l.0 as usize).ok_or("internal: unknown parameter")?;
        let ty = var_types.get(l.0 as usize).copied().unwrap_or(types::I64);
        let value = translate::word_to(&mut b, ty, params[i + 1]);
        b.def_var(v, value);
    }
    let trap_exit = b.create_block();
    let table = b.declare_var(types::I64);
    let table_len = b.declare_var(types::I64);
    let mut t = Translator {
        p,
        exe,
        b,
        call_conv,
        locs,
        loc_index,
        code_table,
        may_be_native,
        vars,
        ctx: params[0],
        loops: Vec::new(),
        trap_exit,
        sigs: HashMap::new(),
        func: f,
        table,
        table_len,
        fid,
        in_memory,
        frame_locals: f.locals.iter().map(|l| l.storage == Storage::Memory).collect(),
        homes: vec![None; f.locals.len()],
        frame: None,
        site_counts: HashMap::new(),
        direct: HashMap::new(),
        direct_locals: HashMap::new(),
        frozen: HashMap::new(),
        is_kernel,
        unrolled: &unrolled,
        prepaid: HashSet::new(),
        inline_args: Vec::new(),
        held: HashMap::new(),
    };
    t.reload_table();
    t.enter_frame(&params[1..]);
    t.stmt(&f.body)?;
    // Falling off the end returns 0 (as the interpreter's instruction list does).
    let z = t.b.ins().iconst(types::I64, 0);
    t.ret(z);
    t.b.switch_to_block(trap_exit);
    // A trap frees the frame too (the interpreter frees each frame as the trap unwinds it).
    let z = t.b.ins().iconst(types::I64, 0);
    t.ret(z);
    t.b.seal_all_blocks();
    t.b.finalize(target);
    Ok(())
}

impl NativeCode for Engine {
    fn compiled(&self, fid: u32) -> bool {
        self.ensure(fid)
    }

    fn prepare(&self, fid: u32) {
        let mut seen: HashSet<u32> = HashSet::new();
        let mut todo = vec![fid];
        while let Some(f) = todo.pop() {
            if !seen.insert(f) {
                continue;
            }
            self.generate_now(f);
            todo.extend(self.reaches.get(f as usize).into_iter().flatten().copied());
        }
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
        runtime::enter(m, code as usize as *const u8, args, nparams, &self.locs, &self.names, loc)
    }
}
