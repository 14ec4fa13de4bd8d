//! The locals an OpenACC statement of host code can read or write (issue 15's compile time): the
//! engine runs the statement's interpreter instructions ([`crate::translate::Translator`]'s
//! `run_site`, `Machine::native_run_site`) on a register frame that must hold the value of every
//! local those instructions read, and whose values must come back into native code's variables
//! for every local they write. Passing every local of the function around every statement made
//! about half of a `main`'s code (each store, reload and conversion, and every local live across
//! the call); passing only these keeps the rest in registers.
//!
//! The interpreter compiles a statement from its IR alone (`exec/compile/offload.rs`'s
//! `record_acc_site`): the directive's clauses — every expression of `if`, `async`, `wait`,
//! `num_gangs`…, every variable of a data, `reduction`, `private`, `update` or `use_device`
//! clause (its root, address, base, section bounds and declared extent, §2.6, §2.7.1) — a
//! `wait` directive's queue list (§2.14.1), a launch's captures, launch-size expressions and
//! gang-loop iteration count (§2.5.1, §2.5.6), and, for a statement without an exit part (an
//! `atomic` statement run on the host, §2.12), its body. A register local lives in the
//! frame's slot for its id and nothing but an instruction naming that slot reads or writes it,
//! so the set of every local those parts name is exact for register locals, and conservative
//! (it also holds locals only read). A memory local's word is its address: the statement
//! reaches its memory through the name, or through a pointer the program made (then the local's
//! memory is current: only promoted locals are not, and [`crate::promote`]'s locals never have
//! their address leave a clause, so `run_site` stores and reloads all of them anyway).
//!
//! Sizes of variable-length arrays (C11 6.7.6.2) are read from hidden locals named only by types
//! (`Type::Vla`): every VLA count local of the function's locals' types and of the statement's
//! expressions' types is in the set.

use accsim_core::exec::AccSiteKey;
use accsim_core::ir::acc::{AccClauseKind, AccKind, AccVar, CaptureSource, DeclaredExtent, VarRoot};
use accsim_core::ir::visit::walk;
use accsim_core::ir::{Expr, ExprKind, Function, LocalId, Place, Program, Stmt, StmtKind, Type, TypeId};

/// By local of `f`: whether OpenACC statement `key` (whose body is `body`; `whole`: the
/// statement has no exit part, so the interpreter runs its body too) may read or write it.
pub fn site_locals(p: &Program, f: &Function, key: AccSiteKey, body: Option<&Stmt>, whole: bool) -> Vec<bool> {
    let mut named = Named { p, out: vec![false; f.locals.len()] };
    for l in &f.locals {
        named.ty(l.ty);
    }
    match key {
        AccSiteKey::Directive(d) => {
            if let Some(dir) = p.acc.get(d as usize).and_then(Option::as_ref) {
                match &dir.kind {
                    AccKind::Wait(Some(queues)) => queues.iter().for_each(|e| named.expr(e)),
                    AccKind::Cache(vars) => vars.iter().for_each(|v| named.var(v)),
                    _ => {}
                }
                for c in &dir.clauses {
                    named.clause(&c.kind);
                }
            }
            if whole {
                if let Some(b) = body {
                    named.stmt(b);
                }
            }
        }
        AccSiteKey::Launch(k) => {
            if let Some(kernel) = p.kernels.get(k as usize) {
                for c in &kernel.captures {
                    match c.source {
                        CaptureSource::Local(l) | CaptureSource::Deref(l) => named.local(l),
                        CaptureSource::Global(_) => {}
                    }
                    named.ty(c.ty);
                    if let Some(m) = &c.member {
                        named.ty(m.ty);
                    }
                    if let Some(v) = &c.subarray {
                        named.var(v);
                    }
                }
                for e in [&kernel.num_gangs, &kernel.num_workers, &kernel.vector_length].into_iter().flatten() {
                    named.expr(e);
                }
                if let Some(g) = &kernel.gang_loop {
                    named.expr(&g.iterations);
                }
            }
        }
    }
    named.out
}

/// By local of `f`: whether statement `s` (run by native code apart from the rest of its
/// function, [`crate::outline`]) may read or write it: every local its expressions and
/// statements name, and the VLA count locals of the function's locals' types and of its
/// expressions' types, as for an OpenACC statement's body above.
pub fn stmt_locals(p: &Program, f: &Function, s: &Stmt) -> Vec<bool> {
    let mut named = Named { p, out: vec![false; f.locals.len()] };
    for l in &f.locals {
        named.ty(l.ty);
    }
    named.stmt(s);
    named.out
}

/// By local of `f`: whether expression `e` (and the statements inside it) names it, itself or
/// through its types (a VLA's count).
pub fn expr_named_locals(p: &Program, f: &Function, e: &Expr) -> Vec<bool> {
    let mut named = Named { p, out: vec![false; f.locals.len()] };
    named.expr(e);
    named.out
}

/// By local of `f`: whether statement `s` names it, itself or through its types.
pub fn stmt_named_locals(p: &Program, f: &Function, s: &Stmt) -> Vec<bool> {
    let mut named = Named { p, out: vec![false; f.locals.len()] };
    named.stmt(s);
    named.out
}

/// By local of `f`: whether a type of the function names it (a VLA's count): its locals'
/// types, its expressions' types and the types they name.
pub fn vla_count_locals(p: &Program, f: &Function) -> Vec<bool> {
    let mut named = Named { p, out: vec![false; f.locals.len()] };
    for l in &f.locals {
        named.ty(l.ty);
    }
    let mut types = Vec::new();
    walk(&f.body, true, &mut |_| {}, &mut |x| {
        types.push(x.ty);
        match &x.kind {
            ExprKind::SizeOfDynamic(t) | ExprKind::PtrAdd { elem: t, .. } | ExprKind::PtrDiff { elem: t, .. } => types.push(*t),
            _ => {}
        }
    });
    for t in types {
        named.ty(t);
    }
    named.out
}

/// By local of `f`: how many expressions and statements of `s` name it (not counting types).
pub fn local_occurrences(f: &Function, s: &Stmt) -> Vec<u32> {
    let out = std::cell::RefCell::new(vec![0u32; f.locals.len()]);
    let count = |l: LocalId| {
        if let Some(o) = out.borrow_mut().get_mut(l.0 as usize) {
            *o = o.saturating_add(1);
        }
    };
    walk(
        s,
        true,
        &mut |st| match &st.kind {
            StmtKind::VlaAlloc(l) => count(*l),
            StmtKind::Partition(part) => count(part.var),
            _ => {}
        },
        &mut |x| {
            if let Some(l) = named_local(x) {
                count(l);
            }
        },
    );
    out.into_inner()
}

/// The local expression `x` assigns: by an assignment or an increment, as a call's result or a
/// complex operation's destination.
pub(crate) fn assigned_local(x: &Expr) -> Option<LocalId> {
    match &x.kind {
        ExprKind::Call { result: Some(l), .. }
        | ExprKind::ComplexBinary { dst: l, .. }
        | ExprKind::ComplexNeg { dst: l, .. }
        | ExprKind::ComplexMake { dst: l, .. }
        | ExprKind::Assign { place: Place::Local(l), .. }
        | ExprKind::CompoundAssign { place: Place::Local(l), .. }
        | ExprKind::IncDec { place: Place::Local(l), .. } => Some(*l),
        _ => None,
    }
}

/// The local expression `x` names: one it reads, takes the address of or assigns.
fn named_local(x: &Expr) -> Option<LocalId> {
    match &x.kind {
        ExprKind::Local(l) | ExprKind::LocalAddr(l) => Some(*l),
        _ => assigned_local(x),
    }
}

/// By local of `f`: whether statement `s` may assign it (the locals an assignment, an
/// increment, a call's result or a complex operation's destination names; a memory local's
/// variable holds its address, which nothing assigns; a VLA's slot, which its allocation does).
pub fn stmt_assigned_locals(f: &Function, s: &Stmt) -> Vec<bool> {
    let out = std::cell::RefCell::new(vec![false; f.locals.len()]);
    let mark = |l: LocalId| {
        if let Some(o) = out.borrow_mut().get_mut(l.0 as usize) {
            *o = true;
        }
    };
    walk(
        s,
        true,
        &mut |st| {
            if let StmtKind::VlaAlloc(l) = st.kind {
                mark(l);
            }
        },
        &mut |x| {
            if let Some(l) = assigned_local(x) {
                mark(l);
            }
        },
    );
    out.into_inner()
}

/// The locals named so far, by id.
struct Named<'a> {
    p: &'a Program,
    out: Vec<bool>,
}

impl Named<'_> {
    fn local(&mut self, l: LocalId) {
        if let Some(x) = self.out.get_mut(l.0 as usize) {
            *x = true;
        }
    }

    /// The VLA count locals a type's size or element stride reads (pointers to, and arrays of,
    /// variable-length arrays).
    fn ty(&mut self, mut t: TypeId) {
        // A type's chain of pointer and array levels is finite (types are interned bottom-up);
        // the bound only guards against a malformed table.
        for _ in 0..64 {
            match self.p.types.get(t) {
                Type::Pointer(e) | Type::Array(e, _) => t = *e,
                Type::Vla(e, l) => {
                    self.local(*l);
                    t = *e;
                }
                _ => return,
            }
        }
    }

    fn clause(&mut self, c: &AccClauseKind) {
        match c {
            AccClauseKind::If(e) | AccClauseKind::NumGangs(e) | AccClauseKind::NumWorkers(e) | AccClauseKind::VectorLength(e) => self.expr(e),
            AccClauseKind::Async(e) | AccClauseKind::Worker(e) | AccClauseKind::Vector(e) => e.iter().for_each(|e| self.expr(e)),
            AccClauseKind::Wait(list) => list.iter().flatten().for_each(|e| self.expr(e)),
            AccClauseKind::Gang { num, static_ } => {
                num.iter().for_each(|e| self.expr(e));
                static_.iter().flatten().for_each(|e| self.expr(e));
            }
            AccClauseKind::Tile(sizes) => sizes.iter().flatten().for_each(|e| self.expr(e)),
            AccClauseKind::Reduction { vars, .. }
            | AccClauseKind::Data(_, vars)
            | AccClauseKind::Private(vars)
            | AccClauseKind::FirstPrivate(vars)
            | AccClauseKind::UseDevice(vars)
            | AccClauseKind::Host(vars)
            | AccClauseKind::Device(vars) => vars.iter().for_each(|v| self.var(v)),
            AccClauseKind::DefaultNone
            | AccClauseKind::Collapse(_)
            | AccClauseKind::Seq
            | AccClauseKind::Auto
            | AccClauseKind::Independent
            | AccClauseKind::Bind(_)
            | AccClauseKind::NoHost => {}
        }
    }

    fn var(&mut self, v: &AccVar) {
        if let VarRoot::Local(l) = v.root {
            self.local(l);
        }
        self.ty(v.var_ty);
        for e in [&v.addr, &v.base].into_iter().flatten() {
            self.expr(e);
        }
        for s in &v.sections {
            for e in [&s.lower, &s.length].into_iter().flatten() {
                self.expr(e);
            }
        }
        if let Some(DeclaredExtent::Variable { count, .. }) = v.declared_extent {
            self.local(count);
        }
    }

    /// Every local an expression (and the statements inside it) names.
    fn expr(&mut self, e: &Expr) {
        let mut stmts: Vec<&Stmt> = Vec::new();
        let mut exprs: Vec<&Expr> = Vec::new();
        accsim_core::ir::visit::walk_expr(e, true, &mut |s| stmts.push(s), &mut |x| exprs.push(x));
        self.named_in(&stmts, &exprs);
    }

    /// Every local a statement names.
    fn stmt(&mut self, s: &Stmt) {
        let mut stmts: Vec<&Stmt> = Vec::new();
        let mut exprs: Vec<&Expr> = Vec::new();
        walk(s, true, &mut |s| stmts.push(s), &mut |x| exprs.push(x));
        self.named_in(&stmts, &exprs);
    }

    fn named_in(&mut self, stmts: &[&Stmt], exprs: &[&Expr]) {
        for s in stmts {
            match &s.kind {
                StmtKind::VlaAlloc(l) => self.local(*l),
                StmtKind::Partition(part) => self.local(part.var),
                // A nested directive or launch in the body (an `atomic` body holds none today):
                // what the interpreter runs for it names its own clauses' locals.
                StmtKind::Acc { directive, .. } => {
                    if let Some(dir) = self.p.acc.get(directive.0 as usize).and_then(Option::as_ref) {
                        for c in &dir.clauses {
                            self.clause(&c.kind);
                        }
                    }
                }
                _ => {}
            }
        }
        for x in exprs {
            self.ty(x.ty);
            if let Some(l) = named_local(x) {
                self.local(l);
            }
            match &x.kind {
                ExprKind::SizeOfDynamic(t) => self.ty(*t),
                ExprKind::PtrAdd { elem, .. } | ExprKind::PtrDiff { elem, .. } => self.ty(*elem),
                _ => {}
            }
        }
    }
}
