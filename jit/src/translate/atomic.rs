//! Native code of an `atomic` statement of a word form (OpenACC 2.0 §2.12): the operand and the
//! address are computed here, and the update is the interpreter's own
//! ([`accsim_core::exec::atomic::update`], through [`runtime::jit_atomic_update`]), so both
//! engines take the same mechanism for the same statement (a compare-and-swap on the word of
//! `x`; see `exec::atomic`'s module docs) and compute the same value.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, Value};

use accsim_core::diag::Loc;
use accsim_core::exec::atomic::{AtomicForm, Operand, Step, StepOp};
use accsim_core::exec::value::Kind;
use accsim_core::ir::BinOp;

use super::{notrap, Helper, Translator, R};

/// Whether native code does `step` itself: a binary operation in `x`'s own kind that cannot
/// trap. Its compare-and-swap is then inline on `x`'s naturally aligned bytes (4 or 8): the
/// same bytes of the same word the interpreter's word update swaps (x86's locked compare and
/// exchange is atomic against it whatever the width), computed by the same operation as a plain
/// statement's native code. Every other step, and a target that is not in place or not aligned,
/// calls the interpreter's update.
fn inline_step(step: Step) -> bool {
    let StepOp::Binary { op, .. } = step.op else { return false };
    step.x == step.op_kind
        && match step.x {
            Kind::I32 | Kind::U32 | Kind::I64 | Kind::U64 => matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor),
            Kind::F32 | Kind::F64 => matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div),
            _ => false,
        }
}

impl Translator<'_, '_> {
    /// Translate atomic statement `form` (at `form.loc`): operand, then address, then the update; the
    /// captured value, converted, goes to `v` as a plain assignment would store it.
    pub(super) fn atomic_word_update(&mut self, form: &AtomicForm<'_>) -> R<()> {
        let loc = form.loc;
        let y = match form.operand {
            Operand::None => self.iconst(0),
            Operand::Const(c) => self.iconst(c),
            Operand::Expr(e) => self.expr(e)?,
        };
        let (ptr, root) = self.address(form.target)?;
        let old_wanted = form.capture.as_ref().is_some_and(|c| c.old);
        let r = if inline_step(form.step) {
            self.inline_update(form.step, ptr, root, y, old_wanted, loc)?
        } else {
            self.update_call(form.step, ptr, y, old_wanted, loc)
        };
        if let Some(c) = &form.capture {
            let mut k = form.step.x;
            let mut v = r;
            for &to in &c.conversion().0 {
                v = self.cast(k, to, v)?;
                k = to;
            }
            let slot = self.slot(c.place)?;
            self.write_slot(k, slot, v, c.loc)?;
        }
        Ok(())
    }

    /// The interpreter's update of `x` at `ptr` ([`runtime::jit_atomic_update`]).
    fn update_call(&mut self, step: Step, ptr: Value, y: Value, old_wanted: bool, loc: Loc) -> Value {
        let code = self.iconst(step.encode());
        let want_old = self.iconst(old_wanted as u64);
        let l = self.loc(loc);
        let l = self.iconst(l as u64);
        let r = self.helper(Helper::AtomicUpdate, &[self.ctx, ptr, code, y, want_old, l]);
        self.check_trap();
        r.unwrap_or(y)
    }

    /// The compare-and-swap loop of an [`inline_step`] on `x` in place; the interpreter's update
    /// where `x` is not in place (a fault, device memory of a partial copy …) or not aligned.
    fn inline_update(&mut self, step: Step, ptr: Value, root: Value, y: Value, old_wanted: bool, loc: Loc) -> R<Value> {
        let StepOp::Binary { op, reversed } = step.op else { return Err("internal: an atomic step that is not an operation".into()) };
        let size = step.x.bytes();
        let ty = if size == 4 { types::I32 } else { types::I64 };
        let (fast, aligned, again, slow, done) = (self.b.create_block(), self.b.create_block(), self.b.create_block(), self.b.create_block(), self.b.create_block());
        let result = self.b.append_block_param(done, types::I64);
        let addr = self.in_place(ptr, root, size, true, fast, slow);
        self.b.switch_to_block(fast);
        let misaligned = self.b.ins().band_imm_s(addr, size as i64 - 1);
        self.b.ins().brif(misaligned, slow, &[], aligned, &[]);
        self.b.switch_to_block(aligned);
        let mut flags = notrap();
        flags.set_aligned();
        let first = self.b.ins().load(ty, flags, addr, 0);
        let seen = self.b.append_block_param(again, ty);
        self.b.ins().jump(again, &[first.into()]);
        self.b.switch_to_block(again);
        // The canonical word of `x`'s kind (`Kind::from_raw`).
        let old = match step.x {
            Kind::I32 => self.b.ins().sextend(types::I64, seen),
            Kind::U32 | Kind::F32 => self.b.ins().uextend(types::I64, seen),
            _ => seen,
        };
        let new = if reversed { self.binary(op, step.x, y, old, loc)? } else { self.binary(op, step.x, old, y, loc)? };
        let stored = if size == 4 { self.b.ins().ireduce(types::I32, new) } else { new };
        let now = self.b.ins().atomic_cas(flags, addr, seen, stored);
        let swapped = self.b.ins().icmp(IntCC::Equal, now, seen);
        let out = if old_wanted { old } else { new };
        self.b.ins().brif(swapped, done, &[out.into()], again, &[now.into()]);
        self.b.switch_to_block(slow);
        self.b.set_cold_block(slow);
        let r = self.update_call(step, ptr, y, old_wanted, loc);
        self.b.ins().jump(done, &[r.into()]);
        self.b.switch_to_block(done);
        Ok(result)
    }
}
