//! Collecting findings: one per kind and pair of source sites (a racy loop reports its race
//! once, not once per iteration), in the order they were found, at most [`MAX_FINDINGS`].

use std::collections::HashSet;

use accsim_core::diag::{Diagnostic, Loc, Severity};
use accsim_core::finding::FindingKind;

use super::Thread;

/// Findings kept per run; more are counted, not kept.
pub const MAX_FINDINGS: usize = 200;

#[derive(Default)]
pub struct Findings {
    seen: HashSet<(&'static str, Loc, Option<Loc>)>,
    pub list: Vec<Diagnostic>,
    /// For each finding of `list`, the device thread whose access found it (the primary
    /// site's thread), when device code was running; the GUI selects it.
    pub threads: Vec<Option<Thread>>,
    /// Findings beyond [`MAX_FINDINGS`].
    pub dropped: usize,
}

impl Findings {
    pub fn push(&mut self, d: Diagnostic) {
        self.push_by(d, None);
    }

    /// Keeps `d`, found by an access of device thread `thread`.
    pub fn push_by(&mut self, d: Diagnostic, thread: Option<Thread>) {
        let key = (d.kind, d.primary.unwrap_or_default(), d.related.first().map(|r| r.0));
        if !self.seen.insert(key) {
            return;
        }
        if self.list.len() >= MAX_FINDINGS {
            self.dropped += 1;
            return;
        }
        self.list.push(d);
        self.threads.push(thread);
    }
}

/// A finding of the given kind and severity.
pub fn finding(kind: FindingKind, severity: Severity, message: String, loc: Loc) -> Diagnostic {
    kind.diagnostic(severity, message, loc)
}

/// "`a[3]`" for an element of size `size` at byte `offset` of an array named `name`, "`x`" for
/// a whole scalar (`whole`: the access covers the object), or "`s` (byte 12)" when the offset
/// is not a multiple of the size.
pub fn element(name: &str, offset: u32, size: u64, whole: bool) -> String {
    if name.is_empty() {
        return format!("byte {offset} of a device block");
    }
    if size > 0 && (offset as u64).is_multiple_of(size) {
        if offset == 0 && whole {
            return format!("`{name}`");
        }
        return format!("`{name}[{}]`", offset as u64 / size);
    }
    format!("`{name}` (byte {offset})")
}
