//! IR → executable form: closures specialised by operation, type and operand shape, and per
//! function a flat instruction list with resolved jump targets.
//!
//! Allocation ids of static objects are fixed at compile time (null, functions, then globals in
//! order, then string literals, then the C library's objects), so the address of a global or a
//! string literal is a constant word.

// Diagnostics are returned by value at compile time only, off any hot path.
#![allow(clippy::result_large_err)]

use std::collections::HashMap;

use super::libc_shim::{self, Binding};
use super::machine::{
    arith_trap, call_function, call_indirect, run_code, ArithFault, Machine, Trap,
};
use super::memory::{ptr_word, AllocKind, FUNC_ID};
use super::value::{apply, cast_fn, norm, truthy, CastFn, Kind};
use super::machine::code::index::{IndexF, Poly, Term};
use super::machine::code::*;
use crate::diag::{Diagnostic, Diagnostics, Loc};
use crate::kernel::ProgramInfo;
use crate::ir::*;

#[macro_use]
mod access;
mod arith;
mod atomic_word;
mod calls;
mod checking;
mod deep_copy;
mod expr;
mod index;
mod offload;
mod stmt;
mod superinstr;
pub mod vector;

use access::*;
use arith::*;

/// The variable that the first argument of each call of an `acc_*` routine in `p` names: a
/// pointer or array variable (`b`, `&x`, `b + 8`), by call site. Other arguments name nothing.
fn api_argument_names(p: &Program) -> std::collections::HashMap<Loc, String> {
    fn named(p: &Program, f: &Function, e: &Expr) -> Option<String> {
        // A variable of the program (not one the outliner or the scheduler made), by its id.
        let local = |l: &LocalId| f.locals.get(l.0 as usize).filter(|x| x.role == LocalRole::Program).map(|x| x.name.clone());
        match &e.strip_casts().kind {
            ExprKind::Local(l) | ExprKind::LocalAddr(l) => local(l),
            ExprKind::GlobalAddr(g) => p.globals.get(g.0 as usize).map(|x| x.name.clone()),
            ExprKind::Load(a) => match &a.kind {
                ExprKind::LocalAddr(l) => local(l),
                ExprKind::GlobalAddr(g) => p.globals.get(g.0 as usize).map(|x| x.name.clone()),
                _ => None,
            },
            ExprKind::PtrAdd { ptr, .. } => named(p, f, ptr),
            _ => None,
        }
        .filter(|n| !n.is_empty())
    }
    let mut out = std::collections::HashMap::new();
    for f in &p.functions {
        crate::kernel::outline::walk_stmt(&f.body, &mut |e| {
            if let ExprKind::Call { callee: Callee::Extern(x), args, .. } = &e.kind {
                let routine = p.externs.get(x.0 as usize).is_some_and(|x| x.name.starts_with("acc_"));
                if let Some(name) = args.first().filter(|_| routine).and_then(|a| named(p, f, a)) {
                    out.insert(e.loc, name);
                }
            }
        }, &mut |_| {});
    }
    out
}

type R<T> = Result<T, Diagnostic>;

/// The whole global variables named by file-scope `declare` directives.
fn file_scope_declares(p: &Program) -> Vec<(crate::ir::acc::DataClause, u64, u64, String, String, Loc)> {
    use crate::ir::acc::{AccClauseKind, AccKind, VarRoot};
    let mut out = Vec::new();
    for d in &p.file_scope_directives {
        let Some(Some(dir)) = p.acc.get(d.0 as usize) else { continue };
        if !matches!(dir.kind, AccKind::Declare) {
            continue;
        }
        for c in &dir.clauses {
            if let AccClauseKind::Data(dc, vars) = &c.kind {
                for v in vars {
                    if let VarRoot::Global(g) = v.root {
                        let size = p.types.size_of(v.var_ty).unwrap_or(0);
                        out.push((*dc, Executable::global_ptr(g.0), size, v.text.clone(), v.name.clone(), v.loc));
                    }
                }
            }
        }
    }
    out
}

/// Compile a whole program.
pub fn compile(p: &Program, info: &ProgramInfo) -> Result<Executable, Diagnostics> {
    compile_mode(p, info, false)
}

/// Compile `p` (with its side table `info`); with `checking`, every memory access calls the
/// run's checker (see [`super::check`]) and no fused loads or loops are made.
pub fn compile_mode(p: &Program, info: &ProgramInfo, checking: bool) -> Result<Executable, Diagnostics> {
    compile_some(p, info, checking, None)
}

/// The functions a kernel proven at launch may run: the kernel functions, their fast variants,
/// and what they call (pure functions only, `kernel::footprint`), transitively.
fn kernel_closure(p: &Program, info: &ProgramInfo) -> std::collections::HashSet<usize> {
    let mut keep: std::collections::HashSet<usize> = info.kernel_functions(p).map(|f| f.0 as usize).collect();
    let mut todo: Vec<usize> = keep.iter().copied().collect();
    while let Some(f) = todo.pop() {
        let Some(func) = p.functions.get(f) else { continue };
        crate::kernel::outline::walk_stmt(&func.body, &mut |e| {
            if let ExprKind::Call { callee: Callee::Direct(g), .. } = &e.kind {
                if keep.insert(g.0 as usize) {
                    todo.push(g.0 as usize);
                }
            }
        }, &mut |_| {});
    }
    keep
}

/// Compile `p` (only the functions in `only`, when given: the others are left empty).
fn compile_some(p: &Program, info: &ProgramInfo, checking: bool, only: Option<&std::collections::HashSet<usize>>) -> Result<Executable, Diagnostics> {
    let mut errors = Vec::new();
    // What the C library binds each extern to (the executable keeps only how to call it).
    let bindings: Vec<Binding> = p.externs.iter().map(|e| libc_shim::bind(&e.name, &p.types, e.ty)).collect();
    let mut exe = Executable {
        declares: file_scope_declares(p),
        funcs: Vec::new(),
        globals: Vec::new(),
        strings: p.strings.clone(),
        externs: bindings
            .iter()
            .map(|b| match *b {
                Binding::Function(shim) => ExternCode::Function(Box::new(move |m, args, ret, loc| libc_shim::call(m, shim, args, ret, loc))),
                Binding::Object(i) => ExternCode::Object(i),
                Binding::Unbound => ExternCode::Unbound,
            })
            .collect(),
        main: p.main.map(|f| f.0),
        fast_kernels: info.fast_kernels(p).map(|(k, fast)| (k.0, fast.0)).collect(),
        schedules: p.kernels.iter().enumerate().map(|(i, k)| (k.func.0, info.loops(crate::ir::acc::KernelId(i as u32)).iter().map(super::events::LoopSchedule::of).collect())).collect(),
        plans: Default::default(),
        plain: None,
        api_names: api_argument_names(p),
    };
    // Access plans: the proofs of `accsim check`, and the implicit data of a pointer no clause
    // names (`openacc::implicit_pointer_data`).
    exe.plans = p.kernels.iter().enumerate().map(|(i, k)| (k.func.0, info.plan(crate::ir::acc::KernelId(i as u32)))).collect();
    if checking && exe.plans.values().any(Result::is_ok) {
        let mut plain = compile_some(p, info, false, Some(&kernel_closure(p, info)))?;
        // The program's globals are allocated from this executable's images when the run
        // starts; the plain one only runs proven kernels, which read a global's name (messages)
        // but never its initial bytes: without them `check` holds no second copy of every
        // global array (bicg's 30 MiB `A`, issue 15's memory target).
        for g in &mut plain.globals {
            g.bytes = Vec::new();
            g.relocs = Vec::new();
        }
        exe.plain = Some(Box::new(plain));
    }
    for g in &p.globals {
        let size = p.types.size_of(g.ty).unwrap_or(0);
        // Zeroed lazily (`vec![0; n]` is `calloc`), the initializer's bytes copied in: the image
        // of a large global without one (jacobi-2d's `static double A[N][N]`) costs no memory
        // (issue 15's memory target).
        let init = g.init.as_ref().map_or(&[][..], |i| &i.bytes[..]);
        let mut bytes = vec![0u8; (size as usize).max(init.len())];
        bytes[..init.len()].copy_from_slice(init);
        let mut relocs = Vec::new();
        for r in g.init.iter().flat_map(|i| i.relocs.iter()) {
            let base = match r.target {
                RelocTarget::Global(t) => Executable::global_ptr(t.0),
                RelocTarget::Str(s) => ptr_word(FIRST_GLOBAL + p.globals.len() as u32 + s.0, 0),
                RelocTarget::Func(f) => ptr_word(FUNC_ID, f.0),
            };
            relocs.push((r.offset, base.wrapping_add(r.addend as u64)));
        }
        exe.globals.push(GlobalImage {
            name: g.name.clone(),
            bytes,
            relocs,
            read_only: g.read_only,
            loc: g.loc,
        });
    }
    // Each function compiles on its own (the executable's tables above are read-only here), on
    // the machine's cores, the results kept in function order (issue 15's 20,000-line program).
    let compiled_functions = {
        let exe = &exe;
        let compile_one = |(i, f): (usize, &Function)| only.is_none_or(|o| o.contains(&i)).then(|| compile_function(p, exe, &bindings, i as u32, f, checking));
        in_parallel(p.functions.iter().enumerate().collect(), &compile_one)
    };
    for (compiled, f) in compiled_functions.into_iter().zip(&p.functions) {
        match compiled {
            Some(Ok(cf)) => exe.funcs.push(cf),
            failed_or_left_out => {
                if let Some(Err(d)) = failed_or_left_out {
                    errors.push(d);
                }
                exe.funcs.push(CFunc {
                    name: f.name.clone(),
                    loc: f.loc,
                    end_loc: f.loc,
                    code: Vec::new(),
                    nparams: 0,
                    nslots: 0,
                    params: Vec::new(),
                    memory_locals: Vec::new(),
                    local_names: Vec::new(),
                    program_names: Vec::new(),
                    thread_locals: Vec::new(),
                    shares_locals: false,
                    homes: Vec::new(),
                    variadic: false,
                    ret_kind: Kind::Void,
                    acc_sites: Vec::new(),
                });
            }
        }
    }
    if errors.is_empty() {
        Ok(exe)
    } else {
        Err(Diagnostics(errors))
    }
}

/// `work(item)` for each of `items`, on up to one thread per core, in chunks of consecutive
/// items; the results in `items`' order (so they do not depend on the threads).
fn in_parallel<T: Send, U: Send>(items: Vec<T>, work: &(dyn Fn(T) -> U + Sync)) -> Vec<U> {
    /// Fewer items than this run on the calling thread (a thread costs more than they do).
    const PER_THREAD: usize = 64;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(items.len() / PER_THREAD).max(1);
    if threads == 1 {
        return items.into_iter().map(work).collect();
    }
    let chunk = items.len().div_ceil(threads);
    let mut chunks: Vec<Vec<T>> = Vec::with_capacity(threads);
    let mut items = items.into_iter();
    loop {
        let c: Vec<T> = items.by_ref().take(chunk).collect();
        if c.is_empty() {
            break;
        }
        chunks.push(c);
    }
    std::thread::scope(|s| {
        let handles: Vec<_> = chunks.into_iter().map(|c| s.spawn(move || c.into_iter().map(work).collect::<Vec<U>>())).collect();
        // A panic of a worker is a panic of the compiler's, as on one thread.
        handles.into_iter().flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect()
    })
}

struct Cx<'a> {
    p: &'a Program,
    t: &'a TypeTable,
    exe: &'a Executable,
    /// By extern: what the C library binds it to.
    bindings: &'a [Binding],
    fid: u32,
    homes: Vec<Home>,
    code: Vec<Instr>,
    /// Label index → pc (filled as labels are placed).
    labels: Vec<Option<usize>>,
    prog_labels: HashMap<LabelId, usize>,
    /// (break label, continue label) of the enclosing loops and switches.
    loops: Vec<(usize, Option<usize>)>,
    in_sub: bool,
    ret_kind: Kind,
    ret_size: u64,
    /// Compiled for checking: accesses call the checker (see [`super::check`]).
    checking: bool,
    /// Compiling the body of an `atomic` construct.
    in_atomic: bool,
    /// A worker/vector partition loop whose body is about to be compiled (checking only).
    partition: Option<checking::PartitionThreads>,
    /// Frame slots reserved for the iteration counters of partitions (checking only).
    spare_slots: Vec<usize>,
    /// The arrays of the enclosing `host_data use_device` constructs, with their names: inside,
    /// the array's name stands for the address of its device copy (§2.8).
    use_device_arrays: Vec<(crate::ir::acc::VarRoot, String)>,
    /// Where each OpenACC statement of the function's own code is ([`CFunc::acc_sites`]).
    acc_sites: Vec<super::machine::code::AccSite>,
    /// The body of the construct just compiled, when it was compiled inline.
    acc_body: Option<std::ops::Range<usize>>,
    /// By `for` statement of the function's own code: its number
    /// ([`crate::ir::visit::for_statements`]), for [`Op::NativeLoop`] (empty in a kernel).
    loop_numbers: HashMap<*const Stmt, u32>,
}

fn compile_function(p: &Program, exe: &Executable, bindings: &[Binding], fid: u32, f: &Function, checking: bool) -> R<CFunc> {
    let t = &p.types;
    let mut homes = vec![Home::Reg(0); f.locals.len()];
    let mut nslots = f.params.len();
    let mut params = Vec::new();
    let mut memory_locals = Vec::new();
    let is_param = |l: usize| f.params.iter().position(|p| p.0 as usize == l);
    // Checking: the register locals a partition's threads share with the code around it live
    // in memory, where the checker sees them (`checking::partition_shared_locals`).
    let is_atomic = |d: crate::ir::DirectiveId| matches!(p.acc.get(d.0 as usize), Some(Some(a)) if matches!(a.kind, crate::ir::acc::AccKind::Atomic(_)));
    let shared = if checking { checking::partition_shared_locals(f, &is_atomic) } else { Vec::new() };
    let thread_locals: Vec<(u32, crate::ir::acc::Level)> = shared.iter().enumerate().filter_map(|(i, s)| s.declared_in.map(|level| (i as u32, level))).collect();
    for (i, local) in f.locals.iter().enumerate() {
        let moved = shared.get(i).is_some_and(|s| s.moved);
        let storage = if moved { Storage::Memory } else { local.storage };
        homes[i] = match storage {
            Storage::Register | Storage::VlaAddress => {
                let slot = match is_param(i) {
                    Some(k) => k,
                    None => {
                        nslots += 1;
                        nslots - 1
                    }
                };
                if local.storage == Storage::Register {
                    Home::Reg(slot)
                } else {
                    Home::Vla(slot)
                }
            }
            Storage::Memory => {
                let size = t.size_of(local.ty).ok_or_else(|| {
                    Diagnostic::internal(
                        format!("memory local `{}` has a type of unknown size", local.name),
                        Some(local.loc),
                    )
                })?;
                nslots += 1;
                let ptr = nslots - 1;
                memory_locals.push(MemLocal {
                    local: i as u32,
                    ptr,
                    size,
                });
                if let Some(arg) = is_param(i) {
                    let kind = Kind::of(t, local.ty);
                    params.push(if kind == Kind::Aggregate {
                        ParamCopy::Aggregate { arg, ptr, size }
                    } else {
                        ParamCopy::Scalar { arg, ptr, kind }
                    });
                }
                Home::Mem(ptr)
            }
        };
    }
    let spare_slots: Vec<usize> = (0..if checking { checking::count_partitions(&f.body) } else { 0 })
        .map(|_| {
            nslots += 1;
            nslots - 1
        })
        .collect();
    let mut cx = Cx {
        p,
        t,
        exe,
        bindings,
        fid,
        homes,
        code: Vec::new(),
        labels: Vec::new(),
        prog_labels: HashMap::new(),
        loops: Vec::new(),
        in_sub: false,
        acc_sites: Vec::new(),
        acc_body: None,
        // Host code only: a kernel's loops are its launch's (`NativeCode::prepare_launch`). The
        // checking executable too: under `check`, a function the engine runs loop by loop runs
        // its loops as native code, which reports the accesses the checkers follow.
        loop_numbers: if p.kernels.iter().any(|k| k.func.0 == fid) {
            HashMap::new()
        } else {
            crate::ir::visit::for_statements(&f.body).into_iter().enumerate().map(|(k, s)| (s as *const Stmt, k as u32)).collect()
        },
        ret_kind: Kind::of(t, f.ret),
        ret_size: t.size_of(f.ret).unwrap_or(0),
        checking,
        in_atomic: false,
        partition: None,
        spare_slots,
        use_device_arrays: Vec::new(),
    };
    if checking && p.kernels.iter().any(|k| k.func.0 == fid) {
        // A kernel function runs once per gang; its first parameter is the gang index.
        if let Some(Home::Reg(g)) = f.params.first().and_then(|l| cx.homes.get(l.0 as usize)).copied() {
            cx.emit(
                Op::Expr(ef(move |m| {
                    let gang = m.regs[m.bp + g];
                    super::check::thread_event(m, super::check::ThreadEvent::GangStart(gang));
                    Ok(0)
                })),
                f.loc,
                false,
            );
        }
    }
    cx.stmt(&f.body)?;
    let homes = cx.homes.clone();
    let code = cx.finish()?;
    Ok(CFunc {
        name: f.name.clone(),
        loc: f.loc,
        end_loc: f.body.loc,
        code,
        nparams: f.params.len(),
        nslots,
        params,
        memory_locals,
        // A thread's private copy is named after its variable (messages, findings).
        local_names: f.locals.iter().map(|l| l.copy_of.as_ref().and_then(|c| c.var.clone()).unwrap_or_else(|| l.name.clone())).collect(),
        program_names: f
            .locals
            .iter()
            .map(|l| match (&l.copy_of, l.role) {
                (Some(copy), _) => copy.var.clone(),
                (None, crate::ir::LocalRole::Program) => Some(l.name.clone()),
                (None, _) => None,
            })
            .collect(),
        thread_locals,
        shares_locals: shared.iter().any(|s| s.shared_by_threads),
        homes,
        variadic: f.variadic,
        ret_kind: cx.ret_kind,
        acc_sites: cx.acc_sites,
    })
}

/// The one statement a loop body is (through single-statement blocks).
fn body_stmt(s: &Stmt) -> Option<&Stmt> {
    match &s.kind {
        StmtKind::Block(ss) if ss.len() == 1 => body_stmt(&ss[0]),
        StmtKind::Block(_) => None,
        _ => Some(s),
    }
}

fn unsupported<T>(what: &str, loc: Loc) -> R<T> {
    Err(Diagnostic::unsupported(what.to_string(), loc))
}

impl<'a> Cx<'a> {
    fn kind(&self, ty: TypeId) -> Kind {
        Kind::of(self.t, ty)
    }

    fn new_label(&mut self) -> usize {
        self.labels.push(None);
        self.labels.len() - 1
    }
    fn place_label(&mut self, l: usize) {
        self.labels[l] = Some(self.code.len());
    }
    fn emit(&mut self, op: Op, loc: Loc, stmt: bool) {
        let stmt = stmt && !self.in_sub;
        self.code.push(Instr { op, loc, stmt });
    }
    fn prog_label(&mut self, l: LabelId) -> usize {
        if let Some(&i) = self.prog_labels.get(&l) {
            return i;
        }
        let i = self.new_label();
        self.prog_labels.insert(l, i);
        i
    }

    /// Resolve label indices in jumps to pcs.
    fn finish(&mut self) -> R<Vec<Instr>> {
        let labels = std::mem::take(&mut self.labels);
        let mut code = std::mem::take(&mut self.code);
        let end = code.len();
        let resolve = |l: &mut usize, loc: Loc| -> R<()> {
            match labels.get(*l).copied().flatten() {
                Some(pc) => {
                    *l = pc.min(end);
                    Ok(())
                }
                None => Err(Diagnostic::internal(
                    "jump to a label that is never placed",
                    Some(loc),
                )),
            }
        };
        for ins in &mut code {
            let loc = ins.loc;
            match &mut ins.op {
                Op::JumpIfFalse(_, t) | Op::JumpIfTrue(_, t) | Op::Jump(t) | Op::VecNest(_, t) | Op::NativeLoop(_, t) => resolve(t, loc)?,
                Op::Switch(_, table) => {
                    for (_, t) in &mut table.cases {
                        resolve(t, loc)?;
                    }
                    resolve(&mut table.default, loc)?;
                }
                _ => {}
            }
        }
        Ok(code)
    }

    /// Compile statements into a separate instruction list (statement expressions, initializers).
    fn sub_code(&mut self, stmts: &[Stmt], observed: bool) -> R<Vec<Instr>> {
        let saved_code = std::mem::take(&mut self.code);
        let saved_labels = std::mem::take(&mut self.labels);
        let saved_prog = std::mem::take(&mut self.prog_labels);
        let saved_loops = std::mem::take(&mut self.loops);
        let saved_sub = self.in_sub;
        self.in_sub = !observed || saved_sub;
        let mut r = Ok(());
        for s in stmts {
            r = self.stmt_inner(s, true);
            if r.is_err() {
                break;
            }
        }
        let code = r.and_then(|()| self.finish());
        self.code = saved_code;
        self.labels = saved_labels;
        self.prog_labels = saved_prog;
        self.loops = saved_loops;
        self.in_sub = saved_sub;
        code
    }

}
