//! "A program may not branch into or out of an OpenACC parallel construct" (§2.5.1), nor a
//! kernels construct (§2.5.2): checked on the lowered program before outlining, each error naming
//! the branch, its target and the construct.
//!
//! Branches are `goto` (and a `switch` whose `case` labels are on the other side of the
//! construct's boundary), `return` inside a construct, and `break`/`continue` inside a construct
//! whose loop or `switch` is outside it. Branches that stay inside one construct (a `goto` within
//! the region, a `break` out of a loop of the region) are allowed.

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
        cx.stmt(&f.body, Context { construct: None, breakable: false, continuable: false });
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

#[derive(Copy, Clone)]
struct Context {
    construct: Construct,
    /// A loop or `switch` inside the construct encloses the statement (`break` stays inside).
    breakable: bool,
    /// A loop inside the construct encloses the statement (`continue` stays inside).
    continuable: bool,
}

struct Branches<'a> {
    p: &'a Program,
    labels: &'a HashMap<LabelId, (Construct, Loc)>,
    diags: &'a mut Vec<Diagnostic>,
}

impl Branches<'_> {
    fn stmt(&mut self, s: &Stmt, cx: Context) {
        let in_loop = Context { breakable: true, continuable: true, ..cx };
        match &s.kind {
            StmtKind::Block(v) => v.iter().for_each(|x| self.stmt(x, cx)),
            StmtKind::If(_, t, e) => {
                self.stmt(t, cx);
                if let Some(e) = e {
                    self.stmt(e, cx);
                }
            }
            StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::For { body: b, .. } => self.stmt(b, in_loop),
            StmtKind::Switch { body, cases, default, .. } => {
                for l in cases.iter().map(|(_, l)| l).chain(default.iter()) {
                    self.jump(*l, s.loc, "this `switch`", cx.construct);
                }
                self.stmt(body, Context { breakable: true, ..cx });
            }
            StmtKind::Goto(l) => self.jump(*l, s.loc, "this `goto`", cx.construct),
            StmtKind::Return(_) => {
                if let Some(c) = cx.construct {
                    self.out_of(s.loc, "`return`", c);
                }
            }
            StmtKind::Break if !cx.breakable => {
                if let Some(c) = cx.construct {
                    self.out_of(s.loc, "`break`", c);
                }
            }
            StmtKind::Continue if !cx.continuable => {
                if let Some(c) = cx.construct {
                    self.out_of(s.loc, "`continue`", c);
                }
            }
            StmtKind::Acc { body: Some(b), .. } => {
                let construct = compute_construct(self.p, s, cx.construct);
                let inner = if construct.map(|c| c.1) != cx.construct.map(|c| c.1) { Context { construct, breakable: false, continuable: false } } else { cx };
                self.stmt(b, inner);
            }
            _ => {}
        }
    }

    fn jump(&mut self, target: LabelId, at: Loc, what: &str, from: Construct) {
        let Some((to, label_loc)) = self.labels.get(&target).copied() else { return };
        if to.map(|c| c.1) == from.map(|c| c.1) {
            return;
        }
        let (direction, (kind, construct_loc)) = match (from, to) {
            (_, Some(c)) => ("into", c),
            (Some(c), None) => ("out of", c),
            (None, None) => return,
        };
        self.diags.push(
            Diagnostic::error("branch", format!("{what} branches {direction} a `{kind}` construct: a program may not branch into or out of a compute construct (§2.5.1, §2.5.2)"), at)
                .with_related(label_loc, "the target of the branch")
                .with_related(construct_loc, format!("the `{kind}` construct")),
        );
    }

    fn out_of(&mut self, at: Loc, what: &str, (kind, construct_loc): (&'static str, Loc)) {
        self.diags.push(
            Diagnostic::error("branch", format!("{what} leaves a `{kind}` construct: a program may not branch out of a compute construct (§2.5.1, §2.5.2)"), at)
                .with_related(construct_loc, format!("the `{kind}` construct"))
                .with_help("let control reach the end of the construct's block; set a flag and test it after the construct if the host must act on it"),
        );
    }
}
