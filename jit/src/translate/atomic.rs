//! Native code of an `atomic` statement of a word form (OpenACC 2.0 §2.12): the operand and the
//! address are computed here, and the update is the interpreter's own
//! ([`accsim_core::exec::atomic::update`], through [`runtime::jit_atomic_update`]), so both
//! engines take the same mechanism for the same statement (a compare-and-swap on the word of
//! `x`; see `exec::atomic`'s module docs) and compute the same value.

use accsim_core::diag::Loc;
use accsim_core::exec::atomic::{AtomicForm, Operand};

use super::{Helper, Translator, R};

impl Translator<'_, '_> {
    /// Translate atomic statement `form` at `loc`: operand, then address, then the update; the
    /// captured value, converted, goes to `v` as a plain assignment would store it.
    pub(super) fn atomic_word_update(&mut self, form: &AtomicForm<'_>, loc: Loc) -> R<()> {
        let y = match form.operand {
            Operand::None => self.iconst(0),
            Operand::Const(c) => self.iconst(c),
            Operand::Expr(e) => self.expr(e)?,
        };
        let (ptr, _) = self.address(form.target)?;
        let step = self.iconst(form.step.encode());
        let want_old = self.iconst(form.capture.as_ref().is_some_and(|c| c.old) as u64);
        let l = self.loc(loc);
        let l = self.iconst(l as u64);
        let r = self.helper(Helper::AtomicUpdate, &[self.ctx, ptr, step, y, want_old, l]).ok_or("no result of the atomic helper")?;
        self.check_trap();
        if let Some(c) = &form.capture {
            let mut k = form.step.x;
            let mut v = r;
            for &to in &c.conversion().0 {
                v = self.cast(k, to, v)?;
                k = to;
            }
            let slot = self.slot(c.place)?;
            self.write_slot(k, slot, v, loc)?;
        }
        Ok(())
    }
}
