//! The typed result of parsing one directive: [`Directive`], its [`Clause`]s and their payloads.
//!
//! Every span is a byte range into the text given to [`super::parse_directive`] (the text after
//! `#pragma acc`). C expressions are kept as source text ([`ExprSrc`]); the lowering parses them
//! as C in the scope where the directive appears.

use std::ops::Range;

/// One parsed directive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Directive {
    pub kind: DirectiveKind,
    /// In source order. `device_type` clauses are not in this list: each clause that follows one
    /// records its group in [`Clause::device_types`] (§2.4).
    pub clauses: Vec<Clause>,
    /// Span of the directive name (both words for `parallel loop`, `enter data` …).
    pub span: Range<usize>,
}

/// The directives of spec chapter 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DirectiveKind {
    /// §2.5.1
    Parallel,
    /// §2.5.2
    Kernels,
    /// §2.6.3
    Data,
    /// §2.6.4
    EnterData,
    /// §2.6.4
    ExitData,
    /// §2.6.6
    HostData,
    /// §2.7
    Loop,
    /// §2.9 (combined directives)
    ParallelLoop,
    /// §2.9
    KernelsLoop,
    /// §2.8: `cache(var-list)`.
    Cache(Vec<VarRef>),
    /// `atomic [read|write|update|capture]` (OpenACC 2.0 final, §2.12); bare `atomic` is `update`.
    Atomic(AtomicKind),
    /// §2.11.1
    Update,
    /// §2.13.3: `wait [(int-expr-list)]`; the argument list of the directive itself.
    Wait(Option<Vec<ExprSrc>>),
    /// §2.10
    Declare,
    /// §2.12.1: `routine [(name)]`.
    Routine(Option<RoutineName>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AtomicKind {
    Read,
    Write,
    Update,
    Capture,
}

impl AtomicKind {
    pub fn as_str(self) -> &'static str {
        match self {
            AtomicKind::Read => "read",
            AtomicKind::Write => "write",
            AtomicKind::Update => "update",
            AtomicKind::Capture => "capture",
        }
    }
}

/// The name in `routine(name)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoutineName {
    pub name: String,
    pub span: Range<usize>,
}

/// One clause. `span` covers the clause name and its parenthesized arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clause {
    pub kind: ClauseKind,
    pub span: Range<usize>,
    /// The spelling the user wrote (`pcopy`, `present_or_copy`, `self` …), for messages.
    pub spelling: &'static str,
    /// `Some(group)` when the clause follows a `device_type`/`dtype` clause: the device types of
    /// the nearest one before it. `None` for clauses before any `device_type` clause (§2.4).
    pub device_types: Option<Vec<DeviceTypeName>>,
}

/// An argument of `device_type(...)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeviceTypeName {
    /// `device_type(*)`: every device type not named in another `device_type` clause.
    Any,
    /// An architecture name, as written (`nvidia`, `radeon`, `host` …).
    Named(String),
}

/// A clause with its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClauseKind {
    If(ExprSrc),
    /// `async` or `async(int-expr)` (§2.13.1).
    Async(Option<ExprSrc>),
    /// `wait` or `wait(int-expr-list)` (§2.13.2).
    Wait(Option<Vec<ExprSrc>>),
    NumGangs(ExprSrc),
    NumWorkers(ExprSrc),
    VectorLength(ExprSrc),
    /// `reduction(op: var-list)` (§2.5.11).
    Reduction {
        op: ReductionOp,
        op_span: Range<usize>,
        vars: Vec<VarRef>,
    },
    /// Every data clause of §2.6.5 and §2.10, abbreviations folded in.
    Data(DataClause, Vec<VarRef>),
    Private(Vec<VarRef>),
    FirstPrivate(Vec<VarRef>),
    /// `default(none)`, the only form OpenACC 2.0 has (§2.5.12).
    DefaultNone,
    /// `collapse(n)` (§2.7.1).
    Collapse(ExprSrc),
    /// `gang [( [num:]int-expr [, static:(int-expr|*)] )]` (§2.7.2); bare `gang` on `routine`.
    Gang(GangArgs),
    /// `worker [( [num:]int-expr )]` (§2.7.3).
    Worker(Option<ExprSrc>),
    /// `vector [( [length:]int-expr )]` (§2.7.4).
    Vector(Option<ExprSrc>),
    Seq,
    Auto,
    Independent,
    /// `tile(size-list)` (§2.7.7).
    Tile(Vec<TileSize>),
    /// `use_device(var-list)` (§2.6.6.1).
    UseDevice(Vec<VarRef>),
    /// `host(var-list)` on `update`, or its synonyms `self` and `local` (§2.11.1.2).
    Host(HostSpelling, Vec<VarRef>),
    /// `device(var-list)` on `update` (§2.11.1.3).
    Device(Vec<VarRef>),
    /// `bind(name)` or `bind("string")` on `routine` (§2.12.1.5).
    Bind(BindName),
    /// `nohost` on `routine` (§2.12.1.7).
    NoHost,
}

/// Which spelling of the update-to-host clause was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostSpelling {
    Host,
    /// `self`, the OpenACC 2.0 final synonym.
    SelfClause,
    /// `local`, the public comment draft's name (§2.11.1.1).
    Local,
}

/// The operators of the §2.5.11 table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReductionOp {
    Add,
    Mul,
    Max,
    Min,
    BitAnd,
    BitOr,
    BitXor,
    And,
    Or,
}

impl ReductionOp {
    /// All operators with their C spelling, in the spec's table order.
    pub const ALL: [(ReductionOp, &'static str); 9] = [
        (ReductionOp::Add, "+"),
        (ReductionOp::Mul, "*"),
        (ReductionOp::Max, "max"),
        (ReductionOp::Min, "min"),
        (ReductionOp::BitAnd, "&"),
        (ReductionOp::BitOr, "|"),
        (ReductionOp::BitXor, "^"),
        (ReductionOp::And, "&&"),
        (ReductionOp::Or, "||"),
    ];

    pub fn as_str(self) -> &'static str {
        ReductionOp::ALL
            .iter()
            .find(|(op, _)| *op == self)
            .map_or("?", |(_, s)| s)
    }

    pub fn from_spelling(s: &str) -> Option<ReductionOp> {
        if s == "-" {
            // OpenACC 1.0's `-` reduction: a sum (partial results are added).
            return Some(ReductionOp::Add);
        }
        ReductionOp::ALL
            .iter()
            .find(|(_, sp)| *sp == s)
            .map(|(op, _)| *op)
    }
}

/// The data clauses (§2.6.5, §2.10), each abbreviation folded into its long form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DataClause {
    Copy,
    CopyIn,
    CopyOut,
    Create,
    PresentOrCopy,
    PresentOrCopyIn,
    PresentOrCopyOut,
    PresentOrCreate,
    Present,
    DevicePtr,
    Delete,
    DeviceResident,
    Link,
}

/// Arguments of a `gang` clause. A positional argument is `num`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GangArgs {
    pub num: Option<ExprSrc>,
    pub static_: Option<GangStatic>,
}

impl GangArgs {
    pub fn is_empty(&self) -> bool {
        self.num.is_none() && self.static_.is_none()
    }
}

/// The argument of `static:` in a `gang` clause.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GangStatic {
    /// `static:*`: the implementation chooses the chunk size.
    Any(Range<usize>),
    Chunk(ExprSrc),
}

/// One size in `tile(...)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TileSize {
    /// `*`: the implementation chooses.
    Any(Range<usize>),
    Size(ExprSrc),
}

/// The argument of `bind`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BindName {
    /// `bind(name)`: a C identifier.
    Identifier { name: String, span: Range<usize> },
    /// `bind("name")`: used unmodified; `value` is the literal's text without the quotes
    /// (escape sequences are kept as written).
    String { value: String, span: Range<usize> },
}

/// A C expression kept as source text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExprSrc {
    /// The expression as written, line continuations (`\` newline) replaced by a space.
    pub text: String,
    pub span: Range<usize>,
}

/// A variable, member, array element or subarray in a var-list (§2.6.5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VarRef {
    /// The variable or member expression before the first `[`: `a`, `s.arr`, `p->x`, `(*p)`.
    /// When subscripts are followed by more (`a[i].x`, an element's member) and none of them is
    /// a range, the whole expression is the base and `sections` is empty.
    pub base: ExprSrc,
    /// One entry per `[...]`, outermost dimension first.
    pub sections: Vec<Section>,
    pub span: Range<usize>,
}

impl VarRef {
    /// True when at least one subscript is a `lo:len` range.
    pub fn is_subarray(&self) -> bool {
        self.sections
            .iter()
            .any(|s| matches!(s, Section::Range { .. }))
    }
}

/// One subscript of a [`VarRef`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Section {
    /// `[i]`: no colon.
    Index(ExprSrc),
    /// `[lo:len]`, `[:len]`, `[lo:]`, `[:]`. `span` covers the brackets.
    Range {
        lower: Option<ExprSrc>,
        length: Option<ExprSrc>,
        span: Range<usize>,
    },
}

/// A directive that could not be parsed or breaks a chapter 2 restriction: a bug in the program.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct DirectiveError {
    pub message: String,
    /// The offending clause or token; empty at the end of the text when something is missing.
    pub span: Range<usize>,
    pub help: Option<String>,
    /// Other places of the directive the error involves (the earlier clause of a pair), with
    /// what each is.
    pub related: Vec<(Range<usize>, String)>,
}

impl DirectiveError {
    pub(crate) fn new(message: impl Into<String>, span: Range<usize>) -> DirectiveError {
        DirectiveError {
            message: message.into(),
            span,
            help: None,
            related: Vec::new(),
        }
    }

    pub(crate) fn with_related(mut self, span: Range<usize>, what: impl Into<String>) -> DirectiveError {
        self.related.push((span, what.into()));
        self
    }

    pub(crate) fn with_help(mut self, help: impl Into<String>) -> DirectiveError {
        self.help = Some(help.into());
        self
    }
}
