//! Loop scheduling (§2.7, §1.2): every `loop` directive of a kernel becomes explicit loops over the
//! iterations that the executing gang, worker and vector lane own.
//!
//! A kernel function runs once per gang, in gang-redundant mode: statements outside gang loops
//! execute in every gang. A gang-partitioned loop gives gang `g` of `G` the block of iterations
//! whose outermost index is in `[g*n/G, (g+1)*n/G)` (`gang(static:c)`: chunks of `c`, dealt
//! round robin). The fast shares (`accsim run`) and the faithful schedule (`accsim check`, the
//! GPU) give every gang the same iterations, so that the races `check` reports are those that
//! change what `run` prints (§1.2 leaves the mapping to the implementation). Inside a gang, code outside worker loops is worker-single and
//! code outside vector loops is vector-single: it runs once. A worker- or vector-partitioned loop
//! is rewritten as a loop over the participating workers (lanes) — executed one after the other,
//! a legal schedule because threads of a partitioned loop synchronise only at its end — each
//! running its share of the iterations with its own private and reduction copies, which are
//! combined into the original variable when the thread is done (§2.7.11).
//!
//! Loops must be in the canonical form OpenACC requires (`for (i = lb; i < ub; i += s)` with
//! `<`, `<=`, `>`, `>=` and a loop-invariant step); `collapse(n)` linearises n tightly nested loops;
//! `tile(…)` runs the same iterations as `collapse` over the tiled loops (the order of iterations
//! differs from a tiled schedule, which only racy programs can observe).

use crate::diag::Loc;
use crate::ir::acc::*;
use crate::ir::*;

use std::collections::{HashMap, HashSet};

use super::build::Builder;
use super::depend::{self, DepCx, Obj, Purity, Verdict};
use super::routine::{LoopLevels, RoutineLevels};

type SResult<T> = Result<T, (String, Loc)>;

#[derive(Clone, Copy, Default)]
struct Levels {
    gang: bool,
    worker: bool,
    vector: bool,
    /// Inside a loop of the kernel (partitioned or not).
    in_loop: bool,
}

struct Ctx<'a> {
    acc: &'a [Option<AccDirective>],
    /// Scheduling a `routine`'s device version rather than a compute construct: a data or
    /// `update` directive there is run by the calling thread on its local memory (§1.2: "the
    /// OpenACC directives may be executed by a host thread or an accelerator thread"), as before
    /// routine loops were scheduled; only a compute construct inside it is refused.
    in_routine: bool,
    is_kernels: bool,
    loops: &'a mut Vec<LoopInfo>,
    purity: &'a Purity,
    /// The `routine` levels of the program's functions: a loop around a call leaves free the
    /// levels the routine needs (§2.12.1).
    routines: &'a RoutineLevels,
    /// References to each local in the kernel body, for the dependence test: a scalar used only
    /// inside a loop can be privatised. Private copies made while scheduling are added.
    uses: HashMap<LocalId, usize>,
    /// The kernel is one loop nest and nothing else: an auto loop at its top may be
    /// gang-partitioned without running other statements redundantly (a kernels construct has
    /// no gang-redundant mode, §2.5.2).
    single_nest: bool,
    /// The `atomic update` directive that reduction combines of threads are wrapped in.
    combine_atomic: DirectiveId,
    /// Schedule fast shares; `fast_used`: at least one loop got one.
    fast: bool,
    fast_used: bool,
    /// The kernel locals of the variables the clauses name.
    vars: &'a ClauseVars,
    /// The locals holding the gang index, the gang count, the worker count and the vector
    /// length: a kernel's first four parameters, or in a routine the values the call runs with.
    launch: KernelParams,
}

/// Rewrite the loops of a kernel body (the parameters gang, num_gangs, num_workers,
/// vector_length are locals 0..4 of the kernel).
///
/// With `fast`, the shares of partitioned loops without per-thread state are plain loops over
/// blocks of iterations (see the module docs, "Fast shares").
pub(crate) fn schedule_kernel(body: Stmt, b: &mut Builder<'_>, acc: &[Option<AccDirective>], vars: &ClauseVars, is_kernels: bool, purity: &Purity, routines: &RoutineLevels, combine_atomic: DirectiveId, fast: bool, loops: &mut Vec<LoopInfo>) -> SResult<(Stmt, bool)> {
    let uses = super::outline::count_local_uses(&body);
    let single_nest = {
        let mut s = &body;
        while let StmtKind::Block(v) = &s.kind {
            match v.as_slice() {
                [one] => s = one,
                _ => break,
            }
        }
        matches!(&s.kind, StmtKind::For { .. }) || matches!(&s.kind, StmtKind::Acc { body: Some(b), .. } if matches!(b.kind, StmtKind::For { .. }))
    };
    let launch = KernelParams::FIXED;
    let mut cx = Ctx { acc, in_routine: false, is_kernels, loops, purity, routines, uses, single_nest, combine_atomic, fast, fast_used: false, vars, launch };
    let out = walk(body, b, &mut cx, Levels::default())?;
    Ok((out, cx.fast_used))
}

/// Rewrite the loops of a `routine gang|worker|vector` function (§2.12.1) as a kernel's are: the
/// routine's gang loops share their iterations among the gangs that call it (gang-redundant
/// mode, §2.12.1.1: "all gangs must execute the call"), its worker and vector loops among the
/// workers and lanes of the calling gang (§2.12.1.2–3). `launch` holds the locals that the
/// routine sets on entry to the calling thread's gang index, gang count, worker count and vector
/// length (on the host: gang 0 of 1, one worker, one lane, so every loop runs all its
/// iterations). Levels above the routine's own are taken by the caller (`outer`), so an
/// automatically scheduled loop uses only the routine's levels.
pub(crate) fn schedule_routine(body: Stmt, b: &mut Builder<'_>, acc: &[Option<AccDirective>], purity: &Purity, routines: &RoutineLevels, combine_atomic: DirectiveId, launch: KernelParams, taken: LoopLevels) -> SResult<Stmt> {
    let uses = super::outline::count_local_uses(&body);
    let mut loops = Vec::new();
    let vars = ClauseVars::own_locals(b.locals.len());
    let mut cx = Ctx { acc, in_routine: true, is_kernels: false, loops: &mut loops, purity, routines, uses, single_nest: false, combine_atomic, fast: false, fast_used: false, vars: &vars, launch };
    let outer = Levels { gang: taken.gang, worker: taken.worker, vector: taken.vector, in_loop: false };
    walk(body, b, &mut cx, outer)
}

fn walk(s: Stmt, b: &mut Builder<'_>, cx: &mut Ctx<'_>, outer: Levels) -> SResult<Stmt> {
    let loc = s.loc;
    let kind = match s.kind {
        StmtKind::Acc { directive, body } => {
            let d = cx.acc.get(directive.0 as usize).and_then(|d| d.clone());
            match (d, body) {
                (Some(d), Some(body)) if matches!(d.kind, AccKind::Loop) => return schedule_loop(LoopNode::Directive(&d), *body, b, cx, outer, loc),
                (Some(d), None) if matches!(d.kind, AccKind::Cache(_)) => StmtKind::Empty,
                (Some(d), _) if matches!(d.kind, AccKind::Parallel | AccKind::Kernels | AccKind::ParallelLoop | AccKind::KernelsLoop)
                    || (!cx.in_routine && matches!(d.kind, AccKind::Data | AccKind::HostData | AccKind::EnterData | AccKind::ExitData | AccKind::Update | AccKind::Wait(_) | AccKind::Declare)) =>
                {
                    return Err((format!("`{}` may not appear inside a compute construct (§2.5)", d.kind.name()), d.loc));
                }
                (_, body) => StmtKind::Acc { directive, body: match body {
                    Some(x) => Some(Box::new(walk(*x, b, cx, outer)?)),
                    None => None,
                } },
            }
        }
        StmtKind::Block(v) => StmtKind::Block(v.into_iter().map(|x| walk(x, b, cx, outer)).collect::<SResult<_>>()?),
        StmtKind::If(c, t, e) => StmtKind::If(c, Box::new(walk(*t, b, cx, outer)?), match e {
            Some(e) => Some(Box::new(walk(*e, b, cx, outer)?)),
            None => None,
        }),
        StmtKind::While(c, body) => StmtKind::While(c, Box::new(walk(*body, b, cx, Levels { in_loop: true, ..outer })?)),
        StmtKind::DoWhile(body, c) => StmtKind::DoWhile(Box::new(walk(*body, b, cx, Levels { in_loop: true, ..outer })?), c),
        StmtKind::For { init, cond, step, body } => {
            let s = Stmt { kind: StmtKind::For { init, cond, step, body }, loc };
            // In a kernels construct a loop without a directive is an auto loop (§2.7.6), when it
            // has the canonical form a loop directive needs (an integer counter).
            if cx.is_kernels && canon(s.clone(), b).is_ok_and(|c| b.types.is_integer(c.var_ty)) {
                return schedule_loop(LoopNode::Implicit { loc }, s, b, cx, outer, loc);
            }
            match s.kind {
                StmtKind::For { init, cond, step, body } => StmtKind::For { init, cond, step, body: Box::new(walk(*body, b, cx, Levels { in_loop: true, ..outer })?) },
                k => k,
            }
        }
        StmtKind::Switch { cond, body, cases, default } => StmtKind::Switch { cond, body: Box::new(walk(*body, b, cx, outer)?), cases, default },
        k => k,
    };
    Ok(Stmt { kind, loc })
}

/// A loop in OpenACC's canonical form.
pub(crate) struct Canon {
    pub place: Place,
    pub var_ty: TypeId,
    pub lb: Expr,
    pub ub: Expr,
    pub cmp: BinOp,
    pub step: Expr,
    pub pre: Vec<Stmt>,
    pub body: Stmt,
}

fn same_place(a: &Place, b: &Place) -> bool {
    match (a, b) {
        (Place::Local(x), Place::Local(y)) => x == y,
        (Place::Mem(x), Place::Mem(y)) => matches!((&x.kind, &y.kind), (ExprKind::LocalAddr(p), ExprKind::LocalAddr(q)) if p == q)
            || matches!((&x.kind, &y.kind), (ExprKind::Local(p), ExprKind::Local(q)) if p == q),
        _ => false,
    }
}

fn reads_place(e: &Expr, p: &Place) -> bool {
    let e = e.strip_casts();
    match (&e.kind, p) {
        (ExprKind::Local(l), Place::Local(m)) => l == m,
        (ExprKind::Load(a), Place::Mem(_)) => same_place(&Place::Mem(a.clone()), p),
        _ => false,
    }
}

pub(crate) fn canon(s: Stmt, b: &mut Builder<'_>) -> SResult<Canon> {
    let loc = s.loc;
    let bad = |what: &str| (format!("the loop after an OpenACC `loop` directive must be a `for` loop in canonical form ({what}) (§2.7)"), loc);
    let StmtKind::For { init, cond, step, body } = s.kind else { return Err(bad("not a `for` loop")) };
    let mut pre = Vec::new();
    let init = init.ok_or_else(|| bad("no initialization"))?;
    let assign = match init.kind {
        StmtKind::Expr(e) => e,
        StmtKind::Block(mut v) => {
            let last = v.pop().ok_or_else(|| bad("no initialization"))?;
            pre = v;
            match last.kind {
                StmtKind::Expr(e) => e,
                _ => return Err(bad("unexpected initialization")),
            }
        }
        _ => return Err(bad("unexpected initialization")),
    };
    let ExprKind::Assign { place, value: lb } = assign.kind else { return Err(bad("the initialization must assign the loop variable")) };
    let var_ty = assign.ty;
    if !b.types.is_integer(var_ty) && !b.types.is_pointer(var_ty) {
        return Err(bad("the loop variable must be an integer"));
    }
    let cond = cond.ok_or_else(|| bad("no loop condition"))?;
    let ExprKind::Binary(op, x, y) = cond.kind else { return Err(bad("the condition must compare the loop variable")) };
    let (cmp, ub) = if reads_place(&x, &place) {
        (op, *y)
    } else if reads_place(&y, &place) {
        let flipped = match op {
            BinOp::Lt => BinOp::Gt,
            BinOp::Le => BinOp::Ge,
            BinOp::Gt => BinOp::Lt,
            BinOp::Ge => BinOp::Le,
            o => o,
        };
        (flipped, *x)
    } else {
        return Err(bad("the condition must compare the loop variable"));
    };
    if !matches!(cmp, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge) {
        return Err(bad("the condition must be <, <=, > or >="));
    }
    let step = step.ok_or_else(|| bad("no increment"))?;
    let long = b.long_ty();
    let st = match step.kind {
        ExprKind::IncDec { place: p, delta, .. } if same_place(&p, &place) => b.c(delta as i64),
        ExprKind::CompoundAssign { op: o @ (BinOp::Add | BinOp::Sub), place: p, value, .. } if same_place(&p, &place) => {
            let v = b.cast(*value, long);
            if o == BinOp::Sub { b.expr(ExprKind::Unary(UnOp::Neg, Box::new(v)), long) } else { v }
        }
        ExprKind::Assign { place: p, value } if same_place(&p, &place) => match value.strip_casts().kind.clone() {
            ExprKind::Binary(BinOp::Add, a, c) if reads_place(&a, &place) => b.cast(*c, long),
            ExprKind::Binary(BinOp::Add, a, c) if reads_place(&c, &place) => b.cast(*a, long),
            ExprKind::Binary(BinOp::Sub, a, c) if reads_place(&a, &place) => {
                let v = b.cast(*c, long);
                b.expr(ExprKind::Unary(UnOp::Neg, Box::new(v)), long)
            }
            _ => return Err(bad("the increment must be i++, i--, i += s or i = i + s")),
        },
        _ => return Err(bad("the increment must be i++, i--, i += s or i = i + s")),
    };
    Ok(Canon { place, var_ty, lb: *lb, ub, cmp, step: st, pre, body: *body })
}

/// The innermost statement of a loop body, for collapse (skipping single-statement blocks).
pub(crate) fn single_inner(s: Stmt) -> Stmt {
    match s.kind {
        StmtKind::Block(mut v) if v.len() == 1 => single_inner(v.remove(0)),
        k => Stmt { kind: k, loc: s.loc },
    }
}

struct Dim {
    place: Place,
    var_ty: TypeId,
    lb: LocalId,
    st: LocalId,
    n: LocalId,
}

/// A loop the scheduler partitions.
#[derive(Clone, Copy)]
enum LoopNode<'d> {
    /// A loop under a `loop` directive (§2.7).
    Directive(&'d AccDirective),
    /// A loop of a kernels construct that no directive names: an auto loop (§2.7.6), scheduled
    /// as `loop` without clauses.
    Implicit { loc: Loc },
}

impl LoopNode<'_> {
    fn clauses(&self) -> &[AccClause] {
        match self {
            LoopNode::Directive(d) => &d.clauses,
            LoopNode::Implicit { .. } => &[],
        }
    }

    fn loc(&self) -> Loc {
        match self {
            LoopNode::Directive(d) => d.loc,
            LoopNode::Implicit { loc } => *loc,
        }
    }
}

fn schedule_loop(node: LoopNode<'_>, body: Stmt, b: &mut Builder<'_>, cx: &mut Ctx<'_>, outer: Levels, loc: Loc) -> SResult<Stmt> {
    let launch = cx.launch;
    let mut lv = Levels::default();
    let mut seq = false;
    let mut independent = false;
    let mut auto = false;
    let mut collapse = 1u32;
    let mut chunk: Option<Option<Expr>> = None;
    let mut reductions = Vec::new();
    let mut privates = Vec::new();
    for c in node.clauses() {
        match &c.kind {
            AccClauseKind::Gang { static_, .. } => {
                lv.gang = true;
                chunk = static_.clone();
            }
            AccClauseKind::Worker(_) => lv.worker = true,
            AccClauseKind::Vector(_) => lv.vector = true,
            AccClauseKind::Seq => seq = true,
            AccClauseKind::Auto => auto = true,
            AccClauseKind::Independent => independent = true,
            AccClauseKind::Collapse(n) => collapse = *n,
            AccClauseKind::Tile(t) => collapse = collapse.max(t.len() as u32),
            AccClauseKind::Reduction { op, vars } => reductions.extend(vars.iter().map(|v| (*op, v.clone()))),
            AccClauseKind::Private(vars) => privates.extend(vars.iter().cloned()),
            _ => {}
        }
    }
    if (lv.gang && (outer.gang || outer.worker || outer.vector)) || (lv.worker && (outer.worker || outer.vector)) || (lv.vector && outer.vector) {
        return Err(("this loop's gang/worker/vector level must be outside the loops it contains: a loop may not be partitioned at a level an enclosing loop already uses (§2.7); OpenUH's nested gang and vector loops: run with --dialect openuh".into(), node.loc()));
    }
    let mut seq_reason = None;
    let mut analysis = None;
    let mut privatize: Vec<(Obj, TypeId)> = Vec::new();
    // A loop without a directive (in a kernels construct) that cannot run in parallel is left as
    // it is: a sequential C loop, whose counter keeps its final value.
    let implicit = matches!(node, LoopNode::Implicit { .. });
    if seq {
        lv = Levels::default();
        seq_reason = Some("`seq` clause".to_string());
    } else if !lv.gang && !lv.worker && !lv.vector {
        let mut parallel = true;
        if cx.is_kernels && !independent {
            // §2.7.6: an auto loop of a kernels construct runs in parallel only if the
            // implementation proves its iterations independent.
            match dependence_test(&body, collapse, &reductions, &privates, b, cx) {
                Verdict::Parallel { privatize: p } => {
                    let names: Vec<String> = p.iter().map(|(o, _)| obj_name(*o, b)).collect();
                    analysis = Some(if names.is_empty() {
                        "loop parallelized: no loop-carried dependence".to_string()
                    } else {
                        format!("loop parallelized: no loop-carried dependence; private per iteration: {}", names.join(", "))
                    });
                    privatize = p;
                }
                Verdict::Sequential(why) => {
                    parallel = false;
                    seq_reason = Some(format!("loop not parallelized: {why}"));
                }
            }
        }
        if parallel {
            let _ = auto;
            // The implementation chooses (§2.7 `auto`/no level): levels free of the enclosing
            // loops and above every level a nested loop names explicitly.
            let (mut inner, mut nested) = inner_levels(&body, cx.acc);
            // A call to a `routine vector` needs vector-single mode, a `routine worker`
            // worker-single mode (§2.12.1.2–3): the routine's loops are nested loops here.
            let calls = cx.routines.call_levels(&body);
            if calls.any() {
                nested = true;
                inner.gang |= calls.gang;
                inner.worker |= calls.worker;
                inner.vector |= calls.vector;
            }
            if cx.is_kernels {
                // Plain loops nested in a kernels loop are auto loops too: leave them a level.
                if let StmtKind::For { body: inner_body, .. } = &body.kind {
                    super::outline::walk_stmt(inner_body, &mut |_| {}, &mut |st| nested |= matches!(st.kind, StmtKind::For { .. }));
                }
                // Gang partitioning only for the loop at the top of a kernel that is one loop
                // nest (other statements would run in every gang), and not for a reduction, whose
                // gang-level combination needs an explicit `gang` clause.
                let gang_ok = cx.single_nest && !outer.in_loop && !outer.gang && !inner.gang && reductions.is_empty();
                let vector_free = !outer.vector && !inner.vector;
                if gang_ok {
                    lv.gang = true;
                    lv.vector = !nested && vector_free;
                } else if !nested && vector_free {
                    lv.vector = true;
                } else if !outer.worker && !inner.worker && vector_free {
                    lv.worker = true;
                } else if vector_free {
                    lv.vector = true;
                }
            } else {
                let free_g = !outer.gang && !inner.gang;
                if !nested {
                    lv.gang = !outer.gang;
                    lv.vector = !outer.vector;
                } else if free_g {
                    lv.gang = true;
                } else if !outer.worker && !outer.vector && !inner.worker && !inner.vector {
                    lv.worker = true;
                } else if !outer.vector && !inner.vector {
                    lv.vector = true;
                }
            }
            if !lv.gang && !lv.worker && !lv.vector {
                seq_reason = Some("no free parallelism level left between the enclosing and nested loops".to_string());
            }
        }
    }
    if implicit && !lv.gang && !lv.worker && !lv.vector {
        cx.loops.push(LoopInfo { loc, gang: false, worker: false, vector: false, collapse: 1, seq_reason, analysis: None, temps: None });
        return match body.kind {
            StmtKind::For { init, cond, step, body: inner } => {
                let inner = walk(*inner, b, cx, Levels { in_loop: true, ..outer })?;
                Ok(Stmt { kind: StmtKind::For { init, cond, step, body: Box::new(inner) }, loc })
            }
            k => Ok(Stmt { kind: k, loc }),
        };
    }
    let info_index = cx.loops.len();
    cx.loops.push(LoopInfo { loc: node.loc(), gang: lv.gang, worker: lv.worker, vector: lv.vector, collapse, seq_reason, analysis, temps: None });

    // Canonicalise `collapse` nested loops.
    let long = b.long_ty();
    let mut setup = Vec::new();
    let mut dims = Vec::new();
    let mut cur = body;
    for level in 0..collapse {
        let c = canon(cur, b)?;
        setup.extend(c.pre);
        let lb = b.long_temp("__lb");
        let ub = b.long_temp("__ub");
        let st = b.long_temp("__step");
        let n = b.long_temp("__trip");
        let lbv = b.cast(c.lb, long);
        setup.push(b.set(lb, lbv));
        let ubv = b.cast(c.ub, long);
        setup.push(b.set(ub, ubv));
        setup.push(b.set(st, c.step));
        let trip = trip_count(b, lb, ub, st, c.cmp);
        setup.push(b.set(n, trip));
        dims.push(Dim { place: c.place, var_ty: c.var_ty, lb, st, n });
        cur = if level + 1 < collapse { single_inner(c.body) } else { c.body };
    }
    let inner_levels = Levels { gang: outer.gang || lv.gang, worker: outer.worker || lv.worker, vector: outer.vector || lv.vector, in_loop: true };
    let body = walk(cur, b, cx, inner_levels)?;

    // Total iterations.
    let total = b.long_temp("__iters");
    let mut prod = b.get(dims[0].n);
    for d in &dims[1..] {
        let n = b.get(d.n);
        prod = b.bin(BinOp::Mul, prod, n);
    }
    setup.push(b.set(total, prod));

    // Per-iteration: set each loop variable from the linear index k.
    let k = b.long_temp("__k");
    let mut iter = Vec::new();
    let mut rest = b.get(k);
    for (i, d) in dims.iter().enumerate().rev() {
        let idx = if i == 0 {
            rest.clone()
        } else {
            let n = b.get(d.n);
            let r = b.bin(BinOp::Rem, rest.clone(), n);
            let n2 = b.get(d.n);
            rest = b.bin(BinOp::Div, rest, n2);
            r
        };
        let lbv = b.get(d.lb);
        let stv = b.get(d.st);
        let off = b.bin(BinOp::Mul, idx, stv);
        let val = b.bin(BinOp::Add, lbv, off);
        let val = b.cast(val, d.var_ty);
        let e = b.expr(ExprKind::Assign { place: d.place.clone(), value: Box::new(val) }, d.var_ty);
        iter.push(b.stmt(StmtKind::Expr(e)));
    }
    iter.reverse();
    let plain_body = cx.fast.then(|| body.clone());
    iter.push(body);
    let iter_body = b.block(iter);

    // Private and reduction copies of the thread running a share of the loop, one per thread
    // of the loop's innermost level (of the enclosing one for a `seq` loop).
    let owner = if lv.vector || (!lv.worker && !lv.gang && outer.vector) {
        Level::Vector
    } else if lv.worker || (!lv.gang && outer.worker) {
        Level::Worker
    } else {
        Level::Gang
    };
    let mut thread_pre = Vec::new();
    let mut thread_post = Vec::new();
    let mut subst: Vec<(VarAccess, LocalId, bool)> = Vec::new();
    for v in &privates {
        if let Some(acc) = var_access(v, cx.vars, b) {
            let fresh = thread_copy(b, &acc, &iter_body, Some(v.name.clone()), owner);
            subst.push((acc, fresh, false));
        }
    }
    for (op, v) in &reductions {
        let Some(acc) = var_access(v, cx.vars, b) else { continue };
        let fresh = thread_copy(b, &acc, &iter_body, Some(v.name.clone()), owner);
        thread_pre.push(init_identity(b, *op, &acc, fresh)?);
        let combined = combine(b, *op, &acc, fresh)?;
        thread_post.push(b.stmt(StmtKind::Acc { directive: cx.combine_atomic, body: Some(Box::new(combined)) }));
        subst.push((acc, fresh, true));
    }
    // §2.6.1: the counter of a partitioned loop is private to the thread running an iteration
    // (and so are the scalars the dependence test privatised).
    if lv.gang || lv.worker || lv.vector {
        // A register counter is already the thread's own; one in memory (a host variable the
        // kernel captured, or one whose address is taken) is shared and needs a private copy.
        let mut own: Vec<VarAccess> = dims.iter().filter(|d| matches!(d.place, Place::Mem(_))).filter_map(|d| place_access(&d.place, b)).collect();
        own.extend(privatize.iter().map(|(o, ty)| obj_access(*o, *ty, b)));
        for acc in own {
            if !subst.iter().any(|(a, _, _)| same_access(a, &acc)) {
                let fresh = thread_copy(b, &acc, &iter_body, None, owner);
                subst.push((acc, fresh, false));
            }
        }
    }
    let mut vla_allocs = private_vla_allocs(b, &subst);
    vla_allocs.append(&mut thread_pre);
    let thread_pre = vla_allocs;
    let mut iter_body = iter_body;
    for (acc, fresh, _) in &subst {
        substitute_stmt(&mut iter_body, acc, *fresh, b);
    }
    let after = super::outline::count_local_uses(&iter_body);
    for (_, fresh, _) in &subst {
        cx.uses.insert(*fresh, after.get(fresh).copied().unwrap_or(0));
    }

    if let (Some(plain), false) = (plain_body, chunk.is_some()) {
        if lv.gang || lv.worker || lv.vector {
            // Fast share: gang g runs outermost iterations [g*n0/G, (g+1)*n0/G) (all of them
            // when the loop is not gang-partitioned) as plain nested loops; its workers and
            // lanes are one thread, with one set of private and reduction copies, combined
            // (atomically) when the share ends. Which thread runs an iteration is not
            // observable without an observer or checker (§1.2 leaves the mapping open), so a
            // race-free program computes exactly what the faithful schedule computes.
            cx.fast_used = true;
            let mut inner = plain;
            for (level, d) in dims.iter().enumerate().rev() {
                let idx = b.long_temp("__i");
                let lbv = b.get(d.lb);
                let iv = b.get(idx);
                let stv = b.get(d.st);
                let off = b.bin(BinOp::Mul, iv, stv);
                let val = b.bin(BinOp::Add, lbv, off);
                let val = b.cast(val, d.var_ty);
                let set = b.expr(ExprKind::Assign { place: d.place.clone(), value: Box::new(val) }, d.var_ty);
                let set = b.stmt(StmtKind::Expr(set));
                let body_d = b.block(vec![set, inner]);
                let (from, to) = if level == 0 && lv.gang {
                    let block = |b: &mut Builder<'_>, gang: Expr| {
                        let n = b.get(d.n);
                        let prod = b.bin(BinOp::Mul, gang, n);
                        let ng = b.get(launch.num_gangs);
                        b.bin(BinOp::Div, prod, ng)
                    };
                    let g0 = b.get(launch.gang);
                    let from = block(b, g0);
                    let g1 = b.get(launch.gang);
                    let one = b.c(1);
                    let next = b.bin(BinOp::Add, g1, one);
                    (from, block(b, next))
                } else {
                    (b.c(0), b.get(d.n))
                };
                let one = b.c(1);
                inner = b.count_loop(idx, from, to, one, body_d);
            }
            // The thread's private copies, in the loop variables' assignments too.
            for (acc, fresh, _) in &subst {
                substitute_stmt(&mut inner, acc, *fresh, b);
            }
            let mut share = thread_pre;
            share.push(inner);
            share.extend(thread_post);
            setup.push(b.block(share));
            return Ok(b.block(setup));
        }
    }

    // The share of the iterations: thread t of T takes k = t*c + j*T*c .. +c.
    let (g, ng) = if lv.gang { (b.get(launch.gang), b.get(launch.num_gangs)) } else { (b.c(0), b.c(1)) };
    let w = b.long_temp("__worker");
    let v = b.long_temp("__lane");
    let nw = if lv.worker { b.get(launch.num_workers) } else { b.c(1) };
    let nv = if lv.vector { b.get(launch.vector_length) } else { b.c(1) };
    let t = b.schedule_var("__thread", ScheduleVar::Thread);
    let tt = b.long_temp("__threads");
    if let Some(info) = cx.loops.get_mut(info_index) {
        info.temps = Some(LoopTemps { iteration: k, iterations: total, worker: w, lane: v });
    }
    let chunked = chunk.is_some();
    // A gang-partitioned loop without a `static` chunk gives gang g the block of iterations
    // whose outermost index is in [g*n0/G, (g+1)*n0/G): the same iterations as the fast share
    // above, so that `accsim check` sees the gangs that `accsim run` runs (§1.2 leaves the
    // mapping to the implementation; a racy program's output depends on it).
    let gang_range = (lv.gang && !chunked).then(|| {
        let from = b.long_temp("__gang_first");
        let to = b.long_temp("__gang_end");
        // Set before `__iters = …`, which stays the last statement of the setup (the CUDA loop
        // mappings find the share after it).
        let at = setup.len().saturating_sub(1);
        for (i, (var, gang)) in [(from, b.get(launch.gang)), (to, {
            let g = b.get(launch.gang);
            let one = b.c(1);
            b.bin(BinOp::Add, g, one)
        })]
        .into_iter()
        .enumerate()
        {
            let n0 = b.get(dims[0].n);
            let prod = b.bin(BinOp::Mul, gang, n0);
            let ng = b.get(launch.num_gangs);
            let mut first = b.bin(BinOp::Div, prod, ng);
            for d in &dims[1..] {
                let n = b.get(d.n);
                first = b.bin(BinOp::Mul, first, n);
            }
            let set = b.set(var, first);
            setup.insert(at + i, set);
        }
        (from, to)
    });
    let chunk_e = match chunk {
        Some(Some(e)) => b.cast(e, long),
        _ => b.c(1),
    };
    let c = b.long_temp("__chunk");
    let cstart = b.schedule_var("__chunk_start", ScheduleVar::ChunkStart);
    if !chunked && subst.is_empty() && (lv.worker || lv.vector) {
        // No per-thread state (no private or reduction clause): the same iterations go to the
        // same threads as the grid-stride loop below (k = t + j*T), but the simulator visits them
        // round by round — for each round, the gang's workers and lanes in order — so that
        // consecutive steps touch consecutive elements, as the lanes of a warp do at once.
        // Lanes and workers of a partitioned loop are unordered (§1.2), so any interleaving of
        // their iterations is an execution the model allows.
        let _ = (chunk_e, c, cstart, t);
        let round = b.schedule_var("__round", ScheduleVar::Round);
        let nv_e = nv.clone();
        let wv = b.get(w);
        let wofs = b.bin(BinOp::Mul, wv, nv_e);
        let rv = b.get(round);
        let kv = b.bin(BinOp::Add, rv, wofs);
        let lane = b.get(v);
        let kv = b.bin(BinOp::Add, kv, lane);
        let set_k = b.set(k, kv);
        let kk = b.get(k);
        let tot = b.get(gang_range.map_or(total, |(_, to)| to));
        let in_range = b.bin(BinOp::Lt, kk, tot);
        let guarded = b.stmt(StmtKind::If(in_range, Box::new(iter_body), None));
        let mut inner = b.block(vec![set_k, guarded]);
        inner = thread_loops(b, lv, info_index as u32, (w, nw.clone()), (v, nv.clone()), inner);
        let lanes = b.bin(BinOp::Mul, nw.clone(), nv.clone());
        if let Some((from, to)) = gang_range {
            // The gang's block of iterations, round by round: `for (round = from; round < to;
            // round += lanes)`, iteration k = round + w*NV + v while k < to.
            let set_tt = b.set(tt, lanes);
            let first = b.get(from);
            let end = b.get(to);
            let stride = b.get(tt);
            let rounds = b.count_loop(round, first, end, stride, inner);
            setup.push(b.block(vec![set_tt, rounds]));
            return Ok(b.block(setup));
        }
        let all = b.bin(BinOp::Mul, ng, lanes.clone());
        let set_tt = b.set(tt, all);
        let first = b.bin(BinOp::Mul, g, lanes);
        let tot = b.get(total);
        let stride = b.get(tt);
        let rounds = b.count_loop(round, first, tot, stride, inner);
        setup.push(b.block(vec![set_tt, rounds]));
        let _ = loc;
        return Ok(b.block(setup));
    }
    let mut share = thread_pre;
    if let (Some((from, to)), false) = (gang_range, chunked) {
        // The gang's block of iterations, shared by its threads one at a time: the thread's
        // first iteration t = from + w * NV + v ; T = NW * NV ; for (k = t; k < to; k += T).
        let fv = b.get(from);
        let wv = b.get(w);
        let nv_e = nv.clone();
        let wofs = b.bin(BinOp::Mul, wv, nv_e);
        let vv = b.get(v);
        let tid = b.bin(BinOp::Add, wofs, vv);
        let first = b.bin(BinOp::Add, fv, tid);
        share.push(b.set(t, first));
        let lanes = b.bin(BinOp::Mul, nw.clone(), nv.clone());
        share.push(b.set(tt, lanes));
        let start = b.get(t);
        let end = b.get(to);
        let stride = b.get(tt);
        share.push(b.count_loop(k, start, end, stride, iter_body));
        share.extend(thread_post);
        let mut out = b.block(share);
        out = thread_loops(b, lv, info_index as u32, (w, nw), (v, nv), out);
        setup.push(out);
        return Ok(b.block(setup));
    }
    // t = (g * NW + w) * NV + v ; T = NG * NW * NV
    let nw_e = nw.clone();
    let gw = b.bin(BinOp::Mul, g, nw_e);
    let wv = b.get(w);
    let gw = b.bin(BinOp::Add, gw, wv);
    let nv_e = nv.clone();
    let gwv = b.bin(BinOp::Mul, gw, nv_e);
    let vv = b.get(v);
    let tid = b.bin(BinOp::Add, gwv, vv);
    share.push(b.set(t, tid));
    let nw_e2 = nw.clone();
    let nn = b.bin(BinOp::Mul, ng, nw_e2);
    let nv_e2 = nv.clone();
    let nnn = b.bin(BinOp::Mul, nn, nv_e2);
    share.push(b.set(tt, nnn));
    let looped = if !chunked {
        // No `static` chunk: iterations round-robin over the threads, one at a time —
        // `for (k = t; k < total; k += T)`, the grid-stride loop a GPU runs.
        let _ = (chunk_e, c, cstart);
        let from = b.get(t);
        let tot = b.get(total);
        let stride = b.get(tt);
        b.count_loop(k, from, tot, stride, iter_body)
    } else {
        share.push(b.set(c, chunk_e));
        // gang(static:c): for (cs = t*c; cs < total; cs += T*c) for (k = cs; k < min(cs + c, total); k++) body
        let inner_to = {
            let cs = b.get(cstart);
            let cc = b.get(c);
            let end = b.bin(BinOp::Add, cs, cc);
            let tot = b.get(total);
            let end2 = end.clone();
            let lt = b.bin(BinOp::Lt, end, tot.clone());
            let long = b.long_ty();
            b.expr(ExprKind::Cond(Box::new(lt), Box::new(end2), Box::new(tot)), long)
        };
        let from_k = b.get(cstart);
        let one = b.c(1);
        let k_loop = b.count_loop(k, from_k, inner_to, one, iter_body);
        let tv = b.get(t);
        let cv = b.get(c);
        let start = b.bin(BinOp::Mul, tv, cv);
        let ttv = b.get(tt);
        let cv2 = b.get(c);
        let stride = b.bin(BinOp::Mul, ttv, cv2);
        let tot = b.get(total);
        b.count_loop(cstart, start, tot, stride, k_loop)
    };
    share.push(looped);
    share.extend(thread_post);
    let mut out = b.block(share);
    out = thread_loops(b, lv, info_index as u32, (w, nw), (v, nv), out);
    setup.push(out);
    let _ = loc;
    Ok(b.block(setup))
}

/// `body` run by each worker and lane of a gang: a vector [`Partition`] (`lane` = 0..count)
/// inside a worker partition, for the levels the loop is partitioned at; at a level it is not,
/// the index is 0 (one worker, one lane). `schedule` is the loop's index in the kernel's
/// [`LoopInfo`] list.
fn thread_loops(b: &mut Builder<'_>, lv: Levels, schedule: u32, worker: (LocalId, Expr), lane: (LocalId, Expr), body: Stmt) -> Stmt {
    let mut out = body;
    for (partitioned, level, (var, count)) in [(lv.vector, Level::Vector, lane), (lv.worker, Level::Worker, worker)] {
        out = if partitioned {
            b.stmt(StmtKind::Partition(Box::new(Partition { level, var, count, schedule, body: out })))
        } else {
            let z = b.c(0);
            let set = b.set(var, z);
            b.block(vec![set, out])
        };
    }
    out
}

/// Run the dependence test on a loop (its `collapse` nest) of a kernels construct.
fn dependence_test(body: &Stmt, collapse: u32, reductions: &[(ReductionOp, AccVar)], privates: &[AccVar], b: &mut Builder<'_>, cx: &Ctx<'_>) -> Verdict {
    let mut vars = Vec::new();
    let mut cur = body.clone();
    for level in 0..collapse {
        match canon(cur, b) {
            Ok(c) => {
                vars.push(c.place);
                cur = if level + 1 < collapse { single_inner(c.body) } else { c.body };
            }
            Err((m, _)) => return Verdict::Sequential(m),
        }
    }
    let mut exempt = HashSet::new();
    for v in reductions.iter().map(|(_, v)| v).chain(privates) {
        match var_access(v, cx.vars, b) {
            Some(VarAccess::Reg(l, _)) => {
                exempt.insert(Obj::Reg(l));
            }
            Some(VarAccess::Mem(a, _)) => {
                if let ExprKind::LocalAddr(l) = a.kind {
                    exempt.insert(Obj::Mem(l));
                } else if let ExprKind::Local(l) = a.kind {
                    exempt.insert(Obj::Captured(l));
                }
            }
            None => {}
        }
    }
    let dcx = DepCx { locals: b.locals, types: b.types, acc: cx.acc, purity: cx.purity, kernel_uses: &cx.uses };
    depend::analyse(&cur, &vars, &exempt, &dcx)
}

fn obj_name(o: Obj, b: &Builder<'_>) -> String {
    let (Obj::Mem(l) | Obj::Captured(l) | Obj::Reg(l)) = o;
    b.locals.get(l.0 as usize).map(|x| x.name.trim_start_matches('&').to_string()).unwrap_or_default()
}

fn obj_access(o: Obj, ty: TypeId, b: &mut Builder<'_>) -> VarAccess {
    match o {
        Obj::Reg(l) => VarAccess::Reg(l, ty),
        Obj::Mem(l) => {
            let pty = b.types.intern(Type::Pointer(ty));
            VarAccess::Mem(b.expr(ExprKind::LocalAddr(l), pty), ty)
        }
        Obj::Captured(l) => {
            let pty = b.locals[l.0 as usize].ty;
            VarAccess::Mem(b.expr(ExprKind::Local(l), pty), ty)
        }
    }
}

/// How the kernel reaches a loop counter's place.
fn place_access(p: &Place, b: &mut Builder<'_>) -> Option<VarAccess> {
    match p {
        Place::Local(l) => Some(VarAccess::Reg(*l, b.locals.get(l.0 as usize)?.ty)),
        Place::Mem(a) => match a.kind {
            ExprKind::LocalAddr(_) | ExprKind::Local(_) => {
                let ty = b.types.pointee(a.ty)?;
                b.types.is_scalar(ty).then(|| VarAccess::Mem((**a).clone(), ty))
            }
            _ => None,
        },
    }
}

fn same_access(a: &VarAccess, c: &VarAccess) -> bool {
    match (a, c) {
        (VarAccess::Reg(x, _), VarAccess::Reg(y, _)) => x == y,
        (VarAccess::Mem(x, _), VarAccess::Mem(y, _)) => {
            matches!((&x.kind, &y.kind), (ExprKind::Local(p), ExprKind::Local(q)) | (ExprKind::LocalAddr(p), ExprKind::LocalAddr(q)) if p == q)
        }
        _ => false,
    }
}

/// The levels that `loop` directives nested in `s` name explicitly, and whether any is nested.
fn inner_levels(s: &Stmt, acc: &[Option<AccDirective>]) -> (Levels, bool) {
    let mut lv = Levels::default();
    let mut nested = false;
    super::outline::walk_stmt(s, &mut |_| {}, &mut |st| {
        if let StmtKind::Acc { directive, body: Some(_) } = &st.kind {
            if let Some(Some(d)) = acc.get(directive.0 as usize) {
                if matches!(d.kind, AccKind::Loop) {
                    nested = true;
                    let named = LoopLevels::of_directive(d);
                    lv.gang |= named.gang;
                    lv.worker |= named.worker;
                    lv.vector |= named.vector;
                }
            }
        }
    });
    (lv, nested)
}

/// Number of iterations of `for (i = lb; i CMP ub; i += st)`, 0 when none (long arithmetic).
fn trip_count(b: &mut Builder<'_>, lb: LocalId, ub: LocalId, st: LocalId, cmp: BinOp) -> Expr {
    let (lb, ub, st) = (b.get(lb), b.get(ub), b.get(st));
    trip_count_of(b, lb, ub, st, cmp)
}

/// [`trip_count`] of bound expressions (`long`; each may appear several times in the result,
/// so they must be pure). It divides only by a positive step.
pub(crate) fn trip_count_of(b: &mut Builder<'_>, lb: Expr, ub: Expr, st: Expr, cmp: BinOp) -> Expr {
    let long = b.long_ty();
    let (lo, hi, step) = match cmp {
        BinOp::Lt | BinOp::Le => (lb, ub, st),
        _ => (ub, lb, b.expr(ExprKind::Unary(UnOp::Neg, Box::new(st)), long)),
    };
    // inclusive bounds add one step's worth
    let span = b.bin(BinOp::Sub, hi.clone(), lo.clone());
    let num = match cmp {
        BinOp::Lt | BinOp::Gt => {
            let s1 = step.clone();
            let one = b.c(1);
            let sm1 = b.bin(BinOp::Sub, s1, one);
            b.bin(BinOp::Add, span, sm1)
        }
        _ => {
            let s1 = step.clone();
            b.bin(BinOp::Add, span, s1)
        }
    };
    let q = b.bin(BinOp::Div, num, step.clone());
    let nonempty = match cmp {
        BinOp::Lt | BinOp::Gt => b.bin(BinOp::Lt, lo, hi),
        _ => b.bin(BinOp::Le, lo, hi),
    };
    let zero = b.c(0);
    let zero2 = b.c(0);
    let pos = b.bin(BinOp::Gt, step, zero2);
    let int = b.int_ty();
    let ok = b.expr(ExprKind::LogicalAnd(Box::new(nonempty), Box::new(pos)), int);
    b.expr(ExprKind::Cond(Box::new(ok), Box::new(q), Box::new(zero)), long)
}

// ------------------------------------------------------------------ privates and reductions

/// How the kernel body reaches a variable named in a clause.
#[derive(Clone, Debug)]
enum VarAccess {
    /// A register local of the kernel.
    Reg(LocalId, TypeId),
    /// An object at the address held by register local `LocalId` (a captured address) or at
    /// `LocalAddr` of a memory local: (address expression, object type).
    Mem(Expr, TypeId),
}

/// The kernel locals that stand for the host variables clauses name, by the variable's id
/// ([`VarRoot`]): clause variables were lowered in the host scope, and the kernel's rewritten body
/// names them by kernel locals — the local itself (a register copy, or a memory local of the
/// region), or (`true`) the capture parameter that holds the object's address (§2.5.1 captures).
#[derive(Debug, Default, Clone)]
pub(crate) struct ClauseVars(HashMap<VarRoot, (LocalId, bool)>);

impl ClauseVars {
    /// The roots outlining gave kernel locals (`outline::Remap`): value locals, address
    /// parameters of host memory locals, address parameters of globals.
    pub(crate) fn from_remap(m: &super::outline::Remap) -> ClauseVars {
        let mut map = HashMap::new();
        map.extend(m.value.iter().map(|(h, k)| (VarRoot::Local(*h), (*k, false))));
        map.extend(m.addr.iter().map(|(h, k)| (VarRoot::Local(*h), (*k, true))));
        map.extend(m.global.iter().map(|(g, k)| (VarRoot::Global(*g), (*k, true))));
        ClauseVars(map)
    }

    /// In a routine, clauses name the function's own locals, each standing for itself.
    pub(crate) fn own_locals(count: usize) -> ClauseVars {
        ClauseVars((0..count).map(|i| (VarRoot::Local(LocalId(i as u32)), (LocalId(i as u32), false))).collect())
    }

    /// The kernel local of a clause variable's root, if the kernel has one.
    pub(crate) fn get(&self, v: &AccVar) -> Option<(LocalId, bool)> {
        self.0.get(&v.root).copied()
    }
}

fn var_access(v: &AccVar, vars: &ClauseVars, b: &mut Builder<'_>) -> Option<VarAccess> {
    let (id, by_address) = vars.get(v)?;
    let l = &b.locals[id.0 as usize];
    let ty = l.ty;
    Some(match (by_address, l.storage) {
        (true, _) => {
            let oty = b.types.pointee(ty).unwrap_or(v.var_ty);
            VarAccess::Mem(b.expr(ExprKind::Local(id), ty), oty)
        }
        (false, Storage::Register) => VarAccess::Reg(id, ty),
        (false, _) => {
            let pty = b.types.intern(Type::Pointer(ty));
            VarAccess::Mem(b.expr(ExprKind::LocalAddr(id), pty), ty)
        }
    })
}

/// The program variable that `acc` reaches, for the name of a copy of it when no clause names
/// it (a counter, a privatised scalar): a register or memory local of the program; none for a
/// captured address or other storage.
fn copied_variable(b: &Builder<'_>, acc: &VarAccess) -> Option<String> {
    let id = match acc {
        VarAccess::Reg(id, _) => *id,
        VarAccess::Mem(addr, _) => match addr.kind {
            ExprKind::LocalAddr(id) => id,
            _ => return None,
        },
    };
    let l = b.locals.get(id.0 as usize)?;
    (l.role == LocalRole::Program).then(|| l.name.clone())
}

fn fresh_copy(b: &mut Builder<'_>, acc: &VarAccess) -> LocalId {
    match acc {
        VarAccess::Reg(_, ty) => b.temp("<private>", *ty, LocalRole::Temporary),
        VarAccess::Mem(_, ty) => {
            let scalar = b.types.is_scalar(*ty);
            let id = b.temp("<private>", *ty, LocalRole::Temporary);
            if b.types.is_variably_modified(*ty) {
                // A private copy of a variable-length array (`private(tmp)` on `int tmp[p]`):
                // storage of its run-time size, allocated by `VlaAlloc` (see `private_vla_allocs`).
                b.locals[id.0 as usize].storage = Storage::VlaAddress;
            } else if !scalar {
                b.locals[id.0 as usize].storage = Storage::Memory;
            }
            id
        }
    }
}

/// The statements that allocate the private copies among `copies` that are variable-length
/// arrays, for the start of the thread's share (§2.7.10: each thread has its own copy; the
/// copy's size is the array's, known when the region runs).
fn private_vla_allocs(b: &mut Builder<'_>, copies: &[(VarAccess, LocalId, bool)]) -> Vec<Stmt> {
    copies
        .iter()
        .filter(|(_, fresh, _)| b.locals[fresh.0 as usize].storage == Storage::VlaAddress)
        .map(|(_, fresh, _)| b.stmt(StmtKind::VlaAlloc(*fresh)))
        .collect()
}

/// The copy of `acc` that a thread running a share of a loop with body `body` works on. It lives
/// in memory when `body` uses the variable's address other than to load or store it (`&x` passed
/// to a function or kept in a pointer): that address must then be the copy's (§2.7.10: the
/// private copy is what the thread's code names).
fn thread_copy(b: &mut Builder<'_>, acc: &VarAccess, body: &Stmt, var: Option<String>, level: Level) -> LocalId {
    let fresh = fresh_copy(b, acc);
    let var = var.or_else(|| copied_variable(b, acc));
    b.locals[fresh.0 as usize].copy_of = Some(crate::ir::CopyOf { var, level });
    if b.locals[fresh.0 as usize].storage != Storage::VlaAddress && address_escapes(body, acc) {
        b.locals[fresh.0 as usize].storage = Storage::Memory;
    }
    fresh
}

/// Does `body` use the address of the object `acc` reaches other than as the operand of a load or
/// the target of a store?
fn address_escapes(body: &Stmt, acc: &VarAccess) -> bool {
    let VarAccess::Mem(addr, _) = acc else { return false };
    let is_addr = |e: &Expr| matches!((&addr.kind, &e.kind), (ExprKind::Local(x), ExprKind::Local(y)) | (ExprKind::LocalAddr(x), ExprKind::LocalAddr(y)) if x == y);
    let (mut all, mut direct) = (0usize, 0usize);
    super::outline::walk_stmt(
        body,
        &mut |e| {
            all += usize::from(is_addr(e));
            direct += usize::from(match &e.kind {
                ExprKind::Load(a) => is_addr(a),
                ExprKind::Assign { place: Place::Mem(a), .. } | ExprKind::CompoundAssign { place: Place::Mem(a), .. } | ExprKind::IncDec { place: Place::Mem(a), .. } => is_addr(a),
                _ => false,
            });
        },
        &mut |_| {},
    );
    all > direct
}

fn read_var(b: &mut Builder<'_>, acc: &VarAccess) -> Expr {
    match acc {
        VarAccess::Reg(l, ty) => b.expr(ExprKind::Local(*l), *ty),
        VarAccess::Mem(a, ty) => b.expr(ExprKind::Load(Box::new(a.clone())), *ty),
    }
}

fn var_place(acc: &VarAccess) -> Place {
    match acc {
        VarAccess::Reg(l, _) => Place::Local(*l),
        VarAccess::Mem(a, _) => Place::Mem(Box::new(a.clone())),
    }
}

fn acc_ty(acc: &VarAccess) -> TypeId {
    match acc {
        VarAccess::Reg(_, t) | VarAccess::Mem(_, t) => *t,
    }
}

/// The operator's identity for a variable of type `ty` (§2.5.11 table, kept in one place:
/// [`reduction_identity_float`], [`reduction_identity_int`]).
fn identity(b: &mut Builder<'_>, op: ReductionOp, ty: TypeId) -> SResult<Expr> {
    let t = b.types.get(ty).clone();
    let loc = b.loc;
    Ok(match t {
        Type::Float(_) if op == ReductionOp::BitAnd => return Err(("`&` reduction on a floating-point variable (§2.5.11)".into(), loc)),
        Type::Float(_) => b.expr(ExprKind::Float(reduction_identity_float(op)), ty),
        Type::Int(it) => b.expr(ExprKind::Int(reduction_identity_int(op, it.bits(), it.signed)), ty),
        Type::Bool => b.expr(ExprKind::Int(reduction_identity_int(op, 1, false)), ty),
        _ => return Err(("reductions are supported on integer and floating-point scalars".into(), loc)),
    })
}

fn init_identity(b: &mut Builder<'_>, op: ReductionOp, acc: &VarAccess, fresh: LocalId) -> SResult<Stmt> {
    let ty = acc_ty(acc);
    if let Type::Complex(k) = b.types.get(ty).clone() {
        let ft = b.types.intern(Type::Float(k));
        let one = matches!(op, ReductionOp::Mul);
        let re = b.expr(ExprKind::Float(if one { 1.0 } else { 0.0 }), ft);
        let im = b.expr(ExprKind::Float(0.0), ft);
        let tmp = fresh_copy(b, &VarAccess::Mem(b.expr(ExprKind::Int(0), ty), ty));
        let pty = b.types.intern(Type::Pointer(ty));
        let val = b.expr(ExprKind::ComplexMake { re: Box::new(re), im: Box::new(im), dst: tmp }, ty);
        let dst = b.expr(ExprKind::LocalAddr(fresh), pty);
        let e = b.expr(ExprKind::Assign { place: Place::Mem(Box::new(dst)), value: Box::new(val) }, ty);
        return Ok(b.stmt(StmtKind::Expr(e)));
    }
    let v = identity(b, op, ty)?;
    let e = b.expr(ExprKind::Assign { place: Place::Local(fresh), value: Box::new(v) }, ty);
    Ok(b.stmt(StmtKind::Expr(e)))
}

fn combine(b: &mut Builder<'_>, op: ReductionOp, acc: &VarAccess, fresh: LocalId) -> SResult<Stmt> {
    let ty = acc_ty(acc);
    let loc = b.loc;
    if let Type::Complex(_) = b.types.get(ty).clone() {
        let bop = match op {
            ReductionOp::Add => BinOp::Add,
            ReductionOp::Mul => BinOp::Mul,
            _ => return Err(("only `+` and `*` reductions apply to complex variables (§2.5.11)".into(), loc)),
        };
        let pty = b.types.intern(Type::Pointer(ty));
        let VarAccess::Mem(addr, _) = acc else { return Err(("complex reduction variable is not in memory".into(), loc)) };
        let tmp = fresh_copy(b, acc);
        let _ = pty;
        // A complex value is its address, typed as the complex type.
        let mine = b.expr(ExprKind::LocalAddr(fresh), ty);
        let cur = b.expr(ExprKind::Load(Box::new(addr.clone())), ty);
        let val = b.expr(ExprKind::ComplexBinary { op: bop, lhs: Box::new(cur), rhs: Box::new(mine), dst: tmp }, ty);
        let e = b.expr(ExprKind::Assign { place: Place::Mem(Box::new(addr.clone())), value: Box::new(val) }, ty);
        return Ok(b.stmt(StmtKind::Expr(e)));
    }
    let cur = read_var(b, acc);
    let mine = b.expr(ExprKind::Local(fresh), ty);
    let int = b.int_ty();
    // Arithmetic happens in the promoted type (C11 6.3.1.1).
    let ct = match b.types.get(ty) {
        Type::Int(it) if it.bytes < 4 => int,
        Type::Bool => int,
        _ => ty,
    };
    let a = b.cast(cur, ct);
    let m = b.cast(mine, ct);
    let val = match op {
        ReductionOp::Add => b.bin(BinOp::Add, a, m),
        ReductionOp::Mul => b.bin(BinOp::Mul, a, m),
        ReductionOp::BitAnd => b.bin(BinOp::BitAnd, a, m),
        ReductionOp::BitOr => b.bin(BinOp::BitOr, a, m),
        ReductionOp::BitXor => b.bin(BinOp::BitXor, a, m),
        ReductionOp::Max | ReductionOp::Min => {
            let cmp = if op == ReductionOp::Max { BinOp::Gt } else { BinOp::Lt };
            let c = b.bin(cmp, m.clone(), a.clone());
            b.expr(ExprKind::Cond(Box::new(c), Box::new(m), Box::new(a)), ct)
        }
        ReductionOp::And | ReductionOp::Or => {
            let z = if b.types.is_float(ct) { b.expr(ExprKind::Float(0.0), ct) } else { b.expr(ExprKind::Int(0), ct) };
            let ta = b.bin(BinOp::Ne, a, z.clone());
            let tm = b.bin(BinOp::Ne, m, z);
            let k = if op == ReductionOp::And { ExprKind::LogicalAnd(Box::new(ta), Box::new(tm)) } else { ExprKind::LogicalOr(Box::new(ta), Box::new(tm)) };
            b.expr(k, int)
        }
    };
    let val = b.cast(val, ty);
    let e = b.expr(ExprKind::Assign { place: var_place(acc), value: Box::new(val) }, ty);
    Ok(b.stmt(StmtKind::Expr(e)))
}

/// Replace accesses to `acc` in `s` with accesses to the thread's copy `fresh`.
fn substitute_stmt(s: &mut Stmt, acc: &VarAccess, fresh: LocalId, b: &mut Builder<'_>) {
    let fresh_local = &b.locals[fresh.0 as usize];
    let in_mem = fresh_local.storage != Storage::Register;
    let sub = Sub { acc: acc.clone(), fresh, in_mem };
    sub.stmt(s);
}

struct Sub {
    acc: VarAccess,
    fresh: LocalId,
    in_mem: bool,
}

impl Sub {
    fn is_addr(&self, e: &Expr) -> bool {
        match (&self.acc, &e.kind) {
            (VarAccess::Mem(a, _), k) => match (&a.kind, k) {
                (ExprKind::Local(x), ExprKind::Local(y)) => x == y,
                (ExprKind::LocalAddr(x), ExprKind::LocalAddr(y)) => x == y,
                _ => false,
            },
            _ => false,
        }
    }

    fn stmt(&self, s: &mut Stmt) {
        crate::ir::visit::stmt_parts_mut(s, &mut |part| match part {
            crate::ir::visit::PartMut::Stmt(x) => self.stmt(x),
            crate::ir::visit::PartMut::Expr(e) => self.expr(e),
        });
    }

    fn place(&self, p: &mut Place) {
        match p {
            Place::Local(l) => {
                if matches!(self.acc, VarAccess::Reg(x, _) if x == *l) {
                    *l = self.fresh;
                }
            }
            Place::Mem(a) => {
                if self.is_addr(a) {
                    if self.in_mem {
                        // Keep the expression's type: an address used as a complex/record value is
                        // typed as that value.
                        a.kind = ExprKind::LocalAddr(self.fresh);
                    } else {
                        *p = Place::Local(self.fresh);
                    }
                } else {
                    self.expr(a);
                }
            }
        }
    }

    fn expr(&self, e: &mut Expr) {
        if self.is_addr(e) {
            // The variable's address (an aggregate's value, or `&x`): the copy's address.
            if self.in_mem {
                e.kind = ExprKind::LocalAddr(self.fresh);
            }
            return;
        }
        match &mut e.kind {
            ExprKind::Local(l) if matches!(self.acc, VarAccess::Reg(x, _) if x == *l) => *l = self.fresh,
            ExprKind::Load(a) if self.is_addr(a) && !self.in_mem => e.kind = ExprKind::Local(self.fresh),
            ExprKind::Load(a) | ExprKind::Unary(_, a) | ExprKind::Cast(a) | ExprKind::VaStart(a) | ExprKind::VaArg(a) => self.expr(a),
            ExprKind::Binary(_, a, c) | ExprKind::LogicalAnd(a, c) | ExprKind::LogicalOr(a, c) | ExprKind::Comma(a, c) | ExprKind::VaCopy(a, c) => {
                self.expr(a);
                self.expr(c);
            }
            ExprKind::PtrAdd { ptr: a, index: c, .. }
            | ExprKind::PtrDiff { lhs: a, rhs: c, .. }
            | ExprKind::ComplexBinary { lhs: a, rhs: c, .. }
            | ExprKind::ComplexCompare { lhs: a, rhs: c, .. }
            | ExprKind::ComplexMake { re: a, im: c, .. } => {
                self.expr(a);
                self.expr(c);
            }
            ExprKind::ComplexNeg { value, .. } => self.expr(value),
            ExprKind::Cond(a, c, d) => {
                self.expr(a);
                self.expr(c);
                self.expr(d);
            }
            ExprKind::Assign { place, value } | ExprKind::CompoundAssign { place, value, .. } => {
                self.place(place);
                self.expr(value);
            }
            ExprKind::IncDec { place, .. } => self.place(place),
            ExprKind::Call { callee, args, .. } => {
                args.iter_mut().for_each(|a| self.expr(a));
                if let Callee::Indirect(c) = callee {
                    self.expr(c);
                }
            }
            ExprKind::WithInit { init, value } | ExprKind::StmtExpr { body: init, value: Some(value) } => {
                init.iter_mut().for_each(|s| self.stmt(s));
                self.expr(value);
            }
            ExprKind::StmtExpr { body, value: None } => body.iter_mut().for_each(|s| self.stmt(s)),
            _ => {}
        }
    }
}
