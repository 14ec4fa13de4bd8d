//! The one walker of the IR: which expressions and statements each node holds, in source order
//! ([`stmt_parts`], [`expr_children`]), and the traversals every pass builds on. A new statement
//! or expression kind is added here once; the passes that only need "every expression" or "every
//! statement" (outlining, scheduling, access plans, reachability, the CUDA emitter's analyses)
//! follow it without change.

use super::*;

/// A direct part of a statement.
#[derive(Clone, Copy)]
pub enum Part<'a> {
    Expr(&'a Expr),
    Stmt(&'a Stmt),
}

/// A direct part of a statement, mutably.
pub enum PartMut<'a> {
    Expr(&'a mut Expr),
    Stmt(&'a mut Stmt),
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

/// Apply `$part` to each direct part of statement kind `$kind` (`&s.kind` or `&mut s.kind`, `$m`
/// `mut` for the latter; `$P` is [`Part`] or [`PartMut`]), in source order.
macro_rules! stmt_children {
    ($kind:expr, $P:ident, $f:ident $(, $m:tt)?) => {
        match $kind {
            StmtKind::Empty | StmtKind::Label(_) | StmtKind::Goto(_) | StmtKind::Break | StmtKind::Continue | StmtKind::VlaAlloc(_) | StmtKind::AccLaunch(_) | StmtKind::Return(None) => {}
            StmtKind::Expr(e) | StmtKind::ZeroFill { addr: e, .. } | StmtKind::Return(Some(e)) => $f($P::Expr(e)),
            StmtKind::Block(v) => {
                for x in v {
                    $f($P::Stmt(x));
                }
            }
            StmtKind::If(c, t, e) => {
                $f($P::Expr(c));
                $f($P::Stmt(&$($m)? **t));
                if let Some(e) = e {
                    $f($P::Stmt(&$($m)? **e));
                }
            }
            StmtKind::While(c, b) => {
                $f($P::Expr(c));
                $f($P::Stmt(&$($m)? **b));
            }
            StmtKind::DoWhile(b, c) => {
                // Visited condition first, as every walker of the IR always has.
                $f($P::Expr(c));
                $f($P::Stmt(&$($m)? **b));
            }
            StmtKind::For { init, cond, step, body } => {
                if let Some(i) = init {
                    $f($P::Stmt(&$($m)? **i));
                }
                if let Some(c) = cond {
                    $f($P::Expr(c));
                }
                if let Some(c) = step {
                    $f($P::Expr(c));
                }
                $f($P::Stmt(&$($m)? **body));
            }
            StmtKind::Switch { cond, body, .. } => {
                $f($P::Expr(cond));
                $f($P::Stmt(&$($m)? **body));
            }
            StmtKind::Acc { body, .. } => {
                if let Some(b) = body {
                    $f($P::Stmt(&$($m)? **b));
                }
            }
            StmtKind::Partition(p) => {
                $f($P::Expr(&$($m)? p.count));
                $f($P::Stmt(&$($m)? p.body));
            }
        }
    };
}

/// Call `f` on each direct part of `s` (its expressions and sub-statements), in source order
/// (a `do … while`'s condition first).
pub fn stmt_parts<'a>(s: &'a Stmt, f: &mut dyn FnMut(Part<'a>)) {
    stmt_children!(&s.kind, Part, f);
}

/// [`stmt_parts`], mutably.
pub fn stmt_parts_mut(s: &mut Stmt, f: &mut dyn FnMut(PartMut<'_>)) {
    stmt_children!(&mut s.kind, PartMut, f, mut);
}

/// The statements an expression holds directly (an initializer's, a statement expression's).
pub fn expr_stmts(e: &Expr) -> &[Stmt] {
    match &e.kind {
        ExprKind::WithInit { init, .. } | ExprKind::StmtExpr { body: init, .. } => init,
        _ => &[],
    }
}

/// Call `f` on `e` and every expression inside it (not inside nested statements).
pub fn visit_exprs<'a>(e: &'a Expr, f: &mut impl FnMut(&'a Expr)) {
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
    stmt_parts_mut(s, &mut |part| match part {
        PartMut::Stmt(x) => visit_stmt_exprs_mut(x, fe),
        PartMut::Expr(e) => visit_exprs_mut(e, &mut |x| {
            let deeper = fe(x);
            if deeper {
                if let ExprKind::WithInit { init, .. } | ExprKind::StmtExpr { body: init, .. } = &mut x.kind {
                    init.iter_mut().for_each(|st| visit_stmt_exprs_mut(st, fe));
                }
            }
            deeper
        }),
    });
}

/// Pre-order walk of `s`: `fs` on every statement, `fe` on every expression. With `into_exprs`,
/// the statements inside expressions (initializers, statement expressions) are walked as
/// statements too (`fs` sees them, right after the expression holding them); without it only
/// their expressions are (`fe` sees them).
pub fn walk<'a>(s: &'a Stmt, into_exprs: bool, fs: &mut dyn FnMut(&'a Stmt), fe: &mut dyn FnMut(&'a Expr)) {
    fs(s);
    stmt_parts(s, &mut |part| match part {
        Part::Stmt(x) => walk(x, into_exprs, fs, fe),
        Part::Expr(e) => walk_expr(e, into_exprs, fs, fe),
    });
}

/// Pre-order walk of an expression tree and the statements inside it (see [`walk`]).
pub fn walk_expr<'a>(e: &'a Expr, into_exprs: bool, fs: &mut dyn FnMut(&'a Stmt), fe: &mut dyn FnMut(&'a Expr)) {
    visit_exprs(e, &mut |x| {
        fe(x);
        for st in expr_stmts(x) {
            if into_exprs {
                walk(st, into_exprs, fs, fe);
            } else {
                walk(st, false, &mut |_| {}, fe);
            }
        }
    });
}

/// The `for` statements of `body`, in pre-order, through statements only (a loop in a statement
/// expression is not one of them): the numbering a native-code engine and the interpreter share
/// for a function's loops (`accsim_jit`'s slots of checked versions and loop entries,
/// `exec::machine::code::Op::NativeLoop`). Walking the expressions too made the engine's setup
/// of issue 15's 20,000-line program 17% longer.
pub fn for_statements(body: &Stmt) -> Vec<&Stmt> {
    fn visit<'s>(s: &'s Stmt, out: &mut Vec<&'s Stmt>) {
        match &s.kind {
            StmtKind::Block(ss) => ss.iter().for_each(|x| visit(x, out)),
            StmtKind::If(_, t, e) => {
                visit(t, out);
                if let Some(e) = e {
                    visit(e, out);
                }
            }
            StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::Switch { body: b, .. } => visit(b, out),
            StmtKind::For { init, body, .. } => {
                out.push(s);
                if let Some(i) = init {
                    visit(i, out);
                }
                visit(body, out);
            }
            StmtKind::Acc { body: Some(b), .. } => visit(b, out),
            StmtKind::Partition(part) => visit(&part.body, out),
            _ => {}
        }
    }
    let mut out = Vec::new();
    visit(body, &mut out);
    out
}
