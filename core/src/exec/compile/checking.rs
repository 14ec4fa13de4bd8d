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
