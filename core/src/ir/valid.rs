//! Validation of an outlined program (as naga's `valid`): the structural rules every consumer of
//! the IR relies on are checked once, here, and the analysis results that travel with the IR are
//! gathered into a side table, [`ProgramInfo`], that the interpreter (its compile step and the
//! native-code engine), the CUDA emitter and the GUI take beside the [`Program`]: per kernel, its
//! access plan, the schedule chosen for each of its loops and its fast-share variant. The IR
//! itself holds no analysis results, so `ir` depends on no pass.
//!
//! The rules (a violation is an internal error of the front-end or of outlining, reported as a
//! diagnostic, never a panic):
//! - `Program::acc` and `Program::directives` are indexed alike; every `Acc` statement names a
//!   directive and every `AccLaunch` a kernel that exists;
//! - a kernel's function (and its fast variant) exists and takes the four [`KernelParams`]
//!   (register locals) and then one parameter per capture; the fast variant takes the same;
//! - a [`Partition`]'s thread variable is a register local of its function; inside a kernel
//!   function no partition has the gang level (a kernel function runs once per gang, §1.2);
//!   a partition holds partitions only of finer levels (gang ⊃ worker ⊃ vector, §2.7).

use std::sync::Arc;

use super::acc::{KernelId, KernelParams, Level, LoopInfo, Partition};
use super::visit::{stmt_parts, Part};
use super::*;
use crate::diag::Diagnostic;

/// What the passes after lowering learned about each kernel, indexed by [`KernelId`]. `Plan` is
/// the access-plan type of the analysis that made it (`kernel::footprint::AccessPlan`), which the
/// IR does not know.
#[derive(Debug)]
pub struct ProgramInfo<Plan> {
    pub kernels: Vec<KernelInfo<Plan>>,
}

/// The side-table entry of one kernel, made by outlining (`kernel::outline`) and stored by
/// [`validate`].
#[derive(Debug)]
pub struct KernelInfo<Plan> {
    /// What `accsim check` evaluates at each launch to prove the kernel race-free and list the
    /// bytes it touches, or why the kernel has none.
    pub plan: Result<Arc<Plan>, String>,
    /// The same kernel scheduled for unobserved simulation (see `kernel::schedule`, "Fast
    /// shares"): partitioned loops without per-thread state run as plain loops over each gang's
    /// block of iterations. `None` when it would be the same as the kernel's function.
    pub fast: Option<FuncId>,
    /// The schedule chosen for each partitioned loop of the kernel's function (`kernel::schedule`),
    /// in source order: for `accsim info`, the `--trace` loop events, the GUI and the CUDA emitter.
    pub loops: Vec<LoopInfo>,
}

impl<Plan> ProgramInfo<Plan> {
    /// The table of a program without kernels (built by hand, as the interpreter's own tests do).
    pub fn without_kernels() -> Self {
        ProgramInfo { kernels: Vec::new() }
    }

    /// Kernel `k`'s access plan, or why it has none.
    pub fn plan(&self, k: KernelId) -> Result<Arc<Plan>, String> {
        match self.kernels.get(k.0 as usize) {
            Some(info) => info.plan.clone(),
            None => Err("not planned".into()),
        }
    }

    /// Kernel `k`'s fast-share variant, if it has one.
    pub fn fast(&self, k: KernelId) -> Option<FuncId> {
        self.kernels.get(k.0 as usize).and_then(|info| info.fast)
    }

    /// The schedules of kernel `k`'s loops (empty for a kernel the table does not know).
    pub fn loops(&self, k: KernelId) -> &[LoopInfo] {
        self.kernels.get(k.0 as usize).map_or(&[], |info| info.loops.as_slice())
    }

    /// Every kernel function with its fast-share variant (the fast-kernel map), by kernel.
    pub fn fast_kernels<'a>(&'a self, p: &'a Program) -> impl Iterator<Item = (FuncId, FuncId)> + 'a {
        p.kernels.iter().zip(&self.kernels).filter_map(|(k, info)| Some((k.func, info.fast?)))
    }

    /// Every function outlined for a kernel: each kernel's function and its fast-share variant.
    pub fn kernel_functions<'a>(&'a self, p: &'a Program) -> impl Iterator<Item = FuncId> + 'a {
        p.kernels.iter().enumerate().flat_map(|(i, k)| std::iter::once(k.func).chain(self.fast(KernelId(i as u32))))
    }
}

/// Check `p` against the rules above and pair it with its kernels' analysis results (`kernels`,
/// by [`KernelId`], as outlining made them).
pub fn validate<Plan>(p: &Program, kernels: Vec<KernelInfo<Plan>>) -> Result<ProgramInfo<Plan>, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let mut bad = |what: String, loc: crate::diag::Loc| errors.push(Diagnostic::internal(format!("invalid IR: {what}"), Some(loc)));
    if p.acc.len() != p.directives.len() {
        bad(format!("{} lowered directives for {} directive sites", p.acc.len(), p.directives.len()), crate::diag::Loc::default());
    }
    if kernels.len() != p.kernels.len() {
        bad(format!("{} analysed kernels for {} kernels", kernels.len(), p.kernels.len()), crate::diag::Loc::default());
    }
    let mut kernel_funcs = std::collections::HashSet::new();
    for (k, info) in p.kernels.iter().zip(&kernels) {
        for f in std::iter::once(k.func).chain(info.fast) {
            kernel_funcs.insert(f);
            let Some(func) = p.functions.get(f.0 as usize) else {
                bad(format!("kernel function f{} does not exist", f.0), k.loc);
                continue;
            };
            if func.params.len() != 4 + k.captures.len() {
                bad(format!("kernel function `{}` takes {} parameters for {} captures", func.name, func.params.len(), k.captures.len()), k.loc);
            }
            let fixed = KernelParams::FIXED;
            for l in [fixed.gang, fixed.num_gangs, fixed.num_workers, fixed.vector_length] {
                if func.locals.get(l.0 as usize).is_none_or(|x| x.storage != Storage::Register) || func.params.get(l.0 as usize) != Some(&l) {
                    bad(format!("kernel function `{}`: parameter {} is not a register local", func.name, l.0), k.loc);
                }
            }
        }
    }
    for (fi, f) in p.functions.iter().enumerate() {
        let kernel = kernel_funcs.contains(&FuncId(fi as u32));
        check_stmt(p, f, kernel, &f.body, None, &mut bad);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(ProgramInfo { kernels })
}

fn check_stmt(p: &Program, f: &Function, kernel: bool, s: &Stmt, inside: Option<Level>, bad: &mut dyn FnMut(String, crate::diag::Loc)) {
    let mut inside = inside;
    match &s.kind {
        StmtKind::Acc { directive, .. } if p.acc.get(directive.0 as usize).is_none() => bad(format!("directive {} does not exist", directive.0), s.loc),
        StmtKind::AccLaunch(k) if p.kernels.get(k.0 as usize).is_none() => bad(format!("kernel {} does not exist", k.0), s.loc),
        StmtKind::Partition(part) => {
            check_partition(f, kernel, part, inside, s, bad);
            inside = Some(part.level);
        }
        _ => {}
    }
    // Statements inside expressions (initializers) hold no partitions; their directives are
    // checked like any other.
    stmt_parts(s, &mut |part| match part {
        Part::Stmt(x) => check_stmt(p, f, kernel, x, inside, bad),
        Part::Expr(e) => super::visit::visit_exprs(e, &mut |x| {
            for st in super::visit::expr_stmts(x) {
                check_stmt(p, f, kernel, st, inside, bad);
            }
        }),
    });
}

fn check_partition(f: &Function, kernel: bool, part: &Partition, inside: Option<Level>, s: &Stmt, bad: &mut dyn FnMut(String, crate::diag::Loc)) {
    if f.locals.get(part.var.0 as usize).is_none_or(|l| l.storage != Storage::Register) {
        bad(format!("`{}`: a partition's thread variable l{} is not a register local", f.name, part.var.0), s.loc);
    }
    if kernel && part.level == Level::Gang {
        bad(format!("`{}`: a gang partition inside a kernel function, which runs once per gang", f.name), s.loc);
    }
    if let Some(outer) = inside {
        if part.level <= outer {
            bad(format!("`{}`: a {:?} partition inside a {:?} partition", f.name, part.level, outer), s.loc);
        }
    }
}
