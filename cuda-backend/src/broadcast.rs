//! Stores of single code to a `__shared__` local that the other threads read before the next
//! partitioned loop: they need a barrier on each side (§1.2 execution modes, §1.3 memory).
//!
//! # Model
//!
//! Code outside partitioned loops (gang-redundant, or worker-single inside a worker loop) runs
//! redundantly in every thread of its context, and its stores to memory the threads share are
//! made by one thread ([`crate::emit`]'s guard). A local that lives in a `__shared__` slot
//! ([`crate::liveness`]: its address is taken, or a value flows through it between threads) and
//! that such code stores to is read by every thread of the context. When a read follows the
//! store before the next partitioned loop, no barrier of [`crate::barrier`] (which go only around
//! partitioned loops) separates them: without one the other threads read the slot's old value.
//! The gang's copy of a `private`, `firstprivate` or `reduction` variable is such memory too
//! (V&V `parallel_while_loop.F90`: `avg = 0` for the gang's next row while the other threads
//! still read the old `avg` in the `do while` condition hung the kernel). A PGI 1.3 `for seq`
//! loop whose counter lives in memory, `for (j …) for (i = 0; i < j; i++)`
//! with a vector inner loop, is the shape: each thread computed the inner loop's bounds from its
//! own, racing, read of `j` (samples/pgi13/09_seed_examples.c summed 606 where 726 is right).
//!
//! Such a store is therefore written `barrier; if (first thread) store; barrier;` with the
//! context's barrier (`__syncthreads()`, or `accsim_sync_worker()` among one worker's lanes): the
//! first so that no thread still reads the value being overwritten, the second so that every
//! thread reads the new one. The walk follows program order from the store: the rest of its
//! statement list, then of each enclosing list, and for an enclosing loop its next iteration as
//! well as what follows it. A store that reaches a partitioned loop on every path before any
//! read of the local by the context's threads (or reaches the kernel's end) needs none: the
//! barrier that [`crate::barrier`] keeps before that loop orders it (the store and a later read
//! conflict). A partitioned loop inside a loop's body may run no iteration, so it orders nothing
//! after that loop. A statement that only the first thread runs (guarded) reads for itself. A
//! statement every thread runs that reads the variable into registers (`ub = j`, `s += w[j]`)
//! is followed through those registers: their value matters where a control expression or a
//! partitioned loop reads them (the loop's barrier comes after the value was read).
//!
//! Limit: a store that a partitioned loop follows gets no barrier before it, even where other
//! threads may still read the old value in code before it since the last barrier (a race
//! between the old value and the new one; none of the shapes above has it).
//!
//! Worker-single code inside a vector loop has no barrier among the workers of a lane; it is
//! left to `first_worker_only` in [`crate::emit`].

use std::collections::HashSet;

use accsim_core::ir::*;

use crate::emit::{thread_loop, walk_expr, walk_stmt, Home, ThreadLoop, Threads};

/// The expression statements of kernel function `func` (by address) whose store to a shared
/// local must be broadcast with a barrier on each side (see the module documentation).
/// `guarded` tells a statement that only the context's first thread runs (its reads are that
/// thread's own).
/// `gang_copies` are the pointer parameters that reach the gang's copy of a `private`,
/// `firstprivate` or `reduction` variable (memory the block's threads share, like a shared local).
/// Also returns the variables so stored (shared locals, gang-copy pointers).
pub(crate) fn broadcast_stores(func: &Function, homes: &[Home], gang_copies: &HashSet<LocalId>, guarded: &dyn Fn(&Expr) -> bool) -> (HashSet<*const Stmt>, HashSet<LocalId>) {
    let mut w = Walk { homes, gang_copies, guarded, found: HashSet::new(), vars: HashSet::new(), chain: Vec::new() };
    w.list(std::slice::from_ref(&func.body), Threads::default());
    (w.found, w.vars)
}

/// Single code that has a barrier of its own: gang-redundant code, or worker-single code in a
/// worker loop (vector-single code inside a vector loop has none, nor needs one).
fn has_barrier(th: Threads) -> bool {
    !th.vector
}

/// What runs after the statement being walked, innermost last: the rest of an enclosing
/// statement list, or the next iteration of an enclosing loop.
#[derive(Clone, Copy)]
enum Then<'a> {
    Rest(&'a [Stmt]),
    Again(&'a Stmt),
}

struct Walk<'a, 'h> {
    homes: &'h [Home],
    gang_copies: &'h HashSet<LocalId>,
    guarded: &'h dyn Fn(&Expr) -> bool,
    found: HashSet<*const Stmt>,
    vars: HashSet<LocalId>,
    chain: Vec<Then<'a>>,
}

impl<'a> Walk<'a, '_> {
    fn list(&mut self, list: &'a [Stmt], th: Threads) {
        for (i, s) in list.iter().enumerate() {
            if has_barrier(th) {
                if let StmtKind::Expr(e) = &s.kind {
                    let stored = shared_stores(e, self.homes, self.gang_copies);
                    for &l in &stored {
                        if self.flow_after(&list[i + 1..], self.chain.len(), l) == Flow::Read {
                            self.found.insert(s as *const Stmt);
                            self.vars.insert(l);
                        }
                    }
                }
            }
            self.chain.push(Then::Rest(&list[i + 1..]));
            self.stmt(s, th);
            self.chain.pop();
        }
    }

    fn sub(&mut self, x: &'a Stmt, th: Threads) {
        match &x.kind {
            StmtKind::Block(v) => self.list(v, th),
            _ => self.list(std::slice::from_ref(x), th),
        }
    }

    fn stmt(&mut self, s: &'a Stmt, th: Threads) {
        match &s.kind {
            StmtKind::Block(v) => self.list(v, th),
            StmtKind::If(_, t, e) => {
                self.sub(t, th);
                if let Some(e) = e {
                    self.sub(e, th);
                }
            }
            StmtKind::While(_, b) | StmtKind::DoWhile(b, _) => {
                self.chain.push(Then::Again(s));
                self.sub(b, th);
                self.chain.pop();
            }
            StmtKind::For { init, body, .. } => {
                if let Some(i) = init {
                    self.sub(i, th);
                }
                self.chain.push(Then::Again(s));
                self.sub(body, th);
                self.chain.pop();
            }
            StmtKind::Switch { body, .. } => self.sub(body, th),
            StmtKind::Acc { body: Some(b), .. } => self.sub(b, th),
            StmtKind::Partition(p) => {
                let inner = match thread_loop(s) {
                    Some((ThreadLoop::Worker(_), _)) => Threads { worker: true, ..th },
                    Some((ThreadLoop::Vector(_), _)) => Threads { vector: true, ..th },
                    None => th,
                };
                if inner == th {
                    self.sub(&p.body, th);
                } else {
                    // A thread's share: what runs after it is another context's.
                    let outer = std::mem::take(&mut self.chain);
                    self.sub(&p.body, inner);
                    self.chain = outer;
                }
            }
            _ => {}
        }
    }

    /// What comes first after a store followed by `rest`, inside the first `depth` entries of
    /// the chain: a read of `l` by the context's threads, a partitioned loop, or the end of the
    /// kernel (`Open`).
    fn flow_after(&self, rest: &[Stmt], depth: usize, l: LocalId) -> Flow {
        let mut t = Tracked { mem: l, regs: Vec::new() };
        self.flow_from(rest, depth, &mut t)
    }

    fn flow_from(&self, rest: &[Stmt], depth: usize, t: &mut Tracked) -> Flow {
        let f = self.read_before_region(rest, t);
        if f != Flow::Open || depth == 0 {
            return f;
        }
        match self.chain[depth - 1] {
            Then::Rest(r) => self.flow_from(r, depth - 1, t),
            Then::Again(lp) => {
                // The next iteration (its condition and step, its body from the start), or
                // whatever follows the loop.
                let again = self.loop_again(lp, t);
                let out = self.flow_from(&[], depth - 1, t);
                if again == Flow::Read { Flow::Read } else { out }
            }
        }
    }

    fn loop_again(&self, lp: &Stmt, t: &mut Tracked) -> Flow {
        match &lp.kind {
            StmtKind::For { cond, step, body, .. } => {
                if cond.iter().chain(step.iter()).any(|c| t.read_by(c)) {
                    return Flow::Read;
                }
                self.read_in(body, t)
            }
            StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
                if t.read_by(c) {
                    return Flow::Read;
                }
                self.read_in(b, t)
            }
            _ => Flow::Read,
        }
    }

    fn read_before_region(&self, list: &[Stmt], t: &mut Tracked) -> Flow {
        for s in list {
            match self.read_in(s, t) {
                Flow::Open => {}
                f => return f,
            }
        }
        Flow::Open
    }

    /// The body of a loop inside the walk, twice: a register that a later statement of the
    /// body takes from the variable is read by an earlier one in the next iteration.
    fn loop_body(&self, body: &Stmt, t: &mut Tracked) -> Flow {
        match self.one(body, t) {
            Flow::Read => Flow::Read,
            _ => self.one(body, t),
        }
    }

    fn one(&self, x: &Stmt, t: &mut Tracked) -> Flow {
        match &x.kind {
            StmtKind::Block(v) => self.read_before_region(v, t),
            _ => self.read_in(x, t),
        }
    }

    fn read_in(&self, s: &Stmt, t: &mut Tracked) -> Flow {
        match &s.kind {
            StmtKind::Empty | StmtKind::Break | StmtKind::Continue | StmtKind::Label(_) | StmtKind::AccLaunch(_) | StmtKind::Acc { body: None, .. } => Flow::Open,
            // A statement that only the first thread runs reads for that thread alone.
            StmtKind::Expr(e) if (self.guarded)(e) => Flow::Open,
            StmtKind::Expr(e) => {
                // Every thread runs it: what it reads goes into the registers it assigns, which
                // are then followed too; it has no other effect.
                if t.read_by(e) {
                    walk_expr(e, &mut |x| {
                        if let ExprKind::Assign { place: Place::Local(r), .. } | ExprKind::CompoundAssign { place: Place::Local(r), .. } | ExprKind::IncDec { place: Place::Local(r), .. } = &x.kind {
                            if !t.regs.contains(r) {
                                t.regs.push(*r);
                            }
                        }
                    });
                }
                Flow::Open
            }
            StmtKind::ZeroFill { addr: e, .. } | StmtKind::Return(Some(e)) => {
                if t.read_by(e) {
                    Flow::Read
                } else {
                    Flow::Open
                }
            }
            StmtKind::Block(v) => self.read_before_region(v, t),
            StmtKind::Partition(p) => match thread_loop(s) {
                // Its barrier orders the variable itself; a register taken from it before the
                // barrier carries the value read then.
                Some(_) => {
                    let mut in_region = false;
                    walk_stmt(&p.body, &mut |x| in_region |= matches!(x.kind, ExprKind::Local(r) if t.regs.contains(&r)));
                    if in_region { Flow::Read } else { Flow::Region }
                }
                None => self.one(&p.body, t),
            },
            StmtKind::Acc { body: Some(b), .. } => self.one(b, t),
            StmtKind::If(c, a, b) => {
                if t.read_by(c) {
                    return Flow::Read;
                }
                let a = self.one(a, t);
                let b = b.as_deref().map_or(Flow::Open, |b| self.one(b, t));
                match (a, b) {
                    (Flow::Read, _) | (_, Flow::Read) => Flow::Read,
                    (Flow::Region, Flow::Region) => Flow::Region,
                    _ => Flow::Open,
                }
            }
            StmtKind::For { init, cond, step, body } => {
                if let Some(i) = init {
                    match self.one(i, t) {
                        Flow::Open => {}
                        f => return f,
                    }
                }
                if cond.as_ref().is_some_and(|c| t.read_by(c)) {
                    return Flow::Read;
                }
                // The body may run no iteration: a partitioned loop in it orders nothing after it.
                if self.loop_body(body, t) == Flow::Read || step.as_ref().is_some_and(|c| t.read_by(c)) || cond.as_ref().is_some_and(|c| t.read_by(c)) {
                    return Flow::Read;
                }
                Flow::Open
            }
            StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
                if t.read_by(c) || self.loop_body(b, t) == Flow::Read || t.read_by(c) {
                    Flow::Read
                } else {
                    Flow::Open
                }
            }
            // Not followed (jumps, `switch` cases, allocations): taken as a read.
            _ => Flow::Read,
        }
    }
}

/// The variable stored (a shared local, or a gang copy's pointer) and the thread registers
/// that code after the store assigned from it.
struct Tracked {
    mem: LocalId,
    regs: Vec<LocalId>,
}

impl Tracked {
    /// Whether `e` reads the variable or one of the registers taken from it.
    fn read_by(&self, e: &Expr) -> bool {
        let mut found = false;
        walk_expr(e, &mut |x| found |= matches!(x.kind, ExprKind::Local(y) | ExprKind::LocalAddr(y) if y == self.mem || self.regs.contains(&y)));
        found
    }
}

/// The shared locals (home other than the thread's) that expression `e` stores to: by name,
/// through an address computed from the local's own (`*&j = …`, `t[i] = …`), or in a call given
/// such an address.
fn shared_stores(e: &Expr, homes: &[Home], gang_copies: &HashSet<LocalId>) -> Vec<LocalId> {
    let mut v = Vec::new();
    walk_expr(e, &mut |x| {
        let l = match &x.kind {
            ExprKind::Assign { place, .. } | ExprKind::CompoundAssign { place, .. } | ExprKind::IncDec { place, .. } => match place {
                Place::Local(l) => Some(*l),
                Place::Mem(a) => match gang_copy_base(a, gang_copies) {
                    // The gang's copy: its pointer is what a read mentions.
                    Some(p) => {
                        if !v.contains(&p) {
                            v.push(p);
                        }
                        None
                    }
                    None => address_base(a),
                },
            },
            // A call may store through the address of a local it is given (`get(&n)`).
            ExprKind::Call { args, .. } => {
                for l in args.iter().filter_map(address_base) {
                    if homes.get(l.0 as usize).is_some_and(|h| *h != Home::Thread) && !v.contains(&l) {
                        v.push(l);
                    }
                }
                None
            }
            _ => None,
        };
        if let Some(l) = l {
            if homes.get(l.0 as usize).is_some_and(|h| *h != Home::Thread) && !v.contains(&l) {
                v.push(l);
            }
        }
    });
    v
}

/// The local whose address an address expression starts from (`&t`, `&t + i`, casts of those).
pub(crate) fn address_base(a: &Expr) -> Option<LocalId> {
    match &a.strip_casts().kind {
        ExprKind::LocalAddr(l) => Some(*l),
        ExprKind::PtrAdd { ptr, .. } => address_base(ptr),
        _ => None,
    }
}

/// The gang-copy pointer an address is computed from (`*avg`, `avg[i]`).
fn gang_copy_base(a: &Expr, gang_copies: &HashSet<LocalId>) -> Option<LocalId> {
    match &a.strip_casts().kind {
        ExprKind::Local(p) if gang_copies.contains(p) => Some(*p),
        ExprKind::PtrAdd { ptr, .. } => gang_copy_base(ptr, gang_copies),
        _ => None,
    }
}

/// What comes first after a store, in program order.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Flow {
    /// A read of the local by the context's threads (or a statement the walk does not follow).
    Read,
    /// A partitioned loop, whose barrier orders the store before what follows.
    Region,
    /// Neither, to the end of the statements walked (at the end of the chain: of the kernel).
    Open,
}

