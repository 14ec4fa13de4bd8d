//! "A program may not branch into or out of an OpenACC parallel construct" (§2.5.1), nor a
//! kernels construct (§2.5.2): checked on the lowered program before outlining, each error naming
//! the branch, its target and the construct.
//!
//! This module finds branches *into* a construct: a `goto` (or a `switch` whose `case` label)
//! outside the construct, or in another one, whose target is inside it. Branches *out of* a
//! construct (`return`, `break`, `continue`, `goto`) are refused when the construct is outlined
//! (`outline::branch_out`). Branches that stay inside one construct are allowed.

use std::collections::HashMap;

use crate::diag::{Diagnostic, Loc};
use crate::ir::*;

/// Every branch into or out of a compute construct in `p`.
pub fn check_program(p: &Program) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    for f in &p.functions {
        let mut labels = HashMap::new();
        collect_labels(&f.body, p, None, &mut labels);
        let mut cx = Branches { p, labels: &labels, diags: &mut diags };
        cx.stmt(&f.body, None);
    }
    diags
}

/// A compute construct: its kind's name and place.
type Construct = Option<(&'static str, Loc)>;

fn compute_construct(p: &Program, s: &Stmt, outer: Construct) -> Construct {
    match &s.kind {
        StmtKind::Acc { directive, body: Some(_) } => match p.acc.get(directive.0 as usize) {
            Some(Some(d)) if d.kind.is_compute() => Some((d.kind.name(), d.loc)),
            _ => outer,
        },
        _ => outer,
    }
}

/// Each label of a function: the compute construct it is in, and its place.
fn collect_labels(s: &Stmt, p: &Program, construct: Construct, out: &mut HashMap<LabelId, (Construct, Loc)>) {
    let each = |x: &Stmt, out: &mut HashMap<LabelId, (Construct, Loc)>| collect_labels(x, p, construct, out);
    match &s.kind {
        StmtKind::Label(l) => {
            out.insert(*l, (construct, s.loc));
        }
        StmtKind::Block(v) => v.iter().for_each(|x| each(x, out)),
        StmtKind::If(_, t, e) => {
            each(t, out);
            if let Some(e) = e {
                each(e, out);
            }
        }
        StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::For { body: b, .. } | StmtKind::Switch { body: b, .. } => each(b, out),
        StmtKind::Acc { body: Some(b), .. } => collect_labels(b, p, compute_construct(p, s, construct), out),
        _ => {}
    }
}

struct Branches<'a> {
    p: &'a Program,
    labels: &'a HashMap<LabelId, (Construct, Loc)>,
    diags: &'a mut Vec<Diagnostic>,
}

impl Branches<'_> {
    fn stmt(&mut self, s: &Stmt, construct: Construct) {
        match &s.kind {
            StmtKind::Block(v) => v.iter().for_each(|x| self.stmt(x, construct)),
            StmtKind::If(_, t, e) => {
                self.stmt(t, construct);
                if let Some(e) = e {
                    self.stmt(e, construct);
                }
            }
            StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::For { body: b, .. } => self.stmt(b, construct),
            StmtKind::Switch { body, cases, default, .. } => {
                for l in cases.iter().map(|(_, l)| l).chain(default.iter()) {
                    self.jump(*l, s.loc, "this `switch`", construct);
                }
                self.stmt(body, construct);
            }
            StmtKind::Goto(l) => self.jump(*l, s.loc, "this `goto`", construct),
            StmtKind::Acc { body: Some(b), .. } => self.stmt(b, compute_construct(self.p, s, construct)),
            _ => {}
        }
    }

    fn jump(&mut self, target: LabelId, at: Loc, what: &str, from: Construct) {
        let Some((to, label_loc)) = self.labels.get(&target).copied() else { return };
        if to.map(|c| c.1) == from.map(|c| c.1) {
            return;
        }
        // A branch out of a construct is refused when the construct is outlined.
        let Some((kind, construct_loc)) = to else { return };
        self.diags.push(
            Diagnostic::error("branch", format!("{what} branches into a `{kind}` construct: a program may not branch into or out of a compute construct (§2.5.1, §2.5.2)"), at)
                .with_related(label_loc, "the target of the branch")
                .with_related(construct_loc, format!("the `{kind}` construct")),
        );
    }
}
