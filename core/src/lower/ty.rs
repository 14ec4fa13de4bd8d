//! Types from declaration specifiers and declarators; struct/union layout (x86-64 SysV, as gcc);
//! enums.

use lang_c::ast::{self, DeclarationSpecifier, DerivedDeclarator, SpecifierQualifier, TypeSpecifier};
use lang_c::span::{Node, Span};

use super::{Binding, LResult, Lowerer, Sym, Tag};
use crate::ir::*;

/// The result of applying a declarator to a base type.
pub(crate) struct Declared<'a> {
    pub name: Option<&'a str>,
    pub name_span: Span,
    pub ty: TypeId,
    /// For a function declarator: its parameter declarations (to bind names in a definition).
    pub params: Option<&'a [Node<ast::ParameterDeclaration>]>,
}


/// The largest object in bytes: half of the 64-bit address space, as gcc allows.
const MAX_OBJECT_SIZE: u64 = (1 << 63) - 1;

impl<'a> Lowerer<'a> {
    /// The type named by declaration specifiers (storage classes and qualifiers are ignored here).
    pub fn base_type(&mut self, specs: &'a [Node<DeclarationSpecifier>], span: Span) -> LResult<TypeId> {
        let ts: Vec<&'a Node<TypeSpecifier>> = specs
            .iter()
            .filter_map(|s| match &s.node {
                DeclarationSpecifier::TypeSpecifier(t) => Some(t),
                _ => None,
            })
            .collect();
        self.check_qualifiers(specs.iter().filter_map(|s| match &s.node {
            DeclarationSpecifier::TypeQualifier(q) => Some(q),
            _ => None,
        }))?;
        let ty = self.type_from_specifiers(&ts, span)?;
        self.record_attributes(specs, ty)?;
        Ok(ty)
    }

    pub fn base_type_sq(&mut self, specs: &'a [Node<SpecifierQualifier>], span: Span) -> LResult<TypeId> {
        let ts: Vec<&'a Node<TypeSpecifier>> = specs
            .iter()
            .filter_map(|s| match &s.node {
                SpecifierQualifier::TypeSpecifier(t) => Some(t),
                _ => None,
            })
            .collect();
        self.check_qualifiers(specs.iter().filter_map(|s| match &s.node {
            SpecifierQualifier::TypeQualifier(q) => Some(q),
            _ => None,
        }))?;
        let ty = self.type_from_specifiers(&ts, span)?;
        self.record_attributes_sq(specs, ty)?;
        Ok(ty)
    }

    fn check_qualifiers<'q>(&mut self, quals: impl Iterator<Item = &'q Node<ast::TypeQualifier>>) -> LResult<()> {
        for q in quals {
            if let ast::TypeQualifier::Atomic = q.node {
                return self.unsupported("`_Atomic` types", q.span);
            }
        }
        Ok(())
    }

    fn type_from_specifiers(&mut self, ts: &[&'a Node<TypeSpecifier>], span: Span) -> LResult<TypeId> {
        let (mut void, mut char_, mut short, mut int, mut long, mut float, mut double) = (0, 0, 0, 0, 0, 0, 0);
        let (mut signed, mut unsigned, mut bool_, mut complex) = (0, 0, 0, 0);
        let mut other: Option<TypeId> = None;
        for t in ts {
            match &t.node {
                TypeSpecifier::Void => void += 1,
                TypeSpecifier::Char => char_ += 1,
                TypeSpecifier::Short => short += 1,
                TypeSpecifier::Int => int += 1,
                TypeSpecifier::Long => long += 1,
                TypeSpecifier::Float => float += 1,
                TypeSpecifier::Double => double += 1,
                TypeSpecifier::Signed => signed += 1,
                TypeSpecifier::Unsigned => unsigned += 1,
                TypeSpecifier::Bool => bool_ += 1,
                TypeSpecifier::Complex => complex += 1,
                TypeSpecifier::Atomic(_) => return self.unsupported("`_Atomic` types", t.span),
                TypeSpecifier::Struct(st) => other = Some(self.record_type(st)?),
                TypeSpecifier::Enum(et) => other = Some(self.enum_type(et)?),
                TypeSpecifier::TypedefName(id) => match self.lookup(&id.node.name) {
                    Some(Binding { sym: Sym::Typedef(t), .. }) => other = Some(*t),
                    _ => return self.error("type", format!("unknown type name `{}`", id.node.name), id.span),
                },
                TypeSpecifier::TypeOf(tof) => {
                    other = Some(match &tof.node {
                        ast::TypeOf::Expression(e) => self.type_of_expr(e)?,
                        ast::TypeOf::Type(tn) => self.type_name(tn)?,
                    })
                }
                TypeSpecifier::TS18661Float(f) => {
                    // glibc's headers declare `_Float32x`/`_Float64x`/`_Float128` functions; accsim
                    // models the wide ones as `long double` (itself computed as a double).
                    let kind = match (&f.format, f.width) {
                        (ast::TS18661FloatFormat::BinaryInterchange, 16 | 32) => FloatKind::F32,
                        (ast::TS18661FloatFormat::BinaryInterchange, 64) | (ast::TS18661FloatFormat::BinaryExtended, 32) => {
                            FloatKind::F64
                        }
                        (ast::TS18661FloatFormat::BinaryInterchange, _) | (ast::TS18661FloatFormat::BinaryExtended, _) => {
                            FloatKind::LongDouble
                        }
                        _ => return self.unsupported("decimal floating types", t.span),
                    };
                    other = Some(self.prog.types.intern(Type::Float(kind)));
                }
            }
        }
        if let Some(t) = other {
            if void + char_ + short + int + long + float + double + signed + unsigned + bool_ + complex > 0 {
                return self.error("type", "conflicting type specifiers", span);
            }
            return Ok(t);
        }
        let ty = if void > 0 {
            Type::Void
        } else if bool_ > 0 {
            Type::Bool
        } else if float > 0 || double > 0 {
            let k = if float > 0 {
                FloatKind::F32
            } else if long > 0 {
                FloatKind::LongDouble
            } else {
                FloatKind::F64
            };
            if complex > 0 { Type::Complex(k) } else { Type::Float(k) }
        } else if complex > 0 {
            // `_Complex` alone means `double _Complex` (a GNU extension).
            Type::Complex(FloatKind::F64)
        } else {
            let is_signed = unsigned == 0;
            let bytes = if char_ > 0 {
                1
            } else if short > 0 {
                2
            } else if long > 0 {
                8
            } else {
                4
            };
            if bytes == 1 && signed == 0 && unsigned == 0 {
                // Plain char is signed on x86-64.
                Type::Int(IntType::CHAR)
            } else {
                Type::Int(IntType { bytes, signed: is_signed })
            }
        };
        if ts.is_empty() {
            // Implicit int (C89), as gcc accepts with a warning.
            return Ok(self.t_int());
        }
        Ok(self.prog.types.intern(ty))
    }

    /// Apply a declarator to `base`: pointers first, then arrays/functions inside out (C11 6.7.6).
    pub fn declarator(&mut self, base: TypeId, d: &'a Node<ast::Declarator>) -> LResult<Declared<'a>> {
        for ext in &d.node.extensions {
            self.refuse_unmodelled(ext)?;
        }
        let derived = &d.node.derived;
        let split = derived.iter().position(|x| !matches!(x.node, DerivedDeclarator::Pointer(_))).unwrap_or(derived.len());
        // GNU `mode` retypes the declared integer itself (attrs.rs).
        let base = if derived.is_empty() { self.apply_mode(base, &d.node.extensions)? } else { base };
        let mut ty = base;
        for _ in &derived[..split] {
            ty = self.t_ptr(ty);
        }
        let mut params = None;
        for dd in derived[split..].iter().rev() {
            match &dd.node {
                DerivedDeclarator::Pointer(_) => ty = self.t_ptr(ty),
                DerivedDeclarator::Array(arr) => ty = self.array_of(ty, &arr.node, dd.span)?,
                DerivedDeclarator::Function(fd) => {
                    ty = self.function_type(ty, &fd.node, dd.span)?;
                    params = Some(&fd.node.parameters[..]);
                }
                DerivedDeclarator::KRFunction(ids) => {
                    if !ids.is_empty() {
                        return self.unsupported("K&R-style function declarations with parameter names", dd.span);
                    }
                    let ret = ty;
                    ty = self.prog.types.intern(Type::Function(FuncSig { ret, params: vec![], variadic: false, unprototyped: true }));
                    params = Some(&[]);
                }
                DerivedDeclarator::Block(_) => return self.unsupported("block pointers", dd.span),
            }
        }
        match &d.node.kind.node {
            ast::DeclaratorKind::Abstract => Ok(Declared { name: None, name_span: d.span, ty, params }),
            ast::DeclaratorKind::Identifier(id) => Ok(Declared { name: Some(&id.node.name), name_span: id.span, ty, params }),
            ast::DeclaratorKind::Declarator(inner) => {
                let mut r = self.declarator(ty, inner)?;
                // A function declarator wrapped in parentheses keeps its parameters.
                if r.params.is_none() {
                    r.params = params;
                }
                Ok(r)
            }
        }
    }

    fn array_of(&mut self, elem: TypeId, arr: &'a ast::ArrayDeclarator, span: Span) -> LResult<TypeId> {
        if matches!(self.ty(elem), Type::Function(_)) {
            return self.error("type", "declaration of an array of functions", span);
        }
        let size_expr = match &arr.size {
            ast::ArraySize::Unknown => return Ok(self.prog.types.intern(Type::Array(elem, None))),
            ast::ArraySize::VariableUnknown => return Ok(self.prog.types.intern(Type::Array(elem, None))),
            ast::ArraySize::VariableExpression(e) | ast::ArraySize::StaticExpression(e) => e,
        };
        let mark = self.diags.len();
        let e = match self.expr(size_expr) {
            Ok(e) => e,
            Err(_) if self.in_prototype && self.fcx.is_none() => {
                // `void f(int n, double a[n])` in a prototype: the size names a parameter.
                self.diags.truncate(mark);
                return Ok(self.prog.types.intern(Type::Array(elem, None)));
            }
            Err(r) => return Err(r),
        };
        if !self.prog.types.is_integer(e.ty) {
            return self.error("type", "size of array has non-integer type", size_expr.span);
        }
        if let Some(n) = self.const_int(&e) {
            let signed = matches!(self.ty(e.ty), Type::Int(IntType { signed: true, .. }));
            if signed && (n as i64) < 0 {
                return self.error("type", "size of array is negative", size_expr.span);
            }
            if let Some(elem_size) = self.prog.types.size_of(elem) {
                // gcc: "size of array is too large" past half the address space; the sizes of
                // records and arrays built from it stay within u64 (issue 14, fuzzer).
                if elem_size.checked_mul(n).is_none_or(|bytes| bytes > MAX_OBJECT_SIZE) {
                    return self.error("type", "size of array is too large", size_expr.span);
                }
                return Ok(self.prog.types.intern(Type::Array(elem, Some(n))));
            }
        }
        // A variable-length array: evaluate the size once, into a hidden local.
        if self.fcx.is_none() && self.in_prototype {
            return Ok(self.prog.types.intern(Type::Array(elem, None)));
        }
        if self.fcx.is_none() {
            return self.error("type", "variable length array declared outside of any function", size_expr.span);
        }
        let loc = self.loc(size_expr.span);
        let ulong = self.t_ulong();
        let count = self.new_temporary("<vla size>", ulong, crate::ir::Storage::Register, loc);
        let value = self.convert(e, ulong);
        self.pending_vla_sizes.push(Stmt {
            kind: StmtKind::Expr(Expr {
                kind: ExprKind::Assign { place: Place::Local(count), value: Box::new(value) },
                ty: ulong,
                loc,
            }),
            loc,
        });
        Ok(self.prog.types.intern(Type::Vla(elem, count)))
    }

    fn function_type(&mut self, ret: TypeId, fd: &'a ast::FunctionDeclarator, span: Span) -> LResult<TypeId> {
        if matches!(self.ty(ret), Type::Array(..) | Type::Function(_)) {
            return self.error("type", "a function cannot return an array or a function", span);
        }
        let mut params = Vec::new();
        let variadic = matches!(fd.ellipsis, ast::Ellipsis::Some);
        for (i, p) in fd.parameters.iter().enumerate() {
            let base = self.base_type(&p.node.specifiers, p.span)?;
            let ty = match &p.node.declarator {
                Some(d) => self.declarator(base, d)?.ty,
                None => base,
            };
            if i == 0 && fd.parameters.len() == 1 && matches!(self.ty(ty), Type::Void) && p.node.declarator.is_none() {
                // `f(void)`
                break;
            }
            params.push(self.adjust_param(ty));
        }
        let unprototyped = fd.parameters.is_empty() && !variadic;
        Ok(self.prog.types.intern(Type::Function(FuncSig { ret, params, variadic, unprototyped })))
    }

    /// Parameter type adjustment (C11 6.7.6.3p7-8): arrays to pointers, functions to pointers.
    pub fn adjust_param(&mut self, ty: TypeId) -> TypeId {
        match self.ty(ty).clone() {
            Type::Array(e, _) | Type::Vla(e, _) => self.t_ptr(e),
            Type::Function(_) => self.t_ptr(ty),
            _ => ty,
        }
    }

    pub fn type_name(&mut self, tn: &'a Node<ast::TypeName>) -> LResult<TypeId> {
        let base = self.base_type_sq(&tn.node.specifiers, tn.span)?;
        match &tn.node.declarator {
            Some(d) => Ok(self.declarator(base, d)?.ty),
            None => Ok(base),
        }
    }

    fn record_type(&mut self, st: &'a Node<ast::StructType>) -> LResult<TypeId> {
        let is_union = matches!(st.node.kind.node, ast::StructKind::Union);
        let name = st.node.identifier.as_ref().map(|i| i.node.name.clone());
        let existing = match &name {
            Some(n) => {
                if st.node.declarations.is_some() {
                    // A definition declares the tag in the current scope.
                    self.tags.last().and_then(|t| t.get(n).copied())
                } else {
                    self.lookup_tag(n)
                }
            }
            None => None,
        };
        let rid = match existing {
            Some(Tag::Record(r)) => {
                if self.prog.types.record(r).is_union != is_union {
                    return self.error("type", format!("`{}` defined as the wrong kind of tag", name.unwrap_or_default()), st.span);
                }
                r
            }
            Some(Tag::Enum(_)) => {
                return self.error("type", format!("`{}` defined as the wrong kind of tag", name.unwrap_or_default()), st.span)
            }
            None => {
                let r = RecordId(self.prog.types.records.len() as u32);
                self.prog.types.records.push(Record { name: name.clone(), is_union, members: vec![], size: 0, align: 1, complete: false });
                if let Some(n) = &name {
                    if let Some(t) = self.tags.last_mut() {
                        t.insert(n.clone(), Tag::Record(r));
                    }
                }
                r
            }
        };
        let ty = self.prog.types.intern(Type::Record(rid));
        let Some(decls) = &st.node.declarations else { return Ok(ty) };
        if self.prog.types.record(rid).complete {
            return self.error("type", format!("redefinition of `{}`", self.prog.types.display(ty)), st.span);
        }
        let mut members = Vec::new();
        // Struct layout in bits, so bit-fields pack as gcc packs them (x86-64 SysV).
        let (mut bitpos, mut size, mut align) = (0u64, 0u64, 1u64);
        for d in decls {
            let field = match &d.node {
                ast::StructDeclaration::Field(f) => f,
                ast::StructDeclaration::StaticAssert(sa) => {
                    self.static_assert(sa)?;
                    continue;
                }
            };
            let base = self.base_type_sq(&field.node.specifiers, field.span)?;
            // GNU `aligned` on the member (attrs.rs); `packed` is refused there.
            let field_layout = self.specifier_layout(&field.node.specifiers)?;
            let decls: Vec<(Option<&'a Node<ast::Declarator>>, Option<&'a Node<ast::Expression>>)> =
                if field.node.declarators.is_empty() {
                    vec![(None, None)]
                } else {
                    field.node.declarators.iter().map(|sd| (sd.node.declarator.as_ref(), sd.node.bit_width.as_deref())).collect()
                };
            for (d, width) in decls {
                let mut member_aligned = field_layout.aligned;
                let (mname, mty) = match d {
                    Some(d) => {
                        let r = self.declarator(base, d)?;
                        if let Some(a) = self.layout_attributes(&d.node.extensions)?.aligned {
                            member_aligned = Some(member_aligned.unwrap_or(1).max(a));
                        }
                        (r.name.map(str::to_string), r.ty)
                    }
                    None if width.is_some() => (None, base),
                    None => {
                        // Anonymous struct/union member (C11 6.7.2.1p13).
                        if !matches!(self.ty(base), Type::Record(_)) {
                            continue;
                        }
                        (None, base)
                    }
                };
                if let Some(wexpr) = width {
                    let Type::Int(it) = self.ty(mty).clone() else {
                        if matches!(self.ty(mty), Type::Bool) {
                            return self.unsupported("`_Bool` bit-fields", wexpr.span);
                        }
                        return self.error("type", "bit-field has non-integer type", wexpr.span);
                    };
                    let w = self.expr(wexpr)?;
                    let Some(w) = self.const_int(&w) else { return self.error("type", "bit-field width is not a constant", wexpr.span) };
                    let unit_bits = it.bits() as u64;
                    if w > unit_bits {
                        return self.error("type", format!("width of bit-field ({w} bits) exceeds the width of its type ({unit_bits} bits)"), wexpr.span);
                    }
                    if w == 0 {
                        if mname.is_some() {
                            return self.error("type", "named bit-field has zero width", wexpr.span);
                        }
                        bitpos = bitpos.div_ceil(unit_bits) * unit_bits;
                        continue;
                    }
                    let start = if is_union { 0 } else { bitpos };
                    let start = if start / unit_bits != (start + w - 1) / unit_bits { start.div_ceil(unit_bits) * unit_bits } else { start };
                    let unit_off = start / unit_bits * (unit_bits / 8);
                    let shift = (start - unit_off * 8) as u8;
                    if mname.is_some() {
                        align = align.max(it.bytes as u64);
                    }
                    members.push(Member { name: mname, ty: mty, offset: unit_off, bits: Some(BitField { shift, width: w as u8 }) });
                    if is_union {
                        size = size.max(w.div_ceil(8));
                    } else {
                        bitpos = start + w;
                        size = size.max(bitpos.div_ceil(8));
                    }
                    continue;
                }
                let is_flex = matches!(self.ty(mty), Type::Array(_, None));
                let msize = match self.prog.types.size_of(mty) {
                    Some(s) => s,
                    None if is_flex => 0,
                    None => {
                        return self.error(
                            "type",
                            format!("field `{}` has incomplete type", mname.clone().unwrap_or_default()),
                            field.span,
                        )
                    }
                };
                let malign = self.prog.types.align_of(mty).max(member_aligned.unwrap_or(1));
                align = align.max(malign);
                let offset = if is_union { 0 } else { bitpos.div_ceil(8).div_ceil(malign) * malign };
                // A member array of 2^61 bytes or more makes the record larger than any object
                // (gcc: "type is too large"); found by the fuzzer (issue 14).
                let Some(end) = offset.checked_add(msize).filter(|e| e.checked_mul(8).is_some()) else {
                    return self.error("type", format!("the type of field `{}` makes the record too large", mname.clone().unwrap_or_default()), field.span);
                };
                members.push(Member { name: mname, ty: mty, offset, bits: None });
                if is_union {
                    size = size.max(msize);
                } else {
                    bitpos = end * 8;
                    size = end;
                }
            }
        }
        size = size.div_ceil(align) * align;
        let rec = &mut self.prog.types.records[rid.0 as usize];
        rec.members = members;
        rec.size = size;
        rec.align = align;
        rec.complete = true;
        Ok(ty)
    }

    fn enum_type(&mut self, et: &'a Node<ast::EnumType>) -> LResult<TypeId> {
        if et.node.enumerators.is_empty() {
            if let Some(id) = &et.node.identifier {
                if let Some(Tag::Enum(t)) = self.lookup_tag(&id.node.name) {
                    return Ok(t);
                }
            }
            // A forward-declared enum: gcc gives it unsigned int.
            return Ok(self.prog.types.intern(Type::Int(IntType::UINT)));
        }
        let mut next: i64 = 0;
        let mut values = Vec::new();
        let int = self.t_int();
        for e in &et.node.enumerators {
            let v = match &e.node.expression {
                Some(x) => {
                    let ex = self.expr(x)?;
                    match self.const_int(&ex) {
                        Some(v) => v as i64,
                        None => return self.error("type", "enumerator value is not an integer constant", x.span),
                    }
                }
                None => next,
            };
            next = v.wrapping_add(1);
            values.push(v);
            self.bind(&e.node.identifier.node.name, Binding { sym: Sym::EnumConst(v, int), ty: int });
        }
        // gcc: unsigned int when no value is negative, else int; 64-bit when needed.
        let min = values.iter().copied().min().unwrap_or(0);
        let max = values.iter().copied().max().unwrap_or(0);
        let it = if min >= 0 {
            if max <= u32::MAX as i64 { IntType::UINT } else { IntType::ULONG }
        } else if min >= i32::MIN as i64 && max <= i32::MAX as i64 {
            IntType::INT
        } else {
            IntType::LONG
        };
        let ty = self.prog.types.intern(Type::Int(it));
        if let Some(id) = &et.node.identifier {
            if let Some(t) = self.tags.last_mut() {
                t.insert(id.node.name.clone(), Tag::Enum(ty));
            }
        }
        Ok(ty)
    }

    /// Find a member by name, looking through anonymous members. Returns (offset, type).
    pub fn find_member(&self, rid: RecordId, name: &str) -> Option<(u64, TypeId)> {
        self.find_member_bits(rid, name).map(|(o, t, _)| (o, t))
    }

    /// Like [`Self::find_member`], with the bit-field placement of the member.
    pub fn find_member_bits(&self, rid: RecordId, name: &str) -> Option<(u64, TypeId, Option<BitField>)> {
        let rec = self.prog.types.record(rid);
        for m in &rec.members {
            match &m.name {
                Some(n) if n == name => return Some((m.offset, m.ty, m.bits)),
                None if m.bits.is_none() => {
                    if let Type::Record(inner) = self.prog.types.get(m.ty) {
                        if let Some((off, t, b)) = self.find_member_bits(*inner, name) {
                            return Some((m.offset + off, t, b));
                        }
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// Size of a type known at compile time, or an error at `span`.
    pub fn size_or_error(&mut self, ty: TypeId, span: Span, what: &str) -> LResult<u64> {
        match self.prog.types.size_of(ty) {
            Some(s) => Ok(s),
            None => {
                let t = self.prog.types.display(ty);
                self.error("type", format!("{what} of incomplete type `{t}`"), span)
            }
        }
    }

    /// Does this type contain a VLA (so its size is only known at run time)?
    pub fn is_variably_modified(&self, ty: TypeId) -> bool {
        match self.ty(ty) {
            Type::Vla(..) => true,
            Type::Array(e, _) => self.is_variably_modified(*e),
            _ => false,
        }
    }
}
