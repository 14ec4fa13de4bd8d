//! Memory locals kept in registers ("mem2reg", issue 15): a scalar local the lowering put in the
//! frame's memory (its address is taken, or the kernels outliner homes a region's locals there)
//! whose address is only ever read or written in place — `*&x`, `*&x = v`, `*&x += v`, `(*&x)++`,
//! each at the local's own kind — is a Cranelift variable in native code, as a register local
//! is, so its loops are counted loops ([`crate::loops`]) and its value stays in a register.
//!
//! Nothing but native code can see such a local: its address never reaches a pointer variable,
//! an argument, a cast or a pointer sum. The frame still allocates it (the interpreter's
//! prologue, so allocation ids, and with them every pointer word the program prints, are the
//! same on both engines). OpenACC statements, which the interpreter runs
//! ([`crate::translate::Translator`]'s `run_site`) and which may name the local in a clause
//! (a `kernels` region's scalars are `copy`, §2.6.1 in the 2.0 draft's numbering), see its memory:
//! the value is stored there before each such statement and read back after it.

use crate::HashSet;

use accsim_core::exec::value::Kind;
use accsim_core::ir::visit::{visit_stmt_exprs_mut, walk};
use accsim_core::ir::{Expr, ExprKind, Function, LocalId, Place, Program, Storage};

/// Whether a value of kind `k` fits a Cranelift variable as the translator keeps register locals.
fn scalar(k: Kind) -> bool {
    k.is_int() || matches!(k, Kind::F32 | Kind::F64 | Kind::Ptr)
}

/// The memory local whose address `e` is, when `e` is exactly `&local`.
fn local_address(e: &Expr) -> Option<LocalId> {
    match e.kind {
        ExprKind::LocalAddr(l) => Some(l),
        _ => None,
    }
}

/// By local of `f`: whether it is a memory local native code may keep in a variable (see the
/// module docs). Parameters stay in memory (their argument is copied there by the prologue).
pub fn promotable(p: &Program, f: &Function) -> Vec<bool> {
    let kind_of_local = |l: LocalId| f.locals.get(l.0 as usize).map(|x| Kind::of(&p.types, x.ty));
    let mut ok: Vec<bool> = f
        .locals
        .iter()
        .map(|l| l.storage == Storage::Memory && scalar(Kind::of(&p.types, l.ty)))
        .collect();
    for l in &f.params {
        if let Some(x) = ok.get_mut(l.0 as usize) {
            *x = false;
        }
    }
    if !ok.iter().any(|&x| x) {
        return ok;
    }
    // The `&x` expressions that are read or written in place at the local's own kind; every
    // other `&x` lets the address escape.
    let mut in_place: HashSet<*const Expr> = HashSet::default();
    let mut escaped: HashSet<u32> = HashSet::default();
    let mut addresses: Vec<(*const Expr, LocalId)> = Vec::new();
    walk(&f.body, true, &mut |_| {}, &mut |e: &Expr| {
        let same_kind = |l: LocalId| kind_of_local(l) == Some(Kind::of(&p.types, e.ty));
        match &e.kind {
            ExprKind::Load(a) => {
                if let Some(l) = local_address(a) {
                    if same_kind(l) {
                        in_place.insert(&**a as *const Expr);
                    }
                }
            }
            ExprKind::Assign { place: Place::Mem(a), .. }
            | ExprKind::CompoundAssign { place: Place::Mem(a), .. }
            | ExprKind::IncDec { place: Place::Mem(a), .. } => {
                if let Some(l) = local_address(a) {
                    if same_kind(l) {
                        in_place.insert(&**a as *const Expr);
                    }
                }
            }
            ExprKind::LocalAddr(l) => addresses.push((e as *const Expr, *l)),
            ExprKind::Call { result: Some(l), .. }
            | ExprKind::ComplexBinary { dst: l, .. }
            | ExprKind::ComplexNeg { dst: l, .. }
            | ExprKind::ComplexMake { dst: l, .. } => {
                escaped.insert(l.0);
            }
            _ => {}
        }
    });
    for (e, l) in addresses {
        if !in_place.contains(&e) {
            escaped.insert(l.0);
        }
    }
    for l in escaped {
        if let Some(x) = ok.get_mut(l as usize) {
            *x = false;
        }
    }
    ok
}

/// By local of `f`: whether native code keeps it in a variable ([`promotable`]; none without
/// `promote`).
pub fn promoted(p: &Program, f: &Function, promote: bool) -> Vec<bool> {
    if promote {
        promotable(p, f)
    } else {
        vec![false; f.locals.len()]
    }
}

/// The locals of `f` native code keeps in variables (none without `promote`), and, when there
/// are some, `f` as the translator sees it ([`rewrite`]; `f` itself otherwise).
pub fn translated_form(p: &Program, f: &Function, promote: bool) -> (Vec<bool>, Option<Function>) {
    let promoted = promoted(p, f, promote);
    let rewritten = promoted.iter().any(|&x| x).then(|| rewrite(f, &promoted));
    (promoted, rewritten)
}

/// `f` with every in-place access of a promoted local (`promoted`, from [`promotable`]) written
/// as the register local's: `*&x` as `x`, a store to `*&x` as a store to `x`.
pub fn rewrite(f: &Function, promoted: &[bool]) -> Function {
    let is_promoted = |e: &Expr| local_address(e).filter(|l| promoted.get(l.0 as usize).copied().unwrap_or(false));
    let mut g = Function {
        name: f.name.clone(),
        ty: f.ty,
        ret: f.ret,
        params: f.params.clone(),
        locals: f.locals.clone(),
        body: f.body.clone(),
        variadic: f.variadic,
        loc: f.loc,
        origin: f.origin,
    };
    visit_stmt_exprs_mut(&mut g.body, &mut |e: &mut Expr| {
        match &mut e.kind {
            ExprKind::Load(a) => {
                if let Some(l) = is_promoted(a) {
                    e.kind = ExprKind::Local(l);
                }
            }
            ExprKind::Assign { place, .. } | ExprKind::CompoundAssign { place, .. } | ExprKind::IncDec { place, .. } => {
                if let Place::Mem(a) = place {
                    if let Some(l) = is_promoted(a) {
                        *place = Place::Local(l);
                    }
                }
            }
            _ => {}
        }
        true
    });
    g
}
