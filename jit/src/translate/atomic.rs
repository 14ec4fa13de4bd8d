//! Native code of an `atomic` statement of a word form (OpenACC 2.0 §2.12): the operand and the
//! address are computed here, and the update of `x` is done the way the interpreter's
//! ([`accsim_core::exec::atomic::update`]) is: one read-modify-write of the word of `x` that no
//! other thread's access can fall into (see `exec::atomic`'s module docs), computing the same
//! value with the same operation. Steps native code does not do itself call that update
//! (through [`crate::runtime::jit_atomic_update`]).

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, AtomicRmwOp, InstBuilder, MemFlagsData, Value};

use accsim_core::diag::Loc;
use accsim_core::exec::atomic::{AtomicForm, Operand, Step, StepOp};
use accsim_core::exec::value::Kind;
use accsim_core::ir::BinOp;

use super::{notrap, Helper, Translator, R};
use crate::runtime::OFF_ALONE;

/// Whether native code does `step` itself: a binary operation in `x`'s own kind that cannot
/// trap. Its locked instruction (`lock xadd`, `lock cmpxchg`) is then inline on `x`'s naturally
/// aligned bytes (4 or 8): the same bytes of the same word the interpreter's word update swaps
/// (x86's locked instructions are atomic against each other whatever the width), computed by
/// the same operation as a plain statement's native code. Every other step, and a target that is not in place or not aligned,
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
        let r = self.helper(Helper::AtomicUpdate, &[self.ctx, ptr, code, y, want_old, l]);
        self.check_trap();
        r.unwrap_or(y)
    }

    /// The update of an [`inline_step`] on `x` in place; the interpreter's update where `x` is
    /// not in place (a fault, device memory of a partial copy …) or not aligned.
    ///
    /// Where the entry runs alone ([`crate::runtime::Ctx::alone`]: no other thread touches the memory,
    /// as with one device thread), a plain load, operation and store: no access can fall between
    /// them, so no program can tell it from a locked update (x86's `lock` costs about twenty
    /// cycles, most of a histogram's bin update). Otherwise one locked instruction: `lock xadd`
    /// for an integer `x += e`/`x -= e` (its old value comes back; the new one is the same
    /// operation on it, so both engines compute the same values), a compare-and-swap loop for
    /// the other operations.
    fn inline_update(&mut self, step: Step, ptr: Value, root: Value, y: Value, old_wanted: bool, loc: Loc) -> R<Value> {
        let StepOp::Binary { op, reversed } = step.op else { return Err("internal: an atomic step that is not an operation".into()) };
        let size = step.x.bytes();
        let ty = if size == 4 { types::I32 } else { types::I64 };
        let (fast, aligned, plain, shared, slow, done) = (self.b.create_block(), self.b.create_block(), self.b.create_block(), self.b.create_block(), self.b.create_block(), self.b.create_block());
        let result = self.b.append_block_param(done, types::I64);
        let addr = self.in_place(ptr, root, size, true, fast, slow);
        self.b.switch_to_block(fast);
        let misaligned = self.b.ins().band_imm_s(addr, size as i64 - 1);
        self.b.ins().brif(misaligned, slow, &[], aligned, &[]);
        self.b.switch_to_block(aligned);
        // Constant for the whole entry: loop-invariant code motion may hoist it.
        let alone = self.b.ins().load(types::I64, MemFlagsData::trusted().with_readonly().with_can_move(), self.ctx, OFF_ALONE);
        self.b.ins().brif(alone, plain, &[], shared, &[]);
        let mut flags = notrap();
        flags.set_aligned();
        // The canonical word of `x`'s kind (`Kind::from_raw`) from the bytes read.
        let canonical = |t: &mut Self, seen: Value| match step.x {
            Kind::I32 => t.b.ins().sextend(types::I64, seen),
            Kind::U32 | Kind::F32 => t.b.ins().uextend(types::I64, seen),
            _ => seen,
        };
        let narrow = |t: &mut Self, v: Value| if size == 4 { t.b.ins().ireduce(types::I32, v) } else { v };
        let apply = |t: &mut Self, old: Value| if reversed { t.binary(op, step.x, y, old, loc) } else { t.binary(op, step.x, old, y, loc) };

        self.b.switch_to_block(plain);
        let seen = self.b.ins().load(ty, flags, addr, 0);
        let old = canonical(self, seen);
        let new = apply(self, old)?;
        let stored = narrow(self, new);
        self.b.ins().store(flags, stored, addr, 0);
        let out = if old_wanted { old } else { new };
        self.b.ins().jump(done, &[out.into()]);

        self.b.switch_to_block(shared);
        let integer = matches!(step.x, Kind::I32 | Kind::U32 | Kind::I64 | Kind::U64);
        let fetch = match op {
            BinOp::Add if integer => Some(AtomicRmwOp::Add),
            BinOp::Sub if integer && !reversed => Some(AtomicRmwOp::Sub),
            _ => None,
        };
        if let Some(rmw) = fetch {
            let operand = narrow(self, y);
            let seen = self.b.ins().atomic_rmw(ty, flags, rmw, addr, operand);
            let old = canonical(self, seen);
            let new = apply(self, old)?;
            let out = if old_wanted { old } else { new };
            self.b.ins().jump(done, &[out.into()]);
        } else {
            let again = self.b.create_block();
            let first = self.b.ins().load(ty, flags, addr, 0);
            let seen = self.b.append_block_param(again, ty);
            self.b.ins().jump(again, &[first.into()]);
            self.b.switch_to_block(again);
            let old = canonical(self, seen);
            let new = apply(self, old)?;
            let stored = narrow(self, new);
            let now = self.b.ins().atomic_cas(flags, addr, seen, stored);
            let swapped = self.b.ins().icmp(IntCC::Equal, now, seen);
            let out = if old_wanted { old } else { new };
            self.b.ins().brif(swapped, done, &[out.into()], again, &[now.into()]);
        }
        self.b.switch_to_block(slow);
        self.b.set_cold_block(slow);
        let r = self.update_call(step, ptr, y, old_wanted, loc);
        self.b.ins().jump(done, &[r.into()]);
        self.b.switch_to_block(done);
        Ok(result)
    }
}
