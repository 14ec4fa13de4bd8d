//! The interpreter's word update of an `atomic` statement (OpenACC 2.0 §2.12): the operand is
//! evaluated once, then [`crate::exec::atomic::update`] changes `x` with a compare-and-swap on
//! its word, then the captured value goes to `v`. Which statements take this path, and why it
//! never meets the lock path on one word, is `exec::atomic`'s module documentation.

use super::*;
use crate::exec::atomic::{update, AtomicForm, Operand, StepOp, UpdateFault};

impl<'a> Cx<'a> {
    /// Emit the word update of the atomic statement at `loc` (the directive; `nested-atomic`
    /// names it) of form `form` (whose accesses and faults are at `form.loc`).
    pub(super) fn atomic_word_update(&mut self, form: &AtomicForm<'_>, loc: Loc) -> R<()> {
        let outer = std::mem::replace(&mut self.in_atomic, true);
        let parts = self.atomic_word_parts(form);
        self.in_atomic = outer;
        let (operand, addr, store) = parts?;
        let step = form.step;
        let capture = form.capture.as_ref().map(|c| (c.conversion(), c.old));
        let checking = self.checking;
        let size = step.x.bytes();
        let (reads, writes) = (step.op != StepOp::Write || capture.is_some(), step.op != StepOp::Read);
        let x_loc = form.loc;
        self.emit(
            Op::Expr(Box::new(move |m| {
                // A routine called in the operand that runs an atomic itself is the error of the
                // lock path too (`nested-atomic`): one atomic statement at a time per thread.
                if let Some(outer) = m.acc.atomic_held {
                    return Err(crate::exec::openacc::atomic_in_atomic(outer, loc));
                }
                // Checking keeps the lock around the update, so that the checkers hear each
                // atomic statement's accesses in one piece, in the order the statements ran.
                let lock = checking.then(|| m.acc.atomic_lock.clone());
                let _held = lock.as_ref().map(|l| l.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
                m.acc.atomic_held = Some(loc);
                let ran = run_word_update(m, step, &operand, &addr, (checking, size, reads, writes), x_loc);
                m.acc.atomic_held = None;
                let (old, new) = ran?;
                if let (Some(store), Some((convert, old_wanted))) = (&store, &capture) {
                    m.acc.atomic_captured = convert.apply(step.x, if *old_wanted { old } else { new });
                    store(m)?;
                }
                Ok(0)
            })),
            loc,
            false,
        );
        Ok(())
    }

    /// The operand's, the target address's and the capture store's code.
    fn atomic_word_parts(&mut self, form: &AtomicForm<'_>) -> R<(ExprFn, ExprFn, Option<ExprFn>)> {
        let operand = match form.operand {
            Operand::None => ef(|_| Ok(0)),
            Operand::Const(c) => ef(move |_| Ok(c)),
            Operand::Expr(e) => self.expr(e)?.into_fn(),
        };
        let addr = Self::addr_fn(self.addr(form.target)?);
        let store = match &form.capture {
            None => None,
            Some(c) => {
                let captured = || Ce::Dyn(ef(|m| Ok(m.acc.atomic_captured)));
                Some(match self.place(c.place, c.ty)? {
                    Ok(slot) => ef(move |m| {
                        m.regs[m.bp + slot] = m.acc.atomic_captured;
                        Ok(0)
                    }),
                    Err(a) => self.store(c.kind(form.step.x), a, captured(), c.loc),
                })
            }
        };
        Ok((operand, addr, store))
    }
}

/// Evaluate the operand and the address, and update the word (with the checker's events for
/// `x` in checking mode: `(checking, size, reads, writes)`).
fn run_word_update(m: &mut Machine<'_>, step: crate::exec::atomic::Step, operand: &ExprFn, addr: &ExprFn, (checking, size, reads, writes): (bool, u64, bool, bool), loc: Loc) -> Result<(u64, u64), Trap> {
    let y = operand(m)?;
    let a = addr(m)?;
    if checking {
        crate::exec::check::before_access(m, a, size, writes, true, loc);
    }
    let done = update(m, step, a, y, checking).map_err(|f| match f {
        UpdateFault::Memory(f) => m.fault(f, loc),
        UpdateFault::Arith(f) => arith_trap(f, loc),
    })?;
    if checking {
        if reads {
            crate::exec::check::access(m, a, size, false, true, loc);
        }
        if writes {
            crate::exec::check::access(m, a, size, true, true, loc);
        }
    }
    Ok(done)
}
