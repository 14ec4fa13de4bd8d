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

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use crate::diag::Loc;
use crate::ir::acc::{AccClauseKind, AccDirective, AccKind, Capture, CaptureMode, LoopInfo};
use crate::ir::*;

use crate::exec::value::Kind;

mod atomics;
mod listed;

pub use atomics::{AtomicTarget, PlanAtomic};

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

// ------------------------------------------------------------------------------ evaluation

/// An affine function with the launch's values.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Conc {
    k: i64,
    terms: Vec<(u32, i64)>,
}

/// A closed interval of integers.
#[derive(Clone, Copy, Debug)]
struct Iv {
    lo: i128,
    hi: i128,
}

impl Conc {
    fn interval(&self, ivs: &[Iv]) -> Iv {
        self.interval_without(ivs, &|_| false)
    }

    /// The interval over the counters' ranges, the counters `fixed` left out (held at 0).
    fn interval_without(&self, ivs: &[Iv], fixed: &dyn Fn(u32) -> bool) -> Iv {
        let mut r = Iv { lo: self.k as i128, hi: self.k as i128 };
        for &(l, c) in self.terms.iter().filter(|(l, _)| !fixed(*l)) {
            let x = ivs[l as usize];
            let (a, b) = (x.lo * c as i128, x.hi * c as i128);
            r.lo += a.min(b);
            r.hi += a.max(b);
        }
        r
    }

    fn at(&self, vals: &[i64]) -> i64 {
        self.terms.iter().fold(self.k, |s, &(l, c)| s.wrapping_add(c.wrapping_mul(vals[l as usize])))
    }

    fn coef(&self, l: u32) -> i64 {
        self.terms.iter().find(|t| t.0 == l).map_or(0, |t| t.1)
    }
}

/// A [`Guard`] with the launch's values.
#[derive(Clone, Debug)]
enum CGuard {
    Cmp(Conc, Rel),
    All(Vec<CGuard>),
    Any(Vec<CGuard>),
    Unknown,
}

impl CGuard {
    fn of(g: &Guard, v: &dyn LaunchValues) -> CGuard {
        match g {
            Guard::Cmp(l, r) => l.eval(v).map_or(CGuard::Unknown, |c| CGuard::Cmp(c, *r)),
            Guard::All(gs) => CGuard::All(gs.iter().map(|g| CGuard::of(g, v)).collect()),
            Guard::Any(gs) => CGuard::Any(gs.iter().map(|g| CGuard::of(g, v)).collect()),
            Guard::Unknown => CGuard::Unknown,
        }
    }

    fn known(&self) -> bool {
        match self {
            CGuard::Cmp(..) => true,
            CGuard::All(gs) | CGuard::Any(gs) => gs.iter().all(CGuard::known),
            CGuard::Unknown => false,
        }
    }

    /// Whether it holds at the counters `vals` (an unknown part does not).
    fn holds(&self, vals: &[i64]) -> bool {
        match self {
            CGuard::Cmp(c, r) => r.holds(c.at(vals) as i128),
            CGuard::All(gs) => gs.iter().all(|g| g.holds(vals)),
            CGuard::Any(gs) => gs.iter().any(|g| g.holds(vals)),
            CGuard::Unknown => false,
        }
    }

    /// Narrow the counters' ranges to where the guard can hold (its conjuncts that compare one
    /// counter with a launch value).
    fn narrow(&self, ivs: &mut [Iv]) {
        match self {
            CGuard::All(gs) => gs.iter().for_each(|g| g.narrow(ivs)),
            CGuard::Cmp(c, r) if c.terms.len() == 1 => {
                let (l, a) = c.terms[0];
                let iv = &mut ivs[l as usize];
                // a·x + k rel 0, as x rel' q with a > 0.
                let (a, k, r) = if a > 0 {
                    (a as i128, c.k as i128, *r)
                } else {
                    let flipped = match r {
                        Rel::Lt => Rel::Gt,
                        Rel::Le => Rel::Ge,
                        Rel::Gt => Rel::Lt,
                        Rel::Ge => Rel::Le,
                        other => *other,
                    };
                    (-(a as i128), -(c.k as i128), flipped)
                };
                let exact = (-k).rem_euclid(a) == 0;
                let q = (-k).div_euclid(a);
                match r {
                    Rel::Lt => iv.hi = iv.hi.min((-k - 1).div_euclid(a)),
                    Rel::Le => iv.hi = iv.hi.min(q),
                    Rel::Gt => iv.lo = iv.lo.max(q + 1),
                    Rel::Ge => iv.lo = iv.lo.max(if exact { q } else { q + 1 }),
                    Rel::Eq if exact => (iv.lo, iv.hi) = (iv.lo.max(q), iv.hi.min(q)),
                    Rel::Eq => iv.hi = iv.lo - 1,
                    Rel::Ne if exact && q == iv.lo => iv.lo += 1,
                    Rel::Ne if exact && q == iv.hi => iv.hi -= 1,
                    Rel::Ne => {}
                }
            }
            _ => {}
        }
    }
}

/// The bytes a proven kernel reads at one site.
#[derive(Clone, Debug)]
pub struct ReadSpan {
    pub loc: Loc,
    /// Every byte the site may read lies here (device addresses).
    pub range: Range<u64>,
    /// The site runs at least once.
    pub executed: bool,
    /// Every byte it reads was written before in the same iteration by the same thread: an
    /// earlier site of its loop body, unconditional there, writes the same address (`Anew[j][i]
    /// = …; err = fmax(err, fabs(Anew[j][i] - A[j][i]));`), and the plan follows no jump. What
    /// it reads is then never a value from before the launch.
    pub written_first: bool,
    /// The site's address over its loops, to list its bytes run by run when the hull
    /// `range` is too coarse ([`ReadSpan::runs`]); `None` for a site outside every loop.
    site: Option<std::sync::Arc<ReadSite>>,
}

/// A read site with the launch's values: its address, its loops and its conditions.
#[derive(Debug)]
struct ReadSite {
    addr: Conc,
    size: u64,
    chain: Vec<u32>,
    guards: Vec<CGuard>,
    loops: std::sync::Arc<Vec<Loop>>,
}

impl ReadSpan {
    /// Every byte the site may read, as sorted, disjoint runs of device addresses within
    /// [`ReadSpan::range`]: the address at each iteration of its loops that meets its
    /// conditions (a superset of the bytes it reads: an iteration a `break` would skip is
    /// still listed). `None` when the site has a condition that is not affine, or when more
    /// than `limit` iterations or runs would have to be listed. A site outside every loop is
    /// its hull.
    ///
    /// The uninitialised-read check of `accsim check` (the coherence checker) reads these when
    /// the hull covers bytes no one initialised but the site may not read them: a stencil's
    /// interior rows of a `create`d array whose border columns are never written (issue 15).
    pub fn runs(&self, limit: usize) -> Option<Vec<Range<u64>>> {
        let Some(site) = &self.site else { return Some(vec![self.range.clone()]) };
        if !site.guards.iter().all(CGuard::known) {
            return None;
        }
        let mut out = Vec::new();
        let mut vals = vec![0i64; site.loops.len()];
        let mut steps = limit;
        site.list(0, &mut vals, &mut out, &mut steps)?;
        out.sort_by_key(|r| r.start);
        let mut merged: Vec<Range<u64>> = Vec::with_capacity(out.len());
        for r in out {
            match merged.last_mut() {
                Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                _ => merged.push(r),
            }
        }
        Some(merged)
    }
}

impl ReadSite {
    /// The runs of the counters `chain[depth..]` (the outer ones set in `vals`); `steps`
    /// bounds the iterations and runs looked at.
    fn list(&self, depth: usize, vals: &mut [i64], out: &mut Vec<Range<u64>>, steps: &mut usize) -> Option<()> {
        let push = |out: &mut Vec<Range<u64>>, r: Range<u64>, steps: &mut usize| -> Option<()> {
            if let Some(last) = out.last_mut() {
                if r.start <= last.end && last.start <= r.end {
                    last.start = last.start.min(r.start);
                    last.end = last.end.max(r.end);
                    return Some(());
                }
            }
            *steps = steps.checked_sub(1)?;
            out.push(r);
            Some(())
        };
        if depth == self.chain.len() {
            if !self.guards.iter().all(|g| g.holds(vals)) {
                return Some(());
            }
            let a = self.addr.at(vals) as u64;
            return push(out, a..a.checked_add(self.size)?, steps);
        }
        let l = self.chain[depth];
        let lp = &self.loops[l as usize];
        let (first, n) = lp.span(vals);
        let stride = (self.addr.coef(l) as i128 * lp.step as i128).unsigned_abs();
        if self.guards.is_empty() && depth + 1 == self.chain.len() && stride <= self.size as u128 {
            // The innermost loop reads a contiguous stretch.
            if n == 0 {
                return Some(());
            }
            vals[l as usize] = first;
            let a = self.addr.at(vals) as i128;
            let b = a + (n as i128 - 1) * self.addr.coef(l) as i128 * lp.step as i128;
            let (lo, hi) = (a.min(b), a.max(b) + self.size as i128);
            return push(out, u64::try_from(lo).ok()?..u64::try_from(hi).ok()?, steps);
        }
        for t in 0..n {
            *steps = steps.checked_sub(1)?;
            vals[l as usize] = first + t * lp.step;
            self.list(depth + 1, vals, out, steps)?;
        }
        Some(())
    }
}

/// The bytes a proven kernel writes at one site, exactly, with the gang that writes each run.
#[derive(Clone, Debug)]
pub struct WriteSpan {
    pub loc: Loc,
    pub runs: Vec<WriteRun>,
}

/// Bytes one gang writes: `count` pieces of `len` bytes, the first at device address `start`,
/// each `stride` bytes after the one before, apart from each other (`stride > len`; `count` 1:
/// one piece, `stride` 0). An innermost loop that walks down a column (`c[j][i]` over `j`) is
/// one strided run instead of a run per element: the list of a kernel's writes grows with its
/// rows, not with its elements (issue 15: `check` within 3× the program's data in memory).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteRun {
    pub start: u64,
    pub len: u32,
    pub stride: u32,
    pub count: u32,
    pub gang: u32,
}

impl WriteRun {
    /// One piece of `r`'s bytes.
    pub fn contiguous(r: Range<u64>, gang: u32) -> Result<WriteRun, String> {
        let len = u32::try_from(r.end - r.start).map_err(|_| "a written run larger than a device block".to_string())?;
        Ok(WriteRun { start: r.start, len, stride: 0, count: 1, gang })
    }

    /// The pieces, in address order.
    pub fn pieces(&self) -> impl Iterator<Item = Range<u64>> + '_ {
        (0..self.count as u64).map(move |k| {
            let s = self.start + k * self.stride as u64;
            s..s + self.len as u64
        })
    }

    /// One past the run's last byte.
    fn end(&self) -> u64 {
        self.start + (self.count as u64 - 1) * self.stride as u64 + self.len as u64
    }
}

/// What a proven kernel accesses: reads and writes by site, writes in program order.
#[derive(Clone, Debug, Default)]
pub struct Footprint {
    pub reads: Vec<ReadSpan>,
    pub writes: Vec<WriteSpan>,
    /// Blocks that atomic counter updates may change: what they wrote is known only once the
    /// kernel ran, gang by gang ([`atomics`]).
    pub atomics: Vec<AtomicTarget>,
}

/// The most runs a footprint may list before the plan gives up (checking access by access is
/// then cheaper than the list).
const MAX_RUNS: usize = 1 << 22;

/// The launch configuration.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    pub gangs: u64,
    pub workers: u64,
    pub vector: u64,
}

/// The loops of a plan at one launch (see [`AccessPlan::counters`]).
struct Counters {
    loops: Vec<Loop>,
    ivs: Vec<Iv>,
    never: Vec<bool>,
    always: Vec<bool>,
}

/// The bytes one access site may touch at a launch ([`AccessPlan::site_bytes`]).
#[derive(Clone, Debug)]
pub struct SiteBytes {
    pub loc: Loc,
    pub write: bool,
    pub range: Range<u64>,
}

#[derive(Debug, PartialEq, Eq)]
struct Loop {
    lb: Conc,
    ub: Conc,
    step: i64,
    cmp: Cmp,
}

impl Loop {
    /// The counter's values for the outer counters `vals`: first, count.
    fn span(&self, vals: &[i64]) -> (i64, i64) {
        let (lb, ub, s) = (self.lb.at(vals) as i128, self.ub.at(vals) as i128, self.step as i128);
        let n = match self.cmp {
            Cmp::Lt => (ub - lb + s - 1).div_euclid(s),
            Cmp::Le => (ub - lb + s).div_euclid(s),
            Cmp::Gt => (lb - ub - s - 1).div_euclid(-s),
            Cmp::Ge => (lb - ub - s).div_euclid(-s),
        };
        (lb as i64, n.max(0) as i64)
    }
}

impl AccessPlan {
    /// The loops enclosing a site whose innermost loop is `lp`, outermost first.
    fn loop_chain(&self, lp: Option<u32>) -> Vec<u32> {
        let mut chain = Vec::new();
        let mut at = lp;
        while let Some(l) = at {
            chain.push(l);
            at = self.loops[l as usize].parent;
        }
        chain.reverse();
        chain
    }

    /// Prove the kernel at this launch and list what it accesses (see the module
    /// documentation), or say why not.
    pub fn evaluate(&self, v: &dyn LaunchValues, cfg: Config) -> Result<Footprint, String> {
        let bad = || "a launch value is not known".to_string();
        let Counters { loops, ivs, never, always } = self.counters(v)?;
        // Sites: their addresses, bytes and blocks.
        struct S<'p> {
            site: &'p PlanSite,
            addr: Conc,
            bytes: Range<i128>,
            chain: Vec<u32>,
            guards: Vec<CGuard>,
        }
        let mut sites = Vec::new();
        for s in &self.sites {
            let chain = self.loop_chain(s.lp);
            if chain.iter().any(|&l| never[l as usize]) {
                continue;
            }
            let addr = s.addr.eval(v).ok_or_else(bad)?;
            // A guarded site runs only where its conditions hold: narrow its counters' ranges.
            let guards: Vec<CGuard> = s.guards.iter().map(|g| CGuard::of(g, v)).collect();
            let mut narrowed;
            let site_ivs: &[Iv] = if guards.is_empty() {
                &ivs
            } else {
                narrowed = ivs.clone();
                guards.iter().for_each(|g| g.narrow(&mut narrowed));
                if chain.iter().any(|&l| narrowed[l as usize].hi < narrowed[l as usize].lo) {
                    continue;
                }
                &narrowed
            };
            let iv = addr.interval(site_ivs);
            let bytes = iv.lo..iv.hi + s.size as i128;
            if bytes.start < 0 || bytes.end > u64::MAX as i128 {
                return Err("an address out of range".into());
            }
            let (start, len, shared) = v.block(bytes.start as u64).ok_or("an access outside device memory")?;
            if bytes.end > start as i128 + len as i128 {
                return Err("an access past the end of its block".into());
            }
            if !shared {
                continue;
            }
            sites.push(S { site: s, addr, bytes, chain, guards });
        }
        let mut chunks = Vec::with_capacity(self.gangs.len());
        for g in &self.gangs {
            let c = match &g.chunk {
                Some(c) => c.eval(v).ok_or_else(bad)?,
                None => 1,
            };
            if c <= 0 {
                return Err("a gang chunk that is not positive".into());
            }
            chunks.push(c);
        }
        let ev = Ev { loops: std::sync::Arc::new(loops), cfg, chunks };
        let (loops, chunks) = (&ev.loops[..], &ev.chunks[..]);
        let (atomics, atomic_reads) = self.atomic_targets(v, &ivs, &never, cfg.gangs, true, &mut |chain, guards| {
            let mut vals = vec![0i64; self.loops.len()];
            let mut points = 1 << 20;
            (guards.is_empty() && chain.iter().all(|&l| always[l as usize])) || (guards.iter().all(CGuard::known) && self.exists(&ev, guards, chain, 0, &mut vals, &mut points))
        })?;
        // The race proof.
        let overlaps = |a: &Range<i128>, b: &Range<i128>| a.start < b.end && b.start < a.end;
        for s in &sites {
            if let Some(t) = atomics.iter().find(|t| overlaps(&s.bytes, &(t.block.start as i128..t.block.end as i128))) {
                return Err(format!("lines {} and {}: an access of data an `atomic` statement updates", s.site.loc.line, t.loc.line));
            }
        }
        for (i, w) in sites.iter().enumerate().filter(|(_, s)| s.site.write) {
            let in_gang = w.chain.iter().any(|&l| self.loops[l as usize].gang.is_some());
            if !in_gang && cfg.gangs > 1 {
                return Err(format!("line {}: a write that every gang makes", w.site.loc.line));
            }
            if !self.separates(&w.addr, w.site.size as i128, &w.chain, loops, &ivs) {
                return Err(format!("line {}: a write that two threads may make to one place", w.site.loc.line));
            }
            for (j, x) in sites.iter().enumerate() {
                if i == j || !overlaps(&w.bytes, &x.bytes) {
                    continue;
                }
                let same = x.site.lp == w.site.lp && x.addr == w.addr && x.site.size == w.site.size;
                if !same
                    && !self.apart(&w.addr, w.site.size, &w.chain, &x.addr, x.site.size, &x.chain, cfg, loops, &ivs, chunks)
                    && !self.apart_listed(
                        &ev,
                        &listed::Listed { site: w.site, addr: &w.addr, guards: &w.guards, chain: &w.chain },
                        &listed::Listed { site: x.site, addr: &x.addr, guards: &x.guards, chain: &x.chain },
                    )
                {
                    return Err(format!("lines {} and {}: accesses that may touch one place from two threads", w.site.loc.line, x.site.loc.line));
                }
            }
        }
        // The footprint.
        let mut fp = Footprint { atomics, ..Footprint::default() };
        let mut budget = MAX_RUNS;
        for (i, s) in sites.iter().enumerate() {
            let known = s.guards.iter().all(CGuard::known);
            let mut vals = vec![0i64; self.loops.len()];
            if !s.site.write {
                let executed = if !s.site.guards.is_empty() {
                    // Guarded: it runs if some iteration meets its conditions.
                    let mut points = 1 << 20;
                    known && self.exists(&ev, &s.guards, &s.chain, 0, &mut vals, &mut points)
                } else {
                    // Surely entered by the counters' ranges, or an iteration found (a
                    // triangular loop `j > i` runs for all but the last `i`).
                    let mut points = 1 << 20;
                    s.chain.iter().all(|&l| always[l as usize]) || self.exists(&ev, &[], &s.chain, 0, &mut vals, &mut points)
                };
                let site = (!s.chain.is_empty()).then(|| {
                    std::sync::Arc::new(ReadSite { addr: s.addr.clone(), size: s.site.size, chain: s.chain.clone(), guards: s.guards.clone(), loops: ev.loops.clone() })
                });
                let written_first = sites[..i].iter().any(|w| w.site.write && w.site.guards.is_empty() && w.site.lp == s.site.lp && w.site.size == s.site.size && w.addr == s.addr);
                fp.reads.push(ReadSpan { loc: s.site.loc, range: s.bytes.start as u64..s.bytes.end as u64, executed, written_first, site });
                continue;
            }
            if !known {
                return Err(format!("line {}: a write under a condition that is not affine", s.site.loc.line));
            }
            let mut runs = Vec::new();
            self.runs(&ev, s.site, &s.guards, &s.addr, &s.chain, 0, &mut vals, &mut runs, &mut budget)?;
            fp.writes.push(WriteSpan { loc: s.site.loc, runs });
        }
        fp.reads.extend(atomic_reads);
        Ok(fp)
    }

    /// The loops with the launch's values, each counter's range (`never`: the loop runs no
    /// iteration; `always`: it surely runs one), once the no-wrap conditions are checked.
    fn counters(&self, v: &dyn LaunchValues) -> Result<Counters, String> {
        let bad = || "a launch value is not known".to_string();
        // Loops: bounds, steps, the counters' ranges.
        let mut loops = Vec::with_capacity(self.loops.len());
        let mut ivs: Vec<Iv> = Vec::with_capacity(self.loops.len());
        let mut never = vec![false; self.loops.len()];
        let mut always = vec![true; self.loops.len()];
        for (i, l) in self.loops.iter().enumerate() {
            let step = l.step.eval(v).ok_or_else(bad)?;
            if step == 0 || (step > 0) != matches!(l.cmp, Cmp::Lt | Cmp::Le) {
                return Err("a loop whose step does not move towards its bound".into());
            }
            let lp = Loop { lb: l.lb.eval(v).ok_or_else(bad)?, ub: l.ub.eval(v).ok_or_else(bad)?, step, cmp: l.cmp };
            let (lbi, ubi) = (lp.lb.interval(&ivs), lp.ub.interval(&ivs));
            let iv = match l.cmp {
                Cmp::Lt => Iv { lo: lbi.lo, hi: ubi.hi - 1 },
                Cmp::Le => Iv { lo: lbi.lo, hi: ubi.hi },
                Cmp::Gt => Iv { lo: ubi.lo + 1, hi: lbi.hi },
                Cmp::Ge => Iv { lo: ubi.lo, hi: lbi.hi },
            };
            let parent = l.parent.map(|p| p as usize);
            never[i] = iv.hi < iv.lo || parent.is_some_and(|p| never[p]);
            // Surely entered: the smallest bound gap still gives an iteration.
            let entered = match l.cmp {
                Cmp::Lt => lbi.hi < ubi.lo,
                Cmp::Le => lbi.hi <= ubi.lo,
                Cmp::Gt => lbi.lo > ubi.hi,
                Cmp::Ge => lbi.lo >= ubi.hi,
            };
            always[i] = entered && parent.is_none_or(|p| always[p]);
            let (flo, fhi) = l.fmt.range();
            if !never[i] && (iv.lo < flo || iv.hi > fhi) {
                return Err("a loop counter outside its type".into());
            }
            ivs.push(if never[i] { Iv { lo: 0, hi: 0 } } else { iv });
            loops.push(lp);
        }
        for (lin, f) in &self.checks {
            let c = lin.eval(v).ok_or_else(bad)?;
            let iv = c.interval(&ivs);
            let (lo, hi) = f.range();
            // Unsigned 64-bit words (pointers) may be anything a signed word is.
            let (lo, hi) = if f.bytes == 8 { (i64::MIN as i128, u64::MAX as i128) } else { (lo, hi) };
            if iv.lo < lo || iv.hi > hi {
                return Err("integer index arithmetic may wrap".into());
            }
        }
        Ok(Counters { loops, ivs, never, always })
    }

    /// Whether the kernel accesses memory through capture `cap`'s value (an address built on
    /// the pointer it passes): `None` when no site does, `Some(true)` when some site writes
    /// there. For `accsim info`'s note on a pointer no clause names.
    pub fn access_through(&self, cap: u32) -> Option<bool> {
        let mut found = None;
        for s in self.sites.iter().filter(|s| s.addr.k.mentions(cap) || s.addr.terms.iter().any(|(_, c)| c.mentions(cap))) {
            found = Some(found.unwrap_or(false) | s.write);
        }
        found
    }

    /// Every byte each access site may touch at this launch, as addresses with the launch's
    /// values (the hull of its address over its counters' ranges, narrowed by its guards), with
    /// no proof and no look at the memory: sites in loops that run no iteration, or whose
    /// guards never hold, are left out. The implicit data of a pointer that no data clause
    /// names is this hull (`exec::openacc`, the copies nvc makes: "Generating implicit
    /// copy(y[:n])").
    pub fn site_bytes(&self, v: &dyn LaunchValues) -> Result<Vec<SiteBytes>, String> {
        let Counters { ivs, never, .. } = self.counters(v)?;
        let mut out = Vec::with_capacity(self.sites.len());
        for s in &self.sites {
            let chain = self.loop_chain(s.lp);
            if chain.iter().any(|&l| never[l as usize]) {
                continue;
            }
            let addr = s.addr.eval(v).ok_or("a launch value is not known")?;
            let mut narrowed = ivs.clone();
            s.guards.iter().for_each(|g| CGuard::of(g, v).narrow(&mut narrowed));
            if chain.iter().any(|&l| narrowed[l as usize].hi < narrowed[l as usize].lo) {
                continue;
            }
            let iv = addr.interval(&narrowed);
            let (start, end) = (iv.lo, iv.hi + s.size as i128);
            if start < 0 || end > u64::MAX as i128 {
                return Err("an address out of range".into());
            }
            out.push(SiteBytes { loc: s.loc, write: s.write, range: start as u64..end as u64 });
        }
        Ok(out)
    }

    /// Are two sites in different loops apart: can they touch one place only when the same
    /// team runs them, in order?
    ///
    /// Let `C` be the loops enclosing both (two gang loops in a row with the same schedule and
    /// iterations count as one: an iteration goes to the same thread in both). Within one
    /// iteration of `C`, run by one gang (`C` has its gang loop, or the launch has one gang), the
    /// two sites lie in different statements
    /// run one after the other: by one thread, or across the start or end of a worker or vector
    /// loop, where the gang's workers and lanes synchronise (§1.2). So they are ordered unless
    /// they meet across two iterations of `C` with different partitioned counters; that cannot
    /// happen when both addresses give `C`'s counters the same coefficients and those separate
    /// the partitioned counters of `C` beyond the bytes both sites reach from one iteration.
    #[allow(clippy::too_many_arguments)]
    fn apart(&self, a: &Conc, asize: u64, achain: &[u32], b: &Conc, bsize: u64, bchain: &[u32], cfg: Config, loops: &[Loop], ivs: &[Iv], chunks: &[i64]) -> bool {
        // The common loops, as pairs (a's counter, b's counter).
        let mut common: Vec<(u32, u32)> = achain.iter().zip(bchain).take_while(|(x, y)| x == y).map(|(x, y)| (*x, *y)).collect();
        // Two gang loops one after the other with the same schedule and the same iterations
        // give each iteration to the same thread (`kernel::schedule`): they count as one loop.
        let n = common.len();
        if let (Some(&la), Some(&lb)) = (achain.get(n), bchain.get(n)) {
            if let (Some(ga), Some(gb)) = (self.loops[la as usize].gang, self.loops[lb as usize].gang) {
                let (x, y) = (&self.gangs[ga as usize], &self.gangs[gb as usize]);
                let dims = x.dims.len();
                let alike = ga != gb
                    && dims == y.dims.len()
                    && (x.worker, x.vector) == (y.worker, y.vector)
                    && chunks[ga as usize] == chunks[gb as usize]
                    && x.dims.iter().zip(&y.dims).enumerate().all(|(d, (&p, &q))| {
                        let (lp, lq) = (&loops[p as usize], &loops[q as usize]);
                        achain.get(n + d) == Some(&p) && bchain.get(n + d) == Some(&q) && lp.lb == lq.lb && lp.ub == lq.ub && lp.step == lq.step && lp.cmp == lq.cmp
                    });
                if alike {
                    common.extend(x.dims.iter().copied().zip(y.dims.iter().copied()));
                }
            }
        }
        if cfg.gangs > 1 && !common.iter().any(|&(l, _)| self.loops[l as usize].gang.is_some()) {
            return false;
        }
        if common.iter().any(|&(p, q)| a.coef(p) != b.coef(q)) {
            return false;
        }
        // The bytes each site reaches from the base of one iteration of the common loops.
        let rest = |c: &Conc, size: u64, mine: &dyn Fn(u32) -> bool| {
            let r = c.interval_without(ivs, mine);
            Iv { lo: r.lo, hi: r.hi + size as i128 }
        };
        let ra = rest(a, asize, &|l| common.iter().any(|c| c.0 == l));
        let rb = rest(b, bsize, &|l| common.iter().any(|c| c.1 == l));
        let reach = ra.hi.max(rb.hi) - ra.lo.min(rb.lo);
        let chain: Vec<u32> = common.iter().map(|c| c.0).collect();
        self.separates(a, reach, &chain, loops, ivs)
    }

    /// Does the address separate the partitioned counters of `chain` (module documentation):
    /// iterations with different partitioned counters touch disjoint bytes, each reaching
    /// `reach` bytes from its address?
    fn separates(&self, addr: &Conc, reach: i128, chain: &[u32], loops: &[Loop], ivs: &[Iv]) -> bool {
        // Each counter as an iteration number t (0 ≤ t < trip), its coefficient scaled by the step.
        let mut terms: Vec<(i128, i128, bool)> = Vec::new();
        for &l in chain {
            let iv = ivs[l as usize];
            let step = loops[l as usize].step as i128;
            let trips = (iv.hi - iv.lo) / step.abs() + 1;
            if trips <= 1 {
                continue;
            }
            let c = addr.coef(l) as i128 * step.abs();
            let part = self.loops[l as usize].partitioned;
            if c == 0 {
                if part {
                    return false;
                }
                continue;
            }
            terms.push((c.abs(), trips - 1, part));
        }
        terms.sort_by_key(|t| t.0);
        let Some(min_part) = terms.iter().filter(|t| t.2).map(|t| t.0).min() else { return true };
        let mut span: i128 = reach - 1;
        for &(c, range, _) in &terms {
            if c >= min_part && c <= span {
                return false;
            }
            span += c * range;
        }
        true
    }

    /// The runs a write site writes, with their gangs, for the counters of `chain[depth..]`
    /// (the outer ones set in `vals`).
    #[allow(clippy::too_many_arguments)]
    fn runs(&self, ev: &Ev, site: &PlanSite, guards: &[CGuard], addr: &Conc, chain: &[u32], depth: usize, vals: &mut [i64], out: &mut Vec<WriteRun>, budget: &mut usize) -> Result<(), String> {
        let push = |out: &mut Vec<WriteRun>, r: WriteRun, budget: &mut usize| -> Result<(), String> {
            if let Some(last) = out.last_mut() {
                // A piece that continues the last one, or the same bytes again (an accumulator).
                if last.gang == r.gang && last.count == 1 && r.count == 1 && (last.end() == r.start || *last == r) {
                    last.len = u32::try_from(r.end().max(last.end()) - last.start).map_err(|_| "a written run larger than a device block".to_string())?;
                    return Ok(());
                }
            }
            if *budget == 0 {
                return Err("a footprint too large to list".into());
            }
            *budget -= 1;
            out.push(r);
            Ok(())
        };
        if depth == chain.len() {
            if !guards.iter().all(|g| g.holds(vals)) {
                return Ok(());
            }
            let a = addr.at(vals) as u64;
            let g = self.gang_of(ev, chain, vals);
            return push(out, WriteRun::contiguous(a..a + site.size, g)?, budget);
        }
        let l = chain[depth];
        let lp = &ev.loops[l as usize];
        let (first, n) = lp.span(vals);
        let c = addr.coef(l);
        if guards.is_empty() && depth + 1 == chain.len() {
            // The innermost loop: for each stretch of iterations one gang runs, one run when
            // the address moves by at most the access size (contiguous, or the same bytes at
            // every iteration: an accumulator `x[i]` written in the inner loop of `j`), else
            // one strided run (a column).
            let stride = (c as i128 * lp.step as i128).unsigned_abs();
            let mut t = 0;
            while t < n {
                vals[l as usize] = first + t * lp.step;
                let g = self.gang_of(ev, chain, vals);
                let len = self.same_gang(ev, chain, l, vals, n - t);
                let a = addr.at(vals);
                let b = a + (len - 1) * c * lp.step;
                let run = if stride <= site.size as u128 || len == 1 {
                    WriteRun::contiguous(a.min(b) as u64..a.max(b) as u64 + site.size, g)?
                } else {
                    let too_far = || "a written run larger than a device block".to_string();
                    WriteRun {
                        start: a.min(b) as u64,
                        len: u32::try_from(site.size).map_err(|_| too_far())?,
                        stride: u32::try_from(stride).map_err(|_| too_far())?,
                        count: u32::try_from(len).map_err(|_| too_far())?,
                        gang: g,
                    }
                };
                push(out, run, budget)?;
                t += len;
            }
            return Ok(());
        }
        for t in 0..n {
            vals[l as usize] = first + t * lp.step;
            self.runs(ev, site, guards, addr, chain, depth + 1, vals, out, budget)?;
        }
        Ok(())
    }

    /// Does some iteration of `chain[depth..]` (the outer counters set in `vals`) meet the
    /// guards? `false` also when more than `points` iterations would have to be looked at.
    fn exists(&self, ev: &Ev, guards: &[CGuard], chain: &[u32], depth: usize, vals: &mut [i64], points: &mut usize) -> bool {
        if depth == chain.len() {
            *points = points.saturating_sub(1);
            return guards.iter().all(|g| g.holds(vals));
        }
        let l = chain[depth];
        let lp = &ev.loops[l as usize];
        let (first, n) = lp.span(vals);
        for t in 0..n {
            if *points == 0 {
                return false;
            }
            vals[l as usize] = first + t * lp.step;
            if self.exists(ev, guards, chain, depth + 1, vals, points) {
                return true;
            }
        }
        false
    }

    /// The gang that runs the iteration `vals` of the loops `chain`.
    fn gang_of(&self, ev: &Ev, chain: &[u32], vals: &[i64]) -> u32 {
        let Some((g, k)) = self.linear(ev, chain, vals) else { return 0 };
        if let Some((n0, rest)) = self.blocked(ev, g, vals) {
            // Gang h runs the outermost indices [h*n0/G, (h+1)*n0/G) (`kernel::schedule`): the
            // row's gang is the largest h with h*n0/G <= row.
            let row = k / rest;
            return (((row + 1) * ev.cfg.gangs as i64 - 1) / n0).max(0) as u32;
        }
        let (c, t, per) = ev.share(&self.gangs[g as usize], g);
        (((k / c) % t) / per) as u32
    }

    /// For a gang loop without a `static` chunk (each gang runs a block of its outermost
    /// index): the outermost loop's trip count and the iterations of the loops inside it.
    fn blocked(&self, ev: &Ev, g: u32, vals: &[i64]) -> Option<(i64, i64)> {
        let gl = &self.gangs[g as usize];
        if gl.chunk.is_some() {
            return None;
        }
        let (&outer, inner) = gl.dims.split_first()?;
        let n0 = ev.loops[outer as usize].span(vals).1;
        let rest = inner.iter().map(|&d| ev.loops[d as usize].span(vals).1).product::<i64>();
        (n0 > 0 && rest > 0).then_some((n0, rest))
    }

    /// The gang loop among `chain` and the linear iteration number of `vals` in it.
    fn linear(&self, ev: &Ev, chain: &[u32], vals: &[i64]) -> Option<(u32, i64)> {
        let g = chain.iter().find_map(|&l| self.loops[l as usize].gang)?;
        let mut k = 0i64;
        for &d in &self.gangs[g as usize].dims {
            let lp = &ev.loops[d as usize];
            let (first, n) = lp.span(vals);
            k = k * n + (vals[d as usize] - first) / lp.step;
        }
        Some((g, k))
    }

    /// How many iterations of loop `l` from `vals[l]` on (at most `left`) the same gang runs.
    fn same_gang(&self, ev: &Ev, chain: &[u32], l: u32, vals: &[i64], left: i64) -> i64 {
        let Some((g, k)) = self.linear(ev, chain, vals) else { return left };
        let gl = &self.gangs[g as usize];
        let (c, t, per) = ev.share(gl, g);
        if gl.dims.last() != Some(&l) || t == per {
            return left;
        }
        if let Some((n0, rest)) = self.blocked(ev, g, vals) {
            // The gang's block ends where the next gang's first row starts.
            let gangs = ev.cfg.gangs as i64;
            let next = (k / rest + 1) * gangs - 1;
            let h = (next / n0).max(0);
            let end = ((h + 1) * n0 / gangs) * rest;
            return (end - k).max(1).min(left);
        }
        // The linear iteration moves on with this loop; the gang changes at multiples of c·per.
        let block = c * per;
        (block - k % block).min(left)
    }
}

/// A launch's loops and configuration, for listing runs.
struct Ev {
    loops: std::sync::Arc<Vec<Loop>>,
    cfg: Config,
    /// Each gang loop's chunk.
    chunks: Vec<i64>,
}

impl Ev {
    /// Chunk, threads and threads per gang of gang loop `g`.
    fn share(&self, gl: &GangLoop, g: u32) -> (i64, i64, i64) {
        let per = ((if gl.worker { self.cfg.workers } else { 1 }) * (if gl.vector { self.cfg.vector } else { 1 })).max(1) as i64;
        (self.chunks[g as usize], (self.cfg.gangs as i64 * per).max(1), per)
    }
}

#[cfg(test)]
mod tests {
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
