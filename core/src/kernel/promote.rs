//! Read-only captures in registers.
//!
//! A kernel gets a scalar it only reads — a firstprivate variable (§2.5.1: scalars are
//! firstprivate in `parallel` by default), or a `present`/`copy` scalar the kernel never writes —
//! as the address of its gang's copy. When the kernel body only ever *loads* through that
//! address (no store, no `&x` escaping into a call or a pointer, no `private`/`reduction`), the
//! value cannot change while the kernel runs: no thread of the kernel writes it and no one else
//! can name it. The pass loads it once into a register local at the start of the kernel and
//! replaces every load by that register. The results are the same by construction; the
//! interpreter's fused operations then see the pointer `a` of `a[i*n + j]` as a register, as
//! they do in host code, and the CUDA kernel reads a local instead of global memory.

use crate::ir::acc::{Capture, CaptureMode};
use crate::ir::visit::visit_stmt_exprs_mut;
use crate::ir::types::{Type, TypeTable};
use crate::ir::{Expr, ExprKind, Local, LocalId, LocalRole, Place, Stmt, StmtKind, Storage};

/// Promote the read-only scalar captures of a kernel function with `params` (the first four are
/// gang, num_gangs, num_workers, vector_length; then one per capture, in `captures` order).
pub fn promote_read_only_captures(body: Stmt, params: &[LocalId], captures: &[Capture], locals: &mut Vec<Local>, types: &TypeTable) -> Stmt {
    let mut body = body;
    let mut inits = Vec::new();
    for (cap, &param) in captures.iter().zip(params.iter().skip(4)) {
        if !matches!(cap.mode, CaptureMode::FirstPrivate | CaptureMode::Present) || cap.subarray.is_some() {
            continue;
        }
        let Some(local) = locals.get(param.0 as usize) else { continue };
        let Type::Pointer(pointee) = types.get(local.ty) else { continue };
        let pointee = *pointee;
        let scalar = matches!(types.get(pointee), Type::Int(_) | Type::Float(_) | Type::Pointer(_) | Type::Bool);
        if !scalar || !only_loaded(&mut body, param, pointee) {
            continue;
        }
        let reg = LocalId(locals.len() as u32);
        locals.push(Local { name: cap.name.clone(), ty: pointee, storage: Storage::Register, loc: local.loc, role: LocalRole::Program, copy_of: None, declared_in: local.declared_in });
        visit_stmt_exprs_mut(&mut body, &mut |e| {
            if matches!(&e.kind, ExprKind::Load(a) if matches!(a.kind, ExprKind::Local(l) if l == param)) {
                e.kind = ExprKind::Local(reg);
                return false;
            }
            true
        });
        let loc = body.loc;
        let load = Expr {
            kind: ExprKind::Load(Box::new(Expr { kind: ExprKind::Local(param), ty: local_ty(locals, param), loc })),
            ty: pointee,
            loc,
        };
        inits.push(Stmt { kind: StmtKind::Expr(Expr { kind: ExprKind::Assign { place: Place::Local(reg), value: Box::new(load) }, ty: pointee, loc }), loc });
    }
    if inits.is_empty() {
        return body;
    }
    let loc = body.loc;
    inits.push(body);
    Stmt { kind: StmtKind::Block(inits), loc }
}

fn local_ty(locals: &[Local], l: LocalId) -> crate::ir::TypeId {
    locals[l.0 as usize].ty
}

/// Is every use of register `param` in `body` a load of a `pointee` value through it?
fn only_loaded(body: &mut Stmt, param: LocalId, pointee: crate::ir::TypeId) -> bool {
    let (mut uses, mut loads, mut assigned) = (0usize, 0usize, false);
    visit_stmt_exprs_mut(body, &mut |e| {
        match &e.kind {
            ExprKind::Local(l) if *l == param => uses += 1,
            ExprKind::Load(a) if matches!(a.kind, ExprKind::Local(l) if l == param) && e.ty == pointee => loads += 1,
            ExprKind::Assign { place: Place::Local(l), .. } | ExprKind::CompoundAssign { place: Place::Local(l), .. } | ExprKind::IncDec { place: Place::Local(l), .. }
                if *l == param =>
            {
                assigned = true
            }
            _ => {}
        }
        true
    });
    !assigned && uses == loads
}
