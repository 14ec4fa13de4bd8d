//! Capture analysis and rewriting of compute regions into kernel functions.
//!
//! Data attributes follow §2.5.1 (parallel) and §2.5.2 (kernels), §2.6.1 and the clauses:
//! - a variable in a `reduction`, `private` or `firstprivate` clause of the construct (or in a
//!   reduction of a gang loop inside it) gets that attribute;
//! - arrays, structs and other aggregates are `present_or_copy`: the kernel uses the device copy;
//! - scalars (pointers included) are firstprivate in a parallel construct and copied in a kernels
//!   construct, unless a data clause of the construct names them;
//! - variables declared inside the region are private to the thread that runs their block.

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::diag::{Diagnostic, Loc};
use crate::ir::acc::*;
use crate::ir::*;

use super::build::Builder;

/// Outline every compute construct of `p`. Errors (constructs nested illegally, unsupported
/// forms) are returned as diagnostics.
///
/// Returns what was learned about each kernel (by [`KernelId`]: its access plan, its loops'
/// schedules and its fast-share variant), for [`crate::ir::valid::validate`] to store in the
/// side table.
pub fn outline_program(p: &mut Program) -> Result<Vec<super::KernelInfo>, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let mut kernels = Vec::new();
    bare_pointer_notes(p);
    let nfuncs = p.functions.len();
    let purity = super::depend::Purity::of_program(p);
    let routines = super::routine::RoutineLevels::of_program(p);
    let mut placement_errors = super::routine::check_program(p, &routines);
    placement_errors.extend(super::placement::check_program(p));
    placement_errors.extend(super::device_code::check_program(p));
    placement_errors.extend(super::branches::check_program(p));
    if !placement_errors.is_empty() {
        return Err(placement_errors);
    }
    for fi in 0..nfuncs {
        let mut body = std::mem::replace(&mut p.functions[fi].body, Stmt { kind: StmtKind::Empty, loc: Loc::default() });
        let uses_all = count_local_uses(&body);
        let host_body = body.clone();
        let entered = entered_vars(&body, &p.acc);
        let mut cx = FnOutliner { host_body, enclosing_data: Vec::new(), enclosing_whole: Vec::new(), enclosing_vars: Vec::new(), declared: (HashSet::new(), HashSet::new()), entered, members: HashMap::new(), whole_structs: HashMap::new(), p, fi, uses_all, purity: &purity, routines: &routines, per_part: HashSet::new(), diags: &mut diags, kernels: &mut kernels };
        cx.walk(&mut body, false);
        p.functions[fi].body = body;
    }
    diags.extend(super::routine::schedule_routines(p, &purity, &routines, nfuncs));
    bind_routine_calls(p, &kernels, &mut diags);
    missing_routines(p);
    if diags.is_empty() { Ok(kernels) } else { Err(diags) }
}

/// Item 7 of issue 12: a data clause that names a pointer whole (`present(A)` on `double *A`,
/// `copy(C)` on a parameter `double C[NI][NJ]`) is read differently by compilers. OpenACC 2.0
/// maps the pointer itself (8 bytes), and gcc does; the PGI/NVIDIA compilers map the declared
/// extent of a parameter, or find the present data that contains what the pointer points to.
/// accsim behaves as nvc by default and as 2.0 under `--strict-2.0` (see
/// `exec::compile::offload::BarePointer`); a note says so, for `accsim info` and `check`.
fn bare_pointer_notes(p: &mut Program) {
    let mut notes = Vec::new();
    for dir in p.acc.iter().flatten() {
        if !matches!(dir.kind, AccKind::Data | AccKind::EnterData | AccKind::ExitData | AccKind::Declare) && !dir.kind.is_compute() {
            continue;
        }
        for c in &dir.clauses {
            let AccClauseKind::Data(dc, vars) = &c.kind else { continue };
            if *dc == DataClause::DevicePtr {
                continue;
            }
            for v in vars.iter().filter(|v| v.sections.is_empty() && v.root != VarRoot::Other && p.types.is_pointer(v.var_ty)) {
                let name = &v.text;
                let clause = format!("{}({name})", c.spelling);
                let (message, help) = match &v.declared_extent {
                    Some(crate::ir::acc::DeclaredExtent::Variable { text, .. }) => {
                        let rows = text.clone().unwrap_or_else(|| "n".into());
                        (
                            format!("`{clause}` names a variable-length array parameter: accsim maps its declared extent, `{name}[0:{rows}]` (the rows its declaration gives when the function is called), as nvc does; OpenACC 2.0 maps the pointer parameter itself (8 bytes), as gcc does (--strict-2.0)"),
                            format!("write `{name}[0:{rows}]` to map the same data with every compiler"),
                        )
                    }
                    Some(crate::ir::acc::DeclaredExtent::Constant(n)) => (
                        format!("`{clause}` names a parameter declared as an array: accsim maps its declared extent, `{name}[0:{n}]`, as nvc does; OpenACC 2.0 maps the pointer parameter itself (8 bytes), as gcc does (--strict-2.0)"),
                        format!("write `{name}[0:{n}]` to map the same data with every compiler"),
                    ),
                    None => (
                        format!("`{clause}` names the pointer `{name}`, not a subarray: accsim, like nvc, uses the present data that contains what `{name}` points to; OpenACC 2.0 maps the pointer itself (8 bytes), as gcc does (--strict-2.0)"),
                        format!("write `{name}[0:n]` with the number of elements n to map the same data with every compiler"),
                    ),
                };
                let mut d = Diagnostic::error(crate::finding::FindingKind::Portability.name(), message, v.loc).with_help(help);
                d.severity = crate::diag::Severity::Note;
                notes.push(d);
            }
        }
    }
    for d in notes {
        if !p.findings.iter().any(|f| f.primary == d.primary && f.kind == d.kind) {
            p.findings.push(d);
        }
    }
}

/// The functions a `routine` directive applies to (§2.12.1): the one it names, or the one whose
/// definition or prototype follows it ([`super::routine::routine_target`], which sees the
/// prototypes `Program::prototypes` keeps), and the procedure a `bind` names (what device code
/// calls instead, §2.12.1.5).
fn routine_functions(p: &Program) -> Vec<bool> {
    let mut out = vec![false; p.functions.len()];
    for dir in p.file_scope_directives.iter().filter_map(|d| p.acc.get(d.0 as usize).and_then(|x| x.as_ref())) {
        if !matches!(dir.kind, AccKind::Routine(_)) {
            continue;
        }
        if let Some(Callee::Direct(f)) = super::routine::routine_target(p, dir) {
            if let Some(slot) = out.get_mut(f.0 as usize) {
                *slot = true;
            }
        }
        for c in &dir.clauses {
            if let AccClauseKind::Bind(t) = &c.kind {
                for (i, f) in p.functions.iter().enumerate() {
                    if f.name == *t {
                        out[i] = true;
                    }
                }
            }
        }
    }
    out
}

/// `missing-routine` (a warning, §2.12.1): device code — a compute region, or a function a
/// `routine` directive applies to — calls a function of the program that has no `routine`
/// directive, so no device version of it exists (nvc and gcc compile one only for a routine).
/// Reported once per called function, at its first call; C library functions are the
/// implementation's.
fn missing_routines(p: &mut Program) {
    let routine = routine_functions(p);
    let mut device: Vec<FuncId> = p.kernels.iter().map(|k| k.func).collect();
    device.extend(routine.iter().enumerate().filter(|(_, r)| **r).map(|(i, _)| FuncId(i as u32)));
    let mut found: Vec<(FuncId, Loc)> = Vec::new();
    for f in device {
        let Some(func) = p.functions.get(f.0 as usize) else { continue };
        walk_stmt(&func.body, &mut |e| {
            if let ExprKind::Call { callee: Callee::Direct(g), .. } = &e.kind {
                let defined = p.functions.get(g.0 as usize).is_some_and(|x| !matches!(x.body.kind, StmtKind::Empty));
                let named = routine.get(g.0 as usize).copied().unwrap_or(true);
                if defined && !named && !found.iter().any(|(h, _)| h == g) {
                    found.push((*g, e.loc));
                }
            }
        }, &mut |_| {});
    }
    found.sort_by_key(|(_, at)| (at.file, at.line, at.col));
    for (g, at) in found {
        let Some(callee) = p.functions.get(g.0 as usize) else { continue };
        let name = callee.name.clone();
        let mut d = Diagnostic::error("missing-routine", format!("device code calls `{name}`, which has no `routine` directive: no device version of it is compiled (§2.12.1)"), at)
            .with_related(callee.loc, format!("`{name}` is defined here"))
            .with_help(format!("put `#pragma acc routine seq` (or the level of parallelism it uses) before the definition or a prototype of `{name}`"));
        d.severity = crate::diag::Severity::Warning;
        if !p.findings.iter().any(|f| f.primary == d.primary && f.kind == d.kind) {
            p.findings.push(d);
        }
    }
}

/// §2.12.1.5 `routine bind(name)` / `bind("string")`: a call from a compute region to the routine
/// calls the bound procedure instead (on the device; the host keeps calling the routine). An
/// unnamed `routine` applies to the function declared next in the same file. Calls made from
/// inside other routines are not redirected (accsim runs one body of each function on both sides).
fn bind_routine_calls(p: &mut Program, kernels: &[super::KernelInfo], diags: &mut Vec<Diagnostic>) {
    let mut redirect: Vec<(Callee, Callee)> = Vec::new();
    for d in &p.file_scope_directives {
        let Some(Some(dir)) = p.acc.get(d.0 as usize) else { continue };
        if !matches!(dir.kind, AccKind::Routine(_)) {
            continue;
        }
        let Some(target) = dir.clauses.iter().find_map(|c| if let AccClauseKind::Bind(t) = &c.kind { Some(t.clone()) } else { None }) else { continue };
        let Some(routine) = super::routine::routine_target(p, dir) else { continue };
        match super::routine::by_name(p, &target) {
            Some(t) => redirect.push((routine, t)),
            None => diags.push(Diagnostic::error("routine", format!("`bind({target})`: no function `{target}` is defined or declared in the program (§2.12.1.5)"), dir.loc)),
        }
    }
    if redirect.is_empty() {
        return;
    }
    let same = |a: &Callee, b: &Callee| matches!((a, b), (Callee::Direct(x), Callee::Direct(y)) if x == y) || matches!((a, b), (Callee::Extern(x), Callee::Extern(y)) if x == y);
    let kernel_funcs: Vec<FuncId> = p.kernels.iter().zip(kernels).flat_map(|(k, info)| std::iter::once(k.func).chain(info.fast)).collect();
    for f in kernel_funcs {
        let Some(func) = p.functions.get_mut(f.0 as usize) else { continue };
        redirect_calls(&mut func.body, &mut |c| {
            if let Some((_, t)) = redirect.iter().find(|(r, _)| same(r, c)) {
                *c = t.clone();
            }
        });
    }
}

fn redirect_calls(s: &mut Stmt, f: &mut dyn FnMut(&mut Callee)) {
    crate::ir::visit::visit_stmt_exprs_mut(s, &mut |e| {
        if let ExprKind::Call { callee, .. } = &mut e.kind {
            f(callee);
        }
        true
    });
}

struct FnOutliner<'p> {
    /// The function's body before outlining (for analyses that look outside a region).
    host_body: Stmt,
    /// Variables named by the data clauses of the enclosing data constructs (for `default(none)`).
    enclosing_data: Vec<HashSet<VarRoot>>,
    /// Variables the data clauses of the enclosing data constructs map whole (no subarray, not
    /// `deviceptr`): their device copy is the one compute constructs inside use (§2.5.1, §2.5.2).
    enclosing_whole: Vec<HashSet<VarRoot>>,
    /// The variables of the data clauses of the enclosing data constructs (struct members, §2.6.5).
    enclosing_vars: Vec<Vec<super::members::NamedVar>>,
    /// The variables of the function-scope `declare` directives met so far (all named, mapped
    /// whole): §2.10, "the clauses have exactly the same behavior as having an explicit data
    /// construct surrounding the body of the procedure with these clauses", so for the
    /// constructs after it they are in an enclosing data construct (§2.5.1, §2.5.2). Visibility
    /// is taken as the rest of the function, as `lower::acc_rules` does.
    declared: (HashSet<VarRoot>, HashSet<VarRoot>),
    /// The variables of the function's `enter data` directives: a struct member entered there is
    /// mapped by the program (a dynamic lifetime, §2.6.4), whatever the construct's position.
    entered: Vec<super::members::NamedVar>,
    /// The struct members the current construct reaches on their own, by their host register.
    members: HashMap<LocalId, super::members::MemberUnit>,
    /// Structs of the current construct copied whole although clauses map members of them.
    whole_structs: HashMap<VarRoot, super::members::WholeStruct>,
    p: &'p mut Program,
    fi: usize,
    /// How often each local of the function is referenced (whole body).
    uses_all: HashMap<LocalId, usize>,
    /// Which functions a dependence test may treat as side-effect free.
    purity: &'p super::depend::Purity,
    /// The `routine` levels of the program's functions (§2.12.1), for loop scheduling.
    routines: &'p super::routine::RoutineLevels,
    /// Locals of a kernels region that each kernel of it assigns before use: every kernel gets
    /// its own (§2.5.2 splitting does not need them to survive between kernels).
    per_part: HashSet<LocalId>,
    diags: &'p mut Vec<Diagnostic>,
    /// What was learned about each kernel outlined so far (access plan, loop schedules, fast
    /// variant), by [`KernelId`].
    kernels: &'p mut Vec<super::KernelInfo>,
}

impl FnOutliner<'_> {
    fn walk(&mut self, s: &mut Stmt, in_compute: bool) {
        match &mut s.kind {
            StmtKind::Acc { directive, body } => {
                let d = *directive;
                let is_compute = self.p.acc.get(d.0 as usize).and_then(|a| a.as_ref()).is_some_and(|a| a.kind.is_compute());
                if is_compute {
                    if in_compute {
                        self.diags.push(Diagnostic::error(
                            "directive",
                            "a compute construct cannot appear inside another compute construct (§2.5)",
                            s.loc,
                        ));
                        return;
                    }
                    if let Some(b) = body.take() {
                        match self.outline(d, *b, s.loc) {
                            Ok(launches) => *body = Some(Box::new(launches)),
                            Err(e) => self.diags.push(e),
                        }
                    }
                    return;
                }
                // A data construct's structured lifetime ends where the construct ends (§2.6.3):
                // leaving its body by a branch would skip the copy-outs and deletes of its exit.
                // Like the compute constructs (§2.5.1, §2.5.2), the program may not branch out.
                let structured = self.p.acc.get(d.0 as usize).and_then(|a| a.as_ref()).filter(|a| matches!(a.kind, AccKind::Data | AccKind::HostData));
                if let (Some(dir), Some(b)) = (structured, body.as_deref()) {
                    if let Some((what, at)) = branch_out(b) {
                        self.diags.push(
                            Diagnostic::error("directive", format!("`{what}` leaves the {} construct: branching out of a data region is not allowed (§2.6.3)", dir.kind.name()), at)
                                .with_related(dir.loc, "the construct starts here"),
                        );
                        return;
                    }
                }
                if let Some(decl) = self.p.acc.get(d.0 as usize).and_then(|a| a.as_ref()).filter(|a| matches!(a.kind, AccKind::Declare)) {
                    self.declared.0.extend(clause_roots(decl));
                    self.declared.1.extend(whole_data_roots(decl));
                }
                let named: HashSet<VarRoot> = self
                    .p
                    .acc
                    .get(d.0 as usize)
                    .and_then(|a| a.as_ref())
                    .filter(|a| matches!(a.kind, AccKind::Data))
                    .map(clause_roots)
                    .unwrap_or_default();
                let vars = self.p.acc.get(d.0 as usize).and_then(|a| a.as_ref()).filter(|a| matches!(a.kind, AccKind::Data)).map(data_vars).unwrap_or_default();
                let whole = self.p.acc.get(d.0 as usize).and_then(|a| a.as_ref()).filter(|a| matches!(a.kind, AccKind::Data)).map(whole_data_roots).unwrap_or_default();
                self.enclosing_data.push(named);
                self.enclosing_vars.push(vars);
                self.enclosing_whole.push(whole);
                if let Some(b) = body {
                    self.walk(b, in_compute);
                }
                self.enclosing_data.pop();
                self.enclosing_vars.pop();
                self.enclosing_whole.pop();
            }
            StmtKind::Block(v) => v.iter_mut().for_each(|x| self.walk(x, in_compute)),
            StmtKind::If(_, t, e) => {
                self.walk(t, in_compute);
                if let Some(e) = e {
                    self.walk(e, in_compute);
                }
            }
            StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::Switch { body: b, .. } => self.walk(b, in_compute),
            StmtKind::For { init, body, .. } => {
                if let Some(i) = init {
                    self.walk(i, in_compute);
                }
                self.walk(body, in_compute);
            }
            _ => {}
        }
    }

    /// Outline one compute construct; returns the host-side body (the launches).
    fn outline(&mut self, d: DirectiveId, body: Stmt, loc: Loc) -> Result<Stmt, Diagnostic> {
        let dir = self.p.acc[d.0 as usize].clone().ok_or_else(|| Diagnostic::internal("compute construct without its directive", Some(loc)))?;
        if let Some((what, at)) = branch_out(&body) {
            return Err(Diagnostic::error(
                "directive",
                format!("`{what}` leaves the {} construct: branching out of a compute construct is not allowed (§2.5)", dir.kind.name()),
                at,
            )
            .with_related(dir.loc, "the construct starts here"));
        }
        let is_kernels = matches!(dir.kind, AccKind::Kernels | AccKind::KernelsLoop);
        // A combined construct's loop directive applies to the loop that follows (§2.11).
        let body = match dir.kind {
            AccKind::ParallelLoop | AccKind::KernelsLoop => {
                let loop_clauses: Vec<AccClause> = dir.clauses.iter().filter(|c| is_loop_clause(&c.kind)).cloned().collect();
                let synthetic = self.p.acc.len();
                self.p.acc.push(Some(AccDirective { kind: AccKind::Loop, clauses: loop_clauses, loc: dir.loc }));
                let text = self.p.directives.get(d.0 as usize).map(|s| s.text.clone()).unwrap_or_default();
                self.p.directives.push(DirectiveSite { text, loc: dir.loc });
                Stmt { kind: StmtKind::Acc { directive: DirectiveId(synthetic as u32), body: Some(Box::new(body)) }, loc }
            }
            _ => body,
        };
        // Structs some of whose members are mapped are reached member by member (§2.6.5).
        let mut body = body;
        let mut named = data_vars(&dir);
        for v in self.enclosing_vars.iter().chain(std::iter::once(&self.entered)) {
            named.extend(v.iter().map(|n| super::members::NamedVar { clause: n.clause.clone(), var: n.var.clone() }));
        }
        let vars = super::members::Vars { locals: &mut self.p.functions[self.fi].locals, globals: &self.p.globals };
        let split = super::members::split_members(&mut body, &named, vars, &mut self.p.types, loc);
        self.members = split.units.into_iter().map(|u| (u.temp, u)).collect();
        self.whole_structs = split.whole_structs.into_iter().map(|w| (w.root, w)).collect();
        let member_inits = split.inits;
        if !is_kernels {
            self.lost_writes(&dir, &body);
        }
        let parts: Vec<(Stmt, bool)> = if is_kernels {
            let params: HashSet<LocalId> = self.p.functions[self.fi].params.iter().copied().collect();
            // A variable a data clause of the construct, an enclosing data construct or a
            // `declare` names is declared outside the region (a clause names only visible
            // variables, §2.6), even when the region holds all its uses: its device copy lives
            // across the kernels (issue 17: `create(s)` of a local array read across gangs by
            // the next loop).
            let local_root = |r: &VarRoot| match r {
                VarRoot::Local(l) => Some(*l),
                _ => None,
            };
            let named_locals: HashSet<LocalId> = named.iter().filter_map(|n| local_root(&n.var.root)).chain(self.declared.0.iter().filter_map(local_root)).collect();
            // A local is the region's when the region declares it ([`region_owned`]; issue
            // 17: an array declared before the region and used only in it was kept in one
            // kernel, its two loops unsynchronised).
            let inside = constructs_within(d, &body);
            let region = count_local_uses(&body);
            let host = &self.p.functions[self.fi];
            let owned = |l: &LocalId| region_owned(&host.locals, &self.p.types, *l, &inside, self.uses_all.get(l) == region.get(l));
            let internal = |l: &LocalId| !params.contains(l) && !named_locals.contains(l) && owned(l);
            let dcx = super::depend::DepCx { locals: &host.locals, types: &self.p.types, acc: &self.p.acc, purity: self.purity, kernel_uses: &HashMap::new() };
            let killed = |s: &Stmt, l: LocalId| {
                let o = match host.locals.get(l.0 as usize).map(|x| x.storage) {
                    Some(Storage::Register) => super::depend::Obj::Reg(l),
                    Some(Storage::Memory) => super::depend::Obj::Mem(l),
                    _ => return false,
                };
                host.locals.get(l.0 as usize).is_some_and(|x| self.p.types.is_scalar(x.ty)) && super::depend::killed_before_use(s, o, &dcx)
            };
            let (parts, per_part) = split_kernels(body, &internal, &killed);
            self.per_part = per_part;
            parts
        } else {
            vec![(body, false)]
        };
        let mut launches = member_inits;
        for (i, (part, single)) in parts.into_iter().enumerate() {
            let k = self.make_kernel(d, &dir, part, is_kernels, single, i, loc)?;
            launches.push(Stmt { kind: StmtKind::AccLaunch(k), loc });
        }
        Ok(Stmt { kind: StmtKind::Block(launches), loc })
    }

    /// For `accsim info`: a struct copied whole although a clause maps a member of it.
    fn whole_note(&self, root: VarRoot, ty: TypeId, mode: CaptureMode) -> Option<MemberCapture> {
        let w = self.whole_structs.get(&root).filter(|_| mode == CaptureMode::Present)?;
        Some(MemberCapture {
            ty,
            attr: format!(
                "present_or_copy of the whole struct (implicit, §2.6.1), although `{}` maps a member of it: the region uses it whole at line {}, so it is not reached member by member (§2.6.5), and its copy is partly present while the member is mapped (§2.6.4)",
                w.clause, w.at.line
            ),
        })
    }

    /// `lost-write` (a warning): a parallel region writes a scalar that is firstprivate only by
    /// default (§2.5.1) — each gang writes its own copy — and the host reads the variable after the
    /// region, where it still has its old value (the classic `sum += a[i]` without `reduction`).
    fn lost_writes(&mut self, dir: &AccDirective, body: &Stmt) {
        let mut named = clause_roots(dir);
        for e in &self.enclosing_data {
            named.extend(e.iter().copied());
        }
        named.extend(self.declared.0.iter().copied());
        // Reductions on loops inside the region also give the variable a clear attribute.
        let mut inner = HashMap::new();
        gang_reductions(body, &self.p.acc, &mut inner);
        // A reduction on a worker or vector loop only (no gang clause) combines the threads of a
        // gang into the gang's copy, which is firstprivate: it does not make the variable's
        // value come back (§2.7.11 reduces at the loop's own levels).
        let mut loop_reduced = HashSet::new();
        let mut below_gang: HashMap<VarRoot, Loc> = HashMap::new();
        walk_stmt(body, &mut |_| {}, &mut |st| {
            if let StmtKind::Acc { directive, .. } = &st.kind {
                if let Some(Some(d)) = self.p.acc.get(directive.0 as usize) {
                    let gang = d.clauses.iter().any(|c| matches!(c.kind, AccClauseKind::Gang { .. }));
                    let partitioned_below_gang = !gang && d.clauses.iter().any(|c| matches!(c.kind, AccClauseKind::Worker(_) | AccClauseKind::Vector(_)));
                    for c in &d.clauses {
                        match &c.kind {
                            AccClauseKind::Reduction { vars, .. } if partitioned_below_gang => {
                                for v in vars {
                                    below_gang.entry(v.root).or_insert(d.loc);
                                }
                            }
                            _ => loop_reduced.extend(clause_roots(&AccDirective { clauses: vec![c.clone()], ..d.clone() })),
                        }
                    }
                }
            }
        });
        let mut writes: Vec<(LocalId, Loc)> = Vec::new();
        let mut member_writes: Vec<(LocalId, Loc)> = Vec::new();
        let last = std::cell::Cell::new(0u32);
        walk_stmt(body, &mut |e| {
            last.set(last.get().max(e.loc.line));
            let target = match &e.kind {
                ExprKind::Assign { place, .. } | ExprKind::CompoundAssign { place, .. } | ExprKind::IncDec { place, .. } => match place {
                    Place::Local(l) => Some(*l),
                    Place::Mem(a) => match &a.kind {
                        ExprKind::LocalAddr(l) => Some(*l),
                        _ => None,
                    },
                },
                _ => None,
            };
            if let Some(l) = target {
                writes.push((l, e.loc));
            }
            // A scalar member reached on its own: the write goes through its register.
            if let ExprKind::Assign { place: Place::Mem(a), .. } | ExprKind::CompoundAssign { place: Place::Mem(a), .. } | ExprKind::IncDec { place: Place::Mem(a), .. } = &e.kind {
                if let ExprKind::Local(l) = &a.kind {
                    if self.members.contains_key(l) {
                        member_writes.push((*l, e.loc));
                    }
                }
            }
        }, &mut |st| last.set(last.get().max(st.loc.line)));
        let last_line = last.get();
        for (l, at) in member_writes {
            let Some(u) = self.members.get(&l) else { continue };
            if u.kind != super::members::UnitKind::Implicit || !self.p.types.is_scalar(u.ty) || self.p.types.is_pointer(u.ty) {
                continue;
            }
            let mut read_after = None;
            walk_stmt(&self.host_body, &mut |e| {
                if let ExprKind::Load(a) = &e.kind {
                    if e.loc.line > last_line && read_after.is_none() && super::members::member_at(a, &self.p.types) == Some((u.root_var, u.off)) {
                        read_after = Some(e.loc);
                    }
                }
            }, &mut |_| {});
            if let Some(read) = read_after {
                let name = &u.name;
                let mut d = Diagnostic::error(crate::finding::FindingKind::LostWrite.name(), format!("`{name}` is written inside the parallel region, but it is firstprivate there by default: the host never sees the write"), at)
                    .with_related(read, format!("the host reads `{name}` here and gets the value from before the region"))
                    .with_related(dir.loc, "the parallel construct (§2.5.1: scalars not in a data clause are firstprivate; clauses map members of the struct, so it is not copied whole, §2.6.5)")
                    .with_help(format!("to bring the value back, map the member with `copy({name})`"));
                d.severity = crate::diag::Severity::Warning;
                if !self.p.findings.iter().any(|f| f.primary == d.primary && f.kind == d.kind) {
                    self.p.findings.push(d);
                }
            }
        }
        let host = &self.p.functions[self.fi];
        let region_uses = count_local_uses(body);
        let counters = loop_counters(body, &self.p.acc);
        let mut reported = HashSet::new();
        for (l, at) in writes {
            let root = VarRoot::Local(l);
            if named.contains(&root) || loop_reduced.contains(&root) || inner.contains_key(&root) {
                continue;
            }
            let Some(local) = host.locals.get(l.0 as usize) else { continue };
            let scalar = self.p.types.is_scalar(local.ty);
            let declared_outside = self.uses_all.get(&l).copied().unwrap_or(0) > region_uses.get(&l).copied().unwrap_or(0);
            if !scalar || !declared_outside || local.role == LocalRole::Temporary {
                continue;
            }
            // One finding per variable and region: its first write (`for (i = 0; i < n; i++)`
            // writes `i` twice on one line).
            if reported.contains(&l) {
                continue;
            }
            // Read on the host after the region, before the host writes it again? A variable the
            // host re-initialises first (`for (i = 0; …)` after the region) lost nothing.
            let read_after = match first_host_access_after(&self.host_body, l, last_line, &self.p.acc) {
                HostAccess::Read(at) => Some(at),
                HostAccess::Write | HostAccess::None => None,
            };
            if let Some(read) = read_after {
                reported.insert(l);
                let name = &local.name;
                let d = if let Some(reduced_at) = below_gang.get(&root) {
                    Diagnostic::error(crate::finding::FindingKind::LostWrite.name(), format!("`{name}` is reduced by a worker or vector loop, but no gang-level reduction brings it out of the parallel region: it is firstprivate there by default, and the host never sees the result"), at)
                        .with_related(*reduced_at, format!("the `reduction` on this loop combines the threads of each gang into that gang's copy of `{name}` (§2.7.11)"))
                        .with_related(read, format!("the host reads `{name}` here and gets the value from before the region"))
                        .with_related(dir.loc, "the parallel construct (§2.5.1: scalars not in a data clause are firstprivate)")
                        .with_help(format!("add `reduction(op:{name})` to the gang loop or the parallel construct too"))
                } else if counters.contains(&l) {
                    Diagnostic::error(crate::finding::FindingKind::LostWrite.name(), format!("`{name}` is the counter of a loop in the parallel region, private to each thread there (§2.6.1): the host never sees its final value"), at)
                        .with_related(read, format!("the host reads `{name}` here and gets the value from before the region"))
                        .with_related(dir.loc, "the parallel construct")
                        .with_help(format!("compute the final value of `{name}` on the host, or set `{name}` before reading it"))
                } else {
                    Diagnostic::error(crate::finding::FindingKind::LostWrite.name(), format!("`{name}` is written inside the parallel region, but it is firstprivate there by default: the host never sees the write"), at)
                        .with_related(read, format!("the host reads `{name}` here and gets the value from before the region"))
                        .with_related(dir.loc, "the parallel construct (§2.5.1: scalars not in a data clause are firstprivate)")
                        .with_help(format!("if the region combines values into `{name}`, use `reduction(op:{name})`; to bring the value back, map it with `copy({name})`"))
                };
                let mut d = d;
                d.severity = crate::diag::Severity::Warning;
                if !self.p.findings.iter().any(|f| f.primary == d.primary && f.kind == d.kind) {
                    self.p.findings.push(d);
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn make_kernel(&mut self, d: DirectiveId, dir: &AccDirective, mut body: Stmt, is_kernels: bool, single: bool, part: usize, loc: Loc) -> Result<KernelId, Diagnostic> {
        let host = &self.p.functions[self.fi];
        let host_locals = host.locals.clone();
        let host_params: HashSet<LocalId> = host.params.iter().copied().collect();
        let host_name = host.name.clone();
        // Which host locals and globals the region uses.
        let mut uses_region = count_local_uses(&body);
        // The count locals of VLA types the region uses (`double A[n][m]`'s row count) that the
        // region itself never names: computed before it, so captured like any outside local.
        let named_in_region: HashSet<LocalId> = uses_region.keys().copied().collect();
        collect_vla_counts(&body, &self.p.types, &mut uses_region);
        let vla_counts_outside: HashSet<LocalId> = uses_region.keys().filter(|l| !named_in_region.contains(l)).copied().collect();
        // The counts of the variables' own types too: a private copy of `int tmp[p]` is
        // allocated with the size of its type (§2.7.10), whatever the body's expressions name.
        let used: Vec<LocalId> = uses_region.keys().copied().collect();
        for l in used {
            if let Some(local) = host_locals.get(l.0 as usize) {
                vla_counts(local.ty, &self.p.types, &mut uses_region);
            }
        }
        let mut globals = BTreeMap::new();
        collect_globals(&body, &mut globals);
        // A local that a data clause of this construct, of an enclosing data construct or of an
        // `enter data` names is declared outside the region (a clause names only visible
        // variables), even when no statement outside uses it: one device copy that every gang
        // shares (§2.6.5), never a variable of the thread (`create(t)` of a scratch array).
        let mapped_outside: HashSet<LocalId> = dir
            .clauses
            .iter()
            .filter_map(|c| match &c.kind {
                // A deviceptr pointer holds a device address: no device copy of it is made.
                AccClauseKind::Data(dc, vars) if *dc != DataClause::DevicePtr => Some(vars.iter().map(|v| v.root)),
                _ => None,
            })
            .flatten()
            .chain(self.enclosing_data.iter().flatten().copied())
            .chain(self.entered.iter().map(|n| n.var.root))
            .filter_map(|r| if let VarRoot::Local(l) = r { Some(l) } else { None })
            .collect();
        // An array or struct declared outside the construct is one device copy for all its
        // threads (§2.6), even when only this kernel uses it ([`region_owned`]; issue 17: an
        // array declared before a parallel region and used only in it was private to each
        // gang).
        let inside = constructs_within(d, &body);
        let external: Vec<LocalId> = {
            let mut v: Vec<LocalId> = uses_region
                .iter()
                .filter(|(l, n)| {
                    host_params.contains(l)
                        || !region_owned(&host_locals, &self.p.types, **l, &inside, true)
                        || self.members.contains_key(l)
                        || vla_counts_outside.contains(l)
                        || mapped_outside.contains(l)
                        || (self.uses_all.get(l).copied().unwrap_or(0) > **n && !self.per_part.contains(l))
                })
                .map(|(l, _)| *l)
                .collect();
            v.sort();
            v
        };
        let internal: Vec<LocalId> = {
            let mut v: Vec<LocalId> = uses_region.keys().filter(|l| !external.contains(l)).copied().collect();
            v.sort();
            v
        };

        // Clause-given attributes of the construct, and gang-loop reductions inside it.
        let mut attr: HashMap<VarRoot, CaptureMode> = HashMap::new();
        let mut mapped: HashSet<VarRoot> = HashSet::new();
        let mut subarrays: HashMap<VarRoot, AccVar> = HashMap::new();
        // Variables a data clause of the construct or of an enclosing data construct maps
        // through a subarray (item 2 of issue 12: `copy(a[0:50])` maps part of `a`, not all).
        // `deviceptr(p)` on the construct: `p` holds a device address, passed by value.
        let mut device_pointers: HashSet<VarRoot> = HashSet::new();
        let mut sectioned: HashSet<VarRoot> = self.enclosing_vars.iter().flatten().filter(|n| !n.var.sections.is_empty()).map(|n| n.var.root).collect();
        for c in &dir.clauses {
            match &c.kind {
                AccClauseKind::Reduction { op, vars } => vars.iter().for_each(|v| {
                    attr.insert(v.root, CaptureMode::Reduction(*op));
                }),
                AccClauseKind::Private(vars) => vars.iter().for_each(|v| {
                    attr.insert(v.root, CaptureMode::Private);
                    if !v.sections.is_empty() {
                        subarrays.insert(v.root, v.clone());
                    }
                }),
                AccClauseKind::FirstPrivate(vars) => vars.iter().for_each(|v| {
                    attr.insert(v.root, CaptureMode::FirstPrivate);
                    if !v.sections.is_empty() {
                        subarrays.insert(v.root, v.clone());
                    }
                }),
                // A `deviceptr` pointer already holds a device address: it is passed by value,
                // not mapped (§2.6.5.1: its target is already on the device; nothing is moved).
                AccClauseKind::Data(DataClause::DevicePtr, vars) => vars.iter().for_each(|v| {
                    device_pointers.insert(v.root);
                }),
                AccClauseKind::Data(_, vars) => vars.iter().for_each(|v| {
                    if v.sections.is_empty() {
                        mapped.insert(v.root);
                    } else {
                        sectioned.insert(v.root);
                    }
                }),
                _ => {}
            }
        }
        gang_reductions(&body, &self.p.acc, &mut attr);
        // §2.5.1/§2.5.2: the implicit attributes are only for variables that do not appear "in a
        // data clause for the construct or any enclosing data construct" — the *lexically*
        // containing ones (§2.5.1's first paragraph). A scalar mapped there is used through its
        // device copy, so that the construct's updates reach the copy the data region copies
        // out. A function-scope `declare` counts as such a construct around the rest of the
        // function (§2.10: "exactly the same behavior as having an explicit data construct
        // surrounding the body"; `declared`). A scalar mapped only by a caller's data region, an
        // `enter data` or a file-scope `declare` is not named by such a clause: it is
        // firstprivate in a parallel construct, as the text says and as gcc and nvc compile it
        // (both decide at compile time, from the lexical scope; the V&V suite's declare_create.c
        // relies on a `declare create(n)` global keeping its host value as a loop bound).
        // Decision reviewed in session 6 (conformance/RESULTS.md, "Decisions"). Pointers keep their translated value (the clause maps
        // what they point to, see `exec::compile::offload::BarePointer`).
        for roots in &self.enclosing_whole {
            mapped.extend(roots.iter().copied());
        }
        mapped.extend(self.declared.1.iter().copied());

        // default(none) (§2.5.12): every variable the region uses from outside must have its
        // data attribute given by a clause of the construct or of an enclosing data construct.
        if dir.clauses.iter().any(|c| matches!(c.kind, AccClauseKind::DefaultNone)) {
            let mut named = clause_roots(dir);
            for e in &self.enclosing_data {
                named.extend(e.iter().copied());
            }
            named.extend(self.declared.0.iter().copied());
            named.extend(self.members.values().filter(|u| u.clause.is_some()).map(|u| VarRoot::Local(u.temp)));
            // Temporaries and compound literals have no name in the source: no clause can name them.
            let missing: Vec<(String, Loc)> = external
                .iter()
                .filter(|l| !named.contains(&VarRoot::Local(**l)))
                .filter(|l| self.members.contains_key(l) || host_locals[l.0 as usize].role != LocalRole::Temporary)
                .map(|l| (self.members.get(l).map_or_else(|| host_locals[l.0 as usize].name.clone(), |u| u.name.clone()), host_locals[l.0 as usize].loc))
                .chain(
                    globals
                        .keys()
                        .filter(|g| !named.contains(&VarRoot::Global(**g)) && self.p.globals[g.0 as usize].origin != GlobalOrigin::CompoundLiteral)
                        .map(|g| (self.p.globals[g.0 as usize].name.clone(), self.p.globals[g.0 as usize].loc)),
                )
                .collect();
            if let Some((name, decl)) = missing.first() {
                let others = if missing.len() > 1 {
                    format!(" (and {})", missing[1..].iter().map(|(n, _)| format!("`{n}`")).collect::<Vec<_>>().join(", "))
                } else {
                    String::new()
                };
                return Err(Diagnostic::error(
                    "default-none",
                    format!("`{name}`{others} is used in a construct with `default(none)` but no clause gives its data attribute (§2.5.12)"),
                    dir.loc,
                )
                .with_related(*decl, format!("`{name}` is declared here"))
                .with_help(format!("name `{name}` in a data clause (copy, copyin, present…), firstprivate, private or reduction")));
            }
        }
        let mut locals: Vec<Local> = Vec::new();
        let long = self.p.types.intern(Type::Int(IntType::LONG));
        for n in crate::ir::acc::KernelParams::NAMES {
            locals.push(Local { name: n.into(), ty: long, storage: Storage::Register, loc, role: LocalRole::LaunchParam, copy_of: None, declared_in: None });
        }
        // The execution-model parameters (`KernelParams::FIXED`), then one per capture.
        let fixed = crate::ir::acc::KernelParams::FIXED;
        let mut params: Vec<LocalId> = vec![fixed.gang, fixed.num_gangs, fixed.num_workers, fixed.vector_length];
        let mut captures = Vec::new();
        let mut map = Remap::default();
        for l in &external {
            let hl = &host_locals[l.0 as usize];
            let root = VarRoot::Local(*l);
            if let Some(u) = self.members.get(l) {
                let id = LocalId(locals.len() as u32);
                locals.push(Local { name: hl.name.clone(), ty: hl.ty, storage: Storage::Register, loc: hl.loc, role: hl.role, copy_of: hl.copy_of.clone(), declared_in: hl.declared_in });
                map.value.insert(*l, id);
                params.push(id);
                // §2.5.1/§2.5.2 for the member's own type; a mapped member is present.
                let aggregate = matches!(self.p.types.get(u.ty), Type::Array(..) | Type::Record(_) | Type::Complex(_));
                let implicit = match (aggregate, is_kernels) {
                    (true, _) => "present_or_copy (implicit for an aggregate, §2.6.1)",
                    (false, true) => "copy (implicit for a scalar in kernels, §2.5.2)",
                    (false, false) => "firstprivate, a copy per gang (implicit for a scalar in parallel, §2.5.1)",
                };
                let member = Some(MemberCapture { ty: u.ty, attr: u.attr(implicit) });
                let (source, mode) = match u.kind {
                    super::members::UnitKind::PointerValue | super::members::UnitKind::MappedSection => (CaptureSource::Local(*l), CaptureMode::Value),
                    super::members::UnitKind::MappedWhole => (CaptureSource::Deref(*l), CaptureMode::Present),
                    super::members::UnitKind::Implicit if aggregate || is_kernels => (CaptureSource::Deref(*l), CaptureMode::Present),
                    super::members::UnitKind::Implicit => (CaptureSource::Deref(*l), CaptureMode::FirstPrivate),
                };
                let ty = if source == CaptureSource::Local(*l) { hl.ty } else { u.ty };
                captures.push(Capture { source, mode, ty, name: u.name.clone(), subarray: None, member, mapped_part: false, implicit_pointer: false });
                continue;
            }
            let aggregate = matches!(self.p.types.get(hl.ty), Type::Array(..) | Type::Vla(..) | Type::Record(_) | Type::Complex(_));
            let is_ptr = self.p.types.is_pointer(hl.ty);
            let mode = match attr.get(&root) {
                Some(m) => *m,
                None if hl.storage == Storage::Register => CaptureMode::Value,
                None if aggregate || (!is_ptr && (mapped.contains(&root) || is_kernels)) => CaptureMode::Present,
                // Pointers are firstprivate, translated to the device copy of their target, also
                // when a clause names them whole: the clause maps their target (item 7 of issue
                // 12, `data_plans`), or under --strict-2.0 the pointer, whose device copy would
                // hold the host address all the same.
                None => CaptureMode::FirstPrivate,
            };
            let implicit_pointer = is_ptr && !attr.contains_key(&root) && !mapped.contains(&root) && !sectioned.contains(&root) && !device_pointers.contains(&root);
            let id = LocalId(locals.len() as u32);
            if mode == CaptureMode::Value || hl.storage == Storage::Register {
                // Register locals are always captured by value; a reduction or private clause on
                // one still gives each gang its own slot, which is what a register param is.
                locals.push(Local { name: hl.name.clone(), ty: hl.ty, storage: Storage::Register, loc: hl.loc, role: hl.role, copy_of: hl.copy_of.clone(), declared_in: hl.declared_in });
                map.value.insert(*l, id);
                captures.push(Capture {
                    source: CaptureSource::Local(*l),
                    mode: if hl.storage == Storage::Register { CaptureMode::Value } else { mode },
                    ty: hl.ty,
                    name: hl.name.clone(),
                    subarray: None,
                    member: None,
                    mapped_part: false,
                    implicit_pointer,
                });
            } else {
                let pty = self.p.types.intern(Type::Pointer(hl.ty));
                locals.push(Local { name: format!("&{}", hl.name), ty: pty, storage: Storage::Register, loc: hl.loc, role: LocalRole::CaptureAddress, copy_of: None, declared_in: None });
                map.addr.insert(*l, id);
                let mapped_part = mode == CaptureMode::Present && aggregate && sectioned.contains(&root) && !mapped.contains(&root);
                captures.push(Capture { source: CaptureSource::Local(*l), mode, ty: hl.ty, name: hl.name.clone(), subarray: subarrays.get(&root).cloned(), member: self.whole_note(root, hl.ty, mode), mapped_part, implicit_pointer });
            }
            params.push(id);
        }
        for g in globals.keys() {
            let gl = &self.p.globals[g.0 as usize];
            let root = VarRoot::Global(*g);
            let aggregate = matches!(self.p.types.get(gl.ty), Type::Array(..) | Type::Record(_) | Type::Complex(_));
            let is_ptr = self.p.types.is_pointer(gl.ty);
            let mode = match attr.get(&root) {
                Some(m) => *m,
                None if aggregate || (!is_ptr && (mapped.contains(&root) || is_kernels)) => CaptureMode::Present,
                None => CaptureMode::FirstPrivate,
            };
            let pty = self.p.types.intern(Type::Pointer(gl.ty));
            let id = LocalId(locals.len() as u32);
            locals.push(Local { name: format!("&{}", gl.name), ty: pty, storage: Storage::Register, loc: gl.loc, role: LocalRole::CaptureAddress, copy_of: None, declared_in: None });
            map.global.insert(*g, id);
            let mapped_part = mode == CaptureMode::Present && aggregate && sectioned.contains(&root) && !mapped.contains(&root);
            let implicit_pointer = is_ptr && !attr.contains_key(&root) && !mapped.contains(&root) && !sectioned.contains(&root) && !device_pointers.contains(&root);
            captures.push(Capture { source: CaptureSource::Global(*g), mode, ty: gl.ty, name: gl.name.clone(), subarray: subarrays.get(&root).cloned(), member: self.whole_note(root, gl.ty, mode), mapped_part, implicit_pointer });
            params.push(id);
        }
        for l in &internal {
            let hl = host_locals[l.0 as usize].clone();
            map.value.insert(*l, LocalId(locals.len() as u32));
            locals.push(hl);
        }
        let clause_vars = super::schedule::ClauseVars::from_remap(&map);
        // The region in host names, where the default gang count's loop bounds are read.
        let region_in_host_names = body.clone();
        // VLA types name their count locals: remap them too.
        rewrite_stmt(&mut body, &map, &mut self.p.types);
        for l in locals.iter_mut() {
            l.ty = remap_type(l.ty, &map, &mut self.p.types);
        }

        let num = |k: fn(&AccClauseKind) -> Option<&Expr>| dir.clauses.iter().find_map(|c| k(&c.kind)).cloned();
        // In a kernels region the arguments of a loop's gang, worker and vector clauses give its
        // kernel's shape (§2.7.2–§2.7.4); on a parallel construct num_gangs, num_workers and
        // vector_length do (§2.5.1).
        let shape = if is_kernels && !single { loop_shape(&body, &self.p.acc, &internal) } else { LoopShape::default() };
        let mut kernel = Kernel {
            directive: d,
            func: FuncId(0),
            captures,
            num_gangs: if single { None } else { num(|k| if let AccClauseKind::NumGangs(e) = k { Some(e) } else { None }).or(shape.gangs) },
            num_workers: if single { None } else { num(|k| if let AccClauseKind::NumWorkers(e) = k { Some(e) } else { None }).or(shape.workers) },
            vector_length: if single { None } else { num(|k| if let AccClauseKind::VectorLength(e) = k { Some(e) } else { None }).or(shape.vector_length) },
            gang_loop: None,
            loc,
            single,
        };
        let mut loops = Vec::new();
        // Worker- and vector-level reduction partials are combined into the gang's variable by
        // each thread when its share ends (§2.7.11): an atomic update, so that neither the
        // checker nor a GPU sees a race between the combining threads.
        let combine = DirectiveId(self.p.acc.len() as u32);
        self.p.acc.push(Some(AccDirective {
            kind: AccKind::Atomic(crate::directive::AtomicKind::Update),
            clauses: Vec::new(),
            loc,
        }));
        // `acc` and `directives` are indexed alike: the combine has a site with no source text.
        self.p.directives.push(DirectiveSite { text: String::new(), loc });
        let mut fast_locals = locals.clone();
        let fast_body = {
            let mut b = Builder { types: &mut self.p.types, locals: &mut fast_locals, loc };
            let mut scratch = Vec::new();
            super::schedule::schedule_kernel(body.clone(), &mut b, &self.p.acc, &clause_vars, is_kernels, self.purity, self.routines, combine, true, &mut scratch)
                .ok()
                .and_then(|(s, used)| used.then_some(s))
        };
        let plan_body = body.clone();
        let body = {
            let mut b = Builder { types: &mut self.p.types, locals: &mut locals, loc };
            super::schedule::schedule_kernel(body, &mut b, &self.p.acc, &clause_vars, is_kernels, self.purity, self.routines, combine, false, &mut loops).map_err(|(m, l)| Diagnostic::error("directive", m, l))?.0
        };
        let plan = super::footprint::plan_kernel(&plan_body, &mut self.p.types, &locals, &kernel.captures, &loops, &self.p.acc, &clause_vars, self.purity).map(std::sync::Arc::new);
        let body = super::promote::promote_read_only_captures(body, &params, &kernel.captures, &mut locals, &self.p.types);
        let fast_body = fast_body.map(|fb| super::promote::promote_read_only_captures(fb, &params, &kernel.captures, &mut fast_locals, &self.p.types));
        // Without a gang-partitioned loop, a kernels part runs once (§2.5.2 has no gang-redundant
        // mode), and a parallel region without `num_gangs` runs on one gang (§2.5.1 leaves the count
        // to the implementation; nvc, gcc and the V&V suite use one).
        if !loops.iter().any(|l| l.gang) && (is_kernels || kernel.num_gangs.is_none()) {
            let long = self.p.types.intern(Type::Int(IntType::LONG));
            kernel.num_gangs = Some(Expr { kind: ExprKind::Int(1), ty: long, loc });
        }
        // Without `num_gangs`, the count follows the first gang loop's iterations when they are
        // known at entry (§2.5.6, `gang_count`).
        if let (None, Some(first)) = (&kernel.num_gangs, loops.iter().find(|l| l.gang)) {
            let renewed = attr.iter().filter(|(_, m)| matches!(m, CaptureMode::Private | CaptureMode::Reduction(_))).filter_map(|(r, _)| if let VarRoot::Local(l) = r { Some(*l) } else { None });
            let excluded = renewed.chain(self.members.keys().copied()).collect();
            let vars = super::gang_count::RegionVars { external: &external, excluded };
            let mut scratch = host_locals.clone();
            let mut b = Builder { types: &mut self.p.types, locals: &mut scratch, loc };
            kernel.gang_loop = super::gang_count::gang_loop_iterations(&region_in_host_names, first.loc, first.collapse, &self.p.acc, &vars, &mut b);
        }
        let void = self.p.types.intern(Type::Void);
        let param_tys: Vec<TypeId> = params.iter().map(|l| locals[l.0 as usize].ty).collect();
        let fty = self.p.types.intern(Type::Function(FuncSig { ret: void, params: param_tys, variadic: false, unprototyped: false }));
        let line = loc.line;
        let name = if part == 0 { format!("{host_name}$acc{line}") } else { format!("{host_name}$acc{line}_{part}") };
        // A kernel comes from where its compute construct is.
        let origin = self.p.functions[self.fi].origin;
        let fid = FuncId(self.p.functions.len() as u32);
        let mut fast = None;
        if let Some(fb) = fast_body {
            let fast_name = format!("{name}$fast");
            self.p.functions.push(Function { name: fast_name, ty: fty, ret: void, params: params.clone(), locals: fast_locals, body: fb, variadic: false, loc, origin });
            fast = Some(fid);
        }
        let fid = FuncId(self.p.functions.len() as u32);
        self.p.functions.push(Function { name, ty: fty, ret: void, params, locals, body, variadic: false, loc, origin });
        kernel.func = fid;
        let kid = KernelId(self.p.kernels.len() as u32);
        self.p.kernels.push(kernel);
        self.kernels.push(super::KernelInfo { plan, fast, loops });
        Ok(kid)
    }
}

/// The launch shape the loops of a kernels part ask for: the argument of the first `gang(n)`,
/// `worker(n)` and `vector(n)` clause (§2.7.2–§2.7.4: in a kernels region it is the number of
/// gangs, the number of workers per gang and the vector length of the loop's kernel).
#[derive(Default)]
struct LoopShape {
    gangs: Option<Expr>,
    workers: Option<Expr>,
    vector_length: Option<Expr>,
}

/// The [`LoopShape`] of the loop directives in kernel `body`. The arguments are evaluated on the
/// host when the kernel is launched, so an argument that reads a variable declared inside the
/// region (`internal`) has no value there and is left to the implementation.
fn loop_shape(body: &Stmt, acc: &[Option<AccDirective>], internal: &[LocalId]) -> LoopShape {
    let mut shape = LoopShape::default();
    let host_evaluable = |e: &Expr| {
        let mut ok = true;
        crate::ir::visit::visit_exprs(e, &mut |x| {
            if let ExprKind::Local(l) | ExprKind::LocalAddr(l) = &x.kind {
                ok &= !internal.contains(l);
            }
        });
        ok
    };
    walk_stmt(body, &mut |_| {}, &mut |st| {
        let StmtKind::Acc { directive, .. } = &st.kind else { return };
        let Some(Some(d)) = acc.get(directive.0 as usize) else { return };
        if !matches!(d.kind, AccKind::Loop) {
            return;
        }
        for c in &d.clauses {
            let (slot, arg) = match &c.kind {
                AccClauseKind::Gang { num: Some(e), .. } => (&mut shape.gangs, e),
                AccClauseKind::Worker(Some(e)) => (&mut shape.workers, e),
                AccClauseKind::Vector(Some(e)) => (&mut shape.vector_length, e),
                _ => continue,
            };
            if slot.is_none() && host_evaluable(arg) {
                *slot = Some(arg.clone());
            }
        }
    });
    shape
}

/// A `return`, a `break`/`continue` of a loop or switch outside `s`, or a `goto` to a label
/// outside `s`: the first one found, with its place.
fn branch_out(s: &Stmt) -> Option<(&'static str, Loc)> {
    let mut labels = HashSet::new();
    walk_stmt(s, &mut |_| {}, &mut |st| {
        if let StmtKind::Label(l) = &st.kind {
            labels.insert(*l);
        }
    });
    fn go(s: &Stmt, depth: u32, in_switch: u32, labels: &HashSet<LabelId>) -> Option<(&'static str, Loc)> {
        match &s.kind {
            StmtKind::Return(_) => Some(("return", s.loc)),
            StmtKind::Break if depth == 0 && in_switch == 0 => Some(("break", s.loc)),
            StmtKind::Continue if depth == 0 => Some(("continue", s.loc)),
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

/// The variables of a directive's data clauses, with each clause as written (`copy(s.v[0:n])`).
fn data_vars(d: &AccDirective) -> Vec<super::members::NamedVar> {
    let mut out = Vec::new();
    for c in &d.clauses {
        if let AccClauseKind::Data(_, vars) = &c.kind {
            out.extend(vars.iter().map(|v| super::members::NamedVar { clause: format!("{}({})", c.spelling, v.text), var: v.clone() }));
        }
    }
    out
}

/// The struct members named by the `enter data` and `declare` directives of a function body
/// (§2.6.4, §2.13); whole variables are left out (they say nothing about members).
fn entered_vars(body: &Stmt, acc: &[Option<AccDirective>]) -> Vec<super::members::NamedVar> {
    let mut out = Vec::new();
    walk_stmt(body, &mut |_| {}, &mut |st| {
        let StmtKind::Acc { directive, .. } = &st.kind else { return };
        if let Some(Some(d)) = acc.get(directive.0 as usize) {
            if matches!(d.kind, AccKind::EnterData | AccKind::Declare) {
                let what = d.kind.name();
                out.extend(data_vars(d).into_iter().filter(|n| n.var.root == VarRoot::Other).map(|mut n| {
                    n.clause = format!("{what} {}", n.clause);
                    n
                }));
            }
        }
    });
    out
}

/// The variables a directive's data clauses map whole (no subarray; `deviceptr` maps nothing).
fn whole_data_roots(d: &AccDirective) -> HashSet<VarRoot> {
    let mut out = HashSet::new();
    for c in &d.clauses {
        if let AccClauseKind::Data(dc, vars) = &c.kind {
            if *dc != DataClause::DevicePtr {
                out.extend(vars.iter().filter(|v| v.sections.is_empty() && v.root != VarRoot::Other).map(|v| v.root));
            }
        }
    }
    out
}

/// The variables a directive's clauses name.
/// The first access of host local `l` on the host after line `after`, for `lost-write`.
enum HostAccess {
    /// A read: the host sees the value from before the region.
    Read(Loc),
    /// A write on every path before any read (`i = 0`, `for (i = 0; …)`): nothing was lost.
    Write,
    None,
}

/// The first access of `l` in `s` (in execution order, as far as the structure says) at a line
/// after `after`. A write counts only where it runs on every path: in both branches of an `if`,
/// in a `for`'s initialisation, not in a loop body that may run no time; a read counts anywhere.
/// Code in compute constructs runs on the device: only its reads count (of the value the host
/// gives them).
fn first_host_access_after(s: &Stmt, l: LocalId, after: u32, acc: &[Option<AccDirective>]) -> HostAccess {
    let reads_only = |a: HostAccess| match a {
        HostAccess::Read(at) => HostAccess::Read(at),
        _ => HostAccess::None,
    };
    let expr = |e: &Expr| first_expr_access_after(e, l, after);
    match &s.kind {
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) | StmtKind::ZeroFill { addr: e, .. } => expr(e),
        StmtKind::Block(v) => v.iter().map(|x| first_host_access_after(x, l, after, acc)).find(|a| !matches!(a, HostAccess::None)).unwrap_or(HostAccess::None),
        StmtKind::If(c, t, e) => match expr(c) {
            HostAccess::None => {
                let t = first_host_access_after(t, l, after, acc);
                let e = e.as_ref().map_or(HostAccess::None, |e| first_host_access_after(e, l, after, acc));
                match (t, e) {
                    (HostAccess::Read(at), _) | (_, HostAccess::Read(at)) => HostAccess::Read(at),
                    (HostAccess::Write, HostAccess::Write) => HostAccess::Write,
                    _ => HostAccess::None,
                }
            }
            a => a,
        },
        StmtKind::While(c, b) => match expr(c) {
            HostAccess::None => reads_only(first_host_access_after(b, l, after, acc)),
            a => a,
        },
        StmtKind::DoWhile(b, c) => match first_host_access_after(b, l, after, acc) {
            HostAccess::None => expr(c),
            a => a,
        },
        StmtKind::For { init, cond, step, body } => {
            let init = init.as_ref().map_or(HostAccess::None, |i| first_host_access_after(i, l, after, acc));
            if !matches!(init, HostAccess::None) {
                return init;
            }
            if let Some(a) = cond.as_ref().map(expr).filter(|a| !matches!(a, HostAccess::None)) {
                return a;
            }
            match reads_only(first_host_access_after(body, l, after, acc)) {
                HostAccess::None => step.as_ref().map_or(HostAccess::None, |e| reads_only(expr(e))),
                a => a,
            }
        }
        StmtKind::Switch { cond, body, .. } => match expr(cond) {
            HostAccess::None => reads_only(first_host_access_after(body, l, after, acc)),
            a => a,
        },
        StmtKind::Acc { directive, body: Some(b) } => {
            let host_code = acc.get(directive.0 as usize).and_then(|d| d.as_ref()).is_some_and(|d| matches!(d.kind, AccKind::Data | AccKind::HostData));
            let a = first_host_access_after(b, l, after, acc);
            if host_code { a } else { reads_only(a) }
        }
        _ => HostAccess::None,
    }
}

/// [`first_host_access_after`] in an expression: a read of `l`, or a plain assignment to it whose
/// value does not read it, at a line after `after` (the first in the expression's pre-order).
fn first_expr_access_after(e: &Expr, l: LocalId, after: u32) -> HostAccess {
    let is_l = |p: &Place| match p {
        Place::Local(x) => *x == l,
        Place::Mem(a) => matches!(a.kind, ExprKind::LocalAddr(x) if x == l),
    };
    let mut first = HostAccess::None;
    crate::ir::visit::visit_exprs(e, &mut |x| {
        if !matches!(first, HostAccess::None) || x.loc.line <= after {
            return;
        }
        first = match &x.kind {
            ExprKind::Local(y) if *y == l => HostAccess::Read(x.loc),
            ExprKind::Load(a) if matches!(a.kind, ExprKind::LocalAddr(y) if y == l) => HostAccess::Read(x.loc),
            ExprKind::CompoundAssign { place, .. } | ExprKind::IncDec { place, .. } if is_l(place) => HostAccess::Read(x.loc),
            ExprKind::Assign { place, value } if is_l(place) => match first_expr_access_after(value, l, 0) {
                HostAccess::Read(at) => HostAccess::Read(at),
                _ => HostAccess::Write,
            },
            _ => HostAccess::None,
        };
    });
    first
}

/// The counters of the `loop` directives' loops in `body` (the `collapse`d ones included):
/// predetermined private (§2.6.1).
fn loop_counters(body: &Stmt, acc: &[Option<AccDirective>]) -> HashSet<LocalId> {
    let mut out = HashSet::new();
    walk_stmt(body, &mut |_| {}, &mut |st| {
        let StmtKind::Acc { directive, body: Some(inner) } = &st.kind else { return };
        let Some(Some(d)) = acc.get(directive.0 as usize) else { return };
        if !matches!(d.kind, AccKind::Loop) {
            return;
        }
        let collapse = d.clauses.iter().find_map(|c| if let AccClauseKind::Collapse(n) = c.kind { Some(n) } else { None }).unwrap_or(1);
        let mut cur: &Stmt = inner;
        for _ in 0..collapse {
            while let StmtKind::Block(v) = &cur.kind {
                match v.as_slice() {
                    [one] => cur = one,
                    _ => break,
                }
            }
            let StmtKind::For { init: Some(init), body, .. } = &cur.kind else { break };
            let mut init: &Stmt = init;
            while let StmtKind::Block(v) = &init.kind {
                match v.last() {
                    Some(last) => init = last,
                    None => break,
                }
            }
            if let StmtKind::Expr(Expr { kind: ExprKind::Assign { place, .. }, .. }) = &init.kind {
                match place {
                    Place::Local(x) => {
                        out.insert(*x);
                    }
                    Place::Mem(a) => {
                        if let ExprKind::LocalAddr(x) = a.kind {
                            out.insert(x);
                        }
                    }
                }
            }
            cur = body;
        }
    });
    out
}

fn clause_roots(d: &AccDirective) -> HashSet<VarRoot> {
    let mut out = HashSet::new();
    for c in &d.clauses {
        match &c.kind {
            AccClauseKind::Data(_, vars)
            | AccClauseKind::Private(vars)
            | AccClauseKind::FirstPrivate(vars)
            | AccClauseKind::Reduction { vars, .. }
            | AccClauseKind::UseDevice(vars) => out.extend(vars.iter().map(|v| v.root)),
            _ => {}
        }
    }
    out
}

fn is_loop_clause(k: &AccClauseKind) -> bool {
    matches!(
        k,
        AccClauseKind::Collapse(_)
            | AccClauseKind::Gang { .. }
            | AccClauseKind::Worker(_)
            | AccClauseKind::Vector(_)
            | AccClauseKind::Seq
            | AccClauseKind::Auto
            | AccClauseKind::Independent
            | AccClauseKind::Tile(_)
            | AccClauseKind::Private(_)
            | AccClauseKind::Reduction { .. }
    )
}

/// §2.5.2: a kernels region is split into one kernel per loop nest; the statements between loop
/// nests run as single-gang kernels. Returns (part, runs-on-one-gang), and the region's locals
/// that several parts use but each assigns before reading (a loop counter): each part gets its own.
fn split_kernels(body: Stmt, internal: &dyn Fn(&LocalId) -> bool, killed: &dyn Fn(&Stmt, LocalId) -> bool) -> (Vec<(Stmt, bool)>, HashSet<LocalId>) {
    let loc = body.loc;
    let items = match body.kind {
        StmtKind::Block(v) => v,
        other => vec![Stmt { kind: other, loc }],
    };
    let is_nest = |s: &Stmt| matches!(&s.kind, StmtKind::For { .. }) || matches!(&s.kind, StmtKind::Acc { body: Some(b), .. } if matches!(b.kind, StmtKind::For { .. }));
    if items.is_empty() {
        return (vec![(Stmt { kind: StmtKind::Block(items), loc }, true)], HashSet::new());
    }
    // Each loop nest is a kernel; the statements between them are single-gang kernels.
    let mut parts: Vec<(Stmt, bool)> = Vec::new();
    let mut pending: Vec<Stmt> = Vec::new();
    for s in items.iter().cloned() {
        if is_nest(&s) {
            if !pending.is_empty() {
                parts.push((Stmt { kind: StmtKind::Block(std::mem::take(&mut pending)), loc }, true));
            }
            parts.push((s, false));
        } else {
            pending.push(s);
        }
    }
    if !pending.is_empty() {
        parts.push((Stmt { kind: StmtKind::Block(pending), loc }, true));
    }
    // A local declared in the region and used by two parts would not survive between kernels:
    // keep such a region whole, unless every part that uses it assigns it first.
    let mut seen: HashMap<LocalId, usize> = HashMap::new();
    let mut per_part = HashSet::new();
    for (i, (p, _)) in parts.iter().enumerate() {
        let mut used: Vec<LocalId> = count_local_uses(p).keys().filter(|l| internal(l)).copied().collect();
        used.sort();
        for l in used {
            if let Some(&j) = seen.get(&l) {
                if j != i {
                    if killed(p, l) && killed(&parts[j].0, l) {
                        per_part.insert(l);
                        continue;
                    }
                    let any_nest = items.iter().any(is_nest);
                    return (vec![(Stmt { kind: StmtKind::Block(items), loc }, !any_nest)], HashSet::new());
                }
            }
            seen.insert(l, i);
        }
    }
    (parts, per_part)
}

/// The constructs whose statements are in `body`, and `d`, whose statement it is: a local
/// declared in one of them ([`crate::ir::Local::declared_in`]) is declared inside `d`.
fn constructs_within(d: DirectiveId, body: &Stmt) -> HashSet<DirectiveId> {
    let mut inside = HashSet::from([d]);
    walk_stmt(body, &mut |_| {}, &mut |st| {
        if let StmtKind::Acc { directive, .. } = &st.kind {
            inside.insert(*directive);
        }
    });
    inside
}

/// Whether local `l` belongs to the construct whose constructs are `inside`
/// ([`constructs_within`]) rather than to the code around it: declared inside it
/// ([`crate::ir::Local::declared_in`]), or a scalar declared outside that only the construct
/// uses (`only_inside`): no value flows into or out of it, so, as compilers privatise such a
/// scalar (a loop counter declared once at the top of the function), each thread keeps its own.
/// An array or struct declared outside is never the construct's: its device copy is shared
/// (§2.6), however few statements use it.
fn region_owned(locals: &[crate::ir::Local], types: &crate::ir::types::TypeTable, l: LocalId, inside: &HashSet<DirectiveId>, only_inside: bool) -> bool {
    let Some(local) = locals.get(l.0 as usize) else { return false };
    local.declared_in.is_some_and(|c| inside.contains(&c)) || (only_inside && types.is_scalar(local.ty))
}

/// Reductions on gang loops inside a parallel region reduce across gangs: the variable is a
/// reduction variable of the whole kernel (as nvc and gcc treat it).
fn gang_reductions(s: &Stmt, acc: &[Option<AccDirective>], attr: &mut HashMap<VarRoot, CaptureMode>) {
    walk_stmt(s, &mut |_| {}, &mut |st| {
        let StmtKind::Acc { directive, .. } = &st.kind else { return };
        let Some(Some(d)) = acc.get(directive.0 as usize) else { return };
        if !d.clauses.iter().any(|c| matches!(c.kind, AccClauseKind::Gang { .. })) {
            return;
        }
        for c in &d.clauses {
            if let AccClauseKind::Reduction { op, vars } = &c.kind {
                for v in vars {
                    attr.entry(v.root).or_insert(CaptureMode::Reduction(*op));
                }
            }
        }
    });
}

// ------------------------------------------------------------------ uses

/// Count references to each local in a statement.
pub(crate) fn count_local_uses(s: &Stmt) -> HashMap<LocalId, usize> {
    let m = std::cell::RefCell::new(HashMap::new());
    walk_stmt(s, &mut |e| match &e.kind {
        ExprKind::Local(l) | ExprKind::LocalAddr(l) => *m.borrow_mut().entry(*l).or_insert(0) += 1,
        ExprKind::Assign { place: Place::Local(l), .. } | ExprKind::CompoundAssign { place: Place::Local(l), .. } | ExprKind::IncDec { place: Place::Local(l), .. } => {
            *m.borrow_mut().entry(*l).or_insert(0) += 1
        }
        ExprKind::ComplexBinary { dst, .. } | ExprKind::ComplexNeg { dst, .. } | ExprKind::ComplexMake { dst, .. } => *m.borrow_mut().entry(*dst).or_insert(0) += 1,
        ExprKind::Call { result: Some(r), .. } => *m.borrow_mut().entry(*r).or_insert(0) += 1,
        _ => {}
    }, &mut |st| {
        if let StmtKind::VlaAlloc(l) = &st.kind {
            *m.borrow_mut().entry(*l).or_insert(0) += 1;
        }
    });
    m.into_inner()
}

/// The count locals that the VLA types mentioned in `s` name (`float V[n][p]` has a hidden local
/// holding `p`; indexing `V[i][j]` needs it for the row stride). They enter `m` with no uses of
/// their own, so that a count assigned outside the region (the VLA is declared before it, or is a
/// parameter) counts as used from outside and is captured by value, like any scalar the region
/// reads; a VLA declared inside the region assigns its count there and keeps it internal.
fn collect_vla_counts(s: &Stmt, types: &TypeTable, m: &mut HashMap<LocalId, usize>) {
    let mut tys = Vec::new();
    walk_stmt(s, &mut |e| {
        tys.push(e.ty);
        match &e.kind {
            ExprKind::PtrAdd { elem, .. } | ExprKind::PtrDiff { elem, .. } => tys.push(*elem),
            ExprKind::SizeOfDynamic(t) => tys.push(*t),
            _ => {}
        }
    }, &mut |_| {});
    for t in tys {
        vla_counts(t, types, m);
    }
}

fn vla_counts(t: TypeId, types: &TypeTable, m: &mut HashMap<LocalId, usize>) {
    match types.get(t) {
        Type::Vla(e, c) => {
            m.entry(*c).or_insert(0);
            vla_counts(*e, types, m);
        }
        Type::Array(e, _) | Type::Pointer(e) => vla_counts(*e, types, m),
        _ => {}
    }
}

fn collect_globals(s: &Stmt, out: &mut BTreeMap<GlobalId, ()>) {
    walk_stmt(s, &mut |e| {
        if let ExprKind::GlobalAddr(g) = &e.kind {
            out.insert(*g, ());
        }
    }, &mut |_| {});
}

/// Visit every expression and statement (pre-order), including inside initializers
/// ([`crate::ir::visit::walk`]).
pub fn walk_stmt(s: &Stmt, fe: &mut dyn FnMut(&Expr), fs: &mut dyn FnMut(&Stmt)) {
    crate::ir::visit::walk(s, true, fs, fe);
}

// ------------------------------------------------------------------ rewriting

#[derive(Default)]
pub(crate) struct Remap {
    /// Host local → kernel local of the same kind (register value or memory object).
    pub value: HashMap<LocalId, LocalId>,
    /// Host memory local → kernel register local holding its (device or private) address.
    pub addr: HashMap<LocalId, LocalId>,
    pub global: HashMap<GlobalId, LocalId>,
}

fn remap_type(t: TypeId, m: &Remap, types: &mut TypeTable) -> TypeId {
    match types.get(t).clone() {
        Type::Vla(e, c) => {
            let e2 = remap_type(e, m, types);
            let c2 = m.value.get(&c).copied().unwrap_or(c);
            types.intern(Type::Vla(e2, c2))
        }
        Type::Array(e, n) => {
            let e2 = remap_type(e, m, types);
            types.intern(Type::Array(e2, n))
        }
        Type::Pointer(e) => {
            let e2 = remap_type(e, m, types);
            types.intern(Type::Pointer(e2))
        }
        _ => t,
    }
}

fn map_local(l: &mut LocalId, m: &Remap) {
    if let Some(n) = m.value.get(l) {
        *l = *n;
    }
}

pub(crate) fn rewrite_stmt(s: &mut Stmt, m: &Remap, types: &mut TypeTable) {
    use crate::ir::visit::{stmt_parts_mut, PartMut};
    if let StmtKind::VlaAlloc(l) = &mut s.kind {
        map_local(l, m);
        return;
    }
    stmt_parts_mut(s, &mut |part| match part {
        PartMut::Stmt(x) => rewrite_stmt(x, m, types),
        PartMut::Expr(e) => rewrite_expr(e, m, types),
    });
}

fn rewrite_place(p: &mut Place, m: &Remap, types: &mut TypeTable) {
    match p {
        Place::Local(l) => map_local(l, m),
        Place::Mem(a) => rewrite_expr(a, m, types),
    }
}

pub(crate) fn rewrite_expr(e: &mut Expr, m: &Remap, types: &mut TypeTable) {
    e.ty = remap_type(e.ty, m, types);
    let r = |x: &mut Expr, types: &mut TypeTable| rewrite_expr(x, m, types);
    match &mut e.kind {
        ExprKind::Local(l) => map_local(l, m),
        ExprKind::LocalAddr(l) => {
            if let Some(a) = m.addr.get(l) {
                e.kind = ExprKind::Local(*a);
            } else {
                map_local(l, m);
            }
        }
        ExprKind::GlobalAddr(g) => {
            if let Some(a) = m.global.get(g) {
                e.kind = ExprKind::Local(*a);
            }
        }
        ExprKind::Load(a) | ExprKind::Unary(_, a) | ExprKind::Cast(a) | ExprKind::VaStart(a) | ExprKind::VaArg(a) => r(a, types),
        ExprKind::Binary(_, a, b) | ExprKind::LogicalAnd(a, b) | ExprKind::LogicalOr(a, b) | ExprKind::Comma(a, b) | ExprKind::VaCopy(a, b) => {
            r(a, types);
            r(b, types);
        }
        ExprKind::PtrAdd { ptr, index, elem } => {
            r(ptr, types);
            r(index, types);
            *elem = remap_type(*elem, m, types);
        }
        ExprKind::PtrDiff { lhs, rhs, elem } => {
            r(lhs, types);
            r(rhs, types);
            *elem = remap_type(*elem, m, types);
        }
        ExprKind::SizeOfDynamic(t) => *t = remap_type(*t, m, types),
        ExprKind::ComplexBinary { lhs, rhs, dst, .. } => {
            r(lhs, types);
            r(rhs, types);
            map_local(dst, m);
        }
        ExprKind::ComplexCompare { lhs, rhs, .. } => {
            r(lhs, types);
            r(rhs, types);
        }
        ExprKind::ComplexNeg { value, dst } => {
            r(value, types);
            map_local(dst, m);
        }
        ExprKind::ComplexMake { re, im, dst } => {
            r(re, types);
            r(im, types);
            map_local(dst, m);
        }
        ExprKind::Cond(a, b, c) => {
            r(a, types);
            r(b, types);
            r(c, types);
        }
        ExprKind::Assign { place, value } | ExprKind::CompoundAssign { place, value, .. } => {
            rewrite_place(place, m, types);
            r(value, types);
        }
        ExprKind::IncDec { place, .. } => rewrite_place(place, m, types),
        ExprKind::Call { callee, args, result } => {
            if let Some(res) = result {
                map_local(res, m);
            }
            args.iter_mut().for_each(|a| r(a, types));
            if let Callee::Indirect(c) = callee {
                r(c, types);
            }
        }
        ExprKind::WithInit { init, value } | ExprKind::StmtExpr { body: init, value: Some(value) } => {
            init.iter_mut().for_each(|s| rewrite_stmt(s, m, types));
            r(value, types);
        }
        ExprKind::StmtExpr { body, value: None } => body.iter_mut().for_each(|s| rewrite_stmt(s, m, types)),
        ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Str(_) | ExprKind::FuncAddr(_) | ExprKind::ExternAddr(_) => {}
    }
}
