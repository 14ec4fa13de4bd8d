//! The work of one call, counted before it runs (issue 15's tiers: code that runs little is not
//! worth compiling). [`estimate`] walks a function's IR with the integer values it knows — the
//! call's arguments (a kernel's launch values: gang, gang count, workers, vector length and its
//! captured scalars), constants, and the register locals the straight-line code computes from
//! them — and counts the expression nodes the call evaluates: a loop in canonical form (`for (x
//! = lb; x < ub; x += step)`, any of `< <= > >= !=`, the bound not written in the body) whose
//! bounds it knows counts its trip count times its body, a partition (§2.7: the threads of one
//! level) its thread count times its body, an `if` the larger branch. Anything else whose count
//! it cannot know from those values — a `while` or `do` loop, a `goto`, a loop whose bounds are
//! read from memory — makes the work unknown (`None`): the engine then compiles at once, as it
//! did before tiers.
//!
//! The estimate is a count over the program and the call's values only, never a time, so the
//! engine's choices (and a run's steps) are the same in every run; the engines' results are
//! the same whatever it chooses (both run the same executable form).

use accsim_core::ir::{BinOp, Callee, Expr, ExprKind, Function, LocalId, Place, Program, Stmt, StmtKind, Type, UnOp};

/// The work counted for calling a function or a C library routine (its own body is counted
/// apart: at its own call for a host function, inside the kernel's count for a device one).
const CALL_WORK: u64 = 10;
/// The work counted for an OpenACC statement run on the host (data actions, a launch: the
/// launch's own work is counted at the launch).
const ACC_STATEMENT_WORK: u64 = 50;
/// Counts past this are "a lot" (saturating arithmetic stops here).
const SATURATED: u64 = 1 << 50;
/// How deep a kernel's estimate follows calls of program functions (a deeper or recursive
/// chain is unknown work).
const CALL_DEPTH: u32 = 4;

/// The work of calling `f` (function `fid`'s IR) with argument words `args` (`None` for an
/// argument whose value is unknown), or `None` when it cannot be known before the call runs.
/// `device`: `f` is a kernel (or a function a kernel calls): the functions it calls are counted
/// too, since a kernel and everything it calls run on one engine for a whole launch.
pub fn estimate(p: &Program, f: &Function, args: &[Option<u64>], device: bool) -> Option<u64> {
    estimate_at(p, f, args, device, 0)
}

/// The work of one launch of kernel `f` (a fast-share variant or a kernel) with `gangs` gangs,
/// `workers` workers and `vector` lanes, given its captured scalars: the share of the gang
/// with the largest share of the gang loop, times the gangs. The gang loop gives gang `g` the
/// iterations `g*trip/G .. (g+1)*trip/G`, so the last gang's share is the largest (`ceil(trip/G)`),
/// and a gang loop of fewer iterations than gangs leaves gang 0 none at all: counting gang 0,
/// as the first version did, made a launch of a million iterations look empty (conv3d's
/// `collapse(3)` over 142 rows with 256 gangs). The count over-estimates by at most the gangs
/// left idle, which only errs towards compiling.
pub fn launch_estimate(p: &Program, f: &Function, gangs: u64, workers: u64, vector: u64, captures: &[Option<u64>]) -> Option<u64> {
    let gangs = gangs.max(1);
    let mut args = vec![Some(gangs - 1), Some(gangs), Some(workers), Some(vector)];
    args.extend(captures.iter().copied());
    estimate(p, f, &args, true).map(|w| w.saturating_mul(gangs))
}

/// The work of running statement `s` of `f` (a loop the interpreter is about to run,
/// [`crate::loop_entry`]) when the register locals hold the words `locals` (by local id, `None`
/// where unknown), or `None` when it cannot be known before it runs.
pub fn stmt_estimate(p: &Program, f: &Function, s: &Stmt, locals: &[Option<u64>]) -> Option<u64> {
    let mut e = Estimator { p, known: vec![None; f.locals.len()], device: false, depth: 0 };
    for (l, word) in locals.iter().enumerate() {
        let Some(local) = f.locals.get(l).filter(|x| x.storage == accsim_core::ir::Storage::Register) else { continue };
        e.known[l] = word.and_then(|w| e.int_value(local.ty, w));
    }
    e.stmt(s)
}

fn estimate_at(p: &Program, f: &Function, args: &[Option<u64>], device: bool, depth: u32) -> Option<u64> {
    let mut e = Estimator { p, known: vec![None; f.locals.len()], device, depth };
    for (i, l) in f.params.iter().enumerate() {
        let word = args.get(i).copied().flatten();
        let value = word.and_then(|w| e.int_value(f.locals.get(l.0 as usize)?.ty, w));
        if let Some(slot) = e.known.get_mut(l.0 as usize) {
            *slot = value;
        }
    }
    e.stmt(&f.body)
}

struct Estimator<'a> {
    p: &'a Program,
    /// By local: its integer value at this point of the walk, when known.
    known: Vec<Option<i64>>,
    device: bool,
    depth: u32,
}

impl Estimator<'_> {
    /// The value of word `w` as a value of type `ty` (its integer format), or `None` for a
    /// type that is not an integer.
    fn int_value(&self, ty: accsim_core::ir::TypeId, w: u64) -> Option<i64> {
        match self.p.types.get(ty) {
            Type::Int(it) if it.bytes < 8 => {
                let bits = 8 * it.bytes as u32;
                let masked = w & ((1u64 << bits) - 1);
                Some(if it.signed && masked >> (bits - 1) == 1 { (masked | !((1u64 << bits) - 1)) as i64 } else { masked as i64 })
            }
            Type::Int(_) => Some(w as i64),
            Type::Bool => Some((w != 0) as i64),
            _ => None,
        }
    }

    fn stmt(&mut self, s: &Stmt) -> Option<u64> {
        match &s.kind {
            StmtKind::Empty | StmtKind::Label(_) | StmtKind::Break | StmtKind::Continue => Some(0),
            StmtKind::Expr(e) => {
                let w = self.expr(e)?;
                self.effects(e);
                Some(w)
            }
            StmtKind::Return(e) => e.as_ref().map_or(Some(1), |e| self.expr(e)),
            StmtKind::Block(list) => list.iter().try_fold(0u64, |acc, s| Some(add(acc, self.stmt(s)?))),
            StmtKind::If(c, a, b) => {
                let wc = self.expr(c)?;
                self.effects(c);
                let before = self.known.clone();
                let wa = self.stmt(a)?;
                let after_a = std::mem::replace(&mut self.known, before);
                let wb = match b {
                    Some(b) => self.stmt(b)?,
                    None => 0,
                };
                // A local keeps its value after the `if` only when both branches agree on it.
                for (k, a) in self.known.iter_mut().zip(after_a) {
                    if *k != a {
                        *k = None;
                    }
                }
                Some(add(wc, wa.max(wb)))
            }
            StmtKind::For { init, cond, step, body } => {
                let wi = match init {
                    Some(i) => self.stmt(i)?,
                    None => 0,
                };
                let trip = self.trip_count(cond.as_ref()?, step.as_ref()?, body)?;
                let wc = self.expr(cond.as_ref()?)?;
                let ws = self.expr(step.as_ref()?)?;
                self.forget_written(body);
                if let Some(x) = step.as_ref().and_then(step_of).map(|(x, _)| x) {
                    self.forget(x);
                }
                let wb = self.stmt(body)?;
                self.forget_written(body);
                Some(add(add(wi, wc), mul(trip, add(add(wb, wc), ws))))
            }
            StmtKind::Partition(part) => {
                let count = self.eval(&part.count)?.max(0) as u64;
                self.forget(part.var);
                self.forget_written(&part.body);
                let wb = self.stmt(&part.body)?;
                self.forget_written(&part.body);
                Some(add(1, mul(count, wb)))
            }
            // Every statement of the body runs at most once (no `goto` back: that is unknown).
            StmtKind::Switch { cond, body, .. } => {
                let wc = self.expr(cond)?;
                self.forget_written(body);
                let wb = self.stmt(body)?;
                self.forget_written(body);
                Some(add(wc, wb))
            }
            StmtKind::While(..) | StmtKind::DoWhile(..) | StmtKind::Goto(_) => None,
            StmtKind::ZeroFill { addr, size } => Some(add(self.expr(addr)?, size / 8)),
            StmtKind::VlaAlloc(_) => Some(CALL_WORK),
            StmtKind::Acc { body, .. } => {
                let wb = match body {
                    Some(b) => self.stmt(b)?,
                    None => 0,
                };
                Some(add(ACC_STATEMENT_WORK, wb))
            }
            StmtKind::AccLaunch(_) => Some(ACC_STATEMENT_WORK),
        }
    }

    /// The nodes `e` evaluates (each once: both arms of `?:`, `&&`, `||`), or `None` when it
    /// holds a loop (a statement expression's) or, in device code, a call of unknown work.
    fn expr(&mut self, e: &Expr) -> Option<u64> {
        let mut nodes = 0u64;
        let mut unknown = false;
        let mut calls = Vec::new();
        accsim_core::ir::visit::walk_expr(
            e,
            true,
            &mut |s| {
                if matches!(s.kind, StmtKind::While(..) | StmtKind::DoWhile(..) | StmtKind::For { .. } | StmtKind::Goto(_) | StmtKind::Partition(_)) {
                    unknown = true;
                }
            },
            &mut |x| {
                nodes += 1;
                match &x.kind {
                    ExprKind::Call { callee, .. } => {
                        nodes += CALL_WORK;
                        match callee {
                            Callee::Direct(g) => calls.push(g.0),
                            Callee::Indirect(_) => calls.push(u32::MAX),
                            Callee::Extern(_) => {}
                        }
                    }
                    ExprKind::SizeOfDynamic(_) | ExprKind::VaStart(_) | ExprKind::VaArg(_) | ExprKind::VaCopy(..) => nodes += CALL_WORK,
                    _ => {}
                }
            },
        );
        if unknown {
            return None;
        }
        if self.device {
            // A kernel's callees run on its engine for the whole launch: their work is the
            // kernel's (with arguments unknown here).
            for g in calls {
                let callee = self.p.functions.get(g as usize)?;
                if self.depth >= CALL_DEPTH {
                    return None;
                }
                nodes = add(nodes, estimate_at(self.p, callee, &[], true, self.depth + 1)?);
            }
        }
        Some(nodes)
    }

    /// Record what the top level of expression statement `e` writes: `x = value` with a value
    /// it can compute keeps `x`'s value; every other write of a register local forgets it.
    fn effects(&mut self, e: &Expr) {
        if let ExprKind::Assign { place: Place::Local(x), value } = &e.kind {
            let v = self.eval(value).and_then(|v| self.int_value(e.ty, v as u64));
            let mut inner = Vec::new();
            written_locals_expr(value, &mut inner);
            inner.into_iter().for_each(|l| self.forget(l));
            if let Some(slot) = self.known.get_mut(x.0 as usize) {
                *slot = v;
            }
            return;
        }
        let mut w = Vec::new();
        written_locals_expr(e, &mut w);
        w.into_iter().for_each(|l| self.forget(l));
    }

    fn forget(&mut self, l: LocalId) {
        if let Some(slot) = self.known.get_mut(l.0 as usize) {
            *slot = None;
        }
    }

    fn forget_written(&mut self, s: &Stmt) {
        let mut w = Vec::new();
        accsim_core::ir::visit::walk(s, true, &mut |_| {}, &mut |x| written_locals_top(x, &mut w));
        w.into_iter().for_each(|l| self.forget(l));
    }

    /// The trip count of `for (…; cond; step) body` from the values known before its first
    /// test, when the loop is in canonical form and its bound is not written in the body.
    fn trip_count(&mut self, cond: &Expr, step: &Expr, body: &Stmt) -> Option<u64> {
        let (x, delta) = step_of(step)?;
        let delta = match delta {
            Delta::Const(d) => d,
            Delta::Expr(e) => self.eval(e)?,
        };
        let ExprKind::Binary(op, lhs, rhs) = &cond.strip_casts().kind else { return None };
        let (op, bound) = match (&lhs.strip_casts().kind, &rhs.strip_casts().kind) {
            (ExprKind::Local(l), _) if *l == x => (*op, rhs),
            (_, ExprKind::Local(l)) if *l == x => (flip(*op)?, lhs),
            _ => return None,
        };
        // The bound must stay what it is at loop entry.
        let mut written = Vec::new();
        accsim_core::ir::visit::walk(body, true, &mut |_| {}, &mut |e| written_locals_top(e, &mut written));
        let mut read = Vec::new();
        accsim_core::ir::visit::walk_expr(bound, true, &mut |_| {}, &mut |e| {
            if let ExprKind::Local(l) = e.kind {
                read.push(l)
            } else if matches!(e.kind, ExprKind::Load(_) | ExprKind::Call { .. }) {
                read.push(LocalId(u32::MAX))
            }
        });
        if read.iter().any(|l| l.0 == u32::MAX || *l == x || written.contains(l)) || written.contains(&x) {
            return None;
        }
        let lb = *self.known.get(x.0 as usize)?;
        let (lb, ub) = (lb? as i128, self.eval(bound)? as i128);
        let d = delta as i128;
        let n = match op {
            BinOp::Lt if d > 0 => (ub - lb + d - 1).div_euclid(d),
            BinOp::Le if d > 0 => (ub - lb + d).div_euclid(d),
            BinOp::Gt if d < 0 => (lb - ub - d - 1).div_euclid(-d),
            BinOp::Ge if d < 0 => (lb - ub - d).div_euclid(-d),
            BinOp::Ne if d != 0 && (ub - lb) % d == 0 && (ub - lb) / d >= 0 => (ub - lb) / d,
            // A loop that runs no iteration, or one that does not end by its counter.
            BinOp::Lt | BinOp::Le if d <= 0 => return if lb < ub || (op == BinOp::Le && lb == ub) { None } else { Some(0) },
            BinOp::Gt | BinOp::Ge if d >= 0 => return if lb > ub || (op == BinOp::Ge && lb == ub) { None } else { Some(0) },
            _ => return None,
        };
        Some(n.clamp(0, SATURATED as i128) as u64)
    }

    /// The integer value of `e` from the known values, when it is a computation of them.
    fn eval(&self, e: &Expr) -> Option<i64> {
        match &e.kind {
            ExprKind::Int(v) => self.int_value(e.ty, *v),
            ExprKind::Local(l) => self.known.get(l.0 as usize).copied().flatten(),
            ExprKind::Cast(x) => {
                let v = self.eval(x)?;
                self.int_value(e.ty, v as u64)
            }
            ExprKind::Unary(op, x) => {
                let v = self.eval(x)?;
                Some(match op {
                    UnOp::Neg => v.wrapping_neg(),
                    UnOp::BitNot => !v,
                    UnOp::Not => (v == 0) as i64,
                    #[allow(unreachable_patterns)]
                    _ => return None,
                })
            }
            ExprKind::Binary(op, a, b) => {
                let (a, b) = (self.eval(a)?, self.eval(b)?);
                let v = match op {
                    BinOp::Add => a.checked_add(b)?,
                    BinOp::Sub => a.checked_sub(b)?,
                    BinOp::Mul => a.checked_mul(b)?,
                    BinOp::Div => a.checked_div(b)?,
                    BinOp::Rem => a.checked_rem(b)?,
                    BinOp::Shl => a.checked_shl(u32::try_from(b).ok()?)?,
                    BinOp::Shr => a.checked_shr(u32::try_from(b).ok()?)?,
                    BinOp::BitAnd => a & b,
                    BinOp::BitOr => a | b,
                    BinOp::BitXor => a ^ b,
                    BinOp::Eq => (a == b) as i64,
                    BinOp::Ne => (a != b) as i64,
                    BinOp::Lt => (a < b) as i64,
                    BinOp::Le => (a <= b) as i64,
                    BinOp::Gt => (a > b) as i64,
                    BinOp::Ge => (a >= b) as i64,
                };
                if op.is_comparison() {
                    Some(v)
                } else {
                    self.int_value(e.ty, v as u64)
                }
            }
            ExprKind::Cond(c, a, b) => {
                if self.eval(c)? != 0 {
                    self.eval(a)
                } else {
                    self.eval(b)
                }
            }
            ExprKind::LogicalAnd(a, b) => Some((self.eval(a)? != 0 && self.eval(b)? != 0) as i64),
            ExprKind::LogicalOr(a, b) => Some((self.eval(a)? != 0 || self.eval(b)? != 0) as i64),
            _ => None,
        }
    }
}

/// How a loop's step changes its counter.
enum Delta<'e> {
    Const(i64),
    Expr(&'e Expr),
}

/// The counter and its change of a step `x++`, `x--`, `x += e`, `x -= c`, `x = x + e`.
fn step_of(e: &Expr) -> Option<(LocalId, Delta<'_>)> {
    match &e.kind {
        ExprKind::IncDec { place: Place::Local(x), delta, .. } => Some((*x, Delta::Const(*delta as i64))),
        ExprKind::CompoundAssign { op: BinOp::Add, place: Place::Local(x), value, .. } => Some((*x, Delta::Expr(value))),
        ExprKind::CompoundAssign { op: BinOp::Sub, place: Place::Local(x), value, .. } => match value.strip_casts().kind {
            ExprKind::Int(c) => Some((*x, Delta::Const((c as i64).checked_neg()?))),
            _ => None,
        },
        ExprKind::Assign { place: Place::Local(x), value } => match &value.strip_casts().kind {
            ExprKind::Binary(BinOp::Add, a, b) if matches!(a.strip_casts().kind, ExprKind::Local(l) if l == *x) => Some((*x, Delta::Expr(b))),
            _ => None,
        },
        ExprKind::Cast(x) => step_of(x),
        _ => None,
    }
}

/// `a op b` as `b op' a`.
fn flip(op: BinOp) -> Option<BinOp> {
    Some(match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        BinOp::Ne => BinOp::Ne,
        _ => return None,
    })
}

/// The register local node `e` itself writes, if any.
fn written_locals_top(e: &Expr, out: &mut Vec<LocalId>) {
    match &e.kind {
        ExprKind::Assign { place: Place::Local(x), .. } | ExprKind::CompoundAssign { place: Place::Local(x), .. } | ExprKind::IncDec { place: Place::Local(x), .. } => out.push(*x),
        _ => {}
    }
}

/// The register locals `e` writes, anywhere inside it.
fn written_locals_expr(e: &Expr, out: &mut Vec<LocalId>) {
    accsim_core::ir::visit::walk_expr(e, true, &mut |_| {}, &mut |x| written_locals_top(x, out));
}

fn add(a: u64, b: u64) -> u64 {
    a.saturating_add(b).min(SATURATED)
}

fn mul(a: u64, b: u64) -> u64 {
    a.saturating_mul(b).min(SATURATED)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROGRAM: &str = r#"
static double sum(int n, const double *x) { double s = 0.0; for (int i = 0; i < n; i++) s += x[i] * 0.5; return s; }
static int wait_until(int n) { int k = 0; while (k < n) k++; return k; }
static int square(int v) { return v * v + 1; }
static void clear_odd(int n, double *x) { for (int i = n - 1; i >= 0; i -= 2) x[i] = 0.0; }
static void scale(int n, double *restrict y, double a)
{
#pragma acc parallel loop present(y[0:n])
    for (int i = 0; i < n; i++)
        y[i] = a * y[i] + (i % 3);
}
int main(void)
{
    double v[64];
    for (int i = 0; i < 64; i++)
        v[i] = i;
    clear_odd(64, v);
#pragma acc data copy(v)
    scale(64, v, 2.0);
    return (int)sum(64, v) + wait_until(3) + square(2);
}
"#;

    fn program() -> Program {
        let mut map = accsim_core::diag::SourceMap::new();
        accsim_core::driver::compile_preprocessed("work.c", PROGRAM.to_string(), &mut map).expect("the test program compiles").program
    }

    fn find<'a>(p: &'a Program, name: &str) -> &'a Function {
        p.functions.iter().find(|f| f.name == name).unwrap_or_else(|| panic!("no function {name}"))
    }

    /// A counted loop's work grows with its trip count, by the same amount per iteration.
    #[test]
    fn a_counted_loop_counts_its_trips_times_its_body() {
        let p = &program();
        {
            let f = find(p, "sum");
            let w = |n: u64| estimate(p, f, &[Some(n), None], false).expect("counted");
            let per_iteration = w(11) - w(10);
            assert!(per_iteration > 5, "{per_iteration}");
            assert_eq!(w(1000) - w(10), 990 * per_iteration);
            assert!(w(0) < per_iteration + 20);
            // A negative bound runs no iteration.
            assert_eq!(estimate(p, f, &[Some((-5i64) as u64), None], false), Some(w(0)));
        }
    }

    /// A downward loop of step 2 runs half as many iterations.
    #[test]
    fn a_downward_loop_of_step_two_counts_half_the_elements() {
        let p = &program();
        {
            let f = find(p, "clear_odd");
            let w = |n: u64| estimate(p, f, &[Some(n), None], false).expect("counted");
            // 10 elements: i = 9, 7, 5, 3, 1; 11 and 12: six iterations; 110: fifty-five.
            let per_iteration = w(11) - w(10);
            assert!(per_iteration > 5, "{per_iteration}");
            assert_eq!(w(12), w(11));
            assert_eq!(w(110) - w(10), 50 * per_iteration);
        }
    }

    /// Work that cannot be counted before the call: a `while` loop, a bound not known.
    #[test]
    fn while_loops_and_unknown_bounds_are_not_counted() {
        let p = &program();
        {
            assert_eq!(estimate(p, find(p, "wait_until"), &[Some(3)], false), None);
            assert_eq!(estimate(p, find(p, "sum"), &[None, None], false), None);
            let square = find(p, "square");
            let w = estimate(p, square, &[Some(2)], false).expect("loop-free");
            assert_eq!(estimate(p, square, &[None], false), Some(w));
        }
    }

    /// A kernel's launch counts one gang's share of the gang loop; times the gangs, the launch's
    /// work grows with the loop's trip count.
    #[test]
    fn a_kernel_counts_its_gang_share_of_the_loop() {
        with_the_kernel(|p, f| {
            let gangs = 8u64;
            let launch = |n: u64| estimate(p, f, &[Some(0), Some(gangs), Some(1), Some(128), Some(n), None, None], true).expect("counted") * gangs;
            let (small, big) = (launch(80), launch(800));
            assert!(big > small);
            assert_eq!((big - small) % 720, 0, "{small} {big}");
            assert_eq!(launch(8000) - big, 10 * (big - small));
        });
    }

    /// Runs `test` on the test program and its one kernel (`scale`'s loop), the fast-share
    /// variant.
    fn with_the_kernel(test: impl FnOnce(&Program, &Function)) {
        let mut map = accsim_core::diag::SourceMap::new();
        let compiled = accsim_core::driver::compile_preprocessed("work.c", PROGRAM.to_string(), &mut map).expect("the test program compiles");
        let fast = compiled.info.fast(accsim_core::ir::acc::KernelId(0)).expect("a fast-share variant");
        test(&compiled.program, &compiled.program.functions[fast.0 as usize]);
    }

    /// A gang loop of fewer iterations than gangs still counts its work: gang 0's share is empty
    /// there, the last gang's is one iteration (regression: every launch of such a kernel ran in
    /// the interpreter, whatever its inner loops did).
    #[test]
    fn a_launch_of_fewer_iterations_than_gangs_counts_its_work() {
        with_the_kernel(|p, f| {
            let launch = |n: u64, gangs: u64| launch_estimate(p, f, gangs, 1, 128, &[Some(n), None, None]).expect("counted");
            // One iteration's work, from 8 gangs (every gang has a share).
            let iteration = (launch(800, 8) - launch(80, 8)) / 720;
            assert!(iteration > 0);
            // 256 gangs over 8 iterations: counted as 256 gangs of one iteration each (at least the
            // 8 iterations' work), never as 256 empty shares.
            assert!(launch(8, 256) >= launch(0, 256) + 8 * iteration, "{} {} {iteration}", launch(8, 256), launch(0, 256));
        });
    }
}
