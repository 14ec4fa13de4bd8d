//! From a function of the typed IR to Cranelift IR.
//!
//! Every value is the interpreter's 64-bit word ([`accsim_core::ir`]'s module docs): integers in
//! their canonical form (sign- or zero-extended, [`accsim_core::exec::value::norm`]), floats as
//! their bits, pointers as pointer words. Each operation is the one of the interpreter's operation
//! table (core's `exec/compile.rs`: the class an operation is done in, wrapping arithmetic, the
//! traps of integer division, shift counts masked as x86 masks them), so both engines compute the
//! same words. Operands are evaluated in the interpreter's order (a binary operation's left operand
//! first; an assignment's value before its address; a compound assignment's value, then its
//! address, then the old value).
//!
//! What the engine compiles (everything else makes [`eligible`] or the translation decline the
//! function, which then runs in the interpreter, and `accsim info` says why): functions without
//! VLA locals, not variadic, returning a scalar or nothing (memory locals live in a frame
//! allocated by [`runtime::jit_frame_enter`]); statements `if`, `while`, `do`, `for`, `break`,
//! `continue`, `return`, expression statements, aggregate zero fills and OpenACC statements (run
//! by the interpreter's instructions, [`runtime::jit_run_site`]); scalar expressions, loads and stores of scalars, pointer arithmetic,
//! calls (of compiled functions directly; of other functions and the C library through the
//! interpreter's call path; the C library's math routines through the same Rust functions the
//! shim calls).
//!
//! Fuel (`--max-steps`) is counted on loop back-edges and calls, one unit each.

use crate::HashMap;

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{
    types, AbiParam, Block, GlobalValue, InstBuilder, MemFlagsData, SigRef, Signature,
    StackSlotData, StackSlotKind, Type, Value,
};
use cranelift_codegen::entity::EntityRef;
use cranelift_codegen::isa::CallConv;
use cranelift_frontend::{FunctionBuilder, Variable};

use accsim_core::diag::Loc;
use accsim_core::exec::libc_shim::{Binding, Shim};
use accsim_core::exec::memory::{ptr_word, FUNC_ID};
use accsim_core::exec::value::Kind;
use accsim_core::exec::{AccSiteKey, Executable};
use accsim_core::ir::{
    BinOp, Callee, Expr, ExprKind, Function, LocalId, Place, Program, Stmt, StmtKind, Storage, TypeId,
    UnOp,
};

mod access;
mod arith;
mod atomic;
mod bound;
mod calls;
mod floats;
mod fuel;
mod own;

pub use own::{OWN_ID, OWN_LOC_BASE, OWN_NAMESPACE};

use crate::runtime::{self, kind_code, OFF_CALL_LOC, OFF_COLD_RESULT, OFF_DEPTH, OFF_FUEL, OFF_TABLE, OFF_TABLE_LEN, OFF_TRAPPED, SPAN_READABLE, SPAN_SHIFT, SPAN_WRITABLE};

/// Why a function cannot be compiled, checked before translation.
pub fn eligible(p: &Program, f: &Function) -> Result<(), String> {
    if f.variadic {
        return Err("variadic function".into());
    }
    for l in &f.locals {
        if l.storage == Storage::VlaAddress {
            return Err(format!("`{}` is a variable-length array", l.name));
        }
    }
    let ret = Kind::of(&p.types, f.ret);
    if matches!(ret, Kind::Aggregate | Kind::LongDouble) {
        return Err("returns a record, a complex number or a long double".into());
    }
    Ok(())
}

/// The signature of every compiled function: the context, the fuel left, its call depth, one word
/// per parameter ([`FIRST_ARG`]); its result word and the fuel left back.
pub fn native_signature(call_conv: CallConv, nparams: usize) -> Signature {
    let mut s = Signature::new(call_conv);
    for _ in 0..FIRST_ARG + nparams {
        s.params.push(AbiParam::new(types::I64));
    }
    s.returns.push(AbiParam::new(types::I64));
    s.returns.push(AbiParam::new(types::I64));
    s
}

/// The index of a native function's first argument word among its parameters: before them come
/// the context, the fuel left and the function's call depth, and it returns its result and the
/// fuel left (issue 15: a call of a recursion over a tree stored the fuel and depth in the
/// context and loaded them back, six memory accesses a call; they are registers now).
pub const FIRST_ARG: usize = 3;

pub(crate) type R<T> = Result<T, String>;

/// Most levels of calls translated inline ([`Translator::inlinable`]).
pub(crate) const INLINE_LEVELS: usize = 3;

/// Where an assignable place's value lives while native code runs.
#[derive(Clone, Copy)]
enum Slot {
    /// A register local's Cranelift variable ([`variable_type`]) and the local's index.
    Var(Variable, usize),
    /// Memory held in a variable by a counted loop ([`crate::invariant`]), of this kind.
    Held(Variable, Kind),
    /// Memory at this address word, computed from this pointer ([`Translator::address`]);
    /// with a bias, an access checked at loop entry ([`crate::loops`]): read and written in
    /// place at the word plus the bias.
    Mem(Value, Value, Option<Value>),
}

/// The helper functions native code calls, by address.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(crate) enum Helper {
    Load,
    Store,
    Call,
    ArithTrap,
    OutOfFuel,
    StackOverflow,
    Cast,
    Math1,
    Math2,
    Math1F,
    Math2F,
    FrameEnter,
    FrameLeave,
    Fill,
    RunSite,
    ReserveFuel,
    AtomicEnter,
    AtomicExit,
    AtomicUpdate,
    Malloc,
    Calloc,
    Free,
    OutlineCode,
}

impl Helper {
    /// Whether the helper reads or writes the context's fuel (it calls the interpreter, or
    /// draws fuel): the function's fuel variable is stored into the context before it and
    /// loaded back after ([`Translator::fuel`]).
    fn uses_fuel(self) -> bool {
        matches!(self, Helper::Call | Helper::RunSite | Helper::ReserveFuel | Helper::OutOfFuel)
    }

    /// Whether the helper reads the call depth in the context (it runs the interpreter, which
    /// takes the machine's depth from there: `runtime::Ctx::sync_into_machine`).
    fn reads_depth(self) -> bool {
        matches!(self, Helper::Call | Helper::RunSite)
    }

    /// The helper's address (a Rust function of the C convention).
    pub(crate) fn address(self) -> i64 {
        (match self {
            Helper::Load => runtime::jit_load as *const () as usize,
            Helper::Store => runtime::jit_store as *const () as usize,
            Helper::Call => runtime::jit_call as *const () as usize,
            Helper::ArithTrap => runtime::jit_arith_trap as *const () as usize,
            Helper::OutOfFuel => runtime::jit_out_of_fuel as *const () as usize,
            Helper::StackOverflow => runtime::jit_stack_overflow as *const () as usize,
            Helper::Cast => runtime::jit_cast as *const () as usize,
            Helper::Math1 => runtime::jit_math1 as *const () as usize,
            Helper::Math2 => runtime::jit_math2 as *const () as usize,
            Helper::Math1F => runtime::jit_math1f as *const () as usize,
            Helper::Math2F => runtime::jit_math2f as *const () as usize,
            Helper::FrameEnter => runtime::jit_frame_enter as *const () as usize,
            Helper::FrameLeave => runtime::jit_frame_leave as *const () as usize,
            Helper::Fill => runtime::jit_fill as *const () as usize,
            Helper::RunSite => runtime::jit_run_site as *const () as usize,
            Helper::ReserveFuel => runtime::jit_reserve_fuel as *const () as usize,
            Helper::AtomicEnter => runtime::jit_atomic_enter as *const () as usize,
            Helper::AtomicExit => runtime::jit_atomic_exit as *const () as usize,
            Helper::AtomicUpdate => runtime::jit_atomic_update as *const () as usize,
            Helper::Malloc => runtime::jit_malloc as *const () as usize,
            Helper::Calloc => runtime::jit_calloc as *const () as usize,
            Helper::Free => runtime::jit_free as *const () as usize,
            Helper::OutlineCode => runtime::jit_outline_code as *const () as usize,
        }) as i64
    }

    /// Every helper, in the order of its discriminant (the index of [`crate::cold::ColdStubs`]).
    pub(crate) const ALL: [Helper; 23] = [
        Helper::Load,
        Helper::Store,
        Helper::Call,
        Helper::ArithTrap,
        Helper::OutOfFuel,
        Helper::StackOverflow,
        Helper::Cast,
        Helper::Math1,
        Helper::Math2,
        Helper::Math1F,
        Helper::Math2F,
        Helper::FrameEnter,
        Helper::FrameLeave,
        Helper::Fill,
        Helper::RunSite,
        Helper::ReserveFuel,
        Helper::AtomicEnter,
        Helper::AtomicExit,
        Helper::AtomicUpdate,
        Helper::Malloc,
        Helper::Calloc,
        Helper::Free,
        Helper::OutlineCode,
    ];

    /// Whether native code calls the helper on cold paths only (a checked access's slow path,
    /// fuel running out or drawn from the pool, a trap): it is called through its stub of the
    /// `preserve_all` convention ([`crate::cold`]), which overwrites no register.
    pub(crate) fn cold(self) -> bool {
        matches!(
            self,
            Helper::Load | Helper::Store | Helper::ArithTrap | Helper::OutOfFuel | Helper::StackOverflow | Helper::ReserveFuel
        )
    }

    /// The helper's parameters and result.
    pub(crate) fn params_and_result(self) -> (&'static [Type], Option<Type>) {
        match self {
            Helper::Load => (&[types::I64; 4], Some(types::I64)),
            Helper::Store => (&[types::I64; 5], None),
            Helper::Call => (&[types::I64; 5], Some(types::I64)),
            Helper::ArithTrap | Helper::StackOverflow => (&[types::I64; 3], None),
            Helper::OutOfFuel => (&[types::I64; 2], None),
            Helper::Cast => (&[types::I64; 3], Some(types::I64)),
            Helper::Math1 => (&[types::I64, types::F64], Some(types::F64)),
            Helper::Math2 => (&[types::I64, types::F64, types::F64], Some(types::F64)),
            Helper::Math1F => (&[types::I64, types::F32], Some(types::F32)),
            Helper::Math2F => (&[types::I64, types::F32, types::F32], Some(types::F32)),
            Helper::FrameEnter => (&[types::I64; 6], Some(types::I64)),
            Helper::FrameLeave => (&[types::I64; 3], None),
            Helper::Fill => (&[types::I64; 4], None),
            Helper::RunSite => (&[types::I64; 8], None),
            Helper::ReserveFuel => (&[types::I64; 2], Some(types::I64)),
            Helper::AtomicEnter | Helper::AtomicExit => (&[types::I64; 1], None),
            Helper::AtomicUpdate => (&[types::I64; 6], Some(types::I64)),
            Helper::Malloc => (&[types::I64; 3], Some(types::I64)),
            Helper::Calloc => (&[types::I64; 4], Some(types::I64)),
            Helper::Free => (&[types::I64; 3], None),
            Helper::OutlineCode => (&[types::I64; 2], Some(types::I64)),
        }
    }

    /// The helper's signature in calling convention `cc`.
    pub(crate) fn signature(self, cc: CallConv) -> Signature {
        let mut s = Signature::new(cc);
        let (params, ret) = self.params_and_result();
        s.params.extend(params.iter().map(|&t| AbiParam::new(t)));
        if let Some(r) = ret {
            s.returns.push(AbiParam::new(r));
        }
        s
    }

    /// The signature of the helper's cold stub: its parameters, no result (the stub leaves it
    /// in the context's [`runtime::OFF_COLD_RESULT`] word).
    pub(crate) fn cold_signature(self) -> Signature {
        let mut s = Signature::new(CallConv::PreserveAll);
        s.params.extend(self.params_and_result().0.iter().map(|&t| AbiParam::new(t)));
        s
    }
}

/// Translates one function's body into a [`FunctionBuilder`].
pub struct Translator<'a, 'b> {
    pub p: &'a Program,
    pub exe: &'a Executable,
    pub b: FunctionBuilder<'b>,
    pub call_conv: CallConv,
    /// Where each location index passed to helpers points (the engine's table).
    pub locs: &'a mut Vec<Loc>,
    pub loc_index: &'a mut HashMap<Loc, u64>,
    /// The engine's code table (the address of each function's native code once compiled, 0
    /// before) and which functions may have native code: a direct call of one of those calls
    /// its code when the table has it, and goes through the interpreter's call path (which
    /// compiles it, `Engine`'s lazy compilation) when not.
    pub code_table: i64,
    pub may_be_native: &'a [bool],
    /// By function id: a call of it leaves the span table as it was ([`crate::keeps_table`]),
    /// so that the table's address and length are not reloaded after it.
    pub keeps_table: &'a [bool],
    pub vars: Vec<Variable>,
    pub ctx: Value,
    pub loops: Vec<(Block, Block)>,
    pub trap_exit: Block,
    pub sigs: HashMap<u8, SigRef>,
    /// The stubs cold helpers are called through ([`crate::cold`]), in a function whose loops
    /// carry float values ([`crate::cold::loops_carry_floats`]); `None`: called directly.
    pub cold_stubs: Option<&'a crate::cold::ColdStubs>,
    pub func: &'a Function,
    /// The span table's address and length, in variables: loaded at entry and again after each
    /// call (a call may allocate or free, which moves the table) but of a function that keeps
    /// the table ([`crate::keeps_table`]), so that accesses between calls do not reload them.
    pub table: Variable,
    pub table_len: Variable,
    /// Fuel left (`--max-steps`), in a variable: a parameter of the function, passed to each
    /// native call and defined again by the fuel left it returns ([`native_signature`]); stored
    /// in the context before each helper that uses it and loaded back after
    /// ([`Translator::flush_fuel`]), so that the units burnt by loop back edges, inlined calls
    /// and calls are register arithmetic, not a store and a load each (which chained every call
    /// of a call tree through one memory word).
    pub fuel: Variable,
    /// Whether the call depth at entry is within [`INLINE_LEVELS`] of the limit: only then can
    /// an inlined call reach it, and only then does one look at the depth
    /// ([`Translator::inline_call`]).
    pub near_depth_limit: Value,
    /// The function's entry block.
    pub entry: Block,
    /// The truth value true, made once in the entry block when first wanted ([`Translator::yes`]).
    pub yes: Option<Value>,
    /// An expression whose value is at hand ([`Translator::loop_bound`]): [`Translator::expr`]
    /// gives it without evaluating the expression again.
    pub known: Option<(*const Expr, Value)>,
    /// The function's call depth (the interpreter's `Machine::depth` while it runs), a
    /// parameter: a call passes its callee one more. Stored in the context before the helpers
    /// that read it ([`Helper::reads_depth`]).
    pub depth: Value,
    /// The function's own code, which a recursive call calls directly (no load of the code
    /// table and test), when no other code replaces it while it runs (`Engine::translate`).
    pub own_code: Option<cranelift_codegen::ir::FuncRef>,
    /// The function has no loop ([`Translator::floats_join_as_floats`]).
    pub loop_free: bool,
    /// The function's id (an index of the program's functions). Its code reads it, and the
    /// base of its location words, through [`Translator::own_word`].
    pub fid: u32,
    /// The symbol of the base of the function's location words, used inside loops
    /// ([`Translator::loc_word`]).
    pub own_base: Option<GlobalValue>,
    /// Another function may be the same code (`shared::twinned`): the function's own words are
    /// symbols ([`Translator::own_word`]); otherwise constants.
    pub twinned: bool,
    /// By local: whether it lives in memory (its variable then holds its address, allocated at
    /// entry by [`runtime::jit_frame_enter`]).
    pub in_memory: Vec<bool>,
    /// By local: whether the frame allocates it (the interpreter's memory locals, in the
    /// order of its prologue): `in_memory`'s locals and the promoted ones ([`crate::promote`]).
    pub frame_locals: Vec<bool>,
    /// By local: for a promoted memory local (kept in its variable), the variable holding its
    /// frame address, where OpenACC statements run by the interpreter see it.
    pub homes: Vec<Option<Variable>>,
    /// The mark of the function's frame ([`runtime::jit_frame_enter`]), when it has memory locals.
    pub frame: Option<Variable>,
    /// How many times each OpenACC statement was met so far (the interpreter's
    /// [`accsim_core::exec::AccSite`]s are in the same order).
    pub site_counts: HashMap<AccSiteKey, usize>,
    /// While the direct version of a counted loop is translated ([`crate::loops`]): the
    /// accesses checked at loop entry, by address expression, with the bias from pointer word
    /// to host address; and the memory locals checked so.
    pub direct: HashMap<*const Expr, Value>,
    pub direct_locals: HashMap<u32, Value>,
    /// While the direct version of a counted loop is translated: the variables (by index) the
    /// loop never assigns, with their values at loop entry, read in place of the variable so
    /// that what is computed from them is loop-invariant for Cranelift (the SSA construction,
    /// with blocks sealed at the end, would carry them around the loop as block parameters).
    pub frozen: HashMap<usize, Value>,
    /// The function is a kernel (its fast-share variant, or a kernel without one): it runs the
    /// `atomic` statements it may ([`crate::loops`]'s `atomic_in_native`) as native code. A kernel
    /// is called by its launch only, never inside another thread's atomic statement; a routine
    /// may be called in an atomic's expression, where the interpreter reports its own atomic
    /// (`nested-atomic`), so a routine's atomics stay with the interpreter.
    pub is_kernel: bool,
    /// The loops of a few constant iterations, unrolled ([`crate::unroll`]); `none_unrolled`
    /// (an empty table) in its place where code runs only when a faster version cannot
    /// ([`Translator::rolled`]).
    pub unrolled: &'a crate::unroll::UnrollTable,
    pub none_unrolled: &'a crate::unroll::UnrollTable,
    /// The loops of the small nests of a function that runs once ([`crate::unroll::small_nests`]):
    /// translated as they are.
    pub small_loops: &'a crate::HashSet<*const Stmt>,
    /// The function's unroll table, also while `unrolled` is `none_unrolled`
    /// ([`Translator::rolled`]).
    pub unroll_all: &'a crate::unroll::UnrollTable,
    /// While the direct version of a counted loop is translated: the unrolled loops whose fuel
    /// it took at entry.
    pub prepaid: crate::HashSet<*const Stmt>,
    /// While an inlined call's expression is translated ([`Translator::inline_call`]): the
    /// values of the callee's parameters, by local, one map per level of inlining.
    pub inline_args: Vec<HashMap<u32, Value>>,
    /// While the copies of an unrolled loop are translated with the fuel of every inlined call
    /// in them taken at once, and the call depth far from its limit ([`Translator::unrolled_for`]):
    /// an inlined call then only counts its unit of fuel ([`Translator::inline_call`]).
    pub inline_fuel_at_hand: bool,
    /// While the direct version of a counted loop is translated: its accesses at a
    /// loop-invariant address held in a variable ([`crate::invariant`]), by address expression,
    /// with their kind.
    pub held: HashMap<*const Expr, (Variable, Kind)>,
    /// While a counted loop's entry checks are translated ([`crate::loops`]): the exact values
    /// of the address expressions and their parts at each end, by the expression's text and the
    /// counters' values, computed once for all the accesses that hold them
    /// (`Translator::exact_at`).
    pub exact_memo: Option<crate::loops::ExactMemo>,
    /// While a box corner's ends are computed at a loop's entry: the nodes of its address on
    /// its box's leaf paths, computed exactly even where they read no counter
    /// ([`crate::apart`]).
    pub exact_through: Vec<*const accsim_core::ir::Expr>,
    /// The number (from 1) of the box whose corner that is; 0 otherwise.
    pub exact_box: u32,
    /// While the vector version of a counted loop is translated: its `max`/`min` reductions'
    /// lanes ([`crate::simd`]).
    pub(crate) lane_reductions: Vec<crate::simd::LaneReduction>,
    /// While the direct or the vector version of a counted loop is translated: its accesses'
    /// streams ([`crate::streams`]), and the counter of the iteration (of the group of lanes)
    /// being translated with its constant lead over that counter.
    pub(crate) lane_streams: HashMap<*const Expr, crate::streams::Stream>,
    pub(crate) lane_at: Option<(Value, i64)>,
    /// The slots of the checked versions made on first need ([`crate::outline`]); `None`:
    /// every checked version is translated in place.
    pub(crate) outlines: Option<&'a crate::outline::Outlines>,
    /// What the outlining of the function's loops asks of the whole function
    /// ([`crate::outline::Facts`]), worked out when first wanted.
    pub(crate) outline_facts: Option<crate::outline::Facts>,
    /// While a checked version of its own is translated ([`crate::outline`]): the address of
    /// its frame and the number of locals in it (a `return` stores its word after them).
    pub(crate) outlined: Option<(Value, usize)>,
    /// The table of source locations the code's location words name (`runtime::Ctx::loc`):
    /// the function's id, or a checked version's own table ([`crate::outline`]).
    pub loc_fid: u32,
}

/// The byte size of a type: known when the function is compiled, or computed at run time
/// (a variable-length array's).
pub(crate) enum Size {
    Const(u64),
    Dyn(Value),
}

/// The Cranelift type of a local's variable: a register `double`'s or `float`'s value in a
/// float register, so that a float carried around a loop (`t += a[i] * x[i]`) never crosses to
/// an integer register and back; every other local's word (a memory local's: its address).
pub fn variable_type(p: &Program, ty: TypeId, in_memory: bool) -> Type {
    match Kind::of(&p.types, ty) {
        _ if in_memory => types::I64,
        Kind::F64 => types::F64,
        Kind::F32 => types::F32,
        _ => types::I64,
    }
}

/// The value of type `ty` whose word is 0.
pub fn zero_of(b: &mut FunctionBuilder<'_>, ty: Type) -> Value {
    match ty {
        types::F64 => b.ins().f64const(0.0),
        types::F32 => b.ins().f32const(0.0),
        _ => b.ins().iconst(types::I64, 0),
    }
}

/// The word `w` as a value of type `ty` ([`variable_type`]): a float's bits in a float
/// register (the word of a `float` is its bits zero-extended).
pub fn word_to(b: &mut FunctionBuilder<'_>, ty: Type, w: Value) -> Value {
    match ty {
        types::F64 => b.ins().bitcast(types::F64, MemFlagsData::new(), w),
        types::F32 => {
            let i = b.ins().ireduce(types::I32, w);
            b.ins().bitcast(types::F32, MemFlagsData::new(), i)
        }
        _ => w,
    }
}

/// Whether function `f` has locals in memory (then it allocates a frame when called).
pub fn has_frame(f: &Function) -> bool {
    f.locals.iter().any(|l| l.storage == Storage::Memory)
}

fn notrap() -> MemFlagsData {
    let mut f = MemFlagsData::new();
    f.set_notrap();
    f
}

impl<'a, 'b> Translator<'a, 'b> {
    fn kind(&self, ty: TypeId) -> Kind {
        Kind::of(&self.p.types, ty)
    }

    /// What the C library binds extern `x` to (the executable keeps only how to call it).
    pub(crate) fn binding(&self, x: u32) -> Option<Binding> {
        self.p.externs.get(x as usize).map(|e| accsim_core::exec::libc_shim::bind(&e.name, &self.p.types, e.ty))
    }

    pub(crate) fn iconst(&mut self, v: u64) -> Value {
        self.b.ins().iconst(types::I64, v as i64)
    }

    /// Call helper `h` with `args`; its result, if it has one. A cold helper ([`Helper::cold`])
    /// of a function whose loops carry float values is called through its stub
    /// ([`crate::cold`]), which keeps every register, and its result is read back from the
    /// context.
    pub(crate) fn helper(&mut self, h: Helper, args: &[Value]) -> Option<Value> {
        let key = h as u8;
        let stubs = self.cold_stubs.filter(|_| h.cold());
        let sig = match self.sigs.get(&key) {
            Some(&s) => s,
            None => {
                let sig = if stubs.is_some() { h.cold_signature() } else { h.signature(self.call_conv) };
                let s = self.b.import_signature(sig);
                self.sigs.insert(key, s);
                s
            }
        };
        if h.uses_fuel() {
            self.flush_fuel();
        }
        if h.reads_depth() {
            self.b.ins().store(MemFlagsData::trusted(), self.depth, self.ctx, OFF_DEPTH);
        }
        let r = if let Some(stubs) = stubs {
            let addr = self.b.ins().iconst(types::I64, stubs.address(h));
            self.b.ins().call_indirect(sig, addr, args);
            h.params_and_result()
                .1
                .map(|ty| self.b.ins().load(ty, MemFlagsData::trusted(), self.ctx, OFF_COLD_RESULT))
        } else {
            let addr = self.b.ins().iconst(types::I64, h.address());
            let call = self.b.ins().call_indirect(sig, addr, args);
            self.b.inst_results(call).first().copied()
        };
        if h.uses_fuel() {
            self.reload_fuel();
        }
        r
    }

    /// The value of variable `v` here (its value at loop entry while it is frozen).
    pub(crate) fn read_var(&mut self, v: Variable) -> Value {
        match self.frozen.get(&v.index()) {
            Some(&x) => x,
            None => self.b.use_var(v),
        }
    }

    /// The word of a variable's value `v` (a float register's value as its bits).
    pub(crate) fn word_of(&mut self, v: Value) -> Value {
        match self.b.func.dfg.value_type(v) {
            types::F64 => self.f64_as_word(v),
            types::F32 => self.f32_as_word(v),
            _ => v,
        }
    }

    /// The word `w` as a value of type `ty` ([`variable_type`]).
    pub(crate) fn word_as(&mut self, ty: Type, w: Value) -> Value {
        match ty {
            types::F64 => self.word_as_f64(w),
            types::F32 => self.word_as_f32(w),
            _ => w,
        }
    }

    /// The word `w` as a value of local `i`'s variable type ([`variable_type`]).
    pub(crate) fn word_for_local(&mut self, i: usize, w: Value) -> Value {
        let ty = self.func.locals.get(i).map_or(types::I64, |l| variable_type(self.p, l.ty, self.in_memory.get(i).copied().unwrap_or(true)));
        match ty {
            types::F64 => self.word_as_f64(w),
            types::F32 => self.word_as_f32(w),
            _ => w,
        }
    }

    /// Load the span table's address and length from the context (at entry and after calls).
    pub fn reload_table(&mut self) {
        let t = self
            .b
            .ins()
            .load(types::I64, MemFlagsData::trusted(), self.ctx, OFF_TABLE);
        let n = self
            .b
            .ins()
            .load(types::I64, MemFlagsData::trusted(), self.ctx, OFF_TABLE_LEN);
        self.frozen.remove(&self.table.index());
        self.frozen.remove(&self.table_len.index());
        self.b.def_var(self.table, t);
        self.b.def_var(self.table_len, n);
    }

    /// Continue in a fresh block after a jump (code there is unreachable).
    fn after_jump(&mut self) {
        let b = self.b.create_block();
        self.b.switch_to_block(b);
    }

    /// Allocate the frame of a function with memory locals (at entry, after the parameters are
    /// defined): the interpreter's prologue through [`runtime::jit_frame_enter`].
    pub fn enter_frame(&mut self, params: &[Value]) {
        let memory: Vec<usize> = (0..self.frame_locals.len()).filter(|&i| self.frame_locals[i]).collect();
        if memory.is_empty() {
            return;
        }
        let words = |n: usize| StackSlotData::new(StackSlotKind::ExplicitSlot, (8 * n.max(1)) as u32, 3);
        let argv = self.b.create_sized_stack_slot(words(params.len()));
        for (i, &w) in params.iter().enumerate() {
            self.b.ins().stack_store(types::I64, w, argv, (8 * i) as i32);
        }
        let ptrs = self.b.create_sized_stack_slot(words(memory.len()));
        let fid = self.own_id();
        let a = self.b.ins().stack_addr(types::I64, argv, 0);
        let na = self.iconst(params.len() as u64);
        let pp = self.b.ins().stack_addr(types::I64, ptrs, 0);
        let np = self.iconst(memory.len() as u64);
        let mark = self
            .helper(Helper::FrameEnter, &[self.ctx, fid, a, na, pp, np])
            .unwrap_or(na);
        let frame = self.b.declare_var(types::I64);
        self.b.def_var(frame, mark);
        self.frame = Some(frame);
        for (k, &l) in memory.iter().enumerate() {
            let p = self.b.ins().stack_load(types::I64, types::I64, ptrs, (8 * k) as i32);
            if self.in_memory.get(l).copied().unwrap_or(false) {
                self.b.def_var(self.vars[l], p);
            } else {
                // A promoted local: its variable holds its value (0, as the fresh frame's
                // zeroed bytes), its home the address.
                let home = self.b.declare_var(types::I64);
                self.b.def_var(home, p);
                if let Some(h) = self.homes.get_mut(l) {
                    *h = Some(home);
                }
            }
        }
        self.check_trap();
        self.reload_table();
    }

    /// Free the frame (before the function returns, or leaves on a trap).
    pub fn leave_frame(&mut self) {
        if let Some(frame) = self.frame {
            let mark = self.b.use_var(frame);
            let fid = self.own_id();
            self.helper(Helper::FrameLeave, &[self.ctx, fid, mark]);
        }
    }

    /// Return the word `w` and the fuel left, freeing the frame first.
    pub fn ret(&mut self, w: Value) {
        if let Some((frame, n)) = self.outlined {
            // A checked version of its own ([`crate::outline`]): its caller returns the word.
            self.b.ins().store(MemFlagsData::trusted(), w, frame, (8 * n) as i32);
            self.leave_checked_version(crate::outline::RETURNED);
            return;
        }
        self.leave_frame();
        let fuel = self.b.use_var(self.fuel);
        self.b.ins().return_(&[w, fuel]);
    }

    /// Leave after a trap: the frame freed, the fuel left stored in the context, and 0 for the
    /// fuel returned, which tells the caller of the trap. Fuel left is never 0 otherwise: the
    /// entry gives native code some (`runtime::enter` refills a machine that has none), the
    /// caller's unit for a call left some, and a unit that leaves none refills or traps.
    pub fn ret_trapped(&mut self) {
        if self.outlined.is_some() {
            // Its caller sees the trap in the context ([`crate::outline`]).
            self.leave_checked_version(crate::outline::TRAPPED);
            return;
        }
        self.leave_frame();
        self.flush_fuel();
        let z = self.iconst(0);
        self.b.ins().return_(&[z, z]);
    }

    // -----------------------------------------------------------------------------------------
    // Statements.

    /// The statements of an expression (a compound literal's initialisation, a statement
    /// expression's body), with the loops around the expression out of reach.
    fn inner_statements(&mut self, stmts: &[Stmt]) -> R<()> {
        let outer = std::mem::take(&mut self.loops);
        let done = stmts.iter().try_for_each(|st| self.stmt(st));
        self.loops = outer;
        done
    }

    pub fn stmt(&mut self, s: &Stmt) -> R<()> {
        match &s.kind {
            StmtKind::Empty => {}
            StmtKind::Expr(e) => {
                self.expr(e)?;
            }
            StmtKind::Block(ss) => {
                for s in ss {
                    self.stmt(s)?;
                }
            }
            StmtKind::If(c, t, e) => {
                let (then_b, else_b, join) =
                    (self.b.create_block(), self.b.create_block(), self.b.create_block());
                let c = self.cond(c)?;
                self.b.ins().brif(c, then_b, &[], else_b, &[]);
                self.b.switch_to_block(then_b);
                self.stmt(t)?;
                self.b.ins().jump(join, &[]);
                self.b.switch_to_block(else_b);
                if let Some(e) = e {
                    self.stmt(e)?;
                }
                self.b.ins().jump(join, &[]);
                self.b.switch_to_block(join);
            }
            StmtKind::While(c, body) => {
                let (head, body_b, exit) =
                    (self.b.create_block(), self.b.create_block(), self.b.create_block());
                self.b.ins().jump(head, &[]);
                self.b.switch_to_block(head);
                let cv = self.cond(c)?;
                self.b.ins().brif(cv, body_b, &[], exit, &[]);
                self.b.switch_to_block(body_b);
                let latch = self.b.create_block();
                self.loops.push((latch, exit));
                self.stmt(body)?;
                self.loops.pop();
                self.b.ins().jump(latch, &[]);
                self.b.switch_to_block(latch);
                self.burn_fuel(s.loc);
                self.b.ins().jump(head, &[]);
                self.b.switch_to_block(exit);
            }
            StmtKind::DoWhile(body, c) => {
                let (body_b, test, exit) =
                    (self.b.create_block(), self.b.create_block(), self.b.create_block());
                self.b.ins().jump(body_b, &[]);
                self.b.switch_to_block(body_b);
                self.loops.push((test, exit));
                self.stmt(body)?;
                self.loops.pop();
                self.b.ins().jump(test, &[]);
                self.b.switch_to_block(test);
                let cv = self.cond(c)?;
                let again = self.b.create_block();
                self.b.ins().brif(cv, again, &[], exit, &[]);
                self.b.switch_to_block(again);
                self.burn_fuel(s.loc);
                self.b.ins().jump(body_b, &[]);
                self.b.switch_to_block(exit);
            }
            StmtKind::For { .. } => {
                let table: &'a crate::unroll::UnrollTable = self.unrolled;
                match table.get(&(s as *const Stmt)) {
                    Some(u) => self.unrolled_for(s, u)?,
                    None => self.for_loop(s)?,
                }
            }
            StmtKind::Break => {
                let Some(&(_, exit)) = self.loops.last() else {
                    return Err("`break` outside a loop (in a `switch`)".into());
                };
                self.b.ins().jump(exit, &[]);
                self.after_jump();
            }
            StmtKind::Continue => {
                let Some(&(latch, _)) = self.loops.last() else {
                    return Err("`continue` outside a loop".into());
                };
                self.b.ins().jump(latch, &[]);
                self.after_jump();
            }
            StmtKind::Return(v) => {
                let w = match v {
                    Some(e) => {
                        let k = self.kind(e.ty);
                        if matches!(k, Kind::Aggregate | Kind::LongDouble) {
                            return Err("returns a record or a long double".into());
                        }
                        self.expr(e)?
                    }
                    None => self.iconst(0),
                };
                self.ret(w);
                self.after_jump();
            }
            StmtKind::Switch { .. } => return Err("`switch` statement".into()),
            StmtKind::Partition(_) => {
                return Err("a partitioned loop (worker and vector threads)".into())
            }
            StmtKind::Label(_) | StmtKind::Goto(_) => return Err("`goto` or a label".into()),
            StmtKind::ZeroFill { addr, size } => {
                let a = self.expr(addr)?;
                let n = self.iconst(*size);
                let l = self.loc(s.loc);
                self.helper(Helper::Fill, &[self.ctx, a, n, l]);
                self.check_trap();
            }
            StmtKind::VlaAlloc(_) => return Err("a variable-length array".into()),
            StmtKind::Acc { directive, body } => {
                use accsim_core::ir::acc::AccKind;
                let kind = self
                    .p
                    .acc
                    .get(directive.0 as usize)
                    .and_then(Option::as_ref)
                    .map(|d| &d.kind);
                match kind {
                    // The interpreter runs an orphaned loop's body as it is (exec/compile/offload.rs);
                    // `cache` and `routine` have no run-time effect.
                    Some(AccKind::Loop | AccKind::Cache(_) | AccKind::Routine(_)) => {
                        if let Some(b) = body {
                            self.stmt(b)?;
                        }
                    }
                    // An atomic statement whose body calls nothing (but math routines) runs as
                    // native code, as the interpreter runs it (exec/compile/offload.rs): one of a
                    // word form as a compare-and-swap of x's word (`exec::atomic`, translate/
                    // atomic.rs), any other holding the run's atomic lock, so that no other
                    // device thread's atomic touches memory between its read and its write
                    // (§2.12).
                    Some(AccKind::Atomic(kind)) if self.is_kernel && body.as_deref().is_some_and(|b| self.atomic_in_native(b)) => {
                        if let Some(b) = body.as_deref().filter(|b| self.atomic_on_registers(b)) {
                            self.stmt(b)?;
                        } else if let Some(form) = body.as_deref().and_then(|b| accsim_core::exec::atomic::atomic_form(&self.p.types, *kind, b)) {
                            self.atomic_word_update(&form)?;
                        } else if let Some(b) = body {
                            self.helper(Helper::AtomicEnter, &[self.ctx]);
                            self.stmt(b)?;
                            self.helper(Helper::AtomicExit, &[self.ctx]);
                        }
                    }
                    // Inside `host_data`, an array's name stands for its device copy's address
                    // (§2.8), which the interpreter's compilation of the body knows.
                    Some(AccKind::HostData) => {
                        return Err("a `host_data` construct".into());
                    }
                    // A function-scope `declare`'s data lives until the function returns (§2.13),
                    // which the interpreter's call path ends (`function_return`); a native call
                    // does not pass there.
                    Some(AccKind::Declare) => {
                        return Err("a function-scope `declare` directive".into());
                    }
                    _ => {
                        let key = AccSiteKey::Directive(directive.0);
                        let (site, has_exit) = self.site(key, s.loc)?;
                        let named = self.site_named(key, body.as_deref(), !has_exit);
                        self.run_site(site, false, &named)?;
                        if has_exit {
                            // A data or compute construct: its body runs natively between the
                            // construct's entry and exit.
                            if let Some(b) = body {
                                self.stmt(b)?;
                            }
                            self.run_site(site, true, &named)?;
                        }
                    }
                }
            }
            StmtKind::AccLaunch(k) => {
                let key = AccSiteKey::Launch(k.0);
                let (site, _) = self.site(key, s.loc)?;
                let named = self.site_named(key, None, true);
                self.run_site(site, false, &named)?;
            }
        }
        Ok(())
    }

    /// The interpreter's instructions of an OpenACC statement of this function: their index
    /// and whether the statement has an exit part.
    fn site(&mut self, key: AccSiteKey, loc: Loc) -> R<(usize, bool)> {
        let nth = self.site_counts.entry(key).or_insert(0);
        let n = *nth;
        *nth += 1;
        self.exe
            .funcs
            .get(self.fid as usize)
            .and_then(|f| f.acc_site(key, n, loc))
            .ok_or_else(|| {
                "an OpenACC directive in code the interpreter compiles apart (a statement expression)".into()
            })
    }

    /// Run the entry (or `exit`) part of OpenACC statement `site` of this function in the
    /// interpreter (the runtime's data actions, a launch, an atomic statement), with the values of
    /// the locals it may read or write (`named`, by local: [`crate::site_locals`]) in its register
    /// frame; register locals among them get back the values it leaves there.
    fn run_site(&mut self, site: usize, exit: bool, named: &[bool]) -> R<()> {
        let n = self.vars.len();
        // Two words for each named local: its word (a register local's value, a memory local's
        // address), then its id (`runtime::jit_run_site`).
        let passed: Vec<usize> = (0..n).filter(|&i| named.get(i).copied().unwrap_or(true)).collect();
        // Promoted locals go to their frame memory, where the statement sees them, and come
        // back from it after (a `copy` or `update host` may have written them, or work queued
        // before and run now, §2.13): the helper stores and loads them, from three words each
        // after the named locals' (value, address, id and kind).
        let promoted = self.promoted_homes();
        let words = 2 * passed.len() + 3 * promoted.len();
        let frame = self.b.create_sized_stack_slot(StackSlotData::new(
            StackSlotKind::ExplicitSlot,
            (8 * words.max(1)) as u32,
            3,
        ));
        for (j, &i) in passed.iter().enumerate() {
            let v = match self.homes.get(i).copied().flatten() {
                Some(home) => self.b.use_var(home),
                None => {
                    let v = self.b.use_var(self.vars[i]);
                    self.word_of(v)
                }
            };
            self.b.ins().stack_store(types::I64, v, frame, (16 * j) as i32);
            let id = self.iconst(i as u64);
            self.b.ins().stack_store(types::I64, id, frame, (16 * j + 8) as i32);
        }
        let after = 2 * passed.len();
        for (j, &(i, home, k)) in promoted.iter().enumerate() {
            let code = kind_code(k).filter(|_| k != Kind::LongDouble).ok_or_else(|| format!("a memory local of kind {k:?}"))?;
            let v = self.b.use_var(self.vars[i]);
            let v = self.word_of(v);
            let at = 8 * (after + 3 * j) as i32;
            self.b.ins().stack_store(types::I64, v, frame, at);
            let address = self.b.use_var(home);
            self.b.ins().stack_store(types::I64, address, frame, at + 8);
            let tag = self.iconst(((i as u64) << 8) | code as u64);
            self.b.ins().stack_store(types::I64, tag, frame, at + 16);
        }
        let fid = self.own_id();
        let from = self.iconst(site as u64);
        let to = self.iconst(exit as u64);
        let at = self.b.ins().stack_addr(types::I64, frame, 0);
        let nv = self.iconst(passed.len() as u64);
        let np = self.iconst(promoted.len() as u64);
        let l = self.loc(self.func.loc);
        self.helper(Helper::RunSite, &[self.ctx, fid, from, to, at, nv, np, l]);
        for (j, &i) in passed.iter().enumerate() {
            if !self.in_memory.get(i).copied().unwrap_or(false) && self.homes.get(i).copied().flatten().is_none() {
                let v = self
                    .b
                    .ins()
                    .stack_load(types::I64, types::I64, frame, (16 * j) as i32);
                let v = self.word_for_local(i, v);
                self.b.def_var(self.vars[i], v);
            }
        }
        self.check_trap();
        self.reload_table();
        for (j, &(i, _, _)) in promoted.iter().enumerate() {
            let v = self.b.ins().stack_load(types::I64, types::I64, frame, 8 * (after + 3 * j) as i32);
            let v = self.word_for_local(i, v);
            self.frozen.remove(&self.vars[i].index());
            self.b.def_var(self.vars[i], v);
        }
        Ok(())
    }

    /// The locals OpenACC statement `key` of this function may read or write, by local
    /// ([`crate::site_locals`]; `whole`: the interpreter runs its body too). A kernel's
    /// statements (an `atomic` statement run in the interpreter, a reduction's combine) pass
    /// every local, as before: they are not where a kernel's code is.
    fn site_named(&self, key: AccSiteKey, body: Option<&Stmt>, whole: bool) -> Vec<bool> {
        if self.is_kernel {
            return vec![true; self.vars.len()];
        }
        crate::site_locals::site_locals(self.p, self.func, key, body, whole)
    }

    /// A `for` statement as it is: a counted loop in two versions ([`crate::loops`]) or a
    /// plain loop.
    pub(crate) fn for_loop(&mut self, s: &Stmt) -> R<()> {
        let StmtKind::For { init, cond, step, body } = &s.kind else {
            return Err("internal: not a `for` statement".into());
        };
        if let Some(i) = init {
            self.stmt(i)?;
        }
        // A small nest of a function that runs once, or, in a fallback ([`Translator::rolled`]),
        // a loop the fast version unrolls: as it is.
        let rolled_small = std::ptr::eq(self.unrolled, self.none_unrolled) && self.unroll_all.contains_key(&(s as *const Stmt));
        if rolled_small || self.small_loops.contains(&(s as *const Stmt)) {
            let exit = self.b.create_block();
            self.plain_for(cond.as_ref(), step.as_ref(), body, s.loc, exit)?;
            self.b.switch_to_block(exit);
            return Ok(());
        }
        // A nest whose outer iterations run in lanes first ([`crate::outer`]).
        if let Some(plan) = self.outer_plan(cond.as_ref(), step.as_ref(), body) {
            self.outer_lanes(&plan)?;
        }
        match (cond, step, self.counted_loop(cond.as_ref(), step.as_ref(), body)) {
            (Some(_), Some(_), Some(plan)) => self.versioned_for(plan, s, body)?,
            _ => {
                let exit = self.b.create_block();
                self.plain_for(cond.as_ref(), step.as_ref(), body, s.loc, exit)?;
                self.b.switch_to_block(exit);
            }
        }
        Ok(())
    }

    /// The promoted memory locals ([`crate::promote`]): index, home variable, kind.
    fn promoted_homes(&self) -> Vec<(usize, Variable, Kind)> {
        self.homes
            .iter()
            .enumerate()
            .filter_map(|(i, h)| {
                let ty = self.func.locals.get(i)?.ty;
                Some((i, (*h)?, self.kind(ty)))
            })
            .collect()
    }

    /// The truth value true. The tests of a loop's entry start from it and mostly stay it
    /// ([`Translator::both`]): one constant in the entry block, which dominates every use,
    /// made when first wanted. A constant made at each test was an instruction mostly never
    /// read (220 of blur's kernel's 2,484; issue 15's compile time).
    pub(crate) fn yes(&mut self) -> Value {
        use cranelift_codegen::cursor::{Cursor, FuncCursor};
        if let Some(v) = self.yes {
            return v;
        }
        let mut at = FuncCursor::new(self.b.func).at_first_insertion_point(self.entry);
        let v = at.ins().iconst(types::I8, 1);
        self.yes = Some(v);
        v
    }

    /// A condition as a Cranelift truth value (non-zero word of its kind).
    pub(crate) fn cond(&mut self, c: &Expr) -> R<Value> {
        let k = self.kind(c.ty);
        let v = self.expr(c)?;
        Ok(self.truthy(k, v))
    }

    fn truthy(&mut self, k: Kind, v: Value) -> Value {
        match k {
            Kind::F32 => {
                let f = self.word_as_f32(v);
                let z = self.b.ins().f32const(0.0);
                self.b.ins().fcmp(FloatCC::NotEqual, f, z)
            }
            Kind::F64 | Kind::LongDouble => {
                let f = self.word_as_f64(v);
                let z = self.b.ins().f64const(0.0);
                self.b.ins().fcmp(FloatCC::NotEqual, f, z)
            }
            _ => self.b.ins().icmp_imm_s(IntCC::NotEqual, v, 0),
        }
    }

    fn bool_word(&mut self, c: Value) -> Value {
        self.b.ins().uextend(types::I64, c)
    }

    pub(crate) fn word_as_f64(&mut self, w: Value) -> Value {
        // A word made of a double is that double (no round trip through an integer register).
        if let Some(f) = self.double_of_word(w) {
            return f;
        }
        self.b.ins().bitcast(types::F64, MemFlagsData::new(), w)
    }

    /// The float the word `w` is the bits of, when `w` is made by [`Translator::f32_as_word`].
    fn float_of_word(&self, w: Value) -> Option<Value> {
        use cranelift_codegen::ir::{Opcode, ValueDef};
        let dfg = &self.b.func.dfg;
        let ValueDef::Result(ext, 0) = dfg.value_def(w) else { return None };
        if dfg.insts[ext].opcode() != Opcode::Uextend {
            return None;
        }
        let bits = *dfg.inst_args(ext).first()?;
        let ValueDef::Result(cast, 0) = dfg.value_def(bits) else { return None };
        if dfg.insts[cast].opcode() != Opcode::Bitcast {
            return None;
        }
        let f = *dfg.inst_args(cast).first()?;
        (dfg.value_type(f) == types::F32).then_some(f)
    }

    /// The double the word `w` is the bits of, when `w` is made by [`Translator::f64_as_word`].
    fn double_of_word(&self, w: Value) -> Option<Value> {
        use cranelift_codegen::ir::{Opcode, ValueDef};
        let ValueDef::Result(inst, 0) = self.b.func.dfg.value_def(w) else { return None };
        let data = &self.b.func.dfg.insts[inst];
        if data.opcode() != Opcode::Bitcast {
            return None;
        }
        let arg = *self.b.func.dfg.inst_args(inst).first()?;
        (self.b.func.dfg.value_type(arg) == types::F64).then_some(arg)
    }
    fn f64_as_word(&mut self, f: Value) -> Value {
        self.b.ins().bitcast(types::I64, MemFlagsData::new(), f)
    }
    pub(crate) fn word_as_f32(&mut self, w: Value) -> Value {
        if let Some(f) = self.float_of_word(w) {
            return f;
        }
        let i = self.b.ins().ireduce(types::I32, w);
        self.b.ins().bitcast(types::F32, MemFlagsData::new(), i)
    }
    fn f32_as_word(&mut self, f: Value) -> Value {
        let i = self.b.ins().bitcast(types::I32, MemFlagsData::new(), f);
        self.b.ins().uextend(types::I64, i)
    }

    /// [`accsim_core::exec::value::norm`]: the canonical word of kind `k`.
    fn norm(&mut self, k: Kind, v: Value) -> Value {
        let ins = self.b.ins();
        match k {
            Kind::I8 => {
                let n = ins.ireduce(types::I8, v);
                self.b.ins().sextend(types::I64, n)
            }
            Kind::U8 => ins.band_imm_u(v, 0xff),
            Kind::I16 => {
                let n = ins.ireduce(types::I16, v);
                self.b.ins().sextend(types::I64, n)
            }
            Kind::U16 => ins.band_imm_u(v, 0xffff),
            Kind::I32 => {
                let n = ins.ireduce(types::I32, v);
                self.b.ins().sextend(types::I64, n)
            }
            Kind::U32 | Kind::F32 => ins.band_imm_u(v, 0xffff_ffff),
            Kind::Bool => {
                let c = ins.icmp_imm_s(IntCC::NotEqual, v, 0);
                self.bool_word(c)
            }
            _ => v,
        }
    }

    // -----------------------------------------------------------------------------------------
    // Expressions.

    pub fn expr(&mut self, e: &Expr) -> R<Value> {
        if let Some((at, v)) = self.known {
            if std::ptr::eq(at, e) {
                return Ok(v);
            }
        }
        let k = self.kind(e.ty);
        let loc = e.loc;
        Ok(match &e.kind {
            ExprKind::Int(v) => {
                let w = if k.is_int() {
                    accsim_core::exec::value::norm(k, *v)
                } else {
                    *v
                };
                self.iconst(w)
            }
            ExprKind::Float(f) => {
                let w = match k {
                    Kind::F32 => (*f as f32).to_bits() as u64,
                    _ => f.to_bits(),
                };
                self.iconst(w)
            }
            ExprKind::Str(s) => self.iconst(self.exe.string_ptr(s.0)),
            ExprKind::Local(l) => match self.inline_args.last() {
                Some(args) => *args.get(&l.0).ok_or("internal: a local of an inlined function")?,
                None => self.local_value(*l, loc)?,
            },
            ExprKind::LocalAddr(l) => {
                if !self.is_memory(*l) {
                    return Err("internal: the address of a register local".into());
                }
                let v = self.var(*l)?;
                self.read_var(v)
            }
            ExprKind::GlobalAddr(g) => self.iconst(Executable::global_ptr(g.0)),
            ExprKind::FuncAddr(f) => self.iconst(ptr_word(FUNC_ID, f.0)),
            ExprKind::ExternAddr(x) => match self.binding(x.0) {
                Some(Binding::Function(_)) => {
                    self.iconst(ptr_word(FUNC_ID, self.p.functions.len() as u32 + x.0))
                }
                Some(Binding::Object(i)) => {
                    self.iconst(ptr_word(self.exe.first_runtime_id() + i, 0))
                }
                _ => return Err("an undefined external".into()),
            },
            ExprKind::Load(a) => {
                if matches!(k, Kind::Aggregate | Kind::Void) {
                    self.expr(a)?
                } else if let Some(&(var, _)) = self.held.get(&(&**a as *const Expr)) {
                    let v = self.b.use_var(var);
                    self.word_of(v)
                } else if let Some(bias) = self.direct.get(&(&**a as *const Expr)).copied() {
                    let host = match self.stream_address(a)? {
                        Some((base, offset)) => self.b.ins().iadd_imm_s(base, i64::from(offset)),
                        None => self.direct_address(a, bias)?,
                    };
                    let zero = self.zero_bias();
                    self.load(k, host, host, Some(zero), loc)?
                } else {
                    let (p, root) = self.address(a)?;
                    self.load(k, p, root, None, loc)?
                }
            }
            ExprKind::Unary(op, a) => {
                let ak = self.kind(a.ty);
                let v = self.expr(a)?;
                match op {
                    UnOp::Not => {
                        let t = self.truthy(ak, v);
                        let z = self.b.ins().bnot(t);
                        let one = self.b.ins().band_imm_u(z, 1);
                        self.bool_word(one)
                    }
                    // Negation flips the sign bit, as the interpreter's does (NaNs included),
                    // and keeps a double in its float register ([`Translator::negate`]); a
                    // constant's is the constant of the other sign.
                    UnOp::Neg => match k {
                        Kind::F32 => match self.const_word(v) {
                            Some(bits) => self.iconst(u64::from(bits as u32 ^ 0x8000_0000)),
                            None => {
                                let f = self.word_as_f32(v);
                                let n = self.negate(f);
                                self.f32_as_word(n)
                            }
                        },
                        Kind::F64 | Kind::LongDouble => match self.const_word(v) {
                            Some(bits) => self.iconst(bits ^ (1 << 63)),
                            None => {
                                let f = self.word_as_f64(v);
                                let n = self.negate(f);
                                self.f64_as_word(n)
                            }
                        },
                        _ => {
                            let n = self.b.ins().ineg(v);
                            self.norm(k, n)
                        }
                    },
                    UnOp::BitNot => {
                        let n = self.b.ins().bnot(v);
                        self.norm(k, n)
                    }
                }
            }
            ExprKind::Binary(op, a, b) => {
                let opk = if op.is_comparison() {
                    self.kind(a.ty)
                } else {
                    k
                };
                let x = self.expr(a)?;
                let y = self.expr(b)?;
                self.binary(*op, opk, x, y, loc)?
            }
            ExprKind::Cast(a) => {
                let from = self.kind(a.ty);
                if from.is_float() && k.is_int() {
                    if let ExprKind::Float(f) = &a.kind {
                        {
                            // gcc folds a constant's conversion, saturating (as the interpreter).
                            let x = if from == Kind::F32 { *f as f32 as f64 } else { *f };
                            let w = accsim_core::exec::value::norm(k, fold_float_to_int(k, x));
                            return Ok(self.iconst(w));
                        }
                    }
                }
                let v = self.expr(a)?;
                self.cast(from, k, v)?
            }
            ExprKind::PtrAdd { ptr, index, elem } => {
                let p = self.expr(ptr)?;
                let i = self.expr(index)?;
                let off = self.scaled(i, *elem, loc)?;
                self.b.ins().iadd(p, off)
            }
            ExprKind::PtrDiff { lhs, rhs, elem } => {
                let a = self.expr(lhs)?;
                let b = self.expr(rhs)?;
                let d = self.b.ins().isub(a, b);
                match self.size(*elem, loc)? {
                    Size::Const(0) => d,
                    Size::Const(size) if size as i64 == -1 => self.b.ins().ineg(d),
                    Size::Const(size) => self.b.ins().sdiv_imm_s(d, size as i64),
                    Size::Dyn(size) => {
                        // (x as i64).wrapping_div(y as i64), x itself when y is 0.
                        let zero = self.b.ins().icmp_imm_s(IntCC::Equal, size, 0);
                        let m1 = self.b.ins().icmp_imm_s(IntCC::Equal, size, -1);
                        let special = self.b.ins().bor(zero, m1);
                        let one = self.iconst(1);
                        let y = self.b.ins().select(special, one, size);
                        let q = self.b.ins().sdiv(d, y);
                        let neg = self.b.ins().ineg(d);
                        let q = self.b.ins().select(m1, neg, q);
                        self.b.ins().select(zero, d, q)
                    }
                }
            }
            ExprKind::Assign { place, value } => {
                if matches!(k, Kind::Aggregate | Kind::LongDouble) {
                    return Err("an assignment of a record or long double".into());
                }
                let v = self.expr(value)?;
                let slot = self.slot(place)?;
                self.write_slot(k, slot, v, loc)?;
                v
            }
            ExprKind::CompoundAssign {
                op,
                place,
                value,
                op_ty,
            } => self.compound(*op, place, value, *op_ty, e.ty, loc)?,
            ExprKind::IncDec { place, delta, post } => {
                self.incdec(place, *delta, *post, e.ty, loc)?
            }
            ExprKind::Cond(c, a, b) if self.select_arm(a) && self.select_arm(b) => {
                // Both arms are a value at hand: no branch (`x < 0 ? -x : x`, `a > b ? a : b`),
                // which a data-dependent condition mispredicts half the time.
                if let Some(v) = self.float_select(c, a, b, k)? {
                    return Ok(v);
                }
                let cv = self.cond(c)?;
                let x = self.expr(a)?;
                let y = self.expr(b)?;
                self.b.ins().select(cv, x, y)
            }
            ExprKind::Cond(c, a, b) => {
                let cv = self.cond(c)?;
                let (tb, fb, join) = (
                    self.b.create_block(),
                    self.b.create_block(),
                    self.b.create_block(),
                );
                let r = self.b.append_block_param(join, types::I64);
                self.b.ins().brif(cv, tb, &[], fb, &[]);
                self.b.switch_to_block(tb);
                let x = self.expr(a)?;
                self.b.ins().jump(join, &[x.into()]);
                self.b.switch_to_block(fb);
                let y = self.expr(b)?;
                self.b.ins().jump(join, &[y.into()]);
                self.b.switch_to_block(join);
                r
            }
            ExprKind::LogicalAnd(a, b) | ExprKind::LogicalOr(a, b) => {
                let and = matches!(e.kind, ExprKind::LogicalAnd(..));
                let av = self.cond(a)?;
                let (rhs, join) = (self.b.create_block(), self.b.create_block());
                let r = self.b.append_block_param(join, types::I64);
                let short = self.iconst(if and { 0 } else { 1 });
                if and {
                    self.b.ins().brif(av, rhs, &[], join, &[short.into()]);
                } else {
                    self.b.ins().brif(av, join, &[short.into()], rhs, &[]);
                }
                self.b.switch_to_block(rhs);
                let bv = self.cond(b)?;
                let w = self.bool_word(bv);
                self.b.ins().jump(join, &[w.into()]);
                self.b.switch_to_block(join);
                r
            }
            ExprKind::Comma(a, b) => {
                self.expr(a)?;
                self.expr(b)?
            }
            ExprKind::Call {
                callee,
                args,
                result,
            } => {
                if result.is_some() || matches!(k, Kind::Aggregate | Kind::LongDouble) {
                    return Err("a call returning a record or a long double".into());
                }
                self.call(callee, args, loc)?
            }
            ExprKind::SizeOfDynamic(_) => return Err("`sizeof` of a variable-length array".into()),
            ExprKind::ComplexBinary { .. }
            | ExprKind::ComplexNeg { .. }
            | ExprKind::ComplexMake { .. }
            | ExprKind::ComplexCompare { .. } => return Err("complex arithmetic".into()),
            // A compound literal (`&(int){12}`, C11 §6.5.2.5: its initialisation, then its
            // value) and a GNU statement expression (its statements, then the value of the
            // last): the statements are translated in place, as the interpreter runs them
            // (the Fortran front-end writes both for constant arguments and reductions). As
            // in the interpreter (`sub_code`), a `break` or `continue` inside them cannot leave
            // them: the loops around the expression are out of reach (an error, so the
            // function stays in the interpreter).
            ExprKind::WithInit { init, value } => {
                self.inner_statements(init)?;
                self.expr(value)?
            }
            ExprKind::StmtExpr { body, value } => {
                self.inner_statements(body)?;
                match value {
                    Some(v) => self.expr(v)?,
                    None => self.iconst(0),
                }
            }
            ExprKind::VaStart(_) | ExprKind::VaArg(_) | ExprKind::VaCopy(..) => {
                return Err("variadic arguments".into())
            }
        })
    }

    /// `place op= value` (exec/compile.rs's `CompoundV`): the value, then the address, the old
    /// value converted to the operation's kind, the operation, the result converted back.
    fn compound(
        &mut self,
        op: BinOp,
        place: &Place,
        value: &Expr,
        op_ty: TypeId,
        place_ty: TypeId,
        loc: Loc,
    ) -> R<Value> {
        let pk = self.kind(place_ty);
        if matches!(pk, Kind::Aggregate | Kind::LongDouble) {
            return Err("a compound assignment of a record or long double".into());
        }
        let y = self.expr(value)?;
        let (y, ok) = if pk == Kind::Ptr {
            let elem = self.p.types.pointee(place_ty).unwrap_or(place_ty);
            let n = self.scaled(y, elem, loc)?;
            let n = if op == BinOp::Sub {
                self.b.ins().ineg(n)
            } else {
                n
            };
            (n, None)
        } else {
            (y, Some(self.kind(op_ty)))
        };
        let slot = self.slot(place)?;
        let old = self.read_slot(pk, slot, loc)?;
        let new = match ok {
            None => self.b.ins().iadd(old, y),
            Some(ok) => {
                let x = self.cast(pk, ok, old)?;
                let r = self.binary(op, ok, x, y, loc)?;
                self.cast(ok, pk, r)?
            }
        };
        self.write_slot(pk, slot, new, loc)?;
        Ok(new)
    }

    /// `++`/`--` (exec/compile.rs's `incdec`).
    fn incdec(&mut self, place: &Place, delta: i8, post: bool, ty: TypeId, loc: Loc) -> R<Value> {
        let k = self.kind(ty);
        let slot = self.slot(place)?;
        let old = self.read_slot(k, slot, loc)?;
        let new = match k {
            Kind::F32 => {
                let f = self.word_as_f32(old);
                let d = self.b.ins().f32const(delta as f32);
                let r = self.b.ins().fadd(f, d);
                self.f32_as_word(r)
            }
            Kind::F64 => {
                let f = self.word_as_f64(old);
                let d = self.b.ins().f64const(delta as f64);
                let r = self.b.ins().fadd(f, d);
                self.f64_as_word(r)
            }
            Kind::Bool => {
                if delta > 0 {
                    self.iconst(1)
                } else {
                    let c = self.b.ins().icmp_imm_s(IntCC::NotEqual, old, 1);
                    self.bool_word(c)
                }
            }
            Kind::Ptr => {
                let elem = self.p.types.pointee(ty).unwrap_or(ty);
                let d = self.iconst(delta as i64 as u64);
                let step = self.scaled(d, elem, loc)?;
                self.b.ins().iadd(old, step)
            }
            Kind::LongDouble | Kind::Aggregate | Kind::Void => {
                return Err("`++`/`--` of a long double".into())
            }
            _ => {
                let r = self.b.ins().iadd_imm_s(old, delta as i64);
                self.norm(k, r)
            }
        };
        self.write_slot(k, slot, new, loc)?;
        Ok(if post { old } else { new })
    }
}

/// gcc's compile-time conversion of a floating constant (exec/compile.rs's `fold_float_to_int`):
/// Rust's saturating `as`, NaN to 0.
fn fold_float_to_int(to: Kind, x: f64) -> u64 {
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
