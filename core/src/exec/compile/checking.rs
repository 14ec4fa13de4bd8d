//! Checking hooks (`accsim check`): accesses that report themselves to the run's checker, and
//! the thread events of partitioned loops (see [`crate::exec::check`]).

use super::*;

impl<'a> Cx<'a> {
    /// A load that reports itself to the checker (checking mode), its address computed inline
    /// in the shapes the ordinary loads fuse.
    pub(super) fn checked_load(&self, k: Kind, addr: CAddr, loc: Loc) -> Ce {
        if matches!(k, Kind::Void | Kind::Aggregate) {
            return Ce::Dyn(addr.into_fn());
        }
        let (atomic, size) = (self.in_atomic, kind_size(k));
        Ce::Dyn(with_caddr!(addr, |m, () = (), a| {
            crate::exec::check::before_access(m, a, size, false, atomic, loc);
            let v = m.load_kind(k, a).map_err(|f| m.fault(f, loc))?;
            crate::exec::check::access(m, a, size, false, atomic, loc);
            Ok(v)
        }))
    }

    /// The address of a read-modify-write (`x op= v`, `x++`): in checking mode it reports a
    /// read and a write of the place.
    pub(super) fn checked_rw(&self, addr: ExprFn, k: Kind, loc: Loc) -> ExprFn {
        if !self.checking {
            return addr;
        }
        let (atomic, size) = (self.in_atomic, kind_size(k));
        ef(move |m| {
            let a = addr(m)?;
            crate::exec::check::before_access(m, a, size, true, atomic, loc);
            crate::exec::check::access(m, a, size, false, atomic, loc);
            crate::exec::check::access(m, a, size, true, atomic, loc);
            Ok(a)
        })
    }

    /// The checker's level and the thread-index slot of a worker or vector partition of a
    /// kernel ([`crate::ir::acc::Partition`]).
    pub(super) fn partition_slot(&self, part: &crate::ir::acc::Partition) -> Option<(crate::exec::check::Level, usize)> {
        let level = match part.level {
            crate::ir::acc::Level::Worker => crate::exec::check::Level::Worker,
            crate::ir::acc::Level::Vector => crate::exec::check::Level::Vector,
            crate::ir::acc::Level::Gang => return None,
        };
        match self.homes.get(part.var.0 as usize) {
            Some(Home::Reg(s)) => Some((level, *s)),
            _ => None,
        }
    }

    /// A partition loop in checking mode: the checker hears where it begins, each thread's
    /// iteration, and where its threads rejoin.
    pub(super) fn checked_partition(&mut self, p: (crate::exec::check::Level, usize), s: &Stmt, sub: bool) -> R<()> {
        use crate::exec::check::{thread_event, ThreadEvent};
        let (level, loc) = (p.0, s.loc);
        self.emit(Op::Expr(ef(move |m| {
            thread_event(m, ThreadEvent::PartitionBegin(level, loc));
            Ok(0)
        })), loc, false);
        self.partition = Some(p);
        let r = self.stmt_inner(s, sub);
        self.partition = None;
        r?;
        self.emit(Op::Expr(ef(move |m| {
            thread_event(m, ThreadEvent::PartitionEnd(level));
            Ok(0)
        })), loc, false);
        Ok(())
    }

    /// At the top of a partition loop's body: report the thread whose iteration starts.
    pub(super) fn partition_iteration(&mut self, loc: Loc) {
        if let Some((level, slot)) = self.partition.take() {
            self.emit(Op::Expr(ef(move |m| {
                let t = m.regs[m.bp + slot];
                crate::exec::check::thread_event(m, crate::exec::check::ThreadEvent::Partition(level, t));
                Ok(0)
            })), loc, false);
        }
    }
}

/// The register locals of `f` that the threads of one of its worker or vector partitions share
/// with the code around the partition, which a checking executable keeps in memory so the
/// checker sees their accesses: those written inside a partition and referenced outside it.
///
/// **Rule.** A variable of a `parallel`/`kernels` region's gang-level code (declared in a gang
/// loop's body, or a gang's private or firstprivate copy) is one variable per gang (§2.5.10,
/// §2.5.11, §2.7.10), shared by the gang's workers and vector lanes unless a clause of the
/// worker or vector loop makes it theirs (§2.7.10 `private`, §2.7.11 `reduction`); likewise a
/// `routine worker`'s locals are shared by the lanes of its vector loops. In the ordinary
/// executable such a scalar is a register of the gang's frame, where the checker cannot see
/// it. A register local written only inside a partition (a lane's own temporary, a loop
/// counter, a private copy the lowering made) is not moved: it carries no value out of the
/// partition. The checker decides which accesses of the moved locals are races
/// (`accsim::check::shared_frame`).
pub(super) fn partition_shared_locals(f: &Function) -> Vec<bool> {
    let n = f.locals.len();
    let mut shared = vec![false; n];
    if !contains_partition(&f.body) {
        return shared;
    }
    // Per local: the partitions (by number) with a write of it inside, and the chains of
    // enclosing partitions of each of its references.
    let mut written_in: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut refs: Vec<Vec<Vec<u32>>> = vec![Vec::new(); n];
    let mut thread_vars = vec![false; n];
    let mut walker = RefWalker { stack: Vec::new(), next: 0, written_in: &mut written_in, refs: &mut refs, thread_vars: &mut thread_vars };
    walker.stmt(&f.body);
    for l in 0..n {
        if thread_vars[l] || f.locals[l].storage != Storage::Register {
            continue;
        }
        shared[l] = written_in[l].iter().any(|p| refs[l].iter().any(|chain| !chain.contains(p)));
    }
    shared
}

fn contains_partition(s: &Stmt) -> bool {
    let mut found = false;
    crate::ir::visit::walk(s, true, &mut |x| found |= matches!(x.kind, StmtKind::Partition(_)), &mut |_| {});
    found
}

/// The walk of [`partition_shared_locals`]: each reference of a local with the partitions
/// around it.
struct RefWalker<'w> {
    stack: Vec<u32>,
    next: u32,
    written_in: &'w mut Vec<Vec<u32>>,
    refs: &'w mut Vec<Vec<Vec<u32>>>,
    thread_vars: &'w mut Vec<bool>,
}

impl RefWalker<'_> {
    fn stmt(&mut self, s: &Stmt) {
        if let StmtKind::Partition(p) = &s.kind {
            if let Some(t) = self.thread_vars.get_mut(p.var.0 as usize) {
                *t = true;
            }
            self.expr(&p.count);
            self.next += 1;
            self.stack.push(self.next);
            self.stmt(&p.body);
            self.stack.pop();
            return;
        }
        crate::ir::visit::stmt_parts(s, &mut |part| match part {
            crate::ir::visit::Part::Stmt(x) => self.stmt(x),
            crate::ir::visit::Part::Expr(e) => self.expr(e),
        });
    }

    fn expr(&mut self, e: &Expr) {
        crate::ir::visit::visit_exprs(e, &mut |x| {
            match &x.kind {
                ExprKind::Local(l) => self.reference(*l, false),
                ExprKind::Assign { place: Place::Local(l), .. } | ExprKind::CompoundAssign { place: Place::Local(l), .. } | ExprKind::IncDec { place: Place::Local(l), .. } => self.reference(*l, true),
                _ => {}
            }
        });
        // Statements inside expressions (initializers, statement expressions).
        let mut inner = Vec::new();
        crate::ir::visit::visit_exprs(e, &mut |x| inner.extend(crate::ir::visit::expr_stmts(x).iter()));
        for st in inner {
            self.stmt(st);
        }
    }

    fn reference(&mut self, l: LocalId, write: bool) {
        let i = l.0 as usize;
        if i >= self.refs.len() {
            return;
        }
        if write {
            for &p in &self.stack {
                if !self.written_in[i].contains(&p) {
                    self.written_in[i].push(p);
                }
            }
        }
        if !self.refs[i].contains(&self.stack) {
            self.refs[i].push(self.stack.clone());
        }
    }
}
