//! accsim's typed IR: the contract between the front-end and everything downstream (the host
//! interpreter, the simulated device, the CUDA emitter). Nothing after [`crate::lower`] sees lang-c's AST.
//!
//! The IR keeps C's real semantics explicit:
//! - every conversion is a [`ExprKind::Cast`] (integer promotions and usual arithmetic conversions are
//!   already applied: the operands of a [`ExprKind::Binary`] have the type the operation is done in);
//! - arrays have decayed: indexing is [`ExprKind::PtrAdd`] then [`ExprKind::Load`];
//! - lvalues are [`Place`]s: a register local (never address-taken) or a memory address;
//! - bit-fields are shifts and masks on their storage unit (lowering expands them);
//! - values of struct, union and complex type are *addresses* of their bytes: assigning one copies
//!   bytes, and an expression that makes a new one (a call, complex arithmetic, a compound literal)
//!   writes it into a hidden memory local of the current function and yields that local's address.
//!
//! Integer constants and register values are 64-bit words: signed integers sign-extended, unsigned
//! zero-extended, `float` as its 32-bit pattern, `double` as its 64-bit pattern, pointers as
//! accsim pointer words (see the interpreter's memory module).
//!
//! # What a front-end produces
//!
//! A front-end (C in [`crate::lower`], Fortran beside it) hands over a [`Program`] in which:
//! - every function, global, extern and string is in its table and referred to by id
//!   ([`FuncId`], [`GlobalId`], [`ExternId`], [`StrId`]); every local by [`LocalId`] into its
//!   function's `locals` (the parameters first, in order), with its [`Storage`];
//! - statements and expressions are the kinds below, with every conversion explicit and every
//!   operand typed in the [`TypeTable`] (C's rules or the source language's: the IR only states
//!   them); a language without `switch`, `va_list`, complex or VLAs simply does not produce those
//!   kinds;
//! - every `acc` directive is one [`DirectiveSite`] (its source text, for messages and comments,
//!   and place) plus its lowered form in `acc` at the same index ([`acc::AccDirective`]): the
//!   clauses with their expressions lowered in the directive's scope, each variable in a clause
//!   identified by its [`acc::VarRoot`] (`Local`/`Global` id), never by its text; a construct's
//!   statement is the `body` of [`StmtKind::Acc`]; a `loop` directive's body is a canonical
//!   `For` (§2.7: one counter, `<`/`<=`/`>`/`>=` bound, invariant step).
//!
//! A front-end produces no kernels, partitions or launches: [`crate::kernel`] outlines compute
//! constructs into kernel functions ([`acc::Kernel`], [`StmtKind::AccLaunch`]) and schedules their
//! loops into [`StmtKind::Partition`] nodes; [`valid::validate`] then checks the result and pairs
//! it with the analysis side table [`valid::ProgramInfo`] that the interpreter and the CUDA
//! emitter take with it. [`visit`] is the one walker of the IR.

pub mod acc;
pub mod print;
pub mod reach;
pub mod types;
pub mod valid;
pub mod visit;

pub use types::*;

use crate::diag::Loc;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FuncId(pub u32);
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GlobalId(pub u32);
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ExternId(pub u32);
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StrId(pub u32);
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LabelId(pub u32);
/// Index into [`Program::directives`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DirectiveId(pub u32);

/// A whole linked program: every translation unit lowered and linked (C11 6.2.2 linkage rules).
#[derive(Debug, Default)]
pub struct Program {
    pub types: TypeTable,
    pub functions: Vec<Function>,
    pub globals: Vec<Global>,
    /// Functions declared but not defined in the program: bound to the C library shim by name.
    pub externs: Vec<Extern>,
    /// String literal contents, including the terminating NUL.
    pub strings: Vec<Vec<u8>>,
    /// Every `#pragma acc` of the program, with its text and place.
    pub directives: Vec<DirectiveSite>,
    /// The lowered directives, indexed like `directives` (`None` where lowering failed).
    pub acc: Vec<Option<acc::AccDirective>>,
    /// Compute regions outlined for the device (see [`acc::Kernel`]).
    pub kernels: Vec<acc::Kernel>,
    /// Directives at file scope (`declare`, `routine`), in program order.
    pub file_scope_directives: Vec<DirectiveId>,
    /// Findings decided at compile time (`lost-write` warnings…), reported by `accsim check`.
    pub findings: Vec<crate::diag::Diagnostic>,
    /// The function named `main`.
    pub main: Option<FuncId>,
    /// Prototypes of the program's defined functions, where each is written (an unnamed `routine`
    /// directive applies to the function whose definition or prototype follows it, §2.12.1).
    pub prototypes: Vec<(FuncId, Loc)>,
}

#[derive(Debug, Clone)]
pub struct DirectiveSite {
    /// The directive text after `#pragma acc`.
    pub text: String,
    pub loc: Loc,
}

#[derive(Debug)]
pub struct Extern {
    pub name: String,
    pub ty: TypeId,
    pub loc: Loc,
}

#[derive(Debug)]
pub struct Global {
    pub name: String,
    pub ty: TypeId,
    /// `None`: zero-initialised (also `extern` declarations resolved to a tentative definition).
    pub init: Option<StaticInit>,
    pub read_only: bool,
    pub loc: Loc,
    /// Where the object was declared: a file-scope object, a function's `static` local, or a
    /// file-scope compound literal.
    pub origin: GlobalOrigin,
}

/// Where a [`Global`] comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GlobalOrigin {
    /// Declared at file scope (or `extern` in a block).
    FileScope,
    /// A `static` local of a function (C11 6.2.4p3: static storage duration).
    FunctionStatic,
    /// A compound literal at file scope (C11 6.5.2.5p5).
    CompoundLiteral,
}

/// The bytes of a statically initialised object plus the addresses written into it.
#[derive(Debug, Clone, Default)]
pub struct StaticInit {
    pub bytes: Vec<u8>,
    pub relocs: Vec<Reloc>,
}

/// At `offset` in the object, store the 8-byte address of `target` plus `addend` bytes.
#[derive(Debug, Clone)]
pub struct Reloc {
    pub offset: u64,
    pub target: RelocTarget,
    pub addend: i64,
}

#[derive(Debug, Clone, Copy)]
pub enum RelocTarget {
    Global(GlobalId),
    Str(StrId),
    Func(FuncId),
}

#[derive(Debug)]
pub struct Function {
    pub name: String,
    pub ty: TypeId,
    pub ret: TypeId,
    /// Parameter locals, in order. Their storage is decided like any local's.
    pub params: Vec<LocalId>,
    pub locals: Vec<Local>,
    pub body: Stmt,
    pub variadic: bool,
    pub loc: Loc,
    /// Where the definition comes from, as the front-end read it: tools list the program's own
    /// functions, not the C library's inline ones (never told by the name's text).
    pub origin: FunctionOrigin,
}

/// Where a [`Function`] is defined.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FunctionOrigin {
    /// In the program's sources (or outlined from a function there).
    #[default]
    Program,
    /// In a system header (the preprocessor marks it so): the C library's inline functions
    /// (glibc's `__bswap_32` …).
    SystemHeader,
}

#[derive(Debug, Clone)]
pub struct Local {
    /// The name shown to people (messages, dumps, generated CUDA); never used to tell what a
    /// local is for: that is [`Local::role`].
    pub name: String,
    pub ty: TypeId,
    pub storage: Storage,
    pub loc: Loc,
    pub role: LocalRole,
    /// A thread's private or reduction copy that the scheduler made (§2.7.10, §2.7.11).
    pub copy_of: Option<CopyOf>,
    /// Where the local is declared: the innermost OpenACC construct whose statement declares
    /// it (its block, or a loop's `for` declaration); `None` outside every construct (the
    /// function's own blocks, a parameter), and for what the outliner and the schedulers make.
    /// A variable declared outside a compute construct is one variable for the whole region
    /// (§2.6: a device copy, or firstprivate), whatever uses it has outside (issue 17: one used
    /// only inside a `kernels` region was taken for a variable of the region).
    pub declared_in: Option<DirectiveId>,
}

/// What a scheduler's copy ([`Local::copy_of`]) copies, and for whom.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CopyOf {
    /// The program variable, which messages and findings name (the local's `name` stays the
    /// generated one); `None` for a copy of storage no variable names.
    pub var: Option<String>,
    /// The level of the threads that each own one copy: the innermost level of the loop whose
    /// clause made it (a `seq` loop's copies belong to the thread running it).
    pub level: acc::Level,
}

/// What made a local: the program, or the execution model that the outliner and the scheduler
/// add (issue 13: consumers tell them apart by this, never by the name's text).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LocalRole {
    /// A variable of the program (it has a name in the source).
    #[default]
    Program,
    /// A local with no name in the source: a temporary the front-end made for a program value
    /// (a record or complex value, an address, a bit-field's address and old value, a VLA's
    /// size, a compound literal) or a thread's private copy that the scheduler made (§2.7.10).
    /// Its name (`<temp>`, `<private>` …) is display wording only.
    Temporary,
    /// A kernel function's launch parameter: gang index, gang count, worker count, vector length
    /// ([`acc::KernelParams`]).
    LaunchParam,
    /// The address of a variable, global or struct member that a kernel captures by reference
    /// (§2.6: the device copy it uses): a kernel function's parameter, or the host temporary of
    /// a member's address that becomes one (`kernel::members`).
    CaptureAddress,
    /// A variable of a loop schedule (`kernel::schedule`): bounds, trip counts, iteration and
    /// thread indices, chunk and round counters.
    Schedule(ScheduleVar),
}

/// The schedule variables that consumers of the IR look for (the CUDA emitter's loop mapping).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScheduleVar {
    /// Any other variable of the schedule.
    Other,
    /// The thread's first iteration of a grid-stride share (`k = thread; k < n; k += threads`).
    Thread,
    /// The start of a thread's chunk of a `static`-chunked share.
    ChunkStart,
    /// The round counter of a share visited round by round (no per-thread state).
    Round,
}

impl LocalRole {
    /// Made for the execution model (a launch parameter or a schedule variable), not for a
    /// value of the program.
    pub fn is_execution_model(self) -> bool {
        matches!(self, LocalRole::LaunchParam | LocalRole::Schedule(_))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Storage {
    /// A scalar whose address is never taken: lives in a 64-bit slot of the frame.
    Register,
    /// Lives in the frame's memory (arrays, records, complex, address-taken scalars).
    Memory,
    /// A VLA: the slot holds the address of its storage, allocated by [`StmtKind::VlaAlloc`].
    VlaAddress,
}

#[derive(Debug, Clone)]
pub struct Stmt {
    pub kind: StmtKind,
    pub loc: Loc,
}

#[derive(Debug, Clone)]
pub enum StmtKind {
    Empty,
    Expr(Expr),
    Block(Vec<Stmt>),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    While(Expr, Box<Stmt>),
    DoWhile(Box<Stmt>, Expr),
    For {
        init: Option<Box<Stmt>>,
        cond: Option<Expr>,
        step: Option<Expr>,
        body: Box<Stmt>,
    },
    /// `cases` maps values (already converted to the promoted type of `cond`) to labels inside `body`.
    Switch {
        cond: Expr,
        body: Box<Stmt>,
        cases: Vec<(u64, LabelId)>,
        default: Option<LabelId>,
    },
    Label(LabelId),
    Goto(LabelId),
    Break,
    Continue,
    Return(Option<Expr>),
    /// Fill `size` bytes at `addr` with zero (the part of an aggregate an initializer leaves out).
    ZeroFill { addr: Expr, size: u64 },
    /// Allocate the storage of a VLA local (its type's size is computed now, C11 6.7.6.2p2).
    VlaAlloc(LocalId),
    /// An OpenACC directive and, for constructs, the statement it applies to. After outlining,
    /// the body of a compute construct is a list of [`StmtKind::AccLaunch`].
    Acc { directive: DirectiveId, body: Option<Box<Stmt>> },
    /// Launch an outlined kernel (inside its compute construct).
    AccLaunch(acc::KernelId),
    /// The threads of one level of a gang, each running its share of a partitioned loop
    /// (§1.2, §2.7; see [`acc::Partition`]): in kernel functions and in the functions of
    /// `routine gang|worker|vector` (§2.12.1).
    Partition(Box<acc::Partition>),
}

#[derive(Debug, Clone)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: TypeId,
    pub loc: Loc,
}

impl Expr {
    /// The expression under any conversions (`(long)(int)x` → `x`).
    pub fn strip_casts(&self) -> &Expr {
        match &self.kind {
            ExprKind::Cast(x) => x.strip_casts(),
            _ => self,
        }
    }

    /// Whether `self` and `other` are the same computation of pure operands — the same
    /// operations (arithmetic, `-`, `~`, conversions, pointer steps) on the same locals,
    /// addresses of objects and constants, and, when `loads`, the same loads — so that, evaluated
    /// at one point of a thread's execution, they give the same value (the `x` an `atomic`
    /// statement reads and writes, §2.12; a loop-invariant address).
    pub fn same_computation(&self, other: &Expr, loads: bool) -> bool {
        if self.ty != other.ty {
            return false;
        }
        let same = |x: &Expr, y: &Expr| x.same_computation(y, loads);
        match (&self.kind, &other.kind) {
            (ExprKind::Int(x), ExprKind::Int(y)) => x == y,
            (ExprKind::Float(x), ExprKind::Float(y)) => x.to_bits() == y.to_bits(),
            (ExprKind::Local(x), ExprKind::Local(y)) | (ExprKind::LocalAddr(x), ExprKind::LocalAddr(y)) => x == y,
            (ExprKind::GlobalAddr(x), ExprKind::GlobalAddr(y)) => x == y,
            (ExprKind::Load(x), ExprKind::Load(y)) => loads && same(x, y),
            (ExprKind::Cast(x), ExprKind::Cast(y)) => same(x, y),
            (ExprKind::Unary(o, x), ExprKind::Unary(p, y)) => o == p && matches!(o, UnOp::Neg | UnOp::BitNot) && same(x, y),
            (ExprKind::Binary(o, x1, x2), ExprKind::Binary(p, y1, y2)) => o == p && same(x1, y1) && same(x2, y2),
            (ExprKind::PtrAdd { ptr: p1, index: i1, elem: e1 }, ExprKind::PtrAdd { ptr: p2, index: i2, elem: e2 }) => {
                e1 == e2 && same(p1, p2) && same(i1, i2)
            }
            _ => false,
        }
    }
}

#[derive(Debug, Clone)]
pub enum Place {
    /// A register local.
    Local(LocalId),
    /// The object at this address (the expression has a pointer type).
    Mem(Box<Expr>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    BitNot,
    /// `!x`: 1 if x compares equal to 0, else 0; result type int.
    Not,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl BinOp {
    pub fn is_comparison(self) -> bool {
        matches!(self, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge)
    }
}

#[derive(Debug, Clone)]
pub enum Callee {
    Direct(FuncId),
    Extern(ExternId),
    /// A call through a function pointer (the expression's type is a pointer to function).
    Indirect(Box<Expr>),
}

#[derive(Debug, Clone)]
pub enum ExprKind {
    /// Integer, `_Bool` or pointer constant as a 64-bit word (see module docs).
    Int(u64),
    /// Floating constant; stored at the expression's float type.
    Float(f64),
    /// Address of string literal `StrId`'s first byte.
    Str(StrId),
    /// Value of a register local.
    Local(LocalId),
    /// Address of a memory local, or the stored address of a VLA local.
    LocalAddr(LocalId),
    GlobalAddr(GlobalId),
    FuncAddr(FuncId),
    ExternAddr(ExternId),
    /// Read the object of type `ty` at this address. For records and complex (values that are
    /// addresses), `Load` is the identity on the address.
    Load(Box<Expr>),
    Unary(UnOp, Box<Expr>),
    /// Arithmetic in `ty` (comparisons: in the operands' common type, result `int`; shifts: in the
    /// left operand's type).
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// Convert the operand to `ty` (C11 6.3).
    Cast(Box<Expr>),
    /// `ptr + index * sizeof(elem)`; `index` is a 64-bit signed integer.
    PtrAdd { ptr: Box<Expr>, index: Box<Expr>, elem: TypeId },
    /// `(a - b) / sizeof(elem)`, type `long`.
    PtrDiff { lhs: Box<Expr>, rhs: Box<Expr>, elem: TypeId },
    /// Store `value` (already of the place's type) into `place`; yields the stored value. For a
    /// place of array type (a string literal initializing a char array), copies the array's bytes
    /// from the address `value`; for records, copies the record's bytes.
    Assign { place: Place, value: Box<Expr> },
    /// `place op= value`: load, convert to `op_ty`, operate, convert back, store; yields the new value.
    /// For pointer places, `op` is Add/Sub and `value` is the element count (long).
    CompoundAssign { op: BinOp, place: Place, value: Box<Expr>, op_ty: TypeId },
    /// `++`/`--`: `delta` is +1 or -1 (elements for pointers); `post` yields the old value.
    IncDec { place: Place, delta: i8, post: bool },
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `&&` / `||` with short-circuit; result int 0/1.
    LogicalAnd(Box<Expr>, Box<Expr>),
    LogicalOr(Box<Expr>, Box<Expr>),
    Comma(Box<Expr>, Box<Expr>),
    /// Arguments are converted to the parameter types (prototyped) or default-promoted (variadic
    /// part, unprototyped). `result` is the hidden memory local receiving a record/complex result.
    Call { callee: Callee, args: Vec<Expr>, result: Option<LocalId> },
    /// `sizeof` of a type whose size is only known at run time (contains a VLA); type `unsigned long`.
    SizeOfDynamic(TypeId),
    /// Complex arithmetic (`+ - * /`) on complex operands of type `ty`, result in hidden local `dst`.
    ComplexBinary { op: BinOp, lhs: Box<Expr>, rhs: Box<Expr>, dst: LocalId },
    /// Complex negation / conjugation-free unary minus into `dst`.
    ComplexNeg { value: Box<Expr>, dst: LocalId },
    /// Build a complex value of type `ty` from real and imaginary parts (already of its float kind).
    ComplexMake { re: Box<Expr>, im: Box<Expr>, dst: LocalId },
    /// `==`/`!=` of two complex values; result int.
    ComplexCompare { op: BinOp, lhs: Box<Expr>, rhs: Box<Expr> },
    /// Run the statements (an aggregate or compound-literal initializer), then yield `value`.
    WithInit { init: Vec<Stmt>, value: Box<Expr> },
    /// GNU statement expression `({ ... })`: yields the value of the last expression statement.
    StmtExpr { body: Vec<Stmt>, value: Option<Box<Expr>> },
    /// `va_start(ap, last)`: initialise the `va_list` at `ap` (address) from this call's variadic arguments.
    VaStart(Box<Expr>),
    /// `va_arg(ap, ty)`: next variadic argument converted to `ty`.
    VaArg(Box<Expr>),
    /// `va_copy(dst, src)` (addresses).
    VaCopy(Box<Expr>, Box<Expr>),
}
