//! Statements (C11 6.8) and the OpenACC directive markers attached to them.

use lang_c::ast::{self, Statement as S};
use lang_c::span::Node;

use super::{LResult, Lowerer, Reported, SwitchCx};
use crate::diag::Diagnostic;
use crate::frontend::pragma;
use crate::ir::*;
use crate::ir::acc::{AccDirective, AccKind};

impl<'a> Lowerer<'a> {
    /// Lower one block item, appending its statements to `out`.
    pub fn block_item(&mut self, item: &'a Node<ast::BlockItem>, out: &mut Vec<Stmt>) -> LResult<()> {
        match &item.node {
            ast::BlockItem::Declaration(d) => {
                let stmts = self.declaration(d, false)?;
                out.extend(stmts);
            }
            ast::BlockItem::StaticAssert(sa) => {
                if let Some(id) = self.static_assert(sa)? {
                    let loc = self.loc(sa.span);
                    let directive = Stmt { kind: StmtKind::Acc { directive: id, body: None }, loc };
                    // A dialect's standalone directive may come with directives of its own
                    // (PGI 1.3's `update … async(h)`: the join that keeps 1.3's issue order).
                    match pragma::assert_marker_id(&sa.node.message.node.join("")) {
                        Some(marker) => out.push(self.with_dialect_updates(marker, directive)?),
                        None => out.push(directive),
                    }
                }
            }
            ast::BlockItem::Statement(s) => {
                let st = self.stmt(s)?;
                out.append(&mut self.pending_vla_sizes);
                out.push(st);
            }
        }
        Ok(())
    }

    pub fn stmt(&mut self, n: &'a Node<S>) -> LResult<Stmt> {
        let loc = self.loc(n.span);
        let kind = match &n.node {
            S::Compound(items) => {
                self.push_scope();
                let mut out = Vec::new();
                let mut failed = false;
                for item in items {
                    if self.block_item(item, &mut out).is_err() {
                        failed = true;
                    }
                }
                self.pop_scope();
                if failed {
                    return Err(Reported);
                }
                StmtKind::Block(out)
            }
            S::Expression(None) => StmtKind::Empty,
            S::Expression(Some(e)) => StmtKind::Expr(self.expr(e)?),
            S::If(i) => {
                let c = self.condition(&i.node.condition)?;
                let t = self.sub_stmt(&i.node.then_statement)?;
                let e = match &i.node.else_statement {
                    Some(e) => Some(Box::new(self.sub_stmt(e)?)),
                    None => None,
                };
                StmtKind::If(c, Box::new(t), e)
            }
            S::While(w) => {
                let c = self.condition(&w.node.expression)?;
                let body = self.loop_body(&w.node.statement)?;
                StmtKind::While(c, Box::new(body))
            }
            S::DoWhile(w) => {
                let body = self.loop_body(&w.node.statement)?;
                let c = self.condition(&w.node.expression)?;
                StmtKind::DoWhile(Box::new(body), c)
            }
            S::For(f) => {
                self.push_scope();
                let r = self.for_stmt(&f.node);
                self.pop_scope();
                r?
            }
            S::Switch(sw) => self.switch(&sw.node, n)?,
            S::Labeled(l) => return self.labeled(&l.node, n),
            S::Goto(id) => {
                let l = self.label_id(&id.node.name);
                if let Some(f) = self.fcx.as_mut() {
                    f.goto_uses.push((id.node.name.clone(), loc));
                }
                StmtKind::Goto(l)
            }
            S::Continue => {
                if self.fcx.as_ref().is_some_and(|f| f.loop_depth == 0) {
                    return self.error("syntax", "`continue` statement not within a loop", n.span);
                }
                StmtKind::Continue
            }
            S::Break => {
                if self.fcx.as_ref().is_some_and(|f| f.loop_depth == 0 && f.switches.is_empty()) {
                    return self.error("syntax", "`break` statement not within a loop or switch", n.span);
                }
                StmtKind::Break
            }
            S::Return(e) => {
                let ret = self.fcx.as_ref().map(|f| f.ret).unwrap_or_else(|| self.t_int());
                match e {
                    None => StmtKind::Return(None),
                    Some(e) => {
                        let v = self.expr(e)?;
                        if matches!(self.ty(ret), Type::Void) {
                            // gcc: a warning; the value is evaluated and discarded.
                            StmtKind::Block(vec![Stmt { kind: StmtKind::Expr(v), loc }, Stmt { kind: StmtKind::Return(None), loc }])
                        } else {
                            let v = self.assign_convert(v, ret, e.span, "returning")?;
                            StmtKind::Return(Some(v))
                        }
                    }
                }
            }
            S::Asm(_) => return self.unsupported("inline assembly", n.span),
        };
        Ok(Stmt { kind, loc })
    }

    /// A sub-statement gets its own scope (C11 6.8p3 for selection/iteration bodies).
    fn sub_stmt(&mut self, n: &'a Node<S>) -> LResult<Stmt> {
        self.push_scope();
        let r = self.stmt(n);
        let pending = std::mem::take(&mut self.pending_vla_sizes);
        self.pop_scope();
        let s = r?;
        if pending.is_empty() {
            return Ok(s);
        }
        let loc = s.loc;
        let mut v = pending;
        v.push(s);
        Ok(Stmt { kind: StmtKind::Block(v), loc })
    }

    fn loop_body(&mut self, n: &'a Node<S>) -> LResult<Stmt> {
        if let Some(f) = self.fcx.as_mut() {
            f.loop_depth += 1;
        }
        let r = self.sub_stmt(n);
        if let Some(f) = self.fcx.as_mut() {
            f.loop_depth -= 1;
        }
        r
    }

    fn condition(&mut self, e: &'a Node<ast::Expression>) -> LResult<Expr> {
        let c = self.expr(e)?;
        if !self.prog.types.is_scalar(c.ty) && !matches!(self.ty(c.ty), Type::Complex(_)) {
            let t = self.prog.types.display(c.ty);
            return self.error("type", format!("used type `{t}` where a scalar is required"), e.span);
        }
        Ok(self.truth(c))
    }

    fn for_stmt(&mut self, f: &'a ast::ForStatement) -> LResult<StmtKind> {
        let init = match &f.initializer.node {
            ast::ForInitializer::Empty => None,
            ast::ForInitializer::Expression(e) => {
                let loc = self.loc(e.span);
                Some(Box::new(Stmt { kind: StmtKind::Expr(self.expr(e)?), loc }))
            }
            ast::ForInitializer::Declaration(d) => {
                let loc = self.loc(d.span);
                let stmts = self.declaration(d, false)?;
                Some(Box::new(Stmt { kind: StmtKind::Block(stmts), loc }))
            }
            ast::ForInitializer::StaticAssert(sa) => {
                self.static_assert(sa)?;
                None
            }
        };
        let cond = match &f.condition {
            Some(c) => Some(self.condition(c)?),
            None => None,
        };
        let step = match &f.step {
            Some(s) => Some(self.expr(s)?),
            None => None,
        };
        let body = self.loop_body(&f.statement)?;
        Ok(StmtKind::For { init, cond, step, body: Box::new(body) })
    }

    fn switch(&mut self, sw: &'a ast::SwitchStatement, n: &'a Node<S>) -> LResult<StmtKind> {
        let c = self.expr(&sw.expression)?;
        if !self.prog.types.is_integer(c.ty) {
            return self.error("type", "statement requires expression of integer type", sw.expression.span);
        }
        let c = self.promote(c);
        let cond_ty = c.ty;
        if let Some(f) = self.fcx.as_mut() {
            f.switches.push(SwitchCx { cond_ty, cases: Vec::new(), default: None });
        }
        let body = self.sub_stmt(&sw.statement);
        let cx = self.fcx.as_mut().and_then(|f| f.switches.pop());
        let body = body?;
        let Some(cx) = cx else { return self.error("internal", "switch context lost", n.span) };
        let mut seen = std::collections::HashMap::new();
        for (v, _, l) in &cx.cases {
            if let Some(prev) = seen.insert(*v, *l) {
                let d = Diagnostic::error("switch", "duplicate case value", *l).with_related(prev, "previous case is here");
                return Err(self.report(d));
            }
        }
        Ok(StmtKind::Switch {
            cond: c,
            body: Box::new(body),
            cases: cx.cases.into_iter().map(|(v, l, _)| (v, l)).collect(),
            default: cx.default,
        })
    }

    fn labeled(&mut self, l: &'a ast::LabeledStatement, n: &'a Node<S>) -> LResult<Stmt> {
        let loc = self.loc(n.span);
        match &l.label.node {
            ast::Label::Identifier(id) => {
                if let Some(mid) = pragma::label_marker_id(&id.node.name) {
                    if let Some(split) = self.units[self.unit_index].directives.get(mid as usize).and_then(|s| s.split.clone()) {
                        return self.split_region(mid, &split, &l.statement);
                    }
                    let d = self.acc_directive(mid)?;
                    if let Some(Some(AccDirective { kind: AccKind::Atomic(kind), loc, .. })) = self.prog.acc.get(d.0 as usize) {
                        let (kind, loc) = (*kind, *loc);
                        self.check_atomic_form(kind, loc, &l.statement)?;
                    }
                    let body = self.in_construct(d, |s| s.stmt(&l.statement))?;
                    let dloc = self.prog.directives[d.0 as usize].loc;
                    let construct = Stmt { kind: StmtKind::Acc { directive: d, body: Some(Box::new(body)) }, loc: dloc };
                    return self.with_dialect_updates(mid, construct);
                }
                let name = &id.node.name;
                let lid = self.label_id(name);
                if let Some(f) = self.fcx.as_mut() {
                    if !f.defined_labels.insert(name.clone()) {
                        return self.error("label", format!("redefinition of label `{name}`"), id.span);
                    }
                }
                let inner = self.stmt(&l.statement)?;
                Ok(Stmt { kind: StmtKind::Block(vec![Stmt { kind: StmtKind::Label(lid), loc }, inner]), loc })
            }
            ast::Label::Case(e) => {
                let v = self.case_value(e)?;
                let lid = self.fresh_label();
                self.add_case(v, lid, loc, n)?;
                let inner = self.stmt(&l.statement)?;
                Ok(Stmt { kind: StmtKind::Block(vec![Stmt { kind: StmtKind::Label(lid), loc }, inner]), loc })
            }
            ast::Label::CaseRange(r) => {
                let lo = self.case_value(&r.node.low)?;
                let hi = self.case_value(&r.node.high)?;
                let lid = self.fresh_label();
                let signed = self.fcx.as_ref().and_then(|f| f.switches.last()).map(|s| s.cond_ty);
                let signed = signed.is_some_and(|t| matches!(self.ty(t), Type::Int(IntType { signed: true, .. })));
                let count = if signed { (hi as i64).wrapping_sub(lo as i64) as u64 } else { hi.wrapping_sub(lo) };
                if count > 100_000 {
                    return self.unsupported("case ranges of more than 100000 values", n.span);
                }
                for k in 0..=count {
                    self.add_case(lo.wrapping_add(k), lid, loc, n)?;
                }
                let inner = self.stmt(&l.statement)?;
                Ok(Stmt { kind: StmtKind::Block(vec![Stmt { kind: StmtKind::Label(lid), loc }, inner]), loc })
            }
            ast::Label::Default => {
                let lid = self.fresh_label();
                let Some(sw) = self.fcx.as_mut().and_then(|f| f.switches.last_mut()) else {
                    return self.error("switch", "`default` label not within a switch statement", n.span);
                };
                if sw.default.is_some() {
                    return self.error("switch", "multiple default labels in one switch", n.span);
                }
                sw.default = Some(lid);
                let inner = self.stmt(&l.statement)?;
                Ok(Stmt { kind: StmtKind::Block(vec![Stmt { kind: StmtKind::Label(lid), loc }, inner]), loc })
            }
        }
    }

    /// A dialect directive's standalone directives around its construct (PGI 1.3 §2.3.4: a
    /// region's `update device` clauses run before it begins, its `update host` clauses after it
    /// completes; [`crate::frontend::pragma`] made them directives without markers).
    fn with_dialect_updates(&mut self, marker: u32, construct: Stmt) -> LResult<Stmt> {
        let site = &self.units[self.unit_index].directives[marker as usize];
        if site.before.is_empty() && site.after.is_empty() {
            return Ok(construct);
        }
        let (before, after) = (site.before.clone(), site.after.clone());
        let loc = construct.loc;
        let mut stmts = Vec::new();
        for id in before {
            let d = self.acc_directive(id)?;
            stmts.push(Stmt { kind: StmtKind::Acc { directive: d, body: None }, loc });
        }
        stmts.push(construct);
        for id in after {
            let d = self.acc_directive(id)?;
            stmts.push(Stmt { kind: StmtKind::Acc { directive: d, body: None }, loc });
        }
        Ok(Stmt { kind: StmtKind::Block(stmts), loc })
    }

    /// A PGI 1.3 compute region split at the `host` loops of its block (1.3 §2.4.1.1,
    /// [`crate::frontend::pgi13_loops`]): the region's `data` construct (directive `mid`) holding
    /// a `kernels` construct for each device part, and each host loop, run on the host, between
    /// the updates of the data it uses. The block's declarations keep one scope.
    fn split_region(&mut self, mid: u32, split: &pragma::RegionSplit, body: &'a Node<S>) -> LResult<Stmt> {
        let loc = self.loc(body.span);
        let S::Compound(items) = &body.node else {
            return self.error("directive", "a region with a `host` loop must be a block", body.span);
        };
        self.push_scope();
        // The block's declarations are the region's: declared in its `data` construct, outside
        // each device part's `kernels` construct.
        let region = DirectiveId(self.directive_base + mid);
        if let Some(f) = self.fcx.as_mut() {
            f.constructs.push(region);
        }
        let mut parts = Vec::new();
        let mut group = Vec::new();
        let mut kernels = split.kernels.iter().copied();
        let mut failed = false;
        let standalone = |s: &mut Self, ids: &[u32], parts: &mut Vec<Stmt>| -> bool {
            let mut ok = true;
            for &id in ids {
                match s.acc_directive(id) {
                    Ok(d) => parts.push(Stmt { kind: StmtKind::Acc { directive: d, body: None }, loc }),
                    Err(_) => ok = false,
                }
            }
            ok
        };
        for item in items {
            let Some((marker, host_loop)) = host_loop_of(item, split) else {
                failed |= self.block_item(item, &mut group).is_err();
                continue;
            };
            failed |= self.device_part(&mut group, kernels.next(), &mut parts, loc).is_err();
            let site = &self.units[self.unit_index].directives[marker as usize];
            let (before, after) = (site.before.clone(), site.after.clone());
            failed |= !standalone(self, &before, &mut parts);
            match self.stmt(host_loop) {
                Ok(st) => {
                    parts.append(&mut self.pending_vla_sizes);
                    parts.push(st);
                }
                Err(_) => failed = true,
            }
            failed |= !standalone(self, &after, &mut parts);
        }
        failed |= self.device_part(&mut group, kernels.next(), &mut parts, loc).is_err();
        if let Some(f) = self.fcx.as_mut() {
            f.constructs.pop();
        }
        self.pop_scope();
        if failed {
            return Err(Reported);
        }
        let d = self.acc_directive(mid)?;
        let dloc = self.prog.directives[d.0 as usize].loc;
        let construct = Stmt { kind: StmtKind::Acc { directive: d, body: Some(Box::new(Stmt { kind: StmtKind::Block(parts), loc })) }, loc: dloc };
        self.with_dialect_updates(mid, construct)
    }

    /// The statements of a split region's device part, as a `kernels` construct (directive
    /// `kernels`); nothing for an empty part.
    fn device_part(&mut self, group: &mut Vec<Stmt>, kernels: Option<u32>, parts: &mut Vec<Stmt>, loc: crate::diag::Loc) -> LResult<()> {
        let (Some(id), false) = (kernels, group.is_empty()) else {
            group.clear();
            return Ok(());
        };
        let d = self.acc_directive(id)?;
        // Each part is its own construct, named by its first statement (`main$acc22`).
        let loc = group.first().map_or(loc, |s| s.loc);
        let body = Stmt { kind: StmtKind::Block(std::mem::take(group)), loc };
        parts.push(Stmt { kind: StmtKind::Acc { directive: d, body: Some(Box::new(body)) }, loc });
        Ok(())
    }

    fn case_value(&mut self, e: &'a Node<ast::Expression>) -> LResult<u64> {
        let v = self.expr(e)?;
        let Some(ty) = self.fcx.as_ref().and_then(|f| f.switches.last()).map(|s| s.cond_ty) else {
            return self.error("switch", "`case` label not within a switch statement", e.span);
        };
        let v = self.convert(v, ty);
        match self.const_int(&v) {
            Some(x) => Ok(x),
            None => self.error("switch", "case label does not reduce to an integer constant", e.span),
        }
    }

    fn add_case(&mut self, v: u64, lid: LabelId, loc: crate::diag::Loc, n: &'a Node<S>) -> LResult<()> {
        match self.fcx.as_mut().and_then(|f| f.switches.last_mut()) {
            Some(sw) => {
                sw.cases.push((v, lid, loc));
                Ok(())
            }
            None => self.error("switch", "`case` label not within a switch statement", n.span),
        }
    }
}

/// A block item that is one of a split region's `host` loops: its marker id and its loop.
fn host_loop_of<'b>(item: &'b Node<ast::BlockItem>, split: &pragma::RegionSplit) -> Option<(u32, &'b Node<S>)> {
    let ast::BlockItem::Statement(st) = &item.node else { return None };
    let S::Labeled(l) = &st.node else { return None };
    let ast::Label::Identifier(i) = &l.node.label.node else { return None };
    let marker = pragma::label_marker_id(&i.node.name)?;
    split.host_loops.contains(&marker).then_some((marker, &l.node.statement))
}
