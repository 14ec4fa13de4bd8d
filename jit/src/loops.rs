//! Counted loops in two versions (issue 15): the bounds of the loop's affine accesses checked
//! once at loop entry, and the loop run without per-access checks and per-iteration fuel when
//! they hold.
//!
//! An innermost loop `for (init; v < B; v++)` (also `<=`, and `>`/`>=` with `v--`; the step may be
//! `v += 1`, `v = v + 1`) whose body calls nothing but the C library's math routines, has no inner
//! loop, no OpenACC statement and never assigns `v`, is translated twice. At entry, after `init`,
//! the *preheader* evaluates `B` once, the trip count, and for every access of the body whose
//! address is an affine function of `v` (sums, differences, products with a loop-invariant factor,
//! integer conversions and pointer additions of `v`, of loop-invariant values — constants,
//! addresses, register locals the body does not assign — and of register locals the body assigns
//! once at its top from such an expression, as the fast shares' `j = lb + i*step`), the address at
//! the first and at the last iteration. When both lie in the allocation of the first (read and/or
//! written as the access is) and every integer step of the address computation is exact at both
//! ends (no wrap-around of an `int`, magnitudes far from 64-bit overflow), the address is the same
//! affine function of `v` at every iteration, so every access of the loop lies between the two and
//! is in bounds: the loop runs its *direct* version, where those accesses read and write in place
//! and the trip count's fuel is taken at entry. Otherwise (and whenever the fuel is not at hand) it
//! runs the checked version, exactly as before: the first faulting access faults at its own
//! iteration with the interpreter's diagnostic. Accesses that are not affine keep their check in
//! both versions.
//!
//! The counter is incremented without re-normalisation in the direct version: it stays between
//! its first value and `B`, which the preheader checks is representable in its type. The direct
//! loop tests at its bottom (one taken branch per iteration). Within it, an element-wise body
//! runs its iterations in lanes first ([`crate::simd`]), and the elements the body reads or
//! writes at a loop-invariant address stay in registers ([`crate::invariant`]); both check at
//! entry, from the accesses' first and last addresses, that no other access of the loop can
//! see the difference.

use crate::{HashMap, HashSet};

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::entity::EntityRef;
use cranelift_codegen::ir::{types, Block, InstBuilder, MemFlagsData, Value};

use accsim_core::diag::Loc;
use accsim_core::exec::libc_shim::Shim;
use accsim_core::exec::value::Kind;
use accsim_core::ir::{BinOp, Callee, Expr, ExprKind, LocalId, Place, Stmt, StmtKind};

use crate::runtime::{OFF_TABLE, OFF_TABLE_LEN, SPAN_READABLE, SPAN_SHIFT, SPAN_WRITABLE};
use crate::translate::{Helper, Size, Translator, R};

/// Largest magnitude of an integer step of an affine address computation at either end of the
/// loop (and of a loop-invariant factor or element size): far enough from 2^63 that no
/// computation between the two ends wraps.
const EXACT_LIMIT: i64 = 1 << 36;
const FACTOR_LIMIT: i64 = 1 << 20;
/// Most fuel of the unrolled loops of one iteration that the direct version takes at entry (times
/// a trip count under [`EXACT_LIMIT`], far from 2^64).
const PREPAID_LIMIT: u64 = 1 << 20;

/// A counted loop the translator runs in two versions.
pub struct CountedLoop<'e> {
    /// The counter and its kind.
    pub(crate) var: LocalId,
    var_kind: Kind,
    /// The kind the condition compares in (the counter's, or `long` for an `int` counter).
    cmp_kind: Kind,
    /// `v++` (`true`) or `v--`.
    pub(crate) up: bool,
    /// `<=` / `>=` rather than `<` / `>`.
    inclusive: bool,
    bound: &'e Expr,
    /// Register locals the body assigns once at its top from an affine expression of `v`.
    pub(crate) derived: HashMap<u32, &'e Expr>,
    /// The scalar accesses of the body whose addresses are affine: address expression, kind,
    /// read, written.
    pub(crate) accesses: Vec<(&'e Expr, Kind, bool, bool)>,
    /// Memory locals the body reads or writes (their addresses are loop-invariant).
    pub(crate) memory_locals: Vec<(LocalId, Kind, bool, bool)>,
    /// Register locals the body assigns.
    pub(crate) assigned: HashSet<u32>,
    /// The fuel of the unrolled loops ([`crate::unroll`]) every iteration runs, and those
    /// loops: the direct version takes it with the trip count's at entry.
    fixed_fuel: u64,
    pub(crate) prepaid: HashSet<*const Stmt>,
    /// Every scalar access of the body is affine (checked at entry: none can fault, and the
    /// bytes each touches over the loop are known there).
    pub(crate) all_direct: bool,
    /// The body may stop the run between two of its stores (an integer division), holds an
    /// `atomic` statement (other threads' accesses meet its own), or leaves an iteration by a
    /// jump: what [`crate::invariant`] needs to know before holding memory in a register.
    pub(crate) may_trap: bool,
    pub(crate) atomic: bool,
    pub(crate) jumps: bool,
}

/// What the affine accesses of a loop are checked against at its entry: the allocation of a
/// pointer ([`Translator::ends_in_span`]), one span-table look-up for all of them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Anchor {
    /// A register local the loop does not assign.
    Register(LocalId),
    /// A global's address.
    Global(u32),
    /// A memory local's address.
    Frame(LocalId),
}

/// The exact values at both ends of a counted loop of address expressions and their parts, by
/// the expression's shape and the counters' values ([`Translator::exact_memo`]).
#[derive(Default)]
pub struct ExactMemo {
    /// The shape id of each expression seen, by its address: every expression keyed at one loop
    /// entry is one of the loop's (its accesses and derived locals), borrowed for all of it, so
    /// an address names one expression while the memo lives.
    ids: HashMap<*const Expr, u32>,
    /// Shape ids, equal exactly when two expressions are written the same way (the same `Debug`
    /// text: kinds, types, locals, constants, locations; but for the location of a node whose
    /// code does not depend on it, [`Translator::located`]). Built from the parts' ids, so an
    /// expression is described once, not again as a part of each larger one (keyed by its text
    /// at every level, blur's translation took 23.6 M instructions; by shape, 13.4 M).
    shapes: HashMap<Shape, u32>,
    values: HashMap<MemoKey, (Value, Value)>,
}

/// A memoised exact value's key ([`ExactMemo`]): the shape id, the counters' values (none for a
/// part that reads no counter), whether its tests were made, and the box whose corner it was
/// computed for ([`Translator::exact_box`], 0 for none).
type MemoKey = (u32, Vec<Value>, bool, u32);

/// An expression's shape ([`ExactMemo`]): the nodes an exact value is computed through
/// (conversions, arithmetic, pointer steps, locals, integer constants) by their own fields and
/// their parts' ids (the location `None` where the node's code does not depend on it); any
/// other by its text.
#[derive(PartialEq, Eq, Hash)]
enum Shape {
    Text(String),
    Node { tag: u8, op: u8, ty: accsim_core::ir::TypeId, elem: accsim_core::ir::TypeId, loc: Option<Loc>, parts: [u64; 2] },
}

impl ExactMemo {
    /// The shape id of `e`; `located` says whether a node's code depends on its location.
    fn id(&mut self, e: &Expr, located: &dyn Fn(&Expr) -> bool) -> u32 {
        if let Some(&id) = self.ids.get(&(e as *const Expr)) {
            return id;
        }
        let ty = e.ty;
        let loc = located(e).then_some(e.loc);
        let node = |tag: u8, op: u8, elem, parts: [u64; 2]| Shape::Node { tag, op, ty, elem, loc, parts };
        let shape = match &e.kind {
            ExprKind::Cast(a) => node(0, 0, ty, [self.id(a, located).into(), 0]),
            ExprKind::Binary(op, a, b) => node(1, *op as u8, ty, [self.id(a, located).into(), self.id(b, located).into()]),
            ExprKind::PtrAdd { ptr, index, elem } => node(2, 0, *elem, [self.id(ptr, located).into(), self.id(index, located).into()]),
            ExprKind::Local(l) => node(3, 0, ty, [l.0.into(), 0]),
            ExprKind::Int(v) => node(4, 0, ty, [*v, 0]),
            _ => Shape::Text(format!("{e:?}")),
        };
        let next = self.shapes.len() as u32;
        let id = *self.shapes.entry(shape).or_insert(next);
        self.ids.insert(e as *const Expr, id);
        id
    }
}

/// A loop's counter ([`Translator::loop_counter`]).
#[derive(Clone, Copy)]
pub(crate) struct Counter<'e> {
    pub(crate) var: LocalId,
    pub(crate) var_kind: Kind,
    /// The kind the condition compares in (the counter's, or `long` for an `int` counter).
    pub(crate) cmp_kind: Kind,
    pub(crate) up: bool,
    pub(crate) inclusive: bool,
    pub(crate) bound: &'e Expr,
}

impl<'e> CountedLoop<'e> {
    /// The outer loop of a nest as [`crate::simd`]'s classification of a body sees it
    /// ([`crate::outer`]): every access of the nest checked at entry, the inner loop's counter
    /// the same in every lane (left out of `assigned`).
    pub(crate) fn lanes_view(counter: Counter<'e>, derived: HashMap<u32, &'e Expr>, accesses: Vec<(&'e Expr, Kind, bool, bool)>, assigned: HashSet<u32>) -> Self {
        CountedLoop {
            var: counter.var,
            var_kind: counter.var_kind,
            cmp_kind: counter.cmp_kind,
            up: counter.up,
            inclusive: counter.inclusive,
            bound: counter.bound,
            derived,
            accesses,
            memory_locals: Vec::new(),
            assigned,
            fixed_fuel: 0,
            prepaid: HashSet::default(),
            all_direct: true,
            may_trap: false,
            atomic: false,
            jumps: false,
        }
    }

    pub(crate) fn counter(&self) -> Counter<'e> {
        Counter { var: self.var, var_kind: self.var_kind, cmp_kind: self.cmp_kind, up: self.up, inclusive: self.inclusive, bound: self.bound }
    }
}

/// What the body of a loop assigns and reads, gathered in one walk.
#[derive(Default)]
struct Walk<'e> {
    assigned: HashSet<u32>,
    /// Times each register local is assigned.
    assign_count: HashMap<u32, usize>,
    /// Address expressions of scalar accesses: (address, kind, read, written).
    accesses: Vec<(&'e Expr, Kind, bool, bool)>,
    memory_locals: Vec<(LocalId, Kind, bool, bool)>,
    /// Something that rules the loop out (a call, an inner loop, …).
    refused: bool,
    /// How many conditions surround the statement walked.
    conditional: usize,
    /// The body holds a `break`, `continue` or `return` (an iteration may skip part of it).
    jumps: bool,
    /// The fuel of the unrolled loops that no condition surrounds, and those loops.
    fixed_fuel: u64,
    prepaid: HashSet<*const Stmt>,
    /// An integer division or remainder (which traps on 0).
    divides: bool,
    /// An `atomic` statement run as native code.
    atomic: bool,
}

/// The span-table entry of one allocation, read at a loop's entry: whether its id is in the
/// table, the entry's address, the allocation's first pointer word, and the bias from pointer
/// word to host address.
#[derive(Clone, Copy)]
pub(crate) struct Span {
    in_table: Value,
    entry: Value,
    start: Value,
    bias: Value,
}

/// The spans looked up at one loop entry, by anchor pointer word
/// ([`Translator::ends_in_span`]), their readable (0) and writable (1) limits, and for each
/// anchor, limit and access size the largest offset from the span's start of the accesses'
/// ends so far (in the order first met, so that the code is the same in every run): every end
/// is in bounds exactly when the largest is ([`Translator::spans_in_bounds`]).
#[derive(Default)]
pub(crate) struct Spans(HashMap<Value, Span>, HashMap<(Value, usize), Value>, Vec<((Value, usize, u64), Value)>);

impl Spans {
    pub(crate) fn new() -> Spans {
        Spans::default()
    }

    /// Whether the span of pointer word `anchor` was looked up already.
    pub(crate) fn has(&self, anchor: Value) -> bool {
        self.0.contains_key(&anchor)
    }

    /// The bias of the span of `anchor`, when it was looked up.
    pub(crate) fn bias(&self, anchor: Value) -> Option<Value> {
        self.0.get(&anchor).map(|s| s.bias)
    }
}

impl<'a, 'b> Translator<'a, 'b> {
    /// The plan of a `for` loop in two versions, when it is one (see the module docs).
    pub fn counted_loop<'e>(&self, cond: Option<&'e Expr>, step: Option<&'e Expr>, body: &'e Stmt) -> Option<CountedLoop<'e>>
    where
        'a: 'e,
    {
        let Counter { var, var_kind, cmp_kind, up, inclusive, bound: rhs } = self.loop_counter(cond, step)?;
        let mut w = Walk::default();
        self.walk_stmt(body, &mut w);
        if w.refused || w.assigned.contains(&var.0) {
            return None;
        }
        if !self.invariant(rhs, &w.assigned, var, true) {
            return None;
        }
        // Locals assigned once at the top of the body from an affine expression of the counter.
        let mut derived = HashMap::default();
        let top: &[Stmt] = match &body.kind {
            StmtKind::Block(ss) => ss,
            _ => std::slice::from_ref(body),
        };
        for s in top {
            let StmtKind::Expr(e) = &s.kind else { break };
            let ExprKind::Assign { place: Place::Local(d), value } = &e.kind else { break };
            let d_kind = self.kind_of(e.ty);
            if self.in_memory.get(d.0 as usize).copied().unwrap_or(true)
                || w.assign_count.get(&d.0) != Some(&1)
                || !matches!(d_kind, Kind::I32 | Kind::I64 | Kind::U32 | Kind::U64)
            {
                break;
            }
            let mut with = derived.clone();
            with.insert(d.0, &**value);
            if !self.affine(value, var, &w.assigned, &derived) {
                break;
            }
            derived = with;
        }
        let scalar_accesses = w.accesses.len();
        let accesses: Vec<_> = w
            .accesses
            .into_iter()
            .filter(|(a, ..)| self.affine(a, var, &w.assigned, &derived))
            .collect();
        let all_direct = accesses.len() == scalar_accesses;
        if accesses.is_empty() && w.memory_locals.is_empty() {
            // Nothing to check once: the direct version would only save fuel and the
            // re-normalisation of the counter, which the checked version pays.
            return None;
        }
        Some(CountedLoop {
            var,
            var_kind,
            cmp_kind,
            up,
            inclusive,
            bound: rhs,
            derived,
            accesses,
            memory_locals: w.memory_locals,
            assigned: w.assigned,
            fixed_fuel: if w.jumps || w.fixed_fuel >= PREPAID_LIMIT { 0 } else { w.fixed_fuel },
            prepaid: if w.jumps || w.fixed_fuel >= PREPAID_LIMIT { HashSet::default() } else { w.prepaid },
            all_direct,
            may_trap: w.divides,
            atomic: w.atomic,
            jumps: w.jumps,
        })
    }

    /// The counter of `for (…; cond; step)`: `v < B` (`<=`, `>`, `>=`) on a register local of a
    /// 32- or 64-bit integer kind (an `int` compared as `long` too), stepped by one towards `B`.
    pub(crate) fn loop_counter<'e>(&self, cond: Option<&'e Expr>, step: Option<&'e Expr>) -> Option<Counter<'e>> {
        let cond = cond?;
        let step = step?;
        let ExprKind::Binary(op, lhs, rhs) = &cond.kind else { return None };
        let cmp_kind = self.kind_of(lhs.ty);
        let (var, var_kind) = match &lhs.kind {
            ExprKind::Local(v) => (*v, cmp_kind),
            ExprKind::Cast(inner) => match inner.kind {
                ExprKind::Local(v) if self.kind_of(inner.ty) == Kind::I32 && cmp_kind == Kind::I64 => (v, Kind::I32),
                _ => return None,
            },
            _ => return None,
        };
        if !matches!((var_kind, cmp_kind), (Kind::I32, Kind::I32 | Kind::I64) | (Kind::I64, Kind::I64) | (Kind::U32, Kind::U32) | (Kind::U64, Kind::U64)) {
            return None;
        }
        if self.in_memory.get(var.0 as usize).copied().unwrap_or(true) {
            return None;
        }
        let (up, inclusive) = match op {
            BinOp::Lt => (true, false),
            BinOp::Le => (true, true),
            BinOp::Gt => (false, false),
            BinOp::Ge => (false, true),
            _ => return None,
        };
        if self.step_delta(step, var, var_kind)? != if up { 1 } else { -1 } {
            return None;
        }
        Some(Counter { var, var_kind, cmp_kind, up, inclusive, bound: rhs })
    }

    pub(crate) fn kind_of(&self, ty: accsim_core::ir::TypeId) -> Kind {
        Kind::of(&self.p.types, ty)
    }

    /// The constant step of `step` on `var` (`v++`, `v--`, `v += 1`, `v = v + 1`, …).
    fn step_delta(&self, step: &Expr, var: LocalId, var_kind: Kind) -> Option<i64> {
        let constant = |e: &Expr| match e.strip_casts().kind {
            ExprKind::Int(c) => Some(c as i64),
            _ => None,
        };
        match &step.kind {
            ExprKind::IncDec { place: Place::Local(v), delta, .. } if *v == var => Some(*delta as i64),
            ExprKind::CompoundAssign { op, place: Place::Local(v), value, op_ty } if *v == var && self.kind_of(*op_ty) == var_kind => {
                let c = constant(value)?;
                match op {
                    BinOp::Add => Some(c),
                    BinOp::Sub => Some(-c),
                    _ => None,
                }
            }
            ExprKind::Assign { place: Place::Local(v), value } if *v == var => {
                let ExprKind::Binary(op, a, b) = &value.kind else { return None };
                if self.kind_of(value.ty) != var_kind || !matches!(a.kind, ExprKind::Local(x) if x == var) {
                    return None;
                }
                let c = constant(b)?;
                match op {
                    BinOp::Add => Some(c),
                    BinOp::Sub => Some(-c),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    fn walk_stmt<'e>(&self, s: &'e Stmt, w: &mut Walk<'e>)
    where
        'a: 'e,
    {
        let table: &'a crate::unroll::UnrollTable = self.unrolled;
        match &s.kind {
            // A loop unrolled ([`crate::unroll`]): its copies (the loop as it is, run when the
            // fuel is short, assigns the same locals and makes the same accesses).
            StmtKind::For { .. } if table.contains_key(&(s as *const Stmt)) => {
                if let Some(u) = table.get(&(s as *const Stmt)) {
                    if w.conditional == 0 {
                        w.fixed_fuel = w.fixed_fuel.saturating_add(u.fuel);
                        w.prepaid.insert(s as *const Stmt);
                    }
                    self.walk_stmt(&u.block, w)
                }
            }
            StmtKind::Empty => {}
            StmtKind::Break | StmtKind::Continue => w.jumps = true,
            StmtKind::Expr(e) => self.walk_expr(e, w),
            StmtKind::Block(ss) => ss.iter().for_each(|s| self.walk_stmt(s, w)),
            StmtKind::If(c, t, e) => {
                self.walk_expr(c, w);
                w.conditional += 1;
                self.walk_stmt(t, w);
                if let Some(e) = e {
                    self.walk_stmt(e, w);
                }
                w.conditional -= 1;
            }
            StmtKind::Return(v) => {
                w.jumps = true;
                if let Some(v) = v {
                    self.walk_expr(v, w);
                }
            }
            StmtKind::Acc { body: Some(b), .. } if self.is_kernel && self.is_atomic(s) && self.atomic_in_native(b) => {
                w.atomic |= !self.atomic_on_registers(b);
                self.walk_stmt(b, w)
            }
            _ => w.refused = true,
        }
    }

    /// The scalar accesses (address, kind, read, written) and the register locals assigned by
    /// the statements `ss`, with how many times each is assigned, when they are straight-line
    /// code that calls nothing but math routines, holds no loop, jump, memory local, integer
    /// division or `atomic` ([`crate::outer`]'s statements around its inner loop).
    #[allow(clippy::type_complexity)]
    pub(crate) fn straight_walk<'e>(&self, ss: &[&'e Stmt]) -> Option<(Vec<(&'e Expr, Kind, bool, bool)>, HashMap<u32, usize>)>
    where
        'a: 'e,
    {
        let mut w = Walk::default();
        for s in ss {
            self.walk_stmt(s, &mut w);
        }
        let refused = w.refused || w.jumps || w.divides || w.atomic || !w.memory_locals.is_empty() || !w.prepaid.is_empty();
        (!refused).then_some((w.accesses, w.assign_count))
    }

    /// Whether `s` is an `atomic` construct.
    fn is_atomic(&self, s: &Stmt) -> bool {
        use accsim_core::ir::acc::AccKind;
        let StmtKind::Acc { directive, .. } = &s.kind else { return false };
        matches!(self.p.acc.get(directive.0 as usize).and_then(Option::as_ref).map(|d| &d.kind), Some(AccKind::Atomic(_)))
    }

    /// Whether the body `b` of an `atomic` construct runs as native code: expression statements
    /// that call nothing but math routines (so that no other atomic runs while its lock is held,
    /// and nothing leaves the statement but a trap).
    pub fn atomic_in_native(&self, b: &Stmt) -> bool {
        self.native_atomic_walk(b).is_some()
    }

    /// Whether the body `b` of an `atomic` construct that runs as native code reads and writes
    /// nothing but register locals of this invocation: the combination of a `vector` or
    /// `worker` loop's reduction partial into its gang-private variable (`s = s + partial`,
    /// the variable a memory local kept in a register, [`crate::promote`]). No other device
    /// thread can reach those locals, so no other atomic can come between the statement's read
    /// and its write (§2.12): it runs as the plain statement, without the run's atomic lock,
    /// whose calls would leave no float register alive across them (the loop's accumulator
    /// spilled to the stack in every iteration).
    pub fn atomic_on_registers(&self, b: &Stmt) -> bool {
        self.native_atomic_walk(b).is_some_and(|w| !w.atomic && w.accesses.is_empty() && w.memory_locals.is_empty())
    }

    /// The walk of the body `b` of an `atomic` construct when it runs as native code
    /// ([`Translator::atomic_in_native`]).
    fn native_atomic_walk<'e>(&self, b: &'e Stmt) -> Option<Walk<'e>>
    where
        'a: 'e,
    {
        fn plain(s: &Stmt) -> bool {
            match &s.kind {
                StmtKind::Expr(_) | StmtKind::Empty => true,
                StmtKind::Block(ss) => ss.iter().all(plain),
                _ => false,
            }
        }
        let mut w = Walk::default();
        self.walk_stmt(b, &mut w);
        (plain(b) && !w.refused).then_some(w)
    }

    fn walk_place<'e>(&self, place: &'e Place, k: Kind, read: bool, w: &mut Walk<'e>) {
        match place {
            Place::Local(l) if self.is_memory_local(*l) => w.memory_locals.push((*l, k, read, true)),
            Place::Local(l) => {
                w.assigned.insert(l.0);
                *w.assign_count.entry(l.0).or_insert(0) += 1;
            }
            Place::Mem(a) => {
                self.walk_address(a, w);
                w.accesses.push((a, k, read, true));
            }
        }
    }

    /// The operands of an address expression (what [`Translator::address`] evaluates).
    fn walk_address<'e>(&self, a: &'e Expr, w: &mut Walk<'e>) {
        self.walk_expr(a, w)
    }

    fn walk_expr<'e>(&self, e: &'e Expr, w: &mut Walk<'e>) {
        let k = self.kind_of(e.ty);
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Str(_) | ExprKind::LocalAddr(_) | ExprKind::GlobalAddr(_) | ExprKind::FuncAddr(_) | ExprKind::ExternAddr(_) => {}
            ExprKind::Local(l) => {
                if self.is_memory_local(*l) && !matches!(k, Kind::Aggregate | Kind::Void) {
                    w.memory_locals.push((*l, k, true, false));
                }
            }
            ExprKind::Load(a) => {
                self.walk_expr(a, w);
                if !matches!(k, Kind::Aggregate | Kind::Void) {
                    w.accesses.push((a, k, true, false));
                }
            }
            ExprKind::Unary(_, a) | ExprKind::Cast(a) => self.walk_expr(a, w),
            ExprKind::Binary(_, a, b) | ExprKind::LogicalAnd(a, b) | ExprKind::LogicalOr(a, b) | ExprKind::Comma(a, b) => {
                if matches!(e.kind, ExprKind::Binary(BinOp::Div | BinOp::Rem, ..)) && !k.is_float() {
                    w.divides = true;
                }
                self.walk_expr(a, w);
                self.walk_expr(b, w);
            }
            ExprKind::PtrAdd { ptr, index, .. } => {
                self.walk_expr(ptr, w);
                self.walk_expr(index, w);
            }
            ExprKind::PtrDiff { lhs, rhs, .. } => {
                self.walk_expr(lhs, w);
                self.walk_expr(rhs, w);
            }
            ExprKind::Assign { place, value } => {
                self.walk_expr(value, w);
                self.walk_place(place, k, false, w);
            }
            ExprKind::CompoundAssign { op, place, value, op_ty } => {
                if matches!(op, BinOp::Div | BinOp::Rem) && !self.kind_of(*op_ty).is_float() {
                    w.divides = true;
                }
                self.walk_expr(value, w);
                self.walk_place(place, k, true, w);
            }
            ExprKind::IncDec { place, .. } => self.walk_place(place, k, true, w),
            ExprKind::Cond(c, a, b) => {
                self.walk_expr(c, w);
                self.walk_expr(a, w);
                self.walk_expr(b, w);
            }
            ExprKind::Call { callee: Callee::Extern(x), args, result: None } if self.is_math(x.0) => {
                args.iter().for_each(|a| self.walk_expr(a, w));
            }
            // A call translated inline reads and writes nothing but its arguments.
            ExprKind::Call { callee: Callee::Direct(f), args, result: None } if self.inlinable(f.0, 0).is_some() => {
                args.iter().for_each(|a| self.walk_expr(a, w));
            }
            _ => w.refused = true,
        }
    }

    /// Whether extern `x` is a math routine of the shim (a pure function native code calls
    /// directly, which neither allocates nor frees).
    pub(crate) fn is_math(&self, x: u32) -> bool {
        let shim = self.p.externs.get(x as usize).map(|e| accsim_core::exec::libc_shim::bind(&e.name, &self.p.types, e.ty)).and_then(|b| b.shim());
        matches!(shim, Some(Shim::Math1(_) | Shim::Math2(_) | Shim::Math1F(_) | Shim::Math2F(_)))
    }

    pub(crate) fn is_memory_local(&self, l: LocalId) -> bool {
        self.in_memory.get(l.0 as usize).copied().unwrap_or(false)
    }

    /// Whether `e` has the same value at every iteration and can be evaluated at loop entry:
    /// no access of memory, no side effect, no counter, no local the body assigns; with
    /// `may_trap`, integer divisions too (the loop bound, evaluated where the loop's first test
    /// would evaluate it).
    pub(crate) fn invariant(&self, e: &Expr, assigned: &HashSet<u32>, var: LocalId, may_trap: bool) -> bool {
        let k = self.kind_of(e.ty);
        let inv = |x: &Expr| self.invariant(x, assigned, var, may_trap);
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Str(_) | ExprKind::GlobalAddr(_) | ExprKind::FuncAddr(_) => true,
            ExprKind::LocalAddr(l) => self.is_memory_local(*l),
            ExprKind::Local(l) => *l != var && !self.is_memory_local(*l) && !assigned.contains(&l.0),
            ExprKind::Cast(a) => {
                let from = self.kind_of(a.ty);
                (from.is_int() || from == Kind::Ptr) && (k.is_int() || k == Kind::Ptr) && inv(a)
            }
            ExprKind::Binary(op, a, b) => {
                let ok_op = match op {
                    BinOp::Add | BinOp::Sub | BinOp::Mul => true,
                    BinOp::Div | BinOp::Rem => may_trap,
                    _ => false,
                };
                ok_op && (k.is_int() || k == Kind::Ptr) && inv(a) && inv(b)
            }
            ExprKind::PtrAdd { ptr, index, elem } => self.size_invariant(*elem, assigned, var) && inv(ptr) && inv(index),
            _ => false,
        }
    }

    /// Whether the size of `ty` is the same at every iteration: a constant, or a
    /// variable-length array's whose count locals are registers the body does not assign.
    fn size_invariant(&self, ty: accsim_core::ir::TypeId, assigned: &HashSet<u32>, var: LocalId) -> bool {
        use accsim_core::ir::Type;
        match self.p.types.get(ty) {
            Type::Vla(elem, count) => {
                *count != var && !self.is_memory_local(*count) && !assigned.contains(&count.0) && self.size_invariant(*elem, assigned, var)
            }
            Type::Array(elem, _) => self.size_invariant(*elem, assigned, var),
            _ => self.p.types.size_of(ty).is_some(),
        }
    }

    /// Whether the size of `ty` is only known at run time.
    fn dynamic(&self, ty: accsim_core::ir::TypeId) -> bool {
        use accsim_core::ir::Type;
        match self.p.types.get(ty) {
            Type::Vla(..) => true,
            Type::Array(elem, _) => self.dynamic(*elem),
            _ => false,
        }
    }

    /// Whether `e` is an affine function of the counter the preheader can evaluate exactly at
    /// the loop's two ends (see the module docs), or loop-invariant.
    pub(crate) fn affine(&self, e: &Expr, var: LocalId, assigned: &HashSet<u32>, derived: &HashMap<u32, &Expr>) -> bool {
        if self.invariant(e, assigned, var, false) {
            return true;
        }
        let k = self.kind_of(e.ty);
        let int_kind = matches!(k, Kind::I32 | Kind::U32 | Kind::I64 | Kind::U64);
        let aff = |x: &Expr| self.affine(x, var, assigned, derived);
        match &e.kind {
            ExprKind::Local(l) => *l == var || derived.get(&l.0).is_some_and(|d| aff(d)),
            ExprKind::Cast(a) => int_kind && matches!(self.kind_of(a.ty), Kind::I32 | Kind::U32 | Kind::I64 | Kind::U64) && aff(a),
            ExprKind::Binary(BinOp::Add | BinOp::Sub, a, b) => int_kind && aff(a) && aff(b),
            ExprKind::Binary(BinOp::Mul, a, b) => {
                int_kind
                    && ((aff(a) && self.invariant(b, assigned, var, false)) || (self.invariant(a, assigned, var, false) && aff(b)))
            }
            ExprKind::PtrAdd { ptr, index, elem } => {
                let size_ok = if self.dynamic(*elem) {
                    // A variable-length row: a loop-invariant factor, checked small at entry.
                    self.size_invariant(*elem, assigned, var)
                } else {
                    self.p.types.size_of(*elem).is_some_and(|s| (s as i64) < FACTOR_LIMIT)
                };
                size_ok && aff(ptr) && aff(index)
            }
            _ => false,
        }
    }

    // -----------------------------------------------------------------------------------------
    // Emission.

    /// Translate `for` statement `s` (`for (…; cond; step) body`, its `init` already
    /// translated) in two versions: see the module docs.
    pub fn versioned_for(&mut self, plan: CountedLoop<'_>, s: &Stmt, body: &Stmt) -> R<()> {
        let exit = self.b.create_block();
        let checked = self.b.create_block();
        let direct_head = self.b.create_block();
        // The counter's first value, as a word of the comparison's kind (an `int`'s canonical
        // word is its `long` value).
        let v0 = self.b.use_var(self.vars[plan.var.0 as usize]);
        let bound = self.expr(plan.bound)?;
        let (mut ok, last, trip, runs_cc) = self.trip_checks(&plan.counter(), v0, bound);

        // The accesses at both ends.
        let mut direct = HashMap::default();
        let mut direct_locals = HashMap::default();
        let accesses = plan.accesses.clone();
        let mut access_ends = Vec::with_capacity(accesses.len());
        let mut spans = Spans::new();
        self.exact_memo = Some(ExactMemo::default());
        let bases: Vec<Option<(Anchor, &Expr)>> = accesses.iter().map(|&(addr, ..)| self.base_anchor(addr, &plan)).collect();
        let anchors: Vec<Option<Anchor>> = bases.iter().map(|b| b.map(|(a, _)| a)).collect();
        let mut anchor_values: HashMap<Anchor, Value> = HashMap::default();
        // The accesses whose tests those of others imply ([`crate::apart`]): their ends are
        // computed after the others', untested.
        let crate::apart::Implied { implied, through } = crate::apart::implied_accesses(self, &accesses, plan.var, &plan.derived, &anchors);
        let mut ends_of: Vec<Option<(Value, Value)>> = vec![None; accesses.len()];
        for pass in [false, true] {
            for (i, &(addr, k, read, write)) in accesses.iter().enumerate() {
                if implied[i] != pass {
                    continue;
                }
                // An address that does not move has one value, computed once (the weights of an
                // unrolled window were 25 such addresses, each computed and bounded twice).
                let moves = self.depends(addr, plan.var, &plan.derived);
                let mut ends = Vec::with_capacity(2);
                // A box's corner also bounds the exact values of its leaves' parts that read no
                // counter ([`crate::apart`]).
                (self.exact_through, self.exact_box) = through[i].clone();
                for at in if moves { vec![v0, last] } else { vec![v0] } {
                    let (p, fits) = self.exact_at_checked(addr, &[(plan.var, at)], &plan.derived, !pass)?;
                    ok = self.both(ok, fits);
                    ends.push(p);
                }
                (self.exact_through, self.exact_box) = (Vec::new(), 0);
                if !moves {
                    ends.push(ends[0]);
                }
                // Checked against the allocation of the pointer the address is based on, when
                // that is a register local the loop does not assign or an array's address (one
                // look-up of the span table and one bias for all of its accesses: a 5 × 5
                // window over `img` was 25 of each).
                let anchor = match bases[i] {
                    Some((Anchor::Register(l), _)) => self.b.use_var(self.vars[l.0 as usize]),
                    Some((a, base)) => match anchor_values.get(&a) {
                        Some(&v) => v,
                        None => {
                            let v = self.expr(base)?;
                            anchor_values.insert(a, v);
                            v
                        }
                    },
                    None => ends[0],
                };
                let looked_up = spans.has(anchor);
                let bias = if pass {
                    // An implied access: its group's extremes looked its anchor up.
                    spans.bias(anchor).ok_or("internal: an implied access without its group's span")?
                } else {
                    let (in_table, bias) = self.ends_in_span(&mut spans, anchor, ends[0], ends[1], k.bytes(), read, write);
                    if !looked_up {
                        ok = self.both(ok, in_table);
                    }
                    bias
                };
                direct.insert(addr as *const Expr, bias);
                ends_of[i] = Some((ends[0], ends[1]));
            }
        }
        for e in ends_of {
            access_ends.push(e.ok_or("internal: an access without its ends")?);
        }
        self.exact_memo = None;
        let in_bounds = self.spans_in_bounds(&spans);
        ok = self.both(ok, in_bounds);
        for (l, k, read, write) in plan.memory_locals.clone() {
            let a = self.b.use_var(self.vars[l.0 as usize]);
            let (in_bounds, bias) = self.ends_in_place(a, a, k.bytes(), read, write);
            ok = self.b.ins().band(ok, in_bounds);
            direct_locals.insert(l.0, bias);
        }

        // The values at entry of the variables the body does not assign (the counter aside).
        let mut frozen = HashMap::default();
        for (i, &var) in self.vars.clone().iter().enumerate() {
            if i as u32 != plan.var.0 && !plan.assigned.contains(&(i as u32)) {
                frozen.insert(var.index(), self.read_var(var));
            }
        }
        for var in [self.table, self.table_len] {
            frozen.insert(var.index(), self.read_var(var));
        }

        // Loop-invariant elements held in registers ([`crate::invariant`]), when no other access
        // of the loop touches their bytes (tested below).
        let groups = self.invariant_groups(&plan);

        // The trip count's fuel at hand (taken from the pool when it is not), with that of the
        // unrolled loops each iteration runs. When the body calls nothing but functions
        // translated inline and math routines, the fuel of those calls is at hand too (and the
        // call depth far from its limit): each then only counts its unit
        // ([`Translator::inline_call`]), as in the copies of an unrolled loop.
        // A window's lanes run its last iterations too ([`Translator::lanes_run_the_rest`]): their
        // checks are the loop's (failing, the checked version runs), and it has no scalar
        // direct version.
        let vector = self.vector_plan(&plan, body);
        let moving: Vec<bool> = accesses.iter().map(|&(addr, ..)| self.depends(addr, plan.var, &plan.derived)).collect();
        let to_the_end = vector.as_ref().filter(|vp| self.lanes_run_the_rest(&plan, vp, &moving));
        if let Some(vp) = to_the_end {
            let lanes_ok = self.lane_checks(
                crate::simd::LaneLoop { plan: &plan, vp, body, ends: &access_ends, v0, bound, runs_cc, direct_head, direct: &direct, frozen: &frozen, moving: &moving },
                trip,
            )?;
            ok = self.b.ins().band(ok, lanes_ok);
        }
        // The held elements' bytes apart from every store's. Where the lanes run every
        // iteration, their checks test each store's bytes apart from every other access's
        // (the held elements' too: none of them is stored, as every store moves), so the test
        // would be true wherever it is made (blur's kernel: its 8 held weights, each against
        // the row's store, 40 of its optimised instructions; issue 15's compile time).
        if !groups.is_empty() && to_the_end.is_none() {
            let apart = self.groups_apart(&plan, &groups, &access_ends);
            ok = self.b.ins().band(ok, apart);
        }

        let calls = if self.inline_fuel_at_hand { None } else { self.inline_call_units(body).filter(|&n| n > 0 && n < PREPAID_LIMIT) };
        let units = plan.fixed_fuel + calls.unwrap_or(0);
        let trip_fuel = if units > 0 { self.b.ins().imul_imm_s(trip, (units + 1) as i64) } else { trip };
        if calls.is_some() {
            let far = self.b.ins().bxor_imm_s(self.near_depth_limit, 1);
            ok = self.b.ins().band(ok, far);
        }
        self.take_fuel(ok, trip_fuel, checked)?;
        if let Some(n) = calls {
            // Taken only as the calls run.
            let kept = self.b.ins().imul_imm_s(trip, n as i64);
            let fuel = self.b.use_var(self.fuel);
            let fuel = self.b.ins().iadd(fuel, kept);
            self.b.def_var(self.fuel, fuel);
        }

        // The direct version: the counter is a parameter of the loop head, the variables the
        // body does not assign are read as their values at entry. Its iterations run in
        // lanes first when the loop has a vector plan ([`crate::simd`]).
        if let Some(vp) = to_the_end {
            let (held, back) = self.hold_groups(&plan, &groups, &access_ends, &direct)?;
            if !back.is_empty() {
                return Err("internal: lanes to the end with elements held to store".into());
            }
            let outer_held = std::mem::replace(&mut self.held, held);
            let r = self.lanes_to_the_end(
                crate::simd::LaneLoop { plan: &plan, vp, body, ends: &access_ends, v0, bound, runs_cc, direct_head, direct: &direct, frozen: &frozen, moving: &moving },
                last,
                exit,
            );
            self.held = outer_held;
            r?;
            self.b.switch_to_block(checked);
            self.checked_version(s, exit)?;
            self.b.switch_to_block(exit);
            return Ok(());
        }
        let counter = self.b.append_block_param(direct_head, types::I64);
        // The accesses that move with the counter as streams ([`crate::streams`]), also where
        // lanes run first: their checks may fail, and the scalar loop then runs every iteration
        // (leaving those loops out lost syrk's gain, 18% of its instructions).
        let scalar_streams = self.streams(&plan, &access_ends, &direct, v0, &moving, false)?;
        let (held, back) = self.hold_groups(&plan, &groups, &access_ends, &direct)?;
        let outer_held = std::mem::replace(&mut self.held, held);
        match vector {
            Some(vp) => self.vector_version(crate::simd::LaneLoop {
                plan: &plan,
                vp: &vp,
                body,
                ends: &access_ends,
                v0,
                bound,
                runs_cc,
                direct_head,
                direct: &direct,
                frozen: &frozen,
                moving: &moving,
            })?,
            None => {
                self.b.ins().jump(direct_head, &[v0.into()]);
            }
        }
        self.b.switch_to_block(direct_head);
        let var = self.vars[plan.var.0 as usize];
        self.b.def_var(var, counter);
        // The loop tests at its bottom (one taken branch per iteration): the head runs the
        // first test, the latch the others.
        let again = self.b.ins().icmp(runs_cc, counter, bound);
        let (direct_body, direct_latch) = (self.b.create_block(), self.b.create_block());
        let at = self.b.append_block_param(direct_body, types::I64);
        // Where the loop's test fails: the held elements the loop writes stored first. A block
        // of its own even when there are none, so that the values the loop's exit passes to
        // `exit` (the fuel left after the trip's, `fuel - trip`) are computed there, once:
        // Cranelift computes a constant's sum where it is used, which on an edge straight
        // from the latch to `exit` was the latch, on every iteration (gesummv's inner loop,
        // where the allocator's luck then decided whether the fuel lived in a register or on
        // the stack; issue 15).
        let done = self.b.create_block();
        self.b.ins().brif(again, direct_body, &[counter.into()], done, &[]);
        self.b.switch_to_block(direct_body);
        self.b.def_var(var, at);
        let saved = (
            std::mem::replace(&mut self.direct, direct),
            std::mem::replace(&mut self.direct_locals, direct_locals),
            std::mem::replace(&mut self.frozen, frozen),
            std::mem::replace(&mut self.prepaid, plan.prepaid.clone()),
        );
        self.frozen.insert(var.index(), at);
        let outer_streams = std::mem::replace(&mut self.lane_streams, scalar_streams);
        let outer_at = self.lane_at.replace((at, 0));
        self.loops.push((direct_latch, exit));
        let outer_at_hand = self.inline_fuel_at_hand;
        self.inline_fuel_at_hand = outer_at_hand || calls.is_some();
        let r = self.stmt(body);
        self.inline_fuel_at_hand = outer_at_hand;
        self.lane_streams = outer_streams;
        self.lane_at = outer_at;
        self.loops.pop();
        (self.direct, self.direct_locals, self.frozen, self.prepaid) = saved;
        self.held = outer_held;
        r?;
        self.b.ins().jump(direct_latch, &[]);
        self.b.switch_to_block(direct_latch);
        let next = self.b.ins().iadd_imm_s(at, if plan.up { 1 } else { -1 });
        self.b.def_var(var, next);
        let again = self.b.ins().icmp(runs_cc, next, bound);
        self.b.ins().brif(again, direct_body, &[next.into()], done, &[]);
        self.b.switch_to_block(done);
        if !back.is_empty() {
            self.store_back(&back);
        }
        self.b.ins().jump(exit, &[]);

        // The checked version: the loop as it is, the loops in it not unrolled
        // (`Translator::rolled`), made when it first runs where it can be ([`crate::outline`]).
        self.b.switch_to_block(checked);
        self.checked_version(s, exit)?;
        self.b.switch_to_block(exit);
        Ok(())
    }

    /// Translate with `f` code that runs only where a faster version of it cannot (a counted
    /// loop's checked version, [`crate::loops`]; an unrolled loop run as it is because the fuel
    /// is short): the loops in it stay loops, not unrolled copies ([`crate::unroll`]), so that
    /// the copies are made once, in the fast version, not again in each fallback (issue 15's
    /// compile time: a 5 × 5 window in a counted loop was 25 checked copies besides the 25
    /// direct ones, and its fallback's fallback more). The loops inside are translated as
    /// any loop is (an innermost counted one in two versions), but for those of a few constant
    /// iterations, the ones the fast version unrolls: they stay plain loops, whose checks per
    /// iteration cost about what a second version's entry checks would for so few iterations
    /// (blur's checked version held its window's `dx` loop in two versions, 426 IR
    /// instructions). The unroll table is the function's again after `f`.
    pub(crate) fn rolled<T>(&mut self, f: impl FnOnce(&mut Self) -> R<T>) -> R<T> {
        let saved = std::mem::replace(&mut self.unrolled, self.none_unrolled);
        let r = f(self);
        self.unrolled = saved;
        r
    }

    /// A loop of a few constant iterations ([`crate::unroll`]): its copies, their fuel taken at
    /// once when that much is at hand; the loop as it is otherwise (so that running out of fuel
    /// stops it at the interpreter's iteration). When the copies call nothing but functions
    /// translated inline and math routines, the copies are taken only when the fuel of those
    /// calls is at hand too and the call depth is far from its limit: none of the calls can then
    /// run out of fuel or overflow the stack, and each only counts its unit
    /// ([`Translator::inline_call`]; a chain of small `routine seq` functions in a loop, issue 15).
    pub(crate) fn unrolled_for(&mut self, s: &Stmt, u: &crate::unroll::Unrolled) -> R<()> {
        if self.prepaid.contains(&(s as *const Stmt)) {
            return self.stmt(&u.block);
        }
        let calls = if self.inline_fuel_at_hand { None } else { self.inline_call_units(&u.block).filter(|&n| n > 0) };
        let (copies, as_is, join) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        let fuel = self.b.use_var(self.fuel);
        let need = u.fuel.saturating_add(calls.unwrap_or(0)).min(i64::MAX as u64);
        let mut enough = self.b.ins().icmp_imm_s(IntCC::UnsignedGreaterThan, fuel, need as i64);
        if calls.is_some() {
            let far = self.b.ins().bxor_imm_s(self.near_depth_limit, 1);
            enough = self.b.ins().band(enough, far);
        }
        self.b.ins().brif(enough, copies, &[], as_is, &[]);
        self.b.switch_to_block(copies);
        let left = self.b.ins().iadd_imm_s(fuel, -(u.fuel as i64));
        self.b.def_var(self.fuel, left);
        let outer = self.inline_fuel_at_hand;
        self.inline_fuel_at_hand = outer || calls.is_some();
        let copied = self.stmt(&u.block);
        self.inline_fuel_at_hand = outer;
        copied?;
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(as_is);
        self.b.set_cold_block(as_is);
        self.rolled(|t| t.for_loop(s))?;
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        Ok(())
    }

    /// At a counted loop's entry, the counter at `v0` and the bound `B` evaluated: whether the
    /// loop runs at all, its last value and the value after it are representable in the
    /// counter's kind and its trip count is small (all within the exact limit); the last value,
    /// the trip count and the condition code of `v CMP B`.
    pub(crate) fn trip_checks(&mut self, c: &Counter<'_>, v0: Value, bound: Value) -> (Value, Value, Value, IntCC) {
        let signed = c.cmp_kind.is_signed();
        // Runs at all: v0 < B (<= B …).
        let runs_cc = match (c.up, c.inclusive, signed) {
            (true, false, true) => IntCC::SignedLessThan,
            (true, true, true) => IntCC::SignedLessThanOrEqual,
            (false, false, true) => IntCC::SignedGreaterThan,
            (false, true, true) => IntCC::SignedGreaterThanOrEqual,
            (true, false, false) => IntCC::UnsignedLessThan,
            (true, true, false) => IntCC::UnsignedLessThanOrEqual,
            (false, false, false) => IntCC::UnsignedGreaterThan,
            (false, true, false) => IntCC::UnsignedGreaterThanOrEqual,
        };
        let mut ok = self.b.ins().icmp(runs_cc, v0, bound);
        // The last value and the counter's value after the loop, representable in its kind.
        let (min, max) = kind_range(c.var_kind);
        let last = match (c.up, c.inclusive) {
            (true, false) => self.b.ins().iadd_imm_s(bound, -1),
            (false, false) => self.b.ins().iadd_imm_s(bound, 1),
            _ => bound,
        };
        let end_value_fits = if c.up {
            // v ends at last + 1 <= max.
            let cc = if signed { IntCC::SignedLessThan } else { IntCC::UnsignedLessThan };
            self.b.ins().icmp_imm_s(cc, last, max)
        } else {
            let cc = if signed { IntCC::SignedGreaterThan } else { IntCC::UnsignedGreaterThan };
            self.b.ins().icmp_imm_s(cc, last, min)
        };
        ok = self.b.ins().band(ok, end_value_fits);
        let trip = if c.up { self.b.ins().isub(last, v0) } else { self.b.ins().isub(v0, last) };
        let trip = self.b.ins().iadd_imm_s(trip, 1);
        // Few enough iterations that the counter's range stays within the exact limit.
        let small = self.b.ins().icmp_imm_s(IntCC::UnsignedLessThan, trip, EXACT_LIMIT);
        ok = self.b.ins().band(ok, small);
        for v in [v0, last] {
            let fits = self.exact_range(v);
            ok = self.b.ins().band(ok, fits);
        }
        (ok, last, trip, runs_cc)
    }

    /// When `ok` holds and `need` units of fuel are at hand (taken from the pool when they are
    /// not), take them and continue in a new block; else jump to `fail`.
    pub(crate) fn take_fuel(&mut self, ok: Value, need: Value, fail: Block) -> R<()> {
        let fuel = self.b.use_var(self.fuel);
        let enough = self.b.ins().icmp(IntCC::UnsignedGreaterThan, fuel, need);
        let (take, reserve, want) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        self.b.ins().brif(ok, want, &[], fail, &[]);
        self.b.switch_to_block(want);
        self.b.ins().brif(enough, take, &[], reserve, &[]);
        self.b.set_cold_block(reserve);
        self.b.switch_to_block(reserve);
        let got = self.helper(Helper::ReserveFuel, &[self.ctx, need]).ok_or("no result of the fuel helper")?;
        self.b.ins().brif(got, take, &[], fail, &[]);
        self.b.switch_to_block(take);
        let fuel = self.b.use_var(self.fuel);
        let left = self.b.ins().isub(fuel, need);
        self.b.def_var(self.fuel, left);
        Ok(())
    }

    /// Whether the word `v` lies within ±[`EXACT_LIMIT`].
    fn exact_range(&mut self, v: Value) -> Value {
        let shifted = self.b.ins().iadd_imm_s(v, EXACT_LIMIT);
        self.b.ins().icmp_imm_s(IntCC::UnsignedLessThan, shifted, 2 * EXACT_LIMIT)
    }

    /// Whether `x` is a canonical word of the 32-bit kind `k` (no other kind is checked).
    fn kind_fits(&mut self, k: Kind, x: Value) -> Value {
        match k {
            Kind::I32 => {
                let n = self.b.ins().ireduce(types::I32, x);
                let s = self.b.ins().sextend(types::I64, n);
                self.b.ins().icmp(IntCC::Equal, s, x)
            }
            Kind::U32 => {
                let hi = self.b.ins().ushr_imm_s(x, 32);
                self.b.ins().icmp_imm_s(IntCC::Equal, hi, 0)
            }
            _ => self.yes(),
        }
    }

    /// The exact value of the affine expression `e` with the counter at `at` (see
    /// [`Translator::affine`]), and whether every step of it is exact there.
    pub(crate) fn exact(&mut self, e: &Expr, var: LocalId, at: Value, derived: &HashMap<u32, &Expr>) -> R<(Value, Value)> {
        self.exact_at(e, &[(var, at)], derived)
    }

    /// [`Translator::exact`] with several counters, each at its value in `at` (the counters of
    /// a loop nest, [`crate::outer`]).
    pub(crate) fn exact_at(&mut self, e: &Expr, at: &[(LocalId, Value)], derived: &HashMap<u32, &Expr>) -> R<(Value, Value)> {
        self.exact_at_checked(e, at, derived, true)
    }

    /// [`Translator::exact_at`]; without `checked`, only the value (the tests are true: an
    /// access whose tests others imply, [`crate::apart`]).
    pub(crate) fn exact_at_checked(&mut self, e: &Expr, at: &[(LocalId, Value)], derived: &HashMap<u32, &Expr>, checked: bool) -> R<(Value, Value)> {
        // At one loop entry, an expression written the same way (the same text: kinds, types,
        // locals, constants) has the same exact value: computed once for every access that
        // holds it (a window's accesses share their rows and columns).
        // A part that reads no counter (a window row's `(y + dy) * W`) has one value at every
        // counter value: computed once for both ends.
        let moves = self.exact_memo.is_some() && at.iter().any(|&(v, _)| self.depends(e, v, derived));
        // A box corner's parts are shared only with its box's other corners: which parts are
        // computed exactly depends on the box's leaf paths, which the expression's shape does
        // not tell (a part on one box's path may lie off another's, and its value from there
        // would come without the tests this corner needs). In one box, a shape lies at the same
        // place, on or off the paths, in every corner.
        let b = self.exact_box;
        let mut memo = self.exact_memo.take();
        let key = memo.as_mut().map(|m| (m.id(e, &|x| self.located(x)), if moves { at.iter().map(|&(_, x)| x).collect::<Vec<_>>() } else { Vec::new() }));
        self.exact_memo = memo;
        if let (Some(m), Some((id, values_at))) = (self.exact_memo.as_ref(), key.as_ref()) {
            if let Some(&r) = m.values.get(&(*id, values_at.clone(), checked, b)) {
                return Ok(r);
            }
            // A value computed with its tests is the same value.
            if !checked {
                if let Some(&(v, _)) = m.values.get(&(*id, values_at.clone(), true, b)) {
                    let t = self.yes();
                    return Ok((v, t));
                }
            }
        }
        let r = self.exact_uncached(e, at, derived, checked)?;
        if let (Some((id, at)), Some(m)) = (key, self.exact_memo.as_mut()) {
            m.values.insert((id, at, checked, b), r);
        }
        Ok(r)
    }

    /// Whether the code of node `e` (not of its parts) depends on its location: a division's
    /// (it faults there), a memory local's read, a pointer step over elements of a run-time
    /// size (it reads the size), any node but a conversion, a sum, difference or product, a
    /// pointer step, a local or an integer constant. The same computation written at two places
    /// (`a[i * n + j] = a[i * n + j] * b`) then has one exact value at a loop's entry, not one
    /// per place ([`ExactMemo`]; issue 15's compile time).
    fn located(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Cast(_) | ExprKind::Int(_) | ExprKind::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul, ..) => false,
            ExprKind::Local(l) => self.is_memory_local(*l),
            ExprKind::PtrAdd { elem, .. } => self.p.types.size_of(*elem).is_none(),
            _ => true,
        }
    }

    /// The constant `v` is, when it is an `iconst` of this function's code.
    pub(crate) fn known_const(&self, v: Value) -> Option<i64> {
        use cranelift_codegen::ir::{InstructionData, Opcode, ValueDef};
        let ValueDef::Result(inst, 0) = self.b.func.dfg.value_def(v) else { return None };
        match self.b.func.dfg.insts[inst] {
            InstructionData::UnaryImm { opcode: Opcode::Iconst, imm } => Some(imm.bits()),
            _ => None,
        }
    }

    /// `a && b` of two truth values, without an instruction when one of them is the constant
    /// true (the tests of an exact value's steps are mostly that: a counter, a loop-invariant
    /// part, a 64-bit kind's fit).
    fn both(&mut self, a: Value, b: Value) -> Value {
        match (self.known_const(a), self.known_const(b)) {
            (Some(1), _) => b,
            (_, Some(1)) => a,
            _ => self.b.ins().band(a, b),
        }
    }

    /// Whether the loop-invariant factor `factor` of an exact product is small (within
    /// ±[`FACTOR_LIMIT`]): decided here for a constant.
    fn small_factor(&mut self, factor: Value) -> Value {
        if let Some(c) = self.known_const(factor) {
            if c > -FACTOR_LIMIT && c < FACTOR_LIMIT {
                return self.yes();
            }
        }
        let shifted = self.b.ins().iadd_imm_s(factor, FACTOR_LIMIT);
        self.b.ins().icmp_imm_s(IntCC::UnsignedLessThan, shifted, 2 * FACTOR_LIMIT)
    }

    /// [`Translator::exact_at`], computed.
    fn exact_uncached(&mut self, e: &Expr, at: &[(LocalId, Value)], derived: &HashMap<u32, &Expr>, checked: bool) -> R<(Value, Value)> {
        let k = self.kind_of(e.ty);
        let vars: Vec<LocalId> = at.iter().map(|&(v, _)| v).collect();
        // A box corner's part on a leaf's path is computed exactly though it reads no counter
        // (its leaf, a constant, is its value).
        let through = |t: &Self, x: &Expr| t.exact_through.contains(&(x as *const Expr)) && !matches!(x.kind, ExprKind::Int(_));
        if !through(self, e) && !self.depends_any(e, &vars, derived) {
            let v = self.expr(e)?;
            let t = self.yes();
            return Ok((v, t));
        }
        // Whether the value is known to lie within ±2^32 without a test: a conversion of a
        // value of a 32-bit kind, whose fit was tested.
        let mut within_32_bits = false;
        let (v, mut ok) = match &e.kind {
            ExprKind::Local(l) if vars.contains(l) => {
                let value = at.iter().find(|&&(v, _)| v == *l).map(|&(_, x)| x).ok_or("internal: a counter without its value")?;
                let t = self.yes();
                (value, t)
            }
            ExprKind::Local(l) => {
                let d = *derived.get(&l.0).ok_or("internal: an affine local without its value")?;
                self.exact_at_checked(d, at, derived, checked)?
            }
            ExprKind::Cast(a) => {
                within_32_bits = matches!(self.kind_of(a.ty), Kind::I32 | Kind::U32);
                self.exact_at_checked(a, at, derived, checked)?
            }
            ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
                let (x, okx) = self.exact_at_checked(a, at, derived, checked)?;
                let (y, oky) = self.exact_at_checked(b, at, derived, checked)?;
                let r = if *op == BinOp::Add { self.b.ins().iadd(x, y) } else { self.b.ins().isub(x, y) };
                (r, self.both(okx, oky))
            }
            ExprKind::Binary(BinOp::Mul, a, b) => {
                let (x, okx) = self.exact_at_checked(a, at, derived, checked)?;
                let (y, oky) = self.exact_at_checked(b, at, derived, checked)?;
                // The loop-invariant factor is small.
                let on_a = self.depends_any(a, &vars, derived) || self.exact_through.contains(&(&**a as *const Expr));
                let factor = if on_a { y } else { x };
                let r = self.b.ins().imul(x, y);
                let both = self.both(okx, oky);
                // A product of `int`s that reads no counter (a box corner's `(y - 2) * w`) is
                // exact without it: both operands lie within ±2^31 (the one computed exactly
                // is tested to fit, the other is an `int`'s value), so the product lies within
                // ±2^62, and its own test bounds it. Its rows are as long as before the boxes.
                let ints = [e, &**a, &**b].iter().all(|x| self.kind_of(x.ty) == Kind::I32);
                let int_product = ints && !self.depends_any(e, &vars, derived);
                if checked && !int_product {
                    let small = self.small_factor(factor);
                    (r, self.both(both, small))
                } else {
                    (r, both)
                }
            }
            ExprKind::PtrAdd { ptr, index, elem } => {
                let (p, okp) = self.exact_at_checked(ptr, at, derived, checked)?;
                let (i, oki) = self.exact_at_checked(index, at, derived, checked)?;
                let mut ok = self.both(okp, oki);
                let off = match self.elem_size(*elem, e.loc)? {
                    Size::Const(size) => self.b.ins().imul_imm_s(i, size as i64),
                    Size::Dyn(size) => {
                        if checked {
                            let small = self.small_factor(size);
                            ok = self.both(ok, small);
                        }
                        self.b.ins().imul(i, size)
                    }
                };
                let r = self.b.ins().iadd(p, off);
                (r, ok)
            }
            _ => return Err("internal: not an affine expression".into()),
        };
        if !checked {
            let t = self.yes();
            return Ok((v, t));
        }
        if k != Kind::Ptr {
            // A canonical word of a 32-bit kind lies within ±2^32, well inside ±EXACT_LIMIT:
            // for those kinds (and a conversion of one) the test that it fits the kind is the
            // only one needed.
            if !within_32_bits && !matches!(k, Kind::I32 | Kind::U32) {
                let near = self.exact_range(v);
                ok = self.both(ok, near);
            }
            let fits = self.kind_fits(k, v);
            ok = self.both(ok, fits);
        }
        Ok((v, ok))
    }

    /// Whether `e` reads one of the counters `vars` (directly or through a derived local).
    pub(crate) fn depends_any(&self, e: &Expr, vars: &[LocalId], derived: &HashMap<u32, &Expr>) -> bool {
        vars.iter().any(|&v| self.depends(e, v, derived))
    }

    /// Whether `e` reads the counter (directly or through a derived local).
    pub(crate) fn depends(&self, e: &Expr, var: LocalId, derived: &HashMap<u32, &Expr>) -> bool {
        match &e.kind {
            // A derived local's value is this iteration's: never the one the preheader sees.
            ExprKind::Local(l) => *l == var || derived.contains_key(&l.0),
            ExprKind::Cast(a) | ExprKind::Unary(_, a) | ExprKind::Load(a) => self.depends(a, var, derived),
            ExprKind::Binary(_, a, b) => self.depends(a, var, derived) || self.depends(b, var, derived),
            ExprKind::PtrAdd { ptr, index, .. } => self.depends(ptr, var, derived) || self.depends(index, var, derived),
            _ => false,
        }
    }

    /// What an affine access's address is based on (`p` of `p[i]`, of `p[i][j]`, …), when that
    /// is a register local the loop does not assign or the address of an array (a global's, a
    /// memory local's), and the base expression.
    fn base_anchor<'e>(&self, addr: &'e Expr, plan: &CountedLoop<'_>) -> Option<(Anchor, &'e Expr)> {
        let mut base = addr;
        while let ExprKind::PtrAdd { ptr, .. } = &base.kind {
            base = ptr;
        }
        let anchor = match base.kind {
            ExprKind::Local(l)
                if l != plan.var
                    && !plan.assigned.contains(&l.0)
                    && !plan.derived.contains_key(&l.0)
                    && !self.in_memory.get(l.0 as usize).copied().unwrap_or(true) =>
            {
                Anchor::Register(l)
            }
            ExprKind::GlobalAddr(g) => Anchor::Global(g.0),
            ExprKind::LocalAddr(l) if self.in_memory.get(l.0 as usize).copied().unwrap_or(false) => Anchor::Frame(l),
            _ => return None,
        };
        Some((anchor, base))
    }

    /// Whether `size` bytes at the pointer words `first` and `last` (and so at every address
    /// between them, see the module docs) lie in the allocation of `first`, readable (`read`)
    /// and writable (`write`); and the bias that turns such a pointer word into its host
    /// address.
    pub(crate) fn ends_in_place(&mut self, first: Value, last: Value, size: u64, read: bool, write: bool) -> (Value, Value) {
        let mut spans = Spans::new();
        let (in_table, bias) = self.ends_in_span(&mut spans, first, first, last, size, read, write);
        let in_bounds = self.spans_in_bounds(&spans);
        (self.b.ins().band(in_table, in_bounds), bias)
    }

    /// [`Translator::ends_in_place`] in the allocation of the pointer word `anchor` (a stricter
    /// test than in `first`'s: the same where `first` lies in `anchor`'s allocation, false
    /// where it does not), its span looked up once in `spans` for all the accesses of one
    /// loop entry that share the anchor; the bias is then theirs too. What it returns is
    /// whether the anchor is an allocation's, and the bias: the bounds of `first` and `last`
    /// join those of the other accesses of `spans` in [`Translator::spans_in_bounds`], which
    /// tests them all at once (issue 15's compile time: a 5 × 5 window's 50 ends were 50
    /// tests; each is now one subtraction and one maximum).
    pub(crate) fn ends_in_span(&mut self, spans: &mut Spans, anchor: Value, first: Value, last: Value, size: u64, read: bool, write: bool) -> (Value, Value) {
        let span = match spans.0.get(&anchor) {
            Some(s) => *s,
            None => {
                let s = self.span_of(anchor);
                spans.0.insert(anchor, s);
                s
            }
        };
        let offsets: Vec<Value> = if first == last { vec![first] } else { vec![first, last] }
            .into_iter()
            .map(|p| self.b.ins().isub(p, span.start))
            .collect();
        for (wanted, field) in [(read, SPAN_READABLE), (write, SPAN_WRITABLE)] {
            if !wanted {
                continue;
            }
            let slot = usize::from(field == SPAN_WRITABLE);
            if let std::collections::hash_map::Entry::Vacant(v) = spans.1.entry((anchor, slot)) {
                v.insert(self.b.ins().uload32(MemFlagsData::trusted(), span.entry, field));
            }
            let key = (anchor, slot, size);
            let mut largest = spans.2.iter().find(|(k, _)| *k == key).map(|&(_, v)| v);
            for &off in &offsets {
                largest = Some(match largest {
                    Some(m) => self.b.ins().umax(m, off),
                    None => off,
                });
            }
            if let Some(m) = largest {
                match spans.2.iter_mut().find(|(k, _)| *k == key) {
                    Some(entry) => entry.1 = m,
                    None => spans.2.push((key, m)),
                }
            }
        }
        (span.in_table, span.bias)
    }

    /// Whether every end joined in `spans` ([`Translator::ends_in_span`]) is in bounds: an end
    /// `p` of an access of `size` bytes is when its offset `p - start` from its span's start is
    /// below the span's limit and `offset + size` is not above it (an end below the start has
    /// an offset past 2^63, which fails the first test). Over a set of ends of one size this
    /// holds for each exactly when it holds for the largest offset (below the limit, at most
    /// 2^32, adding `size` cannot wrap).
    pub(crate) fn spans_in_bounds(&mut self, spans: &Spans) -> Value {
        let mut ok = self.yes();
        for &((anchor, slot, size), largest) in &spans.2 {
            let Some(&limit) = spans.1.get(&(anchor, slot)) else { continue };
            let end = self.b.ins().iadd_imm_s(largest, size as i64);
            let starts = self.b.ins().icmp(IntCC::UnsignedLessThan, largest, limit);
            let ends = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end, limit);
            let both = self.b.ins().band(starts, ends);
            ok = self.both(ok, both);
        }
        ok
    }

    /// The span-table entry of the allocation of pointer word `p` ([`Span`]).
    fn span_of(&mut self, p: Value) -> Span {
        let id = self.b.ins().ushr_imm_s(p, 32);
        let table = self.b.ins().load(types::I64, MemFlagsData::trusted(), self.ctx, OFF_TABLE);
        let len = self.b.ins().load(types::I64, MemFlagsData::trusted(), self.ctx, OFF_TABLE_LEN);
        let in_table = self.b.ins().icmp(IntCC::UnsignedLessThan, id, len);
        let zero = self.b.ins().iconst(types::I64, 0);
        let slot = self.b.ins().select(in_table, id, zero);
        let at = self.b.ins().ishl_imm_s(slot, SPAN_SHIFT);
        let entry = self.b.ins().iadd(table, at);
        let base = self.b.ins().load(types::I64, MemFlagsData::trusted(), entry, 0);
        let start = self.b.ins().ishl_imm_s(id, 32);
        let bias = self.b.ins().isub(base, start);
        Span { in_table, entry, start, bias }
    }

    /// The checked `for` loop (its `init` translated): head, body, latch with its unit of fuel;
    /// it leaves by `exit`, which the caller switches to.
    pub fn plain_for(&mut self, cond: Option<&Expr>, step: Option<&Expr>, body: &Stmt, loc: Loc, exit: Block) -> R<()> {
        let bound = self.loop_bound(cond, step, body)?;
        let (head, body_b, latch) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(head);
        match cond {
            Some(c) => {
                self.known = bound;
                let cv = self.cond(c);
                self.known = None;
                let cv = cv?;
                self.b.ins().brif(cv, body_b, &[], exit, &[]);
            }
            None => {
                self.b.ins().jump(body_b, &[]);
            }
        }
        self.b.switch_to_block(body_b);
        self.loops.push((latch, exit));
        let r = self.stmt(body);
        self.loops.pop();
        r?;
        self.b.ins().jump(latch, &[]);
        self.b.switch_to_block(latch);
        if let Some(st) = step {
            self.expr(st)?;
        }
        self.burn_fuel(loc);
        self.b.ins().jump(head, &[]);
        Ok(())
    }
}

/// The smallest and largest value of an integer kind, as words compared in that kind.
fn kind_range(k: Kind) -> (i64, i64) {
    match k {
        Kind::I32 => (i32::MIN as i64, i32::MAX as i64),
        Kind::U32 => (0, u32::MAX as i64),
        Kind::U64 => (0, -1),
        _ => (i64::MIN, i64::MAX),
    }
}
