//! Expressions: C11 6.5 with the conversions of 6.3 made explicit.

use lang_c::ast::{self, BinaryOperator as B, Expression as E, UnaryOperator as U};
use lang_c::span::{Node, Span};

use super::{Binding, LResult, Lowerer, Sym};
use crate::diag::{Diagnostic, Loc};
use crate::ir::*;

/// An lvalue: where an object is and its type.
#[derive(Clone, Debug)]
pub(crate) struct LVal {
    pub place: Place,
    pub ty: TypeId,
    pub loc: Loc,
    /// For a bit-field: the storage unit's type and the field's placement (`place` is the unit).
    pub bits: Option<(TypeId, BitField)>,
}

pub(crate) fn mk(kind: ExprKind, ty: TypeId, loc: Loc) -> Expr {
    Expr { kind, ty, loc }
}

impl<'a> Lowerer<'a> {
    // ---------------------------------------------------------------- conversions

    /// Convert `e` to type `to` (C11 6.3). Records and arrays are not converted.
    pub fn convert(&mut self, e: Expr, to: TypeId) -> Expr {
        if e.ty == to {
            return e;
        }
        let loc = e.loc;
        let from = self.ty(e.ty).clone();
        let target = self.ty(to).clone();
        match (&from, &target) {
            (Type::Complex(fk), Type::Complex(tk)) => {
                let (re, im) = self.complex_parts(e, *fk);
                let ft = self.prog.types.intern(Type::Float(*tk));
                let re = self.convert(re, ft);
                let im = self.convert(im, ft);
                let dst = self.temp_local(to, loc);
                mk(ExprKind::ComplexMake { re: Box::new(re), im: Box::new(im), dst }, to, loc)
            }
            (Type::Complex(fk), _) => {
                let (re, _) = self.complex_parts(e, *fk);
                if matches!(target, Type::Bool) {
                    // A complex is true when either part is nonzero; approximate by the real part
                    // is wrong, so compare the whole value with zero.
                    return self.convert(re, to);
                }
                self.convert(re, to)
            }
            (_, Type::Complex(tk)) => {
                let ft = self.prog.types.intern(Type::Float(*tk));
                let re = self.convert(e, ft);
                let im = mk(ExprKind::Float(0.0), ft, loc);
                let dst = self.temp_local(to, loc);
                mk(ExprKind::ComplexMake { re: Box::new(re), im: Box::new(im), dst }, to, loc)
            }
            (Type::Record(_), _) | (_, Type::Record(_)) => e,
            _ => {
                // Constant folding keeps constants constant (for static initializers and sizes).
                if let ExprKind::Int(v) = e.kind {
                    if let Some(c) = self.fold_int_cast(v, e.ty, to) {
                        return mk(c, to, loc);
                    }
                }
                if let ExprKind::Float(f) = e.kind {
                    if let Type::Float(k) = target {
                        let f = if k == FloatKind::F32 { f as f32 as f64 } else { f };
                        return mk(ExprKind::Float(f), to, loc);
                    }
                }
                mk(ExprKind::Cast(Box::new(e)), to, loc)
            }
        }
    }

    /// The real and imaginary parts of a complex value (an address) as float expressions; of a
    /// constant (`1.0 + 2.0*I`), the constant parts, so that converting it keeps it a constant
    /// (a static initializer of another complex or real type, C11 6.6p7).
    pub fn complex_parts(&mut self, e: Expr, k: FloatKind) -> (Expr, Expr) {
        let loc = e.loc;
        let ft = self.prog.types.intern(Type::Float(k));
        if let Some(super::consteval::ConstVal::Complex(re, im)) = self.const_value(&e) {
            return (mk(ExprKind::Float(re), ft, loc), mk(ExprKind::Float(im), ft, loc));
        }
        let fp = self.t_ptr(ft);
        // Evaluate the address once: keep it in a register temp when it is not trivially pure.
        let addr = self.cse_address(e);
        let re_addr = mk(ExprKind::Cast(Box::new(addr.clone())), fp, loc);
        let long = self.t_long();
        let im_addr = mk(
            ExprKind::PtrAdd { ptr: Box::new(re_addr.clone()), index: Box::new(mk(ExprKind::Int(1), long, loc)), elem: ft },
            fp,
            loc,
        );
        (mk(ExprKind::Load(Box::new(re_addr)), ft, loc), mk(ExprKind::Load(Box::new(im_addr)), ft, loc))
    }

    /// An address expression that can be evaluated twice without repeating side effects.
    fn cse_address(&mut self, e: Expr) -> Expr {
        if is_pure_address(&e) {
            return e;
        }
        let loc = e.loc;
        let pty = e.ty;
        // Keep the address in a register local of pointer type (the value type of `e` is a record
        // or complex; its "value" is the address, so store it as a char pointer).
        let t = self.new_temporary("<addr>", pty, Storage::Register, loc);
        let assign = mk(ExprKind::Assign { place: Place::Local(t), value: Box::new(e) }, pty, loc);
        let read = mk(ExprKind::Local(t), pty, loc);
        mk(ExprKind::Comma(Box::new(assign), Box::new(read)), pty, loc)
    }

    fn fold_int_cast(&mut self, v: u64, from: TypeId, to: TypeId) -> Option<ExprKind> {
        let src_signed = matches!(self.ty(from), Type::Int(IntType { signed: true, .. }));
        match self.ty(to).clone() {
            Type::Int(it) => Some(ExprKind::Int(wrap_int(v, it))),
            Type::Bool => Some(ExprKind::Int((v != 0) as u64)),
            Type::Pointer(_) if self.prog.types.is_integer(from) || self.prog.types.is_pointer(from) => {
                Some(ExprKind::Int(v))
            }
            Type::Float(k) if self.prog.types.is_integer(from) => {
                let f = if src_signed { v as i64 as f64 } else { v as f64 };
                let f = if k == FloatKind::F32 {
                    if src_signed { v as i64 as f32 as f64 } else { v as f32 as f64 }
                } else {
                    f
                };
                Some(ExprKind::Float(f))
            }
            _ => None,
        }
    }

    /// Integer promotion (C11 6.3.1.1p2); other types unchanged. Bool and small ints become int.
    pub fn promote(&mut self, e: Expr) -> Expr {
        match self.ty(e.ty) {
            Type::Bool => {
                let int = self.t_int();
                self.convert(e, int)
            }
            Type::Int(it) if it.bytes < 4 => {
                let int = self.t_int();
                self.convert(e, int)
            }
            _ => e,
        }
    }

    /// The promoted type of an arithmetic type.
    pub fn promoted_type(&mut self, t: TypeId) -> TypeId {
        match self.ty(t) {
            Type::Bool => self.t_int(),
            Type::Int(it) if it.bytes < 4 => self.t_int(),
            _ => t,
        }
    }

    /// The common type of the usual arithmetic conversions (C11 6.3.1.8).
    pub fn common_type(&mut self, a: TypeId, b: TypeId) -> TypeId {
        let ta = self.ty(a).clone();
        let tb = self.ty(b).clone();
        let fk = |t: &Type| match t {
            Type::Float(k) | Type::Complex(k) => Some(*k),
            _ => None,
        };
        let is_complex = matches!(ta, Type::Complex(_)) || matches!(tb, Type::Complex(_));
        if fk(&ta).is_some() || fk(&tb).is_some() {
            let rank = |k: Option<FloatKind>| match k {
                Some(FloatKind::LongDouble) => 3,
                Some(FloatKind::F64) => 2,
                Some(FloatKind::F32) => 1,
                None => 0,
            };
            let k = if rank(fk(&ta)) >= rank(fk(&tb)) { fk(&ta) } else { fk(&tb) }.unwrap_or(FloatKind::F64);
            return self.prog.types.intern(if is_complex { Type::Complex(k) } else { Type::Float(k) });
        }
        let pa = self.promoted_type(a);
        let pb = self.promoted_type(b);
        let (Type::Int(ia), Type::Int(ib)) = (self.ty(pa).clone(), self.ty(pb).clone()) else {
            return pa;
        };
        let r = if ia.signed == ib.signed {
            if ia.bytes >= ib.bytes { ia } else { ib }
        } else {
            let (s, u) = if ia.signed { (ia, ib) } else { (ib, ia) };
            if u.bytes >= s.bytes {
                u
            } else {
                s // the signed type can represent every value of the unsigned one
            }
        };
        self.prog.types.intern(Type::Int(r))
    }

    /// A scalar used as a condition, as an expression whose nonzero-ness is its truth (C11 6.8.4.1).
    pub fn truth(&mut self, e: Expr) -> Expr {
        let loc = e.loc;
        let int = self.t_int();
        match self.ty(e.ty).clone() {
            Type::Float(_) => {
                let zero = mk(ExprKind::Float(0.0), e.ty, loc);
                mk(ExprKind::Binary(BinOp::Ne, Box::new(e), Box::new(zero)), int, loc)
            }
            Type::Complex(_) => {
                let z = self.convert(mk(ExprKind::Int(0), int, loc), e.ty);
                mk(ExprKind::ComplexCompare { op: BinOp::Ne, lhs: Box::new(e), rhs: Box::new(z) }, int, loc)
            }
            _ => e,
        }
    }

    fn check_scalar(&mut self, e: &Expr, span: Span, what: &str) -> LResult<()> {
        if self.prog.types.is_scalar(e.ty) || matches!(self.ty(e.ty), Type::Complex(_)) {
            Ok(())
        } else {
            let t = self.prog.types.display(e.ty);
            self.error("type", format!("{what} requires a scalar, found `{t}`"), span)
        }
    }

    // ---------------------------------------------------------------- entry points

    /// Lower an expression as an rvalue (lvalue conversion and decay applied).
    pub fn expr(&mut self, n: &'a Node<E>) -> LResult<Expr> {
        let loc = self.loc(n.span);
        if let E::Identifier(id) = &n.node {
            if let Some(Binding { sym: Sym::EnumConst(v, ty), .. }) = self.lookup(&id.node.name) {
                let (v, ty) = (*v, *ty);
                return Ok(mk(ExprKind::Int(v as u64), ty, loc));
            }
        }
        match &n.node {
            E::Identifier(_)
            | E::StringLiteral(_)
            | E::Member(_)
            | E::CompoundLiteral(_) => {
                let lv = self.lvalue_or_designator(n)?;
                Ok(self.rvalue(lv))
            }
            E::UnaryOperator(u) if matches!(u.node.operator.node, U::Indirection) => {
                let lv = self.lvalue_or_designator(n)?;
                Ok(self.rvalue(lv))
            }
            E::BinaryOperator(b) if matches!(b.node.operator.node, B::Index) => {
                let lv = self.lvalue_or_designator(n)?;
                Ok(self.rvalue(lv))
            }
            E::Constant(c) => self.constant(c, loc),
            E::Call(c) => self.call(c, loc),
            E::SizeOfTy(s) => {
                let t = self.type_name(&s.node.0)?;
                self.size_of_type(t, s.span, loc)
            }
            E::SizeOfVal(s) => {
                let t = self.type_of_expr(&s.node.0)?;
                self.size_of_type(t, s.span, loc)
            }
            E::AlignOf(a) => {
                let t = self.type_name(&a.node.0)?;
                let al = self.prog.types.align_of(t);
                let ul = self.t_ulong();
                Ok(mk(ExprKind::Int(al), ul, loc))
            }
            E::UnaryOperator(u) => self.unary(&u.node, n.span, loc),
            E::Cast(c) => {
                let to = self.type_name(&c.node.type_name)?;
                let e = self.expr(&c.node.expression)?;
                if matches!(self.ty(to), Type::Void) {
                    return Ok(mk(ExprKind::Cast(Box::new(e)), to, loc));
                }
                if !self.prog.types.is_scalar(to) && !matches!(self.ty(to), Type::Complex(_)) {
                    let t = self.prog.types.display(to);
                    return self.error("type", format!("cast to non-scalar type `{t}`"), c.span);
                }
                self.check_scalar(&e, c.node.expression.span, "a cast")?;
                Ok(self.convert(e, to))
            }
            E::BinaryOperator(b) => self.binary(&b.node, n.span, loc),
            E::Conditional(c) => self.conditional(&c.node, n.span, loc),
            E::Comma(list) => {
                let mut it = list.iter();
                let Some(first) = it.next() else { return self.error("syntax", "empty comma expression", n.span) };
                let mut acc = self.expr(first)?;
                for e in it {
                    let next = self.expr(e)?;
                    let ty = next.ty;
                    acc = mk(ExprKind::Comma(Box::new(acc), Box::new(next)), ty, loc);
                }
                Ok(acc)
            }
            E::OffsetOf(o) => {
                let t = self.type_name(&o.node.type_name)?;
                let off = self.offset_of(t, &o.node.designator)?;
                let ul = self.t_ulong();
                Ok(mk(ExprKind::Int(off), ul, loc))
            }
            E::VaArg(v) => {
                let t = self.type_name(&v.node.type_name)?;
                let ap = self.expr(&v.node.va_list)?;
                Ok(mk(ExprKind::VaArg(Box::new(ap)), t, loc))
            }
            E::Statement(s) => self.statement_expression(s, loc),
            E::GenericSelection(g) => {
                let ctl = self.expr(&g.node.expression)?;
                let mut default = None;
                for a in &g.node.associations {
                    match &a.node {
                        ast::GenericAssociation::Type(t) => {
                            let ty = self.type_name(&t.node.type_name)?;
                            if ty == ctl.ty {
                                return self.expr(&t.node.expression);
                            }
                        }
                        ast::GenericAssociation::Default(e) => default = Some(e),
                    }
                }
                match default {
                    Some(e) => self.expr(e),
                    None => self.error("type", "no `_Generic` association matches the controlling expression", n.span),
                }
            }
        }
    }

    /// The type of an expression as `sizeof`/`typeof` see it: no decay, no evaluation.
    pub fn type_of_expr(&mut self, n: &'a Node<E>) -> LResult<TypeId> {
        if let E::Identifier(id) = &n.node {
            if let Some(Binding { sym: Sym::EnumConst(_, ty), .. }) = self.lookup(&id.node.name) {
                return Ok(*ty);
            }
        }
        match &n.node {
            E::Identifier(_) | E::StringLiteral(_) | E::Member(_) | E::CompoundLiteral(_) => {
                Ok(self.lvalue_or_designator(n)?.ty)
            }
            E::UnaryOperator(u) if matches!(u.node.operator.node, U::Indirection) => Ok(self.lvalue_or_designator(n)?.ty),
            E::BinaryOperator(b) if matches!(b.node.operator.node, B::Index) => Ok(self.lvalue_or_designator(n)?.ty),
            _ => Ok(self.expr(n)?.ty),
        }
    }

    fn size_of_type(&mut self, t: TypeId, span: Span, loc: Loc) -> LResult<Expr> {
        let ul = self.t_ulong();
        if self.is_variably_modified(t) {
            return Ok(mk(ExprKind::SizeOfDynamic(t), ul, loc));
        }
        match self.ty(t) {
            Type::Function(_) | Type::Void => return Ok(mk(ExprKind::Int(1), ul, loc)), // GNU extension
            _ => {}
        }
        let s = self.size_or_error(t, span, "`sizeof`")?;
        Ok(mk(ExprKind::Int(s), ul, loc))
    }

    /// Turn an lvalue into a value: load scalars; decay arrays and functions; records and complex
    /// values are their address.
    pub fn rvalue(&mut self, lv: LVal) -> Expr {
        let loc = lv.loc;
        if let Some((unit, bits)) = lv.bits {
            let Place::Mem(addr) = lv.place else { return mk(ExprKind::Int(0), lv.ty, loc) };
            let v = self.bitfield_read(*addr, unit, bits, loc);
            return self.convert(v, lv.ty);
        }
        match self.ty(lv.ty).clone() {
            Type::Array(elem, _) | Type::Vla(elem, _) => {
                let p = self.t_ptr(elem);
                let addr = self.place_address(lv.place, lv.ty, loc);
                retype(addr, p)
            }
            Type::Function(_) => {
                let p = self.t_ptr(lv.ty);
                let addr = self.place_address(lv.place, lv.ty, loc);
                retype(addr, p)
            }
            Type::Record(_) | Type::Complex(_) => {
                let addr = self.place_address(lv.place, lv.ty, loc);
                retype(addr, lv.ty)
            }
            _ => match lv.place {
                Place::Local(l) => mk(ExprKind::Local(l), lv.ty, loc),
                Place::Mem(addr) => mk(ExprKind::Load(addr), lv.ty, loc),
            },
        }
    }

    /// The address of a place (memory places only; register locals never have their address taken).
    pub fn place_address(&mut self, place: Place, ty: TypeId, loc: Loc) -> Expr {
        match place {
            Place::Mem(a) => *a,
            Place::Local(l) => {
                // Unreachable by construction (address-taken locals get memory storage); keep a
                // well-typed expression so a bug shows as a runtime error, not a panic.
                let p = self.t_ptr(ty);
                self.diags.push(crate::diag::Diagnostic::internal("address of a register local", Some(loc)));
                mk(ExprKind::LocalAddr(l), p, loc)
            }
        }
    }

    /// Lower an lvalue (or a function designator).
    pub fn lvalue_or_designator(&mut self, n: &'a Node<E>) -> LResult<LVal> {
        let loc = self.loc(n.span);
        match &n.node {
            E::Identifier(id) => self.identifier(&id.node.name, id.span, loc),
            E::StringLiteral(s) => {
                let (elem, bytes) = self.string_literal(&s.node, s.span)?;
                let ch = self.prog.types.intern(Type::Int(elem));
                let len = bytes.len() as u64 / elem.bytes as u64;
                let id = self.intern_string(bytes);
                let aty = self.prog.types.intern(Type::Array(ch, Some(len)));
                let p = self.t_ptr(aty);
                Ok(LVal { place: Place::Mem(Box::new(mk(ExprKind::Str(id), p, loc))), ty: aty, loc, bits: None })
            }
            E::Member(m) => self.member(&m.node, loc),
            E::UnaryOperator(u) if matches!(u.node.operator.node, U::Indirection) => {
                let p = self.expr(&u.node.operand)?;
                match self.ty(p.ty).clone() {
                    Type::Pointer(t) => {
                        if matches!(self.ty(t), Type::Void) {
                            return self.error("type", "dereferencing a `void *` pointer", n.span);
                        }
                        if matches!(self.ty(t), Type::Function(_)) {
                            // `*fp` is the function designator again.
                            return Ok(LVal { place: Place::Mem(Box::new(p)), ty: t, loc, bits: None });
                        }
                        Ok(LVal { place: Place::Mem(Box::new(p)), ty: t, loc, bits: None })
                    }
                    _ => {
                        let t = self.prog.types.display(p.ty);
                        self.error("type", format!("indirection requires a pointer operand, found `{t}`"), n.span)
                    }
                }
            }
            E::BinaryOperator(b) if matches!(b.node.operator.node, B::Index) => {
                let l = self.expr(&b.node.lhs)?;
                let r = self.expr(&b.node.rhs)?;
                let (ptr, idx) = if self.prog.types.is_pointer(l.ty) { (l, r) } else { (r, l) };
                let Some(elem) = self.prog.types.pointee(ptr.ty) else {
                    return self.error("type", "subscripted value is not an array or pointer", n.span);
                };
                if !self.prog.types.is_integer(idx.ty) {
                    return self.error("type", "array subscript is not an integer", n.span);
                }
                if self.prog.types.size_of(elem).is_none() && !self.is_variably_modified(elem) {
                    let t = self.prog.types.display(elem);
                    return self.error("type", format!("subscript of a pointer to incomplete type `{t}`"), n.span);
                }
                let addr = self.ptr_add(ptr, idx, elem, loc);
                Ok(LVal { place: Place::Mem(Box::new(addr)), ty: elem, loc, bits: None })
            }
            E::CompoundLiteral(cl) => {
                let ty = self.type_name(&cl.node.type_name)?;
                if self.fcx.is_none() {
                    // At file scope a compound literal has static storage (C11 6.5.2.5p5).
                    let (ty, plan) = self.local_aggregate_init(ty, &cl.node.initializer_list, n.span, loc)?;
                    let init = self.static_init(ty, plan, n.span)?;
                    let g = GlobalId(self.prog.globals.len() as u32);
                    self.prog.globals.push(Global { name: "<compound literal>".into(), ty, init: Some(init), read_only: false, loc, origin: GlobalOrigin::CompoundLiteral });
                    let p = self.t_ptr(ty);
                    return Ok(LVal { place: Place::Mem(Box::new(mk(ExprKind::GlobalAddr(g), p, loc))), ty, loc, bits: None });
                }
                let (ty, init) = self.local_aggregate_init(ty, &cl.node.initializer_list, n.span, loc)?;
                let local = self.new_temporary("<compound literal>", ty, Storage::Memory, loc);
                let p = self.t_ptr(ty);
                let addr = mk(ExprKind::LocalAddr(local), p, loc);
                let stmts = self.init_stmts_for(addr.clone(), ty, init, loc);
                let value = mk(ExprKind::WithInit { init: stmts, value: Box::new(addr) }, p, loc);
                Ok(LVal { place: Place::Mem(Box::new(value)), ty, loc, bits: None })
            }
            _ => {
                // A record or complex rvalue (a call's result, `a = b` of records…) is addressable.
                let e = self.expr(n)?;
                if matches!(self.ty(e.ty), Type::Record(_) | Type::Complex(_)) {
                    let ty = e.ty;
                    let p = self.t_ptr(ty);
                    return Ok(LVal { place: Place::Mem(Box::new(retype(e, p))), ty, loc, bits: None });
                }
                self.error("type", "expression is not assignable (not an lvalue)", n.span)
            }
        }
    }

    /// Read a bit-field from its storage unit at `addr` (C11 6.7.2.1: the value zero- or
    /// sign-extended from `width` bits, in the unit type's signedness).
    pub fn bitfield_read(&mut self, addr: Expr, unit: TypeId, bits: BitField, loc: Loc) -> Expr {
        let Type::Int(it) = self.ty(unit).clone() else { return mk(ExprKind::Int(0), unit, loc) };
        let wide = IntType { bytes: it.bytes.max(4), signed: it.signed };
        let wt = self.prog.types.intern(Type::Int(wide));
        let raw = mk(ExprKind::Load(Box::new(addr)), unit, loc);
        let raw = self.convert(raw, wt);
        let wbits = wide.bits() as u64;
        let int = self.t_int();
        let left = wbits - bits.shift as u64 - bits.width as u64;
        let shl = mk(ExprKind::Binary(BinOp::Shl, Box::new(raw), Box::new(mk(ExprKind::Int(left), int, loc))), wt, loc);
        let right = wbits - bits.width as u64;
        mk(ExprKind::Binary(BinOp::Shr, Box::new(shl), Box::new(mk(ExprKind::Int(right), int, loc))), wt, loc)
    }

    /// `lv = f(current value)` for a bit-field `lv`: returns the assignment expression (yielding
    /// the new value of the field) and an expression reading the value before the assignment
    /// (valid after the assignment, for post-increment).
    fn bitfield_assign(&mut self, lv: LVal, f: impl FnOnce(&mut Self, Expr) -> LResult<Expr>, loc: Loc) -> LResult<(Expr, Expr)> {
        let (Some((unit, bits)), Place::Mem(addr)) = (lv.bits, lv.place) else {
            return Err(self.report(crate::diag::Diagnostic::internal("bit-field without an address", Some(loc))));
        };
        let Type::Int(it) = self.ty(unit).clone() else {
            return Err(self.report(crate::diag::Diagnostic::internal("bit-field of non-integer type", Some(loc))));
        };
        // Evaluate the address once, into a register temporary.
        let pty = addr.ty;
        let at = self.new_temporary("<bit-field addr>", pty, Storage::Register, loc);
        let set_addr = mk(ExprKind::Assign { place: Place::Local(at), value: addr }, pty, loc);
        let a = || mk(ExprKind::Local(at), pty, loc);
        let cur = self.bitfield_read(a(), unit, bits, loc);
        let cur = self.convert(cur, lv.ty);
        let old_t = self.new_temporary("<bit-field old>", lv.ty, Storage::Register, loc);
        let save_old = mk(ExprKind::Assign { place: Place::Local(old_t), value: Box::new(cur) }, lv.ty, loc);
        let old = mk(ExprKind::Local(old_t), lv.ty, loc);
        let newv = f(self, old.clone())?;
        // unit = (unit & ~(mask << shift)) | ((new & mask) << shift), in the unsigned 64-bit word.
        let u64t = self.t_ulong();
        let int = self.t_int();
        let mask = if bits.width >= 64 { u64::MAX } else { (1u64 << bits.width) - 1 };
        let nv = self.convert(newv, u64t);
        let nv = mk(ExprKind::Binary(BinOp::BitAnd, Box::new(nv), Box::new(mk(ExprKind::Int(mask), u64t, loc))), u64t, loc);
        let nv = mk(ExprKind::Binary(BinOp::Shl, Box::new(nv), Box::new(mk(ExprKind::Int(bits.shift as u64), int, loc))), u64t, loc);
        let raw = mk(ExprKind::Load(Box::new(a())), unit, loc);
        let raw = self.convert(raw, u64t);
        let keep = !(mask << bits.shift);
        let kept = mk(ExprKind::Binary(BinOp::BitAnd, Box::new(raw), Box::new(mk(ExprKind::Int(keep), u64t, loc))), u64t, loc);
        let merged = mk(ExprKind::Binary(BinOp::BitOr, Box::new(kept), Box::new(nv)), u64t, loc);
        let _ = it;
        let merged = self.convert(merged, unit);
        let store = mk(ExprKind::Assign { place: Place::Mem(Box::new(a())), value: Box::new(merged) }, unit, loc);
        let readback = self.bitfield_read(a(), unit, bits, loc);
        let readback = self.convert(readback, lv.ty);
        let ty = lv.ty;
        let seq = mk(
            ExprKind::Comma(
                Box::new(set_addr),
                Box::new(mk(ExprKind::Comma(Box::new(save_old), Box::new(mk(ExprKind::Comma(Box::new(store), Box::new(readback)), ty, loc))), ty, loc)),
            ),
            ty,
            loc,
        );
        Ok((seq, old))
    }

    /// Store `value` into the bit-field `lv`.
    pub fn bitfield_assign_value(&mut self, lv: LVal, value: Expr, loc: Loc) -> LResult<Expr> {
        Ok(self.bitfield_assign(lv, |_, _| Ok(value), loc)?.0)
    }

    /// `ptr + idx` in elements of `elem`.
    pub fn ptr_add(&mut self, ptr: Expr, idx: Expr, elem: TypeId, loc: Loc) -> Expr {
        let long = self.t_long();
        let idx = self.convert(idx, long);
        let ty = ptr.ty;
        mk(ExprKind::PtrAdd { ptr: Box::new(ptr), index: Box::new(idx), elem }, ty, loc)
    }

    /// The address `base + offset` bytes, as a pointer to `ty`.
    pub fn offset_address(&mut self, base: Expr, offset: u64, ty: TypeId, loc: Loc) -> Expr {
        let p = self.t_ptr(ty);
        if offset == 0 {
            return retype_cast(base, p);
        }
        let ch = self.t_char();
        let cp = self.t_ptr(ch);
        let base = retype_cast(base, cp);
        let long = self.t_long();
        let add = mk(
            ExprKind::PtrAdd { ptr: Box::new(base), index: Box::new(mk(ExprKind::Int(offset), long, loc)), elem: ch },
            cp,
            loc,
        );
        retype_cast(add, p)
    }

    fn identifier(&mut self, name: &str, span: Span, loc: Loc) -> LResult<LVal> {
        let Some(b) = self.lookup(name).cloned() else {
            if name == "__func__" || name == "__FUNCTION__" || name == "__PRETTY_FUNCTION__" {
                let fname = self.fcx.as_ref().map(|f| f.name.clone()).unwrap_or_default();
                let mut bytes = fname.into_bytes();
                bytes.push(0);
                let len = bytes.len() as u64;
                let id = self.intern_string(bytes);
                let ch = self.t_char();
                let aty = self.prog.types.intern(Type::Array(ch, Some(len)));
                let p = self.t_ptr(aty);
                return Ok(LVal { place: Place::Mem(Box::new(mk(ExprKind::Str(id), p, loc))), ty: aty, loc, bits: None });
            }
            return self.error("undeclared", format!("use of undeclared identifier `{name}`"), span);
        };
        let Binding { sym, ty } = b;
        match sym {
            Sym::Local(l) => {
                let storage = self.fcx.as_ref().map(|f| f.locals[l.0 as usize].storage).unwrap_or(Storage::Register);
                match storage {
                    Storage::Register => Ok(LVal { place: Place::Local(l), ty, loc, bits: None }),
                    Storage::Memory | Storage::VlaAddress => {
                        let p = self.t_ptr(ty);
                        Ok(LVal { place: Place::Mem(Box::new(mk(ExprKind::LocalAddr(l), p, loc))), ty, loc, bits: None })
                    }
                }
            }
            Sym::Global(g) => {
                let ty = self.prog.globals[g.0 as usize].ty;
                let p = self.t_ptr(ty);
                Ok(LVal { place: Place::Mem(Box::new(mk(ExprKind::GlobalAddr(g), p, loc))), ty, loc, bits: None })
            }
            Sym::Func(f) => {
                let p = self.t_ptr(ty);
                Ok(LVal { place: Place::Mem(Box::new(mk(ExprKind::FuncAddr(f), p, loc))), ty, loc, bits: None })
            }
            Sym::Extern(e) => {
                let p = self.t_ptr(ty);
                Ok(LVal { place: Place::Mem(Box::new(mk(ExprKind::ExternAddr(e), p, loc))), ty, loc, bits: None })
            }
            Sym::EnumConst(..) | Sym::Typedef(_) => {
                // Enum constants are rvalues; handled by `expr` through `rvalue`? No: return a
                // pseudo-lvalue is wrong, so report when used as an lvalue.
                self.error("type", format!("`{name}` is not an object"), span)
            }
        }
    }

    fn member(&mut self, m: &'a ast::MemberExpression, loc: Loc) -> LResult<LVal> {
        let (base_addr, rty) = match m.operator.node {
            ast::MemberOperator::Direct => {
                let lv = self.lvalue_or_designator(&m.expression)?;
                let ty = lv.ty;
                // Only a record has members; a scalar base may be a register local, whose
                // address does not exist (`i.v` with `int i` was an internal error, found by the
                // front-end fuzzer, issue 14).
                if !matches!(self.ty(ty), Type::Record(_)) {
                    let t = self.prog.types.display(ty);
                    return self.error("type", format!("member reference base type `{t}` is not a structure or union"), m.expression.span);
                }
                (self.place_address(lv.place, ty, loc), ty)
            }
            ast::MemberOperator::Indirect => {
                let p = self.expr(&m.expression)?;
                let Some(t) = self.prog.types.pointee(p.ty) else {
                    let t = self.prog.types.display(p.ty);
                    return self.error("type", format!("member reference base type `{t}` is not a pointer"), m.expression.span);
                };
                (p, t)
            }
        };
        let Type::Record(rid) = self.ty(rty).clone() else {
            let t = self.prog.types.display(rty);
            return self.error("type", format!("member reference base type `{t}` is not a structure or union"), m.expression.span);
        };
        let name = &m.identifier.node.name;
        let Some((off, mty, bits)) = self.find_member_bits(rid, name) else {
            let t = self.prog.types.display(rty);
            let rec = self.prog.types.record(rid);
            let names: Vec<&str> = rec.members.iter().filter_map(|m| m.name.as_deref()).collect();
            let best = names.iter().min_by_key(|n| strsim::levenshtein(n, name)).filter(|n| strsim::levenshtein(n, name) <= 2);
            let mut d = crate::diag::Diagnostic::error("type", format!("no member named `{name}` in `{t}`"), self.loc(m.identifier.span));
            if let Some(b) = best {
                d = d.with_help(format!("did you mean `{b}`?"));
            }
            return Err(self.report(d));
        };
        let addr = self.offset_address(base_addr, off, mty, loc);
        if let Some(bits) = bits {
            // The value of a bit-field narrower than int promotes to int (C11 6.3.1.1p2).
            let ty = match self.ty(mty) {
                Type::Int(it) if (bits.width as u32) < 32 || (it.signed && it.bytes <= 4) => self.t_int(),
                _ => mty,
            };
            return Ok(LVal { place: Place::Mem(Box::new(addr)), ty, loc, bits: Some((mty, bits)) });
        }
        Ok(LVal { place: Place::Mem(Box::new(addr)), ty: mty, loc, bits: None })
    }

    fn offset_of(&mut self, t: TypeId, d: &'a Node<ast::OffsetDesignator>) -> LResult<u64> {
        let Type::Record(rid) = self.ty(t).clone() else {
            return self.error("type", "`offsetof` of a non-record type", d.span);
        };
        let Some((mut off, mut ty)) = self.find_member(rid, &d.node.base.node.name) else {
            return self.error("type", format!("no member named `{}`", d.node.base.node.name), d.node.base.span);
        };
        for m in &d.node.members {
            match &m.node {
                ast::OffsetMember::Member(id) => {
                    let Type::Record(r) = self.ty(ty).clone() else { return self.error("type", "member of non-record", id.span) };
                    let Some((o, t2)) = self.find_member(r, &id.node.name) else {
                        return self.error("type", format!("no member named `{}`", id.node.name), id.span);
                    };
                    off += o;
                    ty = t2;
                }
                ast::OffsetMember::Index(e) => {
                    let Type::Array(elem, _) = self.ty(ty).clone() else { return self.error("type", "subscript of non-array", e.span) };
                    let ex = self.expr(e)?;
                    let Some(i) = self.const_int(&ex) else { return self.error("type", "`offsetof` index is not constant", e.span) };
                    let s = self.size_or_error(elem, e.span, "`offsetof`")?;
                    off = off.wrapping_add(i.wrapping_mul(s));
                    ty = elem;
                }
                ast::OffsetMember::IndirectMember(id) => return self.unsupported("`->` in `offsetof`", id.span),
            }
        }
        Ok(off)
    }

    // ---------------------------------------------------------------- operators

    fn unary(&mut self, u: &'a ast::UnaryOperatorExpression, span: Span, loc: Loc) -> LResult<Expr> {
        let op = &u.operator.node;
        match op {
            U::Address => {
                let lv = self.lvalue_or_designator(&u.operand)?;
                let p = self.t_ptr(lv.ty);
                let ty = lv.ty;
                if let Place::Local(_) = lv.place {
                    return self.error("internal", "cannot take the address of this local", span);
                }
                if lv.bits.is_some() {
                    return self.error("type", "cannot take the address of a bit-field", span);
                }
                let a = self.place_address(lv.place, ty, loc);
                Ok(retype(a, p))
            }
            U::Indirection => unreachable_expr(self, span),
            U::PreIncrement | U::PreDecrement | U::PostIncrement | U::PostDecrement => {
                let lv = self.lvalue_or_designator(&u.operand)?;
                self.check_modifiable(&lv, u.operand.span)?;
                let delta = if matches!(op, U::PreIncrement | U::PostIncrement) { 1 } else { -1 };
                let post = matches!(op, U::PostIncrement | U::PostDecrement);
                if !self.prog.types.is_scalar(lv.ty) {
                    let t = self.prog.types.display(lv.ty);
                    return self.error("type", format!("cannot increment or decrement a value of type `{t}`"), span);
                }
                if let Some(t) = self.prog.types.pointee(lv.ty) {
                    if self.prog.types.size_of(t).is_none() && !self.is_variably_modified(t) && !matches!(self.ty(t), Type::Void) {
                        return self.error("type", "arithmetic on a pointer to an incomplete type", span);
                    }
                }
                let ty = lv.ty;
                if lv.bits.is_some() {
                    let int = self.t_int();
                    let (e, old) = self.bitfield_assign(
                        lv,
                        |cx, cur| {
                            let one = mk(ExprKind::Int(delta as i64 as u64), int, loc);
                            let r = cx.arith(BinOp::Add, cur, one, span, loc)?;
                            Ok(cx.convert(r, ty))
                        },
                        loc,
                    )?;
                    // Post-increment yields the old value.
                    return Ok(if post { mk(ExprKind::Comma(Box::new(e), Box::new(old)), ty, loc) } else { e });
                }
                Ok(mk(ExprKind::IncDec { place: lv.place, delta, post }, ty, loc))
            }
            U::Plus => {
                let e = self.expr(&u.operand)?;
                if !self.prog.types.is_arithmetic(e.ty) {
                    return self.error("type", "unary `+` requires an arithmetic operand", span);
                }
                Ok(self.promote(e))
            }
            U::Minus => {
                let e = self.expr(&u.operand)?;
                if !self.prog.types.is_arithmetic(e.ty) {
                    return self.error("type", "unary `-` requires an arithmetic operand", span);
                }
                let e = self.promote(e);
                let ty = e.ty;
                if matches!(self.ty(ty), Type::Complex(_)) {
                    let dst = self.temp_local(ty, loc);
                    return Ok(mk(ExprKind::ComplexNeg { value: Box::new(e), dst }, ty, loc));
                }
                if let ExprKind::Float(f) = e.kind {
                    return Ok(mk(ExprKind::Float(-f), ty, loc));
                }
                if let (ExprKind::Int(v), Type::Int(it)) = (&e.kind, self.ty(ty).clone()) {
                    return Ok(mk(ExprKind::Int(wrap_int(v.wrapping_neg(), it)), ty, loc));
                }
                Ok(mk(ExprKind::Unary(UnOp::Neg, Box::new(e)), ty, loc))
            }
            U::Complement => {
                let e = self.expr(&u.operand)?;
                if !self.prog.types.is_integer(e.ty) {
                    if let Type::Complex(k) = self.ty(e.ty).clone() {
                        // GNU: `~z` is the complex conjugate.
                        let (re, im) = self.complex_parts(e.clone(), k);
                        let ft = im.ty;
                        let nim = mk(ExprKind::Unary(UnOp::Neg, Box::new(im)), ft, loc);
                        let dst = self.temp_local(e.ty, loc);
                        return Ok(mk(ExprKind::ComplexMake { re: Box::new(re), im: Box::new(nim), dst }, e.ty, loc));
                    }
                    return self.error("type", "`~` requires an integer operand", span);
                }
                let e = self.promote(e);
                let ty = e.ty;
                if let (ExprKind::Int(v), Type::Int(it)) = (&e.kind, self.ty(ty).clone()) {
                    return Ok(mk(ExprKind::Int(wrap_int(!v, it)), ty, loc));
                }
                Ok(mk(ExprKind::Unary(UnOp::BitNot, Box::new(e)), ty, loc))
            }
            U::Negate => {
                let e = self.expr(&u.operand)?;
                self.check_scalar(&e, u.operand.span, "`!`")?;
                let int = self.t_int();
                let t = self.truth(e);
                if let ExprKind::Int(v) = t.kind {
                    return Ok(mk(ExprKind::Int((v == 0) as u64), int, loc));
                }
                Ok(mk(ExprKind::Unary(UnOp::Not, Box::new(t)), int, loc))
            }
        }
    }

    pub fn check_modifiable(&mut self, lv: &LVal, span: Span) -> LResult<()> {
        match self.ty(lv.ty) {
            Type::Array(..) | Type::Vla(..) => self.error("type", "array type is not assignable", span),
            Type::Function(_) => self.error("type", "function is not assignable", span),
            _ => Ok(()),
        }
    }

    fn binary(&mut self, b: &'a ast::BinaryOperatorExpression, span: Span, loc: Loc) -> LResult<Expr> {
        let op = &b.operator.node;
        match op {
            B::Assign => {
                let lv = self.lvalue_or_designator(&b.lhs)?;
                self.check_modifiable(&lv, b.lhs.span)?;
                let v = self.expr(&b.rhs)?;
                let v = self.assign_convert(v, lv.ty, b.rhs.span, "assigning")?;
                let ty = lv.ty;
                if lv.bits.is_some() {
                    return Ok(self.bitfield_assign(lv, |_, _| Ok(v), loc)?.0);
                }
                Ok(mk(ExprKind::Assign { place: lv.place, value: Box::new(v) }, ty, loc))
            }
            B::AssignPlus | B::AssignMinus | B::AssignMultiply | B::AssignDivide | B::AssignModulo | B::AssignShiftLeft
            | B::AssignShiftRight | B::AssignBitwiseAnd | B::AssignBitwiseOr | B::AssignBitwiseXor => {
                let bop = match op {
                    B::AssignPlus => BinOp::Add,
                    B::AssignMinus => BinOp::Sub,
                    B::AssignMultiply => BinOp::Mul,
                    B::AssignDivide => BinOp::Div,
                    B::AssignModulo => BinOp::Rem,
                    B::AssignShiftLeft => BinOp::Shl,
                    B::AssignShiftRight => BinOp::Shr,
                    B::AssignBitwiseAnd => BinOp::BitAnd,
                    B::AssignBitwiseOr => BinOp::BitOr,
                    _ => BinOp::BitXor,
                };
                let lv = self.lvalue_or_designator(&b.lhs)?;
                self.check_modifiable(&lv, b.lhs.span)?;
                let v = self.expr(&b.rhs)?;
                let ty = lv.ty;
                if self.prog.types.is_pointer(ty) {
                    if !matches!(bop, BinOp::Add | BinOp::Sub) || !self.prog.types.is_integer(v.ty) {
                        return self.error("type", "invalid operands to pointer compound assignment", span);
                    }
                    let long = self.t_long();
                    let v = self.convert(v, long);
                    return Ok(mk(ExprKind::CompoundAssign { op: bop, place: lv.place, value: Box::new(v), op_ty: ty }, ty, loc));
                }
                if !self.prog.types.is_arithmetic(ty) || !self.prog.types.is_arithmetic(v.ty) {
                    return self.error("type", "invalid operands to compound assignment", span);
                }
                let op_ty = if matches!(bop, BinOp::Shl | BinOp::Shr) {
                    if !self.prog.types.is_integer(ty) || !self.prog.types.is_integer(v.ty) {
                        return self.error("type", "shift operands must be integers", span);
                    }
                    self.promoted_type(ty)
                } else {
                    if matches!(bop, BinOp::Rem | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor)
                        && (!self.prog.types.is_integer(ty) || !self.prog.types.is_integer(v.ty))
                    {
                        return self.error("type", "invalid operands: this operator requires integers", span);
                    }
                    self.common_type(ty, v.ty)
                };
                if lv.bits.is_some() {
                    let (e, _) = self.bitfield_assign(
                        lv,
                        |cx, cur| {
                            let res = cx.arith(bop, cur, v, span, loc)?;
                            Ok(cx.convert(res, ty))
                        },
                        loc,
                    )?;
                    return Ok(e);
                }
                if matches!(self.ty(op_ty), Type::Complex(_)) || matches!(self.ty(ty), Type::Complex(_)) {
                    // z op= w  →  z = z op w
                    let cur = self.rvalue(lv.clone());
                    let res = self.arith(bop, cur, v, span, loc)?;
                    let res = self.convert(res, ty);
                    return Ok(mk(ExprKind::Assign { place: lv.place, value: Box::new(res) }, ty, loc));
                }
                let v = if matches!(bop, BinOp::Shl | BinOp::Shr) { self.promote(v) } else { self.convert(v, op_ty) };
                Ok(mk(ExprKind::CompoundAssign { op: bop, place: lv.place, value: Box::new(v), op_ty }, ty, loc))
            }
            B::LogicalAnd | B::LogicalOr => {
                let l = self.expr(&b.lhs)?;
                self.check_scalar(&l, b.lhs.span, "a logical operator")?;
                let r = self.expr(&b.rhs)?;
                self.check_scalar(&r, b.rhs.span, "a logical operator")?;
                let l = self.truth(l);
                let r = self.truth(r);
                let int = self.t_int();
                let k = if matches!(op, B::LogicalAnd) {
                    ExprKind::LogicalAnd(Box::new(l), Box::new(r))
                } else {
                    ExprKind::LogicalOr(Box::new(l), Box::new(r))
                };
                Ok(mk(k, int, loc))
            }
            B::Index => unreachable_expr(self, span),
            _ => {
                let l = self.expr(&b.lhs)?;
                let r = self.expr(&b.rhs)?;
                let bop = match op {
                    B::Multiply => BinOp::Mul,
                    B::Divide => BinOp::Div,
                    B::Modulo => BinOp::Rem,
                    B::Plus => BinOp::Add,
                    B::Minus => BinOp::Sub,
                    B::ShiftLeft => BinOp::Shl,
                    B::ShiftRight => BinOp::Shr,
                    B::Less => BinOp::Lt,
                    B::Greater => BinOp::Gt,
                    B::LessOrEqual => BinOp::Le,
                    B::GreaterOrEqual => BinOp::Ge,
                    B::Equals => BinOp::Eq,
                    B::NotEquals => BinOp::Ne,
                    B::BitwiseAnd => BinOp::BitAnd,
                    B::BitwiseXor => BinOp::BitXor,
                    _ => BinOp::BitOr,
                };
                self.arith(bop, l, r, span, loc)
            }
        }
    }

    /// A binary operator on two rvalues (C11 6.5.5–6.5.12).
    pub fn arith(&mut self, op: BinOp, l: Expr, r: Expr, span: Span, loc: Loc) -> LResult<Expr> {
        let types = &self.prog.types;
        let lp = types.is_pointer(l.ty);
        let rp = types.is_pointer(r.ty);
        let int = self.t_int();
        if lp || rp {
            match op {
                BinOp::Add if lp && self.prog.types.is_integer(r.ty) => {
                    let elem = self.ptr_elem(l.ty, span)?;
                    return Ok(self.ptr_add(l, r, elem, loc));
                }
                BinOp::Add if rp && self.prog.types.is_integer(l.ty) => {
                    let elem = self.ptr_elem(r.ty, span)?;
                    return Ok(self.ptr_add(r, l, elem, loc));
                }
                BinOp::Sub if lp && self.prog.types.is_integer(r.ty) => {
                    let elem = self.ptr_elem(l.ty, span)?;
                    let long = self.t_long();
                    let r = self.convert(r, long);
                    let neg = mk(ExprKind::Unary(UnOp::Neg, Box::new(r)), long, loc);
                    return Ok(self.ptr_add(l, neg, elem, loc));
                }
                BinOp::Sub if lp && rp => {
                    let elem = self.ptr_elem(l.ty, span)?;
                    let long = self.t_long();
                    return Ok(mk(ExprKind::PtrDiff { lhs: Box::new(l), rhs: Box::new(r), elem }, long, loc));
                }
                _ if op.is_comparison() => {
                    // Pointer comparison, or a pointer against a null pointer constant / integer.
                    let (l, r) = if lp && !rp {
                        let t = l.ty;
                        (l, self.convert(r, t))
                    } else if rp && !lp {
                        let t = r.ty;
                        (self.convert(l, t), r)
                    } else {
                        (l, r)
                    };
                    return Ok(mk(ExprKind::Binary(op, Box::new(l), Box::new(r)), int, loc));
                }
                _ => {
                    let (a, b) = (self.prog.types.display(l.ty), self.prog.types.display(r.ty));
                    return self.error("type", format!("invalid operands to binary operator (`{a}` and `{b}`)"), span);
                }
            }
        }
        if !self.prog.types.is_arithmetic(l.ty) || !self.prog.types.is_arithmetic(r.ty) {
            let (a, b) = (self.prog.types.display(l.ty), self.prog.types.display(r.ty));
            return self.error("type", format!("invalid operands to binary operator (`{a}` and `{b}`)"), span);
        }
        if matches!(op, BinOp::Shl | BinOp::Shr) {
            if !self.prog.types.is_integer(l.ty) || !self.prog.types.is_integer(r.ty) {
                return self.error("type", "shift operands must be integers", span);
            }
            let l = self.promote(l);
            let r = self.promote(r);
            let ty = l.ty;
            if let (ExprKind::Int(a), ExprKind::Int(b), Type::Int(it)) = (&l.kind, &r.kind, self.ty(ty).clone()) {
                if *b < it.bits() as u64 {
                    let v = if op == BinOp::Shl {
                        a.wrapping_shl(*b as u32)
                    } else if it.signed {
                        ((*a as i64) >> *b) as u64
                    } else {
                        a >> *b
                    };
                    return Ok(mk(ExprKind::Int(wrap_int(v, it)), ty, loc));
                }
            }
            return Ok(mk(ExprKind::Binary(op, Box::new(l), Box::new(r)), ty, loc));
        }
        if matches!(op, BinOp::Rem | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor)
            && (!self.prog.types.is_integer(l.ty) || !self.prog.types.is_integer(r.ty))
        {
            return self.error("type", "invalid operands: this operator requires integers", span);
        }
        let ct = self.common_type(l.ty, r.ty);
        let l = self.convert(l, ct);
        let r = self.convert(r, ct);
        if matches!(self.ty(ct), Type::Complex(_)) {
            if op.is_comparison() {
                if !matches!(op, BinOp::Eq | BinOp::Ne) {
                    return self.error("type", "complex numbers cannot be ordered", span);
                }
                return Ok(mk(ExprKind::ComplexCompare { op, lhs: Box::new(l), rhs: Box::new(r) }, int, loc));
            }
            let dst = self.temp_local(ct, loc);
            return Ok(mk(ExprKind::ComplexBinary { op, lhs: Box::new(l), rhs: Box::new(r), dst }, ct, loc));
        }
        let ty = if op.is_comparison() { int } else { ct };
        if let Some(folded) = self.fold_binary(op, &l, &r, ct) {
            return Ok(mk(folded, ty, loc));
        }
        Ok(mk(ExprKind::Binary(op, Box::new(l), Box::new(r)), ty, loc))
    }

    fn ptr_elem(&mut self, pty: TypeId, span: Span) -> LResult<TypeId> {
        let elem = self.prog.types.pointee(pty).unwrap_or(pty);
        if matches!(self.ty(elem), Type::Void) {
            // GNU: arithmetic on void* as on char*.
            return Ok(self.t_char());
        }
        if self.prog.types.size_of(elem).is_none() && !self.is_variably_modified(elem) {
            if matches!(self.ty(elem), Type::Function(_)) {
                return Ok(self.t_char());
            }
            let t = self.prog.types.display(elem);
            return self.error("type", format!("arithmetic on a pointer to incomplete type `{t}`"), span);
        }
        Ok(elem)
    }

    /// Fold integer arithmetic on constants (needed for constant expressions: array sizes, case
    /// labels, enumerators, static initializers).
    fn fold_binary(&mut self, op: BinOp, l: &Expr, r: &Expr, ct: TypeId) -> Option<ExprKind> {
        let (ExprKind::Int(a), ExprKind::Int(b)) = (&l.kind, &r.kind) else {
            if let (ExprKind::Float(a), ExprKind::Float(b)) = (&l.kind, &r.kind) {
                let f32_ = matches!(self.ty(ct), Type::Float(FloatKind::F32));
                // Folded as the engines compute at run time: x86's NaN rule (`exec::float_ops`).
                use crate::exec::float_ops as fl;
                let v = match op {
                    BinOp::Add => fl::add64(*a, *b),
                    BinOp::Sub => fl::sub64(*a, *b),
                    BinOp::Mul => fl::mul64(*a, *b),
                    BinOp::Div => fl::div64(*a, *b),
                    BinOp::Eq => return Some(ExprKind::Int((a == b) as u64)),
                    BinOp::Ne => return Some(ExprKind::Int((a != b) as u64)),
                    BinOp::Lt => return Some(ExprKind::Int((a < b) as u64)),
                    BinOp::Le => return Some(ExprKind::Int((a <= b) as u64)),
                    BinOp::Gt => return Some(ExprKind::Int((a > b) as u64)),
                    BinOp::Ge => return Some(ExprKind::Int((a >= b) as u64)),
                    _ => return None,
                };
                let v = if f32_ {
                    let (x, y) = (*a as f32, *b as f32);
                    (match op {
                        BinOp::Add => fl::add32(x, y),
                        BinOp::Sub => fl::sub32(x, y),
                        BinOp::Mul => fl::mul32(x, y),
                        _ => fl::div32(x, y),
                    }) as f64
                } else {
                    v
                };
                return Some(ExprKind::Float(v));
            }
            return None;
        };
        let Type::Int(it) = self.ty(ct).clone() else { return None };
        let (a, b) = (*a, *b);
        let s = it.signed;
        let v = match op {
            BinOp::Add => a.wrapping_add(b),
            BinOp::Sub => a.wrapping_sub(b),
            BinOp::Mul => a.wrapping_mul(b),
            BinOp::Div | BinOp::Rem => {
                if b == 0 || (s && wrap_int(b, it) as i64 == -1 && op == BinOp::Div && a as i64 == min_of(it)) {
                    return None; // leave it to run time (a diagnostic there)
                }
                if s {
                    let (x, y) = (a as i64, b as i64);
                    (if op == BinOp::Div { x.wrapping_div(y) } else { x.wrapping_rem(y) }) as u64
                } else if op == BinOp::Div {
                    a / b
                } else {
                    a % b
                }
            }
            BinOp::BitAnd => a & b,
            BinOp::BitOr => a | b,
            BinOp::BitXor => a ^ b,
            BinOp::Eq => return Some(ExprKind::Int((a == b) as u64)),
            BinOp::Ne => return Some(ExprKind::Int((a != b) as u64)),
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let ord = if s { (a as i64).cmp(&(b as i64)) } else { a.cmp(&b) };
                let r = match op {
                    BinOp::Lt => ord.is_lt(),
                    BinOp::Le => ord.is_le(),
                    BinOp::Gt => ord.is_gt(),
                    _ => ord.is_ge(),
                };
                return Some(ExprKind::Int(r as u64));
            }
            BinOp::Shl | BinOp::Shr => return None,
        };
        Some(ExprKind::Int(wrap_int(v, it)))
    }

    /// Conversion as if by assignment (C11 6.5.16.1), with the checks gcc makes errors.
    pub fn assign_convert(&mut self, v: Expr, to: TypeId, span: Span, what: &str) -> LResult<Expr> {
        let target = self.ty(to).clone();
        match target {
            Type::Record(_) => {
                if v.ty != to {
                    let (a, b) = (self.prog.types.display(v.ty), self.prog.types.display(to));
                    return self.error("type", format!("incompatible types when {what} `{b}` from `{a}`"), span);
                }
                Ok(v)
            }
            Type::Array(..) | Type::Vla(..) | Type::Function(_) => self.error("type", "array or function type is not assignable", span),
            Type::Void => self.error("type", "cannot assign to `void`", span),
            _ => {
                if matches!(self.ty(v.ty), Type::Record(_) | Type::Void) {
                    let (a, b) = (self.prog.types.display(v.ty), self.prog.types.display(to));
                    return self.error("type", format!("incompatible types when {what} `{b}` from `{a}`"), span);
                }
                Ok(self.convert(v, to))
            }
        }
    }

    fn conditional(&mut self, c: &'a ast::ConditionalExpression, span: Span, loc: Loc) -> LResult<Expr> {
        let cond = self.expr(&c.condition)?;
        self.check_scalar(&cond, c.condition.span, "a condition")?;
        let cond = self.truth(cond);
        let a = self.expr(&c.then_expression)?;
        let b = self.expr(&c.else_expression)?;
        let (ta, tb) = (self.ty(a.ty).clone(), self.ty(b.ty).clone());
        let ty = if self.prog.types.is_arithmetic(a.ty) && self.prog.types.is_arithmetic(b.ty) {
            self.common_type(a.ty, b.ty)
        } else if matches!(ta, Type::Void) || matches!(tb, Type::Void) {
            self.t_void()
        } else if let (Type::Pointer(pa), Type::Pointer(_)) = (&ta, &tb) {
            if matches!(self.ty(*pa), Type::Void) { b.ty } else { a.ty }
        } else if matches!(ta, Type::Pointer(_)) {
            a.ty
        } else if matches!(tb, Type::Pointer(_)) {
            b.ty
        } else if a.ty == b.ty {
            a.ty
        } else {
            let (x, y) = (self.prog.types.display(a.ty), self.prog.types.display(b.ty));
            return self.error("type", format!("type mismatch in conditional expression (`{x}` and `{y}`)"), span);
        };
        let (a, b) = if matches!(self.ty(ty), Type::Void) { (a, b) } else { (self.convert(a, ty), self.convert(b, ty)) };
        if let ExprKind::Int(v) = cond.kind {
            return Ok(if v != 0 { a } else { b });
        }
        Ok(mk(ExprKind::Cond(Box::new(cond), Box::new(a), Box::new(b)), ty, loc))
    }

    // ---------------------------------------------------------------- calls

    fn call(&mut self, c: &'a Node<ast::CallExpression>, loc: Loc) -> LResult<Expr> {
        let callee_node = &c.node.callee;
        let mut callee_expr = None;
        if let E::Identifier(id) = &callee_node.node {
            let name = id.node.name.as_str();
            if self.lookup(name).is_none() || name.starts_with("__builtin_") {
                if let Some(e) = self.builtin_call(name, &c.node.arguments, c.span, loc)? {
                    return Ok(e);
                }
                if self.lookup(name).is_none() {
                    if self.units[self.unit_index].fortran {
                        // The translator declares what it calls (`accsim_fortran::LIBC`); an
                        // `int name()` guess would compute a wrong value silently.
                        let loc = self.loc(c.span);
                        return Err(self.report(Diagnostic::internal(format!("the C translation of this Fortran program calls `{name}`, which accsim's Fortran runtime does not declare"), Some(loc))));
                    }
                    // Implicit declaration `int name()` (C89; gcc accepts with a warning).
                    self.implicit_function(name, loc);
                }
            }
            callee_expr = Some(self.expr(callee_node)?);
        }
        let f = match callee_expr {
            Some(e) => e,
            None => self.expr(callee_node)?,
        };
        let Some(fty) = self.prog.types.pointee(f.ty) else {
            let t = self.prog.types.display(f.ty);
            return self.error("type", format!("called object of type `{t}` is not a function or function pointer"), callee_node.span);
        };
        let Type::Function(sig) = self.ty(fty).clone() else {
            let t = self.prog.types.display(f.ty);
            return self.error("type", format!("called object of type `{t}` is not a function or function pointer"), callee_node.span);
        };
        let nparams = sig.params.len();
        let nargs = c.node.arguments.len();
        if !sig.unprototyped && (nargs < nparams || (nargs > nparams && !sig.variadic)) {
            let what = if nargs < nparams { "few" } else { "many" };
            return self.error("call", format!("too {what} arguments to function call: expected {nparams}, have {nargs}"), c.span);
        }
        let mut args = Vec::with_capacity(nargs);
        for (i, a) in c.node.arguments.iter().enumerate() {
            let v = self.expr(a)?;
            let v = if i < nparams && !sig.unprototyped {
                self.assign_convert(v, sig.params[i], a.span, "passing")?
            } else {
                self.default_promote(v)
            };
            args.push(v);
        }
        let result = if matches!(self.ty(sig.ret), Type::Record(_) | Type::Complex(_)) {
            Some(self.temp_local(sig.ret, loc))
        } else {
            None
        };
        let callee = match f.kind {
            ExprKind::FuncAddr(id) => Callee::Direct(id),
            ExprKind::ExternAddr(id) => Callee::Extern(id),
            _ => Callee::Indirect(Box::new(f)),
        };
        Ok(mk(ExprKind::Call { callee, args, result }, sig.ret, loc))
    }

    /// Default argument promotions (C11 6.5.2.2p6): integer promotions, float → double.
    pub fn default_promote(&mut self, e: Expr) -> Expr {
        if let Type::Float(FloatKind::F32) = self.ty(e.ty) {
            let d = self.t_double();
            return self.convert(e, d);
        }
        self.promote(e)
    }

    fn implicit_function(&mut self, name: &str, loc: Loc) {
        let int = self.t_int();
        let fty = self.prog.types.intern(Type::Function(FuncSig { ret: int, params: vec![], variadic: false, unprototyped: true }));
        let sym = self.function_symbol(name, fty, false, loc);
        // Implicit declarations have file scope in gcc.
        if let Some(s) = self.scopes.first_mut() {
            s.insert(name.to_string(), Binding { sym, ty: fty });
        }
    }

    fn statement_expression(&mut self, s: &'a Node<ast::Statement>, loc: Loc) -> LResult<Expr> {
        let ast::Statement::Compound(items) = &s.node else {
            return self.error("syntax", "statement expression must be a compound statement", s.span);
        };
        self.push_scope();
        let mut body = Vec::new();
        let mut value = None;
        let n = items.len();
        let mut result = Ok(());
        for (i, item) in items.iter().enumerate() {
            if i + 1 == n {
                if let ast::BlockItem::Statement(st) = &item.node {
                    if let ast::Statement::Expression(Some(e)) = &st.node {
                        match self.expr(e) {
                            Ok(v) => value = Some(Box::new(v)),
                            Err(r) => result = Err(r),
                        }
                        continue;
                    }
                }
            }
            if let Err(r) = self.block_item(item, &mut body) {
                result = Err(r);
            }
        }
        self.pop_scope();
        result?;
        let ty = match &value {
            Some(v) => v.ty,
            None => self.t_void(),
        };
        Ok(mk(ExprKind::StmtExpr { body, value }, ty, loc))
    }
}

fn unreachable_expr<T>(cx: &mut Lowerer<'_>, span: Span) -> LResult<T> {
    cx.error("internal", "unexpected expression form", span)
}

/// Same expression, different (pointer) type — no conversion happens.
pub(crate) fn retype(mut e: Expr, ty: TypeId) -> Expr {
    e.ty = ty;
    e
}

/// A pointer-to-pointer cast (no change of bits); folded away when the types agree.
pub(crate) fn retype_cast(e: Expr, ty: TypeId) -> Expr {
    if e.ty == ty {
        return e;
    }
    let loc = e.loc;
    mk(ExprKind::Cast(Box::new(e)), ty, loc)
}

fn is_pure_address(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::LocalAddr(_) | ExprKind::GlobalAddr(_) | ExprKind::Str(_) | ExprKind::Local(_) | ExprKind::Int(_) => true,
        ExprKind::Cast(x) => is_pure_address(x),
        ExprKind::PtrAdd { ptr, index, .. } => is_pure_address(ptr) && is_pure_address(index),
        _ => false,
    }
}

/// Truncate and re-extend a 64-bit word to an integer type's width.
pub(crate) fn wrap_int(v: u64, it: IntType) -> u64 {
    it.wrap(v)
}

fn min_of(it: IntType) -> i64 {
    match it.bytes {
        1 => i8::MIN as i64,
        2 => i16::MIN as i64,
        4 => i32::MIN as i64,
        _ => i64::MIN,
    }
}
