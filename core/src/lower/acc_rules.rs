//! Restrictions on the variables of a directive's clauses that need their types or the function
//! around them, checked when the directive is lowered (issue 12: errors real compilers catch).
//! Each error is at the offending variable, with the other site where there is one.
//!
//! - §2.6.5.1: "In C and C++, the variables in var-list [of `deviceptr`] must be pointers."
//! - §2.6.5: a struct member may appear in a data clause, "However, the struct variable itself
//!   must be automatic, static or global, that is, not accessed via a pointer" (`b->vals`).
//! - §2.6.5: "Any array or subarray in a data clause ... must be a contiguous block of memory":
//!   a subarray of a multi-dimensional array with a partial range in a later dimension after a
//!   range of more than one element in an earlier one (`m[0:3][0:2]` of `int m[3][4]`). Only
//!   dimensions of fixed-size array type with constant bounds are judged (a pointer-to-pointer
//!   or variable-length dimension is not).
//! - §2.8: in a `cache` directive's subarrays "the length is a constant".
//! - §2.10: "Subarrays are not allowed in declare directives": a subarray that covers a whole
//!   array from its start (`a[0:N]` of `int a[N]`, accepted by gcc and nvc and used by the V&V
//!   suite) names the whole variable; one covering part of it is an error (directive/check.rs
//!   refuses the other shapes before types are known).
//! - §2.10: "C and C++ extern variables may only appear in create, copyin, deviceptr, device
//!   resident and link clauses on a declare directive"; §2.10.2: "In C or C++, the link clause
//!   must appear at global scope, or the arguments must be extern variables."
//! - §2.10: "A variable or array may appear at most once in all the clauses of declare directives
//!   for a function", and "the same variable or array may not appear in a data clause for any
//!   construct where the declaration of the variable is visible" (function-scope `declare`;
//!   visibility is taken as the rest of the function). This holds for `present` too (issue 12,
//!   decision reviewed in session 6): §2.6.5 lists `present` among the data clauses and the
//!   restriction names no exception, so `present(x)` after `declare create(x)` in the same
//!   function is an error, although some compilers accept it (conformance/RESULTS.md,
//!   "Decisions").

use crate::diag::Diagnostic;
use crate::directive::{ClauseKind, Directive, VarRef};
use crate::ir::acc::*;
use crate::ir::*;

use super::{LResult, Lowerer};

impl<'a> Lowerer<'a> {
    /// The checks above on directive `id` (`d` as parsed, `clauses` lowered for this device).
    pub(super) fn check_clause_variables(&mut self, id: u32, d: &Directive, kind: &AccKind, clauses: &[AccClause]) -> LResult<()> {
        for c in &d.clauses {
            if let ClauseKind::Data(_, vars) = &c.kind {
                for v in vars {
                    if self.member_through_pointer(id, v) {
                        let loc = self.directive_loc(id, v.span.start);
                        return Err(self.report(
                            Diagnostic::error("directive", format!("`{v}` is a member of a struct reached through a pointer: in a data clause the struct variable itself must be automatic, static or global (§2.6.5)"), loc)
                                .with_help("map the data the member points to or holds through a variable, or map the whole struct the pointer points to with a subarray (`p[0:1]`)"),
                        ));
                    }
                }
            }
        }
        if let AccKind::Cache(vars) = kind {
            for v in vars {
                if v.sections.iter().any(|s| s.is_range && s.length.as_ref().is_some_and(|l| self.const_int(l).is_none())) {
                    return Err(self.report(
                        Diagnostic::error("directive", format!("the length of the subarray `{}` in `cache` is not a constant (§2.8)", v.text), v.loc)
                            .with_help("cache a fixed number of elements, e.g. `cache(u[i:3])`"),
                    ));
                }
            }
        }
        let declare = matches!(kind, AccKind::Declare);
        let function_scope = self.fcx.is_some();
        for c in clauses {
            let AccClauseKind::Data(dc, vars) = &c.kind else { continue };
            for v in vars {
                if *dc == DataClause::DevicePtr && (!v.sections.is_empty() || !matches!(self.ty(v.var_ty), Type::Pointer(_))) {
                    let t = self.prog.types.display(v.var_ty);
                    return Err(self.report(
                        Diagnostic::error("directive", format!("`{}` in `deviceptr` has type `{t}`: the variables in `deviceptr` must be pointers (§2.6.5.1)", v.text), v.loc)
                            .with_help("name a pointer that holds a device address (from acc_malloc or acc_deviceptr); map host arrays with copy, copyin, create or present"),
                    ));
                }
                if let Some(diag) = self.non_contiguous(v) {
                    return Err(self.report(diag));
                }
                if declare {
                    self.check_declare_variable(c, *dc, v, function_scope)?;
                } else if function_scope {
                    let earlier = self.fcx.as_ref().and_then(|f| f.declared.iter().find(|(r, _, _)| *r == v.root && v.root != VarRoot::Other).cloned());
                    if let Some((_, name, declare_loc)) = earlier {
                        return Err(self.report(
                            Diagnostic::error("directive", format!("`{name}` is in a `declare` directive of this function, so it may not appear in a data clause of a construct where that declaration is visible (§2.10)"), v.loc)
                                .with_related(declare_loc, format!("`{name}` is declared for the device here"))
                                .with_help("the declare directive already gives the variable device data for the whole function: remove it from this clause"),
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    /// §2.10 and §2.10.2 on one variable of a `declare` clause.
    fn check_declare_variable(&mut self, c: &AccClause, dc: DataClause, v: &AccVar, function_scope: bool) -> LResult<()> {
        use DataClause as D;
        if let (Type::Array(_, Some(n)), Some(s)) = (self.ty(v.var_ty).clone(), v.sections.first()) {
            let lower = s.lower.as_ref().map_or(Some(0), |l| self.const_int(l));
            let length = s.length.as_ref().map_or(Some(n), |l| self.const_int(l));
            if v.sections.len() == 1 && s.is_range && (lower.is_some_and(|l| l != 0) || length.is_some_and(|l| l != n)) {
                return Err(self.report(
                    Diagnostic::error("directive", format!("subarrays are not allowed in `declare`: `{}` is part of an array of {n} elements (§2.10)", v.text), v.loc)
                        .with_help("name the whole array"),
                ));
            }
        }
        if !function_scope {
            return Ok(());
        }
        let name = match v.root {
            VarRoot::Local(l) => self.fcx.as_ref().and_then(|f| f.locals.get(l.0 as usize)).map(|l| l.name.clone()),
            VarRoot::Global(g) => self.prog.globals.get(g.0 as usize).map(|g| g.name.clone()),
            VarRoot::Other => None,
        }
        .unwrap_or_else(|| v.text.clone());
        let is_block_extern = matches!(v.root, VarRoot::Global(_)) && self.fcx.as_ref().is_some_and(|f| f.block_externs.contains(&name));
        if dc == D::Link && matches!(v.root, VarRoot::Local(_)) {
            return Err(self.report(
                Diagnostic::error("directive", format!("`{name}` is a local variable: in a function, the arguments of `link` must be extern variables (§2.10.2)"), v.loc)
                    .with_help("link a global variable, at file scope or through an `extern` declaration; use `declare create` for local data"),
            ));
        }
        if is_block_extern && !matches!(dc, D::Create | D::CopyIn | D::PresentOrCreate | D::PresentOrCopyIn | D::DevicePtr | D::DeviceResident | D::Link) {
            let decl = match v.root {
                VarRoot::Global(g) => self.prog.globals.get(g.0 as usize).map(|g| g.loc),
                _ => None,
            };
            let mut diag = Diagnostic::error("directive", format!("`{name}` is an extern variable: on `declare` it may appear only in create, copyin, deviceptr, device_resident and link clauses, not in `{}` (§2.10)", c.spelling), v.loc)
                .with_help("use `declare create` or `declare copyin`, and `update self(...)` where the host needs the device's values");
            if let Some(l) = decl {
                diag = diag.with_related(l, format!("`{name}` is defined here"));
            }
            return Err(self.report(diag));
        }
        if v.root == VarRoot::Other {
            return Ok(());
        }
        let earlier = self.fcx.as_ref().and_then(|f| f.declared.iter().find(|(r, _, _)| *r == v.root).cloned());
        if let Some((_, _, first)) = earlier {
            return Err(self.report(
                Diagnostic::error("directive", format!("`{name}` appears in a second `declare` clause of this function: a variable may appear at most once in all the clauses of declare directives for a function (§2.10)"), v.loc)
                    .with_related(first, format!("`{name}` is declared here first"))
                    .with_help("keep one declare clause for the variable (`copy` moves it both ways)"),
            ));
        }
        if let Some(f) = self.fcx.as_mut() {
            f.declared.push((v.root, name, v.loc));
        }
        Ok(())
    }

    /// §2.6.5: `p->m` (or `p->s.m`, `p[i].m` is not a member through a pointer of a struct variable).
    fn member_through_pointer(&self, id: u32, v: &VarRef) -> bool {
        let Some(node) = self.units[self.unit_index].acc_exprs.get(id, v.base.span.start) else { return false };
        let mut e = &node.node;
        loop {
            match e {
                lang_c::ast::Expression::Member(m) => {
                    if m.node.operator.node == lang_c::ast::MemberOperator::Indirect {
                        return true;
                    }
                    e = &m.node.expression.node;
                }
                _ => return false,
            }
        }
    }

    /// §2.6.5: a subarray of a fixed-size multi-dimensional array that is not one block.
    fn non_contiguous(&self, v: &AccVar) -> Option<Diagnostic> {
        if v.sections.len() < 2 {
            return None;
        }
        // Per section: (covers its whole dimension, is one element); `None` when not constant.
        let mut shape: Vec<(Option<bool>, Option<bool>)> = Vec::new();
        let mut ty = v.var_ty;
        for (k, s) in v.sections.iter().enumerate() {
            let (elem, dim) = match self.ty(ty) {
                Type::Array(e, n) => (*e, *n),
                Type::Pointer(e) if k == 0 => (*e, None),
                _ => return None,
            };
            let lower = s.lower.as_ref().map_or(Some(0), |l| self.const_int(l));
            let length = if s.is_range { s.length.as_ref().map_or(dim.zip(lower).map(|(n, l)| n.saturating_sub(l)), |l| self.const_int(l)) } else { Some(1) };
            let whole = match (lower, length, dim) {
                (Some(l), Some(len), Some(n)) => Some(l == 0 && len == n),
                _ => None,
            };
            shape.push((whole, length.map(|l| l == 1)));
            ty = elem;
        }
        let partial = (1..shape.len()).rev().find(|&k| shape[k].0 == Some(false))?;
        let spread = (0..partial).find(|&i| shape[i].1 == Some(false))?;
        Some(
            Diagnostic::error("directive", format!("`{}` is not a contiguous block of memory: dimension {} takes more than one element while dimension {} takes part of its extent (§2.6.5)", v.text, spread + 1, partial + 1), v.loc)
                .with_help("map whole rows (the full extent of every dimension after the first range), or map each row in its own clause"),
        )
    }
}
