//! Kernels that are the same code up to the order of their captures (issue 16).
//!
//! A Jacobi sweep written twice (`a` → `b`, then `b` → `a`) outlines two kernels with the
//! parameters in clause order, `(&a, &b)` both times, and the preamble that reads each captured
//! array's address in that order: the kernels are the same code once the first one's parameters
//! are swapped, but their IR differs, so [`crate::shared`] would find nothing to share. The
//! engine translates such a kernel in a canonical form instead ([`canonical`]): its captures
//! ordered by their first use in the body (after the preamble), its locals renamed to match and
//! the preamble's reads in the new order; the launch passes the arguments in that order
//! (`Engine::call`). Both sweeps then have one canonical form, the same Cranelift IR and one
//! machine code, each with its own source locations.
//!
//! Renaming locals changes nothing a program observes. Reordering the preamble's reads does not
//! either: each reads a capture address the launch made from present data (§2.6: a compute
//! construct's data is present before its body runs), into a local the other reads do not
//! touch, and nothing is written between them. Only kernels whose locals are all registers,
//! whose bodies hold no OpenACC statement and whose types name no local (variable-length
//! arrays) are put in this form (a frame's layout, the interpreter's OpenACC sites and a VLA
//! type follow the original numbering).

use crate::HashMap;

use accsim_core::ir::visit::{visit_stmt_exprs_mut, walk};
use accsim_core::ir::{Expr, ExprKind, Function, LocalId, LocalRole, Place, Program, Stmt, StmtKind, Storage, Type, TypeId, TypeTable};

/// A kernel in canonical form and how to pass its arguments: position `i` of the canonical
/// function takes the argument of position `order[i]` of the original.
pub struct Canonical {
    pub func: Function,
    pub order: Vec<usize>,
}

/// The preamble statement `x = *p` (`p` a capture address parameter): `(x, p)`.
fn preamble_read(s: &Stmt, f: &Function) -> Option<(LocalId, LocalId)> {
    let StmtKind::Expr(Expr { kind: ExprKind::Assign { place: Place::Local(x), value }, .. }) = &s.kind else { return None };
    let ExprKind::Load(a) = &value.kind else { return None };
    let ExprKind::Local(p) = a.kind.clone() else { return None };
    let capture = f.params.contains(&p) && f.locals.get(p.0 as usize).is_some_and(|l| l.role == LocalRole::CaptureAddress);
    (capture && !f.params.contains(x)).then_some((*x, p))
}

/// Whether type `ty` is or points to a variable-length array, whose type names the local
/// holding its count (renaming locals would leave the type naming the old one).
fn names_a_local(types: &TypeTable, ty: TypeId) -> bool {
    match types.get(ty) {
        Type::Vla(..) => true,
        Type::Pointer(t) | Type::Array(t, _) => names_a_local(types, *t),
        _ => false,
    }
}

/// Whether the canonical form may be used for `f` (see the module's documentation).
fn applicable(p: &Program, f: &Function) -> bool {
    if f.locals.iter().any(|l| l.storage != Storage::Register || names_a_local(&p.types, l.ty)) {
        return false;
    }
    let (mut stmts_ok, mut exprs_ok) = (true, true);
    walk(
        &f.body,
        true,
        &mut |s| {
            if matches!(s.kind, StmtKind::Acc { .. } | StmtKind::AccLaunch(_) | StmtKind::Partition(_) | StmtKind::VlaAlloc(_)) {
                stmts_ok = false;
            }
        },
        &mut |e| {
            if names_a_local(&p.types, e.ty) || matches!(e.kind, ExprKind::CompoundAssign { op_ty, .. } if names_a_local(&p.types, op_ty)) {
                exprs_ok = false;
            }
        },
    );
    stmts_ok && exprs_ok
}

/// `f` in canonical form, or `None` when it is already (or may not be put in it).
pub fn canonical(p: &Program, f: &Function) -> Option<Canonical> {
    if !applicable(p, f) {
        return None;
    }
    let StmtKind::Block(stmts) = &f.body.kind else { return None };
    // The preamble: the leading reads of capture addresses, each into its own local.
    let mut preamble: Vec<(LocalId, LocalId)> = Vec::new();
    for s in stmts {
        match preamble_read(s, f) {
            Some((x, p)) if !preamble.iter().any(|&(y, q)| y == x || q == p) => preamble.push((x, p)),
            _ => break,
        }
    }
    // The parameters that may move (not the launch's own: gang, gang count, ...), in the order
    // of their first use after the preamble (a preamble local's use is its parameter's), then
    // those never used, in their order.
    let movable: Vec<LocalId> = f.params.iter().copied().filter(|p| f.locals.get(p.0 as usize).is_some_and(|l| l.role != LocalRole::LaunchParam)).collect();
    let param_of: HashMap<LocalId, LocalId> = preamble.iter().map(|&(x, p)| (x, p)).chain(movable.iter().map(|&p| (p, p))).collect();
    let mut order: Vec<LocalId> = Vec::new();
    let mut note = |l: LocalId| {
        if let Some(&p) = param_of.get(&l) {
            if !order.contains(&p) {
                order.push(p);
            }
        }
    };
    for s in &stmts[preamble.len()..] {
        walk(s, true, &mut |_| {}, &mut |e: &Expr| match &e.kind {
            ExprKind::Local(l) => note(*l),
            ExprKind::Assign { place: Place::Local(l), .. } | ExprKind::CompoundAssign { place: Place::Local(l), .. } | ExprKind::IncDec { place: Place::Local(l), .. } => note(*l),
            _ => {}
        });
    }
    order.extend(movable.iter().copied().filter(|p| !order.contains(p)).collect::<Vec<_>>());
    if order == movable {
        return None;
    }
    // The renaming: the parameter that comes i-th takes the id of the i-th movable parameter,
    // and its preamble local the id of the i-th preamble local (in id order); the other locals
    // keep theirs.
    let mut rename: HashMap<LocalId, LocalId> = movable.iter().zip(&order).map(|(&to, &from)| (from, to)).collect();
    let mut targets: Vec<LocalId> = preamble.iter().map(|&(x, _)| x).collect();
    targets.sort_unstable();
    let pre_of = |p: LocalId| preamble.iter().find(|&&(_, q)| q == p).map(|&(x, _)| x);
    for (x, to) in order.iter().filter_map(|&p| pre_of(p)).zip(targets) {
        rename.insert(x, to);
    }
    let new = |l: LocalId| rename.get(&l).copied().unwrap_or(l);
    let mut locals = f.locals.clone();
    for (&from, &to) in &rename {
        locals[to.0 as usize] = f.locals[from.0 as usize].clone();
    }
    let mut body_stmts: Vec<Stmt> = stmts.clone();
    // The preamble's reads in the order of their (renamed) targets.
    body_stmts[..preamble.len()].sort_by_key(|s| preamble_read(s, f).map(|(x, _)| new(x)));
    let mut body = Stmt { kind: StmtKind::Block(body_stmts), loc: f.body.loc };
    visit_stmt_exprs_mut(&mut body, &mut |e: &mut Expr| {
        match &mut e.kind {
            ExprKind::Local(l) => *l = new(*l),
            ExprKind::Assign { place: Place::Local(l), .. } | ExprKind::CompoundAssign { place: Place::Local(l), .. } | ExprKind::IncDec { place: Place::Local(l), .. } => *l = new(*l),
            _ => {}
        }
        true
    });
    // Position i of the canonical function holds the local that was at the position of the
    // local renamed to its id.
    let back: HashMap<LocalId, LocalId> = rename.iter().map(|(&from, &to)| (to, from)).collect();
    let position = |l: LocalId| f.params.iter().position(|&p| p == l);
    let order = f
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| back.get(p).and_then(|&from| position(from)).unwrap_or(i))
        .collect();
    let func = Function {
        name: f.name.clone(),
        ty: f.ty,
        ret: f.ret,
        params: f.params.clone(),
        locals,
        body,
        variadic: f.variadic,
        loc: f.loc,
        origin: f.origin,
    };
    Some(Canonical { func, order })
}
