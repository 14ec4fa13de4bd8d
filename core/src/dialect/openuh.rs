//! OpenUH's nested partitioned loops (`--dialect openuh`; seeds/002, Tian et al., "Compiling a
//! High-level Directive-Based Programming Model for GPGPUs", §3.2, Figs. 6 and 7).
//!
//! OpenUH's benchmark sources spell a 2-D or 3-D grid by nesting `gang` loops (and `vector`
//! loops): `loop gang` around `loop gang vector` is the paper's Map2_3, a 2-D grid of 1-D blocks.
//! OpenACC 2.0 forbids such nests (§2.7.2: a `gang` loop may not contain another; §2.7.4 the
//! same for `vector`), and so does accsim in 2.0 mode, naming this dialect.
//!
//! **How accsim runs them.** Which thread runs which iteration of independent partitioned loops
//! is the implementation's choice (§1.2, §2.7), so a nest the dialect accepts runs as the
//! OpenACC 2.0 nest with the same iterations: the outermost loop `gang`, the innermost `vector`,
//! a middle loop of three `worker` (a two-deep nest whose outer loop names `vector` too, the
//! paper's two-dimensional blocks, gets `gang worker`). Only nests that 2.0 forbids change; each
//! change is a note that `accsim info` prints. On the GPU, `emit-cuda` maps each such nest as
//! the paper does ([`paper_mapping`], the `--loop-map` machinery of the CUDA back-end), so
//! the published benchmarks run as written on both.

use crate::diag::{Diagnostic, Severity};
use crate::ir::acc::{AccClause, AccClauseKind, AccDirective, AccKind};
use crate::ir::{Program, Stmt, StmtKind};

/// The levels a loop directive names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Named {
    pub gang: bool,
    pub worker: bool,
    pub vector: bool,
}

impl Named {
    fn of(d: &AccDirective) -> Named {
        let mut n = Named::default();
        for c in &d.clauses {
            match c.kind {
                AccClauseKind::Gang { .. } => n.gang = true,
                AccClauseKind::Worker(_) => n.worker = true,
                AccClauseKind::Vector(_) => n.vector = true,
                _ => {}
            }
        }
        n
    }

    /// The levels named in directive text (`loop gang vector`): OpenUH's spelling of a loop.
    pub fn of_text(text: &str) -> Named {
        let words: Vec<&str> = text.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').collect();
        Named { gang: words.contains(&"gang"), worker: words.contains(&"worker"), vector: words.contains(&"vector") }
    }

    fn any(self) -> bool {
        self.gang || self.worker || self.vector
    }

    fn text(self) -> String {
        let mut w = Vec::new();
        if self.gang {
            w.push("gang");
        }
        if self.worker {
            w.push("worker");
        }
        if self.vector {
            w.push("vector");
        }
        if w.is_empty() {
            "seq".into()
        } else {
            w.join(" ")
        }
    }
}

/// The paper's mapping (Figs. 6 and 7) of a nest whose loops name these levels, outermost
/// first: `Map2_1` … `Map3_3`, as `(depth, case)`.
pub fn paper_mapping(levels: &[Named]) -> Option<(u8, u8)> {
    let g = Named { gang: true, ..Default::default() };
    let v = Named { vector: true, ..Default::default() };
    let gv = Named { gang: true, vector: true, ..Default::default() };
    let table: [(&[Named], (u8, u8)); 7] = [
        (&[g, v], (2, 1)),
        (&[gv, v], (2, 2)),
        (&[g, gv], (2, 3)),
        (&[gv, gv], (2, 4)),
        (&[g, gv, v], (3, 1)),
        (&[v, gv, gv], (3, 2)),
        (&[v, gv, g], (3, 3)),
    ];
    table.iter().find(|(t, _)| *t == levels).map(|(_, m)| *m)
}

fn is_loop(d: &AccDirective) -> bool {
    matches!(d.kind, AccKind::Loop | AccKind::ParallelLoop | AccKind::KernelsLoop)
}

/// The nest of partitioned loop directives from `s` down: each one's directive id, the first
/// partitioned loop directive inside the previous one's body.
fn nest_from(s: &Stmt, acc: &[Option<AccDirective>], out: &mut Vec<u32>) {
    let mut found: Option<(u32, &Stmt)> = None;
    walk_first(s, acc, &mut found);
    if let Some((d, body)) = found {
        out.push(d);
        nest_from(body, acc, out);
    }
}

/// The first loop directive that names a level, in `s` (pre-order), with its body.
fn walk_first<'s>(s: &'s Stmt, acc: &[Option<AccDirective>], found: &mut Option<(u32, &'s Stmt)>) {
    if found.is_some() {
        return;
    }
    match &s.kind {
        StmtKind::Acc { directive, body: Some(b) } => {
            if let Some(Some(d)) = acc.get(directive.0 as usize) {
                if is_loop(d) && Named::of(d).any() {
                    *found = Some((directive.0, b));
                    return;
                }
            }
            walk_first(b, acc, found);
        }
        StmtKind::Block(v) => v.iter().for_each(|x| walk_first(x, acc, found)),
        StmtKind::If(_, a, b) => {
            walk_first(a, acc, found);
            if let Some(b) = b {
                walk_first(b, acc, found);
            }
        }
        StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::For { body: b, .. } | StmtKind::Switch { body: b, .. } => walk_first(b, acc, found),
        _ => {}
    }
}

/// Is a nest with these levels (outermost first) one OpenACC 2.0 allows (§2.7: each level
/// outside the loops it contains)?
fn legal(levels: &[Named]) -> bool {
    let mut outer = Named::default();
    for l in levels {
        let bad = (l.gang && outer.any()) || (l.worker && (outer.worker || outer.vector)) || (l.vector && outer.vector);
        if bad {
            return false;
        }
        outer.gang |= l.gang;
        outer.worker |= l.worker;
        outer.vector |= l.vector;
    }
    true
}

/// The OpenACC 2.0 levels accsim runs a nest of `n` loops with (module docs).
fn canonical(levels: &[Named]) -> Vec<Named> {
    let n = levels.len();
    (0..n)
        .map(|i| {
            let first = i == 0;
            let last = i + 1 == n;
            Named {
                gang: first,
                worker: (n == 2 && first && levels[0].vector) || (n >= 3 && i == 1),
                vector: last,
            }
        })
        .collect()
}

/// Replace the level clauses of `d` with `to`, keeping the argument of a level it keeps.
fn relevel(d: &mut AccDirective, to: Named) {
    let loc = d.loc;
    let mut kept = Named::default();
    d.clauses.retain(|c| match c.kind {
        AccClauseKind::Gang { .. } if to.gang => {
            kept.gang = true;
            true
        }
        AccClauseKind::Worker(_) if to.worker => {
            kept.worker = true;
            true
        }
        AccClauseKind::Vector(_) if to.vector => {
            kept.vector = true;
            true
        }
        AccClauseKind::Gang { .. } | AccClauseKind::Worker(_) | AccClauseKind::Vector(_) => false,
        _ => true,
    });
    if to.gang && !kept.gang {
        d.clauses.push(AccClause { kind: AccClauseKind::Gang { num: None, static_: None }, loc, spelling: "gang" });
    }
    if to.worker && !kept.worker {
        d.clauses.push(AccClause { kind: AccClauseKind::Worker(None), loc, spelling: "worker" });
    }
    if to.vector && !kept.vector {
        d.clauses.push(AccClause { kind: AccClauseKind::Vector(None), loc, spelling: "vector" });
    }
}

/// Run every nest of partitioned loops that OpenACC 2.0 forbids as the 2.0 nest with the same
/// iterations (module docs); a note per nest says what each loop runs as.
pub fn lower_nests(p: &mut Program) -> Vec<Diagnostic> {
    let mut nests = Vec::new();
    for f in &p.functions {
        collect_nests(&f.body, &p.acc, &mut nests);
    }
    let mut notes = Vec::new();
    for nest in nests {
        let levels: Vec<Named> = nest.iter().filter_map(|d| p.acc.get(*d as usize).and_then(|d| d.as_ref()).map(Named::of)).collect();
        if levels.len() != nest.len() || legal(&levels) {
            continue;
        }
        let to = canonical(&levels);
        let Some(first) = p.acc.get(nest[0] as usize).and_then(|d| d.as_ref()).map(|d| d.loc) else { continue };
        for (d, t) in nest.iter().zip(&to) {
            if let Some(Some(dir)) = p.acc.get_mut(*d as usize) {
                relevel(dir, *t);
            }
        }
        let from: Vec<String> = levels.iter().map(|l| format!("`loop {}`", l.text())).collect();
        let into: Vec<String> = to.iter().map(|l| format!("`loop {}`", l.text())).collect();
        let paper = paper_mapping(&levels).map(|(n, c)| format!(" (the paper's Map{n}_{c}, which `emit-cuda` uses)")).unwrap_or_default();
        let mut d = Diagnostic::error(
            "dialect",
            format!("OpenUH nest {}{paper} runs as the OpenACC 2.0 nest {} (the same iterations, §2.7)", from.join(" / "), into.join(" / ")),
            first,
        );
        d.severity = Severity::Note;
        notes.push(d);
    }
    notes
}

/// The nests of two or more partitioned loops in `s` (each as its directive ids, outermost
/// first), found at each outermost partitioned loop.
fn collect_nests(s: &Stmt, acc: &[Option<AccDirective>], out: &mut Vec<Vec<u32>>) {
    match &s.kind {
        StmtKind::Acc { directive, body: Some(b) } => {
            if let Some(Some(d)) = acc.get(directive.0 as usize) {
                if is_loop(d) && Named::of(d).any() {
                    let mut nest = vec![directive.0];
                    nest_from(b, acc, &mut nest);
                    if nest.len() > 1 {
                        out.push(nest);
                    }
                    return;
                }
            }
            collect_nests(b, acc, out);
        }
        StmtKind::Block(v) => v.iter().for_each(|x| collect_nests(x, acc, out)),
        StmtKind::If(_, a, b) => {
            collect_nests(a, acc, out);
            if let Some(b) = b {
                collect_nests(b, acc, out);
            }
        }
        StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::For { body: b, .. } | StmtKind::Switch { body: b, .. } => collect_nests(b, acc, out),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(text: &str) -> Named {
        Named::of_text(text)
    }

    #[test]
    fn the_papers_mappings_and_their_20_forms() {
        assert_eq!(paper_mapping(&[n("loop gang"), n("loop gang vector")]), Some((2, 3)));
        assert_eq!(paper_mapping(&[n("loop vector"), n("loop gang vector"), n("loop gang")]), Some((3, 3)));
        assert_eq!(paper_mapping(&[n("loop worker"), n("loop vector")]), None);
        assert!(legal(&[n("loop gang"), n("loop vector")]));
        assert!(!legal(&[n("loop gang"), n("loop gang vector")]));
        assert!(!legal(&[n("loop gang vector"), n("loop vector")]));
        let c = canonical(&[n("loop gang vector"), n("loop vector")]);
        assert_eq!(c.iter().map(|l| l.text()).collect::<Vec<_>>(), ["gang worker", "vector"]);
        let c = canonical(&[n("loop vector"), n("loop gang vector"), n("loop gang")]);
        assert_eq!(c.iter().map(|l| l.text()).collect::<Vec<_>>(), ["gang", "worker", "vector"]);
        assert!(!n("parallel loop num_gangs(4) vector_length(32)").any());
    }
}
