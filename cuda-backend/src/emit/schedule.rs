//! The IR shapes the emitter recognises (schedule variables, thread loops, share loops) and where
//! each local of a kernel lives ([`Home`]). Part of [`crate::emit`], whose module documentation
//! states the model.

use super::*;

/// Whether local `l` of `func` is the schedule variable `var` (`kernel::schedule` records it in
/// the local's role).
pub(crate) fn is_schedule_var(func: &Function, l: LocalId, var: ScheduleVar) -> bool {
    func.locals.get(l.0 as usize).is_some_and(|x| x.role == LocalRole::Schedule(var))
}

/// The assignment a `for` statement's init is (`for (x = …; …)`, possibly as a block of one).
pub(super) fn for_init_assign(s: &Stmt) -> Option<(LocalId, &Expr)> {
    let StmtKind::For { init: Some(init), .. } = &s.kind else { return None };
    let e = match &init.kind {
        StmtKind::Expr(e) => e,
        StmtKind::Block(v) if v.len() == 1 => match &v[0].kind {
            StmtKind::Expr(e) => e,
            _ => return None,
        },
        _ => return None,
    };
    match &e.kind {
        ExprKind::Assign { place: Place::Local(l), value } => Some((*l, value)),
        _ => None,
    }
}

/// The local a `for` statement's init assigns (`for (x = …; …)`).
pub(crate) fn for_init_local(s: &Stmt) -> Option<LocalId> {
    for_init_assign(s).map(|(l, _)| l)
}

/// A worker or vector partition of a kernel ([`accsim_core::ir::acc::Partition`], made by
/// `kernel::schedule`) and the statement each of its threads runs.
pub(crate) fn thread_loop(s: &Stmt) -> Option<(ThreadLoop, &Stmt)> {
    let StmtKind::Partition(p) = &s.kind else { return None };
    match p.level {
        Level::Worker => Some((ThreadLoop::Worker(p.var), &p.body)),
        Level::Vector => Some((ThreadLoop::Vector(p.var), &p.body)),
        Level::Gang => None,
    }
}

/// The loop over a thread's chunks of a partitioned loop (`for (__chunk_start = …)`).
/// Is every use of pointer local `l` a load through it (never a store, never the address itself)?
pub(super) fn only_loaded(func: &Function, l: LocalId) -> bool {
    let (mut uses, mut loads) = (0usize, 0usize);
    walk_stmt(&func.body, &mut |e| match &e.kind {
        ExprKind::Local(x) if *x == l => uses += 1,
        ExprKind::Assign { place: Place::Local(x), .. } | ExprKind::CompoundAssign { place: Place::Local(x), .. } | ExprKind::IncDec { place: Place::Local(x), .. } if *x == l => uses += 1,
        ExprKind::Load(a) if matches!(a.kind, ExprKind::Local(x) if x == l) => loads += 1,
        _ => {}
    });
    uses == loads
}

pub(crate) fn is_share_loop(func: &Function, s: &Stmt) -> bool {
    if for_init_local(s).is_some_and(|l| is_schedule_var(func, l, ScheduleVar::ChunkStart)) {
        return true;
    }
    // Without a `static` chunk the share is the grid-stride loop `for (k = thread; …)`.
    for_init_assign(s).is_some_and(|(_, value)| matches!(&value.strip_casts().kind, ExprKind::Local(t) if is_schedule_var(func, *t, ScheduleVar::Thread)))
}

/// Where each local of a kernel lives: a local written inside a partitioned loop and also used
/// in a less partitioned context is shared by the threads of that context.
/// Where each local of kernel function `func` lives: in a `__shared__` slot when a thread loop
/// writes it and a less partitioned context uses it, and values flow between threads through it
/// ([`crate::liveness`]); else in each thread's registers.
pub(super) fn homes(p: &Program, func: &Function) -> Vec<Home> {
    // For each local: the least partitioned context that uses it, and the contexts that write it.
    let mut first: BTreeMap<LocalId, Threads> = BTreeMap::new();
    let mut written: BTreeMap<LocalId, Vec<Threads>> = BTreeMap::new();
    scan(&func.body, Threads::default(), &mut first, &mut written);
    let mut homes = vec![Home::Thread; func.locals.len()];
    for (l, ws) in written {
        // The execution model's own variables (launch parameters, schedule variables) and the
        // parameters stay in each thread's registers.
        if func.locals.get(l.0 as usize).is_none_or(|x| x.role.is_execution_model()) || func.params.contains(&l) {
            continue;
        }
        let Some(f) = first.get(&l) else { continue };
        if ws.iter().any(|w| w.depth() > f.depth()) && crate::liveness::flows_between_threads(p, func, l) {
            homes[l.0 as usize] = if f.worker { Home::Worker } else { Home::Block };
        }
    }
    // A local whose address single code passes to a call: when the call stores, one thread makes
    // it (it is guarded like a store), and the other threads read the local after it
    // ([`crate::broadcast`]); so the local lives where they all see it.
    walk_single_calls(&func.body, Threads::default(), &mut |l, th| {
        let Some(home) = homes.get_mut(l.0 as usize) else { return };
        let role = func.locals.get(l.0 as usize).map(|x| x.role);
        if *home == Home::Thread && !th.vector && role.is_some_and(|r| !r.is_execution_model()) && !func.params.contains(&l) {
            *home = if th.worker { Home::Worker } else { Home::Block };
        }
    });
    homes
}

/// Calls `f` with each local whose address (`&n`, `&a[i]`) is an argument of a call outside a
/// vector loop, and the context of the call.
pub(super) fn walk_single_calls(s: &Stmt, th: Threads, f: &mut dyn FnMut(LocalId, Threads)) {
    let note = |e: &Expr, th: Threads, f: &mut dyn FnMut(LocalId, Threads)| {
        walk_expr(e, &mut |x| {
            if let ExprKind::Call { args, .. } = &x.kind {
                for a in args {
                    if let Some(l) = crate::broadcast::address_base(a) {
                        f(l, th);
                    }
                }
            }
        })
    };
    match &s.kind {
        StmtKind::Partition(p) => {
            let inner = match thread_loop(s) {
                Some((ThreadLoop::Worker(_), _)) => Threads { worker: true, ..th },
                Some((ThreadLoop::Vector(_), _)) => Threads { vector: true, ..th },
                None => th,
            };
            walk_single_calls(&p.body, inner, f);
        }
        StmtKind::For { init, cond, step, body } => {
            if let Some(i) = init {
                walk_single_calls(i, th, f);
            }
            for c in cond.iter().chain(step.iter()) {
                note(c, th, f);
            }
            walk_single_calls(body, th, f);
        }
        StmtKind::Expr(e) | StmtKind::ZeroFill { addr: e, .. } | StmtKind::Return(Some(e)) => note(e, th, f),
        StmtKind::Block(v) => v.iter().for_each(|x| walk_single_calls(x, th, f)),
        StmtKind::If(c, t, e) => {
            note(c, th, f);
            walk_single_calls(t, th, f);
            if let Some(e) = e {
                walk_single_calls(e, th, f);
            }
        }
        StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
            note(c, th, f);
            walk_single_calls(b, th, f);
        }
        StmtKind::Switch { cond, body, .. } => {
            note(cond, th, f);
            walk_single_calls(body, th, f);
        }
        StmtKind::Acc { body: Some(b), .. } => walk_single_calls(b, th, f),
        _ => {}
    }
}

pub(super) fn scan(s: &Stmt, th: Threads, first: &mut BTreeMap<LocalId, Threads>, written: &mut BTreeMap<LocalId, Vec<Threads>>) {
    let note_expr = |e: &Expr, first: &mut BTreeMap<LocalId, Threads>, written: &mut BTreeMap<LocalId, Vec<Threads>>| {
        walk_expr(e, &mut |x| {
            let mut use_local = |l: LocalId, w: bool| {
                let f = first.entry(l).or_insert(th);
                if th.depth() < f.depth() {
                    *f = th;
                }
                if w {
                    written.entry(l).or_default().push(th);
                }
            };
            match &x.kind {
                ExprKind::Local(l) => use_local(*l, false),
                // An address escapes: count it as a write.
                ExprKind::LocalAddr(l) => use_local(*l, true),
                ExprKind::Assign { place: Place::Local(l), .. } | ExprKind::CompoundAssign { place: Place::Local(l), .. } | ExprKind::IncDec { place: Place::Local(l), .. } => use_local(*l, true),
                ExprKind::ComplexBinary { dst, .. } | ExprKind::ComplexNeg { dst, .. } | ExprKind::ComplexMake { dst, .. } => use_local(*dst, true),
                ExprKind::Call { result: Some(r), .. } => use_local(*r, true),
                _ => {}
            }
        });
    };
    match &s.kind {
        StmtKind::Partition(_) => {
            if let Some((tl, body)) = thread_loop(s) {
                let inner = match tl {
                    ThreadLoop::Worker(_) => Threads { worker: true, ..th },
                    ThreadLoop::Vector(_) => Threads { vector: true, ..th },
                };
                scan(body, inner, first, written);
            }
        }
        StmtKind::For { cond, step, body, init } => {
            if let Some(i) = init {
                scan(i, th, first, written);
            }
            if let Some(c) = cond {
                note_expr(c, first, written);
            }
            if let Some(c) = step {
                note_expr(c, first, written);
            }
            scan(body, th, first, written);
        }
        StmtKind::Expr(e) | StmtKind::ZeroFill { addr: e, .. } | StmtKind::Return(Some(e)) => note_expr(e, first, written),
        StmtKind::Block(v) => v.iter().for_each(|x| scan(x, th, first, written)),
        StmtKind::If(c, t, e) => {
            note_expr(c, first, written);
            scan(t, th, first, written);
            if let Some(e) = e {
                scan(e, th, first, written);
            }
        }
        StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
            note_expr(c, first, written);
            scan(b, th, first, written);
        }
        StmtKind::Switch { cond, body, .. } => {
            note_expr(cond, first, written);
            scan(body, th, first, written);
        }
        StmtKind::Acc { body: Some(b), .. } => scan(b, th, first, written),
        _ => {}
    }
}
