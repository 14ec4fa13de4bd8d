//! The fuel (`--max-steps`) and the way out after a trap in native code: the fuel variable and
//! its copy in the context, a unit of fuel burnt, the checks after a helper or a native call
//! that may trap; and which joins keep floats as floats.

use super::*;

impl Translator<'_, '_> {
    /// Whether a float loaded from memory or returned by a call joins its paths as a float
    /// (not as its word, an integer): in a function without loops. Every float register is
    /// the caller's to save (System V), so a float such a function keeps across a call lives on
    /// the stack either way, and as a float it needs no moves to an integer register and back
    /// (a recursion's `t->value`). In a function with loops, a long-lived float (a captured
    /// `alpha` read at a kernel's entry) would compete with the loops' own values for the float
    /// registers, where its word keeps to an integer register and is moved where used
    /// (syr2k's kernel spilled and reloaded `alpha` on every iteration of its inner loop when
    /// it joined as a float, issue 15).
    pub(crate) fn floats_join_as_floats(&self) -> bool {
        self.loop_free
    }

    /// Store the fuel variable into the context (before a helper that reads it, and on leaving
    /// after a trap).
    pub(crate) fn flush_fuel(&mut self) {
        let left = self.b.use_var(self.fuel);
        self.b.ins().store(MemFlagsData::trusted(), left, self.ctx, OFF_FUEL);
    }

    /// Load the fuel variable from the context (after a helper that may change it, and after a
    /// native callee's trap, whose exit stored it there).
    pub(crate) fn reload_fuel(&mut self) {
        let fuel = self.b.ins().load(types::I64, MemFlagsData::trusted(), self.ctx, OFF_FUEL);
        self.b.def_var(self.fuel, fuel);
    }

    /// After a native call, whose fuel left `left` is 0 when it trapped ([`Translator::
    /// ret_trapped`]): leave the function when it did, with the fuel the callee stored.
    pub(crate) fn check_callee_trap(&mut self, left: Value) {
        let (trapped, cont) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(left, cont, &[], trapped, &[]);
        self.b.set_cold_block(trapped);
        self.b.switch_to_block(trapped);
        self.reload_fuel();
        self.b.ins().jump(self.trap_exit, &[]);
        self.b.switch_to_block(cont);
    }

    /// After a helper or call that may trap: leave the function when it did. The way out is a
    /// cold block of its own, and the way on is cold where the helper's block is: an edge
    /// Cranelift splits (the exit takes the fuel variable) is laid out among the hot blocks
    /// otherwise, which put a jump over it on the hot path (issue 15: two instructions a node of
    /// calltree's `tree_sum`, after each unit of fuel's cold refill).
    pub(crate) fn check_trap(&mut self) {
        let t = self
            .b
            .ins()
            .load(types::I64, MemFlagsData::trusted(), self.ctx, OFF_TRAPPED);
        let here_cold = self.b.current_block().is_some_and(|b| self.b.func.layout.is_cold(b));
        let (out, cont) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(t, out, &[], cont, &[]);
        self.b.set_cold_block(out);
        self.b.switch_to_block(out);
        self.b.ins().jump(self.trap_exit, &[]);
        if here_cold {
            self.b.set_cold_block(cont);
        }
        self.b.switch_to_block(cont);
    }

    /// One unit of fuel (a loop back-edge or a call).
    pub(crate) fn burn_fuel(&mut self, loc: Loc) {
        let fuel = self.b.use_var(self.fuel);
        let left = self.b.ins().iadd_imm_s(fuel, -1);
        self.b.def_var(self.fuel, left);
        let empty = self.b.create_block();
        let cont = self.b.create_block();
        self.b.ins().brif(left, cont, &[], empty, &[]);
        self.b.set_cold_block(empty);
        self.b.switch_to_block(empty);
        let l = self.loc(loc);
        self.helper(Helper::OutOfFuel, &[self.ctx, l]);
        self.check_trap();
        self.b.ins().jump(cont, &[]);
        self.b.switch_to_block(cont);
    }
}
