//! The dependence test that decides whether an `auto` loop of a kernels construct may run in
//! parallel (OpenACC 2.0 §2.7.6, §2.5.2).
//!
//! In a kernels construct a loop with no `gang`, `worker`, `vector` or `seq` clause is `auto`, and
//! so is a plain `for` loop (accsim, like nvc, treats every canonical loop of a kernels region as
//! an auto loop). "The implementation cannot apply any parallelism unless the loop has the
//! independent clause … or the implementation can analyze the loop and determine that the loop
//! iterations are data independent" (§2.7.6). This module is that analysis. It is *sound and
//! conservative*: it answers [`Verdict::Parallel`] only when no two different iterations can touch
//! the same memory with at least one write; anything it cannot see through is a dependence.
//!
//! The model:
//! - A memory access is a base and a list of subscripts, one per `PtrAdd` level, each an affine
//!   form in the counters of the tested loop (`P`) and of the loops nested in it (`Q`), plus
//!   loop-invariant symbols (scalars the loop never writes) that must cancel between two accesses.
//! - Bases are named objects (captured arrays, globals, locals of the kernel: two different ones
//!   never overlap), the value of a pointer variable the loop does not write (two different
//!   pointers may alias: C has no way to say otherwise here), or unknown (a pointer loaded from
//!   memory or computed in the loop: may alias anything).
//! - Two accesses of one base with the same shape are compared subscript by subscript (accesses of
//!   arrays are assumed in bounds, as C requires): a subscript pair can have no solution (GCD test),
//!   force a counter of `P` to the same value in both iterations (`a[i]` vs `a[i]`), or force a
//!   constant distance (`a[i]` vs `a[i-1]`: distance 1, a loop-carried dependence).
//! - A scalar written in the loop is a dependence unless it is a counter of the loop or of a nested
//!   loop, is named in the loop's `reduction`/`private` clauses, or is a local of the kernel that
//!   every iteration assigns before it reads it and that nothing after the loop reads (it is then
//!   privatised, as a variable declared in the loop body is).
//! - A call is a dependence unless the callee provably touches only its own locals (math functions
//!   of the C library; program functions without pointer parameters, globals or impure calls).
//! - An early exit (`break` of the loop, `goto` out of it, `return`) makes the loop sequential.
//!
//! Limits: no symbolic range analysis (`a[i*n + j]` with `0 <= j < n` is not recognised as
//! independent in `i`), no `restrict` (the IR does not keep it), no automatic reduction
//! recognition (`sum += a[i]` needs a `reduction` clause). Each limit makes a loop sequential,
//! never wrong.

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::diag::Loc;
use crate::ir::acc::*;
use crate::ir::*;

/// Functions and library calls that touch no memory but their own locals.
#[derive(Debug, Default, Clone)]
pub(crate) struct Purity {
    pub funcs: HashSet<FuncId>,
    pub externs: HashSet<ExternId>,
    pub func_names: Vec<String>,
    pub extern_names: Vec<String>,
}

/// C library functions that only compute from their (non-pointer) arguments.
const PURE_LIBC: &[&str] = &[
    "sqrt", "cbrt", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "exp", "exp2", "expm1",
    "log", "log2", "log10", "log1p", "pow", "fabs", "floor", "ceil", "round", "trunc", "rint", "nearbyint", "fmod", "remainder", "fmin", "fmax", "fdim",
    "hypot", "copysign", "erf", "erfc", "tgamma", "lgamma", "abs", "labs", "llabs", "lround", "llround", "lrint", "fma",
];

impl Purity {
    pub(crate) fn of_program(p: &Program) -> Purity {
        let extern_names: Vec<String> = p.externs.iter().map(|x| x.name.clone()).collect();
        let externs: HashSet<ExternId> = extern_names
            .iter()
            .enumerate()
            .filter(|(_, n)| {
                let base = n.strip_suffix('f').or_else(|| n.strip_suffix('l')).filter(|b| PURE_LIBC.contains(b)).unwrap_or(n);
                PURE_LIBC.contains(&base)
            })
            .map(|(i, _)| ExternId(i as u32))
            .collect();
        // Candidates: no pointer parameters, no globals, no indirect calls; then drop those that
        // call a non-candidate until nothing changes.
        let mut calls: HashMap<FuncId, Vec<FuncId>> = HashMap::new();
        let mut funcs: HashSet<FuncId> = HashSet::new();
        for (i, f) in p.functions.iter().enumerate() {
            let fid = FuncId(i as u32);
            if f.variadic || f.params.iter().any(|l| f.locals.get(l.0 as usize).is_none_or(|l| !p.types.is_arithmetic(l.ty))) {
                continue;
            }
            let ok = std::cell::Cell::new(true);
            let mut callees = Vec::new();
            super::outline::walk_stmt(&f.body, &mut |e| match &e.kind {
                ExprKind::GlobalAddr(_) | ExprKind::ExternAddr(_) | ExprKind::FuncAddr(_) | ExprKind::VaStart(_) | ExprKind::VaArg(_) => ok.set(false),
                ExprKind::Call { callee: Callee::Indirect(_), .. } => ok.set(false),
                ExprKind::Call { callee: Callee::Extern(x), .. } if !externs.contains(x) => ok.set(false),
                ExprKind::Call { callee: Callee::Direct(g), .. } => callees.push(*g),
                _ => {}
            }, &mut |s| {
                if matches!(s.kind, StmtKind::Acc { .. } | StmtKind::AccLaunch(_)) {
                    ok.set(false);
                }
            });
            if ok.get() {
                funcs.insert(fid);
                calls.insert(fid, callees);
            }
        }
        loop {
            let bad: Vec<FuncId> = funcs.iter().filter(|f| calls.get(f).is_some_and(|c| c.iter().any(|g| !funcs.contains(g)))).copied().collect();
            if bad.is_empty() {
                break;
            }
            for f in bad {
                funcs.remove(&f);
            }
        }
        Purity { funcs, externs, func_names: p.functions.iter().map(|f| f.name.clone()).collect(), extern_names }
    }
}

/// A scalar or an object of the kernel.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub(crate) enum Obj {
    /// A memory local of the kernel (`LocalAddr`).
    Mem(LocalId),
    /// A host object captured by address (the kernel parameter `&x` holds its device address).
    Captured(LocalId),
    /// A register local.
    Reg(LocalId),
}

/// The result of the test.
#[derive(Debug, Clone)]
pub(crate) enum Verdict {
    /// No loop-carried dependence. The scalars to privatise (counters of nested loops, locals
    /// assigned before use in every iteration) come with it.
    Parallel { privatize: Vec<(Obj, TypeId)> },
    /// A (possible) loop-carried dependence, described for `accsim info`.
    Sequential(String),
}

/// What the test needs to know about the kernel.
pub(crate) struct DepCx<'a> {
    pub locals: &'a [Local],
    pub types: &'a TypeTable,
    pub acc: &'a [Option<AccDirective>],
    pub purity: &'a Purity,
    /// References to each local in the whole kernel body (before scheduling).
    pub kernel_uses: &'a HashMap<LocalId, usize>,
}

impl DepCx<'_> {
    fn obj_of_addr(&self, e: &Expr) -> Option<Obj> {
        match &e.strip_casts().kind {
            ExprKind::LocalAddr(l) => Some(Obj::Mem(*l)),
            ExprKind::Local(l) if self.locals.get(l.0 as usize).is_some_and(|x| x.role == LocalRole::CaptureAddress) => Some(Obj::Captured(*l)),
            _ => None,
        }
    }

    fn obj_ty(&self, o: Obj) -> Option<TypeId> {
        match o {
            Obj::Mem(l) | Obj::Reg(l) => self.locals.get(l.0 as usize).map(|x| x.ty),
            Obj::Captured(l) => self.locals.get(l.0 as usize).and_then(|x| self.types.pointee(x.ty)),
        }
    }

    fn is_scalar_obj(&self, o: Obj) -> bool {
        self.obj_ty(o).is_some_and(|t| self.types.is_scalar(t))
    }

    fn name(&self, o: Obj) -> String {
        let (Obj::Mem(l) | Obj::Captured(l) | Obj::Reg(l)) = o;
        self.locals.get(l.0 as usize).map(|x| x.name.trim_start_matches('&').to_string()).unwrap_or_else(|| "?".into())
    }

    /// The scalar a place or a loaded address names.
    fn scalar_of_place(&self, p: &Place) -> Option<Obj> {
        match p {
            Place::Local(l) => Some(Obj::Reg(*l)),
            Place::Mem(a) => self.obj_of_addr(a).filter(|o| self.is_scalar_obj(*o)),
        }
    }
}

/// An affine form: Σ coefficient·counter + Σ coefficient·symbol + constant.
#[derive(Clone, Debug, Default, PartialEq)]
struct Affine {
    vars: BTreeMap<Obj, i64>,
    syms: BTreeMap<String, i64>,
    c: i64,
}

impl Affine {
    fn constant(c: i64) -> Affine {
        Affine { c, ..Default::default() }
    }
    fn scale(mut self, k: i64) -> Option<Affine> {
        for v in self.vars.values_mut().chain(self.syms.values_mut()) {
            *v = v.checked_mul(k)?;
        }
        self.c = self.c.checked_mul(k)?;
        Some(self)
    }
    fn add(mut self, o: Affine) -> Option<Affine> {
        for (k, v) in o.vars {
            let e = self.vars.entry(k).or_insert(0);
            *e = e.checked_add(v)?;
        }
        for (k, v) in o.syms {
            let e = self.syms.entry(k).or_insert(0);
            *e = e.checked_add(v)?;
        }
        self.c = self.c.checked_add(o.c)?;
        self.vars.retain(|_, v| *v != 0);
        self.syms.retain(|_, v| *v != 0);
        Some(self)
    }
    fn as_const(&self) -> Option<i64> {
        (self.vars.is_empty() && self.syms.is_empty()).then_some(self.c)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Base {
    Object(Obj),
    /// The value of a pointer variable the loop does not write.
    Pointer(Obj),
    Unknown,
}

#[derive(Clone, Debug)]
struct Access {
    base: Base,
    /// One per `PtrAdd` level, outermost first: (element type, subscript; `None` if not affine).
    subs: Vec<(TypeId, Option<Affine>)>,
    write: bool,
    atomic: bool,
    loc: Loc,
}

struct Analysis<'a, 'c> {
    cx: &'a DepCx<'c>,
    /// Counters of the tested loop (P) and of nested loops (Q).
    p: Vec<Obj>,
    q: HashSet<Obj>,
    /// Scalars written anywhere in the loop body.
    written: HashSet<Obj>,
    accesses: Vec<Access>,
    /// Scalars whose address escapes (used other than loaded or stored).
    escaped: Vec<(Obj, Loc)>,
    /// The first reason found that makes the analysis give up.
    unknown: Option<String>,
    atomic_depth: u32,
}

/// Test the loop whose counters are `loop_vars` and whose body is `body`. `exempt` holds the
/// variables of its `reduction` and `private` clauses.
pub(crate) fn analyse(body: &Stmt, loop_vars: &[Place], exempt: &HashSet<Obj>, cx: &DepCx<'_>) -> Verdict {
    let mut p = Vec::new();
    for v in loop_vars {
        match cx.scalar_of_place(v) {
            Some(o) => p.push(o),
            None => return Verdict::Sequential("the loop variable is not a plain scalar".into()),
        }
    }
    if let Some((what, at)) = early_exit(body) {
        return Verdict::Sequential(format!("`{what}` leaves the loop early (line {})", at.line));
    }
    let mut an = Analysis { cx, p, q: HashSet::new(), written: HashSet::new(), accesses: Vec::new(), escaped: Vec::new(), unknown: None, atomic_depth: 0 };
    an.find_counters_and_writes(body);
    an.stmt(body);
    if let Some(u) = an.unknown {
        return Verdict::Sequential(u);
    }
    if let Some((o, at)) = an.escaped.iter().find(|(o, _)| an.written.contains(o) || !an.cx.is_scalar_obj(*o)) {
        return Verdict::Sequential(format!("the address of `{}` is taken in the loop (line {})", cx.name(*o), at.line));
    }
    // Scalars written in the loop.
    let mut privatize = Vec::new();
    let mut written: Vec<Obj> = an.written.iter().copied().collect();
    written.sort();
    for o in written {
        if an.p.contains(&o) {
            return Verdict::Sequential(format!("the loop variable `{}` is modified in the loop body", cx.name(o)));
        }
        if exempt.contains(&o) {
            continue;
        }
        let ty = cx.obj_ty(o).unwrap_or(TypeId(0));
        let assigned_first = killed_before_use(body, o, cx);
        let counter = an.q.contains(&o);
        // A counter of a nested loop is private to the iteration (§2.6.1 for loops with a
        // directive; accsim gives an auto loop an implicit one). Other scalars: only kernel locals
        // nothing outside the loop reads.
        let local_only = match o {
            Obj::Mem(l) | Obj::Reg(l) => {
                let inside = super::outline::count_local_uses(body).get(&l).copied().unwrap_or(0);
                cx.kernel_uses.get(&l).copied().unwrap_or(0) == inside && !cx.locals.get(l.0 as usize).is_some_and(|x| x.role.is_execution_model())
            }
            Obj::Captured(_) => false,
        };
        if assigned_first && (counter || local_only) {
            privatize.push((o, ty));
            continue;
        }
        let at = an.accesses.iter().find(|a| a.write && a.base == Base::Object(o)).map(|a| a.loc.line).unwrap_or(body.loc.line);
        let hint = if assigned_first { "it is used outside the loop" } else { "an iteration may read the value another iteration wrote" };
        return Verdict::Sequential(format!("scalar `{}` is written in the loop (line {at}) and {hint}: name it in a reduction or private clause", cx.name(o)));
    }
    // Array accesses, pairwise.
    let arrays: Vec<&Access> = an.accesses.iter().filter(|a| !matches!(a.base, Base::Object(o) if a.subs.is_empty() && cx.is_scalar_obj(o))).collect();
    for (i, w) in arrays.iter().enumerate().filter(|(_, a)| a.write) {
        for (j, r) in arrays.iter().enumerate() {
            if (r.write && j < i) || (w.atomic && r.atomic) {
                continue;
            }
            if let Some(why) = an.conflict(w, r) {
                return Verdict::Sequential(why);
            }
        }
    }
    Verdict::Parallel { privatize }
}

impl Analysis<'_, '_> {
    fn find_counters_and_writes(&mut self, body: &Stmt) {
        let cx = self.cx;
        let (mut q, mut written) = (HashSet::new(), HashSet::new());
        super::outline::walk_stmt(body, &mut |e| {
            let place = match &e.kind {
                ExprKind::Assign { place, .. } | ExprKind::CompoundAssign { place, .. } | ExprKind::IncDec { place, .. } => place,
                _ => return,
            };
            if let Some(o) = cx.scalar_of_place(place) {
                written.insert(o);
            }
        }, &mut |s| {
            if let StmtKind::For { init: Some(init), .. } = &s.kind {
                let last = match &init.kind {
                    StmtKind::Block(v) => v.last(),
                    _ => Some(&**init),
                };
                if let Some(Stmt { kind: StmtKind::Expr(Expr { kind: ExprKind::Assign { place, .. }, .. }), .. }) = last {
                    if let Some(o) = cx.scalar_of_place(place) {
                        q.insert(o);
                    }
                }
            }
        });
        self.q = q;
        self.written = written;
    }

    fn give_up(&mut self, why: String) {
        if self.unknown.is_none() {
            self.unknown = Some(why);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Expr(e) | StmtKind::Return(Some(e)) => self.expr(e),
            StmtKind::ZeroFill { addr, .. } => self.access(addr, true, s.loc),
            StmtKind::Block(v) => v.iter().for_each(|x| self.stmt(x)),
            StmtKind::If(c, t, e) => {
                self.expr(c);
                self.stmt(t);
                if let Some(e) = e {
                    self.stmt(e);
                }
            }
            StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
                self.expr(c);
                self.stmt(b);
            }
            StmtKind::For { init, cond, step, body } => {
                if let Some(i) = init {
                    self.stmt(i);
                }
                cond.iter().chain(step.iter()).for_each(|e| self.expr(e));
                self.stmt(body);
            }
            StmtKind::Switch { cond, body, .. } => {
                self.expr(cond);
                self.stmt(body);
            }
            StmtKind::VlaAlloc(_) => self.give_up(format!("a variable-length array is allocated in the loop (line {})", s.loc.line)),
            StmtKind::Acc { directive, body } => {
                let atomic = matches!(self.cx.acc.get(directive.0 as usize), Some(Some(AccDirective { kind: AccKind::Atomic(_), .. })));
                if let Some(b) = body {
                    self.atomic_depth += atomic as u32;
                    self.stmt(b);
                    self.atomic_depth -= atomic as u32;
                }
            }
            _ => {}
        }
    }

    /// Record an access of the object at `addr` and visit the address computation.
    fn access(&mut self, addr: &Expr, write: bool, loc: Loc) {
        let (base, subs) = self.decompose(addr);
        self.accesses.push(Access { base, subs, write, atomic: self.atomic_depth > 0, loc });
    }

    /// Split an address into its base and subscripts, visiting the reads it makes.
    fn decompose(&mut self, addr: &Expr) -> (Base, Vec<(TypeId, Option<Affine>)>) {
        let a = addr.strip_casts();
        match &a.kind {
            ExprKind::PtrAdd { ptr, index, elem } => {
                let (b, mut subs) = self.decompose(ptr);
                self.expr(index);
                subs.push((*elem, self.affine(index)));
                (b, subs)
            }
            _ => {
                if let Some(o) = self.cx.obj_of_addr(a) {
                    return (Base::Object(o), Vec::new());
                }
                // The value of a pointer variable.
                let ptr_var = match &a.kind {
                    ExprKind::Local(l) => Some(Obj::Reg(*l)),
                    ExprKind::Load(x) => self.cx.obj_of_addr(x).filter(|o| self.cx.is_scalar_obj(*o)),
                    _ => None,
                };
                self.expr(a);
                match ptr_var {
                    Some(o) if !self.written.contains(&o) => (Base::Pointer(o), Vec::new()),
                    _ => (Base::Unknown, Vec::new()),
                }
            }
        }
    }

    fn expr(&mut self, e: &Expr) {
        let loc = e.loc;
        match &e.kind {
            ExprKind::Load(a) => {
                if self.cx.obj_of_addr(a).is_some() || matches!(a.strip_casts().kind, ExprKind::PtrAdd { .. }) || self.cx.types.is_pointer(a.ty) {
                    self.access(a, false, loc)
                } else {
                    self.expr(a)
                }
            }
            ExprKind::Local(l) => {
                // A register's value (captured addresses are bases, seen through `access`).
                if !self.cx.locals.get(l.0 as usize).is_some_and(|x| x.role == LocalRole::CaptureAddress) {
                    self.accesses.push(Access { base: Base::Object(Obj::Reg(*l)), subs: Vec::new(), write: false, atomic: self.atomic_depth > 0, loc });
                } else if let Some(o) = self.cx.obj_of_addr(e) {
                    self.escaped.push((o, loc));
                }
            }
            ExprKind::LocalAddr(l) => self.escaped.push((Obj::Mem(*l), loc)),
            ExprKind::Assign { place, value } | ExprKind::CompoundAssign { place, value, .. } => {
                self.expr(value);
                self.place(place, loc);
            }
            ExprKind::IncDec { place, .. } => self.place(place, loc),
            ExprKind::Call { callee, args, result } => {
                args.iter().for_each(|a| self.expr(a));
                let pure = result.is_none()
                    && match callee {
                        Callee::Direct(f) => self.cx.purity.funcs.contains(f),
                        Callee::Extern(x) => self.cx.purity.externs.contains(x),
                        Callee::Indirect(_) => false,
                    };
                if !pure {
                    let name = match callee {
                        Callee::Direct(f) => self.cx.purity.func_names.get(f.0 as usize).cloned().unwrap_or_default(),
                        Callee::Extern(x) => self.cx.purity.extern_names.get(x.0 as usize).cloned().unwrap_or_default(),
                        Callee::Indirect(_) => "a function pointer".into(),
                    };
                    self.give_up(format!("the call to `{name}` (line {}) may touch memory other iterations use", loc.line));
                }
            }
            ExprKind::ComplexBinary { .. } | ExprKind::ComplexNeg { .. } | ExprKind::ComplexMake { .. } | ExprKind::VaStart(_) | ExprKind::VaArg(_) | ExprKind::VaCopy(..) => {
                self.give_up(format!("complex or variadic operations in the loop (line {}) are not analysed", loc.line))
            }
            ExprKind::WithInit { init, value } => {
                init.iter().for_each(|s| self.stmt(s));
                self.expr(value);
            }
            ExprKind::StmtExpr { body, value } => {
                body.iter().for_each(|s| self.stmt(s));
                if let Some(v) = value {
                    self.expr(v);
                }
            }
            ExprKind::Unary(_, a) | ExprKind::Cast(a) => self.expr(a),
            ExprKind::Binary(_, a, b) | ExprKind::LogicalAnd(a, b) | ExprKind::LogicalOr(a, b) | ExprKind::Comma(a, b) => {
                self.expr(a);
                self.expr(b);
            }
            ExprKind::PtrAdd { .. } => {
                // An address computed but not loaded or stored here (`&a[i]`, pointer arithmetic):
                // its base could be written through later.
                let (base, _) = self.decompose(e);
                if let Base::Object(o) = base {
                    self.escaped.push((o, loc));
                }
            }
            ExprKind::PtrDiff { lhs, rhs, .. } | ExprKind::ComplexCompare { lhs, rhs, .. } => {
                self.expr(lhs);
                self.expr(rhs);
            }
            ExprKind::Cond(a, b, c) => {
                self.expr(a);
                self.expr(b);
                self.expr(c);
            }
            ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Str(_) | ExprKind::FuncAddr(_) | ExprKind::ExternAddr(_) | ExprKind::GlobalAddr(_) | ExprKind::SizeOfDynamic(_) => {}
        }
    }

    fn place(&mut self, p: &Place, loc: Loc) {
        match p {
            Place::Local(l) => self.accesses.push(Access { base: Base::Object(Obj::Reg(*l)), subs: Vec::new(), write: true, atomic: self.atomic_depth > 0, loc }),
            Place::Mem(a) => self.access(a, true, loc),
        }
    }

    /// The affine form of an index expression, `None` if it is not affine in the counters.
    fn affine(&self, e: &Expr) -> Option<Affine> {
        let cx = self.cx;
        let e = e.strip_casts();
        let counter = |o: Obj| self.p.contains(&o) || self.q.contains(&o);
        let var = |o: Obj| -> Option<Affine> {
            if counter(o) {
                let mut a = Affine::default();
                a.vars.insert(o, 1);
                Some(a)
            } else if !self.written.contains(&o) {
                let mut a = Affine::default();
                a.syms.insert(cx.name(o), 1);
                Some(a)
            } else {
                None
            }
        };
        match &e.kind {
            ExprKind::Int(v) => {
                let signed = matches!(cx.types.get(e.ty), Type::Int(it) if it.signed);
                if signed || *v <= i64::MAX as u64 { Some(Affine::constant(*v as i64)) } else { None }
            }
            ExprKind::Local(l) => var(Obj::Reg(*l)),
            ExprKind::Load(a) => cx.obj_of_addr(a).filter(|o| cx.is_scalar_obj(*o)).and_then(var),
            ExprKind::Unary(UnOp::Neg, a) => self.affine(a)?.scale(-1),
            ExprKind::Binary(BinOp::Add, a, b) => self.affine(a)?.add(self.affine(b)?),
            ExprKind::Binary(BinOp::Sub, a, b) => self.affine(a)?.add(self.affine(b)?.scale(-1)?),
            ExprKind::Binary(BinOp::Mul, a, b) => {
                let (x, y) = (self.affine(a)?, self.affine(b)?);
                match (x.as_const(), y.as_const()) {
                    (Some(k), _) => y.scale(k),
                    (_, Some(k)) => x.scale(k),
                    // Invariant × invariant is one symbol; anything with a counter is not affine.
                    _ if x.vars.is_empty() && y.vars.is_empty() => {
                        let mut s = Affine::default();
                        s.syms.insert(format!("({x:?})*({y:?})"), 1);
                        Some(s)
                    }
                    _ => None,
                }
            }
            _ => {
                // Any other loop-invariant expression is a symbol; otherwise not affine.
                let mut invariant = true;
                crate::ir::visit::visit_exprs(e, &mut |x| match &x.kind {
                    ExprKind::Load(a) if !cx.obj_of_addr(a).filter(|o| cx.is_scalar_obj(*o)).is_some_and(|o| !self.written.contains(&o) && !counter(o)) => invariant = false,
                    ExprKind::Local(l) if self.written.contains(&Obj::Reg(*l)) || counter(Obj::Reg(*l)) => invariant = false,
                    ExprKind::Call { .. } | ExprKind::Assign { .. } | ExprKind::CompoundAssign { .. } | ExprKind::IncDec { .. } => invariant = false,
                    _ => {}
                });
                invariant.then(|| {
                    let mut s = Affine::default();
                    s.syms.insert(format!("{:?}", e.kind), 1);
                    s
                })
            }
        }
    }

    /// Why two accesses (the first a write) may touch the same memory in different iterations.
    fn conflict(&self, w: &Access, r: &Access) -> Option<String> {
        let cx = self.cx;
        let describe = |why: &str| format!("{} {why} {} (line {})", self.render(w), self.render(r), r.loc.line);
        match (w.base, r.base) {
            (Base::Object(x), Base::Object(y)) if x != y => return None,
            (Base::Object(Obj::Mem(l)), Base::Pointer(_) | Base::Unknown) | (Base::Pointer(_) | Base::Unknown, Base::Object(Obj::Mem(l)))
                if !self.escaped.iter().any(|(o, _)| *o == Obj::Mem(l)) && !cx.locals.get(l.0 as usize).is_some_and(|x| x.role == LocalRole::CaptureAddress) =>
            {
                // A local array of the kernel whose address never escapes: no pointer reaches it.
                return None;
            }
            (Base::Pointer(x), Base::Pointer(y)) if x != y => {
                return Some(format!("`{}` and `{}` may point to the same memory (writes through `{}`, line {})", cx.name(x), cx.name(y), cx.name(x), w.loc.line));
            }
            (Base::Unknown, _) | (_, Base::Unknown) => return Some(describe("may overlap")),
            (Base::Pointer(_), Base::Object(_)) | (Base::Object(_), Base::Pointer(_)) => return Some(describe("may overlap")),
            _ => {}
        }
        if w.subs.len() != r.subs.len() || w.subs.iter().zip(&r.subs).any(|(a, b)| a.0 != b.0) {
            return Some(describe("may overlap"));
        }
        // Per subscript: no solution, a forced distance of one counter, or no information.
        let mut forced: BTreeMap<Obj, i64> = BTreeMap::new();
        for ((_, f), (_, g)) in w.subs.iter().zip(&r.subs) {
            let (Some(f), Some(g)) = (f, g) else { continue };
            if f.syms != g.syms {
                continue;
            }
            let delta = g.c.checked_sub(f.c)?;
            let uniform = f.vars == g.vars;
            let coeffs: Vec<i64> = f.vars.values().chain(g.vars.values()).copied().collect();
            let gcd = coeffs.iter().fold(0i64, |a, b| gcd(a, *b));
            if gcd == 0 {
                if delta != 0 {
                    return None;
                }
                continue;
            }
            if delta % gcd != 0 {
                return None;
            }
            if uniform && f.vars.len() == 1 {
                let (v, a) = f.vars.iter().next().map(|(v, a)| (*v, *a))?;
                if self.p.contains(&v) {
                    if delta % a != 0 {
                        return None;
                    }
                    let d = delta / a;
                    if forced.get(&v).is_some_and(|x| *x != d) {
                        return None;
                    }
                    forced.insert(v, d);
                }
            }
        }
        if self.p.iter().all(|v| forced.get(v) == Some(&0)) {
            return None;
        }
        if forced.values().any(|d| *d != 0) {
            Some(format!("{} depends on {} (line {})", self.render(w), self.render(r), r.loc.line))
        } else if r.write && std::ptr::eq(w, r) {
            Some(format!("every iteration writes {} (line {})", self.render(w), w.loc.line))
        } else {
            Some(describe("may overlap"))
        }
    }

    fn render(&self, a: &Access) -> String {
        let mut s = match a.base {
            Base::Object(o) | Base::Pointer(o) => self.cx.name(o),
            Base::Unknown => "*(…)".into(),
        };
        for (_, sub) in &a.subs {
            s.push('[');
            match sub {
                Some(f) => s.push_str(&self.render_affine(f)),
                None => s.push('…'),
            }
            s.push(']');
        }
        format!("`{s}`")
    }

    fn render_affine(&self, f: &Affine) -> String {
        let mut out = String::new();
        let term = |k: i64, name: &str, out: &mut String| {
            let sign = if k < 0 { "-" } else if out.is_empty() { "" } else { "+" };
            let mag = k.unsigned_abs();
            out.push_str(sign);
            if name.is_empty() {
                out.push_str(&mag.to_string());
            } else if mag == 1 {
                out.push_str(name);
            } else {
                out.push_str(&format!("{mag}*{name}"));
            }
        };
        for (v, k) in &f.vars {
            term(*k, &self.cx.name(*v), &mut out);
        }
        for (sym, k) in &f.syms {
            let name = if sym.chars().all(|c| c.is_alphanumeric() || c == '_') { sym.as_str() } else { "…" };
            term(*k, name, &mut out);
        }
        if f.c != 0 || out.is_empty() {
            term(f.c, "", &mut out);
        }
        out
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.min(i64::MAX as u64) as i64
}

/// A `break`/`continue` of the loop itself is fine for `continue` only; `break`, `return` and a
/// `goto` out of the body end the loop early, which a parallel schedule cannot do.
fn early_exit(s: &Stmt) -> Option<(&'static str, Loc)> {
    let mut labels = HashSet::new();
    super::outline::walk_stmt(s, &mut |_| {}, &mut |st| {
        if let StmtKind::Label(l) = &st.kind {
            labels.insert(*l);
        }
    });
    fn go(s: &Stmt, depth: u32, in_switch: u32, labels: &HashSet<LabelId>) -> Option<(&'static str, Loc)> {
        match &s.kind {
            StmtKind::Return(_) => Some(("return", s.loc)),
            StmtKind::Break if depth == 0 && in_switch == 0 => Some(("break", s.loc)),
            StmtKind::Goto(l) if !labels.contains(l) => Some(("goto", s.loc)),
            StmtKind::Block(v) => v.iter().find_map(|x| go(x, depth, in_switch, labels)),
            StmtKind::If(_, t, e) => go(t, depth, in_switch, labels).or_else(|| e.as_ref().and_then(|e| go(e, depth, in_switch, labels))),
            StmtKind::While(_, b) | StmtKind::DoWhile(b, _) => go(b, depth + 1, in_switch, labels),
            StmtKind::For { init, body, .. } => init.as_ref().and_then(|i| go(i, depth, in_switch, labels)).or_else(|| go(body, depth + 1, in_switch, labels)),
            StmtKind::Switch { body, .. } => go(body, depth, in_switch + 1, labels),
            StmtKind::Acc { body: Some(b), .. } => go(b, depth, in_switch, labels),
            _ => None,
        }
    }
    go(s, 0, 0, &labels)
}

/// Whether every iteration of a loop with body `s` assigns the scalar `o` before it reads it (and
/// never lets its address escape), so that each iteration can have its own copy.
pub(crate) fn killed_before_use(s: &Stmt, o: Obj, cx: &DepCx<'_>) -> bool {
    let mut def = false;
    Kill { o, cx }.stmt(s, &mut def).is_ok()
}

struct Kill<'a, 'c> {
    o: Obj,
    cx: &'a DepCx<'c>,
}

type KResult = Result<(), ()>;

impl Kill<'_, '_> {
    fn is_me(&self, addr: &Expr) -> bool {
        self.cx.obj_of_addr(addr) == Some(self.o)
    }

    fn stmt(&self, s: &Stmt, def: &mut bool) -> KResult {
        match &s.kind {
            StmtKind::Expr(e) | StmtKind::Return(Some(e)) | StmtKind::ZeroFill { addr: e, .. } => self.expr(e, def),
            StmtKind::Block(v) => v.iter().try_for_each(|x| self.stmt(x, def)),
            StmtKind::If(c, t, e) => {
                self.expr(c, def)?;
                let (mut dt, mut de) = (*def, *def);
                self.stmt(t, &mut dt)?;
                if let Some(e) = e {
                    self.stmt(e, &mut de)?;
                }
                *def = dt && de;
                Ok(())
            }
            StmtKind::While(c, b) => {
                self.expr(c, def)?;
                let mut d = *def;
                self.stmt(b, &mut d)
            }
            StmtKind::DoWhile(b, c) => {
                self.stmt(b, def)?;
                self.expr(c, def)
            }
            StmtKind::For { init, cond, step, body } => {
                if let Some(i) = init {
                    self.stmt(i, def)?;
                }
                if let Some(c) = cond {
                    self.expr(c, def)?;
                }
                let mut d = *def;
                self.stmt(body, &mut d)?;
                if let Some(st) = step {
                    self.expr(st, &mut d)?;
                }
                Ok(())
            }
            StmtKind::Acc { body: Some(b), .. } => self.stmt(b, def),
            StmtKind::Switch { .. } => {
                let mut mentions = false;
                let me = self.o;
                super::outline::walk_stmt(s, &mut |e| {
                    if self.cx.obj_of_addr(e) == Some(me) || matches!((&e.kind, me), (ExprKind::Local(l), Obj::Reg(m)) if *l == m) {
                        mentions = true;
                    }
                }, &mut |_| {});
                if mentions { Err(()) } else { Ok(()) }
            }
            _ => Ok(()),
        }
    }

    fn expr(&self, e: &Expr, def: &mut bool) -> KResult {
        let read = |def: &bool| if *def { Ok(()) } else { Err(()) };
        match &e.kind {
            ExprKind::Assign { place, value } => {
                self.expr(value, def)?;
                match place {
                    Place::Local(l) if self.o == Obj::Reg(*l) => *def = true,
                    Place::Mem(a) if self.is_me(a) => *def = true,
                    Place::Mem(a) => self.expr(a, def)?,
                    Place::Local(_) => {}
                }
                Ok(())
            }
            ExprKind::CompoundAssign { place, value, .. } => {
                self.expr(value, def)?;
                self.place_rw(place, def)
            }
            ExprKind::IncDec { place, .. } => self.place_rw(place, def),
            ExprKind::Load(a) if self.is_me(a) => read(def),
            ExprKind::Local(l) if self.o == Obj::Reg(*l) => read(def),
            _ if self.is_me(e) => Err(()),
            ExprKind::Cond(a, b, c) => {
                self.expr(a, def)?;
                let (mut db, mut dc) = (*def, *def);
                self.expr(b, &mut db)?;
                self.expr(c, &mut dc)?;
                *def = db && dc;
                Ok(())
            }
            ExprKind::LogicalAnd(a, b) | ExprKind::LogicalOr(a, b) => {
                self.expr(a, def)?;
                let mut d = *def;
                self.expr(b, &mut d)
            }
            ExprKind::WithInit { init, value } => {
                init.iter().try_for_each(|s| self.stmt(s, def))?;
                self.expr(value, def)
            }
            ExprKind::StmtExpr { body, value } => {
                body.iter().try_for_each(|s| self.stmt(s, def))?;
                value.as_ref().map_or(Ok(()), |v| self.expr(v, def))
            }
            _ => {
                let mut res = Ok(());
                // Children in order (none of the remaining kinds assigns).
                let mut first = true;
                crate::ir::visit::visit_exprs(e, &mut |x| {
                    if std::mem::take(&mut first) {
                        return;
                    }
                    let me = self.is_me(x) || matches!((&x.kind, self.o), (ExprKind::Local(l), Obj::Reg(m)) if *l == m);
                    let assigns = matches!(x.kind, ExprKind::Assign { .. } | ExprKind::CompoundAssign { .. } | ExprKind::IncDec { .. });
                    if (me && !*def) || assigns {
                        res = Err(());
                    }
                });
                res
            }
        }
    }

    fn place_rw(&self, p: &Place, def: &mut bool) -> KResult {
        match p {
            Place::Local(l) if self.o == Obj::Reg(*l) => if *def { Ok(()) } else { Err(()) },
            Place::Mem(a) if self.is_me(a) => if *def { Ok(()) } else { Err(()) },
            Place::Mem(a) => self.expr(a, def),
            Place::Local(_) => Ok(()),
        }
    }
}
