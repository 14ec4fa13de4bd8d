//! Reachability from `main`: like a linker that drops what nothing uses (gcc never emits an
//! unused `static inline` function, such as the byte-swap helpers glibc's headers define), the
//! functions that no reachable code or static initializer refers to are replaced by an empty body,
//! so nothing they call has to exist in the C library shim.

use super::*;

/// The functions reachable from `main` (and from the static initializers of globals), and from
/// `kernel_functions` (every function outlined for a kernel: kernels are reachable with their
/// compute construct, `ir::valid::ProgramInfo::kernel_functions`).
pub fn reachable_functions(p: &Program, kernel_functions: impl IntoIterator<Item = FuncId>) -> Vec<bool> {
    let mut seen = vec![false; p.functions.len()];
    let mut work: Vec<FuncId> = p.main.into_iter().collect();
    for g in &p.globals {
        if let Some(init) = &g.init {
            for r in &init.relocs {
                if let RelocTarget::Func(f) = r.target {
                    work.push(f);
                }
            }
        }
    }
    work.extend(kernel_functions);
    while let Some(f) = work.pop() {
        let Some(s) = seen.get_mut(f.0 as usize) else { continue };
        if *s {
            continue;
        }
        *s = true;
        if let Some(func) = p.functions.get(f.0 as usize) {
            stmt_funcs(&func.body, &mut work);
        }
    }
    seen
}

/// Empty the bodies of unreachable functions (`kernel_functions` as for [`reachable_functions`]).
pub fn drop_unreachable(p: &mut Program, kernel_functions: impl IntoIterator<Item = FuncId>) {
    let keep = reachable_functions(p, kernel_functions);
    for (f, k) in p.functions.iter_mut().zip(keep) {
        if !k {
            f.body = Stmt { kind: StmtKind::Block(Vec::new()), loc: f.body.loc };
        }
    }
}

fn stmt_funcs(s: &Stmt, out: &mut Vec<FuncId>) {
    super::visit::stmt_parts(s, &mut |part| match part {
        super::visit::Part::Stmt(x) => stmt_funcs(x, out),
        super::visit::Part::Expr(e) => expr_funcs(e, out),
    });
}

fn expr_funcs(e: &Expr, out: &mut Vec<FuncId>) {
    super::visit::visit_exprs(e, &mut |x| match &x.kind {
        ExprKind::FuncAddr(f) => out.push(*f),
        ExprKind::Call { callee: Callee::Direct(f), .. } => out.push(*f),
        ExprKind::WithInit { init, .. } | ExprKind::StmtExpr { body: init, .. } => init.iter().for_each(|s| stmt_funcs(s, out)),
        _ => {}
    });
}
