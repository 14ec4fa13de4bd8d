//! What Cray CCE says about a program (`accsim info --cray`), from the CCE man page
//! (seeds/003):
//!
//! - **Partition Mapping**: "The compiler divides a kernel into one or more gangs (blocks) of
//!   vectors (threads) … each gang (block) is further broken up into workers (warps)": gang →
//!   thread block, worker → warp, vector → thread; the man page's examples say where each
//!   loop's iterations go, and that a nest whose outermost loop is not `gang` runs in a single
//!   thread block.
//! - **ATOMIC**: the statement forms of `read`, `write`, `update` and `capture`, "operator is one
//!   of +, *, -, /, &, ^, |, <<, or >>".
//! - **Limits** ([`limits`], warnings under `--cray`): "If the user specifies num_workers,
//!   vector_length can only be 32. If the user does not specify num_workers, then vector_length
//!   can be 1, 32, 64, 128, 256, 512 or 1024" (PARALLEL and KERNELS clauses). Values known at
//!   compile time are checked there; others at each launch (a warning naming the value).

use std::fmt::Write as _;

use super::cray::AccModel;
use crate::diag::{Diagnostic, Severity, SourceMap};
use crate::ir::acc::{AccKind, KernelId, LoopInfo};
use crate::ir::{Expr, ExprKind, Program};

/// The `vector_length` values CCE accepts without `num_workers`.
pub const VECTOR_LENGTHS: [i128; 7] = [1, 32, 64, 128, 256, 512, 1024];

/// Threads per worker (warp): "There may be up to 32 threads in a worker (warp)".
pub const WARP: i128 = 32;

fn constant(e: &Option<Expr>) -> Option<i128> {
    match e {
        Some(Expr { kind: ExprKind::Int(v), .. }) => Some(*v as i64 as i128),
        _ => None,
    }
}

/// Where CCE puts the iterations of one loop, in the man page's words.
fn placement(l: &LoopInfo, outermost_gang: bool) -> String {
    let mut levels = Vec::new();
    if l.gang {
        levels.push("gang → thread block");
    }
    if l.worker {
        levels.push("worker → warp");
    }
    if l.vector {
        levels.push("vector → thread");
    }
    let single = if outermost_gang { "" } else { ", in a single thread block (the outermost loop is not gang)" };
    let text = match (l.gang, l.worker, l.vector) {
        (false, false, false) => return "runs sequentially in each thread that reaches it".into(),
        (true, false, false) => "every iteration on the next thread block; once all blocks are used, wrap around to the first block".to_string(),
        (true, true, false) => "every iteration on the next warp within the current thread block until all its warps are used, then on the first warp of the next block".to_string(),
        (true, false, true) | (true, true, true) => "every iteration on the next thread within the current warp of the current block until the warp or block is full, then on to the next warp, or block when the warps are full".to_string(),
        (false, true, false) => format!("every iteration on the next warp{single}; after the last warp, wrap to the first"),
        (false, true, true) => format!("every iteration on the next available thread in the next warp{single}; after the last warp, wrap to the first"),
        (false, false, true) => format!("every iteration on the next thread in the warp, then on to the first thread of the next warp{single}"),
    };
    format!("{text} ({})", levels.join(", "))
}

/// `accsim info --cray`: per compute construct, CCE's launch shape and where each loop's
/// iterations go; per `atomic`, the form CCE documents; and the execution model in force.
pub fn report(p: &Program, info: &crate::kernel::ProgramInfo, map: &SourceMap, model: AccModel) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Cray CCE: acc_model={}", model.name());
    let mut kernels: Vec<_> = p.kernels.iter().enumerate().map(|(i, k)| (KernelId(i as u32), k)).collect();
    kernels.sort_by_key(|(_, k)| (k.loc.file, k.loc.line, k.loc.col));
    for (kid, k) in kernels {
        let blocks = match constant(&k.num_gangs) {
            Some(n) => n.to_string(),
            None if k.num_gangs.is_some() => "num_gangs(…)".into(),
            None => "as many as the loop needs".into(),
        };
        let threads = match (constant(&k.num_workers), constant(&k.vector_length)) {
            (Some(w), Some(v)) => format!("{} ({w} warps of {v})", w * v),
            (None, Some(v)) if k.num_workers.is_none() => format!("{v}"),
            _ => "chosen by the compiler".into(),
        };
        let sync = if model.kernels_async() { "on the implicit auto-async queue (the host goes on)" } else { "synchronously" };
        let _ = writeln!(out, "{}: CCE launches this construct's kernel {sync}: thread blocks (gangs): {blocks}; threads per block: {threads}", map.describe(k.loc));
        let loops = info.loops(kid);
        let outermost_gang = loops.first().is_none_or(|l| l.gang);
        for l in loops {
            let _ = writeln!(out, "    {}: CCE places {}", map.describe(l.loc), placement(l, outermost_gang));
        }
    }
    // The program's own `atomic` directives (not those accsim makes to combine reductions).
    let written = p.directives.iter().zip(&p.acc).filter(|(site, _)| site.text.trim_start().starts_with("atomic"));
    for (site, d) in written {
        if let Some(AccKind::Atomic(kind)) = d.as_ref().map(|d| &d.kind) {
            let forms = match kind.as_str() {
                "read" => "v = x",
                "write" => "x = expr",
                "capture" => "v = x++, v = x--, v = ++x, v = --x, v = x op= expr, v = x = x op expr, v = x = expr op x, or an update/capture sequence",
                _ => "x++, x--, ++x, --x, x op= expr, x = x op expr or x = expr op x",
            };
            let _ = writeln!(out, "{}: CCE atomic {}: one of {forms}, with op one of + * - / & ^ | << >> and x a scalar", map.describe(site.loc), kind.as_str());
        }
    }
    out
}

/// The rule of CCE's that `vector_length(v)` breaks, if it breaks one: with `num_workers` it
/// must be 32, without one of [`VECTOR_LENGTHS`].
pub fn vector_length_rule(v: i128, with_workers: bool) -> Option<&'static str> {
    match with_workers {
        true if v != WARP => Some("with num_workers, vector_length can only be 32"),
        false if !VECTOR_LENGTHS.contains(&v) => Some("without num_workers, vector_length can be 1, 32, 64, 128, 256, 512 or 1024"),
        _ => None,
    }
}

/// The `cray-limit` warning for a `vector_length` CCE does not accept; `at_launch`: the value
/// came from a non-constant expression, evaluated at the launch.
pub fn vector_length_warning(v: i128, with_workers: bool, loc: crate::diag::Loc, at_launch: bool) -> Option<Diagnostic> {
    let rule = vector_length_rule(v, with_workers)?;
    let what = if at_launch { format!("this launch's vector_length is {v}, and Cray CCE does not accept vector_length({v})") } else { format!("Cray CCE does not accept vector_length({v})") };
    let mut d = Diagnostic::error("cray-limit", format!("{what}: {rule} (CCE man page, PARALLEL)"), loc)
        .with_help("accsim runs the value as OpenACC 2.0 allows (§2.5.7); choose an accepted one to run the same under CCE");
    d.severity = Severity::Warning;
    Some(d)
}

/// CCE's limits on the launch clauses, as warnings (kind `cray-limit`): `vector_length` must be
/// 32 with `num_workers`, and one of [`VECTOR_LENGTHS`] without. Values known at compile time
/// only: a non-constant `vector_length` is checked at each launch
/// (`exec::openacc::cray_vector_length_at_launch`).
pub fn limits(p: &Program) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    for k in &p.kernels {
        let Some(v) = constant(&k.vector_length) else { continue };
        let loc = k.vector_length.as_ref().map_or(k.loc, |e| e.loc);
        found.extend(vector_length_warning(v, k.num_workers.is_some(), loc, false));
    }
    found.sort_by_key(|d| d.primary.map(|l| (l.file, l.line, l.col)));
    found
}

/// A `vector_length` clause whose value is known only at launch: where it is, and whether the
/// construct has `num_workers` (what [`vector_length_rule`] needs).
pub fn launch_checked_vector_length(k: &crate::ir::acc::Kernel) -> Option<(crate::diag::Loc, bool)> {
    let e = k.vector_length.as_ref()?;
    constant(&k.vector_length).is_none().then_some((e.loc, k.num_workers.is_some()))
}
