//! Which clauses go where: the clause list of every directive of chapter 2, the clauses that may
//! follow a `device_type` clause (§2.4), and the clause spellings with their abbreviations.
//!
//! The seed document is the March 2013 public comment draft. Where it and the ratified
//! OpenACC 2.0 (June 2013) differ, these tables follow the ratified text:
//! - after `device_type`, `parallel` takes async, wait, num_gangs, num_workers, vector_length (the
//!   draft also lists `if`), `kernels` takes async and wait (the draft: if, async), `update` takes
//!   async and wait (the draft: if, async, wait), `loop` also takes `independent`;
//! - `update` accepts `self` as well as `host` and the draft's `local`;
//! - `atomic` (§2.12 of the ratified text) exists and takes no clauses;
//! - `wait` takes an `async` clause.

use super::ast::{DataClause, DirectiveKind};

/// A clause, independent of its arguments and of the spelling used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClauseName {
    If,
    Async,
    Wait,
    NumGangs,
    NumWorkers,
    VectorLength,
    Reduction,
    Data(DataClause),
    Private,
    FirstPrivate,
    Default,
    Collapse,
    Gang,
    Worker,
    Vector,
    Seq,
    Auto,
    Independent,
    Tile,
    UseDevice,
    /// `host`, `self`, `local`.
    Host,
    Device,
    Bind,
    NoHost,
    DeviceType,
}

use ClauseName as C;
use DataClause as D;

/// Every spelling of every clause: (spelling, clause). The first spelling of a clause is its
/// canonical name (§2.6.5.8–11 abbreviations `pcopy` …; §2.4 `dtype`).
pub(crate) const SPELLINGS: &[(&str, ClauseName)] = &[
    ("if", C::If),
    ("async", C::Async),
    ("wait", C::Wait),
    ("num_gangs", C::NumGangs),
    ("num_workers", C::NumWorkers),
    ("vector_length", C::VectorLength),
    ("reduction", C::Reduction),
    ("copy", C::Data(D::Copy)),
    ("copyin", C::Data(D::CopyIn)),
    ("copyout", C::Data(D::CopyOut)),
    ("create", C::Data(D::Create)),
    ("present_or_copy", C::Data(D::PresentOrCopy)),
    ("pcopy", C::Data(D::PresentOrCopy)),
    ("present_or_copyin", C::Data(D::PresentOrCopyIn)),
    ("pcopyin", C::Data(D::PresentOrCopyIn)),
    ("present_or_copyout", C::Data(D::PresentOrCopyOut)),
    ("pcopyout", C::Data(D::PresentOrCopyOut)),
    ("present_or_create", C::Data(D::PresentOrCreate)),
    ("pcreate", C::Data(D::PresentOrCreate)),
    ("present", C::Data(D::Present)),
    ("deviceptr", C::Data(D::DevicePtr)),
    ("delete", C::Data(D::Delete)),
    ("device_resident", C::Data(D::DeviceResident)),
    ("link", C::Data(D::Link)),
    ("private", C::Private),
    ("firstprivate", C::FirstPrivate),
    ("default", C::Default),
    ("collapse", C::Collapse),
    ("gang", C::Gang),
    ("worker", C::Worker),
    ("vector", C::Vector),
    ("seq", C::Seq),
    ("auto", C::Auto),
    ("independent", C::Independent),
    ("tile", C::Tile),
    ("use_device", C::UseDevice),
    ("host", C::Host),
    ("self", C::Host),
    ("local", C::Host),
    ("device", C::Device),
    ("bind", C::Bind),
    ("nohost", C::NoHost),
    ("device_type", C::DeviceType),
    ("dtype", C::DeviceType),
];

impl ClauseName {
    /// The spec's name for the clause (`present_or_copy` for `pcopy`).
    pub fn canonical(self) -> &'static str {
        SPELLINGS
            .iter()
            .find(|(_, c)| *c == self)
            .map_or("?", |(s, _)| s)
    }

    /// The clause a spelling names, with the spelling as a `'static` string.
    pub fn lookup(spelling: &str) -> Option<(ClauseName, &'static str)> {
        SPELLINGS
            .iter()
            .find(|(s, _)| *s == spelling)
            .map(|(s, c)| (*c, *s))
    }
}

impl DataClause {
    /// The spec's (long) name of the data clause.
    pub fn as_str(self) -> &'static str {
        ClauseName::Data(self).canonical()
    }
}

/// The data clauses of compute constructs and `data` (§2.5.1, §2.5.2, §2.6.3).
const REGION_DATA: &[ClauseName] = &[
    C::Data(D::Copy),
    C::Data(D::CopyIn),
    C::Data(D::CopyOut),
    C::Data(D::Create),
    C::Data(D::Present),
    C::Data(D::PresentOrCopy),
    C::Data(D::PresentOrCopyIn),
    C::Data(D::PresentOrCopyOut),
    C::Data(D::PresentOrCreate),
    C::Data(D::DevicePtr),
];

/// §2.5.1
const PARALLEL: &[ClauseName] = &[
    C::If,
    C::Async,
    C::Wait,
    C::NumGangs,
    C::NumWorkers,
    C::VectorLength,
    C::DeviceType,
    C::Reduction,
    C::Private,
    C::FirstPrivate,
    C::Default,
];
/// §2.5.1: may follow `device_type` (ratified 2.0 list; see the module doc).
const PARALLEL_DT: &[ClauseName] = &[
    C::Async,
    C::Wait,
    C::NumGangs,
    C::NumWorkers,
    C::VectorLength,
];

/// §2.5.2
const KERNELS: &[ClauseName] = &[C::If, C::Async, C::Wait, C::DeviceType, C::Default];
const KERNELS_DT: &[ClauseName] = &[C::Async, C::Wait];

/// §2.6.3
const DATA: &[ClauseName] = &[C::If];

/// §2.6.4
const ENTER_DATA: &[ClauseName] = &[
    C::If,
    C::Async,
    C::Wait,
    C::Data(D::CopyIn),
    C::Data(D::Create),
    C::Data(D::PresentOrCopyIn),
    C::Data(D::PresentOrCreate),
];
/// §2.6.4
const EXIT_DATA: &[ClauseName] = &[
    C::If,
    C::Async,
    C::Wait,
    C::Data(D::CopyOut),
    C::Data(D::Delete),
];

/// §2.6.6
const HOST_DATA: &[ClauseName] = &[C::UseDevice];

/// §2.7
const LOOP: &[ClauseName] = &[
    C::Collapse,
    C::Gang,
    C::Worker,
    C::Vector,
    C::Seq,
    C::Auto,
    C::Tile,
    C::DeviceType,
    C::Independent,
    C::Private,
    C::Reduction,
];
/// §2.7: may follow `device_type`.
const LOOP_DT: &[ClauseName] = &[
    C::Collapse,
    C::Gang,
    C::Worker,
    C::Vector,
    C::Seq,
    C::Auto,
    C::Tile,
    C::Independent,
];

/// §2.10 (with `device_resident`, §2.10.1)
const DECLARE: &[ClauseName] = &[
    C::Data(D::Copy),
    C::Data(D::CopyIn),
    C::Data(D::CopyOut),
    C::Data(D::Create),
    C::Data(D::Present),
    C::Data(D::PresentOrCopy),
    C::Data(D::PresentOrCopyIn),
    C::Data(D::PresentOrCopyOut),
    C::Data(D::PresentOrCreate),
    C::Data(D::DevicePtr),
    C::Data(D::DeviceResident),
    C::Data(D::Link),
];

/// §2.11.1
const UPDATE: &[ClauseName] = &[C::If, C::Async, C::Wait, C::DeviceType, C::Host, C::Device];
const UPDATE_DT: &[ClauseName] = &[C::Async, C::Wait];

/// §2.13.3
const WAIT: &[ClauseName] = &[C::Async];

/// §2.12.1
const ROUTINE: &[ClauseName] = &[
    C::Gang,
    C::Worker,
    C::Vector,
    C::Seq,
    C::Bind,
    C::DeviceType,
    C::NoHost,
];
const ROUTINE_DT: &[ClauseName] = &[C::Gang, C::Worker, C::Vector, C::Seq, C::Bind];

/// The directive's own clause lists: one for a single directive, two for a combined one (§2.9:
/// the union of the two directives' clauses).
fn lists(
    kind: &DirectiveKind,
) -> (
    &'static [&'static [ClauseName]],
    &'static [&'static [ClauseName]],
) {
    match kind {
        DirectiveKind::Parallel => (&[PARALLEL, REGION_DATA], &[PARALLEL_DT]),
        DirectiveKind::Kernels => (&[KERNELS, REGION_DATA], &[KERNELS_DT]),
        DirectiveKind::Data => (&[DATA, REGION_DATA], &[]),
        DirectiveKind::EnterData => (&[ENTER_DATA], &[]),
        DirectiveKind::ExitData => (&[EXIT_DATA], &[]),
        DirectiveKind::HostData => (&[HOST_DATA], &[]),
        DirectiveKind::Loop => (&[LOOP], &[LOOP_DT]),
        DirectiveKind::ParallelLoop => (&[PARALLEL, REGION_DATA, LOOP], &[PARALLEL_DT, LOOP_DT]),
        DirectiveKind::KernelsLoop => (&[KERNELS, REGION_DATA, LOOP], &[KERNELS_DT, LOOP_DT]),
        DirectiveKind::Cache(_) | DirectiveKind::Atomic(_) => (&[], &[]),
        DirectiveKind::Update => (&[UPDATE], &[UPDATE_DT]),
        DirectiveKind::Wait(_) => (&[WAIT], &[]),
        DirectiveKind::Declare => (&[DECLARE], &[]),
        DirectiveKind::Routine(_) => (&[ROUTINE], &[ROUTINE_DT]),
    }
}

/// May `clause` appear on a directive of this kind?
pub fn allowed(kind: &DirectiveKind, clause: ClauseName) -> bool {
    lists(kind).0.iter().any(|l| l.contains(&clause))
}

/// May `clause` follow a `device_type` clause on a directive of this kind (§2.4)?
pub fn allowed_after_device_type(kind: &DirectiveKind, clause: ClauseName) -> bool {
    lists(kind).1.iter().any(|l| l.contains(&clause))
}

/// The canonical names of the clauses a directive takes, in the spec's order, no duplicates.
pub fn allowed_names(kind: &DirectiveKind) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for c in lists(kind).0.iter().flat_map(|l| l.iter()) {
        let n = c.canonical();
        if !names.contains(&n) {
            names.push(n);
        }
    }
    names
}

/// The canonical names of the clauses that may follow `device_type` on this directive.
pub fn allowed_after_device_type_names(kind: &DirectiveKind) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for c in lists(kind).1.iter().flat_map(|l| l.iter()) {
        let n = c.canonical();
        if !names.contains(&n) {
            names.push(n);
        }
    }
    names
}

/// Every spelling (abbreviations included) of a clause this directive takes: the candidates for
/// "did you mean" suggestions.
pub(crate) fn allowed_spellings(kind: &DirectiveKind) -> Vec<&'static str> {
    SPELLINGS
        .iter()
        .filter(|(_, c)| allowed(kind, *c))
        .map(|(s, _)| *s)
        .collect()
}

/// Clauses that may appear at most once per `device_type` group (per directive when the clause
/// may not follow `device_type`). §2.5.1, §2.5.2, §2.6.3.1, §2.11.1 for `if`; the others carry a
/// single value or setting, so a second one would contradict the first (OpenACC 2.5 and later
/// state this for `default`, `collapse`, `num_gangs`, `num_workers`, `vector_length`).
pub(crate) const AT_MOST_ONCE: &[ClauseName] = &[
    C::If,
    C::Default,
    C::Collapse,
    C::NumGangs,
    C::NumWorkers,
    C::VectorLength,
    C::Async,
    C::Tile,
    C::Bind,
];
