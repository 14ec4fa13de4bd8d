//! SIMD in the direct version of a counted loop (issue 15): the iterations of an element-wise
//! loop run two or four at a time in 128-bit lanes (`f64x2`, `f32x4`, `i32x4`, `i64x2`; SSE2 is
//! the x86-64 baseline), then the last ones one at a time.
//!
//! **Which loops.** The direct version ([`crate::loops`]) of an upward counted loop (`v++`) whose
//! body is straight-line code (blocks, expression statements, loops unrolled whole by
//! [`crate::unroll`] with their fuel taken at entry) made of
//! - the assignments of the counter's derived locals (`j = lb + i*step`, [`crate::loops`]),
//!   computed for the first lane and used only in addresses;
//! - assignments and compound assignments (`=`, `+=`, `-=`, `*=`, `/=`, `&=`, `|=`, `^=`) of
//!   memory at an address that moves with the counter, or of a register local the iteration
//!   assigns before it reads it (a temporary, `float s = 0; s += …; out[i] = s;`);
//! - values built from loads at such addresses, temporaries, and *uniform* expressions — the
//!   same in every iteration: constants, register locals the body does not assign, loads at a
//!   loop-invariant address checked at entry, and operations on those (no integer division);
//! - operations lane by lane: `+ - * /` and unary `-` on `double`/`float`, `+ - & | ^ ~ -` on
//!   32- and 64-bit integers (wrapping, as the scalar code), and calls of `fabs`, `sqrt`, `fabsf`,
//!   `sqrtf` (single IEEE operations: the vector instruction gives each lane the scalar bits);
//! - `max`/`min` reductions of a float register local `r` the body reads nowhere else (issue 16,
//!   the Laplace lab's `error = max(error, abs(...))`): `r = (X > r) ? X : r` (`<` for `min`;
//!   Fortran's `max`/`min` are translated so), or `r = fmax(r, X)` / `fmax(X, r)` (`fmin`,
//!   `fmaxf`, `fminf`) when the C library's routine (the shim's, which both engines call) returns
//!   the other operand of a NaN one and of two equal zeros always its first, or always its second
//!   operand (asked of the routine when the loop is translated),
//!
//! every value that differs between iterations of one size (8 bytes: two lanes; 4: four), every
//! memory access one the preheader checked (so nothing faults), and at least one store or
//! reduction. A condition (other than a reduction's), another call, a conversion, an `++`, a
//! comparison, an integer division, a memory local, a store at a loop-invariant address (a
//! reduction into memory), or a temporary read before the iteration assigns it (a sum
//! `t += a[i]*b[i]`, whose floating-point additions must stay in order: only `max`/`min` are
//! order-free) keeps the loop scalar. Loops around an inner loop ([`crate::outer`]) run no
//! reduction in lanes.
//!
//! **Same results.** Each lane does the scalar code's operations on its own iteration's values,
//! in the same order (IEEE operations give the same bits, NaN payloads included: the vector
//! instruction of each operation keeps the scalar one's operand order); uniform values are
//! computed once per group of lanes, as the scalar code would compute them (the same word) in
//! each iteration. What changes is the order of the accesses of different iterations, so the
//! preheader runs the vector loop only when that order cannot matter (else the scalar direct
//! loop): every access that moves with the counter moves by exactly its size per iteration
//! (consecutive elements, so a vector load or store is the lanes' accesses), and every store's
//! bytes over the whole loop either are exactly another access's bytes at every iteration (the
//! same element: `C[i][j] += …` reads and writes `C[i][j]`) or do not overlap that access's
//! bytes over the whole loop (`B[i][j] = A[i][j-1] + …` on two arrays; on one array, the
//! overlapping stream that would read a lane's result keeps the loop scalar). With no access of
//! one iteration touching another iteration's stored bytes, running each statement for all
//! lanes before the next computes what the scalar order computes.
//!
//! **Reductions in lanes.** Each lane keeps the scalar rule over its own iterations: it replaces
//! its value by the operand when the operand is larger (smaller), or also when equal where the
//! scalar rule takes an equal operand (`fmax(X, r)` of a routine that returns its first operand
//! of two zeros); a NaN operand compares false and is skipped, as the scalar rule skips it. A lane
//! also keeps the iteration of the element it holds (-1: the value at entry). The scalar loop
//! over all iterations holds the larger (smaller) value, and of equal maxima the first (the last)
//! element in the loop's order; the only equal values of different bits are +0 and -0, so when
//! the vector loop ends the local gets the lanes' larger (smaller) value, and of lanes holding
//! equal values the one whose element came first (last): bit for bit the scalar loop's value after
//! the same iterations, before the scalar loop runs the last ones. The lanes run only when the
//! value at entry is not a NaN (`fmax` replaces a NaN held by the next number, which only the
//! scalar order decides) and, for `float` lanes (32-bit positions), when the trip count fits.
//!
//! **Addresses.** Each access that moves with the counter is a stream ([`crate::streams`]): its
//! stride tested to be its size, a group of lanes addresses it as a base computed at entry plus
//! the counter times the size, with the group's lead as the access's constant offset.
//!
//! **The last iterations.** The vector loop runs while at least one iteration is left after its
//! lanes (`v + L` still passes the loop's test), so the scalar direct loop always runs the last
//! 1..=L iterations: the counter, the derived locals and the temporaries end with the last
//! iteration's values, computed as before. The fuel is the direct version's (the trip count's,
//! taken at entry).
//!
//! A window's lanes (a body of more accesses than the lanes unroll) run those iterations too,
//! and its loop has no scalar direct version ([`Translator::lanes_run_the_rest`]; issue 15's
//! compile time: blur's direct version was a quarter of its kernel): after the groups, one last
//! group ends at the last iteration, running again up to `L - 1` iterations a group before it
//! ran. Running an iteration again stores the same values when no iteration reads bytes that
//! any iteration stores, which the translator asks of the body (no reduction, no
//! read-modify-write, no read at a store's address, every store moving) and the loop's entry
//! checks of the run (every store's bytes apart from every read's over the whole loop, another
//! store's equal bytes allowed). Then the temporaries get their last lane's values, the derived
//! locals their values at the last iteration and the counter the value after it, as the scalar
//! loop leaves them. Those checks, and a trip count of at least `L`, are made with the loop's
//! other entry checks, before its fuel is taken: when one fails, the checked version runs the
//! loop, counting its fuel as it goes.

use crate::HashMap;

use cranelift_codegen::entity::EntityRef;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::condcodes::FloatCC;
use cranelift_codegen::ir::{types, Block, InstBuilder, MemFlagsData, Type, Value};
use cranelift_frontend::Variable;

use accsim_core::exec::libc_shim::Shim;
use accsim_core::exec::value::Kind;
use accsim_core::ir::{BinOp, Callee, Expr, ExprKind, Place, Stmt, StmtKind, UnOp};

use crate::loops::{CountedLoop, ExactMemo};
use crate::translate::{Translator, R};

/// Most (store, other access) pairs whose bytes the preheader compares: the checks of a loop
/// with more are not worth their code.
const MAX_PAIRS: usize = 512;

/// Groups of lanes per step of the unrolled vector loop (two: the loop's own instructions, a
/// third of a small body's, are paid once per two groups).
const UNROLL: i64 = 2;
/// Most accesses of a body that the vector loop runs unrolled.
const UNROLL_ACCESSES: usize = 12;

/// What the lane version of a counted loop is made from ([`Translator::vector_version`]): the
/// loop's plan and lane plan, its body, each access's ends and the direct version's entry
/// values (`direct`, `frozen`), the counter's first value `v0`, its `bound` and the condition
/// that keeps it running, the direct version's head, where the lanes leave the rest, and which
/// accesses move.
#[derive(Clone, Copy)]
pub struct LaneLoop<'a, 'e> {
    pub plan: &'a CountedLoop<'e>,
    pub vp: &'a VectorPlan,
    pub body: &'a Stmt,
    pub ends: &'a [(Value, Value)],
    pub v0: Value,
    pub bound: Value,
    pub runs_cc: IntCC,
    pub direct_head: Block,
    pub direct: &'a HashMap<*const Expr, Value>,
    pub frozen: &'a HashMap<usize, Value>,
    /// By access of `plan`: whether its address moves with the counter.
    pub moving: &'a [bool],
}

/// A loop the translator runs in lanes (see the module docs).
pub struct VectorPlan {
    /// Iterations per group of lanes: 16 bytes over the size of the values that vary.
    lanes: i64,
    /// The body is small enough to be translated [`UNROLL`] times more.
    unrolled: bool,
    /// The body's `max`/`min` reductions.
    reductions: Vec<Reduction>,
}

/// A `max` or `min` reduction statement of the body (see the module docs): register local
/// `local` of float kind `kind` keeps the larger (`max`) or smaller value of itself and the
/// statement's operand, an equal operand replacing it when `take_equal` (else the held value
/// stays).
#[derive(Clone, Copy)]
pub(crate) struct Reduction {
    local: u32,
    kind: Kind,
    max: bool,
    take_equal: bool,
}

/// A reduction while the vector loop runs: its lanes' values and, in the integer lanes of the
/// same width, the position (iteration, relative to `origin`) of the element each lane holds
/// (-1: the value at entry).
#[derive(Clone, Copy)]
pub(crate) struct LaneReduction {
    r: Reduction,
    values: Variable,
    positions: Variable,
    origin: Value,
}

/// What an expression of the body is across the lanes.
#[derive(Clone, Copy, PartialEq)]
enum Class {
    /// The same word in every iteration.
    Uniform,
    /// One value per lane, of this kind.
    Varying(Kind),
}

/// An expression's value in the vector body: one word for all lanes, or a vector.
#[derive(Clone, Copy)]
pub(crate) enum Lanes {
    Same(Value),
    Each(Value),
}

/// The state of the analysis of a body, in the order the body runs.
#[derive(Default)]
struct Scan {
    /// The temporaries assigned so far in the iteration, with their value's class.
    temps: HashMap<u32, Class>,
    /// The byte size of the values that vary (all the same).
    size: Option<u64>,
    stores: usize,
    /// The reduction statements met so far, by local.
    reductions: HashMap<u32, Reduction>,
}

impl Scan {
    /// Whether values of kind `k` can be lanes of this loop (and fix the loop's lane size).
    fn lane(&mut self, k: Kind) -> Option<Class> {
        if !matches!(k, Kind::F64 | Kind::F32 | Kind::I32 | Kind::U32 | Kind::I64 | Kind::U64) {
            return None;
        }
        match self.size {
            Some(s) if s != k.bytes() => None,
            _ => {
                self.size = Some(k.bytes());
                Some(Class::Varying(k))
            }
        }
    }
}

/// The vector type of lanes of kind `k`.
pub(crate) fn lane_type(k: Kind) -> Type {
    match k {
        Kind::F64 => types::F64X2,
        Kind::F32 => types::F32X4,
        Kind::I32 | Kind::U32 => types::I32X4,
        _ => types::I64X2,
    }
}

/// Whether `op` is done lane by lane on kind `k` (see the module docs).
fn lane_op(op: BinOp, k: Kind) -> bool {
    if k.is_float() {
        matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div)
    } else {
        matches!(op, BinOp::Add | BinOp::Sub | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor)
    }
}

pub(crate) fn lane_flags() -> MemFlagsData {
    let mut f = MemFlagsData::new();
    f.set_notrap();
    f
}

/// Of two equal zeros, which operand the C library routine `g` (on words) returns: the first
/// (`Some(true)`) or the second, the same for both orders; `None` when it is neither, or when it
/// does not return the other operand of a NaN one (`fmax`'s rule, C11 F.10.9.2).
fn tie_rule(g: impl Fn(u64, u64) -> u64, zero: u64, neg_zero: u64, nan: u64, one: u64) -> Option<bool> {
    if g(nan, one) != one || g(one, nan) != one {
        return None;
    }
    match (g(zero, neg_zero), g(neg_zero, zero)) {
        (a, b) if a == zero && b == neg_zero => Some(true),
        (a, b) if a == neg_zero && b == zero => Some(false),
        _ => None,
    }
}

impl<'a, 'b> Translator<'a, 'b> {
    /// The vector plan of counted loop `plan` with body `body`, when it has one (see the module
    /// docs).
    pub fn vector_plan(&self, plan: &CountedLoop<'_>, body: &Stmt) -> Option<VectorPlan> {
        if !plan.up || !plan.memory_locals.is_empty() {
            return None;
        }
        let mut scan = Scan::default();
        self.scan_stmt(plan, body, &mut scan)?;
        let size = scan.size?;
        let stores = plan.accesses.iter().filter(|a| a.3).count();
        if (scan.stores == 0 && scan.reductions.is_empty()) || stores * plan.accesses.len() > MAX_PAIRS {
            return None;
        }
        let mut reductions: Vec<Reduction> = scan.reductions.into_values().collect();
        reductions.sort_by_key(|r| r.local);
        Some(VectorPlan { lanes: (16 / size) as i64, unrolled: plan.accesses.len() <= UNROLL_ACCESSES, reductions })
    }

    /// The byte size of the lanes of statements `parts` run in this order once each, with
    /// `plan` the loop they belong to ([`crate::outer`]: the statements around an inner loop
    /// and its body), when they can run in lanes and store at least once.
    pub(crate) fn lane_size(&self, plan: &CountedLoop<'_>, parts: &[&Stmt]) -> Option<u64> {
        let mut scan = Scan::default();
        for s in parts {
            self.scan_stmt(plan, s, &mut scan)?;
        }
        // Reductions run in lanes of an innermost loop only.
        (scan.stores > 0 && scan.reductions.is_empty()).then_some(scan.size?)
    }

    /// Whether the lanes of loop `plan` (of vector plan `vp`, its accesses moving with the
    /// counter where `moving`) run its last iterations too, in one last group of lanes that ends
    /// at the last iteration, so that the loop has no scalar direct version (see the module
    /// docs, "The last iterations"). That last group runs again iterations an earlier group ran,
    /// which stores the same values only when no iteration reads bytes any iteration stores:
    /// no reduction, every store moving and none a read-modify-write (`a[i] += …`), no read at
    /// the address of a store, and at run time every store's bytes apart from every read's
    /// ([`Translator::lane_checks`]; else the checked version runs). Only bodies of more
    /// accesses than the lanes unroll, a window's: their direct version was as large as
    /// their lanes and checks together (blur's kernel: 623 of 2,602 IR instructions, issue 15's
    /// compile time), and their loops run long; a smaller body keeps its direct version, for
    /// the loops of fewer iterations than a group and the stores that may overlap a read.
    pub fn lanes_run_the_rest(&self, plan: &CountedLoop<'_>, vp: &VectorPlan, moving: &[bool]) -> bool {
        vp.reductions.is_empty()
            && !vp.unrolled
            && plan.accesses.iter().zip(moving).all(|(a, &m)| !a.3 || (m && !a.2))
            && !plan.accesses.iter().any(|s| s.3 && plan.accesses.iter().any(|x| !x.3 && x.0.same_computation(s.0, false)))
    }

    /// After the last group of lanes (`temps` its temporaries), the locals as the scalar loop
    /// leaves them after iteration `last`: each temporary its last lane's value, each derived
    /// local of the counter its value at `last`, the counter `last + 1`.
    fn leave_as_the_scalar_loop(&mut self, plan: &CountedLoop<'_>, body: &Stmt, temps: &HashMap<u32, Lanes>, last: Value, lanes: i64, frozen: &HashMap<usize, Value>) -> R<()> {
        let mut locals: Vec<u32> = temps.keys().copied().collect();
        locals.sort_unstable();
        for l in locals {
            let ty = self.func.locals.get(l as usize).ok_or("internal: an unknown temporary")?.ty;
            let k = self.kind_of(ty);
            let value = match temps[&l] {
                Lanes::Same(w) => crate::translate::word_to(&mut self.b, crate::translate::variable_type(self.p, ty, false), w),
                Lanes::Each(v) => {
                    let x = self.b.ins().extractlane(v, (lanes - 1) as u8);
                    match k {
                        Kind::F32 | Kind::F64 | Kind::I64 | Kind::U64 => x,
                        Kind::I32 => self.b.ins().sextend(types::I64, x),
                        Kind::U32 => self.b.ins().uextend(types::I64, x),
                        _ => return Err("internal: a temporary of lanes of another kind".into()),
                    }
                }
            };
            self.b.def_var(self.vars[l as usize], value);
        }
        let var = self.vars[plan.var.0 as usize];
        let mut at_last = frozen.clone();
        at_last.insert(var.index(), last);
        let saved = (std::mem::replace(&mut self.frozen, at_last), std::mem::replace(&mut self.prepaid, plan.prepaid.clone()));
        let r = self.derived_at_last(plan, body);
        (self.frozen, self.prepaid) = saved;
        r?;
        let end = self.b.ins().iadd_imm_s(last, 1);
        self.b.def_var(var, end);
        Ok(())
    }

    /// The assignments of the counter's derived locals in `s`, in order (the counter frozen).
    fn derived_at_last(&mut self, plan: &CountedLoop<'_>, s: &Stmt) -> R<()> {
        match &s.kind {
            StmtKind::Block(ss) => ss.iter().try_for_each(|s| self.derived_at_last(plan, s)),
            _ if self.derived_assignment(plan, s) => self.stmt(s),
            StmtKind::For { .. } => {
                let table: &'a crate::unroll::UnrollTable = self.unrolled;
                let u = table.get(&(s as *const Stmt)).ok_or("internal: a loop in a vector body")?;
                self.derived_at_last(plan, &u.block)
            }
            _ => Ok(()),
        }
    }

    /// Whether `s` assigns one of the counter's derived locals (its one assignment).
    fn derived_assignment(&self, plan: &CountedLoop<'_>, s: &Stmt) -> bool {
        let StmtKind::Expr(e) = &s.kind else { return false };
        let ExprKind::Assign { place: Place::Local(d), value } = &e.kind else { return false };
        plan.derived.get(&d.0).is_some_and(|v| std::ptr::eq(*v, &**value))
    }

    fn scan_stmt(&self, plan: &CountedLoop<'_>, s: &Stmt, scan: &mut Scan) -> Option<()> {
        match &s.kind {
            StmtKind::Empty => Some(()),
            StmtKind::Block(ss) => ss.iter().try_for_each(|s| self.scan_stmt(plan, s, scan)),
            _ if self.derived_assignment(plan, s) => Some(()),
            StmtKind::Expr(e) => match self.reduction(plan, e) {
                Some((r, operand)) => {
                    if scan.temps.contains_key(&r.local) || scan.reductions.contains_key(&r.local) {
                        return None;
                    }
                    if matches!(self.scan_expr(plan, operand, scan)?, Class::Varying(k) if k != r.kind) {
                        return None;
                    }
                    scan.lane(r.kind)?;
                    scan.reductions.insert(r.local, r);
                    Some(())
                }
                None => self.scan_expr(plan, e, scan).map(|_| ()),
            },
            StmtKind::For { .. } if plan.prepaid.contains(&(s as *const Stmt)) => {
                let table: &'a crate::unroll::UnrollTable = self.unrolled;
                self.scan_stmt(plan, &table.get(&(s as *const Stmt))?.block, scan)
            }
            _ => None,
        }
    }

    /// Whether the access at `addr` was checked at entry and moves with the counter.
    fn moving_access(&self, plan: &CountedLoop<'_>, addr: &Expr) -> bool {
        plan.accesses.iter().any(|a| std::ptr::eq(a.0, addr)) && self.depends(addr, plan.var, &plan.derived)
    }

    /// Whether `e` has the same value in every iteration and can be computed once per vector
    /// step (see the module docs).
    fn uniform(&self, plan: &CountedLoop<'_>, e: &Expr) -> bool {
        let k = self.kind_of(e.ty);
        let uni = |x: &Expr| self.uniform(plan, x);
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Str(_) | ExprKind::GlobalAddr(_) | ExprKind::FuncAddr(_) => true,
            ExprKind::Local(l) => *l != plan.var && !plan.assigned.contains(&l.0) && !self.is_memory_local(*l),
            ExprKind::Load(a) => {
                !matches!(k, Kind::Aggregate | Kind::Void | Kind::LongDouble)
                    && plan.accesses.iter().any(|x| std::ptr::eq(x.0, &**a))
                    && !self.depends(a, plan.var, &plan.derived)
                    && uni(a)
            }
            ExprKind::Unary(_, a) | ExprKind::Cast(a) => uni(a),
            ExprKind::Binary(op, a, b) => (k.is_float() || !matches!(op, BinOp::Div | BinOp::Rem)) && uni(a) && uni(b),
            ExprKind::PtrAdd { ptr, index, .. } => uni(ptr) && uni(index),
            _ => false,
        }
    }

    fn scan_expr(&self, plan: &CountedLoop<'_>, e: &Expr, scan: &mut Scan) -> Option<Class> {
        if self.uniform(plan, e) {
            return Some(Class::Uniform);
        }
        let k = self.kind_of(e.ty);
        match &e.kind {
            ExprKind::Local(l) => scan.temps.get(&l.0).copied(),
            ExprKind::Load(a) if self.moving_access(plan, a) => scan.lane(k),
            ExprKind::Unary(op, a) => {
                let ok = match op {
                    UnOp::Neg => true,
                    UnOp::BitNot => !k.is_float(),
                    UnOp::Not => false,
                };
                if !ok || self.kind_of(a.ty) != k {
                    return None;
                }
                self.scan_expr(plan, a, scan)?;
                scan.lane(k)
            }
            ExprKind::Binary(op, a, b) => {
                if !lane_op(*op, k) || self.kind_of(a.ty) != k || self.kind_of(b.ty) != k {
                    return None;
                }
                self.scan_expr(plan, a, scan)?;
                self.scan_expr(plan, b, scan)?;
                scan.lane(k)
            }
            ExprKind::Cast(a) if self.kind_of(a.ty) == k => self.scan_expr(plan, a, scan),
            ExprKind::Call { args, .. } if self.lane_math(e).is_some() => {
                self.scan_expr(plan, args.first()?, scan)?;
                scan.lane(k)
            }
            ExprKind::Assign { place, value } => {
                let c = self.scan_expr(plan, value, scan)?;
                if matches!(c, Class::Varying(vk) if vk != k) {
                    return None;
                }
                match place {
                    Place::Mem(a) if self.moving_access(plan, a) => {
                        scan.lane(k)?;
                        scan.stores += 1;
                    }
                    Place::Local(l) if self.is_temporary(plan, l.0) && !scan.reductions.contains_key(&l.0) => {
                        scan.temps.insert(l.0, c);
                    }
                    _ => return None,
                }
                Some(c)
            }
            ExprKind::CompoundAssign { op, place, value, op_ty } => {
                if self.kind_of(*op_ty) != k || self.kind_of(value.ty) != k || !lane_op(*op, k) {
                    return None;
                }
                self.scan_expr(plan, value, scan)?;
                match place {
                    Place::Mem(a) if self.moving_access(plan, a) => scan.stores += 1,
                    Place::Local(l) if self.is_temporary(plan, l.0) => {
                        scan.temps.get(&l.0)?;
                        scan.temps.insert(l.0, Class::Varying(k));
                    }
                    _ => return None,
                }
                scan.lane(k)
            }
            _ => None,
        }
    }

    /// For a call of `fabs`, `sqrt`, `fabsf` or `sqrtf` on an operand of its own kind: whether it
    /// is `sqrt` (else `fabs`). Each is one IEEE operation (the shim's `f64::abs`, `f64::sqrt`, …),
    /// whose vector instruction gives each lane the scalar instruction's bits.
    fn lane_math(&self, e: &Expr) -> Option<bool> {
        let ExprKind::Call { callee: Callee::Extern(x), args, result: None } = &e.kind else { return None };
        let name = self.p.externs.get(x.0 as usize)?.name.as_str();
        let k = self.kind_of(e.ty);
        let sqrt = match (name, k) {
            ("fabs", Kind::F64) | ("fabsf", Kind::F32) => false,
            ("sqrt", Kind::F64) | ("sqrtf", Kind::F32) => true,
            _ => return None,
        };
        let [a] = args.as_slice() else { return None };
        (self.kind_of(a.ty) == k).then_some(sqrt)
    }

    /// Whether `x` and `y` are the same computation ([`Expr::same_computation`], loads included),
    /// or the same `fabs`/`sqrt` call ([`Translator::lane_math`]) of one: evaluated one after the
    /// other with no store between, they give the same value.
    fn same_operand(&self, x: &Expr, y: &Expr) -> bool {
        match (&x.kind, &y.kind) {
            (ExprKind::Call { callee: Callee::Extern(f), args: a, .. }, ExprKind::Call { callee: Callee::Extern(g), args: b, .. }) => {
                f == g && self.lane_math(x).is_some() && a.len() == 1 && b.len() == 1 && a[0].same_computation(&b[0], true)
            }
            _ => x.same_computation(y, true),
        }
    }

    /// Whether expression statement `e` is a `max`/`min` reduction of a float register local
    /// `r` (see the module docs), with its operand: `r = (X > r) ? X : r` (the form of Fortran's
    /// `max(r, X)` and of C's conditional; `<` for `min`; also written `r < X`), or
    /// `r = fmax(r, X)` / `fmax(X, r)` (`fmin`, `fmaxf`, `fminf`) when the C library's routine
    /// returns the other operand for a NaN one and, of two equal zeros, always the first or
    /// always the second (asked of the shim's routine, which both engines call).
    fn reduction<'e>(&self, plan: &CountedLoop<'_>, e: &'e Expr) -> Option<(Reduction, &'e Expr)> {
        let ExprKind::Assign { place: Place::Local(r), value } = &e.kind else { return None };
        let kind = self.kind_of(e.ty);
        if !matches!(kind, Kind::F64 | Kind::F32) || !self.is_temporary(plan, r.0) {
            return None;
        }
        let is_r = |x: &Expr| {
            let x = x.strip_casts();
            matches!(x.kind, ExprKind::Local(l) if l == *r) && self.kind_of(x.ty) == kind
        };
        let same_kind = |x: &Expr| self.kind_of(x.ty) == kind;
        match &value.kind {
            ExprKind::Cond(c, then, other) => {
                let ExprKind::Binary(op, a, b) = &c.kind else { return None };
                let (x, max) = match op {
                    BinOp::Gt if is_r(b) => (a, true),
                    BinOp::Lt if is_r(b) => (a, false),
                    BinOp::Lt if is_r(a) => (b, true),
                    BinOp::Gt if is_r(a) => (b, false),
                    _ => return None,
                };
                let (x, then) = (x.strip_casts(), then.strip_casts());
                (is_r(other) && same_kind(x) && same_kind(then) && self.same_operand(x, then))
                    .then_some((Reduction { local: r.0, kind, max, take_equal: false }, then))
            }
            ExprKind::Call { callee: Callee::Extern(f), args, result: None } => {
                let name = self.p.externs.get(f.0 as usize)?.name.as_str();
                let max = match (name, kind) {
                    ("fmax", Kind::F64) | ("fmaxf", Kind::F32) => true,
                    ("fmin", Kind::F64) | ("fminf", Kind::F32) => false,
                    _ => return None,
                };
                let [a, b] = args.as_slice() else { return None };
                let (x, r_first) = match (is_r(a), is_r(b)) {
                    (true, false) => (b, true),
                    (false, true) => (a, false),
                    _ => return None,
                };
                // Of two equal zeros, the routine's first operand (`Some(true)`) or second.
                let first_on_tie = match self.binding(f.0).and_then(|b| b.shim())? {
                    Shim::Math2(g) => tie_rule(|x, y| g(f64::from_bits(x), f64::from_bits(y)).to_bits(), 0.0f64.to_bits(), (-0.0f64).to_bits(), f64::NAN.to_bits(), 1.0f64.to_bits()),
                    Shim::Math2F(g) => tie_rule(|x, y| u64::from(g(f32::from_bits(x as u32), f32::from_bits(y as u32)).to_bits()), 0, u64::from((-0.0f32).to_bits()), u64::from(f32::NAN.to_bits()), u64::from(1.0f32.to_bits())),
                    _ => None,
                }?;
                // Equal values: the held one stays when the routine keeps the operand `r` is.
                let take_equal = first_on_tie != r_first;
                same_kind(x).then_some((Reduction { local: r.0, kind, max, take_equal }, x.strip_casts()))
            }
            _ => None,
        }
    }

    /// Whether register local `l` may be a temporary of the vector body: assigned by the body,
    /// neither the counter nor one of its derived locals.
    fn is_temporary(&self, plan: &CountedLoop<'_>, l: u32) -> bool {
        l != plan.var.0 && !plan.derived.contains_key(&l) && !self.is_memory_local(accsim_core::ir::LocalId(l))
    }

    // -----------------------------------------------------------------------------------------
    // Emission.

    /// A [`Translator::symbolic_stride`] with loop-invariant factors as a value: the
    /// coefficient times each factor, computed where the translator is (a loop's entry).
    pub(crate) fn stride_value(&mut self, coefficient: i64, factors: Vec<&Expr>) -> R<Value> {
        let mut stride = self.b.ins().iconst(types::I64, coefficient);
        for f in factors {
            let v = self.expr(f)?;
            stride = self.b.ins().imul(stride, v);
        }
        Ok(stride)
    }

    /// What the exact value of the affine expression `e` ([`Translator::exact`]) grows by from
    /// one iteration to the next, as a constant coefficient times a product of loop-invariant
    /// factors (none: a constant known now): its derivative in the counter `var` through sums,
    /// differences, conversions (an exact value is its operand's), products with a
    /// loop-invariant factor, pointer steps over elements of a constant size, and derived locals
    /// (a fast share's `x = lb + k * step`). The exact values are affine in the counter and
    /// computed in wrapping 64-bit arithmetic, as this product is, so the difference between two
    /// iterations' is exactly it. Terms whose factors differ (by their computation) give `None`.
    pub(crate) fn symbolic_stride<'e>(&self, e: &'e Expr, var: accsim_core::ir::LocalId, derived: &HashMap<u32, &'e Expr>) -> Option<(i64, Vec<&'e Expr>)> {
        if !self.depends(e, var, derived) {
            return Some((0, Vec::new()));
        }
        let same = |x: &[&Expr], y: &[&Expr]| x.len() == y.len() && x.iter().zip(y).all(|(a, b)| a.same_computation(b, false));
        let sum = |x: (i64, Vec<&'e Expr>), y: (i64, Vec<&'e Expr>), negate: bool| -> Option<(i64, Vec<&'e Expr>)> {
            let y = if negate { (y.0.checked_neg()?, y.1) } else { y };
            match (x.0, y.0) {
                (0, _) => Some(y),
                (_, 0) => Some(x),
                _ if same(&x.1, &y.1) => Some((x.0.checked_add(y.0)?, x.1)),
                _ => None,
            }
        };
        let scaled = |x: (i64, Vec<&'e Expr>), factor: &'e Expr| -> Option<(i64, Vec<&'e Expr>)> {
            match factor.kind {
                ExprKind::Int(w) if (w as i64).unsigned_abs() < 1 << 32 => Some((x.0.checked_mul(w as i64)?, x.1)),
                _ => {
                    let mut f = x.1;
                    f.push(factor);
                    Some((x.0, f))
                }
            }
        };
        match &e.kind {
            ExprKind::Local(l) if *l == var => Some((1, Vec::new())),
            ExprKind::Local(l) => self.symbolic_stride(derived.get(&l.0)?, var, derived),
            ExprKind::Cast(a) => self.symbolic_stride(a, var, derived),
            ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
                sum(self.symbolic_stride(a, var, derived)?, self.symbolic_stride(b, var, derived)?, *op == BinOp::Sub)
            }
            ExprKind::Binary(BinOp::Mul, a, b) => {
                if !self.depends(a, var, derived) {
                    scaled(self.symbolic_stride(b, var, derived)?, a)
                } else if !self.depends(b, var, derived) {
                    scaled(self.symbolic_stride(a, var, derived)?, b)
                } else {
                    None
                }
            }
            ExprKind::PtrAdd { ptr, index, elem } => {
                let size = i64::try_from(self.p.types.size_of(*elem)?).ok()?;
                let (c, f) = self.symbolic_stride(index, var, derived)?;
                sum(self.symbolic_stride(ptr, var, derived)?, (c.checked_mul(size)?, f), false)
            }
            _ => None,
        }
    }

    /// In the direct version's entry block (its fuel taken): the checks of the vector loop and
    /// the loop itself, which leaves to `direct_head` with the counter of the first iteration
    /// left (`v0` when the checks fail). `ends` are the pointer words of each of `plan`'s
    /// accesses at the first and the last iteration; `frozen` and `direct` are the direct
    /// version's.
    pub fn vector_version(&mut self, l: LaneLoop<'_, '_>) -> R<()> {
        let LaneLoop { plan, ends, direct, v0, moving, .. } = l;
        let ok = self.lane_stride_checks(l)?;
        // Every moving access one element per iteration: its address a stream ([`crate::streams`]).
        let streams = self.streams(plan, ends, direct, v0, moving, true)?;
        let outer_streams = std::mem::replace(&mut self.lane_streams, streams);
        let ok = self.lane_store_checks(l, ok, false);
        let r = self.vector_loops(l, Some(ok), None);
        self.lane_streams = outer_streams;
        self.lane_at = None;
        r
    }

    /// The lane version of a loop whose lanes run every iteration ([`Translator::lanes_run_the_rest`]),
    /// in the block where its fuel was taken, the lanes' checks ([`Translator::lane_checks`]) and
    /// a trip count of at least one group having passed before: the groups of lanes, then one
    /// last group ending at iteration `last`, then to `exit` with the locals as the scalar loop
    /// leaves them.
    pub fn lanes_to_the_end(&mut self, l: LaneLoop<'_, '_>, last: Value, exit: Block) -> R<()> {
        let LaneLoop { plan, ends, direct, v0, moving, .. } = l;
        let streams = self.streams(plan, ends, direct, v0, moving, true)?;
        let outer_streams = std::mem::replace(&mut self.lane_streams, streams);
        let r = self.vector_loops(l, None, Some((last, exit)));
        self.lane_streams = outer_streams;
        self.lane_at = None;
        r
    }

    /// The checks of the lanes of a loop whose lanes run every iteration
    /// ([`Translator::lanes_run_the_rest`]), made before its fuel is taken: the strides and the
    /// stores' bytes, and a trip count of at least one group of lanes (`trip`).
    pub fn lane_checks(&mut self, l: LaneLoop<'_, '_>, trip: Value) -> R<Value> {
        let ok = self.lane_stride_checks(l)?;
        let ok = self.lane_store_checks(l, ok, true);
        let group = self.b.ins().icmp_imm_s(IntCC::UnsignedGreaterThanOrEqual, trip, l.vp.lanes);
        Ok(self.b.ins().band(ok, group))
    }

    /// Whether every access that moves moves by its size per iteration.
    fn lane_stride_checks(&mut self, l: LaneLoop<'_, '_>) -> R<Value> {
        let LaneLoop { plan, ends, v0, moving, .. } = l;
        // Every access that moves, one element per iteration.
        let mut ok = self.yes();
        let next = self.b.ins().iadd_imm_s(v0, 1);
        // The strides tested so far, by their coefficient, loop-invariant factors and size.
        let mut strides: Vec<(i64, Vec<String>, u64)> = Vec::new();
        // Parts shared by several addresses computed once (`Translator::exact_at`).
        self.exact_memo = Some(ExactMemo::default());
        for (i, &(addr, k, _, _)) in plan.accesses.iter().enumerate() {
            if moving[i] {
                // A stride known at translation (a window's accesses: the counter's coefficient
                // times the element size) is decided here; any other is the difference of the
                // exact addresses of two iterations.
                if let Some((coefficient, factors)) = self.symbolic_stride(addr, plan.var, &plan.derived) {
                    if factors.is_empty() {
                        if coefficient != k.bytes() as i64 {
                            ok = self.b.ins().iconst(types::I8, 0);
                        }
                        continue;
                    }
                    let key = (coefficient, factors.iter().map(|f| format!("{f:?}")).collect::<Vec<_>>(), k.bytes());
                    if !strides.contains(&key) {
                        let stride = self.stride_value(coefficient, factors)?;
                        let unit = self.b.ins().icmp_imm_s(IntCC::Equal, stride, k.bytes() as i64);
                        ok = self.b.ins().band(ok, unit);
                        strides.push(key);
                    }
                    continue;
                }
                let first = ends.get(i).ok_or("internal: an access without its ends")?.0;
                let (second, _) = self.exact(addr, plan.var, next, &plan.derived)?;
                let stride = self.b.ins().isub(second, first);
                let unit = self.b.ins().icmp_imm_s(IntCC::Equal, stride, k.bytes() as i64);
                ok = self.b.ins().band(ok, unit);
            }
        }
        self.exact_memo = None;
        Ok(ok)
    }

    /// `ok` and the stores' tests: each store's bytes another access's at every iteration, or
    /// apart from its bytes. With `rest` (the lanes run the last iterations again,
    /// [`Translator::lanes_run_the_rest`]), only another store's: a read of the same element
    /// would read the value an earlier run of the iteration stored.
    fn lane_store_checks(&mut self, l: LaneLoop<'_, '_>, mut ok: Value, rest: bool) -> Value {
        let LaneLoop { plan, ends, moving, .. } = l;
        // Each store's bytes: another access's at every iteration, or apart from its bytes; a
        // run of reads whose bytes form one interval ([`crate::apart::covering_reads`]) at once.
        let runs = crate::apart::covering_reads(self, &plan.accesses, plan.var, &plan.derived);
        let mut in_run = vec![false; plan.accesses.len()];
        for r in &runs {
            for &m in &r.members {
                in_run[m] = true;
            }
        }
        for (s, &(_, sk, _, s_writes)) in plan.accesses.iter().enumerate() {
            if !s_writes {
                continue;
            }
            let (sf, sl) = ends[s];
            let tested = (0..plan.accesses.len()).any(|x| x != s && !(plan.accesses[x].3 && x < s) && !in_run[x]);
            if runs.is_empty() && !tested {
                continue;
            }
            let s_end = self.b.ins().iadd_imm_s(sl, sk.bytes() as i64);
            for r in &runs {
                let xk = plan.accesses[r.high].1;
                let x_end = self.b.ins().iadd_imm_s(ends[r.high].1, xk.bytes() as i64);
                let before = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, s_end, ends[r.low].0);
                let after = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, x_end, sf);
                let apart = self.b.ins().bor(before, after);
                ok = self.b.ins().band(ok, apart);
            }
            for (x, &(_, xk, _, x_writes)) in plan.accesses.iter().enumerate() {
                if x == s || (x_writes && x < s) || in_run[x] {
                    continue;
                }
                let (xf, xl) = ends[x];
                let x_end = self.b.ins().iadd_imm_s(xl, xk.bytes() as i64);
                let before = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, s_end, xf);
                let after = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, x_end, sf);
                let mut apart = self.b.ins().bor(before, after);
                if moving[s] && moving[x] && sk.bytes() == xk.bytes() && (!rest || x_writes) {
                    let same = self.b.ins().icmp(IntCC::Equal, sf, xf);
                    apart = self.b.ins().bor(apart, same);
                }
                ok = self.b.ins().band(ok, apart);
            }
        }
        ok
    }

    /// The vector loops of [`Translator::vector_version`] (`ok`: whether the lanes' checks
    /// passed, else the scalar loop runs every iteration), or of
    /// [`Translator::lanes_to_the_end`] (`rest`: the last iteration and the loop's exit).
    fn vector_loops(&mut self, l: LaneLoop<'_, '_>, ok: Option<Value>, rest: Option<(Value, Block)>) -> R<()> {
        let LaneLoop { plan, vp, body, v0, bound, runs_cc, direct_head, direct, frozen, .. } = l;
        // The reductions' lanes, and the block that gives their locals the lanes' result before
        // the scalar loop runs the last iterations.
        let ok = match ok {
            Some(ok) => {
                let reductions_ok = self.start_reductions(&vp.reductions, v0, bound);
                Some(self.b.ins().band(ok, reductions_ok))
            }
            None => None,
        };
        let scalar_rest = if vp.reductions.is_empty() && rest.is_none() { direct_head } else { self.b.create_block() };
        // The vector loops, tested at the bottom (one taken branch per step): steps of
        // [`UNROLL`] groups of lanes while iteration c+UNROLL*L still runs (a small body), then
        // steps of one group, lanes c .. c+L-1, while iteration c+L still runs.
        let single_test = self.b.create_block();
        let at_single = self.b.append_block_param(single_test, types::I64);
        if vp.unrolled {
            let group = vp.lanes * UNROLL;
            let after = self.b.ins().iadd_imm_s(v0, group);
            let more = self.b.ins().icmp(runs_cc, after, bound);
            let enter = match ok {
                Some(ok) => self.b.ins().band(ok, more),
                None => more,
            };
            let (wide, wide_test) = (self.b.create_block(), self.b.create_block());
            let counter = self.b.append_block_param(wide, types::I64);
            match ok {
                Some(ok) => self.b.ins().brif(ok, wide_test, &[], direct_head, &[v0.into()]),
                None => self.b.ins().jump(wide_test, &[]),
            };
            self.b.switch_to_block(wide_test);
            self.b.ins().brif(enter, wide, &[v0.into()], single_test, &[v0.into()]);
            self.b.switch_to_block(wide);
            for copy in 0..UNROLL {
                self.lanes_step(plan, body, counter, copy * vp.lanes, direct, frozen)?;
            }
            let next = self.b.ins().iadd_imm_s(counter, group);
            let after = self.b.ins().iadd_imm_s(next, group);
            let more = self.b.ins().icmp(runs_cc, after, bound);
            self.b.ins().brif(more, wide, &[next.into()], single_test, &[next.into()]);
        } else {
            match ok {
                Some(ok) => self.b.ins().brif(ok, single_test, &[v0.into()], direct_head, &[v0.into()]),
                None => self.b.ins().jump(single_test, &[v0.into()]),
            };
        }
        self.b.switch_to_block(single_test);
        let after = self.b.ins().iadd_imm_s(at_single, vp.lanes);
        let more = self.b.ins().icmp(runs_cc, after, bound);
        let single = self.b.create_block();
        let counter = self.b.append_block_param(single, types::I64);
        self.b.ins().brif(more, single, &[at_single.into()], scalar_rest, &[at_single.into()]);
        self.b.switch_to_block(single);
        self.lanes_step(plan, body, counter, 0, direct, frozen)?;
        let next = self.b.ins().iadd_imm_s(counter, vp.lanes);
        let after = self.b.ins().iadd_imm_s(next, vp.lanes);
        let more = self.b.ins().icmp(runs_cc, after, bound);
        self.b.ins().brif(more, single, &[next.into()], scalar_rest, &[next.into()]);
        if let Some((last, exit)) = rest {
            // One last group, ending at the last iteration: it runs again the iterations before
            // the last that earlier groups ran (none when the trip count is a multiple of the
            // lanes), storing the same values.
            self.b.append_block_param(scalar_rest, types::I64);
            self.b.switch_to_block(scalar_rest);
            let first = self.b.ins().iadd_imm_s(last, 1 - vp.lanes);
            let temps = self.lanes_step(plan, body, first, 0, direct, frozen)?;
            self.leave_as_the_scalar_loop(plan, body, &temps, last, vp.lanes, frozen)?;
            self.b.ins().jump(exit, &[]);
            return Ok(());
        }
        if scalar_rest != direct_head {
            let rest = self.b.append_block_param(scalar_rest, types::I64);
            self.b.switch_to_block(scalar_rest);
            self.finish_reductions();
            self.b.ins().jump(direct_head, &[rest.into()]);
        }
        Ok(())
    }

    /// The integer lanes of the same width as float kind `k`'s (a comparison's mask, positions).
    fn position_type(k: Kind) -> Type {
        if k == Kind::F32 {
            types::I32X4
        } else {
            types::I64X2
        }
    }

    /// One group of lanes of reduction `r` with operand `operand`, the group's first iteration
    /// being the counter frozen for the lanes: each lane keeps the larger (smaller) of its held
    /// value and its operand, and the position of the element it holds.
    fn lanes_reduction(&mut self, plan: &CountedLoop<'_>, r: Reduction, operand: &Expr, temps: &mut HashMap<u32, Lanes>) -> R<()> {
        let lr = *self.lane_reductions.iter().find(|x| x.r.local == r.local).ok_or("internal: a reduction without its lanes")?;
        let k = r.kind;
        let x = self.lanes_expr(plan, operand, temps)?;
        let x = self.vector(k, x);
        let held = self.b.use_var(lr.values);
        let cc = match (r.max, r.take_equal) {
            (true, false) => FloatCC::GreaterThan,
            (true, true) => FloatCC::GreaterThanOrEqual,
            (false, false) => FloatCC::LessThan,
            (false, true) => FloatCC::LessThanOrEqual,
        };
        // A NaN operand compares false: the held value stays (the scalar rule, see the docs).
        let mask = self.b.ins().fcmp(cc, x, held);
        let float_mask = self.b.ins().bitcast(lane_type(k), MemFlagsData::new(), mask);
        let values = self.b.ins().bitselect(float_mask, x, held);
        self.b.def_var(lr.values, values);
        // The lanes' positions: the group's first iteration, relative to the origin, plus 0..L.
        let var = self.vars[plan.var.0 as usize];
        let c = self.read_var(var);
        let rel = self.b.ins().isub(c, lr.origin);
        let pt = Self::position_type(k);
        let first = if k == Kind::F32 { self.b.ins().ireduce(types::I32, rel) } else { rel };
        let first = self.b.ins().splat(pt, first);
        let steps: Vec<u8> = if k == Kind::F32 {
            (0..4u32).flat_map(|i| i.to_le_bytes()).collect()
        } else {
            (0..2u64).flat_map(|i| i.to_le_bytes()).collect()
        };
        let steps = self.b.func.dfg.constants.insert(steps.into());
        let steps = self.b.ins().vconst(pt, steps);
        let here = self.b.ins().iadd(first, steps);
        let old = self.b.use_var(lr.positions);
        let positions = self.b.ins().bitselect(mask, here, old);
        self.b.def_var(lr.positions, positions);
        Ok(())
    }

    /// Before the vector loop: each reduction's lanes hold its value at entry (position -1).
    /// Returns whether the lanes can run: no value at entry is a NaN (a NaN held would make the
    /// lanes' order matter to `fmax`), and with 32-bit positions the trip count fits them.
    fn start_reductions(&mut self, reductions: &[Reduction], v0: Value, bound: Value) -> Value {
        let mut ok = self.yes();
        self.lane_reductions.clear();
        for &r in reductions {
            let var = self.vars[r.local as usize];
            let at_entry = self.b.use_var(var);
            let ordered = self.b.ins().fcmp(FloatCC::Ordered, at_entry, at_entry);
            ok = self.b.ins().band(ok, ordered);
            let values = self.b.declare_var(lane_type(r.kind));
            let lanes = self.b.ins().splat(lane_type(r.kind), at_entry);
            self.b.def_var(values, lanes);
            let pt = Self::position_type(r.kind);
            let positions = self.b.declare_var(pt);
            let none = if r.kind == Kind::F32 {
                let span = self.b.ins().isub(bound, v0);
                let fits = self.b.ins().icmp_imm_s(IntCC::UnsignedLessThan, span, i64::from(i32::MAX) - 8);
                ok = self.b.ins().band(ok, fits);
                self.b.ins().iconst(types::I32, -1)
            } else {
                self.b.ins().iconst(types::I64, -1)
            };
            let none = self.b.ins().splat(pt, none);
            self.b.def_var(positions, none);
            self.lane_reductions.push(LaneReduction { r, values, positions, origin: v0 });
        }
        ok
    }

    /// After the vector loop: each reduction's local gets the value the iterations run so far
    /// give in order: the larger (smaller) of the lanes' values, and of lanes holding equal
    /// values (two zeros of different signs are the only equal values of different bits) the one
    /// whose element came first (last, when an equal operand replaces the held value) — the
    /// element the scalar loop would hold.
    fn finish_reductions(&mut self) {
        for lr in std::mem::take(&mut self.lane_reductions) {
            let r = lr.r;
            let lanes = if r.kind == Kind::F32 { 4 } else { 2 };
            let values = self.b.use_var(lr.values);
            let positions = self.b.use_var(lr.positions);
            let mut best = self.b.ins().extractlane(values, 0);
            let mut at = self.b.ins().extractlane(positions, 0);
            for i in 1..lanes {
                let v = self.b.ins().extractlane(values, i);
                let p = self.b.ins().extractlane(positions, i);
                let beyond = self.b.ins().fcmp(if r.max { FloatCC::GreaterThan } else { FloatCC::LessThan }, v, best);
                let equal = self.b.ins().fcmp(FloatCC::Equal, v, best);
                let order = self.b.ins().icmp(if r.take_equal { IntCC::SignedGreaterThan } else { IntCC::SignedLessThan }, p, at);
                let tie = self.b.ins().band(equal, order);
                let better = self.b.ins().bor(beyond, tie);
                best = self.b.ins().select(better, v, best);
                at = self.b.ins().select(better, p, at);
            }
            let var = self.vars[r.local as usize];
            self.b.def_var(var, best);
        }
    }

    /// One group of lanes of the body, the first lane's counter `counter + lead`.
    fn lanes_step(&mut self, plan: &CountedLoop<'_>, body: &Stmt, counter: Value, lead: i64, direct: &HashMap<*const Expr, Value>, frozen: &HashMap<usize, Value>) -> R<HashMap<u32, Lanes>> {
        let c = if lead == 0 { counter } else { self.b.ins().iadd_imm_s(counter, lead) };
        self.lane_at = Some((counter, lead));
        let var = self.vars[plan.var.0 as usize];
        let mut lane_frozen = frozen.clone();
        lane_frozen.insert(var.index(), c);
        let saved = (
            std::mem::replace(&mut self.direct, direct.clone()),
            std::mem::replace(&mut self.frozen, lane_frozen),
            std::mem::replace(&mut self.prepaid, plan.prepaid.clone()),
        );
        let mut temps = HashMap::default();
        let r = self.lanes_stmt(plan, body, &mut temps);
        (self.direct, self.frozen, self.prepaid) = saved;
        r.map(|()| temps)
    }

    pub(crate) fn lanes_stmt(&mut self, plan: &CountedLoop<'_>, s: &Stmt, temps: &mut HashMap<u32, Lanes>) -> R<()> {
        match &s.kind {
            StmtKind::Empty => Ok(()),
            StmtKind::Block(ss) => ss.iter().try_for_each(|s| self.lanes_stmt(plan, s, temps)),
            // The first lane's value, for the addresses.
            _ if self.derived_assignment(plan, s) => self.stmt(s),
            StmtKind::Expr(e) => match self.reduction(plan, e) {
                Some((r, operand)) => self.lanes_reduction(plan, r, operand, temps),
                None => self.lanes_expr(plan, e, temps).map(|_| ()),
            },
            StmtKind::For { .. } => {
                let table: &'a crate::unroll::UnrollTable = self.unrolled;
                let u = table.get(&(s as *const Stmt)).ok_or("internal: a loop in a vector body")?;
                self.lanes_stmt(plan, &u.block, temps)
            }
            _ => Err("internal: a statement the vector plan refuses".into()),
        }
    }

    /// The lanes of `w`, a word of kind `k` (the same in each).
    fn splat(&mut self, k: Kind, w: Value) -> Value {
        let x = match k {
            Kind::F64 => self.word_as_f64(w),
            Kind::F32 => self.word_as_f32(w),
            Kind::I32 | Kind::U32 => self.b.ins().ireduce(types::I32, w),
            _ => w,
        };
        self.b.ins().splat(lane_type(k), x)
    }

    pub(crate) fn vector(&mut self, k: Kind, v: Lanes) -> Value {
        match v {
            Lanes::Each(x) => x,
            Lanes::Same(w) => self.splat(k, w),
        }
    }

    /// The host address of a moving access (checked at entry) for the first lane, as an address
    /// and a constant offset: its stream's ([`Translator::stream_address`]), or else the address
    /// expression computed.
    pub(crate) fn lanes_address(&mut self, a: &Expr) -> R<(Value, i32)> {
        if let Some(x) = self.stream_address(a)? {
            return Ok(x);
        }
        let bias = self.direct.get(&(a as *const Expr)).copied().ok_or("internal: an unchecked access in a vector body")?;
        Ok((self.direct_address(a, bias)?, 0))
    }

    fn lane_binary(&mut self, op: BinOp, k: Kind, x: Value, y: Value) -> R<Value> {
        let ins = self.b.ins();
        Ok(match (op, k.is_float()) {
            (BinOp::Add, true) => ins.fadd(x, y),
            (BinOp::Sub, true) => ins.fsub(x, y),
            (BinOp::Mul, true) => ins.fmul(x, y),
            (BinOp::Div, true) => ins.fdiv(x, y),
            (BinOp::Add, false) => ins.iadd(x, y),
            (BinOp::Sub, false) => ins.isub(x, y),
            (BinOp::BitAnd, false) => ins.band(x, y),
            (BinOp::BitOr, false) => ins.bor(x, y),
            (BinOp::BitXor, false) => ins.bxor(x, y),
            _ => return Err(format!("internal: {op:?} in lanes")),
        })
    }

    fn lanes_expr(&mut self, plan: &CountedLoop<'_>, e: &Expr, temps: &mut HashMap<u32, Lanes>) -> R<Lanes> {
        if self.uniform(plan, e) {
            return Ok(Lanes::Same(self.expr(e)?));
        }
        let k = self.kind_of(e.ty);
        Ok(match &e.kind {
            ExprKind::Local(l) => *temps.get(&l.0).ok_or("internal: a temporary read before it is assigned")?,
            ExprKind::Load(a) => match self.held.get(&(&**a as *const Expr)).copied() {
                // An element of each lane held in a vector variable ([`crate::outer`]).
                Some((v, _)) => Lanes::Each(self.b.use_var(v)),
                None => {
                    let (host, offset) = self.lanes_address(a)?;
                    Lanes::Each(self.b.ins().load(lane_type(k), lane_flags(), host, offset))
                }
            },
            ExprKind::Unary(op, a) => {
                let x = self.lanes_expr(plan, a, temps)?;
                let x = self.vector(k, x);
                Lanes::Each(match (op, k.is_float()) {
                    (UnOp::Neg, true) => self.b.ins().fneg(x),
                    (UnOp::Neg, false) => self.b.ins().ineg(x),
                    _ => self.b.ins().bnot(x),
                })
            }
            ExprKind::Binary(op, a, b) => {
                let x = self.lanes_expr(plan, a, temps)?;
                let y = self.lanes_expr(plan, b, temps)?;
                let (x, y) = (self.vector(k, x), self.vector(k, y));
                Lanes::Each(self.lane_binary(*op, k, x, y)?)
            }
            ExprKind::Cast(a) => self.lanes_expr(plan, a, temps)?,
            ExprKind::Call { args, .. } => {
                let sqrt = self.lane_math(e).ok_or("internal: a call the vector plan refuses")?;
                let a = args.first().ok_or("internal: a math call without its operand")?;
                let x = self.lanes_expr(plan, a, temps)?;
                let x = self.vector(k, x);
                Lanes::Each(if sqrt { self.b.ins().sqrt(x) } else { self.b.ins().fabs(x) })
            }
            ExprKind::Assign { place, value } => {
                let v = self.lanes_expr(plan, value, temps)?;
                match place {
                    Place::Mem(a) => {
                        let x = self.vector(k, v);
                        match self.held.get(&(&**a as *const Expr)).copied() {
                            Some((held, _)) => self.b.def_var(held, x),
                            None => {
                                let (host, offset) = self.lanes_address(a)?;
                                self.b.ins().store(lane_flags(), x, host, offset);
                            }
                        }
                    }
                    Place::Local(l) => {
                        temps.insert(l.0, v);
                    }
                }
                v
            }
            ExprKind::CompoundAssign { op, place, value, .. } => {
                let y = self.lanes_expr(plan, value, temps)?;
                let y = self.vector(k, y);
                match place {
                    Place::Mem(a) => match self.held.get(&(&**a as *const Expr)).copied() {
                        Some((held, _)) => {
                            let old = self.b.use_var(held);
                            let new = self.lane_binary(*op, k, old, y)?;
                            self.b.def_var(held, new);
                            Lanes::Each(new)
                        }
                        None => {
                            let (host, offset) = self.lanes_address(a)?;
                            let old = self.b.ins().load(lane_type(k), lane_flags(), host, offset);
                            let new = self.lane_binary(*op, k, old, y)?;
                            self.b.ins().store(lane_flags(), new, host, offset);
                            Lanes::Each(new)
                        }
                    },
                    Place::Local(l) => {
                        let old = *temps.get(&l.0).ok_or("internal: a temporary read before it is assigned")?;
                        let old = self.vector(k, old);
                        let new = Lanes::Each(self.lane_binary(*op, k, old, y)?);
                        temps.insert(l.0, new);
                        new
                    }
                }
            }
            _ => return Err("internal: an expression the vector plan refuses".into()),
        })
    }
}
