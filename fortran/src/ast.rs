//! The Fortran syntax tree accsim reads: program units, declarations, executable statements and
//! expressions. Names are lower case (Fortran is case-insensitive).

#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// Integer literal: digits and kind (`None`: default kind).
    Int(String, Option<String>),
    /// Real literal as written, lower case (`1.5d0`, `2.0_8`).
    Real(String),
    Str(String),
    Logical(bool),
    /// `(re, im)` complex constant.
    Complex(Box<Expr>, Box<Expr>),
    Name(String),
    /// `name(args)`: an array element/section or a function call (decided by the translator).
    Apply(String, Vec<Arg>),
    Unary(&'static str, Box<Expr>),
    Binary(&'static str, Box<Expr>, Box<Expr>),
    /// `(/ … /)` or `[ … ]`.
    Constructor(Vec<Expr>),
    /// `(items, var = lo, hi[, step])` inside an I/O list or constructor.
    ImpliedDo { items: Vec<Expr>, var: String, lo: Box<Expr>, hi: Box<Expr>, step: Option<Box<Expr>> },
    Paren(Box<Expr>),
    /// `base%name` or `base%name(subscripts)`: a component of a derived-type value (Fortran 2003
    /// §6.1.2, structure components).
    Component(Box<Expr>, String, Option<Vec<Arg>>),
    /// `designator(lo:hi)` after an array element or component: a substring (Fortran 2003 §6.1.1).
    Substring(Box<Expr>, Option<Box<Expr>>, Option<Box<Expr>>),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    Value(Expr),
    /// `lo:hi[:stride]` with any part left out.
    Range(Option<Expr>, Option<Expr>, Option<Expr>),
    Keyword(String, Expr),
}

/// A type as declared.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeSpec {
    /// `integer`, `real`, `doubleprecision`, `complex`, `logical`, `character`.
    pub base: String,
    /// Kind expression, if given (`real(8)`, `integer(kind=ik)`, `real*8`).
    pub kind: Option<Expr>,
    /// Character length (`character(len=10)`, `character*10`, `len=*` is `Star`).
    pub len: Option<LenSpec>,
    /// `type(name)`: the derived type's name (`base` is `type`).
    pub derived: Option<String>,
}

/// A derived-type definition (Fortran 2003 §4.5.1): `type name` … `end type`, its components
/// declared like variables.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeDef {
    pub name: String,
    pub components: Vec<Decl>,
    /// How many of the unit's declarations come before the definition (kinds and bounds of the
    /// components may use named constants declared before it).
    pub after_decls: usize,
    pub line: u32,
}

#[derive(Debug, Clone, PartialEq)]
pub enum LenSpec {
    Expr(Expr),
    Star,
}

/// One dimension of an array spec.
#[derive(Debug, Clone, PartialEq)]
pub enum Dim {
    /// `lo:hi` or `hi` (lower bound 1).
    Explicit(Option<Expr>, Expr),
    /// `:` or `lo:` (assumed-shape or deferred).
    Colon(Option<Expr>),
    /// `*` or `lo:*` (assumed-size, last dimension).
    Star(Option<Expr>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Entity {
    pub name: String,
    pub dims: Option<Vec<Dim>>,
    pub len: Option<LenSpec>,
    pub init: Option<Expr>,
    pub line: u32,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Attrs {
    pub parameter: bool,
    pub allocatable: bool,
    pub intent: Option<String>,
    pub dims: Option<Vec<Dim>>,
    pub save: bool,
    pub optional: bool,
    /// `pointer` (Fortran 2003 §5.1.2.11) and `target` (§5.1.2.14).
    pub pointer: bool,
    pub target: bool,
    pub other: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Decl {
    pub ty: TypeSpec,
    pub attrs: Attrs,
    pub entities: Vec<Entity>,
    pub line: u32,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Use {
    pub module: String,
    pub only: Option<Vec<String>>,
    pub line: u32,
}

#[derive(Debug, Clone, PartialEq)]
pub enum UnitKind {
    Program,
    Module,
    Subroutine,
    Function { result: Option<String>, prefix_type: Option<TypeSpec> },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Unit {
    pub kind: UnitKind,
    pub name: String,
    pub args: Vec<String>,
    pub uses: Vec<Use>,
    pub implicit_none: bool,
    pub decls: Vec<Decl>,
    /// Attribute statements after declarations (`dimension`, `allocatable`, `intent`, …) folded in.
    pub body: Vec<Stmt>,
    pub contains: Vec<Unit>,
    /// Directives in the specification part (`!$acc declare`, `!$acc routine`).
    pub spec_directives: Vec<(u32, String)>,
    /// `data` statements (Fortran 2003 §5.2.5): objects and values, in order.
    pub data: Vec<DataStmt>,
    /// Derived-type definitions of the specification part.
    pub types: Vec<TypeDef>,
    /// `common` statements, one entry per block named in them.
    pub commons: Vec<CommonBlock>,
    pub line: u32,
    pub end_line: u32,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Stmt {
    pub line: u32,
    pub kind: StmtKind,
}

#[derive(Debug, Clone, PartialEq)]
pub enum StmtKind {
    Assign(Expr, Expr),
    /// `print fmt, items` / `write(unit, fmt) items`; `fmt` `None` is list-directed (`*`).
    /// `advance` is false for `advance='no'`.
    Print { unit: Option<Expr>, fmt: Option<Expr>, items: Vec<Expr>, advance: bool },
    /// List-directed `read *, items` / `read(*, *[, iostat=v]) items` from standard input.
    Read { items: Vec<Expr>, iostat: Option<Expr> },
    Call(String, Vec<Arg>),
    If { arms: Vec<(Expr, Vec<Stmt>)>, otherwise: Option<Vec<Stmt>> },
    Do { name: Option<String>, var: String, lo: Expr, hi: Expr, step: Option<Expr>, body: Vec<Stmt> },
    DoWhile { name: Option<String>, cond: Expr, body: Vec<Stmt> },
    /// `do` with no control: runs until `exit`.
    DoForever { name: Option<String>, body: Vec<Stmt> },
    Exit(Option<String>),
    Cycle(Option<String>),
    Select { selector: Expr, cases: Vec<(Vec<CaseItem>, Vec<Stmt>)>, default: Option<Vec<Stmt>> },
    Stop { error: bool, code: Option<Expr> },
    Return,
    Continue,
    Allocate(Vec<Expr>),
    /// `deallocate(a, x%b)`: variables or components.
    Deallocate(Vec<Expr>),
    /// `p => target` (Fortran 2003 §7.4.2); `p => null()` has `None`.
    PointerAssign(Expr, Option<Expr>),
    /// `nullify(p, q)` (§6.3.2).
    Nullify(Vec<Expr>),
    Where { mask: Expr, then: Vec<Stmt>, otherwise: Vec<Stmt> },
    /// An OpenACC directive; constructs own the statements up to their `!$acc end …` (or the
    /// loop that follows, for loop directives).
    Acc { text: String, body: Option<Vec<Stmt>>, end_line: u32 },
    Goto(u32),
    Label(u32),
}

#[derive(Debug, Clone, PartialEq)]
pub enum CaseItem {
    Value(Expr),
    Range(Option<Expr>, Option<Expr>),
}

/// One `data` statement's object list and value list (`data a, b(2) /1.0, 3*0.0/`).
#[derive(Debug, Clone, PartialEq)]
pub struct DataStmt {
    /// Variables, whole arrays and array elements.
    pub objects: Vec<Expr>,
    /// Values with their repeat counts (`3*0.0` is `(3, 0.0)`).
    pub values: Vec<(u32, Expr)>,
    pub line: u32,
}

/// The variables a `common` statement puts in one block (Fortran 2003 §5.5.2), in order, with
/// the array specs given there; `name` is empty for blank common.
#[derive(Debug, Clone, PartialEq)]
pub struct CommonBlock {
    pub name: String,
    pub members: Vec<(String, Option<Vec<Dim>>)>,
    pub line: u32,
}
