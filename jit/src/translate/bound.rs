//! A loop condition's invariant bound, evaluated once before the loop (issue 15): `i < (g +
//! 1) * n / G`, a gang's share of a partitioned loop whose body calls a routine, tested a
//! division (and its two fault checks, which keep Cranelift from moving it) at every
//! iteration of a loop that is not counted ([`crate::loops`]).

use crate::HashSet;

use accsim_core::ir::visit::walk;

use super::*;

impl Translator<'_, '_> {
    /// The right operand of loop condition `cond`, `a < b` or another comparison, evaluated
    /// here, before the loop, when it is worth it and invariant ([`Translator::invariant`]: no
    /// local that `body` or `step` assigns, no access of memory, which a call in the body may
    /// change). Worth it: it divides ([`divides`]), and the body calls a function that is not
    /// inlined, across which the bound is one load from the stack per test where it was a
    /// division and its checks. In a loop without calls the bound would take a register for
    /// the whole loop, and conv3d's kernel, whose registers are all taken, spilled more (0.6%
    /// more instructions). Its divisions' faults are those of the loop's first test, which
    /// evaluates it right after this with no step between. `None`: the condition evaluates it
    /// at every test, as before.
    pub(crate) fn loop_bound(&mut self, cond: Option<&Expr>, step: Option<&Expr>, body: &Stmt) -> R<Option<(*const Expr, Value)>> {
        let Some(ExprKind::Binary(op, lhs, rhs)) = cond.map(|c| &c.kind) else { return Ok(None) };
        if !op.is_comparison() || !divides(rhs) {
            return Ok(None);
        }
        let Some((assigned, calls)) = assigned_locals(body, step) else { return Ok(None) };
        let inline = |c: &Expr| match &c.kind {
            ExprKind::Call { callee: Callee::Direct(f), result: None, .. } => self.inlinable(f.0, 0).is_some(),
            ExprKind::Call { callee: Callee::Extern(x), result: None, .. } => self.is_math(x.0),
            _ => false,
        };
        if calls.iter().all(|c| inline(c)) {
            return Ok(None);
        }
        let var = match lhs.strip_casts().kind {
            ExprKind::Local(v) => v,
            _ => LocalId(u32::MAX),
        };
        if !self.invariant(rhs, &assigned, var, true) {
            return Ok(None);
        }
        let v = self.expr(rhs)?;
        Ok(Some((&**rhs as *const Expr, v)))
    }
}

/// The locals that `body` and `step` assign anywhere and their calls, or `None` for a body this
/// does not follow (a partitioned loop, a construct, a jump to a label).
fn assigned_locals<'e>(body: &'e Stmt, step: Option<&'e Expr>) -> Option<(HashSet<u32>, Vec<&'e Expr>)> {
    let mut assigned = HashSet::default();
    let mut calls = Vec::new();
    let mut plain = true;
    let mut on_expr = |e: &'e Expr| match &e.kind {
        ExprKind::Assign { place: Place::Local(l), .. }
        | ExprKind::CompoundAssign { place: Place::Local(l), .. }
        | ExprKind::IncDec { place: Place::Local(l), .. } => {
            assigned.insert(l.0);
        }
        ExprKind::Call { .. } => calls.push(e),
        _ => {}
    };
    let mut on_stmt = |s: &Stmt| {
        if matches!(s.kind, StmtKind::Partition(_) | StmtKind::Acc { .. } | StmtKind::AccLaunch(_) | StmtKind::Label(_) | StmtKind::Goto(_) | StmtKind::VlaAlloc(_)) {
            plain = false;
        }
    };
    walk(body, true, &mut on_stmt, &mut on_expr);
    if let Some(st) = step {
        accsim_core::ir::visit::walk_expr(st, true, &mut on_stmt, &mut on_expr);
    }
    plain.then_some((assigned, calls))
}

/// Whether `e` holds an integer division or remainder: what Cranelift cannot move out of a
/// loop itself, the operation trapping (Cranelift's loop-invariant code motion takes the rest).
fn divides(e: &Expr) -> bool {
    let mut found = false;
    accsim_core::ir::visit::visit_exprs(e, &mut |x| {
        found |= matches!(x.kind, ExprKind::Binary(BinOp::Div | BinOp::Rem, ..));
    });
    found
}
