//! The number of gangs of a compute construct without `num_gangs`.
//!
//! §2.5.6: "If the clause is not specified, an implementation-defined default will be used; the
//! default may depend on the code within the construct." (A kernels construct's kernels get the
//! count the compiler chooses, §2.5.2, unless a loop's `gang(n)` names it, §2.7.2.)
//!
//! **The rule** (nvc's, for the same reason: one gang per vector's worth of iterations):
//! when the kernel's first gang-partitioned loop has bounds that are values at region entry, the
//! kernel launches `ceil(iterations / vector_length)` gangs, clamped to
//! `1..=`[`MAX_DEFAULT_GANGS`] (`collapse(n)`: the iterations of the n loops multiplied);
//! otherwise [`DEFAULT_GANGS`]. `--gangs N` gives N to every construct without `num_gangs`
//! instead.
//!
//! The count depends on the program and its input only, never on the machine or on
//! `--threads`, so a run prints the same on every host (a reduction's partial sums, one per gang,
//! are combined in gang order: the gang count decides a float reduction's rounding). The
//! simulator and the GPU back-end launch the count the launch computes here
//! (`exec::compile::offload`, [`launch_gangs`]), so `validate` compares like with like.
//!
//! **Values at region entry.** The bound expressions are evaluated on the host when the kernel
//! is launched, so they may read only what has the same value there and at the loop: integer
//! constants, and integer locals from outside the region and globals that the region never
//! writes nor takes the address of and no `private`/`reduction` clause renews, combined by
//! integer arithmetic that cannot trap (division only by a positive constant). Anything else —
//! an array element, a call, a variable set inside the region — leaves the kernel to
//! [`DEFAULT_GANGS`]. Any value would be a legal count; this rule makes it the one the loop
//! has. The launch reads the variables unobserved (no checker sees them: they are not the
//! program's accesses).
//!
//! **The cap.** Every gang has its own private and reduction copies and runs the region's
//! gang-redundant code; 256 gangs keep 16 device threads busy in whole rounds with a 1.5% tail
//! at most while the copies stay small (samples/bench/RESULTS.md, session 11, "default gang
//! count").

use std::collections::HashSet;

use crate::diag::Loc;
use crate::ir::acc::*;
use crate::ir::*;

use super::build::Builder;

/// Gangs of a construct without `num_gangs` whose gang loop's iterations are not known at entry.
pub const DEFAULT_GANGS: u64 = 8;

/// The most gangs the iteration rule gives a construct.
pub const MAX_DEFAULT_GANGS: u64 = 256;

/// The default gang count of a launch (module docs): `iterations` of the kernel's first gang
/// loop when known at entry, the launch's `vector_length`.
pub fn default_gangs(iterations: Option<i64>, vector_length: u64) -> u64 {
    match iterations {
        Some(n) => (n.max(0) as u64).div_ceil(vector_length.max(1)).clamp(1, MAX_DEFAULT_GANGS),
        None => DEFAULT_GANGS,
    }
}

/// What the outliner knows of the region for [`gang_loop_iterations`].
pub(crate) struct RegionVars<'a> {
    /// Host locals declared outside the region that the region uses.
    pub external: &'a [LocalId],
    /// Host locals whose kernel value is not their host value at launch: gang copies that do
    /// not start with it (`private`, `reduction`), and the locals that stand for struct members.
    pub excluded: HashSet<LocalId>,
}

/// The iteration count of the loop at `loop_loc` (a loop directive's location, or an auto loop's
/// in a kernels construct) with `collapse` associated loops, found in the host-scope region body
/// `body`, when its bounds are values at region entry (module docs).
pub(crate) fn gang_loop_iterations(body: &Stmt, loop_loc: Loc, collapse: u32, acc: &[Option<AccDirective>], vars: &RegionVars<'_>, b: &mut Builder<'_>) -> Option<GangLoopIterations> {
    let for_stmt = find_loop(body, loop_loc, acc)?.clone();
    let written = Written::of(body);
    let entry_local = |l| vars.external.contains(&l) && !written.locals.contains(&l) && !vars.excluded.contains(&l);
    let entry_global = |g| !written.globals.contains(&g);
    let entry_value = |e: &Expr, b: &Builder<'_>| is_entry_value(e, b.types, &entry_local, &entry_global);
    let long = b.long_ty();
    let mut cur = for_stmt;
    let mut product: Option<Expr> = None;
    for level in 0..collapse.max(1) {
        let c = super::schedule::canon(cur, b).ok()?;
        if !c.pre.is_empty() || !entry_value(&c.lb, b) || !entry_value(&c.ub, b) || !entry_value(&c.step, b) {
            return None;
        }
        let (lb, ub) = (b.cast(c.lb, long), b.cast(c.ub, long));
        let trip = super::schedule::trip_count_of(b, lb, ub, c.step, c.cmp);
        product = Some(match product {
            Some(p) => b.bin(BinOp::Mul, p, trip),
            None => trip,
        });
        cur = if level + 1 < collapse { super::schedule::single_inner(c.body) } else { c.body };
    }
    Some(GangLoopIterations { iterations: product?, loop_loc })
}

/// The `for` statement of the loop at `loc`: the body of a `loop` directive there, or a `for`
/// there without a directive (an auto loop of a kernels construct, §2.7.6).
fn find_loop<'a>(body: &'a Stmt, loc: Loc, acc: &[Option<AccDirective>]) -> Option<&'a Stmt> {
    let mut found = None;
    let mut under_directive = HashSet::new();
    crate::ir::visit::walk(body, false, &mut |s| {
        if found.is_some() {
            return;
        }
        match &s.kind {
            StmtKind::Acc { directive, body: Some(inner) } => {
                if let Some(Some(d)) = acc.get(directive.0 as usize) {
                    if matches!(d.kind, AccKind::Loop) {
                        under_directive.insert(&**inner as *const Stmt);
                        if d.loc == loc && matches!(inner.kind, StmtKind::For { .. }) {
                            found = Some(&**inner);
                        }
                    }
                }
            }
            StmtKind::For { .. } if s.loc == loc && !under_directive.contains(&(s as *const Stmt)) => found = Some(s),
            _ => {}
        }
    }, &mut |_| {});
    found
}

/// The variables whose value the region may change: register locals it assigns (a loop
/// variable, a temporary, a scalar the region updates), and memory locals and globals it stores
/// to or whose address it takes other than to load or store them.
#[derive(Default)]
struct Written {
    locals: HashSet<LocalId>,
    globals: HashSet<GlobalId>,
}

impl Written {
    fn of(body: &Stmt) -> Written {
        let mut w = Written::default();
        // Addresses loaded from or stored to directly (pre-order: seen before the address
        // itself); every other address taken escapes.
        let mut direct: HashSet<*const Expr> = HashSet::new();
        crate::ir::visit::walk(body, true, &mut |_| {}, &mut |e| match &e.kind {
            ExprKind::Assign { place, .. } | ExprKind::CompoundAssign { place, .. } | ExprKind::IncDec { place, .. } => match place {
                Place::Local(l) => {
                    w.locals.insert(*l);
                }
                Place::Mem(a) => {
                    w.variable(a);
                    direct.insert(&**a as *const Expr);
                }
            },
            ExprKind::Load(a) => {
                direct.insert(&**a as *const Expr);
            }
            ExprKind::LocalAddr(_) | ExprKind::GlobalAddr(_) if !direct.contains(&(e as *const Expr)) => w.variable(e),
            _ => {}
        });
        w
    }

    fn variable(&mut self, addr: &Expr) {
        match addr.strip_casts().kind {
            ExprKind::LocalAddr(l) => {
                self.locals.insert(l);
            }
            ExprKind::GlobalAddr(g) => {
                self.globals.insert(g);
            }
            _ => {}
        }
    }
}

/// `e` is an integer expression of constants and variables `entry_local`/`entry_global` accept
/// whose evaluation cannot trap (module docs).
fn is_entry_value(e: &Expr, types: &TypeTable, entry_local: &dyn Fn(LocalId) -> bool, entry_global: &dyn Fn(GlobalId) -> bool) -> bool {
    if !types.is_integer(e.ty) {
        return false;
    }
    let ok = |x: &Expr| is_entry_value(x, types, entry_local, entry_global);
    match &e.kind {
        ExprKind::Int(_) => true,
        // A register local; a scalar memory local or global.
        ExprKind::Local(l) => entry_local(*l),
        ExprKind::Load(a) => match a.kind {
            ExprKind::LocalAddr(l) => entry_local(l),
            ExprKind::GlobalAddr(g) => entry_global(g),
            _ => false,
        },
        ExprKind::Cast(x) => ok(x),
        ExprKind::Unary(UnOp::Neg | UnOp::BitNot | UnOp::Not, x) => ok(x),
        // A positive constant below 2^31 stays positive in every integer type division promotes
        // to: neither a division by zero nor MIN / -1.
        ExprKind::Binary(BinOp::Div | BinOp::Rem, x, y) => ok(x) && matches!(y.strip_casts().kind, ExprKind::Int(v) if (1..=i32::MAX as u64).contains(&v)),
        ExprKind::Binary(_, x, y) => ok(x) && ok(y),
        ExprKind::Cond(c, x, y) => ok(c) && ok(x) && ok(y),
        _ => false,
    }
}
