//! The levels of parallelism of `routine` procedures (§2.12.1) and the rules that follow from
//! them at compile time.
//!
//! A `routine gang|worker|vector|seq` procedure "contains, may contain, or may call" loops of that
//! level and below (§2.12.1.1–4). So:
//! - its body may not contain a loop of a higher level, nor call a routine of a higher level: a
//!   `seq` routine no gang, worker or vector loop; a `vector` routine no gang or worker loop; a
//!   `worker` routine no gang loop ([`check_program`], both sites);
//! - a call to it must run in the mode its level needs: a `gang` routine in gang-redundant mode
//!   (not inside any partitioned loop: "may not be called from within a loop that has a gang
//!   clause", and a worker or vector loop is inside gang-partitioned code or redundant with
//!   partitioned threads), a `worker` routine in worker-single mode (not in a worker or vector
//!   loop), a `vector` routine in vector-single mode (not in a vector loop). An explicit clause
//!   that breaks this is an error; an automatic schedule avoids the levels the call needs
//!   ([`RoutineLevels::call_levels`], used by `schedule`).
//!
//! Levels are taken from the clauses outside any `device_type` group. A function called from
//! device code without a `routine` directive has no level here: nothing is assumed about it.

use std::collections::HashMap;

use crate::diag::{Diagnostic, Loc};
use crate::ir::acc::*;
use crate::ir::*;

/// A routine's level of parallelism (§2.12.1): the highest loop level it may contain.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum RoutineLevel {
    Seq,
    Vector,
    Worker,
    Gang,
}

impl RoutineLevel {
    fn name(self) -> &'static str {
        match self {
            RoutineLevel::Seq => "seq",
            RoutineLevel::Vector => "vector",
            RoutineLevel::Worker => "worker",
            RoutineLevel::Gang => "gang",
        }
    }

    /// The loop levels that a call to a routine of this level may not be inside (and that the
    /// routine itself may use).
    fn loop_levels(self) -> LoopLevels {
        match self {
            RoutineLevel::Seq => LoopLevels::default(),
            RoutineLevel::Vector => LoopLevels { gang: false, worker: false, vector: true },
            RoutineLevel::Worker => LoopLevels { gang: false, worker: true, vector: true },
            RoutineLevel::Gang => LoopLevels { gang: true, worker: true, vector: true },
        }
    }
}

/// The C library-level function through which a routine learns the launch it runs in:
/// `__accsim_launch_dim(0..4)` is the calling thread's gang index, the number of gangs, of
/// workers and the vector length (0, 1, 1, 1 when the routine is called from host code). Set by
/// the interpreter at each gang's start (`exec`), written inline by the CUDA emitter.
pub const LAUNCH_DIM_FN: &str = "__accsim_launch_dim";

/// Which of gang, worker and vector a loop names, or a routine call needs.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct LoopLevels {
    pub gang: bool,
    pub worker: bool,
    pub vector: bool,
}

impl LoopLevels {
    /// The levels a loop directive (or combined construct) names explicitly.
    pub fn of_directive(d: &AccDirective) -> LoopLevels {
        let mut lv = LoopLevels::default();
        for c in &d.clauses {
            match c.kind {
                AccClauseKind::Gang { .. } => lv.gang = true,
                AccClauseKind::Worker(_) => lv.worker = true,
                AccClauseKind::Vector(_) => lv.vector = true,
                _ => {}
            }
        }
        lv
    }

    pub fn any(self) -> bool {
        self.gang || self.worker || self.vector
    }

    fn meet(self, o: LoopLevels) -> LoopLevels {
        LoopLevels { gang: self.gang && o.gang, worker: self.worker && o.worker, vector: self.vector && o.vector }
    }

    fn names(self) -> String {
        [(self.gang, "gang"), (self.worker, "worker"), (self.vector, "vector")].iter().filter(|(on, _)| *on).map(|(_, n)| *n).collect::<Vec<_>>().join(" ")
    }
}

/// The functions of a program that have a `routine` directive with a level, and where it is.
#[derive(Default, Debug)]
pub struct RoutineLevels {
    by_function: HashMap<FuncId, (RoutineLevel, Loc)>,
    by_extern: HashMap<ExternId, (RoutineLevel, Loc)>,
}

impl RoutineLevels {
    /// The routine directives of `p` (file scope), each applied to its function (§2.12.1: the
    /// named one, or the function declared next).
    pub fn of_program(p: &Program) -> RoutineLevels {
        let mut levels = RoutineLevels::default();
        for d in &p.file_scope_directives {
            let Some(Some(dir)) = p.acc.get(d.0 as usize) else { continue };
            if !matches!(dir.kind, AccKind::Routine(_)) {
                continue;
            }
            let level = dir.clauses.iter().find_map(|c| match c.kind {
                AccClauseKind::Gang { .. } => Some(RoutineLevel::Gang),
                AccClauseKind::Worker(_) => Some(RoutineLevel::Worker),
                AccClauseKind::Vector(_) => Some(RoutineLevel::Vector),
                AccClauseKind::Seq => Some(RoutineLevel::Seq),
                _ => None,
            });
            let (Some(level), Some(target)) = (level, routine_target(p, dir)) else { continue };
            match target {
                Callee::Direct(f) => {
                    levels.by_function.entry(f).or_insert((level, dir.loc));
                }
                Callee::Extern(x) => {
                    levels.by_extern.entry(x).or_insert((level, dir.loc));
                }
                Callee::Indirect(_) => {}
            }
        }
        levels
    }

    /// The level of the `routine` directive that applies to function `f`, if any.
    pub fn of_function(&self, f: FuncId) -> Option<RoutineLevel> {
        self.by_function.get(&f).map(|(level, _)| *level)
    }

    fn of_callee(&self, c: &Callee) -> Option<(RoutineLevel, Loc)> {
        match c {
            Callee::Direct(f) => self.by_function.get(f).copied(),
            Callee::Extern(x) => self.by_extern.get(x).copied(),
            Callee::Indirect(_) => None,
        }
    }

    /// The loop levels that the routine calls in `s` need for themselves: an automatically
    /// scheduled loop around them must leave these levels free (§2.12.1.1–3).
    pub fn call_levels(&self, s: &Stmt) -> LoopLevels {
        let mut lv = LoopLevels::default();
        if self.by_function.is_empty() && self.by_extern.is_empty() {
            return lv;
        }
        super::outline::walk_stmt(
            s,
            &mut |e| {
                if let ExprKind::Call { callee, .. } = &e.kind {
                    if let Some((level, _)) = self.of_callee(callee) {
                        let need = level.loop_levels();
                        lv = LoopLevels { gang: lv.gang || need.gang, worker: lv.worker || need.worker, vector: lv.vector || need.vector };
                    }
                }
            },
            &mut |_| {},
        );
        lv
    }
}

/// The function a `routine` directive applies to (§2.12.1): the named one, or else the function
/// defined or declared next after the directive in its file.
pub(crate) fn routine_target(p: &Program, dir: &AccDirective) -> Option<Callee> {
    let AccKind::Routine(name) = &dir.kind else { return None };
    match name {
        Some(n) => by_name(p, n),
        None => {
            // The next definition, prototype of a defined function, or declaration of an extern.
            let after = |l: &Loc| l.file == dir.loc.file && l.line > dir.loc.line;
            let defs = p.functions.iter().enumerate().map(|(i, f)| (f.loc, Callee::Direct(FuncId(i as u32))));
            let protos = p.prototypes.iter().map(|(f, l)| (*l, Callee::Direct(*f)));
            let externs = p.externs.iter().enumerate().map(|(i, x)| (x.loc, Callee::Extern(ExternId(i as u32))));
            defs.chain(protos).chain(externs).filter(|(l, _)| after(l)).min_by_key(|(l, _)| (l.line, l.col)).map(|(_, c)| c)
        }
    }
}

/// The function or extern named `n`.
pub(crate) fn by_name(p: &Program, n: &str) -> Option<Callee> {
    p.functions
        .iter()
        .position(|f| f.name == n)
        .map(|i| Callee::Direct(FuncId(i as u32)))
        .or_else(|| p.externs.iter().position(|x| x.name == n).map(|i| Callee::Extern(ExternId(i as u32))))
}

fn callee_name(p: &Program, c: &Callee) -> String {
    match c {
        Callee::Direct(f) => p.functions.get(f.0 as usize).map_or_else(String::new, |f| f.name.clone()),
        Callee::Extern(x) => p.externs.get(x.0 as usize).map_or_else(String::new, |x| x.name.clone()),
        Callee::Indirect(_) => String::new(),
    }
}

fn is_loop(d: &AccDirective) -> bool {
    matches!(d.kind, AccKind::Loop | AccKind::ParallelLoop | AccKind::KernelsLoop)
}

/// The compile-time rules of §2.12.1 on routine levels, each error with both sites.
pub fn check_program(p: &Program, levels: &RoutineLevels) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let directive = |id: DirectiveId| p.acc.get(id.0 as usize).and_then(|d| d.as_ref());
    for (fi, f) in p.functions.iter().enumerate() {
        // Inside the routine's own body: no loop or call above its level.
        if let Some((level, routine_loc)) = levels.by_function.get(&FuncId(fi as u32)).copied() {
            let allowed = level.loop_levels();
            let mut loop_diags = Vec::new();
            super::outline::walk_stmt(
                &f.body,
                &mut |e| {
                    let ExprKind::Call { callee, .. } = &e.kind else { return };
                    let Some((callee_level, callee_loc)) = levels.of_callee(callee) else { return };
                    if callee_level > level {
                        diags.push(
                            Diagnostic::error(
                                "routine",
                                format!("`{}` is a `routine {}` and `{}` a `routine {}`: a {} routine may not call a routine of a higher level (§2.12.1)", f.name, level.name(), callee_name(p, callee), callee_level.name(), level.name()),
                                e.loc,
                            )
                            .with_related(routine_loc, format!("`{}` is declared `routine {}` here", f.name, level.name()))
                            .with_related(callee_loc, format!("`{}` is declared `routine {}` here", callee_name(p, callee), callee_level.name())),
                        );
                    }
                },
                &mut |st| {
                    let StmtKind::Acc { directive: id, body: Some(_) } = &st.kind else { return };
                    let Some(d) = directive(*id).filter(|d| is_loop(d)) else { return };
                    let named = LoopLevels::of_directive(d);
                    let over = LoopLevels { gang: named.gang && !allowed.gang, worker: named.worker && !allowed.worker, vector: named.vector && !allowed.vector };
                    if over.any() {
                        loop_diags.push(
                            Diagnostic::error(
                                "routine",
                                format!("a `{}` loop in `routine {}` function `{}`: a {} routine may not contain a loop of a higher level (§2.12.1)", over.names(), level.name(), f.name, level.name()),
                                d.loc,
                            )
                            .with_related(routine_loc, format!("`{}` is declared `routine {}` here", f.name, level.name())),
                        );
                    }
                },
            );
            diags.append(&mut loop_diags);
        }
        // Anywhere: a call to a routine inside a loop that uses a level the routine needs.
        super::outline::walk_stmt(&f.body, &mut |_| {}, &mut |st| {
            let StmtKind::Acc { directive: id, body: Some(body) } = &st.kind else { return };
            let Some(d) = directive(*id).filter(|d| is_loop(d)) else { return };
            let named = LoopLevels::of_directive(d);
            if !named.any() {
                return;
            }
            super::outline::walk_stmt(
                body,
                &mut |e| {
                    let ExprKind::Call { callee, .. } = &e.kind else { return };
                    let Some((level, routine_loc)) = levels.of_callee(callee) else { return };
                    let clash = named.meet(level.loop_levels());
                    if clash.any() {
                        let mode = match level {
                            RoutineLevel::Gang => "gang-redundant mode, outside every partitioned loop",
                            RoutineLevel::Worker => "worker-single mode, outside worker and vector loops",
                            _ => "vector-single mode, outside vector loops",
                        };
                        diags.push(
                            Diagnostic::error(
                                "routine",
                                format!("`{}` is a `routine {}`, called inside a `{}` loop: a call to a {} routine must be in {mode} (§2.12.1)", callee_name(p, callee), level.name(), clash.names(), level.name()),
                                e.loc,
                            )
                            .with_related(d.loc, format!("the `{}` loop", clash.names()))
                            .with_related(routine_loc, format!("`{}` is declared `routine {}` here", callee_name(p, callee), level.name())),
                        );
                    }
                },
                &mut |_| {},
            );
        });
    }
    diags.sort_by_key(|d| d.primary.map(|l| (l.file, l.line, l.col)));
    diags.dedup_by(|a, b| a.primary == b.primary && a.message == b.message);
    diags
}

/// Schedule the `loop` directives of every `routine gang|worker|vector` function (§2.12.1) as
/// a kernel's loops are scheduled (`schedule::schedule_routine`): a gang loop in a routine gang
/// shares its iterations among the calling gangs (§2.12.1.1: the routine is called in
/// gang-redundant mode by all gangs, and its gang loops partition the work among them), a
/// worker or vector loop among the calling gang's workers or lanes. The routine reads the launch
/// it runs in through [`LAUNCH_DIM_FN`] on entry. `seq` routines and functions without loop
/// directives are left as they are (their loops run in the calling thread).
pub(crate) fn schedule_routines(p: &mut Program, purity: &super::depend::Purity, levels: &RoutineLevels, nfuncs: usize) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    for fi in 0..nfuncs.min(p.functions.len()) {
        let Some(level) = levels.of_function(FuncId(fi as u32)) else { continue };
        if level == RoutineLevel::Seq {
            continue;
        }
        let mut has_loop = false;
        super::outline::walk_stmt(&p.functions[fi].body, &mut |_| {}, &mut |st| {
            if let StmtKind::Acc { directive, body: Some(_) } = &st.kind {
                has_loop |= p.acc.get(directive.0 as usize).and_then(|d| d.as_ref()).is_some_and(|d| matches!(d.kind, AccKind::Loop));
            }
        });
        if !has_loop {
            continue;
        }
        let dim_fn = launch_dim_extern(p);
        let loc = p.functions[fi].loc;
        let combine = DirectiveId(p.acc.len() as u32);
        p.acc.push(Some(AccDirective {
            kind: AccKind::Atomic(crate::directive::AtomicKind::Update),
            clauses: Vec::new(),
            loc,
        }));
        // `acc` and `directives` are indexed alike: the combine has a site with no source text.
        p.directives.push(crate::ir::DirectiveSite { text: String::new(), loc });
        let own = level.loop_levels();
        let taken = LoopLevels { gang: !own.gang, worker: !own.worker, vector: !own.vector };
        let body = std::mem::replace(&mut p.functions[fi].body, Stmt { kind: StmtKind::Empty, loc });
        let mut locals = std::mem::take(&mut p.functions[fi].locals);
        let mut b = super::build::Builder { types: &mut p.types, locals: &mut locals, loc };
        let launch = crate::ir::acc::KernelParams::NAMES.map(|n| b.launch_param(n));
        let int = b.int_ty();
        let long = b.long_ty();
        let mut entry: Vec<Stmt> = Vec::new();
        for (i, l) in launch.iter().enumerate() {
            let arg = b.expr(ExprKind::Int(i as u64), int);
            let call = b.expr(ExprKind::Call { callee: Callee::Extern(dim_fn), args: vec![arg], result: None }, long);
            entry.push(b.set(*l, call));
        }
        let scheduled = super::schedule::schedule_routine(body.clone(), &mut b, &p.acc, purity, levels, combine, crate::ir::acc::KernelParams { gang: launch[0], num_gangs: launch[1], num_workers: launch[2], vector_length: launch[3] }, taken);
        match scheduled {
            Ok(s) => {
                entry.push(s);
                let block = b.block(entry);
                p.functions[fi].body = block;
            }
            Err((m, l)) => {
                diags.push(Diagnostic::error("directive", m, l));
                p.functions[fi].body = body;
            }
        }
        p.functions[fi].locals = locals;
    }
    diags
}

/// The extern [`LAUNCH_DIM_FN`] (`long (int)`), declared once.
fn launch_dim_extern(p: &mut Program) -> ExternId {
    if let Some(i) = p.externs.iter().position(|x| x.name == LAUNCH_DIM_FN) {
        return ExternId(i as u32);
    }
    let int = p.types.intern(Type::Int(IntType::INT));
    let long = p.types.intern(Type::Int(IntType::LONG));
    let ty = p.types.intern(Type::Function(FuncSig { ret: long, params: vec![int], variadic: false, unprototyped: false }));
    p.externs.push(Extern { name: LAUNCH_DIM_FN.into(), ty, loc: Loc::default() });
    ExternId(p.externs.len() as u32 - 1)
}
