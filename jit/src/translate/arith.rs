//! Conversions and arithmetic: C's casts (value.rs's `cast_fn`), binary operators, comparisons
//! and integer division with the interpreter's faults (exec/compile.rs), on Cranelift values.

use super::*;

impl Translator<'_, '_> {
    /// A conversion (value.rs's `cast_fn`).
    pub(super) fn cast(&mut self, from: Kind, to: Kind, v: Value) -> R<Value> {
        use Kind::*;
        if from == to {
            return Ok(v);
        }
        Ok(match (from, to) {
            (_, Void) | (_, Aggregate) | (Aggregate, _) | (Void, _) => v,
            (F64, LongDouble) | (LongDouble, F64) => v,
            (F32, Bool) => {
                let t = self.truthy(F32, v);
                self.bool_word(t)
            }
            (F64 | LongDouble, Bool) => {
                let t = self.truthy(F64, v);
                self.bool_word(t)
            }
            (F32, F64 | LongDouble) => {
                let f = self.word_as_f32(v);
                let d = self.b.ins().fpromote(types::F64, f);
                self.f64_as_word(d)
            }
            (F64 | LongDouble, F32) => {
                let d = self.word_as_f64(v);
                let f = self.b.ins().fdemote(types::F32, d);
                self.f32_as_word(f)
            }
            (F32 | F64 | LongDouble, _) => {
                let (fc, tc) = (
                    kind_code(from).ok_or("a conversion from this kind")?,
                    kind_code(to).ok_or("a conversion to this kind")?,
                );
                let fc = self.b.ins().iconst(types::I64, fc);
                let tc = self.b.ins().iconst(types::I64, tc);
                self.helper(Helper::Cast, &[v, fc, tc])
                    .ok_or("no result of the conversion helper")?
            }
            (_, F32) => {
                let f = if from.is_signed() {
                    self.b.ins().fcvt_from_sint(types::F32, v)
                } else {
                    self.b.ins().fcvt_from_uint(types::F32, v)
                };
                self.f32_as_word(f)
            }
            (_, F64 | LongDouble) => {
                let d = if from.is_signed() {
                    self.b.ins().fcvt_from_sint(types::F64, v)
                } else {
                    self.b.ins().fcvt_from_uint(types::F64, v)
                };
                self.f64_as_word(d)
            }
            (_, I64 | U64 | Ptr) => v,
            _ => self.norm(to, v),
        })
    }

    /// A binary operation in the class of kind `k` (exec/compile.rs's `class_of` and `dispatch`).
    pub(super) fn binary(&mut self, op: BinOp, k: Kind, x: Value, y: Value, loc: Loc) -> R<Value> {
        use BinOp::*;
        // Operands narrower than int (the lowering promotes them) are done in 64 bits and
        // re-normalised, as the interpreter does.
        let (cls, post) = match k {
            Kind::I8 | Kind::I16 => (Kind::I64, (!op.is_comparison()).then_some(k)),
            Kind::U8 | Kind::U16 | Kind::Bool => (Kind::U64, (!op.is_comparison()).then_some(k)),
            Kind::Ptr | Kind::Aggregate | Kind::Void => (Kind::U64, None),
            Kind::LongDouble => (Kind::F64, None),
            k => (k, None),
        };
        let r = match cls {
            Kind::F32 | Kind::F64 => {
                let single = cls == Kind::F32;
                // The right operand of arithmetic, when a constant, is a Cranelift float
                // constant, which x86's `addsd`, `mulsd`, … read from the constant pool (the
                // bits of the word: NaN payloads and signed zeros as written); a constant on the
                // left of `+` or `*` goes right (`1.0 + x`, `0.1 * y`): the sum and product
                // commute, and with one NaN operand x86 gives that NaN either way (with two, the
                // first one's payload, so a NaN constant stays where it is). Not beside a load,
                // which x86 reads as the memory operand instead (`c * a[i]`, `a[i] * c`), nor in
                // a loop: there the constant is the word's bits moved to a float register before
                // the loop (Cranelift's code motion), and the register allocation of a kernel
                // with every register taken came out worse with the pool's operand (conv3d's
                // kernel ran 1-2% more instructions). Outside loops (a routine's unrolled
                // steps) the bits were moved again at each use.
                let arith = matches!(op, Add | Sub | Mul | Div);
                let number = |w: Option<u64>| match w {
                    Some(b) if single => !f32::from_bits(b as u32).is_nan(),
                    Some(b) => !f64::from_bits(b).is_nan(),
                    None => false,
                };
                let (cx, cy) = (self.const_word(x), self.const_word(y));
                let (x, y, cy) = if matches!(op, Add | Mul) && number(cx) && cy.is_none() && !self.loaded(y) {
                    (y, x, cx)
                } else {
                    (x, y, cy)
                };
                let pool = cy.filter(|_| arith && self.loops.is_empty() && self.const_word(x).is_none() && !self.loaded(x));
                let (a, b) = match (single, pool) {
                    (true, Some(c)) => (self.word_as_f32(x), self.b.ins().f32const(f32::from_bits(c as u32))),
                    (true, None) => (self.word_as_f32(x), self.word_as_f32(y)),
                    (false, Some(c)) => (self.word_as_f64(x), self.b.ins().f64const(f64::from_bits(c))),
                    (false, None) => (self.word_as_f64(x), self.word_as_f64(y)),
                };
                let cc = |op| match op {
                    Eq => Some(FloatCC::Equal),
                    Ne => Some(FloatCC::NotEqual),
                    Lt => Some(FloatCC::LessThan),
                    Le => Some(FloatCC::LessThanOrEqual),
                    Gt => Some(FloatCC::GreaterThan),
                    Ge => Some(FloatCC::GreaterThanOrEqual),
                    _ => None,
                };
                if let Some(c) = cc(op) {
                    let t = self.b.ins().fcmp(c, a, b);
                    return Ok(self.bool_word(t));
                }
                let f = match op {
                    Add => self.b.ins().fadd(a, b),
                    Sub => self.b.ins().fsub(a, b),
                    Mul => self.b.ins().fmul(a, b),
                    Div => self.b.ins().fdiv(a, b),
                    _ => return Err(format!("floating {op:?}")),
                };
                if single {
                    self.f32_as_word(f)
                } else {
                    self.f64_as_word(f)
                }
            }
            Kind::I32 | Kind::U32 => {
                let signed = cls == Kind::I32;
                if op.is_comparison() {
                    // Canonical words compare as 64-bit integers.
                    return Ok(self.compare(op, signed, x, y));
                }
                let (a, b) = (
                    self.b.ins().ireduce(types::I32, x),
                    self.b.ins().ireduce(types::I32, y),
                );
                let r = match op {
                    Div | Rem => self.divide(op, signed, types::I32, a, b, loc),
                    _ => self.int_op(op, signed, a, b)?,
                };
                if signed {
                    self.b.ins().sextend(types::I64, r)
                } else {
                    self.b.ins().uextend(types::I64, r)
                }
            }
            Kind::I64 | Kind::U64 => {
                let signed = cls == Kind::I64;
                if op.is_comparison() {
                    return Ok(self.compare(op, signed, x, y));
                }
                match op {
                    Div | Rem => self.divide(op, signed, types::I64, x, y, loc),
                    _ => self.int_op(op, signed, x, y)?,
                }
            }
            _ => return Err(format!("{op:?} on kind {k:?}")),
        };
        Ok(match post {
            Some(k) => self.norm(k, r),
            None => r,
        })
    }

    /// Whether word `w` is a value loaded from memory (as it is or as a float's bits).
    fn loaded(&self, w: Value) -> bool {
        use cranelift_codegen::ir::{Opcode, ValueDef};
        let dfg = &self.b.func.dfg;
        let mut v = w;
        for _ in 0..3 {
            let ValueDef::Result(inst, 0) = dfg.value_def(v) else { return false };
            match dfg.insts[inst].opcode() {
                Opcode::Load => return true,
                Opcode::Bitcast | Opcode::Uextend => v = dfg.inst_args(inst)[0],
                _ => return false,
            }
        }
        false
    }

    pub(super) fn compare(&mut self, op: BinOp, signed: bool, x: Value, y: Value) -> Value {
        use BinOp::*;
        let cc = match (op, signed) {
            (Eq, _) => IntCC::Equal,
            (Ne, _) => IntCC::NotEqual,
            (Lt, true) => IntCC::SignedLessThan,
            (Le, true) => IntCC::SignedLessThanOrEqual,
            (Gt, true) => IntCC::SignedGreaterThan,
            (Ge, true) => IntCC::SignedGreaterThanOrEqual,
            (Lt, false) => IntCC::UnsignedLessThan,
            (Le, false) => IntCC::UnsignedLessThanOrEqual,
            (Gt, false) => IntCC::UnsignedGreaterThan,
            _ => IntCC::UnsignedGreaterThanOrEqual,
        };
        let t = self.b.ins().icmp(cc, x, y);
        self.bool_word(t)
    }

    /// Wrapping integer operations at the width of `a` and `b` (shift counts masked to it).
    pub(super) fn int_op(&mut self, op: BinOp, signed: bool, a: Value, b: Value) -> R<Value> {
        use BinOp::*;
        let ins = self.b.ins();
        Ok(match op {
            Add => ins.iadd(a, b),
            Sub => ins.isub(a, b),
            Mul => ins.imul(a, b),
            Shl => ins.ishl(a, b),
            Shr if signed => ins.sshr(a, b),
            Shr => ins.ushr(a, b),
            BitAnd => ins.band(a, b),
            BitOr => ins.bor(a, b),
            BitXor => ins.bxor(a, b),
            _ => return Err(format!("integer {op:?}")),
        })
    }

    /// Division and remainder: division by zero and `MIN / -1` trap as in the interpreter.
    pub(super) fn divide(&mut self, op: BinOp, signed: bool, ty: Type, a: Value, b: Value, loc: Loc) -> Value {
        let l = self.loc_index(loc);
        let zero = self.b.ins().icmp_imm_s(IntCC::Equal, b, 0);
        self.arith_trap_if(zero, 0, l);
        if signed {
            let min = if ty == types::I32 {
                i32::MIN as i64
            } else {
                i64::MIN
            };
            let is_min = self.b.ins().icmp_imm_s(IntCC::Equal, a, min);
            let is_m1 = self.b.ins().icmp_imm_s(IntCC::Equal, b, -1);
            let both = self.b.ins().band(is_min, is_m1);
            self.arith_trap_if(both, 1, l);
        }
        let ins = self.b.ins();
        match (op, signed) {
            (BinOp::Div, true) => ins.sdiv(a, b),
            (BinOp::Div, false) => ins.udiv(a, b),
            (_, true) => ins.srem(a, b),
            (_, false) => ins.urem(a, b),
        }
    }

    /// Where `cond` holds, a cold block that traps with the interpreter's arithmetic fault
    /// `which` (0: division by zero, 1: `MIN / -1`; `runtime::jit_arith_trap`) at location `l`;
    /// translation goes on where it does not.
    fn arith_trap_if(&mut self, cond: Value, which: i64, l: u64) {
        let (trap, ok) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(cond, trap, &[], ok, &[]);
        self.b.set_cold_block(trap);
        self.b.switch_to_block(trap);
        let w = self.b.ins().iconst(types::I64, which);
        let lv = self.loc_word(l);
        self.helper(Helper::ArithTrap, &[self.ctx, w, lv]);
        self.b.ins().jump(self.trap_exit, &[]);
        self.b.switch_to_block(ok);
    }
}
