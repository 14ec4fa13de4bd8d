//! `accsim info`: what accsim decided for every compute construct, in the manner of
//! `nvc -Minfo=accel` — the kernels generated, each loop's schedule, and each variable's data
//! attribute (explicit from a clause, or implicit by §2.5.1/§2.5.2/§2.6.1).

use std::fmt::Write;

use crate::diag::SourceMap;
use crate::ir::acc::*;
use crate::ir::*;

/// The report for a whole program, ordered by source position.
pub fn report(p: &Program, map: &SourceMap) -> String {
    let mut out = String::new();
    let mut kernels: Vec<&Kernel> = p.kernels.iter().collect();
    kernels.sort_by_key(|k| (k.loc.file, k.loc.line, k.loc.col));
    for k in kernels {
        let Some(Some(d)) = p.acc.get(k.directive.0 as usize) else { continue };
        let f = p.functions.get(k.func.0 as usize).map(|f| f.name.as_str()).unwrap_or("?");
        let _ = writeln!(out, "{}: {} construct → kernel `{f}`", map.describe(k.loc), d.kind.name());
        let gangs = match &k.num_gangs {
            Some(Expr { kind: ExprKind::Int(v), .. }) => format!("{v}"),
            Some(_) => "num_gangs(expr)".into(),
            None => "default (--gangs)".into(),
        };
        let _ = writeln!(out, "    gangs: {gangs}{}", if k.single { " (statements outside loop nests)" } else { "" });
        for l in &k.loops {
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
        let check = match &k.plan {
            Ok(p) => {
                let n = p.sites.len();
                format!("an access plan over {n} site{} of shared device memory: a launch whose values prove it race-free is checked on its footprint", if n == 1 { "" } else { "s" })
            }
            Err(why) => format!("checked access by access ({why})"),
        };
        let _ = writeln!(out, "    check: {check}");
    }
    // Portability notes on the data clauses (`kernel::outline::bare_pointer_notes`).
    let mut notes: Vec<&crate::diag::Diagnostic> = p.findings.iter().filter(|f| f.kind == "portability").collect();
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
