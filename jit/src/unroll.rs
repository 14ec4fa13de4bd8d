//! Loops of a few constant iterations, unrolled (issue 15): a stencil's window (`for (dy = -2;
//! dy <= 2; dy++) for (dx = -2; dx <= 2; dx++) s += w[…] * img[(y+dy)*W + (x+dx)]`) becomes
//! straight-line code, one copy of the body per iteration with the counter a constant in it, so
//! that the loop around the window is an innermost counted loop whose accesses are affine in its
//! own counter: their bounds are checked once at that loop's entry ([`crate::loops`]) instead of
//! once per window row.
//!
//! A loop `for (v = C0; v OP C1; v++ | v-- | v += 1 | v -= 1)` is unrolled when `v` is a register
//! integer local the body never assigns, the trip count is between 1 and [`MAX_TRIP`], the copies
//! stay under [`MAX_NODES`] expressions, and the body holds no `break`, `continue`, `return`,
//! `goto`, `switch`, OpenACC statement or other loop (inner loops that are themselves unrolled
//! aside, when nothing conditional surrounds them). After the copies, `v` is assigned the value
//! the loop leaves in it.
//!
//! The interpreter burns one unit of fuel per back edge: the unrolled copies burn the loop's
//! whole count at once, and only when that much fuel is at hand; otherwise the translator runs
//! the loop as it is, so a program that runs out of fuel stops at the same iteration
//! ([`crate::translate::Translator`]'s `for_loop`).

use crate::HashMap;

use accsim_core::exec::value::Kind;
use accsim_core::ir::visit::{visit_stmt_exprs_mut, walk};
use accsim_core::ir::{BinOp, Expr, ExprKind, Function, LocalId, Place, Program, Stmt, StmtKind, Storage};

/// Most iterations of an unrolled loop.
const MAX_TRIP: usize = 16;
/// Most expressions in all copies of an unrolled loop's body.
const MAX_NODES: usize = 4096;

/// A loop's unrolled form.
pub struct Unrolled {
    /// The copies of the body and the final assignment of the counter.
    pub block: Stmt,
    /// The fuel the loop burns (its back edges and those of the loops it holds).
    pub fuel: u64,
}

/// The unrolled form of each loop of `f` that has one, by the loop's statement.
pub type UnrollTable = HashMap<*const Stmt, Unrolled>;

/// Most iterations, all its loops together, of a loop nest of a function that runs once whose
/// loops are translated as they are ([`small_nests`]).
const SMALL_NEST_ITERATIONS: u64 = 1024;

/// The loops of `root` (a statement of `f`, [`unroll_table`]) that lie in a *small nest*: `f` runs once (`runs_once`, see
/// [`unroll_table`]) and the loop lying in no other loop that holds them runs, with all the
/// loops in it, at most [`SMALL_NEST_ITERATIONS`] iterations, counted from constant bounds
/// (every loop in it a `for` of a constant trip count, as [`unroll_table`] counts them; no
/// `while`, `do` or `goto`). Such loops run once, a few iterations: the translator leaves them
/// as they are, neither unrolled nor in two versions with entry checks and lanes
/// ([`crate::loops`]), which save a few nanoseconds per iteration and cost hundreds of
/// microseconds of code generation (issue 15's compile time: a 5 × 5 weight table filled in
/// `main` was a loop in three versions with an unrolled body).
pub fn small_nests(p: &Program, f: &Function, root: &Stmt, runs_once: bool) -> crate::HashSet<*const Stmt> {
    let mut small = crate::HashSet::default();
    if !runs_once {
        return small;
    }
    for top in outermost_loops(root) {
        if nest_iterations(p, f, top).is_some_and(|n| n <= SMALL_NEST_ITERATIONS) {
            walk(top, true, &mut |x| {
                if matches!(x.kind, StmtKind::For { .. }) {
                    small.insert(x as *const Stmt);
                }
            }, &mut |_| {});
        }
    }
    small
}

/// The loops of `s` that lie in no other loop of it.
fn outermost_loops(s: &Stmt) -> Vec<&Stmt> {
    let mut out = Vec::new();
    let mut inside = crate::HashSet::default();
    walk(s, true, &mut |x| {
        if let StmtKind::For { body, .. } | StmtKind::While(_, body) | StmtKind::DoWhile(body, _) = &x.kind {
            if !inside.contains(&(x as *const Stmt)) {
                out.push(x);
            }
            walk(body, true, &mut |y| {
                inside.insert(y as *const Stmt);
            }, &mut |_| {});
        }
    }, &mut |_| {});
    out
}

/// The iterations of loop `s` and of all the loops in it, when every one is a `for` of a
/// constant trip count and none is many (`None` otherwise).
fn nest_iterations(p: &Program, f: &Function, s: &Stmt) -> Option<u64> {
    let StmtKind::For { body, .. } = &s.kind else { return None };
    let trips = constant_trips(p, f, s)?;
    let mut jumps = false;
    walk(body, true, &mut |x| jumps |= matches!(x.kind, StmtKind::Goto(_) | StmtKind::Partition(_)), &mut |_| {});
    if jumps {
        return None;
    }
    let mut inner = 0u64;
    for l in outermost_loops(body) {
        inner = inner.checked_add(nest_iterations(p, f, l)?)?;
    }
    let n = trips.checked_mul(inner.checked_add(1)?)?;
    (n <= SMALL_NEST_ITERATIONS).then_some(n)
}

/// The trip count of `for (v = C0; v OP C1; v++ | v--)` (as [`unrolled`] reads it), when it is
/// at most [`SMALL_NEST_ITERATIONS`].
fn constant_trips(p: &Program, f: &Function, s: &Stmt) -> Option<u64> {
    Some(counted(p, f, s, SMALL_NEST_ITERATIONS as usize)?.values.len() as u64)
}

/// A loop `for (v = C0; v OP C1; v++ | v--)` whose body does not assign `v`, read with its
/// constants: the values `v` takes, in order, and its value when the loop ends.
struct Counted<'a> {
    v: LocalId,
    kind: Kind,
    values: Vec<i64>,
    exit: i64,
    body: &'a Stmt,
}

/// Loop statement `s` as a [`Counted`] loop of at most `limit` iterations, each value of the
/// counter's type.
fn counted<'a>(p: &Program, f: &Function, s: &'a Stmt, limit: usize) -> Option<Counted<'a>> {
    let StmtKind::For { init: Some(init), cond: Some(cond), step: Some(step), body } = &s.kind else { return None };
    let (v, first) = constant_init(init)?;
    let k = counter_kind(p, f, v)?;
    let ExprKind::Binary(op, lhs, rhs) = &cond.kind else { return None };
    let (ExprKind::Local(x), ExprKind::Int(bound)) = (&lhs.kind, &rhs.kind) else { return None };
    if *x != v || Kind::of(&p.types, lhs.ty) != k || Kind::of(&p.types, rhs.ty) != k || touches(body, v) {
        return None;
    }
    let bound = *bound as i64;
    let delta = unit_step(step, v)?;
    let holds = |x: i64| match op {
        BinOp::Lt => x < bound,
        BinOp::Le => x <= bound,
        BinOp::Gt => x > bound,
        BinOp::Ge => x >= bound,
        BinOp::Ne => x != bound,
        _ => false,
    };
    if !matches!(op, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Ne) {
        return None;
    }
    let mut values = Vec::new();
    let mut at = first;
    while holds(at) {
        if values.len() == limit || !fits(k, at) {
            return None;
        }
        values.push(at);
        at = at.checked_add(delta)?;
    }
    Some(Counted { v, kind: k, values, exit: at, body })
}

/// The loops of `f` to unroll, among the statements of `root` (its body, or the loop of a part
/// translated on its own: [`crate::outline`], [`crate::loop_entry`]). `runs_once`: nothing in
/// the program calls `f` (`main`): a loop of `root` that lies in no other loop runs once in the
/// run, and is left as it is (its copies
/// would be code to compile for a few iterations run once; issue 15's compile time), and so are
/// the loops of its small nests ([`small_nests`]).
pub fn unroll_table(p: &Program, f: &Function, root: &Stmt, runs_once: bool) -> UnrollTable {
    let small = small_nests(p, f, root, runs_once);
    let mut loops = Vec::new();
    let mut nested = crate::HashSet::default();
    walk(root, true, &mut |s| {
        let body = match &s.kind {
            StmtKind::For { body, .. } | StmtKind::While(_, body) | StmtKind::DoWhile(body, _) => Some(&**body),
            StmtKind::Partition(part) => Some(&part.body),
            _ => None,
        };
        if let (true, Some(body)) = (runs_once, body) {
            walk(body, true, &mut |x| {
                nested.insert(x as *const Stmt);
            }, &mut |_| {});
        }
        if matches!(s.kind, StmtKind::For { .. }) {
            loops.push(s);
        }
    }, &mut |_| {});
    loops
        .into_iter()
        .filter(|&s| !runs_once || nested.contains(&(s as *const Stmt)))
        .filter(|&s| !small.contains(&(s as *const Stmt)))
        .filter_map(|s| unrolled(p, f, s).map(|u| (s as *const Stmt, u)))
        .collect()
}

/// The integer kind of register local `v`, when it is one a loop counter may be.
fn counter_kind(p: &Program, f: &Function, v: LocalId) -> Option<Kind> {
    let l = f.locals.get(v.0 as usize)?;
    let k = Kind::of(&p.types, l.ty);
    (l.storage == Storage::Register && matches!(k, Kind::I32 | Kind::I64) && !f.params.contains(&v)).then_some(k)
}

/// `v = C` (alone, or alone in a block): the local and the constant.
fn constant_init(s: &Stmt) -> Option<(LocalId, i64)> {
    let e = match &s.kind {
        StmtKind::Expr(e) => e,
        StmtKind::Block(ss) if ss.len() == 1 => return constant_init(&ss[0]),
        _ => return None,
    };
    match &e.kind {
        ExprKind::Assign { place: Place::Local(v), value } => match value.kind {
            ExprKind::Int(c) => Some((*v, c as i64)),
            _ => None,
        },
        _ => None,
    }
}

/// The step of `v` by the statement's step expression: +1 or -1.
fn unit_step(step: &Expr, v: LocalId) -> Option<i64> {
    match &step.kind {
        ExprKind::IncDec { place: Place::Local(x), delta, .. } if *x == v && delta.abs() == 1 => Some(*delta as i64),
        ExprKind::CompoundAssign { op, place: Place::Local(x), value, .. } if *x == v => {
            let ExprKind::Int(c) = value.kind else { return None };
            match (op, c as i64) {
                (BinOp::Add, 1) | (BinOp::Sub, -1) => Some(1),
                (BinOp::Sub, 1) | (BinOp::Add, -1) => Some(-1),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Whether the body of a loop assigns `v` or takes its address.
fn touches(body: &Stmt, v: LocalId) -> bool {
    let mut hit = false;
    walk(body, true, &mut |_| {}, &mut |e| match &e.kind {
        ExprKind::Assign { place: Place::Local(x), .. }
        | ExprKind::CompoundAssign { place: Place::Local(x), .. }
        | ExprKind::IncDec { place: Place::Local(x), .. }
        | ExprKind::LocalAddr(x)
            if *x == v =>
        {
            hit = true
        }
        _ => {}
    });
    hit
}

/// The number of expressions in `s`.
fn size(s: &Stmt) -> usize {
    let mut n = 0;
    walk(s, true, &mut |_| {}, &mut |_| n += 1);
    n
}

/// Whether `s` holds a statement that leaves straight-line code (a loop, a jump, a `switch`,
/// an OpenACC statement).
fn leaves(s: &Stmt) -> bool {
    let mut hit = false;
    walk(s, true, &mut |x| {
        if !matches!(x.kind, StmtKind::Empty | StmtKind::Expr(_) | StmtKind::Block(_) | StmtKind::If(..)) {
            hit = true;
        }
    }, &mut |_| {});
    hit
}

/// `s` with its unrollable inner loops replaced by their copies, and the fuel those burn; `None`
/// when it holds anything else that leaves straight-line code, or an inner loop under a
/// condition.
fn straight(p: &Program, f: &Function, s: &Stmt) -> Option<(Stmt, u64)> {
    match &s.kind {
        StmtKind::Block(ss) => {
            let mut out = Vec::with_capacity(ss.len());
            let mut fuel = 0u64;
            for x in ss {
                let (y, n) = straight(p, f, x)?;
                out.push(y);
                fuel = fuel.checked_add(n)?;
            }
            Some((Stmt { kind: StmtKind::Block(out), loc: s.loc }, fuel))
        }
        StmtKind::For { .. } => {
            let u = unrolled(p, f, s)?;
            Some((u.block, u.fuel))
        }
        _ if leaves(s) => None,
        _ => Some((s.clone(), 0)),
    }
}

/// Whether `x` is a value of integer kind `k` (whose word is then `x` sign-extended).
fn fits(k: Kind, x: i64) -> bool {
    match k {
        Kind::I32 => i32::try_from(x).is_ok(),
        _ => true,
    }
}

/// Loop statement `s` unrolled, when it is one of the module's loops.
fn unrolled(p: &Program, f: &Function, s: &Stmt) -> Option<Unrolled> {
    let Counted { v, kind: k, values, exit: at, body } = counted(p, f, s, MAX_TRIP)?;
    if values.is_empty() || !fits(k, at) {
        return None;
    }
    let (inner, inner_fuel) = straight(p, f, body)?;
    if size(&inner).saturating_mul(values.len()) > MAX_NODES {
        return None;
    }
    let ty = f.locals.get(v.0 as usize)?.ty;
    let constant = |c: i64, loc| Expr { kind: ExprKind::Int(c as u64), ty, loc };
    let mut copies = Vec::with_capacity(values.len() + 1);
    for &c in &values {
        let mut copy = inner.clone();
        visit_stmt_exprs_mut(&mut copy, &mut |e: &mut Expr| {
            if matches!(e.kind, ExprKind::Local(x) if x == v) {
                *e = constant(c, e.loc);
                return false;
            }
            true
        });
        // The counter's arithmetic, now on constants, folded (a window's `(dy + 2) * 5 +
        // (dx + 2)` is one constant in each copy, not five instructions).
        visit_stmt_exprs_mut(&mut copy, &mut |e: &mut Expr| {
            fold_constants(p, e);
            true
        });
        copies.push(copy);
    }
    let last = Expr {
        kind: ExprKind::Assign { place: Place::Local(v), value: Box::new(constant(at, s.loc)) },
        ty,
        loc: s.loc,
    };
    copies.push(Stmt { kind: StmtKind::Expr(last), loc: s.loc });
    let fuel = (values.len() as u64).checked_mul(inner_fuel.checked_add(1)?)?;
    Some(Unrolled { block: Stmt { kind: StmtKind::Block(copies), loc: s.loc }, fuel })
}

/// Fold the integer additions, subtractions, multiplications and integer conversions of
/// constants in `e` (through chains of them), as both engines compute them: the operation on
/// 64-bit words, wrapped to the result's type (two's complement, as C's unsigned arithmetic
/// and as accsim's signed arithmetic), the word canonical for that type (sign-extended for a
/// signed type). Anything else is left as it is.
fn fold_constants(p: &Program, e: &mut Expr) {
    let int_type = |ty| match p.types.get(ty) {
        accsim_core::ir::Type::Int(it) => Some(*it),
        _ => None,
    };
    let folded = match &mut e.kind {
        ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul), a, b) => {
            fold_constants(p, a);
            fold_constants(p, b);
            match (&a.kind, &b.kind, int_type(e.ty)) {
                (ExprKind::Int(x), ExprKind::Int(y), Some(it)) if a.ty == e.ty && b.ty == e.ty => Some(it.wrap(match op {
                    BinOp::Add => x.wrapping_add(*y),
                    BinOp::Sub => x.wrapping_sub(*y),
                    _ => x.wrapping_mul(*y),
                })),
                _ => None,
            }
        }
        ExprKind::Cast(a) => {
            fold_constants(p, a);
            match (&a.kind, int_type(a.ty), int_type(e.ty)) {
                (ExprKind::Int(x), Some(_), Some(to)) => Some(to.wrap(*x)),
                _ => None,
            }
        }
        _ => None,
    };
    if let Some(v) = folded {
        e.kind = ExprKind::Int(v);
    }
}
