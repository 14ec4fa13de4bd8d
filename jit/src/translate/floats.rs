//! Floats in the float registers: branch-free `c ? a : b` of floats (`x < 0 ? -x : x` as a
//! `maxsd`), negation, and the float constants these recognise (issue 15).

use super::*;

/// The bits of a float constant ([`Translator::float_const`]).
#[derive(Clone, Copy)]
pub(crate) enum Bits {
    F32(u32),
    F64(u64),
}

impl Translator<'_, '_> {
    /// The bits of word `w` when it is an integer constant ([`Translator::known_const`]).
    pub(crate) fn const_word(&self, w: Value) -> Option<u64> {
        self.known_const(w).map(|c| c as u64)
    }

    /// `c ? a : b` of floating kind `k` whose arms are values at hand ([`Translator::select_arm`])
    /// and whose condition compares two values of kind `k`, with no branch and in the float
    /// registers (`x < 0 ? -x : x`). An integer select of the words would move both arms to
    /// integer registers and back (issue 15, calltree's `smooth`). `None` for other conditions
    /// and kinds.
    ///
    /// `p < q ? q : p` and `p < q ? p : q` are Cranelift's `select` of that comparison, which it
    /// makes one `maxsd` or `minsd` (the same result for NaNs and zeros: the second operand when
    /// the comparison is false); `p > q` is `q < p`. A comparison of `x` with zero, one arm
    /// `-x` and the other `x`, compares `x` with `-x`, which decides the same for every value
    /// (both false at ±0 and NaN, both `x`'s sign otherwise): `x < 0 ? -x : x` is
    /// `max(-x, x)`, an `xorpd` and a `maxsd`. Other conditions select in lanes: the
    /// comparison as a lane mask (the same condition code as [`Translator::binary`]'s, so NaNs
    /// compare the same), which picks the arm.
    pub(super) fn float_select(&mut self, c: &Expr, a: &Expr, b: &Expr, k: Kind) -> R<Option<Value>> {
        let (ty, lanes) = match k {
            Kind::F64 => (types::F64, types::F64X2),
            Kind::F32 => (types::F32, types::F32X4),
            _ => return Ok(None),
        };
        let ExprKind::Binary(op, l, r) = &c.kind else { return Ok(None) };
        if self.kind(l.ty) != k || self.kind(r.ty) != k {
            return Ok(None);
        }
        let (cc, swap) = match op {
            BinOp::Eq => (FloatCC::Equal, false),
            BinOp::Ne => (FloatCC::NotEqual, false),
            BinOp::Lt => (FloatCC::LessThan, false),
            BinOp::Le => (FloatCC::LessThanOrEqual, false),
            BinOp::Gt => (FloatCC::LessThan, true),
            BinOp::Ge => (FloatCC::LessThanOrEqual, true),
            _ => return Ok(None),
        };
        // The order of the branch-free select: the condition's operands, then the arms.
        let words = [self.expr(l)?, self.expr(r)?, self.expr(a)?, self.expr(b)?];
        let [mut p, mut q, x, y] = words.map(|w| self.word_as(ty, w));
        if swap {
            (p, q) = (q, p);
        }
        for (arm, other) in [(x, y), (y, x)] {
            if self.negated(arm) == Some(other) {
                if other == p && self.is_zero(q) {
                    q = arm;
                } else if other == q && self.is_zero(p) {
                    p = arm;
                }
            }
        }
        if cc == FloatCC::LessThan && ((x, y) == (p, q) || (x, y) == (q, p)) {
            let t = self.b.ins().fcmp(cc, p, q);
            let f = self.b.ins().select(t, x, y);
            return Ok(Some(if k == Kind::F64 { self.f64_as_word(f) } else { self.f32_as_word(f) }));
        }
        let v = [p, q, x, y].map(|f| self.lanes_of(lanes, f));
        let mask = self.b.ins().fcmp(cc, v[0], v[1]);
        let mask = self.b.ins().bitcast(lanes, MemFlagsData::new().with_endianness(cranelift_codegen::ir::Endianness::Little), mask);
        let picked = self.b.ins().bitselect(mask, v[2], v[3]);
        let f = self.b.ins().extractlane(picked, 0);
        Ok(Some(if k == Kind::F64 { self.f64_as_word(f) } else { self.f32_as_word(f) }))
    }

    /// `-f`: `f` with its sign bit flipped by an `xorpd` with the constant `-0.0`, whose bits
    /// are moved to a float register once (out of loops: Cranelift's code motion), where `fneg`
    /// makes its mask through an integer register at each negation (`movabsq`, `vmovq`).
    pub(crate) fn negate(&mut self, f: Value) -> Value {
        let sign = if self.b.func.dfg.value_type(f) == types::F32 {
            let w = self.iconst(0x8000_0000);
            self.word_as_f32(w)
        } else {
            let w = self.iconst(1 << 63);
            self.word_as_f64(w)
        };
        self.b.ins().bxor(f, sign)
    }

    /// `y` when `f` is [`Translator::negate`]'s `-y`.
    fn negated(&self, f: Value) -> Option<Value> {
        use cranelift_codegen::ir::{Opcode, ValueDef};
        let dfg = &self.b.func.dfg;
        let ValueDef::Result(inst, 0) = dfg.value_def(f) else { return None };
        if dfg.insts[inst].opcode() != Opcode::Bxor {
            return None;
        }
        let [y, m] = dfg.inst_args(inst) else { return None };
        let sign = match self.float_const(*m)? {
            Bits::F32(b) => b == 0x8000_0000,
            Bits::F64(b) => b == 1 << 63,
        };
        sign.then_some(*y)
    }

    /// Whether `f` is the constant +0.0 or -0.0.
    fn is_zero(&self, f: Value) -> bool {
        match self.float_const(f) {
            Some(Bits::F32(b)) => b & 0x7fff_ffff == 0,
            Some(Bits::F64(b)) => b & !(1 << 63) == 0,
            None => false,
        }
    }

    /// The bits of `f` when it is a float constant: a Cranelift float constant, or
    /// [`Translator::word_as_f64`]'s (or `word_as_f32`'s) float of a constant word.
    pub(crate) fn float_const(&self, f: Value) -> Option<Bits> {
        use cranelift_codegen::ir::{InstructionData, Opcode, ValueDef};
        let dfg = &self.b.func.dfg;
        let ValueDef::Result(inst, 0) = dfg.value_def(f) else { return None };
        match dfg.insts[inst] {
            InstructionData::UnaryIeee32 { imm, .. } => Some(Bits::F32(imm.bits())),
            InstructionData::UnaryIeee64 { imm, .. } => Some(Bits::F64(imm.bits())),
            InstructionData::LoadNoOffset { opcode: Opcode::Bitcast, arg, .. } => {
                if dfg.value_type(f) == types::F64 {
                    return self.const_word(arg).map(Bits::F64);
                }
                let ValueDef::Result(narrow, 0) = dfg.value_def(arg) else { return None };
                if dfg.insts[narrow].opcode() != Opcode::Ireduce {
                    return None;
                }
                self.const_word(dfg.inst_args(narrow)[0]).map(|w| Bits::F32(w as u32))
            }
            _ => None,
        }
    }

    /// The float `f` in every lane of a vector of type `lanes` for [`Translator::float_select`].
    /// A splat is one instruction (`scalar_to_vector` zeroes the other lanes too); a constant's
    /// is a constant vector (zero: `xorpd`). A negation `-y` is `y`'s lanes (mostly the
    /// condition's) with the sign bit flipped by one `xorpd` with a constant-pool mask.
    fn lanes_of(&mut self, lanes: Type, f: Value) -> Value {
        if let Some(y) = self.negated(f) {
            let v = self.b.ins().splat(lanes, y);
            let sign = if lanes == types::F64X2 { self.b.ins().f64const(-0.0) } else { self.b.ins().f32const(-0.0) };
            let mask = self.b.ins().splat(lanes, sign);
            return self.b.ins().bxor(v, mask);
        }
        self.b.ins().splat(lanes, f)
    }
}
