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
//! A PGI 1.3 `for seq` loop whose counter lives in memory, `for (j …) for (i = 0; i < j; i++)`
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
//! after that loop. A statement that only the first thread runs (guarded) reads for itself.
//!
//! Worker-single code inside a vector loop has no barrier among the workers of a lane; it is
//! left to `first_worker_only` in [`crate::emit`].

use std::collections::HashSet;

use accsim_core::ir::*;

use crate::emit::{thread_loop, walk_expr, Home, ThreadLoop, Threads};

/// The expression statements of kernel function `func` (by address) whose store to a shared
/// local must be broadcast with a barrier on each side (see the module documentation).
/// `guarded` tells a statement that only the context's first thread runs (its reads are that
/// thread's own).
pub(crate) fn broadcast_stores(func: &Function, homes: &[Home], guarded: &dyn Fn(&Expr) -> bool) -> HashSet<*const Stmt> {
    let mut w = Walk { homes, guarded, found: HashSet::new(), chain: Vec::new() };
    w.list(std::slice::from_ref(&func.body), Threads::default());
    w.found
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
    guarded: &'h dyn Fn(&Expr) -> bool,
    found: HashSet<*const Stmt>,
    chain: Vec<Then<'a>>,
}

impl<'a> Walk<'a, '_> {
    fn list(&mut self, list: &'a [Stmt], th: Threads) {
        for (i, s) in list.iter().enumerate() {
            if has_barrier(th) {
                if let StmtKind::Expr(e) = &s.kind {
                    let stored = shared_stores(e, self.homes);
                    if stored.iter().any(|&l| self.flow_after(&list[i + 1..], self.chain.len(), l) == Flow::Read) {
                        self.found.insert(s as *const Stmt);
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
        let f = self.read_before_region(rest, l);
        if f != Flow::Open || depth == 0 {
            return f;
        }
        match self.chain[depth - 1] {
            Then::Rest(r) => self.flow_after(r, depth - 1, l),
            Then::Again(lp) => {
                // The next iteration (its condition and step, its body from the start), or
                // whatever follows the loop.
                let again = self.loop_again(lp, l);
                let out = self.flow_after(&[], depth - 1, l);
                if again == Flow::Read { Flow::Read } else { out }
            }
        }
    }

    fn loop_again(&self, lp: &Stmt, l: LocalId) -> Flow {
        match &lp.kind {
            StmtKind::For { cond, step, body, .. } => {
                if cond.iter().chain(step.iter()).any(|c| mentions(c, l)) {
                    return Flow::Read;
                }
                self.read_in(body, l)
            }
            StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
                if mentions(c, l) {
                    return Flow::Read;
                }
                self.read_in(b, l)
            }
            _ => Flow::Read,
        }
    }

    fn read_before_region(&self, list: &[Stmt], l: LocalId) -> Flow {
        for s in list {
            match self.read_in(s, l) {
                Flow::Open => {}
                f => return f,
            }
        }
        Flow::Open
    }

    fn read_in(&self, s: &Stmt, l: LocalId) -> Flow {
        let one = |x: &Stmt| match &x.kind {
            StmtKind::Block(v) => self.read_before_region(v, l),
            _ => self.read_in(x, l),
        };
        match &s.kind {
            StmtKind::Empty | StmtKind::Break | StmtKind::Continue | StmtKind::Label(_) | StmtKind::AccLaunch(_) | StmtKind::Acc { body: None, .. } => Flow::Open,
            // A statement that only the first thread runs reads for that thread alone.
            StmtKind::Expr(e) if (self.guarded)(e) => Flow::Open,
            StmtKind::Expr(e) | StmtKind::ZeroFill { addr: e, .. } | StmtKind::Return(Some(e)) => {
                if mentions(e, l) {
                    Flow::Read
                } else {
                    Flow::Open
                }
            }
            StmtKind::Block(v) => self.read_before_region(v, l),
            StmtKind::Partition(p) => match thread_loop(s) {
                Some(_) => Flow::Region,
                None => one(&p.body),
            },
            StmtKind::Acc { body: Some(b), .. } => one(b),
            StmtKind::If(c, t, e) => {
                if mentions(c, l) {
                    return Flow::Read;
                }
                let a = one(t);
                let b = e.as_deref().map_or(Flow::Open, one);
                match (a, b) {
                    (Flow::Read, _) | (_, Flow::Read) => Flow::Read,
                    (Flow::Region, Flow::Region) => Flow::Region,
                    _ => Flow::Open,
                }
            }
            StmtKind::For { init, cond, step, body } => {
                if let Some(i) = init {
                    match one(i) {
                        Flow::Open => {}
                        f => return f,
                    }
                }
                if cond.as_ref().is_some_and(|c| mentions(c, l)) {
                    return Flow::Read;
                }
                // The body may run no iteration: a partitioned loop in it orders nothing after it.
                if one(body) == Flow::Read || step.as_ref().is_some_and(|c| mentions(c, l)) {
                    return Flow::Read;
                }
                Flow::Open
            }
            StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
                if mentions(c, l) || one(b) == Flow::Read {
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

/// The shared locals (home other than the thread's) that expression `e` stores to: by name,
/// through an address computed from the local's own (`*&j = …`, `t[i] = …`), or in a call given
/// such an address.
fn shared_stores(e: &Expr, homes: &[Home]) -> Vec<LocalId> {
    let mut v = Vec::new();
    walk_expr(e, &mut |x| {
        let l = match &x.kind {
            ExprKind::Assign { place, .. } | ExprKind::CompoundAssign { place, .. } | ExprKind::IncDec { place, .. } => match place {
                Place::Local(l) => Some(*l),
                Place::Mem(a) => address_base(a),
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

fn mentions(e: &Expr, l: LocalId) -> bool {
    let mut found = false;
    walk_expr(e, &mut |x| found |= matches!(x.kind, ExprKind::Local(y) | ExprKind::LocalAddr(y) if y == l));
    found
}
