//! The gang model, one for every device: what each gang of a compute region gets as its own copy
//! of a capture, and how reduction partials combine into the variable after the kernel.
//!
//! - **Private copies** ([`GangCopy`]): a `private` variable gets uninitialised storage of its
//!   size (§2.5.9, §2.7.10), a `firstprivate` one a copy of the host value taken when the region
//!   starts (§2.5.10; a pointer is translated to the device copy it points into), a `reduction`
//!   variable the operator's identity (§2.5.11, §2.7.11). A private or firstprivate subarray
//!   (`private(p[0:n])`) gets a block of the section's size per gang, and the gang's pointer aims
//!   into it at the host pointer's offset from the section's start.
//! - **Reductions** ([`identity`], [`combine`]): the operator × type table of §2.5.11: `+ * max
//!   min & | ^ && ||` on the integer kinds and `_Bool`, `+ * max min && ||` on `float`, `double`
//!   and `long double`, `+ *` on their `_Complex` forms. After the kernel the partials are combined
//!   gang by gang, in gang order, into the variable (its device copy when it is mapped), so a
//!   race-free program's result does not depend on how the gangs ran.
//!
//! The sequential device and `SimDevice` apply the table to the interpreter's memory
//! ([`write_identity`], [`combine_into`]); `CudaDevice`, whose memory is the GPU's, to byte
//! images ([`identity_bytes`], [`combine_bytes`]). Both read and write a variable with the one
//! layout of [`decode`]/[`encode`]: a scalar is its value word's low bytes (`long double`: the f64
//! then zeros, as in [`super::value`]); a complex number is its real part then its imaginary part,
//! each an element of 4, 8 or 16 bytes.
//!
//! Arithmetic: an integer result wraps to the variable's width, a `_Bool` result is 0 or 1; `float`
//! `+` and `*` are done in single precision, other floating operations in double precision
//! (`long double` is a double here); complex `+` and `*` are done in double precision and rounded
//! to the element type. `max`/`min` keep the first operand when the two compare equal or either
//! is a NaN.

use std::ops::Range;

use super::memory::{MemFault, Memory};
use super::value::Kind;
use super::float_ops::{add32, add64, mul32, mul64, sub64};
use crate::ir::acc::{reduction_identity_float, reduction_identity_int, CaptureMode, ReductionOp};

/// How the launcher gets one capture's value (built when a compute construct starts, passed to the
/// device in a launch).
#[derive(Clone)]
pub struct CaptureArg {
    pub mode: CaptureMode,
    /// Register value (Value captures) or the host address of the object.
    pub host: u64,
    pub size: u64,
    pub kind: Kind,
    pub is_pointer: bool,
    pub name: String,
    /// The host bytes of a private/firstprivate subarray (`private(p[0:n])`), if any.
    pub section: Option<Range<u64>>,
    /// A `Present` array mapped in part by a clause of the construct or of an enclosing data
    /// construct ([`crate::ir::acc::Capture::mapped_part`]).
    pub mapped_part: bool,
    /// A pointer no clause names ([`crate::ir::acc::Capture::implicit_pointer`]).
    pub implicit_pointer: bool,
    /// The size of what a pointer capture points at (1 for `void *`).
    pub elem_size: u64,
}

/// What one gang gets for a capture.
#[derive(Clone, Debug, PartialEq)]
pub enum GangCopy {
    /// Not per gang (a value or present data): every gang gets the launch's shared word.
    Shared,
    /// `private`: storage of the variable's size, its contents unspecified (zeros here).
    Private,
    /// `firstprivate`: the host variable's bytes; a pointer is translated to the device copy of
    /// what it points at, when that is mapped.
    FirstPrivate { translate_pointer: bool },
    /// A private or firstprivate subarray: per gang a block of the section's bytes (a copy of the
    /// host's for firstprivate, unspecified for private), and a pointer into it.
    Section { host: Range<u64>, copy: bool },
    /// A reduction variable: the operator's identity; combined after the kernel.
    Reduction(ReductionOp, ReductionType),
}

impl GangCopy {
    /// What a gang gets for capture `c` (`on_host`: the region runs on the host, where no pointer
    /// is translated).
    pub fn of(c: &CaptureArg, on_host: bool) -> GangCopy {
        match (c.mode, &c.section) {
            (CaptureMode::Value | CaptureMode::Present, _) => GangCopy::Shared,
            // A pointer's subarray: a block of the section per gang and the pointer moved into it.
            // An array's subarray (`firstprivate(c[0:8])` on `double c[8]`): the kernel addresses
            // the array itself, so each gang gets a copy of the whole array, as `firstprivate(c)`
            // (elements outside the section are unspecified in a private copy, §2.5.10; copying
            // them too is one of the allowed values).
            (CaptureMode::FirstPrivate | CaptureMode::Private, Some(sec)) if c.is_pointer => {
                GangCopy::Section { host: sec.clone(), copy: c.mode == CaptureMode::FirstPrivate }
            }
            (CaptureMode::FirstPrivate, _) => GangCopy::FirstPrivate { translate_pointer: c.is_pointer && !on_host },
            (CaptureMode::Private, _) => GangCopy::Private,
            (CaptureMode::Reduction(op), _) => GangCopy::Reduction(op, ReductionType::of(c.kind, c.size)),
        }
    }
}

/// The type of a reduction variable: a scalar of a kind, or a complex number of an element kind
/// (`float`, `double` or `long double`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ReductionType {
    Scalar(Kind),
    Complex(Kind),
}

impl ReductionType {
    /// The reduction type of a variable of kind `kind` and `size` bytes: an aggregate is a complex
    /// number (the only aggregates a reduction accepts, §2.5.11), of `float` (8 bytes), `double`
    /// (16) or `long double` (32: two 16-byte `long double`s).
    pub fn of(kind: Kind, size: u64) -> ReductionType {
        if kind != Kind::Aggregate {
            return ReductionType::Scalar(kind);
        }
        ReductionType::Complex(match size {
            8 => Kind::F32,
            32 => Kind::LongDouble,
            _ => Kind::F64,
        })
    }

    /// Bytes of a variable of this type.
    pub fn size(self) -> usize {
        match self {
            ReductionType::Scalar(k) => k.bytes() as usize,
            ReductionType::Complex(e) => 2 * e.bytes() as usize,
        }
    }
}

/// A reduction variable's value: a scalar's value word (as [`Memory::load_kind`] gives it), or a
/// complex number's parts (`float` parts widened).
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum RedValue {
    Scalar(u64),
    Complex(f64, f64),
}

/// The identity of `op` on type `ty` (§2.5.11): the value each gang's copy starts with.
pub fn identity(ty: ReductionType, op: ReductionOp) -> RedValue {
    match ty {
        ReductionType::Complex(_) => RedValue::Complex(if op == ReductionOp::Mul { 1.0 } else { 0.0 }, 0.0),
        ReductionType::Scalar(k) if k.is_float() => {
            let v = reduction_identity_float(op);
            RedValue::Scalar(if k.bytes() == 4 { (v as f32).to_bits() as u64 } else { v.to_bits() })
        }
        ReductionType::Scalar(k) => {
            let bits = if k == Kind::Bool { 1 } else { k.bytes() as u32 * 8 };
            RedValue::Scalar(reduction_identity_int(op, bits, k.is_signed()))
        }
    }
}

/// `a op b` on type `ty`: a partial `b` combined into the value `a` (the table of §2.5.11).
pub fn combine(ty: ReductionType, op: ReductionOp, a: RedValue, b: RedValue) -> RedValue {
    match (ty, a, b) {
        (ReductionType::Complex(_), RedValue::Complex(p, q), RedValue::Complex(r, s)) => match op {
            ReductionOp::Mul => RedValue::Complex(sub64(mul64(p, r), mul64(q, s)), add64(mul64(p, s), mul64(q, r))),
            _ => RedValue::Complex(add64(p, r), add64(q, s)),
        },
        (ReductionType::Scalar(k), RedValue::Scalar(x), RedValue::Scalar(y)) => RedValue::Scalar(combine_words(k, op, x, y)),
        // A value of the other shape cannot be made from this type; keep the variable's.
        _ => a,
    }
}

/// `a op b` on two value words of scalar kind `k`.
fn combine_words(k: Kind, op: ReductionOp, a: u64, b: u64) -> u64 {
    use ReductionOp::*;
    if k.is_float() {
        let f32_ = k.bytes() == 4;
        let (x, y) = if f32_ { (f32::from_bits(a as u32) as f64, f32::from_bits(b as u32) as f64) } else { (f64::from_bits(a), f64::from_bits(b)) };
        let r = match op {
            Add => if f32_ { add32(x as f32, y as f32) as f64 } else { add64(x, y) },
            Mul => if f32_ { mul32(x as f32, y as f32) as f64 } else { mul64(x, y) },
            Max => if y > x { y } else { x },
            Min => if y < x { y } else { x },
            And => ((x != 0.0) && (y != 0.0)) as u8 as f64,
            Or => ((x != 0.0) || (y != 0.0)) as u8 as f64,
            BitAnd | BitOr | BitXor => x,
        };
        return if f32_ { (r as f32).to_bits() as u64 } else { r.to_bits() };
    }
    if k == Kind::Bool {
        // C converts the result to _Bool: nonzero is 1.
        let r = match op {
            Add | BitOr | Or | Max => (a != 0) || (b != 0),
            Mul | BitAnd | And | Min => (a != 0) && (b != 0),
            BitXor => (a != 0) != (b != 0),
        };
        return r as u64;
    }
    let signed = k.is_signed();
    let bits = k.bytes() * 8;
    let wrap = |v: u64| if bits == 64 { v } else if signed { ((v << (64 - bits)) as i64 >> (64 - bits)) as u64 } else { v & ((1u64 << bits) - 1) };
    let r = match op {
        Add => a.wrapping_add(b),
        Mul => a.wrapping_mul(b),
        BitAnd => a & b,
        BitOr => a | b,
        BitXor => a ^ b,
        And => ((a != 0) && (b != 0)) as u64,
        Or => ((a != 0) || (b != 0)) as u64,
        Max => {
            let gt = if signed { (b as i64) > (a as i64) } else { b > a };
            if gt { b } else { a }
        }
        Min => {
            let lt = if signed { (b as i64) < (a as i64) } else { b < a };
            if lt { b } else { a }
        }
    };
    wrap(r)
}

/// The word of a complex part: a `float` part narrowed to its bits, others as f64 bits.
fn part_word(e: Kind, x: f64) -> u64 {
    if e == Kind::F32 {
        (x as f32).to_bits() as u64
    } else {
        x.to_bits()
    }
}

/// The value of a variable of type `ty` from its bytes (missing bytes read as zeros).
pub fn decode(ty: ReductionType, bytes: &[u8]) -> RedValue {
    let word = |k: Kind, at: usize| {
        let mut w = [0u8; 8];
        let n = (k.bytes() as usize).min(8);
        if let Some(b) = bytes.get(at..) {
            let n = n.min(b.len());
            w[..n].copy_from_slice(&b[..n]);
        }
        k.from_raw(u64::from_le_bytes(w))
    };
    match ty {
        ReductionType::Scalar(k) => RedValue::Scalar(word(k, 0)),
        ReductionType::Complex(e) => {
            let part = |at| super::value::as_f64(e, word(e, at));
            RedValue::Complex(part(0), part(e.bytes() as usize))
        }
    }
}

/// The bytes of a variable of type `ty` holding `v` ([`ReductionType::size`] of them).
pub fn encode(ty: ReductionType, v: RedValue) -> Vec<u8> {
    let mut out = vec![0u8; ty.size()];
    let mut put = |k: Kind, at: usize, w: u64| {
        let n = (k.bytes() as usize).min(8);
        out[at..at + n].copy_from_slice(&w.to_le_bytes()[..n]);
    };
    match (ty, v) {
        (ReductionType::Scalar(k), RedValue::Scalar(w)) => put(k, 0, w),
        (ReductionType::Complex(e), RedValue::Complex(re, im)) => {
            put(e, 0, part_word(e, re));
            put(e, e.bytes() as usize, part_word(e, im));
        }
        _ => {}
    }
    out
}

/// The bytes of one gang's copy of a reduction variable of `size` bytes: the identity of `op`.
pub fn identity_bytes(ty: ReductionType, op: ReductionOp, size: usize) -> Vec<u8> {
    let mut b = encode(ty, identity(ty, op));
    b.resize(size, 0);
    b
}

/// `acc = acc op part` on the bytes of two variables of type `ty`.
pub fn combine_bytes(ty: ReductionType, op: ReductionOp, acc: &mut [u8], part: &[u8]) {
    let v = combine(ty, op, decode(ty, acc), decode(ty, part));
    let b = encode(ty, v);
    let n = b.len().min(acc.len());
    acc[..n].copy_from_slice(&b[..n]);
}

/// Read a variable of type `ty` at `p` (a complex number: real part first).
pub fn load(mem: &Memory, ty: ReductionType, p: u64) -> Result<RedValue, MemFault> {
    match ty {
        ReductionType::Scalar(k) => mem.load_kind(k, p).map(RedValue::Scalar),
        ReductionType::Complex(e) => {
            let re = mem.load_kind(e, p)?;
            let im = mem.load_kind(e, p.wrapping_add(e.bytes()))?;
            Ok(RedValue::Complex(super::value::as_f64(e, re), super::value::as_f64(e, im)))
        }
    }
}

/// Write `v` to the variable of type `ty` at `p`.
pub fn store(mem: &mut Memory, ty: ReductionType, p: u64, v: RedValue) -> Result<(), MemFault> {
    match (ty, v) {
        (ReductionType::Scalar(k), RedValue::Scalar(w)) => mem.store_kind(k, p, w),
        (ReductionType::Complex(e), RedValue::Complex(re, im)) => {
            mem.store_kind(e, p, part_word(e, re))?;
            mem.store_kind(e, p.wrapping_add(e.bytes()), part_word(e, im))
        }
        _ => Ok(()),
    }
}

/// Initialise a gang's reduction copy at `p` with the identity of `op` (§2.5.11).
pub fn write_identity(mem: &mut Memory, p: u64, ty: ReductionType, op: ReductionOp) -> Result<(), MemFault> {
    store(mem, ty, p, identity(ty, op))
}

/// `*target = *target op *part`: a gang's partial combined into the variable.
pub fn combine_into(mem: &mut Memory, target: u64, part: u64, ty: ReductionType, op: ReductionOp) -> Result<(), MemFault> {
    let a = load(mem, ty, target)?;
    let b = load(mem, ty, part)?;
    store(mem, ty, target, combine(ty, op, a, b))
}

#[cfg(test)]
mod tests;
