//! Initializers (C11 6.7.9): a walk over the braced list with designators and brace elision that
//! yields a plan of (offset, value) items, used at run time (stores after a zero fill) and for
//! static storage (constant bytes plus relocations).
//!
//! Limits: GNU range designators `[a ... b]` are not supported; a designator followed by
//! undesignated items continues at the designated member's level (C11), except inside a nested
//! designator path, where it continues at the top level.

use lang_c::ast::{self, Expression as E, Initializer};
use lang_c::span::{Node, Span};

use super::expr::mk;
use super::{LResult, Lowerer};
use crate::diag::Loc;
use crate::ir::*;

/// One piece of an initialized object.
#[derive(Clone, Debug)]
pub(crate) enum InitItem {
    /// Store `value` (of type `ty`, already converted) at `offset`.
    Value { offset: u64, ty: TypeId, value: Expr, bits: Option<BitField> },
    /// A string literal into a char array: `len` bytes of string `id` at `offset`.
    Str { offset: u64, id: StrId, len: u64, ty: TypeId },
}

#[derive(Clone, Debug, Default)]
pub(crate) struct InitPlan {
    pub items: Vec<InitItem>,
}

impl<'a> Lowerer<'a> {
    /// Plan the initialization of an object of type `ty` by `init`; an array of unknown size gets
    /// its size from the initializer (the returned type).
    pub fn plan_init(&mut self, ty: TypeId, init: &'a Node<Initializer>) -> LResult<(TypeId, InitPlan)> {
        let loc = self.loc(init.span);
        match &init.node {
            Initializer::List(items) => self.local_aggregate_init(ty, items, init.span, loc),
            Initializer::Expression(e) => {
                let mut plan = InitPlan::default();
                if let Some((ty2, item)) = self.string_into_array(ty, e, 0)? {
                    plan.items.push(item);
                    return Ok((ty2, plan));
                }
                if matches!(self.ty(ty), Type::Array(..) | Type::Vla(..)) {
                    return self.error("init", "array initializer must be an initializer list or string literal", e.span);
                }
                let v = self.expr(e)?;
                let v = self.assign_convert(v, ty, e.span, "initializing")?;
                plan.items.push(InitItem::Value { offset: 0, ty, value: v, bits: None });
                Ok((ty, plan))
            }
        }
    }

    /// Plan a braced list for an object of type `ty`.
    pub fn local_aggregate_init(
        &mut self,
        ty: TypeId,
        items: &'a [Node<ast::InitializerListItem>],
        span: Span,
        _loc: Loc,
    ) -> LResult<(TypeId, InitPlan)> {
        let mut plan = InitPlan::default();
        if self.prog.types.is_scalar(ty) || matches!(self.ty(ty), Type::Complex(_)) {
            // `int x = { 3 };`
            let Some(first) = items.first() else {
                return self.error("init", "scalar initializer cannot be empty", span);
            };
            self.init_one(ty, 0, None, &first.node.initializer, &mut plan)?;
            return Ok((ty, plan));
        }
        if matches!(self.ty(ty), Type::Vla(..)) {
            return self.error("init", "variable-sized object may not be initialized", span);
        }
        let n = self.init_list(ty, 0, items, &mut plan)?;
        let ty = match self.ty(ty).clone() {
            Type::Array(elem, None) => self.prog.types.intern(Type::Array(elem, Some(n))),
            _ => ty,
        };
        Ok((ty, plan))
    }

    /// The sub-object at position `pos` of an aggregate: (type, offset, bit-field placement).
    /// Unnamed bit-fields take no position (C11 6.7.9p9).
    fn subobject(&mut self, ty: TypeId, pos: u64) -> Option<(TypeId, u64, Option<BitField>)> {
        match self.ty(ty).clone() {
            Type::Array(elem, len) => {
                if len.is_some_and(|n| pos >= n) {
                    return None;
                }
                let s = self.prog.types.size_of(elem)?;
                Some((elem, pos.checked_mul(s)?, None))
            }
            Type::Record(r) => {
                let rec = self.prog.types.record(r);
                if rec.is_union && pos > 0 {
                    return None;
                }
                rec.members.iter().filter(|m| !(m.name.is_none() && m.bits.is_some())).nth(pos as usize).map(|m| (m.ty, m.offset, m.bits))
            }
            _ => None,
        }
    }

    /// Resolve one designator against `ty`: (sub type, offset, position, bit-field placement).
    fn designate(&mut self, ty: TypeId, d: &'a Node<ast::Designator>) -> LResult<(TypeId, u64, u64, Option<BitField>)> {
        match &d.node {
            ast::Designator::Index(e) => {
                let Type::Array(elem, len) = self.ty(ty).clone() else {
                    return self.error("init", "array designator used on a non-array", d.span);
                };
                let ex = self.expr(e)?;
                let Some(i) = self.const_int(&ex) else { return self.error("init", "array designator is not a constant", e.span) };
                if len.is_some_and(|n| i >= n) {
                    return self.error("init", format!("array designator index {i} exceeds the array bounds"), e.span);
                }
                let s = self.size_or_error(elem, d.span, "initializer")?;
                Ok((elem, i * s, i, None))
            }
            ast::Designator::Member(id) => {
                let Type::Record(r) = self.ty(ty).clone() else {
                    return self.error("init", "field designator used on a non-struct", d.span);
                };
                let name = &id.node.name;
                let rec = self.prog.types.record(r);
                let positional = rec.members.iter().filter(|m| !(m.name.is_none() && m.bits.is_some()));
                if let Some((pos, m)) = positional.enumerate().find(|(_, m)| m.name.as_deref() == Some(name.as_str())) {
                    return Ok((m.ty, m.offset, pos as u64, m.bits));
                }
                match self.find_member_bits(r, name) {
                    Some((off, t, bits)) => Ok((t, off, rec_position_of_offset(self, r, off), bits)),
                    None => self.error("init", format!("field designator `{name}` does not refer to any field"), id.span),
                }
            }
            ast::Designator::Range(_) => self.unsupported("a GNU range designator `[a ... b]` inside a designator path", d.span),
        }
    }

    /// `[lo ... hi]` (GNU): the index range of a range designator on array type `ty`.
    fn designate_range(&mut self, ty: TypeId, r: &'a Node<ast::RangeDesignator>) -> LResult<(TypeId, u64, u64, u64)> {
        let Type::Array(elem, len) = self.ty(ty).clone() else {
            return self.error("init", "array designator used on a non-array", r.span);
        };
        let lo = self.expr(&r.node.from)?;
        let hi = self.expr(&r.node.to)?;
        let (Some(lo), Some(hi)) = (self.const_int(&lo), self.const_int(&hi)) else {
            return self.error("init", "array designator range is not constant", r.span);
        };
        if hi < lo || len.is_some_and(|n| hi >= n) {
            return self.error("init", "array designator range is empty or exceeds the array bounds", r.span);
        }
        let s = self.size_or_error(elem, r.span, "initializer")?;
        Ok((elem, s, lo, hi))
    }

    /// A braced list for an aggregate at `base`. Returns the number of top-level positions used.
    fn init_list(&mut self, ty: TypeId, base: u64, items: &'a [Node<ast::InitializerListItem>], plan: &mut InitPlan) -> LResult<u64> {
        let mut idx = 0;
        let mut pos: u64 = 0;
        let mut used: u64 = 0;
        while idx < items.len() {
            let item = &items[idx];
            if let Some((first, rest)) = item.node.designation.split_first() {
                if let ast::Designator::Range(r) = &first.node {
                    let (elem, size, lo, hi) = self.designate_range(ty, r)?;
                    for i in lo..=hi {
                        self.init_designated(elem, base + i * size, None, rest, &item.node.initializer, plan)?;
                    }
                    idx += 1;
                    pos = hi + 1;
                    used = used.max(pos);
                    continue;
                }
                let (sub_ty, off, p, bits) = self.designate(ty, first)?;
                pos = p;
                if rest.is_empty() {
                    self.init_sub(sub_ty, base + off, bits, items, &mut idx, plan)?;
                } else {
                    self.init_designated(sub_ty, base + off, bits, rest, &item.node.initializer, plan)?;
                    idx += 1;
                }
            } else {
                let Some((sub_ty, off, bits)) = self.subobject(ty, pos) else {
                    // gcc: "excess elements in initializer" (a warning); the element is ignored.
                    idx += 1;
                    continue;
                };
                self.init_sub(sub_ty, base + off, bits, items, &mut idx, plan)?;
            }
            pos += 1;
            used = used.max(pos);
        }
        Ok(used)
    }

    fn init_designated(
        &mut self,
        ty: TypeId,
        base: u64,
        bits: Option<BitField>,
        designators: &'a [Node<ast::Designator>],
        init: &'a Node<Initializer>,
        plan: &mut InitPlan,
    ) -> LResult<()> {
        match designators.split_first() {
            None => self.init_one(ty, base, bits, init, plan),
            Some((d, rest)) => {
                let (sub, off, _, bits) = self.designate(ty, d)?;
                self.init_designated(sub, base + off, bits, rest, init, plan)
            }
        }
    }

    /// Initialize one sub-object from `items[*idx]`, eliding braces when the item is a scalar for
    /// an aggregate (C11 6.7.9p20).
    fn init_sub(
        &mut self,
        ty: TypeId,
        base: u64,
        bits: Option<BitField>,
        items: &'a [Node<ast::InitializerListItem>],
        idx: &mut usize,
        plan: &mut InitPlan,
    ) -> LResult<()> {
        let item = &items[*idx];
        let aggregate = matches!(self.ty(ty), Type::Array(..) | Type::Record(_));
        if let Initializer::Expression(e) = &item.node.initializer.node {
            if aggregate {
                if let Some((_, it)) = self.string_into_array(ty, e, base)? {
                    plan.items.push(it);
                    *idx += 1;
                    return Ok(());
                }
                if matches!(self.ty(ty), Type::Record(_)) {
                    // A record initialized by an expression of the same record type.
                    let t = self.type_of_expr(e)?;
                    if t == ty {
                        let v = self.expr(e)?;
                        plan.items.push(InitItem::Value { offset: base, ty, value: v, bits: None });
                        *idx += 1;
                        return Ok(());
                    }
                }
                // Brace elision: the following items initialize the members in order.
                let mut pos = 0;
                let is_union = matches!(self.ty(ty), Type::Record(r) if self.prog.types.record(*r).is_union);
                while *idx < items.len() && (pos == 0 || items[*idx].node.designation.is_empty()) {
                    let Some((sub, off, sbits)) = self.subobject(ty, pos) else { break };
                    self.init_sub(sub, base + off, sbits, items, idx, plan)?;
                    pos += 1;
                    if is_union {
                        break;
                    }
                }
                return Ok(());
            }
        }
        *idx += 1;
        self.init_one(ty, base, bits, &item.node.initializer, plan)
    }

    /// Initialize exactly one object from one initializer.
    fn init_one(&mut self, ty: TypeId, base: u64, bits: Option<BitField>, init: &'a Node<Initializer>, plan: &mut InitPlan) -> LResult<()> {
        match &init.node {
            Initializer::List(items) => {
                if matches!(self.ty(ty), Type::Array(..) | Type::Record(_)) {
                    self.init_list(ty, base, items, plan)?;
                    Ok(())
                } else {
                    match items.first() {
                        Some(first) => self.init_one(ty, base, bits, &first.node.initializer, plan),
                        None => Ok(()), // `{}`: zero (GNU / C23)
                    }
                }
            }
            Initializer::Expression(e) => {
                if let Some((_, it)) = self.string_into_array(ty, e, base)? {
                    plan.items.push(it);
                    return Ok(());
                }
                if matches!(self.ty(ty), Type::Array(..)) {
                    // Brace elision for one expression: initialize the first scalar leaf.
                    let Some((sub, off, sbits)) = self.subobject(ty, 0) else { return Ok(()) };
                    return self.init_one(sub, base + off, sbits, init, plan);
                }
                if let Type::Record(_) = self.ty(ty) {
                    let t = self.type_of_expr(e)?;
                    if t != ty {
                        let Some((sub, off, sbits)) = self.subobject(ty, 0) else { return Ok(()) };
                        return self.init_one(sub, base + off, sbits, init, plan);
                    }
                }
                let v = self.expr(e)?;
                let v = self.assign_convert(v, ty, e.span, "initializing")?;
                plan.items.push(InitItem::Value { offset: base, ty, value: v, bits });
                Ok(())
            }
        }
    }

    /// `char s[] = "abc"`: a string literal initializing a char array (C11 6.7.9p14).
    fn string_into_array(&mut self, ty: TypeId, e: &'a Node<E>, base: u64) -> LResult<Option<(TypeId, InitItem)>> {
        let Type::Array(elem, len) = self.ty(ty).clone() else { return Ok(None) };
        let Type::Int(eit) = self.ty(elem).clone() else { return Ok(None) };
        let E::StringLiteral(s) = &e.node else { return Ok(None) };
        let (sit, bytes) = self.string_literal(&s.node, s.span)?;
        if sit.bytes != eit.bytes {
            return Ok(None);
        }
        let n = bytes.len() as u64 / eit.bytes as u64;
        let (ty, copy) = match len {
            None => (self.prog.types.intern(Type::Array(elem, Some(n))), n),
            Some(m) => (ty, m.min(n)),
        };
        let id = self.intern_string(bytes);
        Ok(Some((ty, InitItem::Str { offset: base, id, len: copy * eit.bytes as u64, ty: elem })))
    }

    /// Statements that perform a planned initialization of the object at `addr`.
    pub fn init_stmts_for(&mut self, addr: Expr, ty: TypeId, plan: InitPlan, loc: Loc) -> Vec<Stmt> {
        let mut out = Vec::new();
        let aggregate = matches!(self.ty(ty), Type::Array(..) | Type::Record(_));
        if aggregate {
            if let Some(size) = self.prog.types.size_of(ty) {
                out.push(Stmt { kind: StmtKind::ZeroFill { addr: addr.clone(), size }, loc });
            }
        }
        for item in plan.items {
            match item {
                InitItem::Value { offset, ty, value, bits } => {
                    let a = self.offset_address(addr.clone(), offset, ty, loc);
                    let e = match bits {
                        Some(b) => {
                            let lv = super::expr::LVal { place: Place::Mem(Box::new(a)), ty, loc, bits: Some((ty, b)) };
                            match self.bitfield_assign_value(lv, value, loc) {
                                Ok(e) => e,
                                Err(_) => continue,
                            }
                        }
                        None => mk(ExprKind::Assign { place: Place::Mem(Box::new(a)), value: Box::new(value) }, ty, loc),
                    };
                    out.push(Stmt { kind: StmtKind::Expr(e), loc });
                }
                InitItem::Str { offset, id, len, ty: elem } => {
                    let esize = self.prog.types.size_of(elem).unwrap_or(1).max(1);
                    let aty = self.prog.types.intern(Type::Array(elem, Some(len / esize)));
                    let a = self.offset_address(addr.clone(), offset, aty, loc);
                    let p = self.t_ptr(aty);
                    let src = mk(ExprKind::Str(id), p, loc);
                    let e = mk(ExprKind::Assign { place: Place::Mem(Box::new(a)), value: Box::new(src) }, aty, loc);
                    out.push(Stmt { kind: StmtKind::Expr(e), loc });
                }
            }
        }
        out
    }

    /// Constant bytes and relocations of a planned static initialization.
    pub fn static_init(&mut self, ty: TypeId, plan: InitPlan, span: Span) -> LResult<StaticInit> {
        let size = self.size_or_error(ty, span, "definition")? as usize;
        let mut init = StaticInit { bytes: vec![0; size], relocs: Vec::new() };
        for item in plan.items {
            match item {
                InitItem::Str { offset, id, len, .. } => {
                    let src = &self.prog.strings[id.0 as usize];
                    let (o, l) = (offset as usize, len as usize);
                    if let (Some(dst), Some(s)) = (init.bytes.get_mut(o..o + l), src.get(..l)) {
                        dst.copy_from_slice(s);
                    }
                }
                InitItem::Value { offset, ty, value, bits } => {
                    let Some(cv) = self.const_value(&value) else {
                        let loc = value.loc;
                        let d = crate::diag::Diagnostic::error("init", "initializer element is not a compile-time constant", loc)
                            .with_note("objects with static storage duration need constant initializers (C11 6.7.9p4)");
                        return Err(self.report(d));
                    };
                    let width = self.prog.types.size_of(ty).unwrap_or(0) as usize;
                    let o = offset as usize;
                    match cv {
                        super::consteval::ConstVal::Int(v) if bits.is_some() => {
                            let b = bits.unwrap_or(BitField { shift: 0, width: 0 });
                            let mut unit = [0u8; 8];
                            if let Some(src) = init.bytes.get(o..o + width.min(8)) {
                                unit[..src.len()].copy_from_slice(src);
                            }
                            let mut u = u64::from_le_bytes(unit);
                            let mask = if b.width >= 64 { u64::MAX } else { (1u64 << b.width) - 1 };
                            u = (u & !(mask << b.shift)) | ((v & mask) << b.shift);
                            if let Some(dst) = init.bytes.get_mut(o..o + width.min(8)) {
                                dst.copy_from_slice(&u.to_le_bytes()[..width.min(8)]);
                            }
                        }
                        super::consteval::ConstVal::Int(v) => {
                            let bytes = v.to_le_bytes();
                            if let Some(dst) = init.bytes.get_mut(o..o + width.min(8)) {
                                dst.copy_from_slice(&bytes[..width.min(8)]);
                            }
                        }
                        super::consteval::ConstVal::Float(f) => {
                            let kind = match self.ty(ty) {
                                Type::Float(k) => *k,
                                _ => FloatKind::F64,
                            };
                            let bytes: Vec<u8> = match kind {
                                FloatKind::F32 => (f as f32).to_le_bytes().to_vec(),
                                _ => f.to_le_bytes().to_vec(),
                            };
                            if let Some(dst) = init.bytes.get_mut(o..o + bytes.len()) {
                                dst.copy_from_slice(&bytes);
                            }
                        }
                        super::consteval::ConstVal::Addr(target, addend) => {
                            init.relocs.push(Reloc { offset, target, addend });
                        }
                        super::consteval::ConstVal::Complex(re, im) => {
                            let k = match self.ty(ty) {
                                Type::Complex(k) => *k,
                                _ => FloatKind::F64,
                            };
                            let w = k.bytes() as usize;
                            let (a, b): (Vec<u8>, Vec<u8>) = if k == FloatKind::F32 {
                                ((re as f32).to_le_bytes().to_vec(), (im as f32).to_le_bytes().to_vec())
                            } else {
                                (re.to_le_bytes().to_vec(), im.to_le_bytes().to_vec())
                            };
                            if let Some(dst) = init.bytes.get_mut(o..o + a.len()) {
                                dst.copy_from_slice(&a);
                            }
                            if let Some(dst) = init.bytes.get_mut(o + w..o + w + b.len()) {
                                dst.copy_from_slice(&b);
                            }
                        }
                    }
                }
            }
        }
        Ok(init)
    }
}

fn rec_position_of_offset(cx: &Lowerer<'_>, r: RecordId, off: u64) -> u64 {
    let rec = cx.prog.types.record(r);
    rec.members.iter().rposition(|m| m.offset <= off).unwrap_or(0) as u64
}
