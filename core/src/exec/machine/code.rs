//! The executable form: what `exec/compile.rs` makes of the IR and [`super`] (the machine) runs.
//! It is part of the machine's module because the two are one unit: an executable's expressions
//! are closures on the machine, and the machine runs an executable.
//! Expressions are closures over the machine ([`ExprFn`]), with their shape kept ([`Ce`]) so that
//! consumers fuse constants, register reads and array loads; a function is a flat instruction list
//! ([`Instr`]) with resolved jump targets.

pub mod index;
pub mod vector;

use super::{Machine, Trap};
use super::super::memory::{ptr_word, AllocKind};
use super::super::value::Kind;
use crate::diag::Loc;
use index::IndexF;

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
pub(in crate::exec) fn deref(m: &Machine, s: usize, loc: Loc) -> Result<u64, Trap> {
    m.mem
        .load_u64(m.regs[m.bp + s])
        .map_err(|f| m.fault(f, loc))
}

/// Where a fused load's base pointer comes from.
#[derive(Clone, Copy)]
pub(in crate::exec) enum Base {
    Reg(usize),
    /// The pointer stored at the address held in a register slot (loaded at this location).
    Ind(usize, Loc),
}

impl Base {
    #[inline(always)]
    pub(in crate::exec) fn eval(self, m: &Machine) -> Result<u64, Trap> {
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
    pub(in crate::exec) kind: Kind,
    pub(in crate::exec) base: Base,
    pub(in crate::exec) ix: IndexF,
    pub(in crate::exec) size: u64,
    pub(in crate::exec) loc: Loc,
}

impl LoadS {
    #[inline(always)]
    pub(in crate::exec) fn eval(&self, m: &Machine) -> Result<u64, Trap> {
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
    /// Before a `for` statement's initialisation: a native-code engine may run the whole loop
    /// itself, the function's `k`th `for` statement ([`crate::ir::visit::for_statements`]),
    /// on the frame's values ([`super::NativeCode::run_loop`]); then go on at the label (past
    /// the loop), or return what a `return` in the loop returned. Free, and not a step.
    NativeLoop(u32, usize),
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
    pub(in crate::exec) s: usize,
    pub(in crate::exec) f64: bool,
    pub(in crate::exec) x: LoadS,
    pub(in crate::exec) y: LoadS,
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
    pub(in crate::exec) fn trip(&self, m: &Machine) -> (usize, i64, i64) {
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
pub(in crate::exec) enum ParamCopy {
    Scalar { arg: usize, ptr: usize, kind: Kind },
    Aggregate { arg: usize, ptr: usize, size: u64 },
}

/// A memory local: its own allocation, whose address lives in register slot `ptr`.
pub(in crate::exec) struct MemLocal {
    pub(in crate::exec) local: u32,
    pub(in crate::exec) ptr: usize,
    pub(in crate::exec) size: u64,
}

pub struct CFunc {
    pub name: String,
    pub loc: Loc,
    /// Where the frame's lifetime ends (for messages about dangling pointers).
    pub end_loc: Loc,
    pub code: Vec<Instr>,
    pub nparams: usize,
    pub nslots: usize,
    pub(in crate::exec) memory_locals: Vec<MemLocal>,
    pub(in crate::exec) params: Vec<ParamCopy>,
    pub local_names: Vec<String>,
    /// The program variable each local is, or is a thread's copy of (indexed like
    /// `local_names`); `None` for a local the passes made (`ir::LocalRole`): findings name
    /// only the reader's variables.
    pub program_names: Vec<Option<String>>,
    /// Checking executable: the locals declared in the loop body of a worker or vector
    /// partition, with its level: one variable per worker or per lane, which the frame holds
    /// once (`compile::checking`).
    pub thread_locals: Vec<(u32, crate::ir::acc::Level)>,
    /// Checking executable: some register locals live in memory because the threads of a
    /// worker or vector partition share them (`compile::checking::partition_shared_locals`):
    /// the kernel is checked access by access, since a footprint proof sees only memory.
    pub shares_locals: bool,
    /// Where each local lives, indexed like `local_names` (for `exec/inspect.rs`).
    pub(crate) homes: Vec<Home>,
    pub variadic: bool,
    pub ret_kind: Kind,
    /// The instructions of each OpenACC directive and kernel launch of the function, for a
    /// native-code engine that runs the rest of the function itself (issue 15).
    pub acc_sites: Vec<AccSite>,
}

/// Which statement an [`AccSite`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AccSiteKey {
    /// `StmtKind::Acc` of this directive.
    Directive(u32),
    /// `StmtKind::AccLaunch` of this kernel.
    Launch(u32),
}

/// The instructions of one OpenACC statement, compiled apart from its function's code: a
/// native-code engine runs them in the interpreter ([`Machine::native_run_site`]).
pub struct AccSite {
    pub key: AccSiteKey,
    /// The statement's location.
    pub loc: Loc,
    /// Everything the statement runs before its body (all of it when `exit` is `None`: the body,
    /// if any, is then part of these instructions).
    pub enter: Vec<Instr>,
    /// A data or compute construct: what runs after its body (which the engine runs itself).
    pub exit: Option<Vec<Instr>>,
}

impl CFunc {
    /// The frame slot of local `local`'s word (a register local's value, a memory or VLA
    /// local's address), and whether it is a register local: where a native-code engine's
    /// words for the locals go (`Machine::native_run_site`, `Machine::native_local_word`).
    pub(crate) fn local_slot(&self, local: usize) -> Option<(usize, bool)> {
        Some(match *self.homes.get(local)? {
            Home::Reg(s) => (s, true),
            Home::Mem(s) | Home::Vla(s) => (s, false),
        })
    }

    /// The index in [`CFunc::acc_sites`] of the `nth` occurrence (counted from 0, in the order
    /// of the function's statements) of OpenACC statement `key`, which is at `loc`, and whether
    /// it has an exit part (then its body is the engine's to run): what a native-code engine
    /// runs through [`Machine::native_run_site`]. (An outlined kernel may hold a directive
    /// twice: a reduction's combine in each loop of the reduction.)
    pub fn acc_site(&self, key: AccSiteKey, nth: usize, loc: Loc) -> Option<(usize, bool)> {
        let (i, site) = self
            .acc_sites
            .iter()
            .enumerate()
            .filter(|(_, s)| s.key == key)
            .nth(nth)?;
        (site.loc == loc).then_some((i, site.exit.is_some()))
    }

    /// Allocate the memory locals (each its own allocation, freed when the call returns, so a
    /// pointer to a dead local or past a local's end is caught) and copy memory parameters' arguments.
    pub fn prologue(&self, m: &mut Machine, fid: u32, loc: Loc) -> Result<(), Trap> {
        for l in &self.memory_locals {
            let p = m
                .mem
                .alloc(
                    l.size,
                    AllocKind::Local(fid, l.local),
                    super::super::memory::Space::Host,
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
    /// (clause, address, size, the clause as written, its variable, where).
    pub declares: Vec<(crate::ir::acc::DataClause, u64, u64, String, String, Loc)>,
    pub funcs: Vec<CFunc>,
    pub globals: Vec<GlobalImage>,
    pub strings: Vec<Vec<u8>>,
    /// By extern (`ir::ExternId`): what the C library binds it to ([`ExternCode`]).
    pub externs: Vec<ExternCode>,
    pub main: Option<u32>,
    /// Kernel function → the schedule of each of its loops (reported at each launch as
    /// [`super::super::events::Event::LoopSchedule`]).
    pub schedules: std::collections::HashMap<u32, Vec<super::super::events::LoopSchedule>>,
    /// Kernel function → its fast-share variant ([`crate::ir::acc::Kernel::fast`]).
    pub fast_kernels: std::collections::HashMap<u32, u32>,
    /// Compiled for checking: kernel function → its access plan ([`crate::kernel::footprint`]).
    /// (or why it has none).
    pub plans: std::collections::HashMap<u32, Result<std::sync::Arc<crate::kernel::footprint::AccessPlan>, String>>,
    /// Compiled for checking: the same program compiled without the checker's hooks, which a
    /// kernel proven race-free at its launch runs on ([`super::super::events::Subscriber::proven_launch`]).
    pub plain: Option<Box<Executable>>,
    /// By call site of an OpenACC runtime routine (`acc_copyin(b, n)`…): the variable its first
    /// argument names, which names the data in `--notify` lines and findings.
    pub api_names: std::collections::HashMap<Loc, String>,
}

/// A C library function as a call through a pointer to it runs it: the shim, with the
/// arguments, the record-result destination and the call site.
pub type ShimCall = Box<dyn Fn(&mut Machine<'_>, &[u64], u64, Loc) -> Result<u64, Trap> + Send + Sync>;

/// What an extern of the program is bound to in the executable (made by `exec/compile.rs` from
/// the C library shim's binding): the executable runs the shim through [`ShimCall`] and does
/// not know the C library itself.
pub enum ExternCode {
    /// A function of the C library.
    Function(ShimCall),
    /// A C library object: index into `libc_shim::RUNTIME_OBJECTS`.
    Object(u32),
    /// Not provided: a use is a link error (reported when it is compiled).
    Unbound,
}

/// The first allocation id of globals.
pub(in crate::exec) const FIRST_GLOBAL: u32 = 2;

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

}

/// Where a local of a compiled function lives (read by `exec/inspect.rs`).
#[derive(Copy, Clone, Debug)]
pub(crate) enum Home {
    Reg(usize),
    /// A memory local: the slot holding its address.
    Mem(usize),
    Vla(usize),
}
