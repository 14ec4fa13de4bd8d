//! Reachability from `main`: like a linker that drops what nothing uses (gcc never emits an
//! unused `static inline` function, such as the byte-swap helpers glibc's headers define), the
//! functions that no reachable code or static initializer refers to are replaced by an empty body,
//! so nothing they call has to exist in the C library shim.

use super::*;

/// The functions reachable from `main` (and from the static initializers of globals).
pub fn reachable_functions(p: &Program) -> Vec<bool> {
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
    // Kernels are reachable with their compute construct; treat every kernel as reachable.
    work.extend(p.kernels.iter().flat_map(|k| std::iter::once(k.func).chain(k.fast)));
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

/// Empty the bodies of unreachable functions.
pub fn drop_unreachable(p: &mut Program) {
    let keep = reachable_functions(p);
    for (f, k) in p.functions.iter_mut().zip(keep) {
        if !k {
            f.body = Stmt { kind: StmtKind::Block(Vec::new()), loc: f.body.loc };
        }
    }
}

fn stmt_funcs(s: &Stmt, out: &mut Vec<FuncId>) {
    match &s.kind {
        StmtKind::Empty | StmtKind::Label(_) | StmtKind::Goto(_) | StmtKind::Break | StmtKind::Continue | StmtKind::VlaAlloc(_) => {}
        StmtKind::AccLaunch(_) => {}
        StmtKind::Expr(e) => expr_funcs(e, out),
        StmtKind::Block(v) => v.iter().for_each(|s| stmt_funcs(s, out)),
        StmtKind::If(c, t, e) => {
            expr_funcs(c, out);
            stmt_funcs(t, out);
            if let Some(e) = e {
                stmt_funcs(e, out);
            }
        }
        StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
            expr_funcs(c, out);
            stmt_funcs(b, out);
        }
        StmtKind::For { init, cond, step, body } => {
            if let Some(i) = init {
                stmt_funcs(i, out);
            }
            cond.iter().chain(step.iter()).for_each(|e| expr_funcs(e, out));
            stmt_funcs(body, out);
        }
        StmtKind::Switch { cond, body, .. } => {
            expr_funcs(cond, out);
            stmt_funcs(body, out);
        }
        StmtKind::Return(e) => e.iter().for_each(|e| expr_funcs(e, out)),
        StmtKind::ZeroFill { addr, .. } => expr_funcs(addr, out),
        StmtKind::Acc { body, .. } => {
            if let Some(b) = body {
                stmt_funcs(b, out);
            }
        }
    }
}

fn expr_funcs(e: &Expr, out: &mut Vec<FuncId>) {
    visit_exprs(e, &mut |x| match &x.kind {
        ExprKind::FuncAddr(f) => out.push(*f),
        ExprKind::Call { callee: Callee::Direct(f), .. } => out.push(*f),
        ExprKind::WithInit { init, .. } | ExprKind::StmtExpr { body: init, .. } => init.iter().for_each(|s| stmt_funcs(s, out)),
        _ => {}
    });
}

/// Apply `$visit` to each expression directly inside expression kind `$kind` (`$kind` is
/// `&e.kind` or `&mut e.kind`; `$m` is `mut` for the latter), shared by the two walkers below.
macro_rules! visit_children {
    ($kind:expr, $visit:ident, $f:ident $(, $m:tt)?) => {
        match $kind {
            ExprKind::Load(a) | ExprKind::Unary(_, a) | ExprKind::Cast(a) | ExprKind::VaStart(a) | ExprKind::VaArg(a) => $visit(&$($m)? **a, $f),
            ExprKind::Binary(_, a, b)
            | ExprKind::LogicalAnd(a, b)
            | ExprKind::LogicalOr(a, b)
            | ExprKind::Comma(a, b)
            | ExprKind::VaCopy(a, b)
            | ExprKind::PtrAdd { ptr: a, index: b, .. }
            | ExprKind::PtrDiff { lhs: a, rhs: b, .. }
            | ExprKind::ComplexBinary { lhs: a, rhs: b, .. }
            | ExprKind::ComplexCompare { lhs: a, rhs: b, .. }
            | ExprKind::ComplexMake { re: a, im: b, .. } => {
                $visit(&$($m)? **a, $f);
                $visit(&$($m)? **b, $f);
            }
            ExprKind::Cond(a, b, c) => {
                $visit(&$($m)? **a, $f);
                $visit(&$($m)? **b, $f);
                $visit(&$($m)? **c, $f);
            }
            ExprKind::Assign { place: p, value } | ExprKind::CompoundAssign { place: p, value, .. } => {
                if let Place::Mem(a) = p {
                    $visit(&$($m)? **a, $f);
                }
                $visit(&$($m)? **value, $f);
            }
            ExprKind::IncDec { place: p, .. } => {
                if let Place::Mem(a) = p {
                    $visit(&$($m)? **a, $f);
                }
            }
            ExprKind::Call { callee, args, .. } => {
                if let Callee::Indirect(c) = callee {
                    $visit(&$($m)? **c, $f);
                }
                for a in args {
                    $visit(a, $f);
                }
            }
            ExprKind::ComplexNeg { value, .. } | ExprKind::WithInit { value, .. } => $visit(&$($m)? **value, $f),
            ExprKind::StmtExpr { value, .. } => {
                if let Some(v) = value {
                    $visit(&$($m)? **v, $f);
                }
            }
            ExprKind::Int(_)
            | ExprKind::Float(_)
            | ExprKind::Str(_)
            | ExprKind::Local(_)
            | ExprKind::LocalAddr(_)
            | ExprKind::GlobalAddr(_)
            | ExprKind::FuncAddr(_)
            | ExprKind::ExternAddr(_)
            | ExprKind::SizeOfDynamic(_) => {}
        }
    };
}

/// Call `f` on `e` and every expression inside it (not inside nested statements).
pub fn visit_exprs(e: &Expr, f: &mut impl FnMut(&Expr)) {
    f(e);
    visit_children!(&e.kind, visit_exprs, f);
}

/// Call `f` on `e` and, when it returns true, on every expression inside it (pre-order; not
/// inside nested statements).
pub fn visit_exprs_mut(e: &mut Expr, f: &mut dyn FnMut(&mut Expr) -> bool) {
    if !f(e) {
        return;
    }
    visit_children!(&mut e.kind, visit_exprs_mut, f, mut);
}


/// Call `fe` on every expression of `s` (pre-order, as [`visit_exprs_mut`]), including those of
/// nested statements and of initializers and statement expressions.
pub fn visit_stmt_exprs_mut(s: &mut Stmt, fe: &mut dyn FnMut(&mut Expr) -> bool) {
    let ex = |e: &mut Expr, fe: &mut dyn FnMut(&mut Expr) -> bool| {
        visit_exprs_mut(e, &mut |x| {
            let deeper = fe(x);
            if deeper {
                if let ExprKind::WithInit { init, .. } | ExprKind::StmtExpr { body: init, .. } = &mut x.kind {
                    init.iter_mut().for_each(|st| visit_stmt_exprs_mut(st, fe));
                }
            }
            deeper
        })
    };
    match &mut s.kind {
        StmtKind::Expr(e) | StmtKind::ZeroFill { addr: e, .. } | StmtKind::Return(Some(e)) => ex(e, fe),
        StmtKind::Block(v) => v.iter_mut().for_each(|x| visit_stmt_exprs_mut(x, fe)),
        StmtKind::If(c, t, e) => {
            ex(c, fe);
            visit_stmt_exprs_mut(t, fe);
            if let Some(e) = e {
                visit_stmt_exprs_mut(e, fe);
            }
        }
        StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
            ex(c, fe);
            visit_stmt_exprs_mut(b, fe);
        }
        StmtKind::For { init, cond, step, body } => {
            if let Some(i) = init {
                visit_stmt_exprs_mut(i, fe);
            }
            if let Some(c) = cond {
                ex(c, fe);
            }
            if let Some(c) = step {
                ex(c, fe);
            }
            visit_stmt_exprs_mut(body, fe);
        }
        StmtKind::Switch { cond, body, .. } => {
            ex(cond, fe);
            visit_stmt_exprs_mut(body, fe);
        }
        StmtKind::Acc { body: Some(b), .. } => visit_stmt_exprs_mut(b, fe),
        _ => {}
    }
}
