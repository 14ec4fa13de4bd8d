//! Where a directive may stand, checked on the lowered program: "The cache directive may appear
//! at the top of (inside of) a loop" (§2.8): a `cache` outside every loop of its function is an
//! error naming the directive and the construct (or function) it stands in.
//!
//! In a parallel region "Only the static argument is allowed" on `gang` (§2.7.2) and "No
//! argument is allowed" on `worker` (§2.7.3): a loop inside a `parallel` construct with
//! `gang(num:n)` (or `gang(n)`) or `worker(n)` is an error naming the loop and the construct (the
//! combined `parallel loop` is checked on the directive itself, directive/check.rs).
//!
//! Accepted: a `cache` anywhere inside a loop body (gcc and nvc accept one below other statements
//! of the body), in a compute region or in a routine's orphaned loop.

use crate::diag::{Diagnostic, Loc};
use crate::ir::acc::*;
use crate::ir::*;

/// Every misplaced `cache` directive of `p`.
pub fn check_program(p: &Program) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    for f in &p.functions {
        let outer = Outer { in_loop: false, construct: None, parallel: None, function: (&f.name, f.loc) };
        visit(&f.body, p, outer, &mut diags);
    }
    diags
}

/// What encloses a statement.
#[derive(Copy, Clone)]
struct Outer<'a> {
    in_loop: bool,
    /// The innermost enclosing compute construct: its name and place.
    construct: Option<(&'static str, Loc)>,
    /// The innermost enclosing `parallel` or `parallel loop` construct, when the innermost compute
    /// construct is one.
    parallel: Option<Loc>,
    function: (&'a str, Loc),
}

fn visit(s: &Stmt, p: &Program, outer: Outer<'_>, diags: &mut Vec<Diagnostic>) {
    let in_loop = Outer { in_loop: true, ..outer };
    match &s.kind {
        StmtKind::Block(v) => v.iter().for_each(|x| visit(x, p, outer, diags)),
        StmtKind::If(_, t, e) => {
            visit(t, p, outer, diags);
            if let Some(e) = e {
                visit(e, p, outer, diags);
            }
        }
        StmtKind::While(_, b) | StmtKind::DoWhile(b, _) => visit(b, p, in_loop, diags),
        StmtKind::For { body, .. } => visit(body, p, in_loop, diags),
        StmtKind::Switch { body, .. } => visit(body, p, outer, diags),
        StmtKind::Acc { directive, body } => {
            let Some(Some(d)) = p.acc.get(directive.0 as usize) else { return };
            if let (AccKind::Cache(_), None) = (&d.kind, body) {
                if !outer.in_loop {
                    let (what, loc) = match outer.construct {
                        Some((name, loc)) => (format!("the `{name}` construct it is in"), loc),
                        None => (format!("function `{}`, which it is in", outer.function.0), outer.function.1),
                    };
                    diags.push(
                        Diagnostic::error("directive", "`cache` outside any loop: the cache directive may appear only at the top of (inside) a loop (§2.8)", d.loc)
                            .with_related(loc, what)
                            .with_help("move the `cache` directive to the start of the body of the loop whose iterations use the cached elements"),
                    );
                }
                return;
            }
            if let (Some(parallel), AccKind::Loop) = (outer.parallel, &d.kind) {
                loop_arguments_in_parallel(d, parallel, diags);
            }
            if let Some(b) = body {
                let inner = if d.kind.is_compute() {
                    let parallel = matches!(d.kind, AccKind::Parallel | AccKind::ParallelLoop).then_some(d.loc);
                    Outer { construct: Some((d.kind.name(), d.loc)), in_loop: false, parallel, ..outer }
                } else {
                    outer
                };
                visit(b, p, inner, diags);
            }
        }
        _ => {}
    }
}

/// §2.7.2, §2.7.3: a `gang` count or a `worker` argument on a loop in a parallel region.
fn loop_arguments_in_parallel(d: &AccDirective, parallel: Loc, diags: &mut Vec<Diagnostic>) {
    for c in &d.clauses {
        let (bad, what, help) = match &c.kind {
            AccClauseKind::Gang { num, .. } => (num.is_some(), "only the `static` argument is allowed on `gang` in a parallel region (§2.7.2)", "set the number of gangs with `num_gangs(n)` on the `parallel` construct"),
            AccClauseKind::Worker(arg) => (arg.is_some(), "no argument is allowed on `worker` in a parallel region (§2.7.3)", "set the number of workers with `num_workers(n)` on the `parallel` construct"),
            _ => (false, "", ""),
        };
        if bad {
            diags.push(
                Diagnostic::error("directive", format!("`{}` with an argument: {what}", c.spelling), c.loc)
                    .with_related(parallel, "the `parallel` construct the loop is in")
                    .with_help(help),
            );
        }
    }
}
