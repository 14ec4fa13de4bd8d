//! Declarations: file-scope objects and functions (with linkage), function definitions, block-scope
//! declarations, typedefs, static assertions.

use std::collections::{HashMap, HashSet};

use lang_c::ast::{self, DeclarationSpecifier, StorageClassSpecifier as SC};
use lang_c::span::{Node, Span};
use lang_c::visit::Visit;

use super::expr::mk;
use super::{Binding, FnCx, LResult, Lowerer, Sym};
use crate::diag::Diagnostic;
use crate::frontend::pragma;
use crate::ir::*;

pub fn declarator_name(d: &ast::Declarator) -> Option<&str> {
    match &d.kind.node {
        ast::DeclaratorKind::Identifier(i) => Some(&i.node.name),
        ast::DeclaratorKind::Declarator(inner) => declarator_name(&inner.node),
        ast::DeclaratorKind::Abstract => None,
    }
}

/// The outermost extent of an array declarator when it is written as a name (`n` of
/// `float C[n][p]`), for messages about a variable-length array parameter.
fn outer_extent_name(d: &ast::Declarator) -> Option<String> {
    let Some(ast::DerivedDeclarator::Array(arr)) = d.derived.first().map(|x| &x.node) else { return None };
    match &arr.node.size {
        ast::ArraySize::VariableExpression(e) | ast::ArraySize::StaticExpression(e) => match &e.node {
            ast::Expression::Identifier(i) => Some(i.node.name.clone()),
            _ => None,
        },
        _ => None,
    }
}

pub(crate) fn has_storage(specs: &[Node<DeclarationSpecifier>], sc: SC) -> bool {
    specs.iter().any(|s| matches!(&s.node, DeclarationSpecifier::StorageClass(c) if c.node == sc))
}

/// Does this declarator declare a function (rather than a pointer to one, or an object)?
pub(crate) fn is_function_declarator(d: &ast::Declarator) -> bool {
    fn outermost(d: &ast::Declarator) -> Option<bool> {
        if let ast::DeclaratorKind::Declarator(inner) = &d.kind.node {
            if let Some(k) = outermost(&inner.node) {
                return Some(k);
            }
        }
        let split = d.derived.iter().position(|x| !matches!(x.node, ast::DerivedDeclarator::Pointer(_)));
        match split {
            Some(i) => Some(matches!(d.derived[i].node, ast::DerivedDeclarator::Function(_) | ast::DerivedDeclarator::KRFunction(_))),
            None if !d.derived.is_empty() => Some(false),
            None => None,
        }
    }
    outermost(d).unwrap_or(false)
}

/// Names whose address is taken (`&x`, also through `.member` and `[i]`) in a function body, and
/// names that OpenACC clauses map (they need an address on the host to be copied).
struct AddrTaken<'u>(HashSet<String>, &'u crate::frontend::ParsedUnit);

impl AddrTaken<'_> {
    fn directive(&mut self, id: u32) {
        let Some(Ok(d)) = self.1.parsed.get(id as usize) else { return };
        let mut roots = Vec::new();
        if let crate::directive::DirectiveKind::Cache(vs) = &d.kind {
            roots.extend(vs.iter().map(|v| v.base.text.clone()));
        }
        for c in &d.clauses {
            use crate::directive::ClauseKind as K;
            if let K::Reduction { vars, .. } | K::Data(_, vars) | K::Private(vars) | K::FirstPrivate(vars) | K::UseDevice(vars) | K::Host(_, vars) | K::Device(vars) = &c.kind {
                roots.extend(vars.iter().map(|v| v.base.text.clone()));
            }
        }
        for r in roots {
            let name: String = r.trim_start_matches(['(', '*', ' ']).chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if !name.is_empty() {
                self.0.insert(name);
            }
        }
    }
}

/// Every identifier in a statement.
struct Idents(HashSet<String>);

impl<'ast> Visit<'ast> for Idents {
    fn visit_identifier(&mut self, i: &'ast ast::Identifier, _: &'ast Span) {
        self.0.insert(i.name.clone());
    }
}

impl<'ast> Visit<'ast> for AddrTaken<'_> {
    fn visit_labeled_statement(&mut self, l: &'ast ast::LabeledStatement, span: &'ast Span) {
        // Scalars of a kernels construct are `copy` (§2.5.2): they need a host address.
        if let ast::Label::Identifier(i) = &l.label.node {
            if let Some(id) = pragma::label_marker_id(&i.node.name) {
                let kernels = matches!(
                    self.1.parsed.get(id as usize),
                    Some(Ok(d)) if matches!(d.kind, crate::directive::DirectiveKind::Kernels | crate::directive::DirectiveKind::KernelsLoop)
                );
                if kernels {
                    let mut ids = Idents(HashSet::new());
                    ids.visit_statement(&l.statement.node, &l.statement.span);
                    self.0.extend(ids.0);
                }
            }
        }
        lang_c::visit::visit_labeled_statement(self, l, span)
    }

    fn visit_label(&mut self, l: &'ast ast::Label, span: &'ast Span) {
        if let ast::Label::Identifier(i) = l {
            if let Some(id) = pragma::label_marker_id(&i.node.name) {
                self.directive(id);
            }
        }
        lang_c::visit::visit_label(self, l, span)
    }

    fn visit_static_assert(&mut self, sa: &'ast ast::StaticAssert, span: &'ast Span) {
        if let Some(id) = pragma::assert_marker_id(&sa.message.node.join("")) {
            self.directive(id);
        }
        lang_c::visit::visit_static_assert(self, sa, span)
    }

    fn visit_unary_operator_expression(&mut self, u: &'ast ast::UnaryOperatorExpression, span: &'ast Span) {
        if let ast::UnaryOperator::Address = u.operator.node {
            let mut e = &u.operand.node;
            loop {
                match e {
                    ast::Expression::Identifier(i) => {
                        self.0.insert(i.node.name.clone());
                        break;
                    }
                    ast::Expression::Member(m) if matches!(m.node.operator.node, ast::MemberOperator::Direct) => {
                        e = &m.node.expression.node
                    }
                    ast::Expression::BinaryOperator(b) if matches!(b.node.operator.node, ast::BinaryOperator::Index) => {
                        e = &b.node.lhs.node
                    }
                    _ => break,
                }
            }
        }
        lang_c::visit::visit_unary_operator_expression(self, u, span)
    }
}

impl<'a> Lowerer<'a> {
    pub fn static_assert(&mut self, sa: &'a Node<ast::StaticAssert>) -> LResult<Option<DirectiveId>> {
        let msg = sa.node.message.node.join("");
        if let Some(id) = pragma::assert_marker_id(&msg) {
            return self.acc_directive(id).map(Some);
        }
        let e = self.expr(&sa.node.expression)?;
        match self.const_int(&e) {
            Some(0) => {
                let text = self.string_bytes(&sa.node.message.node, sa.span)?;
                let text = String::from_utf8_lossy(&text[..text.len().saturating_sub(1)]).into_owned();
                self.error("static-assert", format!("static assertion failed: \"{text}\""), sa.span)
            }
            Some(_) => Ok(None),
            None => self.error("static-assert", "static assertion expression is not an integral constant expression", sa.node.expression.span),
        }
    }

    /// The directive with marker id `id` of the current unit: lower it (reporting errors at the
    /// clause) and return its program-wide id.
    pub fn acc_directive(&mut self, id: u32) -> LResult<DirectiveId> {
        let d = self.lower_acc(id)?;
        let gid = DirectiveId(self.directive_base + id);
        if let Some(slot) = self.prog.acc.get_mut(gid.0 as usize) {
            *slot = Some(d);
        }
        Ok(gid)
    }

    /// The symbol for a function name: the definition if there is one, else an extern.
    pub fn function_symbol(&mut self, name: &str, fty: TypeId, is_static: bool, loc: crate::diag::Loc) -> Sym {
        let ui = self.unit_index;
        if let Some(&f) = self.defined_funcs.get(&(Some(ui), name.to_string())) {
            return Sym::Func(f);
        }
        if !is_static {
            if let Some(&f) = self.defined_funcs.get(&(None, name.to_string())) {
                return Sym::Func(f);
            }
        }
        if let Some(b) = self.external.get(name) {
            if let Sym::Extern(e) = b.sym {
                return Sym::Extern(e);
            }
        }
        let id = ExternId(self.prog.externs.len() as u32);
        self.prog.externs.push(Extern { name: name.to_string(), ty: fty, loc });
        self.external.insert(name.to_string(), Binding { sym: Sym::Extern(id), ty: fty });
        Sym::Extern(id)
    }

    pub fn file_scope_declaration(&mut self, d: &'a Node<ast::Declaration>) -> LResult<()> {
        self.declaration(d, true).map(|_| ())
    }

    /// A declaration at file or block scope. Block-scope initializations are returned as statements.
    pub fn declaration(&mut self, d: &'a Node<ast::Declaration>, file_scope: bool) -> LResult<Vec<Stmt>> {
        let specs = &d.node.specifiers;
        let base = self.base_type(specs, d.span)?;
        let is_typedef = has_storage(specs, SC::Typedef);
        let is_static = has_storage(specs, SC::Static);
        let is_extern = has_storage(specs, SC::Extern);
        if has_storage(specs, SC::ThreadLocal) {
            return self.unsupported("`_Thread_local` variables", d.span);
        }
        let mut out = std::mem::take(&mut self.pending_vla_sizes);
        for idecl in &d.node.declarators {
            let decl = self.declarator(base, &idecl.node.declarator)?;
            let Some(name) = decl.name else { continue };
            let loc = self.loc(decl.name_span);
            let ty = decl.ty;
            if is_typedef {
                self.bind(name, Binding { sym: Sym::Typedef(ty), ty });
                out.append(&mut self.pending_vla_sizes);
                continue;
            }
            if matches!(self.ty(ty), Type::Function(_)) {
                let sym = self.function_symbol(name, ty, is_static, loc);
                if let Sym::Func(f) = sym {
                    self.prog.prototypes.push((f, loc));
                }
                if !is_static && !matches!(sym, Sym::Extern(_)) {
                    self.external.entry(name.to_string()).or_insert(Binding { sym: sym.clone(), ty });
                }
                self.bind(name, Binding { sym, ty });
                continue;
            }
            if is_extern && !file_scope {
                if let Some(f) = self.fcx.as_mut() {
                    f.block_externs.insert(name.to_string());
                }
            }
            if file_scope || is_static || is_extern {
                self.global_object(name, ty, is_static, is_extern, file_scope, idecl, loc)?;
                continue;
            }
            // An automatic object.
            out.append(&mut self.pending_vla_sizes);
            let addr_taken = self.fcx.as_ref().is_some_and(|f| f.addr_taken.contains(name));
            let storage = match self.ty(ty) {
                Type::Vla(..) => Storage::VlaAddress,
                Type::Array(..) | Type::Record(_) | Type::Complex(_) => Storage::Memory,
                _ if addr_taken => Storage::Memory,
                _ => Storage::Register,
            };
            if matches!(self.ty(ty), Type::Void) {
                return self.error("type", format!("variable `{name}` has incomplete type `void`"), decl.name_span);
            }
            let local = self.new_local(name, ty, storage, loc);
            self.bind(name, Binding { sym: Sym::Local(local), ty });
            if storage == Storage::VlaAddress {
                out.push(Stmt { kind: StmtKind::VlaAlloc(local), loc });
            }
            let Some(init) = &idecl.node.initializer else {
                if self.prog.types.size_of(ty).is_none() && storage != Storage::VlaAddress {
                    let t = self.prog.types.display(ty);
                    return self.error("type", format!("variable `{name}` has incomplete type `{t}`"), decl.name_span);
                }
                continue;
            };
            let (ty2, plan) = self.plan_init(ty, init)?;
            if ty2 != ty {
                if let Some(f) = self.fcx.as_mut() {
                    f.locals[local.0 as usize].ty = ty2;
                }
                self.bind(name, Binding { sym: Sym::Local(local), ty: ty2 });
            }
            out.append(&mut self.pending_vla_sizes);
            match storage {
                Storage::Register => {
                    for item in plan.items {
                        if let super::init::InitItem::Value { value, .. } = item {
                            let e = mk(ExprKind::Assign { place: Place::Local(local), value: Box::new(value) }, ty2, loc);
                            out.push(Stmt { kind: StmtKind::Expr(e), loc });
                        }
                    }
                }
                _ => {
                    let p = self.t_ptr(ty2);
                    let addr = mk(ExprKind::LocalAddr(local), p, loc);
                    let stmts = self.init_stmts_for(addr, ty2, plan, loc);
                    out.extend(stmts);
                }
            }
        }
        Ok(out)
    }

    fn global_object(
        &mut self,
        name: &'a str,
        ty: TypeId,
        is_static: bool,
        is_extern: bool,
        file_scope: bool,
        idecl: &'a Node<ast::InitDeclarator>,
        loc: crate::diag::Loc,
    ) -> LResult<()> {
        // `extern` of something defined nowhere: bound to the C library shim (stdout, errno…).
        if is_extern && idecl.node.initializer.is_none() && !self.defined_objects.contains(name) {
            let existing = self.lookup(name).cloned().or_else(|| self.external.get(name).cloned());
            if let Some(b) = existing {
                if matches!(b.sym, Sym::Global(_) | Sym::Extern(_)) {
                    self.bind(name, b);
                    return Ok(());
                }
            }
            let id = ExternId(self.prog.externs.len() as u32);
            self.prog.externs.push(Extern { name: name.to_string(), ty, loc });
            let b = Binding { sym: Sym::Extern(id), ty };
            self.external.insert(name.to_string(), b.clone());
            self.bind(name, b);
            return Ok(());
        }
        let internal = is_static && file_scope;
        let block_static = is_static && !file_scope;
        // Find an existing entity: same-unit file-scope (for statics and re-declarations) or external.
        let existing = if block_static {
            None
        } else if internal || is_extern && !file_scope {
            self.scopes.first().and_then(|s| s.get(name)).cloned().or_else(|| if internal { None } else { self.external.get(name).cloned() })
        } else {
            self.scopes.first().and_then(|s| s.get(name)).cloned().or_else(|| self.external.get(name).cloned())
        };
        let gid = match existing {
            Some(Binding { sym: Sym::Global(g), .. }) => g,
            _ => {
                let gname = if block_static {
                    self.static_local_count += 1;
                    let f = self.fcx.as_ref().map(|f| f.name.clone()).unwrap_or_default();
                    format!("{f}.{name}")
                } else {
                    name.to_string()
                };
                let g = GlobalId(self.prog.globals.len() as u32);
                let origin = if block_static { GlobalOrigin::FunctionStatic } else { GlobalOrigin::FileScope };
                self.prog.globals.push(Global { name: gname, ty, init: None, read_only: false, loc, origin });
                if !internal && !block_static {
                    self.external.insert(name.to_string(), Binding { sym: Sym::Global(g), ty });
                }
                g
            }
        };
        // Complete an incomplete array type from a later declaration.
        if self.prog.types.size_of(self.prog.globals[gid.0 as usize].ty).is_none() {
            self.prog.globals[gid.0 as usize].ty = ty;
        }
        if let Some(init) = &idecl.node.initializer {
            if self.prog.globals[gid.0 as usize].init.is_some() {
                return self.error("redefinition", format!("redefinition of `{name}`"), idecl.span);
            }
            let gty = self.prog.globals[gid.0 as usize].ty;
            let (ty2, plan) = self.plan_init(gty, init)?;
            let si = self.static_init(ty2, plan, init.span)?;
            let g = &mut self.prog.globals[gid.0 as usize];
            g.ty = ty2;
            g.init = Some(si);
            g.loc = loc;
        }
        let gty = self.prog.globals[gid.0 as usize].ty;
        if !is_extern && self.prog.types.size_of(gty).is_none() {
            // A tentative definition of an incomplete array becomes one element (C11 6.9.2p2, gcc warns).
            if let Type::Array(elem, None) = self.ty(gty).clone() {
                let t = self.prog.types.intern(Type::Array(elem, Some(1)));
                self.prog.globals[gid.0 as usize].ty = t;
            } else if file_scope {
                let t = self.prog.types.display(gty);
                return self.error("type", format!("storage size of `{name}` isn't known (type `{t}`)"), idecl.span);
            }
        }
        let gty = self.prog.globals[gid.0 as usize].ty;
        self.bind(name, Binding { sym: Sym::Global(gid), ty: gty });
        Ok(())
    }

    pub fn function_definition(&mut self, f: &'a Node<ast::FunctionDefinition>) -> LResult<()> {
        let fd = &f.node;
        if !fd.declarations.is_empty() {
            return self.unsupported("K&R-style function definitions", f.span);
        }
        let base = self.base_type(&fd.specifiers, f.span)?;
        self.in_prototype = true;
        let decl = self.declarator(base, &fd.declarator);
        self.in_prototype = false;
        let decl = decl?;
        let Some(name) = decl.name else { return self.error("syntax", "function definition without a name", f.span) };
        let loc = self.loc(decl.name_span);
        let fty = decl.ty;
        let Type::Function(sig) = self.ty(fty).clone() else {
            return self.error("syntax", format!("`{name}` is defined like a function but is not one"), f.span);
        };
        let is_static = has_storage(&fd.specifiers, SC::Static);
        let sym = self.function_symbol(name, fty, is_static, loc);
        let Sym::Func(fid) = sym else {
            return Err(self.report(Diagnostic::internal(format!("function `{name}` was not collected"), Some(loc))));
        };
        if self.function_slots[fid.0 as usize].is_some() {
            return self.error("redefinition", format!("redefinition of `{name}`"), decl.name_span);
        }
        if !is_static {
            self.external.insert(name.to_string(), Binding { sym: Sym::Func(fid), ty: fty });
        }
        if let Some(s) = self.scopes.first_mut() {
            s.insert(name.to_string(), Binding { sym: Sym::Func(fid), ty: fty });
        }
        // Per-function state.
        let units = self.units;
        let mut finder = AddrTaken(HashSet::new(), &units[self.unit_index]);
        finder.visit_statement(&fd.statement.node, &fd.statement.span);
        self.fcx = Some(FnCx {
            locals: Vec::new(),
            labels: Default::default(),
            defined_labels: Default::default(),
            goto_uses: Vec::new(),
            next_label: 0,
            addr_taken: finder.0,
            switches: Vec::new(),
            loop_depth: 0,
            ret: sig.ret,
            name: name.to_string(),
            is_variadic: sig.variadic,
            param_arrays: HashMap::new(),
            block_externs: HashSet::new(),
            declared: Vec::new(),
            constructs: Vec::new(),
        });
        self.push_scope();
        let result = self.function_body(fd, decl.params.unwrap_or(&[]), sig.ret, loc);
        self.pop_scope();
        let fcx = self.fcx.take();
        let (body, params) = result?;
        let fcx = fcx.expect("function context");
        for (label, l) in &fcx.goto_uses {
            if !fcx.defined_labels.contains(label) {
                let d = Diagnostic::error("label", format!("use of undeclared label `{label}`"), *l);
                self.diags.push(d);
            }
        }
        self.function_slots[fid.0 as usize] = Some(Function {
            name: name.to_string(),
            ty: fty,
            ret: sig.ret,
            params,
            locals: fcx.locals,
            body,
            variadic: sig.variadic,
            loc,
            origin: if self.units[self.unit_index].lines.is_system_header(loc.file) { FunctionOrigin::SystemHeader } else { FunctionOrigin::Program },
        });
        Ok(())
    }

    fn function_body(
        &mut self,
        fd: &'a ast::FunctionDefinition,
        params: &'a [Node<ast::ParameterDeclaration>],
        ret: TypeId,
        loc: crate::diag::Loc,
    ) -> LResult<(Stmt, Vec<LocalId>)> {
        let mut prologue = Vec::new();
        let mut ids = Vec::new();
        for (i, p) in params.iter().enumerate() {
            let base = self.base_type(&p.node.specifiers, p.span)?;
            let (pname, ty, span) = match &p.node.declarator {
                Some(d) => {
                    let r = self.declarator(base, d)?;
                    (r.name, r.ty, r.name_span)
                }
                None => (None, base, p.span),
            };
            if i == 0 && params.len() == 1 && matches!(self.ty(ty), Type::Void) && pname.is_none() {
                break;
            }
            let declared = ty;
            let ty = self.adjust_param(ty);
            prologue.append(&mut self.pending_vla_sizes);
            let ploc = self.loc(span);
            let pname_s = pname.unwrap_or("<unnamed>");
            let addr_taken = self.fcx.as_ref().is_some_and(|f| f.addr_taken.contains(pname_s));
            let storage = match self.ty(ty) {
                Type::Record(_) | Type::Complex(_) => Storage::Memory,
                _ if addr_taken => Storage::Memory,
                _ => Storage::Register,
            };
            let l = self.new_local(pname_s, ty, storage, ploc);
            if let Some(n) = pname {
                self.bind(n, Binding { sym: Sym::Local(l), ty });
            }
            let extent = match self.ty(declared) {
                Type::Array(_, Some(n)) => Some(crate::ir::acc::DeclaredExtent::Constant(*n)),
                Type::Vla(_, count) => Some(crate::ir::acc::DeclaredExtent::Variable { count: *count, text: p.node.declarator.as_ref().and_then(|d| outer_extent_name(&d.node)) }),
                _ => None,
            };
            if let (Some(extent), Some(f)) = (extent, self.fcx.as_mut()) {
                f.param_arrays.insert(l, extent);
            }
            ids.push(l);
        }
        let ast::Statement::Compound(items) = &fd.statement.node else {
            return self.error("syntax", "function body must be a compound statement", fd.statement.span);
        };
        let mut body = prologue;
        let mut failed = false;
        for item in items {
            if self.block_item(item, &mut body).is_err() {
                failed = true;
            }
        }
        if failed {
            return Err(super::Reported);
        }
        // Falling off the end of `main` returns 0 (C11 5.1.2.2.3); of another function, an
        // unspecified value (0 here).
        if !matches!(self.ty(ret), Type::Void) {
            let end_loc = self.loc(Span { start: fd.statement.span.end.saturating_sub(1), end: fd.statement.span.end });
            if matches!(self.ty(ret), Type::Int(_) | Type::Bool | Type::Pointer(_) | Type::Float(_)) {
                let zero = mk(ExprKind::Int(0), self.t_int(), end_loc);
                let zero = self.convert(zero, ret);
                body.push(Stmt { kind: StmtKind::Return(Some(zero)), loc: end_loc });
            }
        }
        Ok((Stmt { kind: StmtKind::Block(body), loc }, ids))
    }
}
