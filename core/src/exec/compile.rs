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
use crate::diag::{Diagnostic, Diagnostics, Loc};
use crate::ir::*;

/// A compiled expression: yields the value word.
pub type ExprFn = Box<dyn Fn(&mut Machine<'_>) -> Result<u64, Trap> + Send + Sync>;

/// Box a closure as an [`ExprFn`] (fixes its higher-ranked signature).
#[inline(always)]
pub fn ef<F>(f: F) -> ExprFn
where
    F: Fn(&mut Machine<'_>) -> Result<u64, Trap> + Send + Sync + 'static,
{
    Box::new(f)
}

/// A compiled expression with its shape, so that consumers can fuse constants and register reads.
pub enum Ce {
    Const(u64),
    /// A register local's slot.
    Reg(usize),
    Dyn(ExprFn),
    /// A load from `regs[base] + index * size`, evaluated inline by its consumer.
    Load(LoadS),
    /// An 8-byte load from the address in a register slot (a pointer held in a memory local or
    /// reached through a captured `&a`), evaluated inline by its consumer.
    Deref(usize, Loc),
}

/// The 8-byte load of [`Ce::Deref`].
#[inline(always)]
fn deref(m: &Machine, s: usize, loc: Loc) -> Result<u64, Trap> {
    m.mem
        .load_u64(m.regs[m.bp + s])
        .map_err(|f| m.fault(f, loc))
}

/// Where a fused load's base pointer comes from.
#[derive(Clone, Copy)]
enum Base {
    Reg(usize),
    /// The pointer stored at the address held in a register slot (loaded at this location).
    Ind(usize, Loc),
}

impl Base {
    #[inline(always)]
    fn eval(self, m: &Machine) -> Result<u64, Trap> {
        match self {
            Base::Reg(s) => Ok(m.regs[m.bp + s]),
            Base::Ind(s, loc) => deref(m, s, loc),
        }
    }
}

impl Ce {
    pub fn into_fn(self) -> ExprFn {
        match self {
            Ce::Const(c) => ef(move |_| Ok(c)),
            Ce::Reg(s) => ef(move |m| Ok(m.regs[m.bp + s])),
            Ce::Dyn(f) => f,
            Ce::Load(l) => ef(move |m| l.eval(m)),
            Ce::Deref(s, loc) => ef(move |m| deref(m, s, loc)),
        }
    }
}

/// An array element load with a register base and a polynomial index.
pub struct LoadS {
    kind: Kind,
    base: Base,
    ix: IndexF,
    size: u64,
    loc: Loc,
}

impl LoadS {
    #[inline(always)]
    fn eval(&self, m: &Machine) -> Result<u64, Trap> {
        let a = self
            .base
            .eval(m)?
            .wrapping_add(self.ix.eval(m).wrapping_mul(self.size));
        let r = match self.kind {
            Kind::F64 | Kind::I64 | Kind::U64 | Kind::Ptr => m.mem.load_u64(a),
            Kind::I32 => m.mem.load_u32(a).map(|v| v as i32 as i64 as u64),
            _ => m.mem.load_u32(a).map(|v| v as u64),
        };
        r.map_err(|f| m.fault(f, self.loc))
    }
}

pub struct Instr {
    pub op: Op,
    pub loc: Loc,
    /// Starts a statement: the observer is called before it.
    pub stmt: bool,
}

pub enum Op {
    Expr(ExprFn),
    JumpIfFalse(ExprFn, usize),
    JumpIfTrue(ExprFn, usize),
    Jump(usize),
    Switch(ExprFn, Box<SwitchTable>),
    Return(ExprFn),
    ReturnVoid,
    Nop,
    /// A counted loop whose body is one expression statement: `do { body } while (step_cond)`,
    /// executed without going through the dispatch loop (fuel and the observer are still served
    /// per statement).
    Loop1(Box<Loop1>),
    /// Run a counted loop whose body accumulates a value by a nest of constant loops a block of
    /// iterations at a time ([`vector::NestLoop::run`]); free. Placed after the loop's entry
    /// test: when all iterations ran, jump to the label (past the loop), else fall into the body
    /// at the counter's iteration.
    VecNest(Box<vector::NestLoop>, usize),
}

pub struct Loop1 {
    /// The body's expression statements, run in order (a straight-line body, no jumps).
    pub body: Box<[BodyStmt]>,
    /// Steps an iteration costs: one per body statement and one for the step and test.
    pub cost: u64,
    pub step_cond: ExprFn,
    /// The common `i++, i < limit` step, evaluated inline (same effect as `step_cond`).
    pub counter: Option<Counter>,
    pub cond_loc: Loc,
    /// The step and test are observed (false inside initializers).
    pub stmt: bool,
    /// The loop's `init; if (!cond) skip` run first, when they were one instruction each (they
    /// cost and are observed as those two instructions).
    pub entry: Option<Box<Entry>>,
    /// The body is `s += x[...] * y[...]` on floats with indices affine in the counter: run by
    /// [`Loop1::run_mac`] with addresses stepped instead of recomputed.
    pub mac: Option<Box<MacLoop>>,
    /// The body is a store of an element-wise expression (after register assignments affine in
    /// the counter): run blocks of iterations at a time by [`vector::VecLoop::run`].
    pub vec: Option<Box<vector::VecLoop>>,
}

/// One expression statement of a [`Loop1`] body.
pub struct BodyStmt {
    pub f: ExprFn,
    pub loc: Loc,
    /// Observed (false inside initializers).
    pub stmt: bool,
}

pub struct MacLoop {
    s: usize,
    f64: bool,
    x: LoadS,
    y: LoadS,
}

impl MacLoop {
    /// Blocks of `B` iterations of a multiply-accumulate loop from iteration `t` on, both runs
    /// read at once, while every load of a block succeeds (loads have no effect, so reading
    /// ahead is not observable); `t`, the addresses `a` and the accumulator `acc` are left at the
    /// first iteration not run.
    fn blocks<const B: usize>(&self, m: &mut Machine, a: &mut [u64; 2], d: [u64; 2], trip: i64, t: &mut i64, acc: &mut u64) {
        let (mut xs, mut ys) = ([0u64; B], [0u64; B]);
        while *t < trip {
            let len = (trip - *t).min(B as i64) as usize;
            let (x, y) = (&mut xs[..len], &mut ys[..len]);
            let ok = if self.f64 {
                m.mem.load_run::<8>(a[0], d[0] as i64, x) && m.mem.load_run::<8>(a[1], d[1] as i64, y)
            } else {
                m.mem.load_run::<4>(a[0], d[0] as i64, x) && m.mem.load_run::<4>(a[1], d[1] as i64, y)
            };
            if !ok {
                return;
            }
            *acc = if self.f64 {
                x.iter().zip(y.iter()).fold(f64b(*acc), |s, (&x, &y)| s + f64b(x) * f64b(y)).to_bits()
            } else {
                bf32(x.iter().zip(y.iter()).fold(f32b(*acc), |s, (&x, &y)| s + f32b(x) * f32b(y)))
            };
            m.fuel -= 2 * len as u64;
            *t += len as i64;
            a[0] = a[0].wrapping_add(d[0].wrapping_mul(len as u64));
            a[1] = a[1].wrapping_add(d[1].wrapping_mul(len as u64));
        }
    }
}

impl Loop1 {
    /// Run the loop (its body already due: do-while form) through its [`MacLoop`], when it has one
    /// and the fast path applies; `Ok(false)` when the caller must run it the ordinary way. Costs
    /// and results are those of the ordinary loop: 2 steps an iteration, the same loads in the same
    /// order, the same roundings, the same registers afterwards, the same faults.
    pub fn run_mac(&self, m: &mut Machine) -> Result<bool, Trap> {
        let (Some(mac), Some(c)) = (&self.mac, &self.counter) else {
            return Ok(false);
        };
        if m.observer.is_some() {
            return Ok(false);
        }
        let (k, v0, trip) = c.trip(m);
        if !(1..1 << 30).contains(&trip) || m.fuel < 2 * trip as u64 {
            return Ok(false);
        }
        let last = v0 + trip - 1;
        let norm_c = |v: i64| if c.narrow { v as i32 as i64 as u64 } else { v as u64 };
        // The base pointers (the body writes no memory, so a pointer read through a variable
        // stays the same); a base that cannot be read is left to the ordinary loop to report.
        let base = |m: &Machine, b: Base| match b {
            Base::Reg(s) => Some(m.regs[m.bp + s]),
            Base::Ind(s, _) => m.mem.load_u64(m.regs[m.bp + s]).ok(),
        };
        let (Some(bx), Some(by)) = (base(m, mac.x.base), base(m, mac.y.base)) else {
            return Ok(false);
        };
        if !mac.x.ix.affine_in(c.slot) || !mac.y.ix.affine_in(c.slot) {
            return Ok(false);
        }
        // The indices at the first iteration and the second (the step: they are affine in the
        // counter), with the counter set to each in turn.
        let (x0, y0) = (mac.x.ix.raw(m).0, mac.y.ix.raw(m).0);
        m.regs[k] = norm_c(v0 + 1);
        let (x1, y1) = (mac.x.ix.raw(m).0, mac.y.ix.raw(m).0);
        m.regs[k] = norm_c(v0);
        let span = trip - 1;
        // A narrowed (int) index must not wrap around anywhere in the loop: the first and the
        // last are ints and the step is small, so none between wraps.
        let ok = |l: &LoadS, r0: u64, r1: u64| {
            if !l.ix.narrowed() {
                return true;
            }
            let st = r1.wrapping_sub(r0) as i64;
            let fits = |r: i64| r as i32 as i64 == r;
            fits(r0 as i64) && (-(1 << 31)..1 << 31).contains(&st) && fits((r0 as i64) + st * span)
        };
        if !ok(&mac.x, x0, x1) || !ok(&mac.y, y0, y1) {
            return Ok(false);
        }
        let mut a = [
            bx.wrapping_add(x0.wrapping_mul(mac.x.size)),
            by.wrapping_add(y0.wrapping_mul(mac.y.size)),
        ];
        let d = [
            x1.wrapping_sub(x0).wrapping_mul(mac.x.size),
            y1.wrapping_sub(y0).wrapping_mul(mac.y.size),
        ];
        let s = m.bp + mac.s;
        let mut t = 0i64;
        // Whole blocks of both runs at once while every load of the block succeeds (loads have
        // no effect, so reading ahead is not observable); what is left, from the first block
        // with a faulting load on, one load at a time below.
        // (A short loop, like the taps of a stencil, goes one load at a time: there, blocks cost
        // as much as they save.)
        let mut acc = m.regs[s];
        if trip >= 16 {
            mac.blocks::<64>(m, &mut a, d, trip, &mut t, &mut acc);
        }
        m.regs[s] = acc;
        let r = if t == trip {
            Ok(())
        } else if mac.f64 {
            let mut acc = f64b(m.regs[s]);
            let r = loop {
                m.fuel -= 1;
                let x = match m.mem.load_u64(a[0]) {
                    Ok(x) => x,
                    Err(f) => break Err(m.fault(f, mac.x.loc)),
                };
                let y = match m.mem.load_u64(a[1]) {
                    Ok(y) => y,
                    Err(f) => break Err(m.fault(f, mac.y.loc)),
                };
                acc += f64b(x) * f64b(y);
                m.fuel -= 1;
                t += 1;
                if t == trip {
                    break Ok(());
                }
                a[0] = a[0].wrapping_add(d[0]);
                a[1] = a[1].wrapping_add(d[1]);
            };
            m.regs[s] = acc.to_bits();
            r
        } else {
            let mut acc = f32b(m.regs[s]);
            let r = loop {
                m.fuel -= 1;
                let x = match m.mem.load_u32(a[0]) {
                    Ok(x) => x,
                    Err(f) => break Err(m.fault(f, mac.x.loc)),
                };
                let y = match m.mem.load_u32(a[1]) {
                    Ok(y) => y,
                    Err(f) => break Err(m.fault(f, mac.y.loc)),
                };
                acc += f32::from_bits(x) * f32::from_bits(y);
                m.fuel -= 1;
                t += 1;
                if t == trip {
                    break Ok(());
                }
                a[0] = a[0].wrapping_add(d[0]);
                a[1] = a[1].wrapping_add(d[1]);
            };
            m.regs[s] = bf32(acc);
            r
        };
        // The counter as the ordinary loop leaves it: stepped past the last iteration, or at the
        // iteration that faulted.
        if r.is_ok() {
            m.regs[k] = norm_c(last + 1);
        } else {
            m.regs[k] = norm_c(v0 + t);
        }
        r.map(|()| true)
    }
}

pub struct Entry {
    pub init: ExprFn,
    pub init_loc: Loc,
    pub init_stmt: bool,
    pub cond: ExprFn,
    pub cond_loc: Loc,
    pub cond_stmt: bool,
}

pub struct SwitchTable {
    /// Sorted by value.
    pub cases: Vec<(u64, usize)>,
    pub default: usize,
}

/// `regs[slot] += 1` (in 32 bits when `narrow`), then `regs[slot] < limit` as signed integers.
pub struct Counter {
    pub slot: usize,
    pub narrow: bool,
    pub limit: CounterLimit,
}

pub enum CounterLimit {
    Const(i64),
    Reg(usize),
}

impl Counter {
    /// The counter's register index in the frame, its value and the iterations left to run
    /// (the loop's body is due: at least one).
    pub(super) fn trip(&self, m: &Machine) -> (usize, i64, i64) {
        let k = m.bp + self.slot;
        let v0 = m.regs[k] as i64;
        let limit = match self.limit {
            CounterLimit::Const(l) => l,
            CounterLimit::Reg(r) => m.regs[m.bp + r] as i64,
        };
        (k, v0, if v0 < limit { limit.wrapping_sub(v0) } else { 1 })
    }

    /// Step and test: true to run the body again.
    #[inline(always)]
    pub fn step(&self, m: &mut Machine) -> bool {
        let s = m.bp + self.slot;
        let v = if self.narrow {
            (m.regs[s] as i32).wrapping_add(1) as i64
        } else {
            (m.regs[s] as i64).wrapping_add(1)
        };
        m.regs[s] = v as u64;
        let limit = match self.limit {
            CounterLimit::Const(c) => c,
            CounterLimit::Reg(r) => m.regs[m.bp + r] as i64,
        };
        v < limit
    }
}

/// How a parameter's argument reaches a memory parameter at function entry.
enum ParamCopy {
    Scalar { arg: usize, ptr: usize, kind: Kind },
    Aggregate { arg: usize, ptr: usize, size: u64 },
}

/// A memory local: its own allocation, whose address lives in register slot `ptr`.
struct MemLocal {
    local: u32,
    ptr: usize,
    size: u64,
}

pub struct CFunc {
    pub name: String,
    pub loc: Loc,
    /// Where the frame's lifetime ends (for messages about dangling pointers).
    pub end_loc: Loc,
    pub code: Vec<Instr>,
    pub nparams: usize,
    pub nslots: usize,
    memory_locals: Vec<MemLocal>,
    params: Vec<ParamCopy>,
    pub local_names: Vec<String>,
    /// Where each local lives, indexed like `local_names` (for [`super::inspect`]).
    pub(crate) homes: Vec<Home>,
    pub variadic: bool,
    pub ret_kind: Kind,
}

impl CFunc {
    /// Allocate the memory locals (each its own allocation, freed when the call returns, so a
    /// pointer to a dead local or past a local's end is caught) and copy memory parameters' arguments.
    pub fn prologue(&self, m: &mut Machine, fid: u32, loc: Loc) -> Result<(), Trap> {
        for l in &self.memory_locals {
            let p = m
                .mem
                .alloc(
                    l.size,
                    AllocKind::Local(fid, l.local),
                    super::memory::Space::Host,
                    loc,
                )
                .map_err(|f| m.fault(f, loc))?;
            m.frame_allocs.push(p);
            m.regs[m.bp + l.ptr] = p;
        }
        for p in &self.params {
            let r = match *p {
                ParamCopy::Scalar { arg, ptr, kind } => {
                    let v = m.regs[m.bp + arg];
                    m.store_kind(kind, m.regs[m.bp + ptr], v)
                }
                ParamCopy::Aggregate { arg, ptr, size } => {
                    let src = m.regs[m.bp + arg];
                    m.mem.copy(m.regs[m.bp + ptr], src, size)
                }
            };
            r.map_err(|f| m.fault(f, self.loc))?;
        }
        Ok(())
    }
}

pub struct GlobalImage {
    pub name: String,
    pub bytes: Vec<u8>,
    /// (offset, pointer word) pairs written after `bytes`.
    pub relocs: Vec<(u64, u64)>,
    pub read_only: bool,
    pub loc: Loc,
}

/// A compiled program, ready to run any number of times.
pub struct Executable {
    /// File-scope `declare` data: mapped when the program starts (§2.13: the data lifetime of a
    /// declared global is the whole program).
    pub declares: Vec<(crate::ir::acc::DataClause, u64, u64, String, Loc)>,
    pub funcs: Vec<CFunc>,
    pub globals: Vec<GlobalImage>,
    pub strings: Vec<Vec<u8>>,
    pub externs: Vec<Binding>,
    pub main: Option<u32>,
    /// Kernel function → its fast-share variant ([`crate::ir::acc::Kernel::fast`]).
    pub fast_kernels: std::collections::HashMap<u32, u32>,
    /// Compiled for checking: kernel function → its access plan ([`crate::kernel::footprint`]).
    /// (or why it has none).
    pub plans: std::collections::HashMap<u32, Result<std::sync::Arc<crate::kernel::footprint::AccessPlan>, String>>,
    /// Compiled for checking: the same program compiled without the checker's hooks, which a
    /// kernel proven race-free at its launch runs on ([`super::check::Checker::proven_launch`]).
    pub plain: Option<Box<Executable>>,
    /// By call site of an OpenACC runtime routine (`acc_copyin(b, n)`…): the variable its first
    /// argument names, which names the data in `--notify` lines and findings.
    pub api_names: std::collections::HashMap<Loc, String>,
}

/// The variable that the first argument of each call of an `acc_*` routine in `p` names: a
/// pointer or array variable (`b`, `&x`, `b + 8`), by call site. Other arguments name nothing.
fn api_argument_names(p: &Program) -> std::collections::HashMap<Loc, String> {
    fn named(p: &Program, f: &Function, e: &Expr) -> Option<String> {
        match &e.strip_casts().kind {
            ExprKind::Local(l) | ExprKind::LocalAddr(l) => f.locals.get(l.0 as usize).map(|x| x.name.clone()),
            ExprKind::GlobalAddr(g) => p.globals.get(g.0 as usize).map(|x| x.name.clone()),
            ExprKind::Load(a) => match &a.kind {
                ExprKind::LocalAddr(l) => f.locals.get(l.0 as usize).map(|x| x.name.clone()),
                ExprKind::GlobalAddr(g) => p.globals.get(g.0 as usize).map(|x| x.name.clone()),
                _ => None,
            },
            ExprKind::PtrAdd { ptr, .. } => named(p, f, ptr),
            _ => None,
        }
        .filter(|n| !n.is_empty() && !n.starts_with(['<', '&']) && !n.starts_with("__"))
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

/// The first allocation id of globals.
const FIRST_GLOBAL: u32 = 2;

impl Executable {
    pub fn global_ptr(g: u32) -> u64 {
        ptr_word(FIRST_GLOBAL + g, 0)
    }
    pub fn string_ptr(&self, s: u32) -> u64 {
        ptr_word(FIRST_GLOBAL + self.globals.len() as u32 + s, 0)
    }
    /// The first id after the static objects (the C library's objects start here).
    pub fn first_runtime_id(&self) -> u32 {
        FIRST_GLOBAL + (self.globals.len() + self.strings.len()) as u32
    }

    /// Allocate and initialise globals, string literals and the C library's objects.
    pub fn init_memory(&self, m: &mut Machine) -> Result<(), Trap> {
        for (i, g) in self.globals.iter().enumerate() {
            let p = m
                .mem
                .alloc_init(&g.bytes, AllocKind::Global(i as u32), false, g.loc)
                .map_err(|f| m.fault(f, g.loc))?;
            for &(off, word) in &g.relocs {
                m.mem
                    .store_u64(p + off, word)
                    .map_err(|f| m.fault(f, g.loc))?;
            }
            if g.read_only {
                m.mem.set_read_only(p);
            }
        }
        for (i, s) in self.strings.iter().enumerate() {
            m.mem
                .alloc_init(s, AllocKind::StringLiteral(i as u32), true, Loc::default())
                .map_err(|f| m.fault(f, Loc::default()))?;
        }
        libc_shim::init_runtime(m)?;
        super::openacc::startup(m)
    }
}

type R<T> = Result<T, Diagnostic>;

/// The whole global variables named by file-scope `declare` directives.
fn file_scope_declares(p: &Program) -> Vec<(crate::ir::acc::DataClause, u64, u64, String, Loc)> {
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
                        out.push((*dc, Executable::global_ptr(g.0), size, v.text.clone(), v.loc));
                    }
                }
            }
        }
    }
    out
}

/// Compile a whole program.
pub fn compile(p: &Program) -> Result<Executable, Diagnostics> {
    compile_mode(p, false)
}

/// Compile `p`; with `checking`, every memory access calls the run's checker (see
/// [`super::check`]) and no fused loads or loops are made.
pub fn compile_mode(p: &Program, checking: bool) -> Result<Executable, Diagnostics> {
    compile_some(p, checking, None)
}

/// The functions a kernel proven at launch may run: the kernel functions, their fast variants,
/// and what they call (pure functions only, `kernel::footprint`), transitively.
fn kernel_closure(p: &Program) -> std::collections::HashSet<usize> {
    let mut keep: std::collections::HashSet<usize> = p.kernels.iter().flat_map(|k| std::iter::once(k.func.0 as usize).chain(k.fast.map(|f| f.0 as usize))).collect();
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
fn compile_some(p: &Program, checking: bool, only: Option<&std::collections::HashSet<usize>>) -> Result<Executable, Diagnostics> {
    let mut errors = Vec::new();
    let mut exe = Executable {
        declares: file_scope_declares(p),
        funcs: Vec::new(),
        globals: Vec::new(),
        strings: p.strings.clone(),
        externs: p
            .externs
            .iter()
            .map(|e| libc_shim::bind(&e.name, &p.types, e.ty))
            .collect(),
        main: p.main.map(|f| f.0),
        fast_kernels: p.kernels.iter().filter_map(|k| Some((k.func.0, k.fast?.0))).collect(),
        plans: Default::default(),
        plain: None,
        api_names: api_argument_names(p),
    };
    // Access plans: the proofs of `accsim check`, and the implicit data of a pointer no clause
    // names (`openacc::implicit_pointer_data`).
    exe.plans = p.kernels.iter().map(|k| (k.func.0, k.plan.clone())).collect();
    if checking && exe.plans.values().any(Result::is_ok) {
        exe.plain = Some(Box::new(compile_some(p, false, Some(&kernel_closure(p)))?));
    }
    for g in &p.globals {
        let size = p.types.size_of(g.ty).unwrap_or(0);
        let mut bytes = g.init.as_ref().map(|i| i.bytes.clone()).unwrap_or_default();
        if (bytes.len() as u64) < size {
            bytes.resize(size as usize, 0);
        }
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
    for (i, f) in p.functions.iter().enumerate() {
        let compiled = only.is_none_or(|o| o.contains(&i)).then(|| compile_function(p, &exe, i as u32, f, checking));
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
                    homes: Vec::new(),
                    variadic: false,
                    ret_kind: Kind::Void,
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

/// Where a local of a compiled function lives (read by [`super::inspect`]).
#[derive(Copy, Clone, Debug)]
pub(crate) enum Home {
    Reg(usize),
    /// A memory local: the slot holding its address.
    Mem(usize),
    Vla(usize),
}

struct Cx<'a> {
    p: &'a Program,
    t: &'a TypeTable,
    exe: &'a Executable,
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
    /// A worker/vector partition loop whose body is about to be compiled: its level and the
    /// register slot of its thread index (checking only).
    partition: Option<(super::check::Level, usize)>,
    /// The arrays of the enclosing `host_data use_device` constructs, with their names: inside,
    /// the array's name stands for the address of its device copy (§2.8).
    use_device_arrays: Vec<(crate::ir::acc::VarRoot, String)>,
}

fn compile_function(p: &Program, exe: &Executable, fid: u32, f: &Function, checking: bool) -> R<CFunc> {
    let t = &p.types;
    let mut homes = vec![Home::Reg(0); f.locals.len()];
    let mut nslots = f.params.len();
    let mut params = Vec::new();
    let mut memory_locals = Vec::new();
    let is_param = |l: usize| f.params.iter().position(|p| p.0 as usize == l);
    for (i, local) in f.locals.iter().enumerate() {
        homes[i] = match local.storage {
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
    let mut cx = Cx {
        p,
        t,
        exe,
        fid,
        homes,
        code: Vec::new(),
        labels: Vec::new(),
        prog_labels: HashMap::new(),
        loops: Vec::new(),
        in_sub: false,
        ret_kind: Kind::of(t, f.ret),
        ret_size: t.size_of(f.ret).unwrap_or(0),
        checking,
        in_atomic: false,
        partition: None,
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
        local_names: f.locals.iter().map(|l| l.name.clone()).collect(),
        homes,
        variadic: f.variadic,
        ret_kind: cx.ret_kind,
    })
}

// ---------------------------------------------------------------------------------------------
// Binary operation table.

/// The class an arithmetic operation or comparison is carried out in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Cls {
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
}

/// A generic consumer of one entry of the operation table (monomorphised per operation).
trait BinVisitor {
    type Out;
    fn visit<F>(self, f: F) -> Self::Out
    where
        F: Fn(u64, u64) -> Result<u64, ArithFault> + Copy + Send + Sync + 'static;
}

#[inline(always)]
fn f32b(x: u64) -> f32 {
    f32::from_bits(x as u32)
}
#[inline(always)]
fn f64b(x: u64) -> f64 {
    f64::from_bits(x)
}
#[inline(always)]
fn bf32(x: f32) -> u64 {
    x.to_bits() as u64
}

fn dispatch<V: BinVisitor>(op: BinOp, cls: Cls, v: V) -> Option<V::Out> {
    use BinOp::*;
    use Cls::*;
    macro_rules! sdiv {
        ($t:ty, $x:ident, $y:ident, $e:expr) => {
            v.visit(|x, y| {
                let ($x, $y) = (x as $t, y as $t);
                if $y == 0 {
                    Err(ArithFault::DivZero)
                } else if $x == <$t>::MIN && $y == -1 {
                    Err(ArithFault::Overflow)
                } else {
                    Ok($e as i64 as u64)
                }
            })
        };
    }
    macro_rules! udiv {
        ($t:ty, $x:ident, $y:ident, $e:expr) => {
            v.visit(|x, y| {
                let ($x, $y) = (x as $t, y as $t);
                if $y == 0 {
                    Err(ArithFault::DivZero)
                } else {
                    Ok($e as u64)
                }
            })
        };
    }
    Some(match (op, cls) {
        (Add, I32) => v.visit(|x, y| Ok((x as i32).wrapping_add(y as i32) as i64 as u64)),
        (Sub, I32) => v.visit(|x, y| Ok((x as i32).wrapping_sub(y as i32) as i64 as u64)),
        (Mul, I32) => v.visit(|x, y| Ok((x as i32).wrapping_mul(y as i32) as i64 as u64)),
        (Div, I32) => sdiv!(i32, a, b, a / b),
        (Rem, I32) => sdiv!(i32, a, b, a % b),
        (Shl, I32) => v.visit(|x, y| Ok((x as i32).wrapping_shl(y as u32) as i64 as u64)),
        (Shr, I32) => v.visit(|x, y| Ok((x as i32).wrapping_shr(y as u32) as i64 as u64)),
        (Add, U32) => v.visit(|x, y| Ok((x as u32).wrapping_add(y as u32) as u64)),
        (Sub, U32) => v.visit(|x, y| Ok((x as u32).wrapping_sub(y as u32) as u64)),
        (Mul, U32) => v.visit(|x, y| Ok((x as u32).wrapping_mul(y as u32) as u64)),
        (Div, U32) => udiv!(u32, a, b, a / b),
        (Rem, U32) => udiv!(u32, a, b, a % b),
        (Shl, U32) => v.visit(|x, y| Ok((x as u32).wrapping_shl(y as u32) as u64)),
        (Shr, U32) => v.visit(|x, y| Ok((x as u32).wrapping_shr(y as u32) as u64)),
        (Add, I64 | U64) => v.visit(|x, y| Ok(x.wrapping_add(y))),
        (Sub, I64 | U64) => v.visit(|x, y| Ok(x.wrapping_sub(y))),
        (Mul, I64 | U64) => v.visit(|x, y| Ok(x.wrapping_mul(y))),
        (Div, I64) => sdiv!(i64, a, b, a / b),
        (Rem, I64) => sdiv!(i64, a, b, a % b),
        (Div, U64) => udiv!(u64, a, b, a / b),
        (Rem, U64) => udiv!(u64, a, b, a % b),
        (Shl, I64 | U64) => v.visit(|x, y| Ok(x.wrapping_shl(y as u32))),
        (Shr, I64) => v.visit(|x, y| Ok((x as i64).wrapping_shr(y as u32) as u64)),
        (Shr, U64) => v.visit(|x, y| Ok(x.wrapping_shr(y as u32))),
        (BitAnd, I32 | U32 | I64 | U64) => v.visit(|x, y| Ok(x & y)),
        (BitOr, I32 | U32 | I64 | U64) => v.visit(|x, y| Ok(x | y)),
        (BitXor, I32 | U32 | I64 | U64) => v.visit(|x, y| Ok(x ^ y)),
        (Eq, I32 | U32 | I64 | U64) => v.visit(|x, y| Ok((x == y) as u64)),
        (Ne, I32 | U32 | I64 | U64) => v.visit(|x, y| Ok((x != y) as u64)),
        (Lt, I32 | I64) => v.visit(|x, y| Ok(((x as i64) < (y as i64)) as u64)),
        (Le, I32 | I64) => v.visit(|x, y| Ok(((x as i64) <= (y as i64)) as u64)),
        (Gt, I32 | I64) => v.visit(|x, y| Ok(((x as i64) > (y as i64)) as u64)),
        (Ge, I32 | I64) => v.visit(|x, y| Ok(((x as i64) >= (y as i64)) as u64)),
        (Lt, U32 | U64) => v.visit(|x, y| Ok((x < y) as u64)),
        (Le, U32 | U64) => v.visit(|x, y| Ok((x <= y) as u64)),
        (Gt, U32 | U64) => v.visit(|x, y| Ok((x > y) as u64)),
        (Ge, U32 | U64) => v.visit(|x, y| Ok((x >= y) as u64)),
        (Add, F32) => v.visit(|x, y| Ok(bf32(f32b(x) + f32b(y)))),
        (Sub, F32) => v.visit(|x, y| Ok(bf32(f32b(x) - f32b(y)))),
        (Mul, F32) => v.visit(|x, y| Ok(bf32(f32b(x) * f32b(y)))),
        (Div, F32) => v.visit(|x, y| Ok(bf32(f32b(x) / f32b(y)))),
        (Eq, F32) => v.visit(|x, y| Ok((f32b(x) == f32b(y)) as u64)),
        (Ne, F32) => v.visit(|x, y| Ok((f32b(x) != f32b(y)) as u64)),
        (Lt, F32) => v.visit(|x, y| Ok((f32b(x) < f32b(y)) as u64)),
        (Le, F32) => v.visit(|x, y| Ok((f32b(x) <= f32b(y)) as u64)),
        (Gt, F32) => v.visit(|x, y| Ok((f32b(x) > f32b(y)) as u64)),
        (Ge, F32) => v.visit(|x, y| Ok((f32b(x) >= f32b(y)) as u64)),
        (Add, F64) => v.visit(|x, y| Ok((f64b(x) + f64b(y)).to_bits())),
        (Sub, F64) => v.visit(|x, y| Ok((f64b(x) - f64b(y)).to_bits())),
        (Mul, F64) => v.visit(|x, y| Ok((f64b(x) * f64b(y)).to_bits())),
        (Div, F64) => v.visit(|x, y| Ok((f64b(x) / f64b(y)).to_bits())),
        (Eq, F64) => v.visit(|x, y| Ok((f64b(x) == f64b(y)) as u64)),
        (Ne, F64) => v.visit(|x, y| Ok((f64b(x) != f64b(y)) as u64)),
        (Lt, F64) => v.visit(|x, y| Ok((f64b(x) < f64b(y)) as u64)),
        (Le, F64) => v.visit(|x, y| Ok((f64b(x) <= f64b(y)) as u64)),
        (Gt, F64) => v.visit(|x, y| Ok((f64b(x) > f64b(y)) as u64)),
        (Ge, F64) => v.visit(|x, y| Ok((f64b(x) >= f64b(y)) as u64)),
        _ => return None,
    })
}

/// The class in which an operation on `k` is done, and whether its result must be re-normalised
/// (operands narrower than int, which the lowering should have promoted).
fn class_of(k: Kind, comparison: bool) -> (Cls, Option<Kind>) {
    match k {
        Kind::I32 => (Cls::I32, None),
        Kind::U32 => (Cls::U32, None),
        Kind::I64 => (Cls::I64, None),
        Kind::U64 | Kind::Ptr | Kind::Aggregate | Kind::Void => (Cls::U64, None),
        Kind::F32 => (Cls::F32, None),
        Kind::F64 | Kind::LongDouble => (Cls::F64, None),
        Kind::I8 | Kind::I16 => (Cls::I64, (!comparison).then_some(k)),
        Kind::U8 | Kind::U16 | Kind::Bool => (Cls::U64, (!comparison).then_some(k)),
    }
}

/// Builds the closure of a binary expression from its operands' shapes.
struct BinaryV {
    a: Ce,
    b: Ce,
    loc: Loc,
}

impl BinaryV {
    fn go<F>(a: Ce, b: Ce, loc: Loc, f: F) -> Ce
    where
        F: Fn(u64, u64) -> Result<u64, ArithFault> + Copy + Send + Sync + 'static,
    {
        match (a, b) {
            (Ce::Const(x), Ce::Const(y)) if f(x, y).is_ok() => Ce::Const(f(x, y).unwrap_or(0)),
            (Ce::Reg(s), Ce::Const(c)) => Ce::Dyn(ef(move |m| {
                f(m.regs[m.bp + s], c).map_err(|e| arith_trap(e, loc))
            })),
            (Ce::Reg(s), Ce::Reg(t)) => Ce::Dyn(ef(move |m| {
                f(m.regs[m.bp + s], m.regs[m.bp + t]).map_err(|e| arith_trap(e, loc))
            })),
            (Ce::Dyn(a), Ce::Const(c)) => {
                Ce::Dyn(ef(move |m| f(a(m)?, c).map_err(|e| arith_trap(e, loc))))
            }
            (Ce::Dyn(a), Ce::Reg(t)) => Ce::Dyn(ef(move |m| {
                f(a(m)?, m.regs[m.bp + t]).map_err(|e| arith_trap(e, loc))
            })),
            (Ce::Reg(s), Ce::Dyn(b)) => Ce::Dyn(ef(move |m| {
                f(m.regs[m.bp + s], b(m)?).map_err(|e| arith_trap(e, loc))
            })),
            (Ce::Load(a), Ce::Load(b)) => Ce::Dyn(ef(move |m| {
                let x = a.eval(m)?;
                f(x, b.eval(m)?).map_err(|e| arith_trap(e, loc))
            })),
            (Ce::Dyn(a), Ce::Load(b)) => Ce::Dyn(ef(move |m| {
                let x = a(m)?;
                f(x, b.eval(m)?).map_err(|e| arith_trap(e, loc))
            })),
            (Ce::Load(a), Ce::Dyn(b)) => Ce::Dyn(ef(move |m| {
                let x = a.eval(m)?;
                f(x, b(m)?).map_err(|e| arith_trap(e, loc))
            })),
            (Ce::Const(c), Ce::Load(b)) => Ce::Dyn(ef(move |m| {
                f(c, b.eval(m)?).map_err(|e| arith_trap(e, loc))
            })),
            (Ce::Load(a), Ce::Const(c)) => Ce::Dyn(ef(move |m| {
                f(a.eval(m)?, c).map_err(|e| arith_trap(e, loc))
            })),
            (Ce::Reg(s), Ce::Load(b)) => Ce::Dyn(ef(move |m| {
                f(m.regs[m.bp + s], b.eval(m)?).map_err(|e| arith_trap(e, loc))
            })),
            (Ce::Load(a), Ce::Reg(t)) => Ce::Dyn(ef(move |m| {
                f(a.eval(m)?, m.regs[m.bp + t]).map_err(|e| arith_trap(e, loc))
            })),
            (a, b) => {
                let (a, b) = (a.into_fn(), b.into_fn());
                Ce::Dyn(ef(move |m| {
                    let x = a(m)?;
                    f(x, b(m)?).map_err(|e| arith_trap(e, loc))
                }))
            }
        }
    }
}

impl BinVisitor for BinaryV {
    type Out = Ce;
    fn visit<F>(self, f: F) -> Ce
    where
        F: Fn(u64, u64) -> Result<u64, ArithFault> + Copy + Send + Sync + 'static,
    {
        BinaryV::go(self.a, self.b, self.loc, f)
    }
}

/// Builds the fused `i++, i < n` of a counted loop: step a register local, then compare it.
struct StepCondV {
    slot: usize,
    delta: Ce,
    narrow: bool,
    rhs: Ce,
}

impl BinVisitor for StepCondV {
    type Out = Option<ExprFn>;
    fn visit<F>(self, f: F) -> Option<ExprFn>
    where
        F: Fn(u64, u64) -> Result<u64, ArithFault> + Copy + Send + Sync + 'static,
    {
        let StepCondV {
            slot: s,
            delta,
            narrow,
            rhs,
        } = self;
        let add = move |x: u64, d: u64| {
            if narrow {
                (x as i32).wrapping_add(d as i32) as i64 as u64
            } else {
                x.wrapping_add(d)
            }
        };
        let d = match delta {
            Ce::Const(d) => d,
            delta => {
                // `i += e; i < rhs`: e first, then the update, then the test.
                let (df, r) = (delta.into_fn(), rhs.into_fn());
                return Some(ef(move |m| {
                    let d = df(m)?;
                    let v = add(m.regs[m.bp + s], d);
                    m.regs[m.bp + s] = v;
                    Ok(f(v, r(m)?).unwrap_or(0))
                }));
            }
        };
        Some(match (rhs, narrow) {
            (Ce::Const(c), true) => ef(move |m| {
                let v = (m.regs[m.bp + s] as i32).wrapping_add(d as i32) as i64 as u64;
                m.regs[m.bp + s] = v;
                Ok(f(v, c).unwrap_or(0))
            }),
            (Ce::Const(c), false) => ef(move |m| {
                let v = m.regs[m.bp + s].wrapping_add(d);
                m.regs[m.bp + s] = v;
                Ok(f(v, c).unwrap_or(0))
            }),
            (Ce::Reg(r), true) => ef(move |m| {
                let v = (m.regs[m.bp + s] as i32).wrapping_add(d as i32) as i64 as u64;
                m.regs[m.bp + s] = v;
                Ok(f(v, m.regs[m.bp + r]).unwrap_or(0))
            }),
            (Ce::Reg(r), false) => ef(move |m| {
                let v = m.regs[m.bp + s].wrapping_add(d);
                m.regs[m.bp + s] = v;
                Ok(f(v, m.regs[m.bp + r]).unwrap_or(0))
            }),
            (rhs, _) => {
                let r = rhs.into_fn();
                ef(move |m| {
                    let v = add(m.regs[m.bp + s], d);
                    m.regs[m.bp + s] = v;
                    Ok(f(v, r(m)?).unwrap_or(0))
                })
            }
        })
    }
}

/// A compiled lvalue.
enum PlaceC {
    Reg(usize),
    Mem(ExprFn, Kind),
}

/// Builds `place op= value`.
struct CompoundV {
    place: PlaceC,
    val: ExprFn,
    cin: Option<CastFn>,
    cout: Option<CastFn>,
    post: Option<Kind>,
    loc: Loc,
}

impl BinVisitor for CompoundV {
    type Out = ExprFn;
    fn visit<F>(self, f: F) -> ExprFn
    where
        F: Fn(u64, u64) -> Result<u64, ArithFault> + Copy + Send + Sync + 'static,
    {
        let CompoundV {
            place,
            val,
            cin,
            cout,
            post,
            loc,
        } = self;
        let plain = post.is_none();
        let post = post.unwrap_or(Kind::U64);
        match place {
            PlaceC::Reg(s) if cin.is_none() && cout.is_none() && plain => ef(move |m| {
                let y = val(m)?;
                let r = f(m.regs[m.bp + s], y).map_err(|e| arith_trap(e, loc))?;
                m.regs[m.bp + s] = r;
                Ok(r)
            }),
            PlaceC::Reg(s) if cin.is_none() && cout.is_none() => ef(move |m| {
                let y = val(m)?;
                let r = norm(
                    post,
                    f(m.regs[m.bp + s], y).map_err(|e| arith_trap(e, loc))?,
                );
                m.regs[m.bp + s] = r;
                Ok(r)
            }),
            PlaceC::Reg(s) => ef(move |m| {
                let y = val(m)?;
                let x = apply(cin, m.regs[m.bp + s]);
                let r = apply(cout, norm(post, f(x, y).map_err(|e| arith_trap(e, loc))?));
                m.regs[m.bp + s] = r;
                Ok(r)
            }),
            PlaceC::Mem(addr, k) => ef(move |m| {
                let y = val(m)?;
                let a = addr(m)?;
                let x = apply(cin, m.load_kind(k, a).map_err(|e| m.fault(e, loc))?);
                let r = apply(cout, norm(post, f(x, y).map_err(|e| arith_trap(e, loc))?));
                m.store_kind(k, a, r).map_err(|e| m.fault(e, loc))?;
                Ok(r)
            }),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Loads and stores.

macro_rules! gen_load {
    ($k:expr, $loc:expr, |$m:ident| $addr:expr) => {{
        let loc = $loc;
        match $k {
            Kind::I8 => ef(move |$m| {
                let a = $addr;
                $m.mem
                    .load_u8(a)
                    .map(|v| v as i8 as i64 as u64)
                    .map_err(|f| $m.fault(f, loc))
            }),
            Kind::U8 | Kind::Bool => ef(move |$m| {
                let a = $addr;
                $m.mem
                    .load_u8(a)
                    .map(|v| v as u64)
                    .map_err(|f| $m.fault(f, loc))
            }),
            Kind::I16 => ef(move |$m| {
                let a = $addr;
                $m.mem
                    .load_u16(a)
                    .map(|v| v as i16 as i64 as u64)
                    .map_err(|f| $m.fault(f, loc))
            }),
            Kind::U16 => ef(move |$m| {
                let a = $addr;
                $m.mem
                    .load_u16(a)
                    .map(|v| v as u64)
                    .map_err(|f| $m.fault(f, loc))
            }),
            Kind::I32 => ef(move |$m| {
                let a = $addr;
                $m.mem
                    .load_u32(a)
                    .map(|v| v as i32 as i64 as u64)
                    .map_err(|f| $m.fault(f, loc))
            }),
            Kind::U32 | Kind::F32 => ef(move |$m| {
                let a = $addr;
                $m.mem
                    .load_u32(a)
                    .map(|v| v as u64)
                    .map_err(|f| $m.fault(f, loc))
            }),
            Kind::I64 | Kind::U64 | Kind::F64 | Kind::Ptr => ef(move |$m| {
                let a = $addr;
                $m.mem.load_u64(a).map_err(|f| $m.fault(f, loc))
            }),
            Kind::LongDouble => ef(move |$m| {
                let a = $addr;
                $m.load_kind(Kind::LongDouble, a)
                    .map_err(|f| $m.fault(f, loc))
            }),
            Kind::Void | Kind::Aggregate => ef(move |$m| {
                let _ = &$m;
                Ok($addr)
            }),
        }
    }};
}

macro_rules! gen_store {
    ($k:expr, $loc:expr, |$m:ident, $v:ident| $addr:expr, $val:expr) => {{
        let loc = $loc;
        match $k {
            Kind::I8 | Kind::U8 | Kind::Bool => ef(move |$m| {
                let $v = $val;
                let a = $addr;
                $m.mem.store_u8(a, $v as u8).map_err(|f| $m.fault(f, loc))?;
                Ok($v)
            }),
            Kind::I16 | Kind::U16 => ef(move |$m| {
                let $v = $val;
                let a = $addr;
                $m.mem
                    .store_u16(a, $v as u16)
                    .map_err(|f| $m.fault(f, loc))?;
                Ok($v)
            }),
            Kind::I32 | Kind::U32 | Kind::F32 => ef(move |$m| {
                let $v = $val;
                let a = $addr;
                $m.mem
                    .store_u32(a, $v as u32)
                    .map_err(|f| $m.fault(f, loc))?;
                Ok($v)
            }),
            _ => ef(move |$m| {
                let $v = $val;
                let a = $addr;
                $m.store_kind($k, a, $v).map_err(|f| $m.fault(f, loc))?;
                Ok($v)
            }),
        }
    }};
}

/// The bytes a scalar of kind `k` occupies in memory.
fn kind_size(k: Kind) -> u64 {
    match k {
        Kind::Bool | Kind::U8 | Kind::I8 => 1,
        Kind::U16 | Kind::I16 => 2,
        Kind::U32 | Kind::I32 | Kind::F32 => 4,
        Kind::LongDouble => 16,
        _ => 8,
    }
}

/// A compiled address, with the shapes loads and stores fuse.
enum Addr {
    /// `base + index * size`.
    Index(Ce, Ce, u64),
    /// `base + index * size` with a polynomial index of register locals.
    Affine(Ce, IndexF, u64),
    Any(Ce),
}

/// A closure over a [`CAddr`]: binds `$v` to `$pre` (evaluated first, as the ordinary stores
/// evaluate the value before the address), then `$a` to the address, then runs `$body`.
macro_rules! with_caddr {
    ($ca:expr, |$m:ident, $v:pat = $pre:expr, $a:ident| $body:expr) => {
        match $ca {
            CAddr::Fused(base, ix, sz) => ef(move |$m| {
                let $v = $pre;
                let $a = base.eval($m)?.wrapping_add(ix.eval($m).wrapping_mul(sz));
                $body
            }),
            CAddr::Reg(s) => ef(move |$m| {
                let $v = $pre;
                let $a = $m.regs[$m.bp + s];
                $body
            }),
            CAddr::Fn(f) => ef(move |$m| {
                let $v = $pre;
                let $a = f($m)?;
                $body
            }),
        }
    };
}

/// The address of a checked access (checking mode), in the shapes the ordinary loads fuse
/// ([`Ce::Load`]), so that the access's one closure computes it inline.
enum CAddr {
    /// `base + index * size`.
    Fused(Base, IndexF, u64),
    /// The word in a register slot (the address of a memory local).
    Reg(usize),
    Fn(ExprFn),
}

impl CAddr {
    fn new(a: Addr) -> CAddr {
        match a {
            Addr::Any(Ce::Reg(s)) => CAddr::Reg(s),
            Addr::Affine(Ce::Reg(b), ix, sz) => CAddr::Fused(Base::Reg(b), ix, sz),
            Addr::Affine(Ce::Deref(b, bl), ix, sz) => CAddr::Fused(Base::Ind(b, bl), ix, sz),
            Addr::Index(Ce::Reg(b), Ce::Reg(i), sz) => {
                CAddr::Fused(Base::Reg(b), IndexF::T1(Term { a: i, b: None, c: 1 }, 0, false), sz)
            }
            a => CAddr::Fn(Cx::addr_fn(a)),
        }
    }

    fn into_fn(self) -> ExprFn {
        with_caddr!(self, |_m, () = (), a| Ok(a))
    }
}


/// `coeff * regs[a] (* regs[b])`, wrapping.
#[derive(Clone, Copy, Debug)]
struct Term {
    a: usize,
    b: Option<usize>,
    c: u64,
}

impl Term {
    #[inline(always)]
    fn eval(&self, m: &Machine) -> u64 {
        let mut v = m.regs[m.bp + self.a];
        if let Some(b) = self.b {
            v = v.wrapping_mul(m.regs[m.bp + b]);
        }
        v.wrapping_mul(self.c)
    }
}

/// An integer expression that is a sum of terms of degree ≤ 2 in register locals, computed in
/// wrapping 64-bit arithmetic and then normalised to the expression's width. Addition and
/// multiplication commute with truncation modulo 2^32, so this equals gcc's 32-bit wrapping code.
#[derive(Clone, Debug, Default)]
struct Poly {
    terms: Vec<Term>,
    k: u64,
}

/// `k + Σ c·regs[s]` with at most three terms (`n` of them are used).
#[derive(Clone, Copy, Debug, Default)]
struct Lin {
    t: [(usize, u64); 3],
    n: u8,
    k: u64,
}

impl Lin {
    #[inline(always)]
    fn eval(&self, m: &Machine) -> u64 {
        let r = |i: usize| {
            let (s, c) = self.t[i];
            m.regs[m.bp + s].wrapping_mul(c)
        };
        match self.n {
            0 => self.k,
            1 => self.k.wrapping_add(r(0)),
            2 => self.k.wrapping_add(r(0)).wrapping_add(r(1)),
            _ => self
                .k
                .wrapping_add(r(0))
                .wrapping_add(r(1))
                .wrapping_add(r(2)),
        }
    }

    fn add(&mut self, slot: usize, c: u64) -> bool {
        let n = self.n as usize;
        if let Some(e) = self.t[..n].iter_mut().find(|(s, _)| *s == slot) {
            e.1 = e.1.wrapping_add(c);
            return true;
        }
        if n == self.t.len() {
            return false;
        }
        self.t[n] = (slot, c);
        self.n += 1;
        true
    }
}

/// `k + regs[s0]*c0 + regs[s1]*c1`: a [`Lin`] of at most two terms, evaluated without branches
/// (an unused term has coefficient 0 and repeats a used slot).
#[derive(Clone, Copy, Debug)]
struct L2 {
    k: u64,
    s0: usize,
    c0: u64,
    s1: usize,
    c1: u64,
}

impl L2 {
    /// `fill` is a slot that exists in the frame (for unused terms).
    fn of(l: &Lin, fill: usize) -> Option<L2> {
        let (s0, c0) = if l.n >= 1 { l.t[0] } else { (fill, 0) };
        let (s1, c1) = if l.n >= 2 { l.t[1] } else { (s0, 0) };
        (l.n <= 2).then_some(L2 {
            k: l.k,
            s0,
            c0,
            s1,
            c1,
        })
    }
    #[inline(always)]
    fn eval(&self, m: &Machine) -> u64 {
        let r = &m.regs[m.bp..];
        self.k
            .wrapping_add(r[self.s0].wrapping_mul(self.c0))
            .wrapping_add(r[self.s1].wrapping_mul(self.c1))
    }
}

/// A compiled [`Poly`]; `narrow` says the result is a 32-bit signed (true) value.
enum IndexF {
    T1(Term, u64, bool),
    /// [`IndexF::Lin`] of at most two terms.
    L2(L2, bool),
    /// [`IndexF::Grouped`] with both linear parts of at most two terms.
    G2(L2, usize, L2, bool),
    /// `lin0 + regs[factor] * lin1`: the shape of `a[i*n + j]`, `a[(i+di)*n + (j+dj)]`.
    Grouped(Lin, usize, Lin, bool),
    Lin(Lin, bool),
    Tn(Box<[Term]>, u64, bool),
}

impl IndexF {
    fn new(p: Poly, narrow: bool) -> IndexF {
        if p.terms.is_empty() {
            return IndexF::Tn(Box::new([]), p.k, narrow);
        }
        if let [t] = p.terms.as_slice() {
            return IndexF::T1(*t, p.k, narrow);
        }
        // Group the degree-2 terms by a common factor.
        let factor = p.terms.iter().find_map(|t| t.b.map(|b| (t.a, b)));
        let factor = factor.and_then(|(a, b)| {
            [a, b].into_iter().find(|f| {
                p.terms
                    .iter()
                    .all(|t| t.b.is_none() || t.a == *f || t.b == Some(*f))
            })
        });
        let mut lin0 = Lin {
            k: p.k,
            ..Lin::default()
        };
        let mut lin1 = Lin::default();
        let mut ok = true;
        for t in &p.terms {
            ok &= match (t.b, factor) {
                (None, Some(f)) if t.a == f => {
                    lin1.k = lin1.k.wrapping_add(t.c);
                    true
                }
                (None, _) => lin0.add(t.a, t.c),
                (Some(b), Some(f)) => lin1.add(if t.a == f { b } else { t.a }, t.c),
                (Some(_), None) => false,
            };
        }
        match (ok, factor) {
            (true, Some(f)) => match (L2::of(&lin0, f), L2::of(&lin1, f)) {
                (Some(a), Some(b)) => IndexF::G2(a, f, b, narrow),
                _ => IndexF::Grouped(lin0, f, lin1, narrow),
            },
            (true, None) => match L2::of(&lin0, p.terms[0].a) {
                Some(a) => IndexF::L2(a, narrow),
                None => IndexF::Lin(lin0, narrow),
            },
            _ => IndexF::Tn(p.terms.into(), p.k, narrow),
        }
    }
    /// Whether the index is affine in register `k` (no `k*k` term).
    fn affine_in(&self, k: usize) -> bool {
        let lin = |l: &Lin| l.t[..l.n as usize].iter().all(|&(s, _)| s != k);
        let l2 = |l: &L2| (l.s0 != k || l.c0 == 0) && (l.s1 != k || l.c1 == 0);
        match self {
            IndexF::T1(t, _, _) => !(t.a == k && t.b == Some(k)),
            IndexF::L2(..) | IndexF::Lin(..) => true,
            IndexF::G2(_, f, l1, _) => *f != k || l2(l1),
            IndexF::Grouped(_, f, l1, _) => *f != k || lin(l1),
            IndexF::Tn(ts, _, _) => ts.iter().all(|t| !(t.a == k && t.b == Some(k))),
        }
    }

    /// The value before narrowing, and whether it is narrowed.
    #[inline(always)]
    fn raw(&self, m: &Machine) -> (u64, bool) {
        match self {
            IndexF::T1(t, k, n) => (t.eval(m).wrapping_add(*k), *n),
            IndexF::L2(l, n) => (l.eval(m), *n),
            IndexF::G2(l0, f, l1, n) => (
                l0.eval(m)
                    .wrapping_add(m.regs[m.bp + f].wrapping_mul(l1.eval(m))),
                *n,
            ),
            IndexF::Grouped(l0, f, l1, n) => (
                l0.eval(m)
                    .wrapping_add(m.regs[m.bp + f].wrapping_mul(l1.eval(m))),
                *n,
            ),
            IndexF::Lin(l, n) => (l.eval(m), *n),
            IndexF::Tn(ts, k, n) => (ts.iter().fold(*k, |acc, t| acc.wrapping_add(t.eval(m))), *n),
        }
    }

    #[inline(always)]
    fn narrowed(&self) -> bool {
        match self {
            IndexF::T1(_, _, n)
            | IndexF::L2(_, n)
            | IndexF::G2(_, _, _, n)
            | IndexF::Grouped(_, _, _, n)
            | IndexF::Lin(_, n)
            | IndexF::Tn(_, _, n) => *n,
        }
    }

    #[inline(always)]
    fn eval(&self, m: &Machine) -> u64 {
        let (v, narrow) = self.raw(m);
        if narrow {
            v as i32 as i64 as u64
        } else {
            v
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Complex arithmetic (done in the element precision, as gcc's code and libgcc's helpers do).

trait Fl:
    Copy
    + PartialOrd
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + std::ops::Div<Output = Self>
{
    fn abs(self) -> Self;
}
impl Fl for f32 {
    fn abs(self) -> Self {
        f32::abs(self)
    }
}
impl Fl for f64 {
    fn abs(self) -> Self {
        f64::abs(self)
    }
}

fn complex_op<T: Fl>(op: BinOp, a: T, b: T, c: T, d: T) -> (T, T) {
    match op {
        BinOp::Add => (a + c, b + d),
        BinOp::Sub => (a - c, b - d),
        BinOp::Mul => (a * c - b * d, a * d + b * c),
        _ => {
            // libgcc's __divdc3 (Smith's method) for finite operands.
            if c.abs() < d.abs() {
                let ratio = c / d;
                let denom = c * ratio + d;
                ((a * ratio + b) / denom, (b * ratio - a) / denom)
            } else {
                let ratio = d / c;
                let denom = d * ratio + c;
                ((b * ratio + a) / denom, (b - a * ratio) / denom)
            }
        }
    }
}

impl<'m> Machine<'m> {
    /// Real and imaginary parts of the complex value at `p` (f32 parts widened).
    pub fn load_complex(&self, ek: Kind, p: u64) -> Result<(f64, f64), super::memory::MemFault> {
        let step = ek.bytes();
        let re = self.load_kind(ek, p)?;
        let im = self.load_kind(ek, p.wrapping_add(step))?;
        Ok((super::value::as_f64(ek, re), super::value::as_f64(ek, im)))
    }
    pub fn store_complex(
        &mut self,
        ek: Kind,
        p: u64,
        re: f64,
        im: f64,
    ) -> Result<(), super::memory::MemFault> {
        let w = |x: f64| {
            if ek == Kind::F32 {
                (x as f32).to_bits() as u64
            } else {
                x.to_bits()
            }
        };
        self.store_kind(ek, p, w(re))?;
        self.store_kind(ek, p.wrapping_add(ek.bytes()), w(im))
    }
}

// ---------------------------------------------------------------------------------------------

/// Evaluate call arguments right to left, as gcc does on x86-64, into new slots on top of the
/// word stack; returns where they start.
#[inline]
fn push_args(m: &mut Machine, args: &[ExprFn]) -> Result<usize, Trap> {
    let base = m.regs.len();
    m.regs.resize(base + args.len(), 0);
    for (i, a) in args.iter().enumerate().rev() {
        let v = a(m)?;
        m.regs[base + i] = v;
    }
    Ok(base)
}

/// gcc's compile-time conversion of a floating constant to an integer type: saturating at the
/// type's limits, NaN to 0 (Rust's `as` does exactly this).
fn fold_float_to_int(from: Kind, to: Kind, v: u64) -> u64 {
    let x = super::value::as_f64(from, v);
    match to {
        Kind::Bool => (x != 0.0) as u64,
        Kind::I8 => x as i8 as i64 as u64,
        Kind::U8 => x as u8 as u64,
        Kind::I16 => x as i16 as i64 as u64,
        Kind::U16 => x as u16 as u64,
        Kind::I32 => x as i32 as i64 as u64,
        Kind::U32 => x as u32 as u64,
        Kind::I64 => x as i64 as u64,
        _ => x as u64,
    }
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
                Op::JumpIfFalse(_, t) | Op::JumpIfTrue(_, t) | Op::Jump(t) | Op::VecNest(_, t) => resolve(t, loc)?,
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

    fn stmt(&mut self, s: &Stmt) -> R<()> {
        self.stmt_inner(s, false)
    }

    fn cond(&mut self, e: &Expr) -> R<ExprFn> {
        let k = self.kind(e.ty);
        let c = self.expr(e)?;
        if let ExprKind::Binary(op, _, _) = &e.kind {
            if op.is_comparison() {
                return Ok(c.into_fn());
            }
        }
        Ok(match (c, k) {
            (Ce::Reg(s), k) if !k.is_float() => ef(move |m| Ok((m.regs[m.bp + s] != 0) as u64)),
            (c, k) => {
                let f = c.into_fn();
                ef(move |m| Ok(truthy(k, f(m)?) as u64))
            }
        })
    }

    fn stmt_inner(&mut self, s: &Stmt, sub: bool) -> R<()> {
        let loc = s.loc;
        if self.checking && self.partition.is_none() {
            if let StmtKind::For { init: Some(init), .. } = &s.kind {
                if let Some(p) = self.partition_loop(init) {
                    return self.checked_partition(p, s, sub);
                }
            }
        }
        match &s.kind {
            StmtKind::Empty => {}
            StmtKind::Expr(e) => {
                let f = self.expr(e)?;
                match f {
                    Ce::Dyn(f) => self.emit(Op::Expr(f), loc, true),
                    _ => self.emit(Op::Nop, loc, true),
                }
            }
            StmtKind::Block(ss) => {
                for s in ss {
                    self.stmt_inner(s, sub)?;
                }
            }
            StmtKind::If(c, t, e) => {
                let cf = self.cond(c)?;
                let l_else = self.new_label();
                self.emit(Op::JumpIfFalse(cf, l_else), loc, true);
                self.stmt_inner(t, sub)?;
                if let Some(e) = e {
                    let l_end = self.new_label();
                    self.emit(Op::Jump(l_end), loc, false);
                    self.place_label(l_else);
                    self.stmt_inner(e, sub)?;
                    self.place_label(l_end);
                } else {
                    self.place_label(l_else);
                }
            }
            StmtKind::While(c, body) => {
                let (l_body, l_cond, l_break) =
                    (self.new_label(), self.new_label(), self.new_label());
                self.emit(Op::Jump(l_cond), loc, false);
                self.place_label(l_body);
                self.loops.push((l_break, Some(l_cond)));
                self.stmt_inner(body, sub)?;
                self.loops.pop();
                self.place_label(l_cond);
                let cf = self.cond(c)?;
                self.emit(Op::JumpIfTrue(cf, l_body), c.loc, true);
                self.place_label(l_break);
            }
            StmtKind::DoWhile(body, c) => {
                let (l_body, l_cond, l_break) =
                    (self.new_label(), self.new_label(), self.new_label());
                self.place_label(l_body);
                self.loops.push((l_break, Some(l_cond)));
                self.stmt_inner(body, sub)?;
                self.loops.pop();
                self.place_label(l_cond);
                let cf = self.cond(c)?;
                self.emit(Op::JumpIfTrue(cf, l_body), c.loc, true);
                self.place_label(l_break);
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                if let Some(i) = init {
                    self.stmt_inner(i, sub)?;
                }
                if let (Some(c), Some(st)) = (cond, step) {
                    if let Some(fused) = self.fused_step(st, c)? {
                        let (l_body, l_cont, l_break) =
                            (self.new_label(), self.new_label(), self.new_label());
                        let cf = self.cond(c)?;
                        self.emit(Op::JumpIfFalse(cf, l_break), c.loc, true);
                        let nest = match self.counter(st, c) {
                            Some(ctr) if !self.checking && self.partition.is_none() => self.nest_loop(body, ctr)?,
                            _ => None,
                        };
                        let nest_at = self.code.len();
                        if let Some(n) = nest {
                            self.emit(Op::VecNest(Box::new(n), l_break), body.loc, false);
                        }
                        self.place_label(l_body);
                        self.loops.push((l_break, Some(l_cont)));
                        self.partition_iteration(body.loc);
                        self.stmt_inner(body, sub)?;
                        // Out of fuel at the free instruction reads as out of fuel at the body's
                        // first instruction, which would run next.
                        if let (Some(Instr { op: Op::VecNest(..), .. }), Some(next)) = (self.code.get(nest_at), self.code.get(nest_at + 1)) {
                            let loc = next.loc;
                            self.code[nest_at].loc = loc;
                        }
                        self.loops.pop();
                        self.place_label(l_cont);
                        let body_start = self.labels[l_body].unwrap_or(usize::MAX);
                        // A jump to the body (a label before its statement) still works: it
                        // lands on the loop instruction, which runs the body then the step.
                        // A straight-line body: expression statements only, and no label
                        // inside it (a label at its end other than the step's would be skipped).
                        let end = self.code.len();
                        let straight = body_start < end
                            && self.code[body_start..].iter().all(|i| matches!(i.op, Op::Expr(_)))
                            && self.labels.iter().enumerate().all(|(i, l)| {
                                i == l_cont || !matches!(*l, Some(pc) if pc > body_start && pc <= end)
                            });
                        if straight {
                            let body_ir: &Stmt = body;
                            let stmts: Vec<BodyStmt> = self
                                .code
                                .drain(body_start..)
                                .filter_map(|i| match i.op {
                                    Op::Expr(f) => Some(BodyStmt { f, loc: i.loc, stmt: i.stmt }),
                                    _ => None,
                                })
                                .collect();
                            if let Some(first) = stmts.first() {
                                let (body_loc, stmt) = (first.loc, first.stmt);
                                let counter = self.counter(st, c);
                                let mac = match (&counter, &body_stmt(body_ir).map(|b| &b.kind)) {
                                    (Some(_), Some(StmtKind::Expr(e))) if stmts.len() == 1 => self.mac_loop(e)?.map(Box::new),
                                    _ => None,
                                };
                                let vec = match (&counter, &mac) {
                                    (Some(ctr), None) if !self.checking => self.vec_loop(body_ir, ctr)?.map(Box::new),
                                    _ => None,
                                };
                                let mut lp = Loop1 {
                                    cost: stmts.len() as u64 + 1,
                                    body: stmts.into_boxed_slice(),
                                    step_cond: fused,
                                    counter,
                                    cond_loc: c.loc,
                                    stmt,
                                    entry: None,
                                    mac,
                                    vec,
                                };
                                let mut loc0 = body_loc;
                                // Fold the preceding `init` and entry test into the loop when
                                // nothing but the loop's own label lands between them.
                                let n = self.code.len();
                                let foldable = init.is_some()
                                    && n >= 2
                                    && matches!(self.code[n - 1].op, Op::JumpIfFalse(_, t) if t == l_break)
                                    && matches!(self.code[n - 2].op, Op::Expr(_))
                                    && self.labels.iter().enumerate().all(|(i, l)| {
                                        i == l_body || i == l_cont || !matches!(*l, Some(pc) if pc + 1 >= n)
                                    })
                                    && self.prog_labels.values().all(|&i| !matches!(self.labels[i], Some(pc) if pc + 1 >= n));
                                if foldable {
                                    let test = self.code.pop();
                                    let ini = self.code.pop();
                                    if let (
                                        Some(Instr { op: Op::JumpIfFalse(cond, _), loc: cond_loc, stmt: cond_stmt }),
                                        Some(Instr { op: Op::Expr(init), loc: init_loc, stmt: init_stmt }),
                                    ) = (test, ini)
                                    {
                                        loc0 = init_loc;
                                        lp.entry = Some(Box::new(Entry {
                                            init,
                                            init_loc,
                                            init_stmt,
                                            cond,
                                            cond_loc,
                                            cond_stmt,
                                        }));
                                    }
                                }
                                self.code.push(Instr {
                                    op: Op::Loop1(Box::new(lp)),
                                    loc: loc0,
                                    stmt: false,
                                });
                                self.place_label(l_break);
                                return Ok(());
                            }
                        }
                        self.emit(Op::JumpIfTrue(fused, l_body), c.loc, true);
                        self.place_label(l_break);
                        return Ok(());
                    }
                }
                let (l_body, l_cont, l_cond, l_break) = (
                    self.new_label(),
                    self.new_label(),
                    self.new_label(),
                    self.new_label(),
                );
                self.emit(Op::Jump(l_cond), loc, false);
                self.place_label(l_body);
                self.loops.push((l_break, Some(l_cont)));
                self.partition_iteration(body.loc);
                self.stmt_inner(body, sub)?;
                self.loops.pop();
                self.place_label(l_cont);
                if let Some(st) = step {
                    if let Ce::Dyn(f) = self.expr(st)? {
                        self.emit(Op::Expr(f), st.loc, false);
                    }
                }
                self.place_label(l_cond);
                match cond {
                    Some(c) => {
                        let cf = self.cond(c)?;
                        self.emit(Op::JumpIfTrue(cf, l_body), c.loc, true);
                    }
                    None => self.emit(Op::Jump(l_body), loc, false),
                }
                self.place_label(l_break);
            }
            StmtKind::Switch {
                cond,
                body,
                cases,
                default,
            } => {
                let cf = self.expr(cond)?.into_fn();
                let l_break = self.new_label();
                let mut table: Vec<(u64, usize)> = cases
                    .iter()
                    .map(|(v, l)| (*v, self.prog_label(*l)))
                    .collect();
                table.sort_by_key(|&(v, _)| v);
                table.dedup_by_key(|&mut (v, _)| v);
                let dflt = match default {
                    Some(l) => self.prog_label(*l),
                    None => l_break,
                };
                self.emit(
                    Op::Switch(
                        cf,
                        Box::new(SwitchTable {
                            cases: table,
                            default: dflt,
                        }),
                    ),
                    loc,
                    true,
                );
                self.loops.push((l_break, None));
                self.stmt_inner(body, sub)?;
                self.loops.pop();
                self.place_label(l_break);
            }
            StmtKind::Label(l) => {
                let i = self.prog_label(*l);
                self.place_label(i);
            }
            StmtKind::Goto(l) => {
                let i = self.prog_label(*l);
                self.emit(Op::Jump(i), loc, true);
            }
            StmtKind::Break => match self.loops.last() {
                Some(&(b, _)) => self.emit(Op::Jump(b), loc, true),
                None => return unsupported("`break` out of a statement expression", loc),
            },
            StmtKind::Continue => match self.loops.iter().rev().find_map(|l| l.1) {
                Some(c) => self.emit(Op::Jump(c), loc, true),
                None => return unsupported("`continue` out of a statement expression", loc),
            },
            StmtKind::Return(v) => {
                if sub {
                    return unsupported("`return` inside a statement expression", loc);
                }
                match v {
                    None => self.emit(Op::ReturnVoid, loc, true),
                    Some(e) => {
                        let f = self.expr(e)?.into_fn();
                        if self.ret_kind == Kind::Aggregate {
                            let size = self.ret_size;
                            let r = ef(move |m| {
                                let src = f(m)?;
                                let dst = m.ret_dest;
                                if dst != 0 {
                                    m.mem.copy(dst, src, size).map_err(|x| m.fault(x, loc))?;
                                }
                                Ok(dst)
                            });
                            self.emit(Op::Return(r), loc, true);
                        } else {
                            self.emit(Op::Return(f), loc, true);
                        }
                    }
                }
            }
            StmtKind::ZeroFill { addr, size } => {
                let a = self.expr(addr)?.into_fn();
                let size = *size;
                let f = if self.checking {
                    ef(move |m| {
                        let p = a(m)?;
                        super::check::before_access(m, p, size, true, false, loc);
                        m.mem.fill(p, 0, size).map_err(|x| m.fault(x, loc))?;
                        super::check::access(m, p, size, true, false, loc);
                        Ok(0)
                    })
                } else {
                    ef(move |m| {
                        let p = a(m)?;
                        m.mem.fill(p, 0, size).map_err(|x| m.fault(x, loc))?;
                        Ok(0)
                    })
                };
                self.emit(Op::Expr(f), loc, false);
            }
            StmtKind::VlaAlloc(l) => {
                let Some(Home::Vla(slot)) = self.homes.get(l.0 as usize).copied() else {
                    return Err(Diagnostic::internal(
                        "VlaAlloc of a local that is not a VLA",
                        Some(loc),
                    ));
                };
                let size = self
                    .size_of(
                        self.p.functions[self.fid as usize].locals[l.0 as usize].ty,
                        loc,
                    )?
                    .into_fn();
                let (fid, lid) = (self.fid, l.0);
                let f = ef(move |m| {
                    let n = size(m)?;
                    if (n as i64) < 0 {
                        // C11 §6.7.6.2p5: the size "shall evaluate to a value greater than zero".
                        return Err(Trap::error(Diagnostic::error(
                            "vla-bound",
                            format!("variable-length array bound evaluates to a negative size ({} bytes)", n as i64),
                            loc,
                        )));
                    }
                    let old = m.regs[m.bp + slot];
                    if old != 0 {
                        m.mem
                            .release(super::memory::AllocId((old >> 32) as u32), loc);
                    }
                    let p = m
                        .mem
                        .alloc(n, AllocKind::Vla(fid, lid), super::memory::Space::Host, loc)
                        .map_err(|x| m.fault(x, loc))?;
                    m.frame_allocs.push(p);
                    m.regs[m.bp + slot] = p;
                    Ok(p)
                });
                self.emit(Op::Expr(f), loc, true);
            }
            StmtKind::Acc { directive, body } => self.acc_stmt(*directive, body.as_deref(), sub, loc)?,
            StmtKind::AccLaunch(k) => self.acc_launch(*k, loc)?,
        }
        Ok(())
    }

    /// `step; cond` of a `for` as one closure, for `i++`/`i--`/`i += c`-free counted loops
    /// (`for (...; i < n; i++)` with `n` a constant or register local).
    /// The `i++; i < n` of a counted loop over a signed `int` or `long` register local, with
    /// `n` a constant or a register local.
    fn counter(&mut self, step: &Expr, cond: &Expr) -> Option<Counter> {
        let k = self.kind(step.ty);
        let l = match &step.kind {
            ExprKind::IncDec {
                place: Place::Local(l),
                delta: 1,
                ..
            } => l,
            // `i += 1` in the counter's own type is `i++`.
            ExprKind::CompoundAssign {
                op: BinOp::Add,
                place: Place::Local(l),
                value,
                op_ty,
            } if self.kind(*op_ty) == k
                && self.kind(value.ty) == k
                && matches!(value.kind, ExprKind::Int(v) if norm(k, v) == 1) =>
            {
                l
            }
            _ => return None,
        };
        let Some(Home::Reg(slot)) = self.homes.get(l.0 as usize).copied() else {
            return None;
        };
        let ExprKind::Binary(BinOp::Lt, a, b) = &cond.kind else {
            return None;
        };
        if !matches!(k, Kind::I32 | Kind::I64) || self.kind(a.ty) != k || self.kind(b.ty) != k {
            return None;
        }
        if !matches!(&a.kind, ExprKind::Local(l2) if l2 == l) {
            return None;
        }
        let limit = match &b.kind {
            ExprKind::Int(v) => CounterLimit::Const(norm(k, *v) as i64),
            ExprKind::Local(r) => match self.homes.get(r.0 as usize) {
                Some(Home::Reg(rs)) => CounterLimit::Reg(*rs),
                _ => return None,
            },
            _ => return None,
        };
        Some(Counter {
            slot,
            narrow: k == Kind::I32,
            limit,
        })
    }

    fn fused_step(&mut self, step: &Expr, cond: &Expr) -> R<Option<ExprFn>> {
        let k = self.kind(step.ty);
        if !matches!(k, Kind::I32 | Kind::I64 | Kind::U64) {
            return Ok(None);
        }
        let (l, delta) = match &step.kind {
            ExprKind::IncDec {
                place: Place::Local(l),
                ..
            } => (l, None),
            ExprKind::CompoundAssign {
                op: BinOp::Add,
                place: Place::Local(l),
                value,
                op_ty,
            } if self.kind(*op_ty) == k && self.kind(value.ty) == k => (l, Some(value)),
            _ => return Ok(None),
        };
        let Some(Home::Reg(s)) = self.homes.get(l.0 as usize).copied() else {
            return Ok(None);
        };
        let ExprKind::Binary(op, a, b) = &cond.kind else {
            return Ok(None);
        };
        if !op.is_comparison() || self.kind(a.ty) != k {
            return Ok(None);
        }
        let ExprKind::Local(l2) = &a.kind else {
            return Ok(None);
        };
        if l2 != l {
            return Ok(None);
        }
        let delta = match delta {
            Some(v) => self.expr(v)?,
            None => match &step.kind {
                ExprKind::IncDec { delta, .. } => Ce::Const(*delta as i64 as u64),
                _ => return Ok(None),
            },
        };
        let rhs = self.expr(b)?;
        let (cls, _) = class_of(k, true);
        let v = StepCondV {
            slot: s,
            delta,
            narrow: k == Kind::I32,
            rhs,
        };
        Ok(dispatch(*op, cls, v).flatten())
    }

    /// The size of a type, dynamic for VLAs.
    fn size_of(&mut self, ty: TypeId, loc: Loc) -> R<Ce> {
        match self.t.get(ty) {
            Type::Vla(elem, count) => {
                let e = self.size_of(*elem, loc)?;
                let c = self.local_value(*count, loc)?;
                Ok(BinaryV::go(c, e, loc, |x, y| Ok(x.wrapping_mul(y))))
            }
            Type::Array(elem, Some(n)) => {
                let n = *n;
                let e = self.size_of(*elem, loc)?;
                Ok(BinaryV::go(e, Ce::Const(n), loc, |x, y| {
                    Ok(x.wrapping_mul(y))
                }))
            }
            Type::Void | Type::Function(_) => Ok(Ce::Const(1)),
            _ => Ok(Ce::Const(self.t.size_of(ty).unwrap_or(0))),
        }
    }

    fn local_value(&mut self, l: LocalId, loc: Loc) -> R<Ce> {
        match self.homes.get(l.0 as usize) {
            Some(Home::Reg(s)) | Some(Home::Vla(s)) => Ok(Ce::Reg(*s)),
            Some(Home::Mem(slot)) => {
                let slot = *slot;
                let ty = self.p.functions[self.fid as usize].locals[l.0 as usize].ty;
                let k = self.kind(ty);
                if self.checking {
                    return Ok(self.checked_load(k, CAddr::Reg(slot), loc));
                }
                if matches!(k, Kind::F64 | Kind::I64 | Kind::U64 | Kind::Ptr) {
                    return Ok(Ce::Deref(slot, loc));
                }
                Ok(Ce::Dyn(gen_load!(k, loc, |m| m.regs[m.bp + slot])))
            }
            None => Err(Diagnostic::internal(
                "reference to an unknown local",
                Some(loc),
            )),
        }
    }

    /// Inside `host_data use_device(a)` on an array `a`: `a`'s address is that of its device
    /// copy, found in the present table when it is used (§2.8).
    fn use_device_address(&self, e: &Expr) -> Option<Ce> {
        use crate::ir::acc::VarRoot;
        let (root, host) = match &e.kind {
            ExprKind::LocalAddr(l) => match self.homes.get(l.0 as usize) {
                Some(Home::Mem(slot)) => (VarRoot::Local(*l), Ce::Reg(*slot)),
                _ => return None,
            },
            ExprKind::GlobalAddr(g) => (VarRoot::Global(*g), Ce::Const(Executable::global_ptr(g.0))),
            _ => return None,
        };
        let name = self.use_device_arrays.iter().rev().find(|(r, _)| *r == root).map(|(_, n)| n.clone())?;
        let host = host.into_fn();
        let loc = e.loc;
        Some(Ce::Dyn(ef(move |m| {
            let h = host(m)?;
            super::openacc::use_device_array(m, h, &name, loc)
        })))
    }

    fn addr(&mut self, e: &Expr) -> R<Addr> {
        if let Some(d) = self.use_device_address(e) {
            return Ok(Addr::Any(d));
        }
        match &e.kind {
            ExprKind::LocalAddr(l) => {
                if let Some(Home::Mem(slot)) = self.homes.get(l.0 as usize) {
                    return Ok(Addr::Any(Ce::Reg(*slot)));
                }
            }
            ExprKind::PtrAdd { ptr, index, elem } => {
                if let Some(size) = self
                    .t
                    .size_of(*elem)
                    .filter(|_| !matches!(self.t.get(*elem), Type::Vla(..)))
                {
                    let b = self.expr(ptr)?;
                    if let Some(ix) = self.index_poly(index) {
                        return Ok(Addr::Affine(b, ix, size));
                    }
                    let i = self.expr(index)?;
                    return Ok(match i {
                        Ce::Const(c) => {
                            Addr::Index(b, Ce::Const(0), 0).with_offset(c.wrapping_mul(size))
                        }
                        i => Addr::Index(b, i, size),
                    });
                }
            }
            _ => {}
        }
        Ok(Addr::Any(self.expr(e)?))
    }

    /// The index of a `PtrAdd` as a compiled polynomial, when it is one (array subscripts like
    /// `a[i*n + j]`). Integer widening casts at the top are identities on words.
    fn index_poly(&self, index: &Expr) -> Option<IndexF> {
        let (p, narrow) = self.index_terms(index)?;
        Some(IndexF::new(p, narrow))
    }

    /// [`Cx::index_poly`] before compiling: the polynomial and whether it is narrowed to `int`.
    fn index_terms(&self, index: &Expr) -> Option<(Poly, bool)> {
        let mut e = index;
        while let ExprKind::Cast(inner) = &e.kind {
            let (from, to) = (self.kind(inner.ty), self.kind(e.ty));
            if !(from.is_int()
                && from != Kind::Bool
                && matches!(to, Kind::I64 | Kind::U64)
                && from.bytes() <= 8)
            {
                return None;
            }
            e = inner;
        }
        let k = self.kind(e.ty);
        let narrow = match k {
            Kind::I32 => true,
            Kind::I64 | Kind::U64 => false,
            _ => return None,
        };
        let p = self.poly(e, k)?;
        if p.terms.is_empty() {
            return None;
        }
        Some((p, narrow))
    }

    /// An operand of a fused select: any integer expression of register locals.
    fn operand(&self, e: &Expr) -> Option<IndexF> {
        let k = self.kind(e.ty);
        let narrow = match k {
            Kind::I32 => true,
            Kind::I64 | Kind::U64 => false,
            _ => return None,
        };
        let p = self.poly_w(e, k, narrow)?;
        Some(IndexF::new(p, narrow))
    }

    /// `x cmp y ? a : b` over integer expressions of register locals (the `min(a, b)` of the
    /// partition loops of compute regions): ((op, signed), x, y, a, b).
    #[allow(clippy::type_complexity)]
    fn select(
        &self,
        c: &Expr,
        a: &Expr,
        b: &Expr,
    ) -> Option<((BinOp, bool), IndexF, IndexF, IndexF, IndexF)> {
        let ExprKind::Binary(op, x, y) = &c.kind else {
            return None;
        };
        if !op.is_comparison() {
            return None;
        }
        let ck = self.kind(x.ty);
        let signed = match ck {
            Kind::I32 | Kind::I64 => true,
            Kind::U64 => false,
            _ => return None,
        };
        if self.kind(y.ty) != ck {
            return None;
        }
        Some((
            (*op, signed),
            self.operand(x)?,
            self.operand(y)?,
            self.operand(a)?,
            self.operand(b)?,
        ))
    }

    /// `e` as a polynomial of degree ≤ 2 in register locals, all nodes of kind `k`.
    fn poly(&self, e: &Expr, k: Kind) -> Option<Poly> {
        self.poly_w(e, k, k == Kind::I32)
    }

    /// An integer expression of register locals (`+ - *` and integer casts) evaluated inline in
    /// one step, when it has at least two operations (so it replaces a tree of closures).
    fn pure_int(&self, e: &Expr) -> Option<IndexF> {
        fn ops(e: &Expr, budget: usize) -> usize {
            if budget == 0 {
                return 0;
            }
            match &e.kind {
                ExprKind::Binary(_, a, b) => {
                    let x = 1 + ops(a, budget - 1);
                    x + ops(b, budget.saturating_sub(x))
                }
                ExprKind::Cast(a) => 1 + ops(a, budget - 1),
                _ => 0,
            }
        }
        let k = self.kind(e.ty);
        let narrow = match k {
            Kind::I32 => true,
            Kind::I64 | Kind::U64 => false,
            _ => return None,
        };
        if ops(e, 2) < 2 {
            return None;
        }
        let p = self.poly_w(e, k, narrow)?;
        if p.terms.is_empty() {
            return None;
        }
        Some(IndexF::new(p, narrow))
    }

    /// [`Cx::poly`]; with `low32` only the low 32 bits of the result matter (it is narrowed to
    /// `int` at the end), so nodes may be of any 32- or 64-bit integer kind and casts between
    /// them are looked through (truncation commutes with `+`, `-` and `*`).
    fn poly_w(&self, e: &Expr, k: Kind, low32: bool) -> Option<Poly> {
        const MAX_TERMS: usize = 8;
        let ek = self.kind(e.ty);
        let wide = |x: Kind| matches!(x, Kind::I32 | Kind::U32 | Kind::I64 | Kind::U64);
        if low32 {
            if !wide(ek) {
                return None;
            }
        } else if ek != k {
            return None;
        }
        let p = match &e.kind {
            ExprKind::Cast(inner) => {
                let ik = self.kind(inner.ty);
                if low32 && wide(ik) {
                    return self.poly_w(inner, ik, true);
                }
                if !low32 && matches!(ik, Kind::I64 | Kind::U64) && matches!(k, Kind::I64 | Kind::U64) {
                    return self.poly_w(inner, ik, false);
                }
                return None;
            }
            ExprKind::Int(v) => Poly {
                terms: Vec::new(),
                k: *v,
            },
            ExprKind::Local(l) => match self.homes.get(l.0 as usize) {
                Some(Home::Reg(s)) => Poly {
                    terms: vec![Term {
                        a: *s,
                        b: None,
                        c: 1,
                    }],
                    k: 0,
                },
                _ => return None,
            },
            ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
                let (pa, pb) = (self.poly_w(a, k, low32)?, self.poly_w(b, k, low32)?);
                let neg = if *op == BinOp::Sub { u64::MAX } else { 1 };
                let mut terms = pa.terms;
                terms.extend(pb.terms.iter().map(|t| Term {
                    c: t.c.wrapping_mul(neg),
                    ..*t
                }));
                Poly {
                    terms,
                    k: pa.k.wrapping_add(pb.k.wrapping_mul(neg)),
                }
            }
            ExprKind::Binary(BinOp::Mul, a, b) => {
                let (pa, pb) = (self.poly_w(a, k, low32)?, self.poly_w(b, k, low32)?);
                let mut terms = Vec::new();
                for x in pa.terms.iter() {
                    for y in pb.terms.iter() {
                        if x.b.is_some() || y.b.is_some() {
                            return None;
                        }
                        terms.push(Term {
                            a: x.a,
                            b: Some(y.a),
                            c: x.c.wrapping_mul(y.c),
                        });
                    }
                    if pb.k != 0 {
                        terms.push(Term {
                            c: x.c.wrapping_mul(pb.k),
                            ..*x
                        });
                    }
                }
                if pa.k != 0 {
                    terms.extend(pb.terms.iter().map(|t| Term {
                        c: t.c.wrapping_mul(pa.k),
                        ..*t
                    }));
                }
                Poly {
                    terms,
                    k: pa.k.wrapping_mul(pb.k),
                }
            }
            _ => return None,
        };
        (p.terms.len() <= MAX_TERMS).then_some(p)
    }

    fn load(&mut self, k: Kind, addr: Addr, loc: Loc) -> Ce {
        if self.checking {
            return self.checked_load(k, CAddr::new(addr), loc);
        }
        let inline = matches!(
            k,
            Kind::F64 | Kind::I64 | Kind::U64 | Kind::Ptr | Kind::I32 | Kind::U32 | Kind::F32
        );
        let addr = match addr {
            Addr::Any(Ce::Reg(s)) if matches!(k, Kind::F64 | Kind::I64 | Kind::U64 | Kind::Ptr) => {
                return Ce::Deref(s, loc);
            }
            Addr::Affine(Ce::Reg(b), ix, size) if inline => {
                return Ce::Load(LoadS {
                    kind: k,
                    base: Base::Reg(b),
                    ix,
                    size,
                    loc,
                });
            }
            Addr::Affine(Ce::Deref(b, bl), ix, size) if inline => {
                return Ce::Load(LoadS {
                    kind: k,
                    base: Base::Ind(b, bl),
                    ix,
                    size,
                    loc,
                });
            }
            Addr::Index(Ce::Reg(b), Ce::Reg(i), size) if inline => {
                let ix = IndexF::T1(
                    Term {
                        a: i,
                        b: None,
                        c: 1,
                    },
                    0,
                    false,
                );
                return Ce::Load(LoadS {
                    kind: k,
                    base: Base::Reg(b),
                    ix,
                    size,
                    loc,
                });
            }
            a => a,
        };
        Ce::Dyn(match addr {
            Addr::Any(Ce::Const(c)) => gen_load!(k, loc, |m| c),
            Addr::Any(Ce::Reg(s)) => gen_load!(k, loc, |m| m.regs[m.bp + s]),
            Addr::Any(Ce::Dyn(f)) => gen_load!(k, loc, |m| f(m)?),
            Addr::Any(Ce::Load(l)) => gen_load!(k, loc, |m| l.eval(m)?),
            Addr::Any(Ce::Deref(s, dl)) => gen_load!(k, loc, |m| deref(m, s, dl)?),
            Addr::Index(Ce::Reg(b), Ce::Reg(i), sz) => {
                gen_load!(k, loc, |m| m.regs[m.bp + b]
                    .wrapping_add(m.regs[m.bp + i].wrapping_mul(sz)))
            }
            Addr::Affine(Ce::Reg(b), ix, sz) => {
                gen_load!(k, loc, |m| m.regs[m.bp + b]
                    .wrapping_add(ix.eval(m).wrapping_mul(sz)))
            }
            Addr::Affine(b, ix, sz) => {
                let b = b.into_fn();
                gen_load!(k, loc, |m| b(m)?.wrapping_add(ix.eval(m).wrapping_mul(sz)))
            }
            Addr::Index(Ce::Reg(b), Ce::Dyn(i), sz) => {
                gen_load!(k, loc, |m| m.regs[m.bp + b]
                    .wrapping_add(i(m)?.wrapping_mul(sz)))
            }
            Addr::Index(b, i, sz) => {
                let (b, i) = (b.into_fn(), i.into_fn());
                gen_load!(k, loc, |m| b(m)?.wrapping_add(i(m)?.wrapping_mul(sz)))
            }
        })
    }

    fn store(&mut self, k: Kind, addr: Addr, val: Ce, loc: Loc) -> ExprFn {
        let val = val.into_fn();
        if self.checking {
            let (atomic, size) = (self.in_atomic, kind_size(k));
            return with_caddr!(CAddr::new(addr), |m, v = val(m)?, a| {
                super::check::before_access(m, a, size, true, atomic, loc);
                m.store_kind(k, a, v).map_err(|f| m.fault(f, loc))?;
                super::check::access(m, a, size, true, atomic, loc);
                Ok(v)
            });
        }
        match addr {
            Addr::Any(Ce::Reg(s)) => gen_store!(k, loc, |m, v| m.regs[m.bp + s], val(m)?),
            Addr::Any(a) => {
                let a = a.into_fn();
                gen_store!(k, loc, |m, v| a(m)?, val(m)?)
            }
            Addr::Index(Ce::Reg(b), Ce::Reg(i), sz) => gen_store!(
                k,
                loc,
                |m, v| m.regs[m.bp + b].wrapping_add(m.regs[m.bp + i].wrapping_mul(sz)),
                val(m)?
            ),
            Addr::Index(b, i, sz) => {
                let (b, i) = (b.into_fn(), i.into_fn());
                gen_store!(
                    k,
                    loc,
                    |m, v| b(m)?.wrapping_add(i(m)?.wrapping_mul(sz)),
                    val(m)?
                )
            }
            Addr::Affine(Ce::Reg(b), ix, sz) => {
                gen_store!(
                    k,
                    loc,
                    |m, v| m.regs[m.bp + b].wrapping_add(ix.eval(m).wrapping_mul(sz)),
                    val(m)?
                )
            }
            Addr::Affine(Ce::Deref(b, bl), ix, sz) => {
                gen_store!(
                    k,
                    loc,
                    |m, v| deref(m, b, bl)?.wrapping_add(ix.eval(m).wrapping_mul(sz)),
                    val(m)?
                )
            }
            Addr::Affine(b, ix, sz) => {
                let b = b.into_fn();
                gen_store!(
                    k,
                    loc,
                    |m, v| b(m)?.wrapping_add(ix.eval(m).wrapping_mul(sz)),
                    val(m)?
                )
            }
        }
    }

    fn place(&mut self, p: &Place, ty: TypeId) -> R<Result<usize, Addr>> {
        match p {
            Place::Local(l) => match self.homes.get(l.0 as usize) {
                Some(Home::Reg(s)) | Some(Home::Vla(s)) => Ok(Ok(*s)),
                Some(Home::Mem(slot)) => Ok(Err(Addr::Any(Ce::Reg(*slot)))),
                None => Err(Diagnostic::internal("assignment to an unknown local", None)),
            },
            Place::Mem(a) => {
                let _ = ty;
                Ok(Err(self.addr(a)?))
            }
        }
    }

    /// A load that reports itself to the checker (checking mode), its address computed inline
    /// in the shapes the ordinary loads fuse.
    fn checked_load(&self, k: Kind, addr: CAddr, loc: Loc) -> Ce {
        if matches!(k, Kind::Void | Kind::Aggregate) {
            return Ce::Dyn(addr.into_fn());
        }
        let (atomic, size) = (self.in_atomic, kind_size(k));
        Ce::Dyn(with_caddr!(addr, |m, () = (), a| {
            super::check::before_access(m, a, size, false, atomic, loc);
            let v = m.load_kind(k, a).map_err(|f| m.fault(f, loc))?;
            super::check::access(m, a, size, false, atomic, loc);
            Ok(v)
        }))
    }

    /// The address of a read-modify-write (`x op= v`, `x++`): in checking mode it reports a
    /// read and a write of the place.
    fn checked_rw(&self, addr: ExprFn, k: Kind, loc: Loc) -> ExprFn {
        if !self.checking {
            return addr;
        }
        let (atomic, size) = (self.in_atomic, kind_size(k));
        ef(move |m| {
            let a = addr(m)?;
            super::check::before_access(m, a, size, true, atomic, loc);
            super::check::access(m, a, size, false, atomic, loc);
            super::check::access(m, a, size, true, atomic, loc);
            Ok(a)
        })
    }

    /// The level and thread-index slot of a worker or vector partition loop of a kernel
    /// (`for (__worker = 0; ...)`, `for (__lane = 0; ...)`, see `kernel::schedule`).
    fn partition_loop(&self, init: &Stmt) -> Option<(super::check::Level, usize)> {
        let StmtKind::Expr(Expr { kind: ExprKind::Assign { place: Place::Local(l), .. }, .. }) = &init.kind else {
            return None;
        };
        let level = match self.p.functions[self.fid as usize].locals.get(l.0 as usize)?.name.as_str() {
            "__worker" => super::check::Level::Worker,
            "__lane" => super::check::Level::Vector,
            _ => return None,
        };
        match self.homes.get(l.0 as usize) {
            Some(Home::Reg(s)) => Some((level, *s)),
            _ => None,
        }
    }

    /// A partition loop in checking mode: the checker hears where it begins, each thread's
    /// iteration, and where its threads rejoin.
    fn checked_partition(&mut self, p: (super::check::Level, usize), s: &Stmt, sub: bool) -> R<()> {
        use super::check::{thread_event, ThreadEvent};
        let (level, loc) = (p.0, s.loc);
        self.emit(Op::Expr(ef(move |m| {
            thread_event(m, ThreadEvent::PartitionBegin(level, loc));
            Ok(0)
        })), loc, false);
        self.partition = Some(p);
        let r = self.stmt_inner(s, sub);
        self.partition = None;
        r?;
        self.emit(Op::Expr(ef(move |m| {
            thread_event(m, ThreadEvent::PartitionEnd(level));
            Ok(0)
        })), loc, false);
        Ok(())
    }

    /// At the top of a partition loop's body: report the thread whose iteration starts.
    fn partition_iteration(&mut self, loc: Loc) {
        if let Some((level, slot)) = self.partition.take() {
            self.emit(Op::Expr(ef(move |m| {
                let t = m.regs[m.bp + slot];
                super::check::thread_event(m, super::check::ThreadEvent::Partition(level, t));
                Ok(0)
            })), loc, false);
        }
    }

    fn addr_fn(a: Addr) -> ExprFn {
        match a {
            Addr::Any(c) => c.into_fn(),
            Addr::Index(b, i, sz) => BinaryV::go(b, i, Loc::default(), move |x, y| {
                Ok(x.wrapping_add(y.wrapping_mul(sz)))
            })
            .into_fn(),
            Addr::Affine(b, ix, sz) => {
                let b = b.into_fn();
                ef(move |m| Ok(b(m)?.wrapping_add(ix.eval(m).wrapping_mul(sz))))
            }
        }
    }

    fn binary(&mut self, op: BinOp, a: Ce, b: Ce, k: Kind, loc: Loc) -> R<Ce> {
        let (cls, post) = class_of(k, op.is_comparison());
        let r = dispatch(op, cls, BinaryV { a, b, loc }).ok_or_else(|| {
            Diagnostic::internal(format!("no {op:?} for operands of kind {k:?}"), Some(loc))
        })?;
        Ok(match post {
            Some(pk) => match r {
                Ce::Const(c) => Ce::Const(norm(pk, c)),
                r => {
                    let f = r.into_fn();
                    Ce::Dyn(ef(move |m| Ok(norm(pk, f(m)?))))
                }
            },
            None => r,
        })
    }

    fn args(&mut self, args: &[Expr]) -> R<Vec<ExprFn>> {
        args.iter().map(|a| Ok(self.expr(a)?.into_fn())).collect()
    }

    /// The slot holding the address of a call's or complex operation's result local.
    fn result_dest(&mut self, result: Option<LocalId>, loc: Loc) -> R<Option<usize>> {
        match result {
            None => Ok(None),
            Some(l) => match self.homes.get(l.0 as usize) {
                Some(Home::Mem(slot)) => Ok(Some(*slot)),
                _ => Err(Diagnostic::internal(
                    "call result local is not in memory",
                    Some(loc),
                )),
            },
        }
    }

    fn expr(&mut self, e: &Expr) -> R<Ce> {
        if let Some(d) = self.use_device_address(e) {
            return Ok(d);
        }
        let loc = e.loc;
        let k = self.kind(e.ty);
        Ok(match &e.kind {
            ExprKind::Int(v) => Ce::Const(if k.is_int() { norm(k, *v) } else { *v }),
            ExprKind::Float(f) => Ce::Const(match k {
                Kind::F32 => (*f as f32).to_bits() as u64,
                _ => f.to_bits(),
            }),
            ExprKind::Str(s) => Ce::Const(self.exe.string_ptr(s.0)),
            ExprKind::Local(l) => self.local_value(*l, loc)?,
            ExprKind::LocalAddr(l) => match self.homes.get(l.0 as usize) {
                Some(Home::Mem(slot)) => Ce::Reg(*slot),
                Some(Home::Vla(s)) | Some(Home::Reg(s)) => Ce::Reg(*s),
                None => {
                    return Err(Diagnostic::internal(
                        "address of an unknown local",
                        Some(loc),
                    ))
                }
            },
            ExprKind::GlobalAddr(g) => Ce::Const(Executable::global_ptr(g.0)),
            ExprKind::FuncAddr(f) => Ce::Const(ptr_word(FUNC_ID, f.0)),
            ExprKind::ExternAddr(x) => {
                let b = self.exe.externs.get(x.0 as usize);
                match b {
                    Some(Binding::Function(_)) => {
                        Ce::Const(ptr_word(FUNC_ID, self.p.functions.len() as u32 + x.0))
                    }
                    Some(Binding::Object(i)) => {
                        Ce::Const(ptr_word(self.exe.first_runtime_id() + *i, 0))
                    }
                    _ => return Err(self.undefined(x.0, loc)),
                }
            }
            ExprKind::Load(a) => {
                if k == Kind::Aggregate || k == Kind::Void {
                    self.expr(a)?
                } else {
                    let addr = self.addr(a)?;
                    self.load(k, addr, loc)
                }
            }
            ExprKind::Unary(op, a) => {
                let ak = self.kind(a.ty);
                let c = self.expr(a)?;
                match op {
                    UnOp::Not => {
                        let f = c.into_fn();
                        Ce::Dyn(ef(move |m| Ok(!truthy(ak, f(m)?) as u64)))
                    }
                    UnOp::Neg => match k {
                        Kind::F32 => self.map1(c, |v| v ^ 0x8000_0000),
                        Kind::F64 | Kind::LongDouble => self.map1(c, |v| v ^ (1 << 63)),
                        Kind::I32 => self.map1(c, |v| (v as i32).wrapping_neg() as i64 as u64),
                        Kind::U32 => self.map1(c, |v| (v as u32).wrapping_neg() as u64),
                        _ => {
                            let f = c.into_fn();
                            Ce::Dyn(ef(move |m| Ok(norm(k, f(m)?.wrapping_neg()))))
                        }
                    },
                    UnOp::BitNot => {
                        let f = c.into_fn();
                        Ce::Dyn(ef(move |m| Ok(norm(k, !f(m)?))))
                    }
                }
            }
            ExprKind::Binary(op, a, b) => {
                let opk = if op.is_comparison() {
                    self.kind(a.ty)
                } else {
                    k
                };
                if matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul) {
                    if let Some(ix) = self.pure_int(e) {
                        return Ok(Ce::Dyn(ef(move |m| Ok(ix.eval(m)))));
                    }
                }
                let (ca, cb) = (self.expr(a)?, self.expr(b)?);
                self.binary(*op, ca, cb, opk, loc)?
            }
            ExprKind::Cast(_) if self.pure_int(e).is_some() => {
                let ix = self.pure_int(e).expect("checked");
                Ce::Dyn(ef(move |m| Ok(ix.eval(m))))
            }
            ExprKind::Cast(a) => {
                let from = self.kind(a.ty);
                let c = self.expr(a)?;
                match cast_fn(from, k) {
                    None => c,
                    Some(f) => match c {
                        // gcc folds a constant's conversion at compile time, saturating (and NaN
                        // to 0) where the run-time cvttsd2si would give 0x80000000...
                        Ce::Const(v) if from.is_float() && k.is_int() => {
                            Ce::Const(fold_float_to_int(from, k, v))
                        }
                        Ce::Const(v) => Ce::Const(f(v)),
                        Ce::Reg(s) => Ce::Dyn(ef(move |m| Ok(f(m.regs[m.bp + s])))),
                        Ce::Dyn(g) => Ce::Dyn(ef(move |m| Ok(f(g(m)?)))),
                        Ce::Load(l) => Ce::Dyn(ef(move |m| Ok(f(l.eval(m)?)))),
                        Ce::Deref(s, dl) => Ce::Dyn(ef(move |m| Ok(f(deref(m, s, dl)?)))),
                    },
                }
            }
            ExprKind::PtrAdd { ptr, index, elem } => {
                let size = self.size_of(*elem, loc)?;
                let (p, i) = (self.expr(ptr)?, self.expr(index)?);
                match size {
                    Ce::Const(sz) => {
                        let off = BinaryV::go(i, Ce::Const(sz), loc, |x, y| Ok(x.wrapping_mul(y)));
                        BinaryV::go(p, off, loc, |x, y| Ok(x.wrapping_add(y)))
                    }
                    size => {
                        let off = BinaryV::go(i, size, loc, |x, y| Ok(x.wrapping_mul(y)));
                        BinaryV::go(p, off, loc, |x, y| Ok(x.wrapping_add(y)))
                    }
                }
            }
            ExprKind::PtrDiff { lhs, rhs, elem } => {
                let size = self.size_of(*elem, loc)?;
                let d = {
                    let (a, b) = (self.expr(lhs)?, self.expr(rhs)?);
                    BinaryV::go(a, b, loc, |x, y| Ok(x.wrapping_sub(y)))
                };
                BinaryV::go(d, size, loc, |x, y| {
                    Ok(if y == 0 {
                        x
                    } else {
                        (x as i64).wrapping_div(y as i64) as u64
                    })
                })
            }
            ExprKind::Assign { place, value } => {
                let v = self.expr(value)?;
                match self.place(place, e.ty)? {
                    Ok(slot) => Ce::Dyn(match v {
                        Ce::Const(c) => ef(move |m| {
                            m.regs[m.bp + slot] = c;
                            Ok(c)
                        }),
                        Ce::Reg(r) => ef(move |m| {
                            let v = m.regs[m.bp + r];
                            m.regs[m.bp + slot] = v;
                            Ok(v)
                        }),
                        Ce::Load(l) => ef(move |m| {
                            let v = l.eval(m)?;
                            m.regs[m.bp + slot] = v;
                            Ok(v)
                        }),
                        Ce::Deref(s, dl) => ef(move |m| {
                            let v = deref(m, s, dl)?;
                            m.regs[m.bp + slot] = v;
                            Ok(v)
                        }),
                        Ce::Dyn(f) => ef(move |m| {
                            let v = f(m)?;
                            m.regs[m.bp + slot] = v;
                            Ok(v)
                        }),
                    }),
                    Err(addr) if k == Kind::Aggregate => {
                        let size = self.size_of(e.ty, loc)?.into_fn();
                        let dst = Self::addr_fn(addr);
                        let src = v.into_fn();
                        let atomic = self.in_atomic;
                        if !self.checking {
                            return Ok(Ce::Dyn(ef(move |m| {
                                let s = src(m)?;
                                let d = dst(m)?;
                                let n = size(m)?;
                                m.mem.copy(d, s, n).map_err(|f| m.fault(f, loc))?;
                                Ok(d)
                            })));
                        }
                        Ce::Dyn(ef(move |m| {
                            let s = src(m)?;
                            let d = dst(m)?;
                            let n = size(m)?;
                            super::check::before_access(m, s, n, false, atomic, loc);
                            super::check::before_access(m, d, n, true, atomic, loc);
                            m.mem.copy(d, s, n).map_err(|f| m.fault(f, loc))?;
                            super::check::access(m, s, n, false, atomic, loc);
                            super::check::access(m, d, n, true, atomic, loc);
                            Ok(d)
                        }))
                    }
                    Err(addr) => Ce::Dyn(self.store(k, addr, v, loc)),
                }
            }
            ExprKind::CompoundAssign {
                op,
                place,
                value,
                op_ty,
            } => {
                let pk = k;
                if let Some(f) = self.multiply_accumulate(*op, place, value, *op_ty, k)? {
                    return Ok(Ce::Dyn(f));
                }
                let val = self.expr(value)?.into_fn();
                let pc = match self.place(place, e.ty)? {
                    Ok(s) => PlaceC::Reg(s),
                    Err(a) => PlaceC::Mem(self.checked_rw(Self::addr_fn(a), pk, loc), pk),
                };
                if pk == Kind::Ptr {
                    let elem = self.t.pointee(e.ty).unwrap_or(e.ty);
                    let size = self.size_of(elem, loc)?.into_fn();
                    let neg = *op == BinOp::Sub;
                    let step = ef(move |m| {
                        let n = val(m)?.wrapping_mul(size(m)?);
                        Ok(if neg { n.wrapping_neg() } else { n })
                    });
                    return Ok(Ce::Dyn(self.compound(
                        pc,
                        BinOp::Add,
                        Kind::U64,
                        Kind::U64,
                        step,
                        loc,
                    )?));
                }
                let ok = self.kind(*op_ty);
                Ce::Dyn(self.compound(pc, *op, pk, ok, val, loc)?)
            }
            ExprKind::IncDec { place, delta, post } => {
                let pc = match self.place(place, e.ty)? {
                    Ok(s) => PlaceC::Reg(s),
                    Err(a) => PlaceC::Mem(self.checked_rw(Self::addr_fn(a), k, loc), k),
                };
                self.incdec(pc, k, e.ty, *delta, *post, loc)?
            }
            ExprKind::Cond(c, a, b) if self.select(c, a, b).is_some() => {
                let (op, x, y, a, b) = self.select(c, a, b).expect("checked");
                let signed = op.1;
                macro_rules! sel {
                    ($cmp:tt) => {
                        ef(move |m| {
                            let (p, q) = (x.eval(m), y.eval(m));
                            let t = if signed { (p as i64) $cmp (q as i64) } else { p $cmp q };
                            Ok(if t { a.eval(m) } else { b.eval(m) })
                        })
                    };
                }
                Ce::Dyn(match op.0 {
                    BinOp::Lt => sel!(<),
                    BinOp::Le => sel!(<=),
                    BinOp::Gt => sel!(>),
                    BinOp::Ge => sel!(>=),
                    BinOp::Eq => sel!(==),
                    _ => sel!(!=),
                })
            }
            ExprKind::Cond(c, a, b) => {
                let c = self.cond(c)?;
                let (a, b) = (self.expr(a)?.into_fn(), self.expr(b)?.into_fn());
                Ce::Dyn(ef(move |m| if c(m)? != 0 { a(m) } else { b(m) }))
            }
            ExprKind::LogicalAnd(a, b) => {
                let (a, b) = (self.cond(a)?, self.cond(b)?);
                Ce::Dyn(ef(move |m| Ok((a(m)? != 0 && b(m)? != 0) as u64)))
            }
            ExprKind::LogicalOr(a, b) => {
                let (a, b) = (self.cond(a)?, self.cond(b)?);
                Ce::Dyn(ef(move |m| Ok((a(m)? != 0 || b(m)? != 0) as u64)))
            }
            ExprKind::Comma(a, b) => {
                let a = self.expr(a)?;
                let b = self.expr(b)?;
                match a {
                    Ce::Dyn(a) => {
                        let b = b.into_fn();
                        Ce::Dyn(ef(move |m| {
                            a(m)?;
                            b(m)
                        }))
                    }
                    _ => b,
                }
            }
            ExprKind::Call {
                callee,
                args,
                result,
            } => self.call(callee, args, *result, loc)?,
            ExprKind::SizeOfDynamic(ty) => self.size_of(*ty, loc)?,
            ExprKind::ComplexBinary { op, lhs, rhs, dst } => {
                let ek = self.complex_elem(lhs.ty);
                let (a, b) = (self.complex_operand(lhs, ek, loc)?, self.complex_operand(rhs, ek, loc)?);
                let dst = self.result_dest(Some(*dst), loc)?.unwrap_or(0);
                let op = *op;
                Ce::Dyn(ef(move |m| {
                    let (x, y) = (a(m)?, b(m)?);
                    let (ar, ai) = m.load_complex(ek, x).map_err(|f| m.fault(f, loc))?;
                    let (br, bi) = m.load_complex(ek, y).map_err(|f| m.fault(f, loc))?;
                    let (r, i) = if ek == Kind::F32 {
                        let (r, i) = complex_op(op, ar as f32, ai as f32, br as f32, bi as f32);
                        (r as f64, i as f64)
                    } else {
                        complex_op(op, ar, ai, br, bi)
                    };
                    let d = m.regs[m.bp + dst];
                    m.store_complex(ek, d, r, i).map_err(|f| m.fault(f, loc))?;
                    Ok(d)
                }))
            }
            ExprKind::ComplexNeg { value, dst } => {
                let ek = self.complex_elem(value.ty);
                let a = self.complex_operand(value, ek, loc)?;
                let dst = self.result_dest(Some(*dst), loc)?.unwrap_or(0);
                Ce::Dyn(ef(move |m| {
                    let x = a(m)?;
                    let (r, i) = m.load_complex(ek, x).map_err(|f| m.fault(f, loc))?;
                    let d = m.regs[m.bp + dst];
                    m.store_complex(ek, d, -r, -i)
                        .map_err(|f| m.fault(f, loc))?;
                    Ok(d)
                }))
            }
            ExprKind::ComplexMake { re, im, dst } => {
                let ek = self.complex_elem(e.ty);
                let (r, i) = (self.expr(re)?.into_fn(), self.expr(im)?.into_fn());
                let dst = self.result_dest(Some(*dst), loc)?.unwrap_or(0);
                Ce::Dyn(ef(move |m| {
                    let (r, i) = (r(m)?, i(m)?);
                    let d = m.regs[m.bp + dst];
                    m.store_kind(ek, d, r).map_err(|f| m.fault(f, loc))?;
                    m.store_kind(ek, d.wrapping_add(ek.bytes()), i)
                        .map_err(|f| m.fault(f, loc))?;
                    Ok(d)
                }))
            }
            ExprKind::ComplexCompare { op, lhs, rhs } => {
                let ek = self.complex_elem(lhs.ty);
                let (a, b) = (self.complex_operand(lhs, ek, loc)?, self.complex_operand(rhs, ek, loc)?);
                let ne = *op == BinOp::Ne;
                Ce::Dyn(ef(move |m| {
                    let (x, y) = (a(m)?, b(m)?);
                    let p = m.load_complex(ek, x).map_err(|f| m.fault(f, loc))?;
                    let q = m.load_complex(ek, y).map_err(|f| m.fault(f, loc))?;
                    let eq = p.0 == q.0 && p.1 == q.1;
                    Ok((eq != ne) as u64)
                }))
            }
            ExprKind::WithInit { init, value } => {
                let code = self.sub_code(init, false)?;
                let v = self.expr(value)?.into_fn();
                Ce::Dyn(ef(move |m| {
                    run_code(m, &code)?;
                    v(m)
                }))
            }
            ExprKind::StmtExpr { body, value } => {
                let code = self.sub_code(body, true)?;
                let v = match value {
                    Some(v) => self.expr(v)?.into_fn(),
                    None => ef(|_| Ok(0)),
                };
                Ce::Dyn(ef(move |m| {
                    run_code(m, &code)?;
                    v(m)
                }))
            }
            ExprKind::VaStart(ap) => {
                let ap = self.expr(ap)?.into_fn();
                let fid = self.fid;
                Ce::Dyn(ef(move |m| {
                    let a = ap(m)?;
                    let bytes: Vec<u8> = m.varargs.iter().flat_map(|w| w.to_le_bytes()).collect();
                    let p = m
                        .mem
                        .alloc_init(&bytes, AllocKind::VaArgs(fid), false, loc)
                        .map_err(|f| m.fault(f, loc))?;
                    m.frame_allocs.push(p);
                    m.mem.store_u64(a, p).map_err(|f| m.fault(f, loc))?;
                    Ok(0)
                }))
            }
            ExprKind::VaArg(ap) => {
                let ap = self.expr(ap)?.into_fn();
                Ce::Dyn(ef(move |m| {
                    let a = ap(m)?;
                    let p = m.mem.load_u64(a).map_err(|f| m.fault(f, loc))?;
                    let w = m.mem.load_u64(p).map_err(|f| m.fault(f, loc))?;
                    m.mem
                        .store_u64(a, p.wrapping_add(8))
                        .map_err(|f| m.fault(f, loc))?;
                    Ok(if k.is_int() { norm(k, w) } else { w })
                }))
            }
            ExprKind::VaCopy(d, s) => {
                let (d, s) = (self.expr(d)?.into_fn(), self.expr(s)?.into_fn());
                Ce::Dyn(ef(move |m| {
                    let (dp, sp) = (d(m)?, s(m)?);
                    let w = m.mem.load_u64(sp).map_err(|f| m.fault(f, loc))?;
                    m.mem.store_u64(dp, w).map_err(|f| m.fault(f, loc))?;
                    Ok(0)
                }))
            }
        })
    }

    /// The parts of a `s += x[...] * y[...]` loop body for [`Loop1::run_mac`].
    fn mac_loop(&mut self, e: &Expr) -> R<Option<MacLoop>> {
        let ExprKind::CompoundAssign {
            op: BinOp::Add,
            place: Place::Local(l),
            value,
            op_ty,
        } = &e.kind
        else {
            return Ok(None);
        };
        let Some(Home::Reg(s)) = self.homes.get(l.0 as usize).copied() else {
            return Ok(None);
        };
        let k = self.kind(e.ty);
        if !matches!(k, Kind::F64 | Kind::F32) || self.kind(*op_ty) != k || self.kind(value.ty) != k
        {
            return Ok(None);
        }
        let ExprKind::Binary(BinOp::Mul, x, y) = &value.kind else {
            return Ok(None);
        };
        Ok(match (self.expr(x)?, self.expr(y)?) {
            (Ce::Load(a), Ce::Load(b)) if a.kind == k && b.kind == k => {
                Some(MacLoop {
                    s,
                    f64: k == Kind::F64,
                    x: a,
                    y: b,
                })
            }
            _ => None,
        })
    }

    /// `s += x * y` on a register `double`/`float` with array-element or register operands, as one
    /// closure: the inner loop of dot products, matrix products and convolutions.
    fn multiply_accumulate(
        &mut self,
        op: BinOp,
        place: &Place,
        value: &Expr,
        op_ty: TypeId,
        k: Kind,
    ) -> R<Option<ExprFn>> {
        let Place::Local(l) = place else {
            return Ok(None);
        };
        if self.checking {
            return Ok(None);
        }
        let Some(Home::Reg(s)) = self.homes.get(l.0 as usize).copied() else {
            return Ok(None);
        };
        let ExprKind::Binary(BinOp::Mul, x, y) = &value.kind else {
            return Ok(None);
        };
        if op != BinOp::Add
            || !matches!(k, Kind::F64 | Kind::F32)
            || self.kind(op_ty) != k
            || self.kind(value.ty) != k
        {
            return Ok(None);
        }
        let (x, y) = (self.expr(x)?, self.expr(y)?);
        macro_rules! mac {
            ($xe:expr, $ye:expr) => {
                if k == Kind::F64 {
                    ef(move |m| {
                        let p = f64b($xe(m)?) * f64b($ye(m)?);
                        let r = (f64b(m.regs[m.bp + s]) + p).to_bits();
                        m.regs[m.bp + s] = r;
                        Ok(r)
                    })
                } else {
                    ef(move |m| {
                        let p = f32b($xe(m)?) * f32b($ye(m)?);
                        let r = bf32(f32b(m.regs[m.bp + s]) + p);
                        m.regs[m.bp + s] = r;
                        Ok(r)
                    })
                }
            };
        }
        Ok(Some(match (x, y) {
            (Ce::Load(a), Ce::Load(b)) => mac!(|m: &Machine| a.eval(m), |m: &Machine| b.eval(m)),
            (Ce::Load(a), Ce::Reg(t)) => mac!(
                |m: &Machine| a.eval(m),
                |m: &Machine| -> Result<u64, Trap> { Ok(m.regs[m.bp + t]) }
            ),
            (Ce::Reg(t), Ce::Load(b)) => mac!(
                |m: &Machine| -> Result<u64, Trap> { Ok(m.regs[m.bp + t]) },
                |m: &Machine| b.eval(m)
            ),
            (x, y) => {
                let (a, b) = (x.into_fn(), y.into_fn());
                mac!(|m: &mut Machine| a(m), |m: &mut Machine| b(m))
            }
        }))
    }

    fn map1(&self, c: Ce, f: fn(u64) -> u64) -> Ce {
        match c {
            Ce::Const(v) => Ce::Const(f(v)),
            c => {
                let g = c.into_fn();
                Ce::Dyn(ef(move |m| Ok(f(g(m)?))))
            }
        }
    }

    /// A complex operand: its value is the address of its two parts, which the operation reads
    /// (reported to the checker in checking mode, as a load of both parts).
    fn complex_operand(&mut self, e: &Expr, ek: Kind, loc: Loc) -> R<ExprFn> {
        let f = self.expr(e)?.into_fn();
        if !self.checking {
            return Ok(f);
        }
        let (atomic, size) = (self.in_atomic, 2 * ek.bytes());
        Ok(ef(move |m| {
            let a = f(m)?;
            super::check::before_access(m, a, size, false, atomic, loc);
            super::check::access(m, a, size, false, atomic, loc);
            Ok(a)
        }))
    }

    fn complex_elem(&self, ty: TypeId) -> Kind {
        match self.t.get(ty) {
            Type::Complex(FloatKind::F32) => Kind::F32,
            Type::Complex(FloatKind::LongDouble) => Kind::LongDouble,
            _ => Kind::F64,
        }
    }

    fn undefined(&self, x: u32, loc: Loc) -> Diagnostic {
        let name = self
            .p
            .externs
            .get(x as usize)
            .map(|e| e.name.as_str())
            .unwrap_or("?");
        let decl = self.p.externs.get(x as usize).map(|e| e.loc);
        let mut d = Diagnostic::error("link", format!("undefined reference to `{name}`"), loc);
        if let Some(l) = decl.filter(|l| l.line != 0) {
            d = d.with_related(l, "declared here");
        }
        d.with_note(
            "accsim's C library does not provide this function, and the program does not define it",
        )
    }

    fn compound(
        &mut self,
        place: PlaceC,
        op: BinOp,
        pk: Kind,
        ok: Kind,
        val: ExprFn,
        loc: Loc,
    ) -> R<ExprFn> {
        let (cls, post) = class_of(ok, false);
        let cin = cast_fn(pk, ok);
        let cout = cast_fn(ok, pk);
        dispatch(
            op,
            cls,
            CompoundV {
                place,
                val,
                cin,
                cout,
                post,
                loc,
            },
        )
        .ok_or_else(|| {
            Diagnostic::internal(format!("no compound {op:?} for kind {ok:?}"), Some(loc))
        })
    }

    fn incdec(
        &mut self,
        place: PlaceC,
        k: Kind,
        ty: TypeId,
        delta: i8,
        post: bool,
        loc: Loc,
    ) -> R<Ce> {
        // The new value as a function of the old one.
        let step: Box<dyn Fn(&mut Machine<'_>, u64) -> Result<u64, Trap> + Send + Sync> = match k {
            Kind::F32 => {
                let d = delta as f32;
                Box::new(move |_, v| Ok(bf32(f32b(v) + d)))
            }
            Kind::F64 | Kind::LongDouble => {
                let d = delta as f64;
                Box::new(move |_, v| Ok((f64b(v) + d).to_bits()))
            }
            Kind::Bool => {
                if delta > 0 {
                    Box::new(|_, _| Ok(1))
                } else {
                    Box::new(|_, v| Ok((v != 1) as u64))
                }
            }
            Kind::Ptr => {
                let elem = self.t.pointee(ty).unwrap_or(ty);
                match self.size_of(elem, loc)? {
                    Ce::Const(sz) => {
                        let d = (delta as i64 as u64).wrapping_mul(sz);
                        if let PlaceC::Reg(s) = place {
                            return Ok(Ce::Dyn(ef(move |m| {
                                let old = m.regs[m.bp + s];
                                let new = old.wrapping_add(d);
                                m.regs[m.bp + s] = new;
                                Ok(if post { old } else { new })
                            })));
                        }
                        Box::new(move |_, v| Ok(v.wrapping_add(d)))
                    }
                    size => {
                        let size = size.into_fn();
                        Box::new(move |m, v| {
                            Ok(v.wrapping_add((delta as i64 as u64).wrapping_mul(size(m)?)))
                        })
                    }
                }
            }
            _ => {
                let d = delta as i64 as u64;
                if let PlaceC::Reg(s) = place {
                    return Ok(Ce::Dyn(match k {
                        Kind::I32 => ef(move |m| {
                            let old = m.regs[m.bp + s];
                            let new = (old as i32).wrapping_add(d as i32) as i64 as u64;
                            m.regs[m.bp + s] = new;
                            Ok(if post { old } else { new })
                        }),
                        _ => ef(move |m| {
                            let old = m.regs[m.bp + s];
                            let new = norm(k, old.wrapping_add(d));
                            m.regs[m.bp + s] = new;
                            Ok(if post { old } else { new })
                        }),
                    }));
                }
                Box::new(move |_, v| Ok(norm(k, v.wrapping_add(d))))
            }
        };
        Ok(Ce::Dyn(match place {
            PlaceC::Reg(s) => ef(move |m| {
                let old = m.regs[m.bp + s];
                let new = step(m, old)?;
                m.regs[m.bp + s] = new;
                Ok(if post { old } else { new })
            }),
            PlaceC::Mem(addr, k) => ef(move |m| {
                let a = addr(m)?;
                let old = m.load_kind(k, a).map_err(|f| m.fault(f, loc))?;
                let new = step(m, old)?;
                m.store_kind(k, a, new).map_err(|f| m.fault(f, loc))?;
                Ok(if post { old } else { new })
            }),
        }))
    }

    fn call(&mut self, callee: &Callee, args: &[Expr], result: Option<LocalId>, loc: Loc) -> R<Ce> {
        let dest = self.result_dest(result, loc)?;
        match callee {
            Callee::Direct(f) => {
                let fid = f.0;
                if fid as usize >= self.p.functions.len() {
                    return Err(Diagnostic::internal(
                        "call of a function that does not exist",
                        Some(loc),
                    ));
                }
                let argf = self.args(args)?;
                Ok(Ce::Dyn(match dest {
                    None => ef(move |m| {
                        let base = push_args(m, &argf)?;
                        call_function(m, fid, base, 0, loc)
                    }),
                    Some(off) => ef(move |m| {
                        let base = push_args(m, &argf)?;
                        let d = m.regs[m.bp + off];
                        call_function(m, fid, base, d, loc)?;
                        Ok(d)
                    }),
                }))
            }
            Callee::Extern(x) => {
                let shim = match self.exe.externs.get(x.0 as usize) {
                    Some(Binding::Function(s)) => *s,
                    _ => return Err(self.undefined(x.0, loc)),
                };
                let kinds: Vec<Kind> = args.iter().map(|a| self.kind(a.ty)).collect();
                let argf = self.args(args)?;
                Ok(Ce::Dyn(libc_shim::compile_call(
                    shim, argf, &kinds, dest, loc,
                )))
            }
            Callee::Indirect(fe) => {
                let fp = self.expr(fe)?.into_fn();
                let argf = self.args(args)?;

                Ok(Ce::Dyn(ef(move |m| {
                    let target = fp(m)?;
                    let base = push_args(m, &argf)?;
                    let d = dest.map(|slot| m.regs[m.bp + slot]).unwrap_or(0);
                    let r = call_indirect(m, target, base, d, loc)?;
                    Ok(if dest.is_some() { d } else { r })
                })))
            }
        }
    }
}

impl Addr {
    fn with_offset(self, off: u64) -> Addr {
        match self {
            Addr::Index(b, _, _) => {
                Addr::Any(BinaryV::go(b, Ce::Const(off), Loc::default(), |x, y| {
                    Ok(x.wrapping_add(y))
                }))
            }
            a => a,
        }
    }
}

mod offload;
pub mod vector;
