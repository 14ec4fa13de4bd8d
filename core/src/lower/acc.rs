//! Lowering OpenACC directives: clause expressions become IR expressions in the directive's scope,
//! variable references resolve to the variables they name, and `device_type` groups are resolved
//! (§2.4) for the simulated device, whose type is `nvidia`.

use crate::diag::{Diagnostic, Loc};
use crate::directive::{self, ClauseKind, DeviceTypeName, Directive, DirectiveKind, ExprSrc, GangStatic, Section, TileSize, VarRef};
use crate::ir::acc::*;
use crate::ir::*;

use super::{Binding, LResult, Lowerer, Sym};

/// The device type accsim's devices report (`acc_device_nvidia`, §3.1).
pub const DEVICE_TYPE: &str = "nvidia";

impl<'a> Lowerer<'a> {
    /// Lower directive `id` of the current unit (already parsed by the front-end).
    pub fn lower_acc(&mut self, id: u32) -> LResult<AccDirective> {
        let units = self.units;
        let unit = &units[self.unit_index];
        let site = &unit.directives[id as usize];
        let d: &'a Directive = match &unit.parsed[id as usize] {
            Ok(d) => d,
            Err(e) => {
                let mut diag = Diagnostic::error("directive", e.message.clone(), self.directive_loc(id, e.span.start)).with_len(e.span.len().max(1));
                if let Some(h) = &e.help {
                    diag = diag.with_help(h.clone());
                }
                for (span, what) in &e.related {
                    diag = diag.with_related(self.directive_loc(id, span.start), what.clone());
                }
                return Err(self.report(diag));
            }
        };
        if let Some((_, span, msg)) = unit.acc_exprs.errors.iter().find(|(d, _, _)| *d == id) {
            let loc = self.directive_loc(id, span.start);
            return Err(self.report(Diagnostic::error("directive", msg.clone(), loc).with_len(span.len().max(1))));
        }
        let kind = match &d.kind {
            DirectiveKind::Parallel => AccKind::Parallel,
            DirectiveKind::Kernels => AccKind::Kernels,
            DirectiveKind::Data => AccKind::Data,
            DirectiveKind::EnterData => AccKind::EnterData,
            DirectiveKind::ExitData => AccKind::ExitData,
            DirectiveKind::HostData => AccKind::HostData,
            DirectiveKind::Loop => AccKind::Loop,
            DirectiveKind::ParallelLoop => AccKind::ParallelLoop,
            DirectiveKind::KernelsLoop => AccKind::KernelsLoop,
            DirectiveKind::Cache(vars) => AccKind::Cache(self.acc_vars(id, vars)?),
            DirectiveKind::Atomic(k) => AccKind::Atomic(*k),
            DirectiveKind::Update => AccKind::Update,
            DirectiveKind::Wait(list) => AccKind::Wait(match list {
                Some(es) => Some(es.iter().map(|e| self.acc_expr(id, e)).collect::<LResult<Vec<_>>>()?),
                None => None,
            }),
            DirectiveKind::Declare => AccKind::Declare,
            DirectiveKind::Routine(name) => AccKind::Routine(name.as_ref().map(|n| n.name.clone())),
        };
        // §2.4: clauses after `device_type(nvidia)` apply to this device; those after
        // `device_type(*)` only when no device_type clause names this device; default clauses
        // unless a clause of the same name is given for this device type.
        let names_us = |list: &Vec<DeviceTypeName>| list.iter().any(|t| matches!(t, DeviceTypeName::Named(n) if n.eq_ignore_ascii_case(DEVICE_TYPE)));
        let named_group = d.clauses.iter().any(|c| c.device_types.as_ref().is_some_and(names_us));
        let applies = |c: &directive::Clause| match &c.device_types {
            None => true,
            Some(list) => names_us(list) || (!named_group && list.iter().any(|t| matches!(t, DeviceTypeName::Any))),
        };
        let specific: Vec<directive::ClauseName> =
            d.clauses.iter().filter(|c| c.device_types.is_some() && applies(c)).map(|c| c.name()).collect();
        let mut clauses = Vec::new();
        for c in &d.clauses {
            if !applies(c) || (c.device_types.is_none() && specific.contains(&c.name())) {
                continue;
            }
            let loc = self.directive_loc(id, c.span.start);
            let kind = self.acc_clause(id, &c.kind, loc)?;
            clauses.push(AccClause { kind, loc, spelling: c.spelling });
        }
        self.check_clause_variables(id, d, &kind, &clauses)?;
        Ok(AccDirective { kind, clauses, loc: site.text_loc })
    }

    /// §2.10 (declare), restrictions: "In C or C++ global scope, only create, copyin, deviceptr,
    /// device_resident and link clauses are allowed" (a file-scope `declare` has the whole program
    /// as its region: nothing would ever copy its data back). `present_or_create` and
    /// `present_or_copyin` are accepted as `create` and `copyin` (what those mean since 2.5, and
    /// what accsim runs them as). Each error names the clause, the directive and the variable's
    /// declaration.
    pub fn check_file_scope_declare(&mut self, id: DirectiveId) {
        let Some(Some(d)) = self.prog.acc.get(id.0 as usize) else { return };
        if !matches!(d.kind, AccKind::Declare) {
            return;
        }
        let mut errors = Vec::new();
        for c in &d.clauses {
            let AccClauseKind::Data(dc, vars) = &c.kind else { continue };
            use DataClause as D;
            if matches!(dc, D::Create | D::CopyIn | D::PresentOrCreate | D::PresentOrCopyIn | D::DevicePtr | D::DeviceResident | D::Link) {
                continue;
            }
            let mut diag = Diagnostic::error(
                "directive",
                format!("`{}` may not appear on a `declare` directive at file scope: only create, copyin, deviceptr, device_resident and link may (§2.10)", c.spelling),
                c.loc,
            )
            .with_related(d.loc, "this `declare` is at file scope: its data lives for the whole program");
            for v in vars {
                if let VarRoot::Global(g) = v.root {
                    if let Some(global) = self.prog.globals.get(g.0 as usize) {
                        diag = diag.with_related(global.loc, format!("`{}` is declared here", global.name));
                    }
                }
            }
            errors.push(diag.with_help("use `declare create` or `declare copyin`, and `update self(…)` where the host needs the device's values"));
        }
        for e in errors {
            self.report(e);
        }
    }

    /// The source location of byte `offset` of directive `id`'s text (directives are one line).
    pub fn directive_loc(&self, id: u32, offset: usize) -> Loc {
        let site = &self.units[self.unit_index].directives[id as usize];
        let mut loc = site.text_loc;
        let prefix = site.text.get(..offset.min(site.text.len())).unwrap_or("");
        loc.col += prefix.chars().count() as u32;
        loc
    }

    /// Run `f` (lowering the parse of clause expression `e` of directive `id`, which starts at
    /// `parsed_at` of its synthetic text) with locations mapped into the directive.
    fn in_directive_expr<T>(&mut self, id: u32, e: &ExprSrc, parsed_at: usize, f: impl FnOnce(&mut Self) -> T) -> T {
        let outer = self.directive_expr.replace(super::DirectiveExprOrigin { directive: id, parsed_at, written_at: e.span.start, len: e.span.len() });
        let out = f(self);
        self.directive_expr = outer;
        out
    }

    fn acc_expr(&mut self, id: u32, e: &ExprSrc) -> LResult<Expr> {
        let units = self.units;
        let Some((node, parsed_at)) = units[self.unit_index].acc_exprs.get_with_origin(id, e.span.start) else {
            let loc = self.directive_loc(id, e.span.start);
            return Err(self.report(Diagnostic::error("directive", format!("cannot parse `{}`", e.text), loc)));
        };
        let mut x = self.in_directive_expr(id, e, parsed_at, |s| s.expr(node))?;
        // Locations inside a directive point into the directive text.
        relocate(&mut x, self.directive_loc(id, e.span.start));
        Ok(x)
    }

    fn acc_int_expr(&mut self, id: u32, e: &ExprSrc, what: &str) -> LResult<Expr> {
        let x = self.acc_expr(id, e)?;
        if !self.prog.types.is_integer(x.ty) {
            let loc = self.directive_loc(id, e.span.start);
            let t = self.prog.types.display(x.ty);
            return Err(self.report(Diagnostic::error("directive", format!("{what} must be an integer expression, found `{t}`"), loc)));
        }
        let int = self.t_int();
        Ok(self.convert(x, int))
    }

    fn acc_clause(&mut self, id: u32, k: &ClauseKind, loc: Loc) -> LResult<AccClauseKind> {
        Ok(match k {
            ClauseKind::If(e) => {
                let x = self.acc_expr(id, e)?;
                AccClauseKind::If(self.truth(x))
            }
            ClauseKind::Async(e) => AccClauseKind::Async(match e {
                Some(e) => Some(self.acc_int_expr(id, e, "an async argument")?),
                None => None,
            }),
            ClauseKind::Wait(list) => AccClauseKind::Wait(match list {
                Some(es) => Some(es.iter().map(|e| self.acc_int_expr(id, e, "a wait argument")).collect::<LResult<Vec<_>>>()?),
                None => None,
            }),
            ClauseKind::NumGangs(e) => AccClauseKind::NumGangs(self.acc_int_expr(id, e, "num_gangs")?),
            ClauseKind::NumWorkers(e) => AccClauseKind::NumWorkers(self.acc_int_expr(id, e, "num_workers")?),
            ClauseKind::VectorLength(e) => AccClauseKind::VectorLength(self.acc_int_expr(id, e, "vector_length")?),
            ClauseKind::Reduction { op, vars, .. } => AccClauseKind::Reduction { op: *op, vars: self.acc_vars(id, vars)? },
            ClauseKind::Data(dc, vars) => AccClauseKind::Data(*dc, self.acc_vars(id, vars)?),
            ClauseKind::Private(vars) => AccClauseKind::Private(self.acc_vars(id, vars)?),
            ClauseKind::FirstPrivate(vars) => AccClauseKind::FirstPrivate(self.acc_vars(id, vars)?),
            ClauseKind::DefaultNone => AccClauseKind::DefaultNone,
            ClauseKind::Collapse(e) => {
                let x = self.acc_expr(id, e)?;
                match self.const_int(&x) {
                    Some(n) if (1..=64).contains(&(n as i64)) => AccClauseKind::Collapse(n as u32),
                    _ => {
                        return Err(self.report(Diagnostic::error(
                            "directive",
                            "the argument of `collapse` must be a positive integer constant (§2.7.1)",
                            loc,
                        )))
                    }
                }
            }
            ClauseKind::Gang(g) => {
                let num = match &g.num {
                    Some(e) => Some(self.acc_int_expr(id, e, "the gang count")?),
                    None => None,
                };
                let static_ = match &g.static_ {
                    None => None,
                    Some(GangStatic::Any(_)) => Some(None),
                    Some(GangStatic::Chunk(e)) => Some(Some(self.acc_int_expr(id, e, "the static chunk size")?)),
                };
                AccClauseKind::Gang { num, static_ }
            }
            ClauseKind::Worker(e) => AccClauseKind::Worker(match e {
                Some(e) => Some(self.acc_int_expr(id, e, "the worker count")?),
                None => None,
            }),
            ClauseKind::Vector(e) => AccClauseKind::Vector(match e {
                Some(e) => Some(self.acc_int_expr(id, e, "the vector length")?),
                None => None,
            }),
            ClauseKind::Seq => AccClauseKind::Seq,
            ClauseKind::Auto => AccClauseKind::Auto,
            ClauseKind::Independent => AccClauseKind::Independent,
            ClauseKind::Tile(ts) => AccClauseKind::Tile(
                ts.iter()
                    .map(|t| match t {
                        TileSize::Any(_) => Ok(None),
                        TileSize::Size(e) => self.acc_int_expr(id, e, "a tile size").map(Some),
                    })
                    .collect::<LResult<Vec<_>>>()?,
            ),
            ClauseKind::UseDevice(vars) => AccClauseKind::UseDevice(self.acc_vars(id, vars)?),
            ClauseKind::Host(_, vars) => AccClauseKind::Host(self.acc_vars(id, vars)?),
            ClauseKind::Device(vars) => AccClauseKind::Device(self.acc_vars(id, vars)?),
            ClauseKind::Bind(b) => AccClauseKind::Bind(match b {
                directive::BindName::Identifier { name, .. } => name.clone(),
                directive::BindName::String { value, .. } => value.clone(),
            }),
            ClauseKind::NoHost => AccClauseKind::NoHost,
        })
    }

    fn acc_vars(&mut self, id: u32, vars: &[VarRef]) -> LResult<Vec<AccVar>> {
        vars.iter().map(|v| self.acc_var(id, v)).collect()
    }

    fn acc_var(&mut self, id: u32, v: &VarRef) -> LResult<AccVar> {
        let units = self.units;
        let loc = self.directive_loc(id, v.span.start);
        let text = units[self.unit_index].directives[id as usize].text.get(v.span.clone()).unwrap_or(&v.base.text).to_string();
        let Some((node, parsed_at)) = units[self.unit_index].acc_exprs.get_with_origin(id, v.base.span.start) else {
            return Err(self.report(Diagnostic::error("directive", format!("cannot parse `{}`", v.base.text), loc)));
        };
        let root = match &node.node {
            lang_c::ast::Expression::Identifier(i) => match self.lookup(&i.node.name) {
                Some(Binding { sym: Sym::Local(l), .. }) => VarRoot::Local(*l),
                Some(Binding { sym: Sym::Global(g), .. }) => VarRoot::Global(*g),
                Some(Binding { sym: Sym::Func(_) | Sym::Extern(_), .. }) | Some(Binding { sym: Sym::EnumConst(..) | Sym::Typedef(_), .. }) => {
                    return Err(self.report(Diagnostic::error("directive", format!("`{}` is not a variable", i.node.name), loc)))
                }
                None => {
                    return Err(self.report(Diagnostic::error("undeclared", format!("use of undeclared identifier `{}`", i.node.name), loc)))
                }
            },
            _ => VarRoot::Other,
        };
        let lv = self.in_directive_expr(id, &v.base, parsed_at, |s| s.lvalue_or_designator(node))?;
        let var_ty = lv.ty;
        let addr = match &lv.place {
            Place::Mem(a) => {
                let mut a = (**a).clone();
                relocate(&mut a, loc);
                Some(a)
            }
            _ => None,
        };
        let is_indexable = matches!(self.ty(var_ty), Type::Array(..) | Type::Vla(..) | Type::Pointer(_));
        let base = if is_indexable {
            let mut b = self.rvalue(lv);
            relocate(&mut b, loc);
            Some(b)
        } else {
            None
        };
        if !v.sections.is_empty() && !is_indexable {
            let t = self.prog.types.display(var_ty);
            return Err(self.report(Diagnostic::error("directive", format!("`{}` has type `{t}` and cannot be subscripted", v.base.text), loc)));
        }
        let mut sections = Vec::new();
        for s in &v.sections {
            sections.push(match s {
                Section::Index(e) => AccSection { lower: Some(self.acc_long(id, e)?), length: None, is_range: false },
                Section::Range { lower, length, .. } => AccSection {
                    lower: match lower {
                        Some(e) => Some(self.acc_long(id, e)?),
                        None => None,
                    },
                    length: match length {
                        Some(e) => Some(self.acc_long(id, e)?),
                        None => None,
                    },
                    is_range: true,
                },
            });
        }
        // A parameter declared as an array with a constant extent: the elements it names.
        let declared_extent = match root {
            VarRoot::Local(l) => self.fcx.as_ref().and_then(|f| f.param_arrays.get(&l)).cloned(),
            _ => None,
        };
        // What the clause names, without its subscripts (`a[0:n]` names `a`).
        let name = text.split('[').next().unwrap_or(&text).trim().to_string();
        Ok(AccVar { text, name, root, var_ty, addr, base, sections, loc, declared_extent })
    }

    fn acc_long(&mut self, id: u32, e: &ExprSrc) -> LResult<Expr> {
        let x = self.acc_expr(id, e)?;
        if !self.prog.types.is_integer(x.ty) {
            let loc = self.directive_loc(id, e.span.start);
            return Err(self.report(Diagnostic::error("directive", "subarray bounds must be integers", loc)));
        }
        let long = self.t_long();
        Ok(self.convert(x, long))
    }
}

/// Point every location of a directive expression at the directive (lang-c spans of the synthetic
/// parse mean nothing in the program's files).
fn relocate(e: &mut Expr, loc: Loc) {
    crate::ir::visit::visit_exprs_mut(e, &mut |x| {
        x.loc = loc;
        true
    });
}
