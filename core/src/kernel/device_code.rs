//! What device code may call and name, checked at compile time on the lowered program (issue 12:
//! errors real compilers catch). Device code is the body of a compute construct and the body of
//! a function that a `routine` directive applies to. Each error names both sites.
//!
//! - §3.2.2–3.2.5, §3.2.12, §3.2.13: `acc_set_device_type`, `acc_get_device_type`,
//!   `acc_set_device_num`, `acc_get_device_num`, `acc_init` and `acc_shutdown` "may not be
//!   called within an accelerator parallel or kernels region": a call written in a compute
//!   construct or in a `routine` is an error. A call that static checking cannot see (through a
//!   function without a `routine` directive, or a function pointer) is still refused when it
//!   runs (`device-code`, exec/openacc.rs).
//! - §2.12.1 (nohost): "All calls to this procedure must appear within accelerator compute
//!   regions. If this procedure is called from other procedures, those other procedures must also
//!   have a matching routine directive with the nohost clause."
//! - §2.12.1 restriction: "In C and C++, function static variables are not supported in
//!   functions to which a routine directive applies."
//! - §2.12.2: "C or C++ global, file static or extern variables or arrays that are used in
//!   procedures compiled with the routine directive for execution on the device must appear in a
//!   declare directive in a create, copyin, device_resident or link clause. If the data appears in
//!   a device_resident clause, the routine directive for the procedure must include the nohost
//!   clause." A `declare` of the variable anywhere in the program counts (present_or_create and
//!   present_or_copyin as create and copyin, as accsim runs them).
//! - §2.12.1: "The routine directive with a name ... must appear before any definition or use of
//!   that function": checked in the directive's own file.
//!
//! Only what is visible is checked: a function called from device code without a `routine`
//! directive is not examined (accsim runs it, as compilers that compile it implicitly do).

use std::collections::{HashMap, HashSet};

use crate::diag::{Diagnostic, Loc};
use crate::ir::acc::*;
use crate::ir::*;

use super::routine::routine_target;

/// The runtime routines that "may not be called within an accelerator parallel or kernels
/// region", with the section that says so.
const HOST_ONLY_RUNTIME: &[(&str, &str)] = &[
    ("acc_set_device_type", "§3.2.2"),
    ("acc_get_device_type", "§3.2.3"),
    ("acc_set_device_num", "§3.2.4"),
    ("acc_get_device_num", "§3.2.5"),
    ("acc_init", "§3.2.12"),
    ("acc_shutdown", "§3.2.13"),
];

/// A function that a `routine` directive applies to.
#[derive(Copy, Clone)]
struct RoutineSite {
    loc: Loc,
    nohost: bool,
}

/// The `routine` directives of a program by the function (or extern) they apply to.
#[derive(Default)]
struct Routines {
    by_function: HashMap<FuncId, RoutineSite>,
    by_extern: HashMap<ExternId, RoutineSite>,
}

impl Routines {
    fn of_program(p: &Program) -> Routines {
        let mut r = Routines::default();
        for d in &p.file_scope_directives {
            let Some(Some(dir)) = p.acc.get(d.0 as usize) else { continue };
            if !matches!(dir.kind, AccKind::Routine(_)) {
                continue;
            }
            let site = RoutineSite { loc: dir.loc, nohost: dir.clauses.iter().any(|c| matches!(c.kind, AccClauseKind::NoHost)) };
            match routine_target(p, dir) {
                Some(Callee::Direct(f)) => {
                    let e = r.by_function.entry(f).or_insert(site);
                    e.nohost |= site.nohost;
                }
                Some(Callee::Extern(x)) => {
                    let e = r.by_extern.entry(x).or_insert(site);
                    e.nohost |= site.nohost;
                }
                _ => {}
            }
        }
        r
    }

    fn of_callee(&self, c: &Callee) -> Option<RoutineSite> {
        match c {
            Callee::Direct(f) => self.by_function.get(f).copied(),
            Callee::Extern(x) => self.by_extern.get(x).copied(),
            Callee::Indirect(_) => None,
        }
    }
}

fn callee_name<'p>(p: &'p Program, c: &Callee) -> &'p str {
    match c {
        Callee::Direct(f) => p.functions.get(f.0 as usize).map_or("", |f| f.name.as_str()),
        Callee::Extern(x) => p.externs.get(x.0 as usize).map_or("", |x| x.name.as_str()),
        Callee::Indirect(_) => "",
    }
}

/// How a global is declared for the device: the clause of a `declare` directive naming it.
fn declared_globals(p: &Program) -> HashMap<GlobalId, (DataClause, Loc)> {
    let mut out = HashMap::new();
    for dir in p.acc.iter().flatten().filter(|d| matches!(d.kind, AccKind::Declare)) {
        for c in &dir.clauses {
            let AccClauseKind::Data(dc, vars) = &c.kind else { continue };
            for v in vars {
                if let VarRoot::Global(g) = v.root {
                    out.entry(g).or_insert((*dc, c.loc));
                }
            }
        }
    }
    out
}

/// Every error of this module's rules in `p`, sorted by place.
pub fn check_program(p: &Program) -> Vec<Diagnostic> {
    let routines = Routines::of_program(p);
    let declared = declared_globals(p);
    let mut diags = Vec::new();
    for (fi, f) in p.functions.iter().enumerate() {
        let routine = routines.by_function.get(&FuncId(fi as u32)).copied();
        let mut cx = FnCheck { p, routines: &routines, declared: &declared, function: f, routine, reported_globals: HashSet::new(), diags: &mut diags };
        cx.stmt(&f.body, None);
    }
    named_routine_order(p, &mut diags);
    diags.sort_by_key(|d| d.primary.map(|l| (l.file, l.line, l.col)));
    diags.dedup_by(|a, b| a.primary == b.primary && a.message == b.message);
    diags
}

/// The checks of one function's body.
struct FnCheck<'a> {
    p: &'a Program,
    routines: &'a Routines,
    declared: &'a HashMap<GlobalId, (DataClause, Loc)>,
    function: &'a Function,
    /// The function's own `routine` directive.
    routine: Option<RoutineSite>,
    reported_globals: HashSet<GlobalId>,
    diags: &'a mut Vec<Diagnostic>,
}

impl FnCheck<'_> {
    /// `compute`: the innermost compute construct around `s` (its kind's name and place).
    fn stmt(&mut self, s: &Stmt, compute: Option<(&'static str, Loc)>) {
        match &s.kind {
            StmtKind::Expr(e) | StmtKind::ZeroFill { addr: e, .. } | StmtKind::Return(Some(e)) => self.exprs(e, compute),
            StmtKind::Block(v) => v.iter().for_each(|x| self.stmt(x, compute)),
            StmtKind::If(c, t, e) => {
                self.exprs(c, compute);
                self.stmt(t, compute);
                if let Some(e) = e {
                    self.stmt(e, compute);
                }
            }
            StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
                self.exprs(c, compute);
                self.stmt(b, compute);
            }
            StmtKind::For { init, cond, step, body } => {
                if let Some(i) = init {
                    self.stmt(i, compute);
                }
                for e in cond.iter().chain(step.iter()) {
                    self.exprs(e, compute);
                }
                self.stmt(body, compute);
            }
            StmtKind::Switch { cond, body, .. } => {
                self.exprs(cond, compute);
                self.stmt(body, compute);
            }
            StmtKind::Acc { directive, body: Some(b) } => {
                let construct = match self.p.acc.get(directive.0 as usize) {
                    Some(Some(d)) if d.kind.is_compute() && compute.is_none() => Some((d.kind.name(), d.loc)),
                    _ => compute,
                };
                self.stmt(b, construct);
            }
            _ => {}
        }
    }

    fn exprs(&mut self, e: &Expr, compute: Option<(&'static str, Loc)>) {
        crate::ir::visit::visit_exprs(e, &mut |x| {
            self.expr(x, compute);
            if let ExprKind::WithInit { init, .. } | ExprKind::StmtExpr { body: init, .. } = &x.kind {
                init.iter().for_each(|st| self.stmt(st, compute));
            }
        });
    }

    fn expr(&mut self, e: &Expr, compute: Option<(&'static str, Loc)>) {
        let device = compute.is_some() || self.routine.is_some();
        match &e.kind {
            ExprKind::Call { callee, .. } => self.call(e, callee, compute, device),
            ExprKind::GlobalAddr(g) if compute.is_none() => {
                if let Some(routine) = self.routine {
                    self.global_in_routine(e, *g, routine);
                }
            }
            _ => {}
        }
    }

    fn call(&mut self, e: &Expr, callee: &Callee, compute: Option<(&'static str, Loc)>, device: bool) {
        let p = self.p;
        let name = callee_name(p, callee);
        if device && matches!(callee, Callee::Extern(_)) {
            if let Some((_, section)) = HOST_ONLY_RUNTIME.iter().find(|(n, _)| *n == name) {
                let (what, loc) = match (compute, self.routine) {
                    (Some((kind, loc)), _) => (format!("the `{kind}` construct it is in"), loc),
                    (None, Some(r)) => (format!("`{}` is compiled for the device by this `routine` directive", self.function.name), r.loc),
                    (None, None) => return,
                };
                self.diags.push(
                    Diagnostic::error("device-code", format!("`{name}` may not be called within an accelerator parallel or kernels region ({section})"), e.loc)
                        .with_related(loc, what)
                        .with_help(format!("call `{name}` in host code, before or after the compute region")),
                );
            }
        }
        let Some(target) = self.routines.of_callee(callee).filter(|r| r.nohost) else { return };
        match (compute, self.routine) {
            (Some(_), _) => {}
            (None, None) => self.diags.push(
                Diagnostic::error("routine", format!("`{name}` is a `routine nohost` procedure, called in host code: all calls to it must appear within compute regions (§2.12.1)"), e.loc)
                    .with_related(target.loc, format!("`{name}` is declared `nohost` here: it is not compiled for the host"))
                    .with_help(format!("call `{name}` inside a `parallel` or `kernels` construct, or remove `nohost`")),
            ),
            (None, Some(own)) if !own.nohost => self.diags.push(
                Diagnostic::error(
                    "routine",
                    format!("`{}` calls the `routine nohost` procedure `{name}` but its own `routine` directive has no `nohost` clause (§2.12.1)", self.function.name),
                    e.loc,
                )
                .with_related(target.loc, format!("`{name}` is declared `nohost` here"))
                .with_related(own.loc, format!("`{}`'s `routine` directive, without `nohost`", self.function.name))
                .with_help(format!("add `nohost` to the `routine` directive of `{}`", self.function.name)),
            ),
            (None, Some(_)) => {}
        }
    }

    /// §2.12.1 (function statics) and §2.12.2 (globals in routines), once per global and function.
    fn global_in_routine(&mut self, e: &Expr, g: GlobalId, routine: RoutineSite) {
        let p = self.p;
        let Some(global) = p.globals.get(g.0 as usize) else { return };
        if self.reported_globals.contains(&g) {
            return;
        }
        let fname = &self.function.name;
        let diag = match global.origin {
            GlobalOrigin::CompoundLiteral => return,
            GlobalOrigin::FunctionStatic => {
                let name = global.name.rsplit('.').next().unwrap_or(&global.name);
                Diagnostic::error("routine", format!("`{name}` is a static variable of `{fname}`, to which a `routine` directive applies: function static variables are not supported in routines (§2.12.1)"), global.loc)
                    .with_related(routine.loc, format!("`{fname}` is compiled for the device by this `routine` directive"))
                    .with_help("make it a global variable with `#pragma acc declare create(...)`, or pass its storage as an argument")
            }
            GlobalOrigin::FileScope => match self.declared.get(&g) {
                Some((DataClause::DeviceResident, declare_loc)) if !routine.nohost => Diagnostic::error(
                    "routine",
                    format!("`{}` is `device_resident`, used in `{fname}` whose `routine` directive has no `nohost` clause (§2.12.2)", global.name),
                    e.loc,
                )
                .with_related(*declare_loc, format!("`{}` is declared `device_resident` here: it has no host copy", global.name))
                .with_related(routine.loc, format!("`{fname}`'s `routine` directive, without `nohost`"))
                .with_help(format!("add `nohost` to the `routine` directive of `{fname}`")),
                Some(_) => return,
                None => Diagnostic::error(
                    "routine",
                    format!("the global `{}` is used in `{fname}`, which a `routine` directive compiles for the device, but no `declare` directive puts it on the device (§2.12.2)", global.name),
                    e.loc,
                )
                .with_related(global.loc, format!("`{}` is declared here", global.name))
                .with_related(routine.loc, format!("`{fname}`'s `routine` directive"))
                .with_help(format!("add `#pragma acc declare create({0})` (or `copyin`, `device_resident`, `link`) after the declaration of `{0}`", global.name)),
            },
        };
        self.reported_globals.insert(g);
        self.diags.push(diag);
    }
}

/// §2.12.1: "The routine directive with a name ... must appear before any definition or use of
/// that function" (in its file: another file has its own directive).
fn named_routine_order(p: &Program, diags: &mut Vec<Diagnostic>) {
    let before = |l: &Loc, d: &Loc| l.file == d.file && (l.line, l.col) < (d.line, d.col);
    for id in &p.file_scope_directives {
        let Some(Some(dir)) = p.acc.get(id.0 as usize) else { continue };
        let AccKind::Routine(Some(name)) = &dir.kind else { continue };
        let Some(target) = routine_target(p, dir) else { continue };
        if let Callee::Direct(f) = target {
            if let Some(func) = p.functions.get(f.0 as usize).filter(|func| before(&func.loc, &dir.loc)) {
                diags.push(
                    Diagnostic::error("routine", format!("`routine({name})` follows the definition of `{name}`: a named routine directive must appear before any definition or use of the function (§2.12.1)"), dir.loc)
                        .with_related(func.loc, format!("`{name}` is defined here"))
                        .with_help(format!("move the directive before the definition of `{name}`, or write `#pragma acc routine` just above it")),
                );
                continue;
            }
        }
        let mut first_use: Option<Loc> = None;
        for func in &p.functions {
            super::outline::walk_stmt(
                &func.body,
                &mut |e| {
                    if let ExprKind::Call { callee, .. } = &e.kind {
                        let same = match (callee, &target) {
                            (Callee::Direct(a), Callee::Direct(b)) => a == b,
                            (Callee::Extern(a), Callee::Extern(b)) => a == b,
                            _ => false,
                        };
                        if same && before(&e.loc, &dir.loc) && first_use.is_none_or(|u| (e.loc.line, e.loc.col) < (u.line, u.col)) {
                            first_use = Some(e.loc);
                        }
                    }
                },
                &mut |_| {},
            );
        }
        if let Some(use_loc) = first_use {
            diags.push(
                Diagnostic::error("routine", format!("`routine({name})` follows a use of `{name}`: a named routine directive must appear before any definition or use of the function (§2.12.1)"), dir.loc)
                    .with_related(use_loc, format!("`{name}` is called here"))
                    .with_help(format!("move the directive before the first use of `{name}`, next to its declaration")),
            );
        }
    }
}
