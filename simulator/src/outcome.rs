//! How a run of `accsim run` or `accsim check` ended, unambiguously, for people and graders
//! (issue 14).
//!
//! A program's own exit status can be any value, 2, 3, 4 and 101 included, which README reserves
//! for accsim's outcomes; a grader that reads only the status cannot tell "the program returned
//! 3" from "accsim stopped it at a runtime error". `--report FILE` therefore writes a JSON
//! document that says which it was:
//!
//! ```text
//! {"command": "run" | "check",
//!  "outcome": {"kind": "exited", "status": 0}
//!           | {"kind": "aborted", "status": 134}          abort() or a failed assert
//!           | {"kind": "trapped", "status": 3, "error": FINDING}
//!           | {"kind": "limit", "status": 4, "limit": "max-steps" | "max-memory" | "max-time" | ..., "error": FINDING}
//!           | {"kind": "compile-error", "status": 2, "errors": [FINDING...]}
//!           | {"kind": "internal", "status": 101, "error": FINDING},
//!  "findings": [FINDING...],
//!  "figures": {"wall_seconds": .., "launches": .., "kernel_steps": .., "bytes_to_device": ..,
//!              "bytes_from_device": .., "device_bytes_allocated": ..}}
//! ```
//!
//! where FINDING is `{"kind", "severity", "file", "line", "column", "message", "notes", "help"}`,
//! the form of `check --format json`. `status` is the exit status accsim itself returns.
//!
//! The report is written to its own file, never to stdout, so nothing the program prints can
//! forge or corrupt it.

use std::time::Instant;

use accsim_core::diag::{Class, Diagnostic, SourceMap, Severity};
use accsim_core::exec::events::{Record, RecordKind};
use accsim_core::exec::RunOutcome;
use serde_json::{json, Value};

/// How a run ended.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// The program returned from `main` or called `exit`, with this status (0..=255).
    Exited(i32),
    /// `abort()` or a failed `assert` (status 134, as a shell reports SIGABRT).
    Aborted,
    /// accsim stopped the program at a runtime error in it (status 3).
    Trapped(Diagnostic),
    /// A limit was reached (status 4): the diagnostic's kind names it.
    Limit(Diagnostic),
    /// The program does not compile (status 2).
    CompileError(Vec<Diagnostic>),
    /// A bug in accsim (status 101).
    Internal(Diagnostic),
    /// The observer stopped the run (status 130; not reachable from the command line).
    Stopped,
}

impl Outcome {
    /// The outcome of an interpreter run.
    pub fn of_run(o: &RunOutcome) -> Outcome {
        match o {
            RunOutcome::Exited(s) => Outcome::Exited(*s),
            RunOutcome::Aborted => Outcome::Aborted,
            RunOutcome::Trapped(d) if d.class == Class::Internal => Outcome::Internal(d.clone()),
            RunOutcome::Trapped(d) => Outcome::Trapped(d.clone()),
            RunOutcome::Limit(d) => Outcome::Limit(d.clone()),
            RunOutcome::Stopped => Outcome::Stopped,
        }
    }

    /// The outcome of a program that did not compile.
    pub fn of_compile_errors(diags: &[Diagnostic]) -> Outcome {
        match diags.iter().find(|d| d.class == Class::Internal) {
            Some(d) => Outcome::Internal(d.clone()),
            None => Outcome::CompileError(diags.iter().filter(|d| d.severity == Severity::Error).cloned().collect()),
        }
    }

    /// The exit status of `accsim run` for this outcome (README "Exit status").
    pub fn run_status(&self) -> u8 {
        match self {
            Outcome::Exited(s) => (*s).clamp(0, 255) as u8,
            Outcome::Aborted => 134,
            Outcome::Trapped(_) => 3,
            Outcome::Limit(_) => 4,
            Outcome::CompileError(_) => 2,
            Outcome::Internal(_) => 101,
            Outcome::Stopped => 130,
        }
    }

    /// `check`'s finding for a program that did not finish normally on its own terms: a
    /// non-zero exit status or an abort (a failed `assert`). Traps and limits are findings
    /// already (their diagnostic).
    pub fn exit_finding(&self, main_loc: accsim_core::diag::Loc) -> Option<Diagnostic> {
        let (kind, message) = match self {
            Outcome::Exited(0) => return None,
            Outcome::Exited(s) => ("exit-status", format!("the program exited with status {s}")),
            Outcome::Aborted => ("aborted", "the program aborted (`abort()` or a failed `assert`, status 134)".to_string()),
            _ => return None,
        };
        Some(
            Diagnostic::error(kind, message, main_loc)
                .with_note("the program's own output (stderr) says why; `main` is shown as the place")
                .with_help("a test harness or grader reads this as a failed run"),
        )
    }

    /// The `outcome` object of the report.
    pub fn to_json(&self, map: &SourceMap, status: u8) -> Value {
        match self {
            Outcome::Exited(s) => json!({"kind": "exited", "status": status, "program_status": s}),
            Outcome::Aborted => json!({"kind": "aborted", "status": status}),
            Outcome::Trapped(d) => json!({"kind": "trapped", "status": status, "error": finding_json(d, map)}),
            Outcome::Limit(d) => json!({"kind": "limit", "status": status, "limit": d.kind, "error": finding_json(d, map)}),
            Outcome::CompileError(ds) => {
                json!({"kind": "compile-error", "status": status, "errors": ds.iter().map(|d| finding_json(d, map)).collect::<Vec<_>>()})
            }
            Outcome::Internal(d) => json!({"kind": "internal", "status": status, "error": finding_json(d, map)}),
            Outcome::Stopped => json!({"kind": "stopped", "status": status}),
        }
    }
}

/// The figures of a run: wall time and what the device did.
#[derive(Clone, Debug, Default)]
pub struct Figures {
    pub wall_seconds: f64,
    pub launches: u64,
    pub kernel_steps: u64,
    pub bytes_to_device: u64,
    pub bytes_from_device: u64,
    pub device_bytes_allocated: u64,
}

impl Figures {
    /// The figures of the events of a run that started at `start`.
    pub fn of_events(events: &[Record], start: Instant) -> Figures {
        let mut f = Figures { wall_seconds: start.elapsed().as_secs_f64(), ..Figures::default() };
        for e in events {
            match &e.kind {
                RecordKind::Launch { steps, .. } => {
                    f.launches += 1;
                    f.kernel_steps = f.kernel_steps.saturating_add(*steps);
                }
                RecordKind::Upload { bytes, .. } => f.bytes_to_device = f.bytes_to_device.saturating_add(*bytes),
                RecordKind::Download { bytes, .. } => f.bytes_from_device = f.bytes_from_device.saturating_add(*bytes),
                RecordKind::Alloc { bytes, .. } => f.device_bytes_allocated = f.device_bytes_allocated.saturating_add(*bytes),
                RecordKind::Free { .. } | RecordKind::Wait { .. } => {}
            }
        }
        f
    }

    fn to_json(&self) -> Value {
        json!({
            "wall_seconds": (self.wall_seconds * 1000.0).round() / 1000.0,
            "launches": self.launches,
            "kernel_steps": self.kernel_steps,
            "bytes_to_device": self.bytes_to_device,
            "bytes_from_device": self.bytes_from_device,
            "device_bytes_allocated": self.device_bytes_allocated,
        })
    }
}

/// A finding's severity as the JSON and SARIF documents spell it.
pub fn severity_name(d: &Diagnostic) -> &'static str {
    match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

/// One finding as `check --format json` writes it.
pub fn finding_json(d: &Diagnostic, map: &SourceMap) -> Value {
    let loc = d.primary.unwrap_or_default();
    let mut notes: Vec<Value> = d.related.iter().map(|(l, m)| json!({"file": map.name(l.file), "line": l.line, "message": m})).collect();
    notes.extend(d.notes.iter().map(|n| json!({"file": map.name(loc.file), "line": loc.line, "message": n})));
    json!({
        "kind": d.kind,
        "severity": severity_name(d),
        "file": map.name(loc.file),
        "line": loc.line,
        "column": loc.col,
        "message": d.headline(),
        "notes": notes,
        "help": d.help,
    })
}

/// The `--report` document of a run.
pub fn report_json(command: &str, outcome: &Outcome, status: u8, findings: &[Diagnostic], figures: &Figures, map: &SourceMap) -> String {
    let doc = json!({
        "command": command,
        "outcome": outcome.to_json(map, status),
        "findings": findings.iter().map(|d| finding_json(&map.localized(d), map)).collect::<Vec<_>>(),
        "figures": figures.to_json(),
    });
    format!("{doc}\n")
}

/// A file name as a SARIF `artifactLocation.uri` (a URI reference, RFC 3986): every byte
/// outside the unreserved characters and `/` percent-encoded, so a space, `#`, `%` or `?` in
/// a path cannot change what the URI names.
pub fn uri_reference(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uri_reference_encodes_reserved_and_non_ascii_bytes() {
        assert_eq!(uri_reference("samples/a b#1%.c"), "samples/a%20b%231%25.c");
        assert_eq!(uri_reference("dir/ü.c"), "dir/%C3%BC.c");
        assert_eq!(uri_reference("plain/file_1-2~.c"), "plain/file_1-2~.c");
    }

    #[test]
    fn a_program_status_that_equals_a_reserved_one_is_still_exited() {
        let map = SourceMap::new();
        let o = Outcome::of_run(&RunOutcome::Exited(3));
        assert_eq!(o.run_status(), 3);
        assert_eq!(o.to_json(&map, 3)["kind"], "exited");
        let d = Diagnostic::error("out-of-bounds", "x", Default::default());
        let t = Outcome::of_run(&RunOutcome::Trapped(d));
        assert_eq!(t.to_json(&map, 3)["kind"], "trapped");
    }
}
