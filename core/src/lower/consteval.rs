//! Constant evaluation of lowered expressions (C11 6.6): integer constant expressions for array
//! sizes, case labels and enumerators, arithmetic constants (complex ones included) and address
//! constants for static initializers.

use super::Lowerer;
use crate::ir::*;
use crate::libc::complex::complex_op;

#[derive(Clone, Copy, Debug)]
pub(crate) enum ConstVal {
    Int(u64),
    Float(f64),
    Complex(f64, f64),
    /// An address constant: the object plus a byte offset.
    Addr(RelocTarget, i64),
}

impl<'a> Lowerer<'a> {
    /// The value of an integer constant expression, if `e` is one.
    pub fn const_int(&self, e: &Expr) -> Option<u64> {
        match self.const_value(e)? {
            ConstVal::Int(v) => Some(v),
            _ => None,
        }
    }

    pub fn const_value(&self, e: &Expr) -> Option<ConstVal> {
        let types = &self.prog.types;
        match &e.kind {
            ExprKind::Int(v) => Some(ConstVal::Int(*v)),
            ExprKind::Float(f) => Some(ConstVal::Float(*f)),
            ExprKind::Str(id) => Some(ConstVal::Addr(RelocTarget::Str(*id), 0)),
            ExprKind::GlobalAddr(g) => Some(ConstVal::Addr(RelocTarget::Global(*g), 0)),
            ExprKind::FuncAddr(f) => Some(ConstVal::Addr(RelocTarget::Func(*f), 0)),
            ExprKind::Cast(x) => {
                let v = self.const_value(x)?;
                let to = types.get(e.ty);
                let from_signed = matches!(types.get(x.ty), Type::Int(IntType { signed: true, .. }));
                match (v, to) {
                    (ConstVal::Int(i), Type::Int(it)) => Some(ConstVal::Int(super::expr::wrap_int(i, *it))),
                    (ConstVal::Int(i), Type::Bool) => Some(ConstVal::Int((i != 0) as u64)),
                    (ConstVal::Int(i), Type::Pointer(_)) => Some(ConstVal::Int(i)),
                    (ConstVal::Int(i), Type::Float(k)) => {
                        let f = if from_signed { i as i64 as f64 } else { i as f64 };
                        Some(ConstVal::Float(if *k == FloatKind::F32 {
                            if from_signed { i as i64 as f32 as f64 } else { i as f32 as f64 }
                        } else {
                            f
                        }))
                    }
                    (ConstVal::Float(f), Type::Float(k)) => {
                        Some(ConstVal::Float(if *k == FloatKind::F32 { f as f32 as f64 } else { f }))
                    }
                    (ConstVal::Float(f), Type::Int(it)) => {
                        let v = if it.signed { f as i64 as u64 } else { f as u64 };
                        Some(ConstVal::Int(super::expr::wrap_int(v, *it)))
                    }
                    (ConstVal::Float(f), Type::Bool) => Some(ConstVal::Int((f != 0.0) as u64)),
                    (ConstVal::Addr(t, o), Type::Pointer(_)) => Some(ConstVal::Addr(t, o)),
                    (ConstVal::Addr(t, o), Type::Int(IntType { bytes: 8, .. })) => Some(ConstVal::Addr(t, o)),
                    _ => None,
                }
            }
            ExprKind::PtrAdd { ptr, index, elem } => {
                let p = self.const_value(ptr)?;
                let ConstVal::Int(i) = self.const_value(index)? else { return None };
                let size = types.size_of(*elem)? as i64;
                let delta = (i as i64).wrapping_mul(size);
                match p {
                    ConstVal::Addr(t, o) => Some(ConstVal::Addr(t, o.wrapping_add(delta))),
                    ConstVal::Int(v) => Some(ConstVal::Int(v.wrapping_add(delta as u64))),
                    _ => None,
                }
            }
            ExprKind::ComplexMake { re, im, .. } => {
                let f = |v: ConstVal| match v {
                    ConstVal::Float(f) => Some(f),
                    ConstVal::Int(i) => Some(i as i64 as f64),
                    _ => None,
                };
                Some(ConstVal::Complex(f(self.const_value(re)?)?, f(self.const_value(im)?)?))
            }
            // Complex arithmetic on constants (C11 6.6p3, 6.6p8: arithmetic constant expressions
            // of complex type, as gcc folds them), in the element precision, with the operations
            // the interpreter runs ([`crate::libc::complex`]), so both give the same bits.
            ExprKind::ComplexBinary { op, lhs, rhs, .. } if !op.is_comparison() => {
                let (ConstVal::Complex(a, b), ConstVal::Complex(c, d)) = (self.const_value(lhs)?, self.const_value(rhs)?) else { return None };
                Some(match types.get(e.ty) {
                    Type::Complex(FloatKind::F32) => {
                        let (re, im) = complex_op(*op, a as f32, b as f32, c as f32, d as f32);
                        ConstVal::Complex(re as f64, im as f64)
                    }
                    _ => {
                        let (re, im) = complex_op(*op, a, b, c, d);
                        ConstVal::Complex(re, im)
                    }
                })
            }
            ExprKind::ComplexNeg { value, .. } => match self.const_value(value)? {
                ConstVal::Complex(re, im) => Some(ConstVal::Complex(-re, -im)),
                _ => None,
            },
            ExprKind::Cond(c, a, b) => {
                let ConstVal::Int(c) = self.const_value(c)? else { return None };
                if c != 0 { self.const_value(a) } else { self.const_value(b) }
            }
            ExprKind::Comma(_, b) => self.const_value(b),
            ExprKind::Unary(UnOp::Neg, x) => match self.const_value(x)? {
                ConstVal::Float(f) => Some(ConstVal::Float(-f)),
                _ => None,
            },
            _ => None,
        }
    }
}
