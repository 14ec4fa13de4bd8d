//! OpenACC directives in the IR: every clause with its expressions lowered in the scope of the
//! directive, and `device_type` groups resolved for the device type the program runs on
//! (OpenACC 2.0 §2.4: a clause in a `device_type` group applies to that type only and overrides the
//! default clause of the same name).

pub use crate::directive::{AtomicKind, DataClause, ReductionOp};

use super::{Expr, GlobalId, LocalId, Stmt, TypeId};
use crate::diag::Loc;

#[derive(Debug, Clone)]
pub struct AccDirective {
    pub kind: AccKind,
    pub clauses: Vec<AccClause>,
    /// Where the directive's text starts (its text as written is [`super::DirectiveSite`]'s).
    pub loc: Loc,
}

#[derive(Debug, Clone)]
pub enum AccKind {
    Parallel,
    Kernels,
    Data,
    EnterData,
    ExitData,
    HostData,
    Loop,
    ParallelLoop,
    KernelsLoop,
    Cache(Vec<AccVar>),
    Atomic(AtomicKind),
    Update,
    /// The `wait` directive, with its optional argument list.
    Wait(Option<Vec<Expr>>),
    Declare,
    Routine(Option<String>),
}

impl AccKind {
    /// Spec spelling (`parallel loop`, `enter data`).
    pub fn name(&self) -> &'static str {
        match self {
            AccKind::Parallel => "parallel",
            AccKind::Kernels => "kernels",
            AccKind::Data => "data",
            AccKind::EnterData => "enter data",
            AccKind::ExitData => "exit data",
            AccKind::HostData => "host_data",
            AccKind::Loop => "loop",
            AccKind::ParallelLoop => "parallel loop",
            AccKind::KernelsLoop => "kernels loop",
            AccKind::Cache(_) => "cache",
            AccKind::Atomic(_) => "atomic",
            AccKind::Update => "update",
            AccKind::Wait(_) => "wait",
            AccKind::Declare => "declare",
            AccKind::Routine(_) => "routine",
        }
    }

    pub fn is_compute(&self) -> bool {
        matches!(self, AccKind::Parallel | AccKind::Kernels | AccKind::ParallelLoop | AccKind::KernelsLoop)
    }
}

#[derive(Debug, Clone)]
pub struct AccClause {
    pub kind: AccClauseKind,
    pub loc: Loc,
    /// The clause name as written (`pcopy`, `self`, …).
    pub spelling: &'static str,
}

#[derive(Debug, Clone)]
pub enum AccClauseKind {
    If(Expr),
    Async(Option<Expr>),
    Wait(Option<Vec<Expr>>),
    NumGangs(Expr),
    NumWorkers(Expr),
    VectorLength(Expr),
    Reduction { op: ReductionOp, vars: Vec<AccVar> },
    Data(DataClause, Vec<AccVar>),
    Private(Vec<AccVar>),
    FirstPrivate(Vec<AccVar>),
    DefaultNone,
    /// The constant number of loops collapsed.
    Collapse(u32),
    Gang { num: Option<Expr>, static_: Option<Option<Expr>> },
    Worker(Option<Expr>),
    Vector(Option<Expr>),
    Seq,
    Auto,
    Independent,
    /// Tile sizes, innermost last; `None` is `*`.
    Tile(Vec<Option<Expr>>),
    UseDevice(Vec<AccVar>),
    /// `update host(…)`/`self(…)`.
    Host(Vec<AccVar>),
    Device(Vec<AccVar>),
    Bind(String),
    NoHost,
}

/// What a variable reference in a clause names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VarRoot {
    Local(LocalId),
    Global(GlobalId),
    /// Something else (a member of a struct through a pointer, an extern object…).
    Other,
}

/// A variable or subarray in a clause (§2.6, §2.7.1 "subarrays").
#[derive(Debug, Clone)]
pub struct AccVar {
    /// As written (`a[0:n]`, `s.data[1:4]`).
    pub text: String,
    /// The variable as written without its subscripts (`a`, `s.data`): what messages, events
    /// and findings call it.
    pub name: String,
    pub root: VarRoot,
    /// The type of the named variable (before any subscript).
    pub var_ty: TypeId,
    /// Address of the named variable (whole-variable references; for register locals, `None`).
    pub addr: Option<Expr>,
    /// The variable's value as a pointer to its first element (arrays decay), when it is an array
    /// or a pointer: the base of its subscripts.
    pub base: Option<Expr>,
    pub sections: Vec<AccSection>,
    pub loc: Loc,
    /// A parameter declared with array type (`double C[NI][NJ]`, adjusted to `double (*)[NJ]`,
    /// C11 6.7.6.3): the declared extent `NI`, which a clause naming it whole maps.
    pub declared_extent: Option<DeclaredExtent>,
}

/// The outermost extent of a parameter declared with array type, lost by its adjustment to a
/// pointer (C11 6.7.6.3p7) and kept for data clauses that name the parameter whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeclaredExtent {
    /// `double C[NI][NJ]` with `NI` a constant.
    Constant(u64),
    /// A variable-length array parameter `float C[n][p]` (C99 6.7.5.2): the hidden local that
    /// holds `n` from the function's entry on, and `n` as written when it is a name.
    Variable { count: LocalId, text: Option<String> },
}

/// One `[lower:length]` (or `[index]`, as `length = None`).
#[derive(Debug, Clone)]
pub struct AccSection {
    /// `None`: `[:len]` (0).
    pub lower: Option<Expr>,
    /// `None` for `[i]`, or for `[lo:]` (to the end of a declared array dimension).
    pub length: Option<Expr>,
    pub is_range: bool,
}

/// The identity of a reduction operator on a floating-point variable (§2.5.11 table). `&`, `|`
/// and `^` do not apply to floating point; their entries only keep the function total.
pub fn reduction_identity_float(op: ReductionOp) -> f64 {
    use ReductionOp::*;
    match op {
        Add | BitOr | BitXor | Or => 0.0,
        Mul | And | BitAnd => 1.0,
        Max => f64::NEG_INFINITY,
        Min => f64::INFINITY,
    }
}

/// The identity of a reduction operator on an integer variable of `bits` bits (§2.5.11 table),
/// as a 64-bit word (sign-extended for signed types). `_Bool` is an unsigned 1-bit integer here.
pub fn reduction_identity_int(op: ReductionOp, bits: u32, signed: bool) -> u64 {
    use ReductionOp::*;
    let bits = bits.clamp(1, 64);
    let (min, max): (u64, u64) = if signed {
        ((-(1i128 << (bits - 1))) as i64 as u64, (1u64 << (bits - 1)) - 1)
    } else {
        (0, if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 })
    };
    match op {
        Add | BitOr | BitXor | Or => 0,
        Mul | And => 1,
        // All bits set: ~0 of the type.
        BitAnd => if signed { u64::MAX } else { max },
        Max => min,
        Min => max,
    }
}

/// A level of parallelism of the execution model (§1.2): gangs, the workers of a gang, the
/// vector lanes of a worker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    Gang,
    Worker,
    Vector,
}

/// The threads of one level running their shares of a partitioned loop (§1.2, §2.7): `body` runs
/// once for each thread index `var` = 0, 1, … `count - 1` of the level, in any order and with
/// no synchronisation until all are done (a sequential device runs them one after the other,
/// a GPU at once: `threadIdx.y` for workers, `threadIdx.x` for vector lanes).
///
/// A kernel function runs once per gang (its gang index is [`KernelParams::gang`]), so inside one
/// the levels are `Worker` (`count` = the kernel's `num_workers` parameter) and `Vector` (its
/// `vector_length` parameter); a worker partition may hold a vector partition, never the
/// reverse. The functions of `routine worker|vector` (§2.12.1) have them too, counted by the
/// launch their caller runs in. No kernel function has a `Gang` partition (`ir::valid` rejects
/// one): the level exists for the checker's and the GUI's model of a launch.
#[derive(Debug, Clone)]
pub struct Partition {
    pub level: Level,
    /// The register local (`long`) holding the running thread's index at this level.
    pub var: LocalId,
    /// The number of threads at this level.
    pub count: Expr,
    /// The loop schedule this partition runs ([`LoopInfo`], by its index in the kernel's list).
    pub schedule: u32,
    /// What each thread runs: its share of the loop's iterations, with its private and
    /// reduction copies (§2.7.10, §2.7.11).
    pub body: Stmt,
}

impl Partition {
    /// The loop that runs the level's threads one after the other, as a sequential device does:
    /// `for (var = 0; var < count; var += 1) body`, every node at `loc`. `var_ty` is the type of
    /// `var` (`long`).
    pub fn sequential_loop(&self, types: &super::TypeTable, var_ty: TypeId, loc: Loc) -> Stmt {
        use super::{BinOp, ExprKind, IntType, Place, StmtKind, Type};
        let e = |kind: ExprKind, ty: TypeId| Expr { kind, ty, loc };
        let int = types.lookup(&Type::Int(IntType::INT)).unwrap_or(var_ty);
        let init = Stmt { kind: StmtKind::Expr(e(ExprKind::Assign { place: Place::Local(self.var), value: Box::new(e(ExprKind::Int(0), var_ty)) }, var_ty)), loc };
        let cond = e(ExprKind::Binary(BinOp::Lt, Box::new(e(ExprKind::Local(self.var), var_ty)), Box::new(self.count.clone())), int);
        let step = e(ExprKind::CompoundAssign { op: BinOp::Add, place: Place::Local(self.var), value: Box::new(e(ExprKind::Int(1), var_ty)), op_ty: var_ty }, var_ty);
        Stmt { kind: StmtKind::For { init: Some(Box::new(init)), cond: Some(cond), step: Some(step), body: Box::new(self.body.clone()) }, loc }
    }
}

/// The parameters of a kernel function that state the execution model (§1.2): the running
/// gang's index and the launch configuration. They are the function's first four parameters,
/// before one per [`Capture`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KernelParams {
    pub gang: LocalId,
    pub num_gangs: LocalId,
    pub num_workers: LocalId,
    pub vector_length: LocalId,
}

impl KernelParams {
    /// The layout every kernel function has: locals 0..4.
    pub const FIXED: KernelParams = KernelParams { gang: LocalId(0), num_gangs: LocalId(1), num_workers: LocalId(2), vector_length: LocalId(3) };

    /// The names the launch parameters are shown with (listings, generated CUDA), in the order
    /// of [`KernelParams::FIXED`].
    pub const NAMES: [&'static str; 4] = ["__gang", "__num_gangs", "__num_workers", "__vector_length"];

    /// The kernel-function local of capture `i` (the parameter after the four above).
    pub fn capture(i: usize) -> LocalId {
        LocalId(4 + i as u32)
    }

    /// The local holding the thread count of a partition level inside a gang.
    pub fn count_of(&self, level: Level) -> Option<LocalId> {
        match level {
            Level::Gang => None,
            Level::Worker => Some(self.num_workers),
            Level::Vector => Some(self.vector_length),
        }
    }
}

/// Index into [`super::Program::kernels`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KernelId(pub u32);

/// A compute region outlined for the device (§2.5: a parallel construct is one kernel; a kernels
/// construct is split into one kernel per loop nest).
///
/// The kernel function's parameters are, in order: the gang index, `num_gangs`, `num_workers`,
/// `vector_length` (all `long`), then one per capture. A device runs the function once per gang;
/// inside, worker and vector partitions are explicit loops over the worker and lane indices, so
/// the function body states the execution model of §1.2 in plain IR.
#[derive(Debug, Clone)]
pub struct Kernel {
    /// The compute construct this kernel comes from.
    pub directive: super::DirectiveId,
    pub func: super::FuncId,
    pub captures: Vec<Capture>,
    /// Launch configuration expressions (host expressions, evaluated at launch); `None` = default.
    pub num_gangs: Option<Expr>,
    pub num_workers: Option<Expr>,
    pub vector_length: Option<Expr>,
    /// The iteration count of the kernel's first gang-partitioned loop as a host expression of
    /// values the region starts with, when its bounds are such values: without `num_gangs` the
    /// kernel launches one gang per `vector_length` of them (`kernel::gang_count`, §2.5.6).
    pub gang_loop: Option<GangLoopIterations>,
    pub loc: Loc,
    /// A kernels-construct part that runs on one gang (code outside loop nests, or a loop nest
    /// that could not be proven parallel).
    pub single: bool,
    // What the passes learned about the kernel is analysis, not IR: its access plan (what
    // `accsim check` evaluates at each launch), its loops' schedules ([`LoopInfo`]) and its
    // fast-share variant live in the side table `ir::valid::ProgramInfo`.
}

/// The iteration count of a kernel's first gang-partitioned loop, known at region entry
/// (`kernel::gang_count`).
#[derive(Debug, Clone)]
pub struct GangLoopIterations {
    /// A pure host expression (`long`): constants and register locals the region neither writes
    /// nor privatises, with integer arithmetic that cannot trap; the product over `collapse`.
    pub iterations: Expr,
    /// The loop directive (or the auto loop of a kernels construct).
    pub loop_loc: Loc,
}

/// How a loop of a kernel is executed: the schedule `kernel::schedule` chose for it, kept per
/// kernel in the side table (`ir::valid::KernelInfo::loops`).
#[derive(Debug, Clone)]
pub struct LoopInfo {
    pub loc: Loc,
    pub gang: bool,
    pub worker: bool,
    pub vector: bool,
    pub collapse: u32,
    /// Why the loop runs sequentially (`seq`, no parallelism proven…), if it does.
    pub seq_reason: Option<String>,
    /// For an auto loop of a kernels construct that runs in parallel: what the dependence test
    /// found (§2.7.6).
    pub analysis: Option<String>,
    /// The kernel-function locals that scheduling made for this loop, so that tools (the GUI)
    /// can tell which thread runs which iteration; `None` until the loop is scheduled.
    pub temps: Option<LoopTemps>,
}

/// The register locals of one scheduled loop (see `kernel::schedule`): the linear iteration
/// index `k` (0 ≤ k < iterations, over all collapsed loops), the iteration count, and the worker
/// and vector-lane indices of the thread running a share of the loop (0 when the loop is not
/// partitioned at that level).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoopTemps {
    pub iteration: super::LocalId,
    pub iterations: super::LocalId,
    pub worker: super::LocalId,
    pub lane: super::LocalId,
}

/// A host variable a kernel uses.
#[derive(Debug, Clone)]
pub struct Capture {
    pub source: CaptureSource,
    pub mode: CaptureMode,
    /// The variable's type.
    pub ty: TypeId,
    pub name: String,
    /// For `private(p[lo:n])`/`firstprivate(p[lo:n])` on a pointer: the subarray each gang gets
    /// its own copy of (the pointer then points at that copy).
    pub subarray: Option<AccVar>,
    /// For a member of a struct reached on its own (§2.6.5, see `kernel::members`).
    pub member: Option<MemberCapture>,
    /// A `Present` array that a data clause of the construct or of an enclosing data construct
    /// maps through a subarray (`copy(a[0:50])`): it appears in a data clause, so no implicit
    /// `present_or_copy` of the whole array applies (§2.5.1, §2.5.2); the kernel uses the device
    /// copy of the mapped part, and an access outside it is out of bounds there.
    pub mapped_part: bool,
    /// A pointer (not a struct member, §2.6.5) that no clause of the construct or of a
    /// lexically enclosing data construct names: §2.5.1/§2.5.2 give the pointer an implicit
    /// attribute, not its target. By default accsim, like nvc, copies what the kernel accesses
    /// through it when that is not present (`exec::openacc::implicit_pointer_data`).
    pub implicit_pointer: bool,
}

/// A struct member that a kernel reaches on its own, not through the whole struct (§2.6.5).
#[derive(Debug, Clone)]
pub struct MemberCapture {
    /// The member's type (the capture's own type is that of the host register reaching it).
    pub ty: TypeId,
    /// The data attribute decided, in words, for `accsim info`.
    pub attr: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaptureSource {
    Local(LocalId),
    Global(GlobalId),
    /// The object at the host address held in this register local of the host function (a
    /// member of a struct, set just before the launch; see `kernel::members`).
    Deref(LocalId),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaptureMode {
    /// A register local's value, copied into each gang (firstprivate, §2.5.1). A pointer value that
    /// points into mapped data is translated to the device copy.
    Value,
    /// The kernel parameter is the address of the object's device copy: present data, or data
    /// mapped implicitly as `present_or_copy` (arrays, §2.5.1/§2.6.1; kernels scalars, §2.5.2).
    Present,
    /// The kernel parameter is the address of a per-gang private copy initialised from the host
    /// value (scalars of a parallel construct: firstprivate, §2.5.1; `firstprivate` clause).
    FirstPrivate,
    /// A per-gang private copy, uninitialised (`private` clause on the compute construct).
    Private,
    /// A reduction variable (§2.5.11/§2.7.11): per-gang private copies initialised with the
    /// operator's identity, combined into the host variable when the kernel ends.
    Reduction(ReductionOp),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// §2.5.11: the identity of each operator, for signed, unsigned, `_Bool` and floating types.
    #[test]
    fn reduction_identities_follow_the_table() {
        use ReductionOp::*;
        assert_eq!(reduction_identity_int(Max, 32, true), i32::MIN as i64 as u64);
        assert_eq!(reduction_identity_int(Min, 32, true), i32::MAX as u64);
        assert_eq!(reduction_identity_int(Min, 8, false), 255);
        assert_eq!(reduction_identity_int(BitAnd, 16, false), 0xffff);
        assert_eq!(reduction_identity_int(BitAnd, 64, true), u64::MAX);
        assert_eq!(reduction_identity_int(Mul, 64, false), 1);
        assert_eq!(reduction_identity_int(BitXor, 8, true), 0);
        assert_eq!(reduction_identity_int(Min, 1, false), 1);
        assert_eq!(reduction_identity_int(Max, 1, false), 0);
        assert_eq!(reduction_identity_float(Max), f64::NEG_INFINITY);
        assert_eq!(reduction_identity_float(Mul), 1.0);
        assert_eq!(reduction_identity_float(Or), 0.0);
    }
}
