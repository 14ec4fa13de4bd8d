//! Whether a kernel local needs a home that the threads of a block share (`__shared__`), or can
//! be a register of each thread.
//!
//! # Model
//!
//! The IR's kernel function runs once per gang, and its worker and vector loops
//! ([`crate::emit`]'s thread loops) run the threads' shares one after another in that one
//! activation: a local of the kernel is one variable for the gang. On the GPU every thread has
//! its own registers, and code outside partitioned loops runs redundantly in every thread, so a
//! local computed there has the same value in every thread. A value reaches other threads only
//! where it is written inside a partitioned loop and read afterwards outside that loop (the
//! variable of a worker/vector `reduction`, a result that the last thread leaves), or read inside
//! the loop by a thread that did not write it. Only such a local needs a shared slot.
//!
//! So a local that a thread loop writes stays a register when it is *dead* where the loop ends
//! (every path from there writes it before reading it) and *dead* where each thread's share
//! begins (each thread writes it before it reads it). This is the common C89 shape of a loop
//! counter declared once and used by several loop nests (`int i, j, k;` at the top of a
//! PolyBench kernel): `i` is a sequential counter inside a vector loop and the counter of a gang
//! loop elsewhere, but no value flows between the two uses. OpenACC itself makes the counter of a
//! partitioned loop private (§2.6.1) and leaves other scalars to the data attributes (§2.5.1,
//! §2.6.1); accsim runs the threads of a gang in one activation, where such a local written before
//! it is read gives every thread the value it wrote, as a register does.
//!
//! The same holds for a per-gang `firstprivate` or `private` scalar copy that the kernel reaches
//! through its parameter (`*k_addr = 0` … `(*k_addr)++`, a counter that lives in memory on the
//! host): when no value flows between threads through it, each thread keeps its own copy
//! ([`cell_flows_between_threads`]), where in one gang-wide copy the lanes of a vector loop
//! would overwrite each other's counter on the GPU.
//!
//! # Limits (conservative: a local the analysis cannot follow keeps its shared home)
//!
//! A local whose address is taken, that an `atomic` construct (or a reduction combine, which the
//! scheduler wraps in one) writes, or that a complex operation or a call result writes, is not
//! followed; nor is any local of a function with `goto`, nor a copy whose pointer is used other
//! than to load or store the copy itself. Inside a `switch`, a local that the body mentions is
//! taken as live.

use accsim_core::ir::acc::AccKind;
use accsim_core::ir::*;

use crate::emit::{walk_expr, walk_stmt};

/// Whether `l`, a local of kernel function `func`, carries a value out of a thread loop that
/// writes it, or into a thread's share from outside it — i.e. whether threads of a block
/// communicate through it. `true` when the analysis cannot tell (see the module's limits).
pub(crate) fn flows_between_threads(p: &Program, func: &Function, l: LocalId) -> bool {
    flows(p, func, Var::Local(l))
}

/// [`flows_between_threads`] for the scalar that pointer parameter `ptr` points to (a per-gang
/// copy): `true` also when `ptr` is used other than as the address of a load or a store.
pub(crate) fn cell_flows_between_threads(p: &Program, func: &Function, ptr: LocalId) -> bool {
    flows(p, func, Var::Cell(ptr))
}

fn flows(p: &Program, func: &Function, var: Var) -> bool {
    if !followable(p, func, var) {
        return true;
    }
    let mut cx = Live { var, flows: false };
    cx.stmt(&func.body, false, false, false);
    cx.flows
}

/// What the analysis follows: a local by name, or the object a pointer parameter points to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Var {
    Local(LocalId),
    Cell(LocalId),
}

impl Var {
    /// Is `place` this variable?
    fn is_place(self, place: &Place) -> bool {
        match (self, place) {
            (Var::Local(l), Place::Local(x)) => *x == l,
            (Var::Cell(p), Place::Mem(a)) => matches!(a.strip_casts().kind, ExprKind::Local(x) if x == p),
            _ => false,
        }
    }

    /// Is `e` a read of this variable (by itself, not counting its operands)?
    fn is_read(self, e: &Expr) -> bool {
        match (self, &e.kind) {
            (Var::Local(l), ExprKind::Local(y) | ExprKind::LocalAddr(y)) => *y == l,
            (Var::Cell(p), ExprKind::Load(a)) => matches!(a.strip_casts().kind, ExprKind::Local(x) if x == p),
            (_, ExprKind::CompoundAssign { place, .. } | ExprKind::IncDec { place, .. }) => self.is_place(place),
            _ => false,
        }
    }
}

/// The variable is only read and assigned (a local by name, never by address, atomically, as a
/// complex result or a call's result; a cell only through loads and stores of it), in a function
/// without `goto`.
fn followable(p: &Program, func: &Function, var: Var) -> bool {
    let mut ok = true;
    walk_stmt_all(&func.body, &mut |s| {
        if matches!(s.kind, StmtKind::Goto(_)) {
            ok = false;
        }
        if let StmtKind::Acc { directive, body: Some(b) } = &s.kind {
            // `atomic` bodies (and the combines the scheduler wraps in `atomic update`).
            let atomic = p.acc.get(directive.0 as usize).and_then(|d| d.as_ref()).is_some_and(|d| matches!(d.kind, AccKind::Atomic(_)));
            if atomic && writes(b, var) {
                ok = false;
            }
        }
    });
    match var {
        Var::Local(l) => walk_stmt(&func.body, &mut |e| match &e.kind {
            ExprKind::LocalAddr(x) if *x == l => ok = false,
            ExprKind::ComplexBinary { dst, .. } | ExprKind::ComplexNeg { dst, .. } | ExprKind::ComplexMake { dst, .. } if *dst == l => ok = false,
            ExprKind::Call { result: Some(r), .. } if *r == l => ok = false,
            _ => {}
        }),
        Var::Cell(ptr) => {
            // Every mention of the pointer is the address of a load or a store of the cell.
            let (mut mentions, mut accesses) = (0usize, 0usize);
            walk_stmt(&func.body, &mut |e| match &e.kind {
                ExprKind::Local(x) if *x == ptr => mentions += 1,
                ExprKind::Load(_) if var.is_read(e) => accesses += 1,
                ExprKind::Assign { place, .. } | ExprKind::CompoundAssign { place, .. } | ExprKind::IncDec { place, .. } if var.is_place(place) => accesses += 1,
                ExprKind::Assign { place: Place::Local(x), .. } | ExprKind::CompoundAssign { place: Place::Local(x), .. } | ExprKind::IncDec { place: Place::Local(x), .. } if *x == ptr => ok = false,
                _ => {}
            });
            ok &= mentions == accesses;
        }
    }
    ok
}

/// [`walk_stmt`]'s statements, those inside expressions included.
fn walk_stmt_all<'a>(s: &'a Stmt, g: &mut dyn FnMut(&'a Stmt)) {
    crate::emit::walk_stmt_and(s, g, &mut |_| {});
}

/// Does statement `s` write the variable anywhere?
fn writes(s: &Stmt, var: Var) -> bool {
    let mut w = false;
    walk_stmt(s, &mut |e| match &e.kind {
        ExprKind::Assign { place, .. } | ExprKind::CompoundAssign { place, .. } | ExprKind::IncDec { place, .. } => w |= var.is_place(place),
        ExprKind::Call { result: Some(x), .. } => w |= var == Var::Local(*x),
        _ => {}
    });
    w
}

/// Backward liveness of one variable over the structured statements of a function.
struct Live {
    var: Var,
    /// A thread loop writes `l` and `l` is live where the loop ends or where a share begins.
    flows: bool,
}

impl Live {
    /// Does evaluating `e` read the variable (an update `l += …` reads it too)?
    fn reads(&self, e: &Expr) -> bool {
        let var = self.var;
        let mut r = false;
        walk_expr(e, &mut |x| r |= var.is_read(x));
        r
    }

    /// Does evaluating `e` certainly assign the variable a whole new value (`l = v`, `v` not
    /// reading it)?
    fn kills(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Assign { place, value } => self.var.is_place(place) && !self.reads(value),
            ExprKind::Comma(a, _) => self.kills(a),
            ExprKind::Cast(x) => self.kills(x),
            _ => false,
        }
    }

    /// Is `l` live before `s`, given whether it is live after it (`after`), at the `break` target
    /// (`brk`) and at the `continue` target (`cont`) of the innermost enclosing loop? Every
    /// statement inside `s` is visited (no short circuit), so that each thread loop is checked.
    fn stmt(&mut self, s: &Stmt, after: bool, brk: bool, cont: bool) -> bool {
        match &s.kind {
            StmtKind::Empty | StmtKind::Label(_) | StmtKind::AccLaunch(_) | StmtKind::Acc { body: None, .. } => after,
            StmtKind::VlaAlloc(x) => self.var == Var::Local(*x) || after,
            // Not followed (see `followable`): a `goto` makes every local shared.
            StmtKind::Goto(_) => true,
            StmtKind::Break => brk,
            StmtKind::Continue => cont,
            StmtKind::Return(e) => e.as_ref().is_some_and(|e| self.reads(e)),
            StmtKind::Expr(e) => self.reads(e) || (!self.kills(e) && after),
            StmtKind::ZeroFill { addr, .. } => self.reads(addr) || after,
            StmtKind::Block(v) => v.iter().rev().fold(after, |live, x| self.stmt(x, live, brk, cont)),
            StmtKind::If(c, t, e) => {
                let t = self.stmt(t, after, brk, cont);
                let e = match e {
                    Some(e) => self.stmt(e, after, brk, cont),
                    None => after,
                };
                self.reads(c) || t || e
            }
            StmtKind::While(c, b) => {
                let c_reads = self.reads(c);
                // The body first: its thread loops are checked whatever the condition reads.
                self.fixpoint(|cx, head| cx.stmt(b, head, after, head) || c_reads || after)
            }
            StmtKind::DoWhile(b, c) => {
                let c_reads = self.reads(c);
                // `head`: live before the body; the condition follows the body.
                self.fixpoint(|cx, head| {
                    let at_cond = c_reads || after || head;
                    cx.stmt(b, at_cond, after, at_cond)
                })
            }
            StmtKind::Partition(p) => {
                if writes(&p.body, self.var) {
                    // A thread's share: `l` must be dead where it begins and where the loop ends.
                    let at_share = self.stmt(&p.body, false, false, false);
                    self.flows |= at_share || after;
                }
                // The threads run one after the other as far as values go: a loop
                // `for (var = 0; var < count; var++)` over the body.
                let count_reads = self.reads(&p.count);
                let head = self.fixpoint(|cx, head| cx.stmt(&p.body, head, after, head) || count_reads || after);
                // `var = 0` before the first thread kills the variable when it is `var`.
                !self.var.is_place(&Place::Local(p.var)) && head
            }
            StmtKind::For { init, cond, step, body } => {
                let cond_reads = cond.as_ref().is_some_and(|c| self.reads(c));
                let exits = cond.is_some() && after;
                let head = self.fixpoint(|cx, head| {
                    let at_step = match step {
                        Some(st) => cx.reads(st) || (!cx.kills(st) && head),
                        None => head,
                    };
                    cx.stmt(body, at_step, after, at_step) || cond_reads || exits
                });
                match init {
                    Some(i) => self.stmt(i, head, brk, cont),
                    None => head,
                }
            }
            StmtKind::Switch { cond, body, .. } => {
                // Cases are labels inside the body: `l` is live at the switch if the body
                // mentions it, and live everywhere inside (for the thread loops there).
                self.stmt(body, true, true, true);
                let mut mentioned = false;
                let var = self.var;
                walk_stmt(body, &mut |e| {
                    mentioned |= var.is_read(e)
                        || match &e.kind {
                            ExprKind::Assign { place, .. } => var.is_place(place),
                            _ => false,
                        }
                });
                self.reads(cond) || mentioned || after
            }
            StmtKind::Acc { body: Some(b), .. } => self.stmt(b, after, brk, cont),
        }
    }

    /// The least fixpoint of a loop's liveness at its head (a boolean: at most two rounds).
    fn fixpoint(&mut self, mut f: impl FnMut(&mut Self, bool) -> bool) -> bool {
        let mut head = false;
        loop {
            let next = f(self, head);
            if next == head {
                return head;
            }
            head = next;
        }
    }
}
