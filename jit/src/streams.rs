//! Streams (issue 16): the addresses of a counted loop's direct version ([`crate::loops`]) and
//! of its lanes ([`crate::simd`]) from one base per access, not from the address expression.
//!
//! The direct version runs only when its entry checks make every affine access's address its
//! exact value at every iteration (no `int` step wraps, magnitudes far from 2^63), an affine
//! function of the counter. So the address at counter `c` is the address at the first
//! iteration plus `(c - v0)` times the access's stride, the derivative
//! ([`Translator::symbolic_stride`]): a constant, or a constant times loop-invariant factors,
//! computed once at entry. The entry computes each stream's host address at counter 0 (its
//! *base*, `first + bias - v0 * stride`, in wrapping 64-bit arithmetic, which the sum undoes
//! exactly; for a first counter known at translation, the first address, the iteration's
//! index being `c - v0`), and an iteration adds `c * stride`: for a stride of one element an x86 address
//! mode, where the expression evaluated again cost four or five instructions (row offsets, an
//! `int` index's sign extension; the Jacobi sweep's accesses). Accesses one constant apart
//! ([`crate::apart::stream_leaders`]: `img[(y + dy) * W + x + dx]` of an unrolled window, one
//! row's reads) share one base at constant offsets, so a window needs a register per row, not
//! per element. An access whose stride has no such form
//! keeps its expression.

use crate::HashMap;

use cranelift_codegen::ir::{InstBuilder, Value};

use accsim_core::ir::Expr;

use crate::loops::CountedLoop;
use crate::translate::{Translator, R};

/// One access's address as a stream: `base + (c - origin) * stride + offset` at counter `c`
/// (no origin: 0).
#[derive(Clone, Copy)]
pub(crate) struct Stream {
    base: Value,
    origin: Option<Value>,
    /// The stride in bytes: a constant, or a value computed at entry.
    stride: Stride,
    offset: i64,
}

#[derive(Clone, Copy)]
enum Stride {
    Const(i64),
    Dyn(Value),
}

impl Translator<'_, '_> {
    /// At a loop's entry: the streams of the accesses of `plan` that `moving` selects, from
    /// their addresses at the first iteration (`ends`) and their biases (`direct`). With
    /// `element`, every stride is the access's size (the lane version tested it); otherwise it
    /// is the address's derivative, and an access without one is left out.
    pub(crate) fn streams(&mut self, plan: &CountedLoop<'_>, ends: &[(Value, Value)], direct: &HashMap<*const Expr, Value>, v0: Value, moving: &[bool], element: bool) -> R<HashMap<*const Expr, Stream>> {
        let leaders = crate::apart::stream_leaders(self, &plan.accesses, plan.var, &plan.derived, |i| moving[i]);
        let mut streams = HashMap::default();
        let mut own: Vec<Option<Stream>> = vec![None; plan.accesses.len()];
        for (i, &(addr, k, _, _)) in plan.accesses.iter().enumerate() {
            if !moving[i] || leaders[i].is_some() {
                continue;
            }
            let stride = if element {
                Stride::Const(k.bytes() as i64)
            } else {
                let Some((coefficient, factors)) = self.symbolic_stride(addr, plan.var, &plan.derived) else { continue };
                if factors.is_empty() {
                    Stride::Const(coefficient)
                } else {
                    Stride::Dyn(self.stride_value(coefficient, factors)?)
                }
            };
            let bias = *direct.get(&(addr as *const Expr)).ok_or("internal: an access without its bias")?;
            let first = ends.get(i).ok_or("internal: an access without its ends")?.0;
            let host = self.b.ins().iadd(first, bias);
            // A first counter known now stays in the iteration's index (`c - 1`, one
            // instruction for all the streams, or none, folded into the address): a base
            // `host - 8` would be an addition of a constant to a loop-invariant value, which
            // Cranelift rematerialises at each use inside the loop (two instructions per access
            // in every Fortran loop from 1).
            let s = if self.known_const(v0).is_some() {
                Stream { base: host, origin: Some(v0), stride, offset: 0 }
            } else {
                let lead = match stride {
                    Stride::Const(c) => self.b.ins().imul_imm_s(v0, c),
                    Stride::Dyn(s) => self.b.ins().imul(v0, s),
                };
                Stream { base: self.b.ins().isub(host, lead), origin: None, stride, offset: 0 }
            };
            own[i] = Some(s);
            streams.insert(addr as *const Expr, s);
        }
        for (i, &(addr, ..)) in plan.accesses.iter().enumerate() {
            if let Some((leader, bytes)) = leaders[i] {
                // A leader without a stream (no stride) leaves its group to their expressions.
                if let Some(s) = own[leader] {
                    streams.insert(addr as *const Expr, Stream { offset: bytes, ..s });
                }
            }
        }
        Ok(streams)
    }

    /// The host address of access `a` as a stream of the loop being translated, at the counter
    /// `lane_at` names plus its lead, as an address and a constant offset; `None` when `a` is no
    /// stream.
    pub(crate) fn stream_address(&mut self, a: &Expr) -> R<Option<(Value, i32)>> {
        let (Some(&s), Some((counter, lead))) = (self.lane_streams.get(&(a as *const Expr)), self.lane_at) else { return Ok(None) };
        let counter = match s.origin {
            Some(o) if self.known_const(o) != Some(0) => self.b.ins().isub(counter, o),
            _ => counter,
        };
        let (scaled, ahead) = match s.stride {
            Stride::Const(c) => (self.b.ins().imul_imm_s(counter, c), lead.checked_mul(c)),
            Stride::Dyn(v) if lead == 0 => (self.b.ins().imul(counter, v), Some(0)),
            Stride::Dyn(_) => return Err("internal: a lead on a stream of a stride unknown at translation".into()),
        };
        let offset = ahead.and_then(|x| x.checked_add(s.offset)).and_then(|x| i32::try_from(x).ok()).ok_or("internal: a stream offset out of range")?;
        Ok(Some((self.b.ins().iadd(s.base, scaled), offset)))
    }
}
