//! `accsim info`: what accsim decided for every compute construct, in the manner of
//! `nvc -Minfo=accel` — the kernels generated, each loop's schedule, and each variable's data
//! attribute (explicit from a clause, or implicit by §2.5.1/§2.5.2/§2.6.1).

use std::fmt::Write;

use crate::diag::SourceMap;
use crate::ir::acc::*;
use crate::ir::*;

/// The report for a whole program, ordered by source position.
pub fn report(p: &Program, info: &super::ProgramInfo, map: &SourceMap) -> String {
    let mut out = String::new();
    let mut kernels: Vec<(KernelId, &Kernel)> = p.kernels.iter().enumerate().map(|(i, k)| (KernelId(i as u32), k)).collect();
    kernels.sort_by_key(|(_, k)| (k.loc.file, k.loc.line, k.loc.col));
    for (kid, k) in kernels {
        let Some(Some(d)) = p.acc.get(k.directive.0 as usize) else { continue };
        let f = p.functions.get(k.func.0 as usize).map(|f| f.name.as_str()).unwrap_or("?");
        let _ = writeln!(out, "{}: {} construct → kernel `{f}`", map.describe(k.loc), d.kind.name());
        let gangs = match &k.num_gangs {
            Some(Expr { kind: ExprKind::Int(v), .. }) => format!("{v}"),
            Some(_) => "num_gangs(expr)".into(),
            None => match &k.gang_loop {
                Some(g) => format!("one per vector_length iterations of its gang loop (line {}), 1 to {} (§2.5.6; --gangs N forces N)", g.loop_loc.line, super::gang_count::MAX_DEFAULT_GANGS),
                None => format!("{} (the gang loop's iterations are not known at entry, §2.5.6; --gangs N forces N)", super::gang_count::DEFAULT_GANGS),
            },
        };
        let _ = writeln!(out, "    gangs: {gangs}{}", if k.single { " (statements outside loop nests)" } else { "" });
        for l in info.loops(kid) {
            let mut lv = Vec::new();
            if l.gang {
                lv.push("gang");
            }
            if l.worker {
                lv.push("worker");
            }
            if l.vector {
                lv.push("vector");
            }
            let sched = if lv.is_empty() { "seq".to_string() } else { lv.join(" ") };
            let collapse = if l.collapse > 1 { format!(", collapse({})", l.collapse) } else { String::new() };
            let why = l.seq_reason.as_ref().or(l.analysis.as_ref()).map(|r| format!(" ({r})")).unwrap_or_default();
            let _ = writeln!(out, "    {}: loop scheduled {sched}{collapse}{why}", map.describe(l.loc));
        }
        for c in &k.captures {
            let attr = match c.mode {
                CaptureMode::Value => "firstprivate (scalar, by value)".to_string(),
                CaptureMode::Present => "present_or_copy (device copy; implicit unless a clause names it)".to_string(),
                CaptureMode::FirstPrivate => "firstprivate (a copy per gang)".to_string(),
                CaptureMode::Private => "private (a copy per gang)".to_string(),
                CaptureMode::Reduction(op) => format!("reduction({}) across gangs", op.as_str()),
            };
            match &c.member {
                Some(m) => writeln!(out, "    {} `{}`: {}", p.types.display(m.ty), c.name, m.attr),
                None => writeln!(out, "    {} `{}`: {attr}", p.types.display(c.ty), c.name),
            }
            .unwrap_or(());
        }
        // `accsim check` (kernel::footprint): whether the kernel can be proven race-free when
        // it is launched and checked on its footprint, or must be watched access by access.
        let check = match &info.plan(kid) {
            Ok(p) => {
                let n = p.sites.len();
                format!("an access plan over {n} site{} of shared device memory: a launch whose values prove it race-free is checked on its footprint", if n == 1 { "" } else { "s" })
            }
            Err(why) => format!("checked access by access ({why})"),
        };
        let _ = writeln!(out, "    check: {check}");
    }
    // Portability notes on the data clauses (`kernel::outline::bare_pointer_notes`), and on
    // the pointers no clause names (`exec::openacc::implicit_pointer_data`).
    let implicit = implicit_pointer_notes(p, info);
    let mut notes: Vec<&crate::diag::Diagnostic> = p.findings.iter().filter(|f| f.kind == crate::finding::FindingKind::Portability.name()).chain(implicit.iter()).collect();
    notes.sort_by_key(|f| f.primary.map(|l| (l.file, l.line, l.col)));
    for n in notes {
        let at = n.primary.map(|l| map.describe(l)).unwrap_or_default();
        let _ = writeln!(out, "{at}: note: {}", n.message);
    }
    if out.is_empty() {
        out.push_str("no compute constructs\n");
    }
    out
}

/// One note per kernel that uses pointers no clause names (§2.5.1, §2.5.2: the pointer gets an
/// implicit attribute, not its target). At a launch where a target is not present, accsim, like
/// nvc, copies what the kernel accesses through the pointer (`exec::openacc::implicit_pointer_data`,
/// the bounds known only then); without an access plan it cannot, and the access stops.
fn implicit_pointer_notes(p: &Program, info: &super::ProgramInfo) -> Vec<crate::diag::Diagnostic> {
    let mut notes = Vec::new();
    for (i, k) in p.kernels.iter().enumerate() {
        let pointers: Vec<(usize, &Capture)> = k
            .captures
            .iter()
            .enumerate()
            .filter(|(_, c)| c.implicit_pointer && c.member.is_none() && matches!(c.mode, CaptureMode::Value | CaptureMode::FirstPrivate))
            .collect();
        if pointers.is_empty() {
            continue;
        }
        let message = match &info.plan(KernelId(i as u32)) {
            Ok(plan) => {
                let clauses: Vec<String> = pointers
                    .iter()
                    .filter_map(|(i, c)| plan.access_through(*i as u32).map(|w| format!("`{}({}[…])`", if w { "copy" } else { "copyin" }, c.name)))
                    .collect();
                if clauses.is_empty() {
                    continue;
                }
                format!(
                    "no data clause names {}: OpenACC 2.0 copies only the pointer; like nvc, accsim makes the implicit {} of what the kernel accesses (bounds from the loops at launch) when it is not present, which `--strict-2.0` does not",
                    names(&pointers),
                    clauses.join(", ")
                )
            }
            Err(why) => format!(
                "no data clause names {}: OpenACC 2.0 copies only the pointer; nvc copies what the kernel accesses through it, but accsim cannot tell what that is ({why}): a launch where its data is not present stops (`device-deref-host-ptr`); name a subarray in a data clause",
                names(&pointers)
            ),
        };
        let mut d = crate::diag::Diagnostic::error(crate::finding::FindingKind::Portability.name(), message, k.loc);
        d.severity = crate::diag::Severity::Note;
        notes.push(d);
    }
    notes
}

fn names(pointers: &[(usize, &Capture)]) -> String {
    pointers.iter().map(|(_, c)| format!("`{}`", c.name)).collect::<Vec<_>>().join(", ")
}
