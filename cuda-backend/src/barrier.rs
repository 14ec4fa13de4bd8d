//! Which barriers a kernel needs under the default mapping (§1.2 execution modes, §1.3 memory).
//!
//! # Model
//!
//! Under the default mapping ([`crate::emit`]) every thread of a block runs the code outside
//! partitioned loops (redundantly; its stores guarded to one thread), and a partitioned loop gives
//! each thread its share. A *region* is one partitioned loop as the emitter writes it: a worker or
//! vector thread loop of `kernel::schedule`, or the loop over rounds that the scheduler makes of a
//! partitioned loop without per-thread state (`for (__round …) { worker and lane loops }`). A
//! barrier before a region orders what other threads did before it with what it does; one after
//! it, what it did with what follows. A barrier is kept only when some access before it and one
//! after it, by different threads, may touch the same memory with at least one store.
//!
//! For a region R in its *context* (the block, or one worker's lanes inside a worker loop):
//! - what may run before R since the context began: the statements before it in each enclosing
//!   block, each enclosing `if`'s condition, and for each enclosing loop the whole loop (an
//!   earlier iteration), up to the thread loop that opened the context or the kernel's start;
//! - what may run after R: symmetrically (later statements, the whole of each enclosing loop).
//!
//! The barrier before R is kept when what runs before conflicts with R or with what runs after
//! it; the barrier after R when R conflicts with what runs after it. This assumes no other
//! barrier in between, so it never drops one that is needed; it can keep one that another
//! barrier made unnecessary.
//!
//! Memory is told apart by what an address is derived from:
//! - a `__shared__` local (one slot per block or per worker): that local;
//! - a per-gang copy (a `private`, `firstprivate` or `reduction` capture): gang memory;
//! - a captured variable's copy that the kernel only loads (a read-only `firstprivate` copy for
//!   all gangs, the slot of a `present` or `deviceptr` pointer): nothing, since no thread stores
//!   to it;
//! - device data reached from the other captures or from pointers loaded from memory (when the
//!   kernel stores no pointer to gang or block memory anywhere): global memory;
//! - the scratch arrays of block reductions, by the shape of the reducing group;
//! - anything else (a pointer of unknown origin, a call that may store): all of these.
//!
//! Rules that let barriers go:
//! - Different iterations of a partitioned loop (gang, worker or vector) never communicate
//!   through global memory: in some schedule they run on different gangs, workers or lanes with
//!   no synchronisation between them (§1.2), so a program in which they did would race. This is
//!   what lets a vector loop inside a gang loop (Jacobi's rows) run without barriers. (Gang
//!   memory and `__shared__` locals are reused by the block from one iteration to the next, so
//!   they do count.)
//! - Accesses made only by the block's first thread (guarded single code, the final combine of a
//!   block reduction) never conflict with each other: one thread makes them in program order.
//! - Scratch arrays of the same group shape never conflict: each block reduction ends with its
//!   group's barrier, and a group only uses its own slots.
//! - The rounds of one partitioned loop are iterations of that loop, which are unordered (§1.2):
//!   no barrier between rounds; the region's barriers, if needed, go around the loop over rounds.
//!
//! A kernel with `goto` keeps every barrier (the walk does not follow jumps).

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap, HashSet};

use accsim_core::ir::*;

use crate::emit::{extern_stores, for_init_local, is_schedule_var, is_share_loop, thread_loop, walk_expr, walk_stmt, walk_stmt_and, Home, ThreadLoop, Threads};

/// The threads of a block that combine their values in a block reduction (§2.7.11): those of
/// the loop being reduced, for each value of the indices it does not partition.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
pub(crate) enum Group {
    /// The vector lanes of a worker (`threadIdx.x`).
    Lanes,
    /// The workers, per lane (`threadIdx.y`).
    Workers,
    /// Every thread of the block (a worker-and-vector loop).
    Block,
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Class {
    Shared(LocalId),
    AllShared,
    Gang,
    Global,
    /// Memory the kernel only reads (a captured variable's copy that it only loads): nothing
    /// stores to it.
    ReadOnly,
    Scratch(Group),
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct Access {
    class: Class,
    write: bool,
    /// Made by one thread only: of the block or of each worker.
    leader: Leader,
}

/// Which threads make an access.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Leader {
    /// Several threads.
    Many,
    /// The block's first thread (guarded single code).
    Block,
    /// Lane 0 of each worker (vector-single code inside a worker loop).
    Lane0,
}

/// The threads that run guarded single code in context `th`.
fn leader_of(th: Threads) -> Leader {
    match (th.worker, th.vector) {
        (false, false) => Leader::Block,
        (true, false) => Leader::Lane0,
        _ => Leader::Many,
    }
}

type Effects = BTreeSet<Access>;

/// What the region and what runs around it touch, with where it comes from.
struct Entry {
    effects: Effects,
    /// Index of the path frame it comes from (`usize::MAX` for the region itself).
    depth: usize,
    /// It is the whole of the loop over a thread's iterations of a partitioned loop (the
    /// region runs in another iteration).
    iterations: bool,
}

enum Frame<'s> {
    Items(&'s [Stmt], usize),
    /// An enclosing loop; `true`: the loop over a thread's iterations of a partitioned loop.
    Loop(&'s Stmt, bool),
    Cond(&'s Expr),
    Boundary,
}

/// The barriers of one kernel: for each region (by statement address), whether the barrier
/// before and the one after it are kept, and why.
#[derive(Default)]
pub(crate) struct Plan {
    before: HashMap<*const Stmt, String>,
    after: HashMap<*const Stmt, String>,
    in_rounds: HashSet<*const Stmt>,
    rounds: HashSet<*const Stmt>,
}

impl Plan {
    /// Why the barrier before region `s` is needed, or `None` when it is not.
    pub(crate) fn before(&self, s: &Stmt) -> Option<&str> {
        self.before.get(&(s as *const Stmt)).map(String::as_str)
    }
    pub(crate) fn after(&self, s: &Stmt) -> Option<&str> {
        self.after.get(&(s as *const Stmt)).map(String::as_str)
    }
    /// A worker or lane loop of a loop over rounds: its barriers are the rounds' (none inside).
    pub(crate) fn in_rounds(&self, s: &Stmt) -> bool {
        self.in_rounds.contains(&(s as *const Stmt))
    }
    /// A loop over the rounds of a partitioned loop.
    pub(crate) fn is_rounds(&self, s: &Stmt) -> bool {
        self.rounds.contains(&(s as *const Stmt))
    }
}

/// What the analysis needs to know about a kernel.
pub(crate) struct Facts<'a> {
    pub p: &'a Program,
    pub func: &'a Function,
    pub homes: &'a [Home],
    /// Parameters that point to per-gang copies.
    pub gang_copies: HashSet<LocalId>,
    /// Parameters that point to a copy of each thread's own (see `emit`'s `thread_cells`).
    pub thread_cells: &'a HashSet<LocalId>,
    /// Parameters that point to memory the kernel only reads (a `firstprivate` copy for all
    /// gangs, a captured variable whose copy the kernel only loads).
    pub read_only: HashSet<LocalId>,
    /// The iteration index (`__k`) of each partitioned loop (gang, worker or vector).
    pub partitioned_iterations: HashSet<LocalId>,
    /// Functions that store to memory or call the C library.
    pub impure: &'a HashSet<FuncId>,
    /// Whether single code's statement is guarded (run by the block's first thread only).
    pub guarded: &'a dyn Fn(&Expr) -> bool,
}

/// The statements that thread loop `tl` (body `body`) runs in context `th`, their context and
/// the group its reduction combines reduce over. A worker loop whose whole body is the lane loop
/// of the same directive (`worker vector`) is entered through both: its combines reduce over the
/// block.
pub(crate) fn enter<'s>(tl: &ThreadLoop, body: &'s Stmt, th: Threads) -> (&'s Stmt, Threads, Group) {
    match tl {
        ThreadLoop::Worker(_) => match joined_vector_loop(body).and_then(thread_loop) {
            Some((_, lanes)) => (lanes, Threads { worker: true, vector: true }, Group::Block),
            _ => (body, Threads { worker: true, ..th }, Group::Workers),
        },
        ThreadLoop::Vector(_) => (body, Threads { vector: true, ..th }, Group::Lanes),
    }
}

/// The vector thread loop that is the whole body of a worker thread loop (`worker vector` on one
/// loop: the scheduler nests the lane loop directly in the worker loop).
pub(crate) fn joined_vector_loop(body: &Stmt) -> Option<&Stmt> {
    let mut s = body;
    while let StmtKind::Block(v) = &s.kind {
        match v.as_slice() {
            [one] => s = one,
            _ => return None,
        }
    }
    matches!(thread_loop(s), Some((ThreadLoop::Vector(_), _))).then_some(s)
}

/// The threads that run a reduction combine of `group` in context `th` (the loop's own levels
/// included) after the block reduction: index 0 along the group and the unpartitioned levels.
pub(crate) fn combine_threads(th: Threads, group: Group) -> Threads {
    Threads { worker: th.worker && group == Group::Lanes, vector: th.vector && group == Group::Workers }
}

/// `for (round = …)`: the loop over rounds of a partitioned loop without per-thread state.
pub(crate) fn is_round_loop(func: &Function, s: &Stmt) -> bool {
    for_init_local(s).is_some_and(|l| is_schedule_var(func, l, ScheduleVar::Round))
}

struct Analysis<'a> {
    f: &'a Facts<'a>,
    assigns: HashMap<LocalId, Vec<&'a Expr>>,
    opaque: HashSet<LocalId>,
    visiting: RefCell<HashSet<LocalId>>,
    loaded_global: bool,
}

/// The barrier plan of a kernel.
pub(crate) fn plan(f: &Facts<'_>) -> Plan {
    let mut assigns: HashMap<LocalId, Vec<&Expr>> = HashMap::new();
    let mut opaque = HashSet::new();
    let mut goto = false;
    collect(&f.func.body, &mut assigns, &mut opaque, &mut goto);
    let mut a = Analysis { f, assigns, opaque, visiting: RefCell::new(HashSet::new()), loaded_global: true };
    a.loaded_global = a.pointer_stores_global();
    let mut plan = Plan::default();
    let mut path = Vec::new();
    a.regions(&f.func.body, Threads::default(), None, &mut path, &mut plan, goto);
    plan
}

/// Every value assigned to each local, the locals of unknown origin (address taken, call
/// results, complex temporaries), and whether the function has a `goto`.
fn collect<'a>(body: &'a Stmt, assigns: &mut HashMap<LocalId, Vec<&'a Expr>>, opaque: &mut HashSet<LocalId>, goto: &mut bool) {
    let mut is_goto = |s: &Stmt| *goto |= matches!(s.kind, StmtKind::Goto(_));
    let mut jumps = false;
    walk_stmt_and(body, &mut is_goto, &mut |e| match &e.kind {
        ExprKind::Assign { place: Place::Local(l), value } => assigns.entry(*l).or_default().push(value),
        ExprKind::LocalAddr(l) | ExprKind::Call { result: Some(l), .. } | ExprKind::ComplexBinary { dst: l, .. } | ExprKind::ComplexNeg { dst: l, .. } | ExprKind::ComplexMake { dst: l, .. } => {
            opaque.insert(*l);
        }
        // `walk_expr` visits the expressions of statements inside an expression; a jump there too.
        ExprKind::WithInit { init: stmts, .. } | ExprKind::StmtExpr { body: stmts, .. } => {
            for x in stmts {
                walk_stmt_and(x, &mut |s| jumps |= matches!(s.kind, StmtKind::Goto(_)), &mut |_| {});
            }
        }
        _ => {}
    });
    *goto |= jumps;
}

const EVERYTHING: [Class; 3] = [Class::AllShared, Class::Gang, Class::Global];

impl<'a> Analysis<'a> {
    /// The memory an address may point into: `Some(empty)` for a thread's own locals, `None` when
    /// it is not known.
    fn addr_class(&self, a: &Expr) -> Option<BTreeSet<Class>> {
        match &a.kind {
            ExprKind::Cast(x) | ExprKind::PtrAdd { ptr: x, .. } | ExprKind::Comma(_, x) => self.addr_class(x),
            ExprKind::Assign { value, .. } => self.addr_class(value),
            ExprKind::Cond(_, x, y) => {
                let mut s = self.addr_class(x)?;
                s.extend(self.addr_class(y)?);
                Some(s)
            }
            ExprKind::LocalAddr(l) => Some(match self.f.homes.get(l.0 as usize) {
                Some(Home::Thread) => BTreeSet::new(),
                _ => BTreeSet::from([Class::Shared(*l)]),
            }),
            ExprKind::GlobalAddr(_) => Some(BTreeSet::from([Class::Global])),
            ExprKind::Local(p) => self.pointer_class(*p),
            ExprKind::Load(_) if self.loaded_global => Some(BTreeSet::from([Class::Global])),
            _ => None,
        }
    }

    /// What the values of pointer local `p` may point into (all its assignments).
    fn pointer_class(&self, p: LocalId) -> Option<BTreeSet<Class>> {
        let f = self.f;
        if p.0 < 4 {
            return None;
        }
        if f.thread_cells.contains(&p) {
            return Some(BTreeSet::new());
        }
        if f.func.params.contains(&p) {
            let class = if f.gang_copies.contains(&p) {
                Class::Gang
            } else if f.read_only.contains(&p) {
                Class::ReadOnly
            } else {
                Class::Global
            };
            return Some(BTreeSet::from([class]));
        }
        if f.homes.get(p.0 as usize) != Some(&Home::Thread) || self.opaque.contains(&p) {
            return None;
        }
        // A cycle of assignments adds nothing to what its other assignments point into.
        if !self.visiting.borrow_mut().insert(p) {
            return Some(BTreeSet::new());
        }
        let values = self.assigns.get(&p).map(Vec::as_slice).unwrap_or_default();
        let mut out = if values.is_empty() { None } else { Some(BTreeSet::new()) };
        for v in values {
            out = match (out, self.addr_class(v)) {
                (Some(mut s), Some(c)) => {
                    s.extend(c);
                    Some(s)
                }
                _ => None,
            };
        }
        self.visiting.borrow_mut().remove(&p);
        out
    }

    /// Every pointer the kernel stores to memory points into global memory (so a pointer loaded
    /// from memory does too: captured pointers are device addresses of global data).
    fn pointer_stores_global(&self) -> bool {
        let mut ok = true;
        let types = &self.f.p.types;
        walk_stmt(&self.f.func.body, &mut |e| match &e.kind {
            ExprKind::Assign { place: Place::Mem(_), value } if matches!(types.get(value.ty), Type::Pointer(_)) => {
                ok &= self.addr_class(value).is_some_and(|c| c.iter().all(|c| *c == Class::Global));
            }
            ExprKind::Call { callee: Callee::Extern(x), .. } => ok &= self.f.p.externs.get(x.0 as usize).is_some_and(|x| x.name != "memcpy"),
            ExprKind::Call { callee: Callee::Direct(g), .. } => ok &= !self.f.impure.contains(g),
            ExprKind::Call { callee: Callee::Indirect(_), .. } => ok = false,
            _ => {}
        });
        ok
    }

    fn touch(&self, a: &Expr, write: bool, leader: Leader, out: &mut Effects) {
        match self.addr_class(a) {
            Some(cs) => out.extend(cs.into_iter().map(|class| Access { class, write, leader })),
            None => out.extend(EVERYTHING.map(|class| Access { class, write, leader })),
        }
    }

    fn expr_effects(&self, e: &Expr, leader: Leader, out: &mut Effects) {
        let f = self.f;
        let shared = |l: &LocalId| f.homes.get(l.0 as usize).is_some_and(|h| *h != Home::Thread);
        walk_expr(e, &mut |x| match &x.kind {
            ExprKind::Load(a) => self.touch(a, false, leader, out),
            ExprKind::Assign { place, .. } | ExprKind::CompoundAssign { place, .. } | ExprKind::IncDec { place, .. } => match place {
                Place::Mem(a) => self.touch(a, true, leader, out),
                Place::Local(l) if shared(l) => {
                    out.insert(Access { class: Class::Shared(*l), write: true, leader });
                }
                Place::Local(_) => {}
            },
            ExprKind::Local(l) if shared(l) => {
                out.insert(Access { class: Class::Shared(*l), write: false, leader });
            }
            ExprKind::ComplexBinary { dst, .. } | ExprKind::ComplexNeg { dst, .. } | ExprKind::ComplexMake { dst, .. } | ExprKind::Call { result: Some(dst), .. } if shared(dst) => {
                out.insert(Access { class: Class::Shared(*dst), write: true, leader });
                if let ExprKind::Call { callee, .. } = &x.kind {
                    self.call_effects(callee, leader, out);
                }
            }
            ExprKind::Call { callee, .. } => self.call_effects(callee, leader, out),
            _ => {}
        });
    }

    fn call_effects(&self, callee: &Callee, leader: Leader, out: &mut Effects) {
        let write = match callee {
            Callee::Extern(x) if !extern_stores(self.f.p, *x) => return,
            Callee::Direct(g) => self.f.impure.contains(g),
            _ => true,
        };
        out.extend(EVERYTHING.map(|class| Access { class, write, leader }));
    }

    /// What statement `s` touches when run in context `th`; `group`: the reduction group of the
    /// innermost thread loop around it.
    fn stmt_effects(&self, s: &Stmt, th: Threads, group: Option<Group>, out: &mut Effects) {
        let guarded = leader_of(th);
        match &s.kind {
            StmtKind::Expr(e) => self.expr_effects(e, if (self.f.guarded)(e) { guarded } else { Leader::Many }, out),
            StmtKind::ZeroFill { addr, .. } => {
                let private = self.addr_class(addr).is_some_and(|c| c.is_empty());
                self.touch(addr, true, if private { Leader::Many } else { guarded }, out);
            }
            StmtKind::Return(Some(e)) => self.expr_effects(e, Leader::Many, out),
            StmtKind::Block(v) => self.items_effects(v, None, th, group, out, &mut Effects::new()),
            StmtKind::If(c, t, e) => {
                self.expr_effects(c, Leader::Many, out);
                self.stmt_effects(t, th, group, out);
                if let Some(e) = e {
                    self.stmt_effects(e, th, group, out);
                }
            }
            StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
                self.expr_effects(c, Leader::Many, out);
                self.stmt_effects(b, th, group, out);
            }
            StmtKind::Switch { cond, body, .. } => {
                self.expr_effects(cond, Leader::Many, out);
                self.stmt_effects(body, th, group, out);
            }
            StmtKind::Partition(_) => {
                if let Some((tl, body)) = thread_loop(s) {
                    let (body, inner, g) = enter(&tl, body, th);
                    self.stmt_effects(body, inner, Some(g), out);
                }
            }
            StmtKind::For { init, cond, step, body } => {
                if let Some(i) = init {
                    self.stmt_effects(i, th, group, out);
                }
                for c in cond.iter().chain(step.iter()) {
                    self.expr_effects(c, Leader::Many, out);
                }
                self.stmt_effects(body, th, group, out);
            }
            StmtKind::Acc { body: Some(b), .. } => self.stmt_effects(b, th, group, out),
            _ => {}
        }
    }

    /// The effects of block items `v` in context `th`: those before item `split` into
    /// `before`, those after it into `after` (all into `before` without `split`). After a
    /// thread's share (the loop over its iterations) come the reduction combines: a block
    /// reduction in the group's scratch array, then one combine by the group's first thread.
    #[allow(clippy::too_many_arguments)]
    fn items_effects(&self, v: &[Stmt], split: Option<usize>, th: Threads, group: Option<Group>, before: &mut Effects, after: &mut Effects) {
        let mut combining = false;
        for (j, x) in v.iter().enumerate() {
            let out = match split {
                Some(i) if j == i => {
                    combining |= is_share_loop(self.f.func, x);
                    continue;
                }
                Some(i) if j > i => &mut *after,
                _ => &mut *before,
            };
            match group {
                Some(g) if combining && th.depth() > 0 => {
                    let mut tmp = Effects::new();
                    self.stmt_effects(x, th, group, &mut tmp);
                    let leader = leader_of(combine_threads(th, g));
                    out.extend(tmp.into_iter().map(|a| Access { leader, ..a }));
                    out.insert(Access { class: Class::Scratch(g), write: true, leader: Leader::Many });
                }
                _ => self.stmt_effects(x, th, group, out),
            }
            combining |= is_share_loop(self.f.func, x);
        }
    }

    /// Find the regions below `s` and decide their barriers.
    fn regions<'s>(&self, s: &'s Stmt, th: Threads, group: Option<Group>, path: &mut Vec<Frame<'s>>, plan: &mut Plan, keep_all: bool) {
        match &s.kind {
            StmtKind::Block(v) => {
                for (i, x) in v.iter().enumerate() {
                    path.push(Frame::Items(v, i));
                    self.regions(x, th, group, path, plan, keep_all);
                    path.pop();
                }
            }
            StmtKind::If(c, t, e) => {
                path.push(Frame::Cond(c));
                self.regions(t, th, group, path, plan, keep_all);
                if let Some(e) = e {
                    self.regions(e, th, group, path, plan, keep_all);
                }
                path.pop();
            }
            StmtKind::While(_, b) | StmtKind::DoWhile(b, _) => {
                path.push(Frame::Loop(s, false));
                self.regions(b, th, group, path, plan, keep_all);
                path.pop();
            }
            StmtKind::Switch { cond, body, .. } => {
                path.push(Frame::Cond(cond));
                self.regions(body, th, group, path, plan, keep_all);
                path.pop();
            }
            StmtKind::Acc { body: Some(b), .. } => self.regions(b, th, group, path, plan, keep_all),
            StmtKind::Partition(_) => {
                if let Some((tl, body)) = thread_loop(s) {
                    if !plan.in_rounds.contains(&(s as *const Stmt)) {
                        self.decide(s, th, group, path, plan, keep_all);
                    }
                    // A lane loop that is the whole body of a worker loop of the same directive
                    // needs no barriers of its own: nothing else runs in the worker.
                    let (body, inner, g) = enter(&tl, body, th);
                    path.push(Frame::Boundary);
                    self.regions(body, inner, Some(g), path, plan, keep_all);
                    path.pop();
                }
            }
            StmtKind::For { body, .. } => {
                let func = self.f.func;
                if is_round_loop(func, s) {
                    plan.rounds.insert(s);
                    self.decide(s, th, group, path, plan, keep_all);
                    // The round's own worker and lane loops have no barriers of their own.
                    let mut cur: &Stmt = body;
                    loop {
                        match &cur.kind {
                            StmtKind::Block(v) => match v.iter().find(|x| thread_loop(x).is_some() || matches!(x.kind, StmtKind::Block(_))) {
                                Some(x) => cur = x,
                                None => break,
                            },
                            StmtKind::Partition(_) if thread_loop(cur).is_some() => {
                                plan.in_rounds.insert(cur);
                                cur = thread_loop(cur).map_or(cur, |(_, b)| b);
                            }
                            _ => break,
                        }
                    }
                    path.push(Frame::Loop(s, false));
                    self.regions(body, th, group, path, plan, keep_all);
                    path.pop();
                    return;
                }
                let partitioned = for_init_local(s).is_some_and(|l| self.f.partitioned_iterations.contains(&l)) || (for_init_local(s).is_some_and(|l| is_schedule_var(func, l, ScheduleVar::ChunkStart)) && self.chunks_partitioned_loop(body));
                path.push(Frame::Loop(s, partitioned));
                self.regions(body, th, group, path, plan, keep_all);
                path.pop();
            }
            _ => {}
        }
    }

    /// The loop over a thread's chunks whose body is the loop over a gang loop's iterations.
    fn chunks_partitioned_loop(&self, body: &Stmt) -> bool {
        let mut s = body;
        while let StmtKind::Block(v) = &s.kind {
            match v.as_slice() {
                [one] => s = one,
                _ => return false,
            }
        }
        for_init_local(s).is_some_and(|l| self.f.partitioned_iterations.contains(&l))
    }

    fn decide(&self, r: &Stmt, th: Threads, group: Option<Group>, path: &[Frame<'_>], plan: &mut Plan, keep_all: bool) {
        if keep_all {
            plan.before.insert(r, "the kernel has `goto`: every barrier is kept".into());
            plan.after.insert(r, "the kernel has `goto`: every barrier is kept".into());
            return;
        }
        let mut region = Effects::new();
        self.stmt_effects(r, th, group, &mut region);
        let region = Entry { effects: region, depth: usize::MAX, iterations: false };
        let (mut pre, mut post) = (Vec::new(), Vec::new());
        for (depth, frame) in path.iter().enumerate().rev() {
            match frame {
                Frame::Boundary => break,
                Frame::Items(v, i) => {
                    let (mut a, mut b) = (Effects::new(), Effects::new());
                    self.items_effects(v, Some(*i), th, group, &mut a, &mut b);
                    pre.push(Entry { effects: a, depth, iterations: false });
                    post.push(Entry { effects: b, depth, iterations: false });
                }
                Frame::Loop(s, partitioned) => {
                    let mut e = Effects::new();
                    self.stmt_effects(s, th, group, &mut e);
                    pre.push(Entry { effects: e.clone(), depth, iterations: *partitioned });
                    post.push(Entry { effects: e, depth, iterations: *partitioned });
                }
                Frame::Cond(c) => {
                    let mut e = Effects::new();
                    self.expr_effects(c, Leader::Many, &mut e);
                    pre.push(Entry { effects: e, depth, iterations: false });
                }
            }
        }
        let conflict = |a: &Entry, b: &Entry| self.conflict(a, b);
        let before = pre.iter().find_map(|a| conflict(a, &region).or_else(|| post.iter().find_map(|b| conflict(a, b))));
        if let Some(why) = before {
            plan.before.insert(r, why);
        }
        if let Some(why) = post.iter().find_map(|b| conflict(&region, b)) {
            plan.after.insert(r, why);
        }
    }
}

impl Analysis<'_> {
    /// Why entries `a` and `b` conflict: some memory both touch, one of them storing, not both by
    /// the same single thread; global memory not between iterations of a partitioned loop.
    fn conflict(&self, a: &Entry, b: &Entry) -> Option<String> {
        let across = (a.iterations && b.depth >= a.depth) || (b.iterations && a.depth >= b.depth);
        for x in &a.effects {
            for y in &b.effects {
                if !(x.write || y.write) {
                    continue;
                }
                let same_thread = match (x.leader, y.leader, x.class) {
                    (Leader::Block, Leader::Block, _) => true,
                    // One slot per worker, used by its lane 0 only.
                    (Leader::Lane0, Leader::Lane0, Class::Shared(l)) => self.f.homes.get(l.0 as usize) == Some(&Home::Worker),
                    _ => false,
                };
                if same_thread {
                    continue;
                }
                let same = match (x.class, y.class) {
                    (Class::Global, Class::Global) => !across,
                    (Class::Shared(p), Class::Shared(q)) => p == q,
                    (Class::Shared(_) | Class::AllShared, Class::Shared(_) | Class::AllShared) => true,
                    (Class::Gang, Class::Gang) => true,
                    (Class::Scratch(p), Class::Scratch(q)) => p != q,
                    _ => false,
                };
                if same {
                    return Some(self.describe(x.class, y.class));
                }
            }
        }
        None
    }

    fn describe(&self, a: Class, b: Class) -> String {
        let what = match (a, b) {
            (Class::Shared(l), _) | (_, Class::Shared(l)) => {
                let name = self.f.func.locals.get(l.0 as usize).map(|x| x.name.as_str()).unwrap_or("?");
                format!("`{name}` (shared by the block's threads)")
            }
            (Class::AllShared, _) => "memory shared by the block's threads".into(),
            (Class::Gang, _) => "the gang's private copies".into(),
            (Class::Global | Class::ReadOnly, _) => "device memory".into(),
            (Class::Scratch(_), _) => "the block-reduction scratch".into(),
        };
        format!("{what} is used on both sides, stored on one")
    }
}
