//! Access plans: what `accsim check` needs to know, at a kernel's launch, to prove that the
//! kernel cannot race and to say exactly which device bytes it reads and writes (issue 4,
//! DESIGN.md "Checking").
//!
//! **Why.** The checkers see every access of every device thread, which costs tens of times the
//! access itself. Most kernels are the affine loop nests of the programs' hot spots: `b[i*n+j] =
//! f(a[(i±1)*n+j±1])`, every thread writing its own elements. For such a kernel, once the
//! launch's values are known (the pointers, `n`, the gang count), a few inequalities prove that no
//! two threads touch the same byte with a write between them, and the bytes each access site
//! reads and writes are runs that can be listed. The checking run then lets the kernel run as
//! `accsim run` runs it and hands the checkers those runs instead of the accesses
//! (`exec::openacc`, `Subscriber::proven_launch`); every other kernel is checked access by access.
//!
//! **The plan** ([`plan_kernel`], at outlining, before scheduling): the kernel body's loops in
//! canonical form (§2.7) with their partitioning (the schedule's [`LoopInfo`]), and every access
//! site of shared device memory with its address as an affine function of the loop counters
//! whose coefficients are launch values ([`Sym`]: captured scalars, the values of read-only
//! captured variables, constants). A body that does anything else — an access whose address is
//! not affine, a call that is not a pure math function, a `while` loop, an `atomic` construct,
//! a reduction into shared memory — gets no plan.
//!
//! Accesses that are private by the model are left out, as the checkers leave them out: the
//! thread's own frame (variables declared in the region, `LocalAddr`), per-gang copies
//! (firstprivate, private and reduction captures), and the private and reduction variables of a
//! loop inside it (§2.5.9–§2.5.11, §2.7.10–§2.7.11).
//!
//! **The proof** ([`AccessPlan::evaluate`], at launch) is sound for the race rule of
//! `simulator::check::race`: two accesses race only when made by different threads. Each
//! partitioned loop's iterations go to threads by a fixed rule (`kernel::schedule`), so equal
//! values of every partitioned counter enclosing an access mean the same thread. The proof
//! accepts a kernel only when:
//! - every write site lies inside a gang-partitioned loop, or the launch has one gang (otherwise
//!   gangs run it redundantly, §2.5.1);
//! - each write site's address, over the iteration space, separates its partitioned counters:
//!   sorting the counters by the size of their coefficients, each coefficient at least as large
//!   as the smallest partitioned one exceeds the access size plus the span of all smaller terms,
//!   so two iterations that differ in a partitioned counter address disjoint bytes;
//! - every other site whose bytes may overlap a write site's is the same affine access in the
//!   same loop (then it overlaps only in the same iteration, the same thread), or is disjoint
//!   (by the coefficients, or, where bounds depend on outer counters as in a triangular loop
//!   `j > i`, by listing both sites' runs with the iterations that make them: [`listed`]).
//!
//! Index arithmetic in `int` must not wrap (checked on the counters' ranges), and each site's
//! bytes must lie in one shared device block.
//!
//! **Conditions.** A site under `if`, `?:`, `&&` or `||` keeps its conditions as [`Guard`]s: signed
//! comparisons of affine values, combined with and/or/not, anything else unknown. A condition
//! that compares one counter with a launch value narrows that counter's range for the site (the
//! boundary case `if (i == 0 || i == n - 1) … else … a[i - 1] …` reads inside the array). A
//! guarded write is listed exactly, iteration by iteration where its guards hold, and is refused
//! when a guard is unknown; a guarded read counts as run when some iteration meets its guards. When anything fails the kernel is checked access by access: a plan can only
//! make checking faster, never change a finding.
//!
//! **Files.** This file holds the plan's types and the analysis that builds it ([`plan_kernel`]);
//! `footprint/evaluate.rs` the evaluation at launch ([`AccessPlan::evaluate`], the proof and the
//! listing of runs, [`Footprint`]); `footprint/listed.rs` the proof by listing ([`listed`]);
//! `footprint/atomics.rs` atomic counter targets ([`atomics`]).

use std::collections::{HashMap, HashSet};

use crate::diag::Loc;
use crate::ir::acc::{AccClauseKind, AccDirective, AccKind, Capture, CaptureMode, LoopInfo};
use crate::ir::*;

use crate::exec::value::Kind;

mod atomics;
mod evaluate;
mod listed;

pub use atomics::{AtomicTarget, PlanAtomic};
pub use evaluate::{Config, Footprint, ReadSpan, SiteBytes, WriteRun, WriteSpan};
use evaluate::Conc;

use super::build::Builder;
use super::depend::Purity;
use super::schedule::ClauseVars;

/// How an integer value is kept: its width and signedness.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IntFmt {
    pub bytes: u8,
    pub signed: bool,
}

impl IntFmt {
    const LONG: IntFmt = IntFmt { bytes: 8, signed: true };

    fn of(types: &TypeTable, ty: TypeId) -> Option<IntFmt> {
        match types.get(ty) {
            Type::Int(it) => Some(IntFmt { bytes: it.bytes, signed: it.signed }),
            Type::Bool => Some(IntFmt { bytes: 1, signed: false }),
            Type::Pointer(_) => Some(IntFmt { bytes: 8, signed: false }),
            _ => None,
        }
    }

    /// `v` as the machine keeps it (wrapped to the width, sign- or zero-extended).
    fn wrap(self, v: i128) -> i64 {
        let bits = self.bytes as u32 * 8;
        if bits >= 64 {
            return v as i64;
        }
        let m = (v as u64) & ((1u64 << bits) - 1);
        if self.signed && (m >> (bits - 1)) & 1 == 1 {
            (m | !((1u64 << bits) - 1)) as i64
        } else {
            m as i64
        }
    }

    /// The values the format holds.
    fn range(self) -> (i128, i128) {
        let bits = self.bytes as u32 * 8;
        if self.signed {
            (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        } else {
            (0, (1i128 << bits) - 1)
        }
    }
}

/// An integer known when the kernel is launched.
#[derive(Clone, Debug, PartialEq)]
pub enum Sym {
    Const(i64),
    /// The value capture `n` passes (a scalar, or the device address of present data).
    Arg(u32),
    /// The scalar capture `n`'s parameter points at, which the kernel never writes.
    Deref(u32, Kind),
    /// An integer operation (arithmetic, shifts, bitwise) in a format.
    Op(BinOp, Box<Sym>, Box<Sym>, IntFmt),
}

/// The values a launch gives the symbols of a plan, and its device memory.
pub trait LaunchValues {
    /// The value capture `cap` passes to every gang (`None` for per-gang copies).
    fn arg(&self, cap: u32) -> Option<i64>;
    /// The scalar that capture `cap`'s parameter points at.
    fn deref(&self, cap: u32, k: Kind) -> Option<i64>;
    /// The device block holding `addr`: its first address, its length, and whether it is shared
    /// by the threads of the kernel (not a per-gang copy). `None` for anything else.
    fn block(&self, addr: u64) -> Option<(u64, u64, bool)>;
}

impl Sym {
    fn is_const(&self) -> Option<i64> {
        match self {
            Sym::Const(v) => Some(*v),
            _ => None,
        }
    }

    fn op(op: BinOp, a: Sym, b: Sym, f: IntFmt) -> Sym {
        match (op, a.is_const(), b.is_const()) {
            (_, Some(x), Some(y)) => match apply(op, x, y, f) {
                Some(v) => Sym::Const(v),
                None => Sym::Op(op, Box::new(a), Box::new(b), f),
            },
            (BinOp::Add, Some(0), _) | (BinOp::Mul, Some(1), _) if f == IntFmt::LONG => b,
            (BinOp::Add | BinOp::Sub, _, Some(0)) | (BinOp::Mul | BinOp::Div, _, Some(1)) if f == IntFmt::LONG => a,
            (BinOp::Mul, Some(0), _) | (BinOp::Mul, _, Some(0)) => Sym::Const(0),
            _ => Sym::Op(op, Box::new(a), Box::new(b), f),
        }
    }

    /// Whether the value of capture `cap` (or what it points at) enters the symbol.
    fn mentions(&self, cap: u32) -> bool {
        match self {
            Sym::Const(_) => false,
            Sym::Arg(c) | Sym::Deref(c, _) => *c == cap,
            Sym::Op(_, a, b, _) => a.mentions(cap) || b.mentions(cap),
        }
    }

    fn eval(&self, v: &dyn LaunchValues) -> Option<i64> {
        match self {
            Sym::Const(c) => Some(*c),
            Sym::Arg(n) => v.arg(*n),
            Sym::Deref(n, k) => v.deref(*n, *k),
            Sym::Op(op, a, b, f) => apply(*op, a.eval(v)?, b.eval(v)?, *f),
        }
    }
}

/// `a op b` as the machine computes it in format `f` (`None`: division by zero, a shift out of
/// range).
fn apply(op: BinOp, a: i64, b: i64, f: IntFmt) -> Option<i64> {
    let bits = f.bytes as u32 * 8;
    let unsigned = !f.signed;
    let ua = |x: i64| if bits >= 64 { x as u64 as i128 } else { (x as u64 & ((1u64 << bits) - 1)) as i128 };
    let (x, y) = if unsigned { (ua(a), ua(b)) } else { (a as i128, b as i128) };
    let r = match op {
        BinOp::Add => x + y,
        BinOp::Sub => x - y,
        BinOp::Mul => x.wrapping_mul(y),
        BinOp::Div | BinOp::Rem if y == 0 => return None,
        BinOp::Div => x / y,
        BinOp::Rem => x % y,
        BinOp::Shl | BinOp::Shr if !(0..bits as i128).contains(&y) => return None,
        BinOp::Shl => x << y,
        BinOp::Shr => x >> y,
        BinOp::BitAnd => x & y,
        BinOp::BitOr => x | y,
        BinOp::BitXor => x ^ y,
        _ => return None,
    };
    Some(f.wrap(r))
}

/// An affine function of the plan's loop counters: `k + Σ coef·counter`.
#[derive(Clone, Debug, PartialEq)]
pub struct Lin {
    pub k: Sym,
    pub terms: Vec<(u32, Sym)>,
    /// The no-wrap conditions its value depends on (indices into the analysis' list): they
    /// join the plan's [`AccessPlan::checks`] when the value becomes an address or a bound.
    deps: Vec<u32>,
}

impl Lin {
    fn sym(s: Sym) -> Lin {
        Lin { k: s, terms: Vec::new(), deps: Vec::new() }
    }

    fn counter(l: u32) -> Lin {
        Lin { k: Sym::Const(0), terms: vec![(l, Sym::Const(1))], deps: Vec::new() }
    }

    fn pure(&self) -> Option<&Sym> {
        self.terms.is_empty().then_some(&self.k)
    }

    fn add(self, o: Lin, sub: bool) -> Lin {
        let op = if sub { BinOp::Sub } else { BinOp::Add };
        let mut deps = self.deps;
        deps.extend(o.deps.iter().filter(|d| !deps.contains(d)).copied().collect::<Vec<_>>());
        let mut terms = self.terms;
        for (l, c) in o.terms {
            match terms.iter_mut().find(|(m, _)| *m == l) {
                Some((_, d)) => *d = Sym::op(op, std::mem::replace(d, Sym::Const(0)), c, IntFmt::LONG),
                None => terms.push((l, if sub { Sym::op(BinOp::Sub, Sym::Const(0), c, IntFmt::LONG) } else { c })),
            }
        }
        Lin { k: Sym::op(op, self.k, o.k, IntFmt::LONG), terms, deps }
    }

    fn scale(self, s: &Sym) -> Lin {
        Lin {
            k: Sym::op(BinOp::Mul, self.k, s.clone(), IntFmt::LONG),
            terms: self.terms.into_iter().map(|(l, c)| (l, Sym::op(BinOp::Mul, c, s.clone(), IntFmt::LONG))).collect(),
            deps: self.deps,
        }
    }

    fn eval(&self, v: &dyn LaunchValues) -> Option<Conc> {
        let mut terms = Vec::with_capacity(self.terms.len());
        for (l, c) in &self.terms {
            let c = c.eval(v)?;
            if c != 0 {
                terms.push((*l, c));
            }
        }
        Some(Conc { k: self.k.eval(v)?, terms })
    }
}

/// How a loop's condition compares its counter with the bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Lt,
    Le,
    Gt,
    Ge,
}

/// A loop of the kernel body in canonical form: `for (x = lb; x cmp ub; x += step)`.
#[derive(Clone, Debug)]
pub struct PlanLoop {
    pub parent: Option<u32>,
    pub lb: Lin,
    pub ub: Lin,
    pub step: Sym,
    pub cmp: Cmp,
    /// The counter's format.
    pub fmt: IntFmt,
    /// Partitioned at some level (its iterations go to different threads).
    pub partitioned: bool,
    /// The gang-partitioned loop (index into [`AccessPlan::gangs`]) this loop is a dimension of.
    pub gang: Option<u32>,
}

/// A gang-partitioned loop: its collapsed dimensions (outermost first) and how it shares its
/// iterations among the threads (`kernel::schedule`: the linear iteration `k` goes to thread
/// `(k / chunk) mod T`, thread `t` being in gang `t / (workers × lanes)` of the loop's levels).
#[derive(Clone, Debug)]
pub struct GangLoop {
    pub dims: Vec<u32>,
    pub worker: bool,
    pub vector: bool,
    pub chunk: Option<Sym>,
}

/// How a guard compares an affine value with 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rel {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl Rel {
    fn negate(self) -> Rel {
        match self {
            Rel::Lt => Rel::Ge,
            Rel::Le => Rel::Gt,
            Rel::Gt => Rel::Le,
            Rel::Ge => Rel::Lt,
            Rel::Eq => Rel::Ne,
            Rel::Ne => Rel::Eq,
        }
    }

    fn holds(self, v: i128) -> bool {
        match self {
            Rel::Lt => v < 0,
            Rel::Le => v <= 0,
            Rel::Gt => v > 0,
            Rel::Ge => v >= 0,
            Rel::Eq => v == 0,
            Rel::Ne => v != 0,
        }
    }
}

/// The condition under which a site runs (`if`, `?:`, `&&`, `||`), as far as it is affine.
#[derive(Clone, Debug)]
pub enum Guard {
    /// `value rel 0`.
    Cmp(Lin, Rel),
    All(Vec<Guard>),
    Any(Vec<Guard>),
    /// Something the plan does not follow (a load, a call, an unsigned comparison…).
    Unknown,
}

/// A memory access site of shared device memory.
#[derive(Clone, Debug)]
pub struct PlanSite {
    pub loc: Loc,
    pub write: bool,
    pub addr: Lin,
    pub size: u64,
    /// The innermost enclosing loop.
    pub lp: Option<u32>,
    /// The conditions it runs under (`if`, `?:`, `&&`, `||`), all of which hold when it runs;
    /// empty when it runs in every iteration of its loops.
    pub guards: Vec<Guard>,
}

/// What a kernel's launch needs to evaluate to prove it (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct AccessPlan {
    pub loops: Vec<PlanLoop>,
    pub gangs: Vec<GangLoop>,
    pub sites: Vec<PlanSite>,
    /// Atomic counter updates ([`atomics`]): not among `sites`.
    pub atomics: Vec<PlanAtomic>,
    /// Values computed in a narrow or 64-bit integer format: they must not wrap.
    pub checks: Vec<(Lin, IntFmt)>,
}

// ------------------------------------------------------------------------------ analysis

/// The plan of a kernel body (before scheduling; `locals` are the kernel function's, its
/// parameters the four launch values then `captures` in order), or why it has none.
#[allow(clippy::too_many_arguments)]
pub(crate) fn plan_kernel(body: &Stmt, types: &mut TypeTable, locals: &[Local], captures: &[Capture], loops: &[LoopInfo], acc: &[Option<AccDirective>], vars: &ClauseVars, purity: &Purity) -> Result<AccessPlan, String> {
    let mut caps = HashMap::new();
    for (i, c) in captures.iter().enumerate() {
        caps.insert(crate::ir::acc::KernelParams::capture(i), (i as u32, c.mode, c.subarray.is_some()));
    }
    // Register locals by their assignments; capture parameters by their uses: one whose every
    // use is a load of its object (`kernel::promote`'s test) holds a value no thread changes.
    let mut assigned: HashMap<LocalId, usize> = HashMap::new();
    let mut uses: HashMap<LocalId, (usize, usize)> = HashMap::new();
    super::outline::walk_stmt(
        body,
        &mut |e| match &e.kind {
            ExprKind::Assign { place: Place::Local(l), .. } | ExprKind::CompoundAssign { place: Place::Local(l), .. } | ExprKind::IncDec { place: Place::Local(l), .. } => {
                *assigned.entry(*l).or_default() += 1
            }
            ExprKind::Local(l) => uses.entry(*l).or_default().0 += 1,
            ExprKind::Load(a) => {
                if let ExprKind::Local(l) = &a.kind {
                    uses.entry(*l).or_default().1 += 1
                }
            }
            _ => {}
        },
        &mut |_| {},
    );
    let written_caps: HashSet<LocalId> = uses.into_iter().filter(|(_, (u, l))| u != l).map(|(p, _)| p).collect();
    if let Some(why) = shared_by_threads(body, locals, captures, loops, acc, vars) {
        return Err(why);
    }
    let mut scratch = locals.to_vec();
    let mut an = An {
        b: Builder { types, locals: &mut scratch, loc: body.loc },
        acc,
        vars,
        infos: loops,
        purity,
        caps,
        written_caps,
        assigned,
        env: HashMap::new(),
        counters: HashMap::new(),
        mem_counters: HashMap::new(),
        stack: Vec::new(),
        guards: Vec::new(),
        private: Vec::new(),
        wraps: Vec::new(),
        committed: HashSet::new(),
        plan: AccessPlan::default(),
    };
    an.stmt(body)?;
    Ok(an.plan)
}

/// Why the threads of a worker or vector loop of `body` may pass values through the gang's own
/// storage, which the plan's rule (races on shared device memory) does not see: a local (in a
/// register or in the frame) written inside such a loop (not its `private` or `reduction` variable) and used outside
/// it — a variable of the gang's code, one per gang (§2.5.10, §2.5.11) — or a write through a
/// gang's `private`/`firstprivate`/`reduction` copy inside one. Such a kernel is checked access
/// by access (`simulator::check::shared_frame`).
fn shared_by_threads(body: &Stmt, locals: &[Local], captures: &[Capture], loops: &[LoopInfo], acc: &[Option<AccDirective>], vars: &ClauseVars) -> Option<String> {
    struct W<'a> {
        locals: &'a [Local],
        loops: &'a [LoopInfo],
        acc: &'a [Option<AccDirective>],
        vars: &'a ClauseVars,
        gang_copies: HashSet<LocalId>,
        /// Open worker/vector loops (by number) and the locals private in each.
        open: Vec<(u32, Vec<LocalId>)>,
        next: u32,
        /// Per local: the threaded loops it is written in, and the sets of open loops at its uses.
        written: HashMap<LocalId, HashSet<u32>>,
        used: HashMap<LocalId, Vec<Vec<u32>>>,
        copy_write: Option<Loc>,
    }
    impl W<'_> {
        fn threaded(&self, loc: Loc) -> Option<Vec<LocalId>> {
            let info = self.loops.iter().find(|i| i.loc == loc)?;
            (info.worker || info.vector).then(Vec::new)
        }
        fn stmt(&mut self, s: &Stmt) {
            // The counter of a partitioned loop is its threads' own (§2.6.1).
            fn counter(s: &Stmt) -> Option<LocalId> {
                match &s.kind {
                    StmtKind::Block(v) if v.len() == 1 => counter(&v[0]),
                    StmtKind::For { init: Some(i), .. } => match &i.kind {
                        StmtKind::Expr(Expr { kind: ExprKind::Assign { place: Place::Local(l), .. }, .. }) => Some(*l),
                        _ => None,
                    },
                    _ => None,
                }
            }
            let opened = match &s.kind {
                StmtKind::For { .. } => self.threaded(s.loc).map(|own| own.into_iter().chain(counter(s)).collect()),
                StmtKind::Acc { directive, body: Some(b) } => match self.acc.get(directive.0 as usize).and_then(|d| d.as_ref()) {
                    Some(d) if matches!(d.kind, AccKind::Loop) => self.threaded(d.loc).map(|mut own: Vec<LocalId>| {
                        own.extend(counter(b));
                        for c in &d.clauses {
                            if let AccClauseKind::Private(vs) | AccClauseKind::Reduction { vars: vs, .. } = &c.kind {
                                own.extend(vs.iter().filter_map(|v| self.vars.get(v)).map(|(id, _)| id));
                            }
                        }
                        own
                    }),
                    _ => None,
                },
                _ => None,
            };
            if let Some(own) = &opened {
                self.next += 1;
                self.open.push((self.next, own.clone()));
            }
            crate::ir::visit::stmt_parts(s, &mut |part| match part {
                crate::ir::visit::Part::Stmt(x) => self.stmt(x),
                crate::ir::visit::Part::Expr(e) => crate::ir::visit::walk_expr(e, true, &mut |_| {}, &mut |x| self.expr(x)),
            });
            if opened.is_some() {
                self.open.pop();
            }
        }
        fn expr(&mut self, e: &Expr) {
            let (l, write) = match &e.kind {
                ExprKind::Local(l) | ExprKind::LocalAddr(l) => (*l, false),
                ExprKind::Assign { place: Place::Local(l), .. } | ExprKind::CompoundAssign { place: Place::Local(l), .. } | ExprKind::IncDec { place: Place::Local(l), .. } => (*l, true),
                ExprKind::Assign { place: Place::Mem(a), .. } | ExprKind::CompoundAssign { place: Place::Mem(a), .. } | ExprKind::IncDec { place: Place::Mem(a), .. } => {
                    let mut root = &**a;
                    while let ExprKind::Cast(x) | ExprKind::PtrAdd { ptr: x, .. } = &root.kind {
                        root = x;
                    }
                    match &root.strip_casts().kind {
                        ExprKind::Local(r) => {
                            if self.gang_copies.contains(r) && !self.open.is_empty() && !self.open.iter().any(|(_, own)| own.contains(r)) {
                                self.copy_write.get_or_insert(e.loc);
                            }
                            return;
                        }
                        // A variable of the gang's frame kept in memory (`*&x = …`).
                        ExprKind::LocalAddr(r) => (*r, true),
                        _ => return,
                    }
                }
                _ => return,
            };
            if self.locals.get(l.0 as usize).is_none_or(|x| x.storage == Storage::VlaAddress) {
                return;
            }
            let chain: Vec<u32> = self.open.iter().map(|(n, _)| *n).collect();
            if write {
                // Inside the loops that do not make it their own.
                let mine = self.open.iter().rposition(|(_, own)| own.contains(&l)).map_or(0, |i| i + 1);
                self.written.entry(l).or_default().extend(self.open[mine..].iter().map(|(n, _)| *n));
            }
            let uses = self.used.entry(l).or_default();
            if !uses.contains(&chain) {
                uses.push(chain);
            }
        }
    }
    let gang_copies = captures
        .iter()
        .enumerate()
        .filter(|(_, c)| matches!(c.mode, CaptureMode::FirstPrivate | CaptureMode::Private | CaptureMode::Reduction(_)))
        .map(|(i, _)| crate::ir::acc::KernelParams::capture(i))
        .collect();
    let mut w = W { locals, loops, acc, vars, gang_copies, open: Vec::new(), next: 0, written: HashMap::new(), used: HashMap::new(), copy_write: None };
    w.stmt(body);
    if let Some(loc) = w.copy_write {
        return Some(format!("a write at line {} to a gang's private, firstprivate or reduction copy inside a worker or vector loop (the gang's threads share it)", loc.line));
    }
    let mut shared: Vec<&LocalId> = w.written.iter().filter(|(l, loops)| w.used.get(l).is_some_and(|uses| loops.iter().any(|n| uses.iter().any(|u| !u.contains(n))))).map(|(l, _)| l).collect();
    shared.sort_by_key(|l| l.0);
    shared.first().map(|l| format!("`{}` is written inside a worker or vector loop and used outside it (the gang's threads share it)", locals.get(l.0 as usize).map_or("?", |x| x.name.as_str())))
}

/// The local naming a scalar object in memory: `&x` of a memory local, or a capture parameter
/// holding the object's address.
fn counter_root(a: &Expr) -> Option<LocalId> {
    match &a.strip_casts().kind {
        ExprKind::LocalAddr(l) | ExprKind::Local(l) => Some(*l),
        _ => None,
    }
}

type A<T> = Result<T, String>;

struct An<'a, 'b> {
    b: Builder<'b>,
    acc: &'a [Option<AccDirective>],
    /// The kernel locals of the variables the clauses name.
    vars: &'a ClauseVars,
    infos: &'a [LoopInfo],
    purity: &'a Purity,
    /// Capture parameters: capture index, mode, per-gang subarray.
    caps: HashMap<LocalId, (u32, CaptureMode, bool)>,
    /// Capture parameters written through (or passed to a call).
    written_caps: HashSet<LocalId>,
    /// Assignments to each register local in the whole body.
    assigned: HashMap<LocalId, usize>,
    /// Register locals assigned once, with their affine value.
    env: HashMap<LocalId, Lin>,
    /// The counters of the enclosing loops: registers, and private objects in memory (by the
    /// local whose address or value is their address, see [`counter_root`]).
    counters: HashMap<LocalId, u32>,
    mem_counters: HashMap<LocalId, u32>,
    stack: Vec<u32>,
    /// The conditions of the enclosing `if`s and operators.
    guards: Vec<Guard>,
    /// Addresses private in the enclosing loops (their private and reduction variables).
    private: Vec<LocalId>,
    /// Every no-wrap condition met so far; those addresses and bounds depend on are committed.
    wraps: Vec<(Lin, IntFmt)>,
    committed: HashSet<u32>,
    plan: AccessPlan,
}

/// Where an address points.
enum Target {
    /// Private memory (the thread's frame, a per-gang copy, a loop's private variable).
    Private,
    Shared(Lin),
}

impl An<'_, '_> {
    fn types(&self) -> &TypeTable {
        self.b.types
    }

    fn fmt(&self, ty: TypeId) -> Option<IntFmt> {
        IntFmt::of(self.types(), ty)
    }

    fn stmt(&mut self, s: &Stmt) -> A<()> {
        match &s.kind {
            StmtKind::Empty | StmtKind::Label(_) => Ok(()),
            StmtKind::Expr(e) => self.value(e).map(|_| ()),
            StmtKind::Block(v) => v.iter().try_for_each(|x| self.stmt(x)),
            StmtKind::If(c, t, e) => {
                self.value(c)?;
                let yes = self.guard(c, true)?;
                self.guards.push(yes);
                self.stmt(t)?;
                self.guards.pop();
                if let Some(e) = e {
                    let no = self.guard(c, false)?;
                    self.guards.push(no);
                    self.stmt(e)?;
                    self.guards.pop();
                }
                Ok(())
            }
            StmtKind::For { .. } => {
                let info = self.infos.iter().filter(|i| i.loc == s.loc).collect::<Vec<_>>();
                match info.as_slice() {
                    [] => self.for_loop(s, None, None),
                    [one] => self.for_loop(s, Some((*one).clone()), None),
                    _ => Err("two loops share a source location".into()),
                }
            }
            StmtKind::Acc { directive, body } => {
                let d = self.acc.get(directive.0 as usize).and_then(|d| d.as_ref());
                match (d, body) {
                    (Some(d), Some(body)) if matches!(d.kind, AccKind::Loop) => {
                        let info = self.infos.iter().filter(|i| i.loc == d.loc).collect::<Vec<_>>();
                        let [one] = info.as_slice() else { return Err("a loop directive without its schedule".into()) };
                        let d = d.clone();
                        self.for_loop(body, Some((*one).clone()), Some(&d))
                    }
                    (Some(d), _) if matches!(d.kind, AccKind::Cache(_)) => Ok(()),
                    (Some(AccDirective { kind: AccKind::Atomic(kind), .. }), body) => {
                        let kind = *kind;
                        self.atomic(kind, body.as_deref())
                    }
                    (Some(d), _) => Err(format!("`{}` inside the kernel", d.kind.name())),
                    (None, _) => Err("an unknown directive".into()),
                }
            }
            StmtKind::ZeroFill { .. } | StmtKind::VlaAlloc(_) => Err("a variable-length or aggregate initialisation".into()),
            StmtKind::While(..) | StmtKind::DoWhile(..) => Err("a `while` loop".into()),
            StmtKind::Switch { .. } | StmtKind::Goto(_) | StmtKind::Break | StmtKind::Continue | StmtKind::Return(_) => Err("a jump".into()),
            StmtKind::AccLaunch(_) => Err("a nested launch".into()),
            // Plans are made before scheduling, which makes partitions.
            StmtKind::Partition(_) => Err("a scheduled loop".into()),
        }
    }

    /// A loop with its schedule (`info`) and directive.
    fn for_loop(&mut self, s: &Stmt, info: Option<LoopInfo>, d: Option<&AccDirective>) -> A<()> {
        let collapse = info.as_ref().map_or(1, |i| i.collapse.max(1));
        let partitioned = info.as_ref().is_some_and(|i| i.gang || i.worker || i.vector);
        let gang = match &info {
            Some(i) if i.gang => {
                let chunk = match d.and_then(|d| d.clauses.iter().find_map(|c| if let AccClauseKind::Gang { static_, .. } = &c.kind { Some(static_.clone()) } else { None })) {
                    Some(Some(Some(e))) => Some(self.pure(&e)?.ok_or("a gang chunk that is not a launch value")?),
                    Some(Some(None)) => Some(Sym::Const(1)),
                    _ => None,
                };
                self.plan.gangs.push(GangLoop { dims: Vec::new(), worker: i.worker, vector: i.vector, chunk });
                Some(self.plan.gangs.len() as u32 - 1)
            }
            _ => None,
        };
        // The loop's private and reduction variables are the thread's own inside it.
        let mut privates = Vec::new();
        for c in d.map(|d| d.clauses.as_slice()).unwrap_or(&[]) {
            let vars = match &c.kind {
                AccClauseKind::Private(v) => v,
                AccClauseKind::Reduction { vars, .. } => {
                    for v in vars {
                        if let Some(p) = self.clause_object(v) {
                            // Its combine writes the variable: only a per-gang copy or the
                            // gang's frame keeps that private.
                            if matches!(self.caps.get(&p), Some((_, CaptureMode::Present | CaptureMode::Value, _))) {
                                return Err(format!("a reduction into shared `{}`", v.text));
                            }
                        }
                    }
                    vars
                }
                _ => continue,
            };
            for v in vars {
                if let Some(p) = self.clause_object(v) {
                    privates.push(p);
                }
            }
        }
        let saved = self.private.len();
        self.private.extend(privates);
        let mut cur = s;
        let mut opened = 0;
        for level in 0..collapse {
            let StmtKind::For { body, .. } = &cur.kind else { return Err("a collapsed loop is not a `for` loop".into()) };
            let id = self.open_loop(cur, partitioned, gang)?;
            if let Some(g) = gang {
                self.plan.gangs[g as usize].dims.push(id);
            }
            opened += 1;
            cur = body;
            if level + 1 < collapse {
                while let StmtKind::Block(v) = &cur.kind {
                    let [one] = v.as_slice() else { break };
                    cur = one;
                }
                if let StmtKind::Acc { body: Some(b), .. } = &cur.kind {
                    cur = b;
                }
            }
        }
        self.stmt(cur)?;
        for _ in 0..opened {
            let id = self.stack.pop().unwrap_or_default();
            self.counters.retain(|_, l| *l != id);
            self.mem_counters.retain(|_, l| *l != id);
        }
        self.private.truncate(saved);
        Ok(())
    }

    /// The kernel local a clause variable names when it is an object in memory (`&x` captures
    /// and memory locals), as `kernel::schedule` finds it.
    fn clause_object(&self, v: &crate::ir::acc::AccVar) -> Option<LocalId> {
        let (id, by_address) = self.vars.get(v)?;
        (by_address || self.b.locals[id.0 as usize].storage != Storage::Register).then_some(id)
    }

    /// Enter one canonical loop: its bounds are evaluated before its counter is in scope.
    fn open_loop(&mut self, s: &Stmt, partitioned: bool, gang: Option<u32>) -> A<u32> {
        let c = super::schedule::canon(s.clone(), &mut self.b).map_err(|(m, _)| m)?;
        // A counter in memory must be private: the thread's frame, a per-gang copy, or the
        // counter of a partitioned loop (which the schedule gives each thread, §2.6.1).
        let counter = match &c.place {
            Place::Local(v) => Ok(*v),
            Place::Mem(a) => match counter_root(a) {
                Some(r) if partitioned || self.private_root(a) => Err(r),
                _ => return Err("a shared loop counter in memory".into()),
            },
        };
        for p in &c.pre {
            self.stmt(p)?;
        }
        let fmt = self.fmt(c.var_ty).ok_or("a loop counter that is not an integer")?;
        let lb = self.value(&c.lb)?.ok_or("a loop bound that is not affine")?;
        let ub = self.value(&c.ub)?.ok_or("a loop bound that is not affine")?;
        let step = self.pure(&c.step)?.ok_or("a loop step that is not a launch value")?;
        self.commit(&lb);
        self.commit(&ub);
        // The body may not change the counter (the canonical form assigns it in the header).
        let mut changed = false;
        super::outline::walk_stmt(&c.body, &mut |e| {
            if let ExprKind::Assign { place, .. } | ExprKind::CompoundAssign { place, .. } | ExprKind::IncDec { place, .. } = &e.kind {
                changed |= match (place, counter) {
                    (Place::Local(l), Ok(v)) => *l == v,
                    (Place::Mem(a), Err(r)) => counter_root(a) == Some(r),
                    _ => false,
                };
            }
        }, &mut |_| {});
        if changed {
            return Err("a loop body assigns its counter".into());
        }
        let cmp = match c.cmp {
            BinOp::Lt => Cmp::Lt,
            BinOp::Le => Cmp::Le,
            BinOp::Gt => Cmp::Gt,
            _ => Cmp::Ge,
        };
        let id = self.plan.loops.len() as u32;
        self.plan.loops.push(PlanLoop { parent: self.stack.last().copied(), lb, ub, step, cmp, fmt, partitioned, gang });
        self.stack.push(id);
        match counter {
            Ok(v) => self.counters.insert(v, id),
            Err(r) => self.mem_counters.insert(r, id),
        };
        Ok(id)
    }

    /// The launch value an expression is, if it is one.
    fn pure(&mut self, e: &Expr) -> A<Option<Sym>> {
        Ok(self.value(e)?.and_then(|l| l.pure().cloned()))
    }

    /// The condition `c` (or its negation), its sites already recorded.
    fn guard(&mut self, c: &Expr, positive: bool) -> A<Guard> {
        let mut effects = false;
        crate::ir::visit::visit_exprs(c, &mut |x| {
            effects |= matches!(x.kind, ExprKind::Assign { .. } | ExprKind::CompoundAssign { .. } | ExprKind::IncDec { .. } | ExprKind::Call { .. } | ExprKind::StmtExpr { .. } | ExprKind::WithInit { .. });
        });
        if effects {
            return Ok(Guard::Unknown);
        }
        self.guard_of(c, positive)
    }

    fn guard_of(&mut self, c: &Expr, positive: bool) -> A<Guard> {
        let saved = self.plan.sites.len();
        let g = match &c.kind {
            ExprKind::Binary(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne), x, y) => {
                let rel = match op {
                    BinOp::Lt => Rel::Lt,
                    BinOp::Le => Rel::Le,
                    BinOp::Gt => Rel::Gt,
                    BinOp::Ge => Rel::Ge,
                    BinOp::Eq => Rel::Eq,
                    _ => Rel::Ne,
                };
                // Signed integer comparisons only: their values, checked not to wrap, compare
                // as the integers they are.
                let signed = self.fmt(x.ty).is_some_and(|f| f.signed) && self.fmt(y.ty).is_some_and(|f| f.signed) && self.types().is_integer(x.ty);
                match (signed, self.value(x)?, self.value(y)?) {
                    (true, Some(a), Some(b)) => {
                        let d = a.add(b, true);
                        self.commit(&d);
                        Guard::Cmp(d, if positive { rel } else { rel.negate() })
                    }
                    _ => Guard::Unknown,
                }
            }
            ExprKind::LogicalAnd(x, y) | ExprKind::LogicalOr(x, y) => {
                let parts = vec![self.guard_of(x, positive)?, self.guard_of(y, positive)?];
                // ¬(a ∧ b) = ¬a ∨ ¬b, ¬(a ∨ b) = ¬a ∧ ¬b.
                if matches!(c.kind, ExprKind::LogicalAnd(..)) == positive { Guard::All(parts) } else { Guard::Any(parts) }
            }
            ExprKind::Unary(UnOp::Not, x) => self.guard_of(x, !positive)?,
            ExprKind::Cast(x) if matches!(x.kind, ExprKind::Binary(..) | ExprKind::LogicalAnd(..) | ExprKind::LogicalOr(..) | ExprKind::Unary(UnOp::Not, _)) && self.types().is_integer(c.ty) => {
                self.guard_of(x, positive)?
            }
            _ => match (self.fmt(c.ty).is_some_and(|f| f.signed) && self.types().is_integer(c.ty), self.value(c)?) {
                (true, Some(v)) => {
                    self.commit(&v);
                    Guard::Cmp(v, if positive { Rel::Ne } else { Rel::Eq })
                }
                _ => Guard::Unknown,
            },
        };
        // The condition's own sites were recorded when it was analysed as an expression.
        self.plan.sites.truncate(saved);
        Ok(g)
    }

    /// Record a site.
    fn site(&mut self, addr: &Expr, size: u64, write: bool, loc: Loc) -> A<()> {
        match self.target(addr)? {
            Target::Private => Ok(()),
            Target::Shared(lin) => {
                self.commit(&lin);
                self.plan.sites.push(PlanSite { loc, write, addr: lin, size, lp: self.stack.last().copied(), guards: self.guards.clone() });
                Ok(())
            }
        }
    }

    /// Where an address points (and the sites inside the address expression).
    fn target(&mut self, a: &Expr) -> A<Target> {
        // Private objects: the thread's frame, per-gang copies, a loop's private variables.
        let mut root = a;
        while let ExprKind::Cast(x) | ExprKind::PtrAdd { ptr: x, .. } = &root.kind {
            root = x;
        }
        if self.private_root(root) {
            self.value(a)?;
            return Ok(Target::Private);
        }
        match self.value(a)? {
            Some(l) => Ok(Target::Shared(l)),
            None => Err(format!("an access at line {} whose address is not an affine function of the loop counters", a.loc.line)),
        }
    }

    fn private_root(&self, e: &Expr) -> bool {
        match &e.strip_casts().kind {
            ExprKind::LocalAddr(_) => true,
            ExprKind::Local(l) => self.private.contains(l) || matches!(self.caps.get(l), Some((_, CaptureMode::FirstPrivate | CaptureMode::Private | CaptureMode::Reduction(_), _))),
            _ => false,
        }
    }

    fn size(&self, ty: TypeId) -> A<u64> {
        self.types().size_of(ty).filter(|&s| s > 0).ok_or_else(|| "an access of unknown size".to_string())
    }

    /// The size of an element that pointer arithmetic steps over, as a launch value: a
    /// variable-length row (`double A[n][n]`'s `A[i]`, `double (*A)[m]` with a run-time `m`)
    /// is its count local times its element's size, as the executable computes it (C11
    /// 6.5.6p8 with 6.7.6.2: the count is fixed when the declaration is reached), the count
    /// being a value the kernel captures and never assigns.
    fn elem_size(&self, ty: TypeId) -> A<Sym> {
        match self.types().get(ty) {
            Type::Vla(elem, count) => {
                let (elem, count) = (*elem, *count);
                let e = self.elem_size(elem)?;
                let Some(c) = self.local(count).and_then(|l| l.pure().cloned()) else {
                    return Err("a variable-length row whose length is not a launch value".into());
                };
                Ok(Sym::op(BinOp::Mul, c, e, IntFmt::LONG))
            }
            Type::Array(elem, Some(n)) if self.types().size_of(ty).is_none() => {
                let (elem, n) = (*elem, *n);
                let e = self.elem_size(elem)?;
                Ok(Sym::op(BinOp::Mul, e, Sym::Const(n as i64), IntFmt::LONG))
            }
            _ => Ok(Sym::Const(self.size(ty)? as i64)),
        }
    }

    /// Analyse an expression: record its access sites, and return its value when it is an
    /// affine integer or pointer value.
    fn value(&mut self, e: &Expr) -> A<Option<Lin>> {
        let fmt = self.fmt(e.ty);
        Ok(match &e.kind {
            ExprKind::Int(v) => fmt.map(|f| Lin::sym(Sym::Const(f.wrap(*v as i64 as i128)))),
            ExprKind::Float(_) | ExprKind::Str(_) | ExprKind::FuncAddr(_) | ExprKind::ExternAddr(_) => None,
            ExprKind::Local(l) => self.local(*l),
            ExprKind::LocalAddr(_) => None,
            ExprKind::GlobalAddr(_) => return Err("a global named in device code".into()),
            ExprKind::Load(a) => {
                let ty = self.types().get(e.ty).clone();
                if matches!(ty, Type::Record(_) | Type::Complex(_) | Type::Array(..) | Type::Vla(..)) {
                    // The address itself (an aggregate's value is its address).
                    return self.value(a);
                }
                if let Some(&id) = counter_root(a).and_then(|r| self.mem_counters.get(&r)) {
                    return Ok(Some(Lin::counter(id)));
                }
                let size = self.size(e.ty)?;
                self.site(a, size, false, e.loc)?;
                // The value of a read-only scalar capture is a launch value.
                match (&a.kind, fmt) {
                    (ExprKind::Local(p), Some(_)) => match self.caps.get(p) {
                        Some(&(cap, CaptureMode::Present | CaptureMode::FirstPrivate, false)) if !self.written_caps.contains(p) => Some(Lin::sym(Sym::Deref(cap, Kind::of(self.types(), e.ty)))),
                        _ => None,
                    },
                    _ => None,
                }
            }
            ExprKind::Unary(op, x) => {
                let v = self.value(x)?;
                match (op, v, fmt) {
                    (UnOp::Neg, Some(v), Some(f)) => Some(self.checked(Lin::sym(Sym::Const(0)).add(v, true), f)),
                    _ => None,
                }
            }
            ExprKind::Binary(op, x, y) => {
                let (a, b) = (self.value(x)?, self.value(y)?);
                let (Some(a), Some(b), Some(f)) = (a, b, fmt) else { return Ok(None) };
                if !matches!(self.types().get(x.ty), Type::Int(_) | Type::Bool) || !matches!(self.types().get(y.ty), Type::Int(_) | Type::Bool) {
                    return Ok(None);
                }
                let sop = *op;
                if !matches!(sop, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem | BinOp::Shl | BinOp::Shr | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor) {
                    return Ok(None);
                }
                if let (Some(p), Some(q)) = (a.pure(), b.pure()) {
                    return Ok(Some(Lin::sym(Sym::op(sop, p.clone(), q.clone(), f))));
                }
                let lin = match sop {
                    BinOp::Add => a.add(b, false),
                    BinOp::Sub => a.add(b, true),
                    BinOp::Mul => match (a.pure().cloned(), b.pure().cloned()) {
                        (Some(p), _) => b.scale(&p),
                        (_, Some(q)) => a.scale(&q),
                        _ => return Ok(None),
                    },
                    _ => return Ok(None),
                };
                Some(self.checked(lin, f))
            }
            ExprKind::Cast(x) => {
                let v = self.value(x)?;
                match (v, self.fmt(x.ty), fmt) {
                    (Some(v), Some(from), Some(to)) => {
                        // Value-preserving: the same format, a wider one that holds every value
                        // (or a 64-bit word reinterpreted: pointer words are below 2^63).
                        let preserving = from == to || (to.bytes == 8 && from.bytes == 8) || (to.bytes > from.bytes && (to.signed || !from.signed));
                        match (v.pure(), preserving) {
                            (_, true) => Some(v),
                            (Some(p), false) => Some(Lin::sym(Sym::op(BinOp::Add, p.clone(), Sym::Const(0), to))),
                            (None, false) => Some(self.checked(v, to)),
                        }
                    }
                    _ => None,
                }
            }
            ExprKind::PtrAdd { ptr, index, elem } => {
                let size = self.elem_size(*elem)?;
                let (p, i) = (self.value(ptr)?, self.value(index)?);
                match (p, i) {
                    (Some(p), Some(i)) => Some(self.checked(p.add(i.scale(&size), false), IntFmt::LONG)),
                    _ => None,
                }
            }
            ExprKind::PtrDiff { lhs, rhs, .. } => {
                self.value(lhs)?;
                self.value(rhs)?;
                None
            }
            ExprKind::Assign { place, value } => {
                if !self.types().is_scalar(e.ty) {
                    return Err("an aggregate assignment".into());
                }
                let v = self.value(value)?;
                match place {
                    Place::Local(l) => {
                        if self.counters.contains_key(l) {
                            return Err("a loop counter assigned in its body".into());
                        }
                        match v {
                            Some(v) if self.assigned.get(l) == Some(&1) => {
                                self.env.insert(*l, v);
                            }
                            _ => {
                                self.env.remove(l);
                            }
                        }
                    }
                    Place::Mem(a) => {
                        let size = self.size(e.ty)?;
                        self.site(a, size, true, e.loc)?;
                    }
                }
                None
            }
            ExprKind::CompoundAssign { place, value, .. } => {
                self.value(value)?;
                self.rmw(place, e)?;
                None
            }
            ExprKind::IncDec { place, .. } => {
                self.rmw(place, e)?;
                None
            }
            ExprKind::Cond(c, x, y) => {
                self.value(c)?;
                for (branch, positive) in [(x, true), (y, false)] {
                    let g = self.guard(c, positive)?;
                    self.guards.push(g);
                    self.value(branch)?;
                    self.guards.pop();
                }
                None
            }
            ExprKind::LogicalAnd(x, y) | ExprKind::LogicalOr(x, y) => {
                self.value(x)?;
                // The right operand runs when the left one is true (`&&`) or false (`||`).
                let g = self.guard(x, matches!(e.kind, ExprKind::LogicalAnd(..)))?;
                self.guards.push(g);
                self.value(y)?;
                self.guards.pop();
                None
            }
            ExprKind::Comma(x, y) => {
                self.value(x)?;
                self.value(y)?
            }
            ExprKind::Call { callee, args, result } => {
                let pure = match callee {
                    Callee::Extern(x) => self.purity.externs.contains(x),
                    Callee::Direct(f) => self.purity.funcs.contains(f),
                    Callee::Indirect(_) => false,
                };
                if !pure || result.is_some() {
                    return Err("a call of a function that may access memory".into());
                }
                for a in args {
                    self.value(a)?;
                }
                None
            }
            ExprKind::SizeOfDynamic(_)
            | ExprKind::ComplexBinary { .. }
            | ExprKind::ComplexNeg { .. }
            | ExprKind::ComplexMake { .. }
            | ExprKind::ComplexCompare { .. }
            | ExprKind::WithInit { .. }
            | ExprKind::StmtExpr { .. }
            | ExprKind::VaStart(_)
            | ExprKind::VaArg(_)
            | ExprKind::VaCopy(..) => return Err("an expression the plan does not follow".into()),
        })
    }

    /// `x op= v`, `x++`: a read and a write of the place.
    fn rmw(&mut self, place: &Place, e: &Expr) -> A<()> {
        match place {
            Place::Local(l) => {
                if self.counters.contains_key(l) {
                    return Err("a loop counter assigned in its body".into());
                }
                self.env.remove(l);
                Ok(())
            }
            Place::Mem(a) => {
                let size = self.size(e.ty)?;
                self.site(a, size, false, e.loc)?;
                self.site(a, size, true, e.loc)
            }
        }
    }

    fn local(&self, l: LocalId) -> Option<Lin> {
        if let Some(&id) = self.counters.get(&l) {
            return Some(Lin::counter(id));
        }
        if let Some(v) = self.env.get(&l) {
            return Some(v.clone());
        }
        match self.caps.get(&l) {
            Some(&(cap, CaptureMode::Value | CaptureMode::Present, _)) if !self.assigned.contains_key(&l) => Some(Lin::sym(Sym::Arg(cap))),
            _ => None,
        }
    }

    /// A value computed in format `f`: it must not wrap where it has counters, if an address or
    /// a bound depends on it.
    fn checked(&mut self, mut v: Lin, f: IntFmt) -> Lin {
        if !v.terms.is_empty() {
            self.wraps.push((Lin { deps: Vec::new(), ..v.clone() }, f));
            v.deps.push(self.wraps.len() as u32 - 1);
        }
        v
    }

    /// `v` is an address or a bound: the conditions it depends on join the plan.
    fn commit(&mut self, v: &Lin) {
        for &d in &v.deps {
            if self.committed.insert(d) {
                self.plan.checks.push(self.wraps[d as usize].clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::evaluate::{CGuard, Iv};
    use super::*;

    /// A device block of 1 MiB at id 7, shared; no captures.
    struct Mem;
    impl LaunchValues for Mem {
        fn arg(&self, _: u32) -> Option<i64> {
            None
        }
        fn deref(&self, _: u32, _: Kind) -> Option<i64> {
            None
        }
        fn block(&self, addr: u64) -> Option<(u64, u64, bool)> {
            (addr >> 32 == 7).then_some((7 << 32, 1 << 20, true))
        }
    }

    const BASE: i64 = 7 << 32;

    fn lin(k: i64, terms: &[(u32, i64)]) -> Lin {
        Lin { k: Sym::Const(k), terms: terms.iter().map(|&(l, c)| (l, Sym::Const(c))).collect(), deps: Vec::new() }
    }

    /// `for i in 0..ni` (gang) { `for j in 0..nj` (seq) { write 8 bytes at BASE + 8·(ci·i + cj·j) } }
    fn nest(ni: i64, nj: i64, ci: i64, cj: i64) -> AccessPlan {
        let lp = |parent, n| PlanLoop { parent, lb: lin(0, &[]), ub: lin(n, &[]), step: Sym::Const(1), cmp: Cmp::Lt, fmt: IntFmt { bytes: 4, signed: true }, partitioned: parent.is_none(), gang: parent.is_none().then_some(0) };
        AccessPlan {
            loops: vec![lp(None, ni), lp(Some(0), nj)],
            gangs: vec![GangLoop { dims: vec![0], worker: false, vector: false, chunk: None }],
            sites: vec![PlanSite { loc: Loc::default(), write: true, addr: lin(BASE, &[(0, 8 * ci), (1, 8 * cj)]), size: 8, lp: Some(1), guards: Vec::new() }],
            atomics: Vec::new(),
            checks: Vec::new(),
        }
    }

    const CFG: Config = Config { gangs: 4, workers: 1, vector: 1 };

    #[test]
    fn writes_that_separate_the_gang_counter_are_proven() {
        // a[10i + j], j < 10: rows of one gang each.
        let fp = nest(100, 10, 10, 1).evaluate(&Mem, CFG).expect("proven");
        let runs = &fp.writes[0].runs;
        // Gang g runs the rows [25g, 25g + 25) (`kernel::schedule`): one run of 25 rows each.
        let expected: Vec<_> = (0..4).map(|g| WriteRun { start: (BASE + 2000 * g) as u64, len: 2000, stride: 0, count: 1, gang: g as u32 }).collect();
        assert_eq!(runs, &expected);
        // The gang counter alone, the sequential counter not used: each gang writes its own
        // element, again and again.
        assert!(nest(100, 10, 1, 0).evaluate(&Mem, CFG).is_ok());
    }

    #[test]
    fn a_column_written_down_its_rows_is_one_strided_run() {
        // a[i + 100j], j < 10: gang i writes column i, one element per row of 800 bytes.
        let fp = nest(100, 10, 1, 100).evaluate(&Mem, CFG).expect("proven");
        let runs = &fp.writes[0].runs;
        assert_eq!(runs.len(), 100, "one run per column, not per element");
        // Gang g runs the columns [25g, 25g + 25) (`kernel::schedule`).
        let expected: Vec<_> = (0..100).map(|i| WriteRun { start: (BASE + 8 * i) as u64, len: 8, stride: 800, count: 10, gang: (i / 25) as u32 }).collect();
        assert_eq!(runs, &expected);
        // Its pieces are the elements, in address order.
        let pieces: Vec<_> = runs[3].pieces().collect();
        assert_eq!(pieces.len(), 10);
        assert_eq!(pieces[0], (BASE + 24) as u64..(BASE + 32) as u64);
        assert_eq!(pieces[9], (BASE + 24 + 7200) as u64..(BASE + 32 + 7200) as u64);
        // Walking the column upwards lists the same run.
        let mut up = nest(100, 10, 1, 100);
        up.sites[0].addr = lin(BASE + 7200, &[(0, 8), (1, -800)]);
        assert_eq!(&up.evaluate(&Mem, CFG).expect("proven").writes[0].runs, runs);
    }

    #[test]
    fn writes_two_threads_may_make_are_refused() {
        // a[10i + j] with j < 11: row i's last element is row i+1's first.
        assert!(nest(100, 11, 10, 1).evaluate(&Mem, CFG).is_err());
        // a[i + j]: neighbouring threads overlap.
        assert!(nest(100, 10, 1, 1).evaluate(&Mem, CFG).is_err());
        // a[j]: every gang writes the same row.
        assert!(nest(100, 10, 0, 1).evaluate(&Mem, CFG).is_err());
        // Past the end of the block.
        assert!(nest(2000, 100, 100, 1).evaluate(&Mem, CFG).is_err());
    }

    #[test]
    fn gang_redundant_writes_are_refused_unless_one_gang_runs() {
        let mut p = nest(1, 10, 0, 1);
        p.loops[0].gang = None;
        p.gangs.clear();
        assert!(p.evaluate(&Mem, CFG).is_err());
        assert!(p.evaluate(&Mem, Config { gangs: 1, ..CFG }).is_ok());
    }

    #[test]
    fn guards_narrow_one_counter() {
        let iv = |lo, hi| Iv { lo, hi };
        let narrow = |k: i64, a: i64, r: Rel| {
            let mut ivs = vec![iv(0, 99)];
            CGuard::Cmp(Conc { k, terms: vec![(0, a)] }, r).narrow(&mut ivs);
            (ivs[0].lo, ivs[0].hi)
        };
        assert_eq!(narrow(0, 1, Rel::Ne), (1, 99)); // i != 0
        assert_eq!(narrow(-99, 1, Rel::Ne), (0, 98)); // i != 99
        assert_eq!(narrow(-50, 1, Rel::Ne), (0, 99)); // i != 50: no interval says it
        assert_eq!(narrow(-10, 1, Rel::Gt), (11, 99)); // i > 10
        assert_eq!(narrow(-10, 1, Rel::Lt), (0, 9)); // i < 10
        assert_eq!(narrow(-7, 2, Rel::Ge), (4, 99)); // 2i >= 7
        assert_eq!(narrow(7, -2, Rel::Ge), (0, 3)); // 7 - 2i >= 0
        assert_eq!(narrow(-7, 2, Rel::Eq), (0, -1)); // 2i == 7: never
        assert_eq!(narrow(-8, 2, Rel::Eq), (4, 4));
        // Two counters, or a disjunction: nothing is narrowed.
        let mut ivs = vec![iv(0, 9), iv(0, 9)];
        CGuard::Cmp(Conc { k: 0, terms: vec![(0, 1), (1, -1)] }, Rel::Lt).narrow(&mut ivs);
        CGuard::Any(vec![CGuard::Cmp(Conc { k: -5, terms: vec![(0, 1)] }, Rel::Lt)]).narrow(&mut ivs);
        assert_eq!((ivs[0].lo, ivs[0].hi, ivs[1].lo, ivs[1].hi), (0, 9, 0, 9));
    }

    #[test]
    fn machine_arithmetic() {
        let int = IntFmt { bytes: 4, signed: true };
        assert_eq!(apply(BinOp::Add, i32::MAX as i64, 1, int), Some(i32::MIN as i64));
        assert_eq!(apply(BinOp::Div, 7, 0, int), None);
        assert_eq!(apply(BinOp::Div, -7, 2, int), Some(-3));
        let uint = IntFmt { bytes: 4, signed: false };
        assert_eq!(apply(BinOp::Sub, 0, 1, uint), Some(u32::MAX as i64));
        assert_eq!(apply(BinOp::Shl, 1, 40, int), None);
    }
}
