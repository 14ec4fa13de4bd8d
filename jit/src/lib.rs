//! accsim's native-code engine (issue 15): host functions of the typed IR compiled to machine code
//! with Cranelift, run by `accsim run` in place of the interpreter when nothing observes the run.
//!
//! [`Engine::compile`] compiles every host function the translator covers (see [`translate`] for
//! what that is) and records, for each other function, why it stays in the interpreter
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
//! variadic functions, records and long doubles as values. Bounds checks are not yet hoisted
//! out of loops. Compilation is eager (every covered function, once per run), not lazy.

mod runtime;
pub mod translate;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

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

/// The compiled code of one program.
pub struct Engine {
    /// Entry address of each compiled function, by function id.
    code: Vec<Option<usize>>,
    /// The number of parameters of each function.
    nparams: Vec<usize>,
    locs: Vec<Loc>,
    names: Vec<String>,
    report: Vec<FunctionReport>,
    /// Owns the executable memory the addresses point into.
    _module: ModuleOwner,
}

/// The JIT module, kept alive (never touched again) while its code runs.
struct ModuleOwner {
    _module: JITModule,
}

// SAFETY: after `finalize_definitions` the module is never used again except to be dropped with
// the engine; its code pages are immutable and executable, and any thread may run them.
unsafe impl Send for ModuleOwner {}
// SAFETY: as above: no method of the module is called through a shared reference.
unsafe impl Sync for ModuleOwner {}

impl Engine {
    /// Compile what the engine covers of `p` (linked and compiled into `exe` by the
    /// interpreter; `info` is its side table, with each kernel's fast-share variant). Functions
    /// outlined for the device are left to the interpreter.
    pub fn compile(p: &Program, info: &ProgramInfo, exe: &Executable) -> Result<Engine, String> {
        let mut flags = settings::builder();
        flags.set("opt_level", "speed").map_err(|e| e.to_string())?;
        flags.set("is_pic", "false").map_err(|e| e.to_string())?;
        let isa = cranelift_native::builder()
            .map_err(|e| format!("no native code for this machine: {e}"))?
            .finish(settings::Flags::new(flags))
            .map_err(|e| e.to_string())?;
        let call_conv = isa.default_call_conv();
        let mut module = JITModule::new(JITBuilder::with_isa(isa, default_libcall_names()));
        let target = module.target_config();

        // A kernel's checked variant runs only when a checker or an observer follows the run,
        // which never enters native code; its fast-share variant (or a kernel without one)
        // runs on the device threads.
        let checked_only: HashSet<u32> = info.fast_kernels(p).map(|(k, _)| k.0).collect();
        let mut verdict: Vec<Result<(), String>> = p
            .functions
            .iter()
            .enumerate()
            .map(|(i, f)| {
                if checked_only.contains(&(i as u32)) {
                    Err("the checked variant of a kernel (runs only when the run is observed)".into())
                } else if exe.funcs.get(i).is_none() {
                    Err("not in the executable".into())
                } else {
                    eligible(p, f)
                }
            })
            .collect();

        // A dry translation finds what the translator declines, so that no compiled function
        // calls one that is not.
        let mut locs = Vec::new();
        let mut loc_index = HashMap::new();
        let mut fctx = FunctionBuilderContext::new();
        let mut cctx = module.make_context();
        for (i, f) in p.functions.iter().enumerate() {
            if verdict[i].is_ok() {
                cctx.func.signature = native_signature(call_conv, f.params.len());
                let r = translate_into(
                    p, exe, i as u32, f, &mut cctx, &mut fctx, call_conv, target, &mut locs, &mut loc_index,
                    None,
                );
                module.clear_context(&mut cctx);
                if let Err(why) = r {
                    verdict[i] = Err(why);
                    // The builder stopped half-way: its context is not reusable.
                    fctx = FunctionBuilderContext::new();
                }
            }
        }

        let mut ids: Vec<Option<ClifFuncId>> = vec![None; p.functions.len()];
        let mut entries: Vec<Option<ClifFuncId>> = vec![None; p.functions.len()];
        for (i, f) in p.functions.iter().enumerate() {
            if verdict[i].is_ok() {
                let sig = native_signature(call_conv, f.params.len());
                let id = module
                    .declare_function(&format!("f{i}"), Linkage::Local, &sig)
                    .map_err(|e| e.to_string())?;
                ids[i] = Some(id);
                let entry = module
                    .declare_function(&format!("e{i}"), Linkage::Local, &entry_signature(call_conv))
                    .map_err(|e| e.to_string())?;
                entries[i] = Some(entry);
            }
        }
        for (i, f) in p.functions.iter().enumerate() {
            let Some(id) = ids[i] else { continue };
            cctx.func.signature = native_signature(call_conv, f.params.len());
            cctx.func.name = UserFuncName::user(0, id.as_u32());
            translate_into(
                p,
                exe,
                i as u32,
                f,
                &mut cctx,
                &mut fctx,
                call_conv,
                target,
                &mut locs,
                &mut loc_index,
                Some((&mut module, &ids)),
            )
            .map_err(|e| format!("`{}`: {e}", f.name))?;
            module
                .define_function(id, &mut cctx)
                .map_err(|e| format!("`{}`: {e:?}", f.name))?;
            module.clear_context(&mut cctx);
            if let Some(entry) = entries[i] {
                define_entry(&mut module, &mut cctx, &mut fctx, call_conv, target, entry, id, f.params.len())
                    .map_err(|e| format!("`{}`: {e}", f.name))?;
            }
        }
        module.finalize_definitions().map_err(|e| e.to_string())?;
        let code = entries
            .iter()
            .map(|id| id.map(|id| module.get_finalized_function(id) as usize))
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
        Ok(Engine {
            code,
            nparams: p.functions.iter().map(|f| f.params.len()).collect(),
            locs,
            names: p.functions.iter().map(|f| f.name.clone()).collect(),
            report,
            _module: ModuleOwner { _module: module },
        })
    }

    /// For each function of the program: native, or why not.
    pub fn report(&self) -> &[FunctionReport] {
        &self.report
    }

    /// The handle a run takes in [`accsim_core::exec::RunOptions::native`].
    pub fn handle(self) -> NativeHandle {
        Arc::new(self)
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
    call_conv: cranelift_codegen::isa::CallConv,
    target: cranelift_codegen::isa::TargetFrontendConfig,
    locs: &mut Vec<Loc>,
    loc_index: &mut HashMap<Loc, u64>,
    callees: Option<(&mut JITModule, &[Option<ClifFuncId>])>,
) -> Result<(), String> {
    use cranelift_codegen::ir::{types, InstBuilder};
    let mut b = FunctionBuilder::new(&mut cctx.func, fctx);
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let params = b.block_params(entry).to_vec();
    let vars: Vec<_> = f.locals.iter().map(|_| b.declare_var(types::I64)).collect();
    let zero = b.ins().iconst(types::I64, 0);
    for v in &vars {
        b.def_var(*v, zero);
    }
    for (i, l) in f.params.iter().enumerate() {
        let v = *vars.get(l.0 as usize).ok_or("internal: unknown parameter")?;
        b.def_var(v, params[i + 1]);
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
        callees: HashMap::new(),
        compiled: callees,
        vars,
        ctx: params[0],
        loops: Vec::new(),
        trap_exit,
        sigs: HashMap::new(),
        func: f,
        table,
        table_len,
        fid,
        in_memory: f.locals.iter().map(|l| l.storage == Storage::Memory).collect(),
        frame: None,
        site_counts: HashMap::new(),
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
        matches!(self.code.get(fid as usize), Some(Some(_)))
    }

    fn call(&self, m: &mut Machine, fid: u32, args: &[u64], loc: Loc) -> Result<u64, Trap> {
        let Some(Some(code)) = self.code.get(fid as usize) else {
            return Err(Trap::error(accsim_core::diag::Diagnostic::internal(
                "native call of a function that has no native code",
                None,
            )));
        };
        let nparams = self.nparams.get(fid as usize).copied().unwrap_or(0);
        runtime::enter(m, *code as *const u8, args, nparams, &self.locs, &self.names, loc)
    }
}
