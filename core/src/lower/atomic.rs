//! The statement forms an `atomic` construct allows (OpenACC 2.0 §2.12 of the ratified text,
//! `atomic`; the seed draft has no atomic section), checked on the C source before lowering.
//!
//! With `x` and `v` scalar lvalues, `expr` an expression that does not refer to `x`, and `binop`
//! one of `+ * - / & ^ | << >>`:
//! - `read`: `v = x;`
//! - `write`: `x = expr;`
//! - `update` (and no clause): `x++; x--; ++x; --x; x binop= expr; x = x binop expr;
//!   x = expr binop x;`
//! - `capture`: `v = x++; v = x--; v = ++x; v = --x; v = x binop= expr; v = x = x binop expr;
//!   v = x = expr binop x;` or a block of two statements, `v = x;` and an update of `x` in either
//!   order, or `v = x;` then a write of `x`.
//!
//! `x = x + y + z` is `x = (x + y) + z` in C: not a form (gcc rejects it too; write
//! `x += y + z`). Variables are compared as written (whitespace and enclosing parentheses
//! ignored), so `a[i]` and `(a[ i ])` are one lvalue; `x` under another name (through a pointer)
//! is not seen. A violation is an error naming the statement and the directive.

use lang_c::ast::{BinaryOperator as B, BlockItem, Expression as E, Statement as S, UnaryOperator as U};
use lang_c::span::Node;
use lang_c::visit::Visit;

use crate::diag::{Diagnostic, Loc};
use crate::directive::AtomicKind;

use super::{LResult, Lowerer, Reported};

/// Why a statement is not an allowed form, and where.
struct Wrong {
    message: String,
    span: lang_c::span::Span,
}

impl<'a> Lowerer<'a> {
    /// Check the statement of an `atomic` construct (`directive_loc`: the directive).
    pub fn check_atomic_form(&mut self, kind: AtomicKind, directive_loc: Loc, stmt: &'a Node<S>) -> LResult<()> {
        let text = self.units[self.unit_index].text.as_str();
        let forms = Forms { text };
        let result = match kind {
            AtomicKind::Read => forms.read(stmt),
            AtomicKind::Write => forms.write(stmt),
            AtomicKind::Update => forms.update_statement(stmt),
            AtomicKind::Capture => forms.capture(stmt),
        };
        let Err(w) = result else { return Ok(()) };
        let allowed = match kind {
            AtomicKind::Read => "`v = x;`",
            AtomicKind::Write => "`x = expr;` with `expr` not referring to `x`",
            AtomicKind::Update => "`x++;`, `x--;`, `++x;`, `--x;`, `x binop= expr;`, `x = x binop expr;` or `x = expr binop x;`, with `expr` not referring to `x`",
            AtomicKind::Capture => "`v = x++;` (and the other update forms as `v = …`), `v = x binop= expr;`, `v = x = x binop expr;`, or a block `{ v = x; x binop= expr; }` (either order)",
        };
        let loc = self.loc(w.span);
        let len = w.span.end.saturating_sub(w.span.start).max(1);
        let d = Diagnostic::error("atomic", format!("{} (OpenACC 2.0 §2.12, `atomic {}`)", w.message, kind.as_str()), loc)
            .with_len(len)
            .with_related(directive_loc, format!("the `atomic {}` directive", kind.as_str()))
            .with_help(format!("`atomic {}` allows {allowed}", kind.as_str()));
        self.diags.push(d);
        Err(Reported)
    }
}

struct Forms<'t> {
    text: &'t str,
}

/// `text` without whitespace and without parentheses around the whole of it (lang-c's span of
/// a parenthesised operand includes them): `( a[ i ] )` → `a[i]`.
fn normalized(text: &str) -> String {
    let mut s: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    while s.starts_with('(') && s.ends_with(')') && encloses_all(&s) {
        s = s[1..s.len() - 1].to_string();
    }
    s
}

/// Whether the `(` at the start of `s` is closed by the `)` at its end.
fn encloses_all(s: &str) -> bool {
    let mut depth = 0i32;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return i == s.len() - 1;
                }
            }
            _ => {}
        }
    }
    false
}

fn is_binop(op: &B) -> bool {
    matches!(op, B::Plus | B::Multiply | B::Minus | B::Divide | B::BitwiseAnd | B::BitwiseXor | B::BitwiseOr | B::ShiftLeft | B::ShiftRight)
}

fn is_compound_assign(op: &B) -> bool {
    matches!(op, B::AssignPlus | B::AssignMultiply | B::AssignMinus | B::AssignDivide | B::AssignBitwiseAnd | B::AssignBitwiseXor | B::AssignBitwiseOr | B::AssignShiftLeft | B::AssignShiftRight)
}

fn is_lvalue(e: &Node<E>) -> bool {
    match &e.node {
        E::Identifier(_) | E::Member(_) => true,
        E::BinaryOperator(b) => b.node.operator.node == B::Index,
        E::UnaryOperator(u) => u.node.operator.node == U::Indirection,
        _ => false,
    }
}

impl<'t> Forms<'t> {
    /// An expression's source, without whitespace and enclosing parentheses.
    fn src(&self, e: &Node<E>) -> String {
        normalized(self.text.get(e.span.start..e.span.end).unwrap_or(""))
    }

    fn same(&self, a: &Node<E>, b: &Node<E>) -> bool {
        self.src(a) == self.src(b)
    }

    /// Whether `x` occurs in `e` (as a subexpression written the same way).
    fn refers_to(&self, e: &Node<E>, x: &Node<E>) -> bool {
        struct Find<'f, 't> {
            forms: &'f Forms<'t>,
            x: String,
            found: bool,
        }
        impl<'ast> Visit<'ast> for Find<'_, '_> {
            fn visit_expression(&mut self, e: &'ast E, span: &'ast lang_c::span::Span) {
                let src = normalized(self.forms.text.get(span.start..span.end).unwrap_or(""));
                if src == self.x {
                    self.found = true;
                    return;
                }
                lang_c::visit::visit_expression(self, e, span);
            }
        }
        let mut f = Find { forms: self, x: self.src(x), found: false };
        f.visit_expression(&e.node, &e.span);
        f.found
    }

    /// The expression of an expression statement.
    fn expression<'s>(&self, stmt: &'s Node<S>) -> Result<&'s Node<E>, Wrong> {
        match &stmt.node {
            S::Expression(Some(e)) => Ok(e),
            _ => Err(Wrong { message: "the statement after `atomic` must be an expression statement".into(), span: stmt.span }),
        }
    }

    /// `lhs = rhs` (plain assignment).
    fn assignment<'e>(&self, e: &'e Node<E>) -> Option<(&'e Node<E>, &'e Node<E>)> {
        match &e.node {
            E::BinaryOperator(b) if b.node.operator.node == B::Assign => Some((&b.node.lhs, &b.node.rhs)),
            _ => None,
        }
    }

    fn read(&self, stmt: &Node<S>) -> Result<(), Wrong> {
        let e = self.expression(stmt)?;
        match self.assignment(e) {
            Some((v, x)) if is_lvalue(v) && is_lvalue(x) && !self.same(v, x) => Ok(()),
            Some((v, x)) if is_lvalue(v) && is_lvalue(x) => Err(Wrong { message: "`atomic read` reads one variable into another; here both sides are the same".into(), span: e.span }),
            _ => Err(Wrong { message: "`atomic read` must be `v = x;`: an assignment of one scalar variable to another".into(), span: e.span }),
        }
    }

    fn write(&self, stmt: &Node<S>) -> Result<(), Wrong> {
        let e = self.expression(stmt)?;
        self.write_expr(e)
    }

    fn write_expr(&self, e: &Node<E>) -> Result<(), Wrong> {
        match self.assignment(e) {
            Some((x, expr)) if is_lvalue(x) => {
                if self.refers_to(expr, x) {
                    Err(Wrong { message: format!("`{}` appears on the right of `atomic write`: the written value may not refer to `x`", self.src(x)), span: expr.span })
                } else {
                    Ok(())
                }
            }
            _ => Err(Wrong { message: "`atomic write` must be `x = expr;`".into(), span: e.span }),
        }
    }

    fn update_statement(&self, stmt: &Node<S>) -> Result<(), Wrong> {
        let e = self.expression(stmt)?;
        self.update(e).map(|_| ())
    }

    /// An update expression; returns its `x`.
    fn update<'e>(&self, e: &'e Node<E>) -> Result<&'e Node<E>, Wrong> {
        match &e.node {
            E::UnaryOperator(u) if matches!(u.node.operator.node, U::PostIncrement | U::PostDecrement | U::PreIncrement | U::PreDecrement) => {
                if is_lvalue(&u.node.operand) {
                    Ok(&u.node.operand)
                } else {
                    Err(Wrong { message: "the variable updated atomically must be a scalar lvalue".into(), span: u.node.operand.span })
                }
            }
            E::BinaryOperator(b) if is_compound_assign(&b.node.operator.node) => {
                let (x, expr) = (&b.node.lhs, &b.node.rhs);
                if !is_lvalue(x) {
                    return Err(Wrong { message: "the variable updated atomically must be a scalar lvalue".into(), span: x.span });
                }
                if self.refers_to(expr, x) {
                    return Err(Wrong { message: format!("`{}` appears in the expression it is updated with: `x binop= expr` requires `expr` not to refer to `x`", self.src(x)), span: expr.span });
                }
                Ok(x)
            }
            E::BinaryOperator(b) if b.node.operator.node == B::Assign => {
                let (x, rhs) = (&b.node.lhs, &b.node.rhs);
                if !is_lvalue(x) {
                    return Err(Wrong { message: "the variable updated atomically must be a scalar lvalue".into(), span: x.span });
                }
                self.update_rhs(x, rhs)?;
                Ok(x)
            }
            E::BinaryOperator(b) if b.node.operator.node == B::AssignModulo => Err(Wrong { message: "`%=` is not an atomic update operator (allowed: + * - / & ^ | << >>)".into(), span: b.node.operator.span }),
            _ => Err(Wrong { message: "this is not an atomic update: expected `x++`, `x binop= expr` or `x = x binop expr`".into(), span: e.span }),
        }
    }

    /// `rhs` of `x = rhs` in an update: `x binop expr` or `expr binop x`, `expr` not referring
    /// to `x`.
    fn update_rhs(&self, x: &Node<E>, rhs: &Node<E>) -> Result<(), Wrong> {
        if let E::Call(call) = &rhs.node {
            return self.fortran_intrinsic_update(x, call, rhs.span);
        }
        let E::BinaryOperator(b) = &rhs.node else {
            return Err(Wrong { message: format!("`{} = …` under an atomic update must combine `{0}` with an operator: `x = x binop expr`", self.src(x)), span: rhs.span });
        };
        let op = &b.node.operator.node;
        if !is_binop(op) {
            return Err(Wrong { message: "this operator is not an atomic update operator (allowed: + * - / & ^ | << >>)".into(), span: b.node.operator.span });
        }
        let (l, r) = (&b.node.lhs, &b.node.rhs);
        let other = if self.same(l, x) {
            r
        } else if self.same(r, x) {
            l
        } else {
            return Err(Wrong { message: format!("`{} = …` under an atomic update must be `x = x binop expr` or `x = expr binop x`", self.src(x)), span: rhs.span });
        };
        if self.refers_to(other, x) {
            return Err(Wrong { message: format!("`{}` appears in `expr` of `x = x binop expr`: `expr` may not refer to `x`", self.src(x)), span: other.span });
        }
        Ok(())
    }

    /// Fortran's `x = max(x, expr-list)` / `min` form of an atomic update (OpenACC 2.0 §2.12,
    /// Fortran: `x = intrinsic_procedure_name(x, expr-list)`): the Fortran front-end writes it as
    /// a call of its runtime's `_f_atomic_max_*`/`_f_atomic_min_*` with `x` and the rest.
    fn fortran_intrinsic_update(&self, x: &Node<E>, call: &Node<lang_c::ast::CallExpression>, span: lang_c::span::Span) -> Result<(), Wrong> {
        let named = match &call.node.callee.node {
            E::Identifier(id) => id.node.name.starts_with("_f_atomic_max_") || id.node.name.starts_with("_f_atomic_min_"),
            _ => false,
        };
        let args = &call.node.arguments;
        if !named || args.len() != 2 || !self.same(&args[0], x) {
            return Err(Wrong { message: format!("`{} = …` under an atomic update must combine `{0}` with an operator: `x = x binop expr`", self.src(x)), span });
        }
        if self.refers_to(&args[1], x) {
            return Err(Wrong { message: format!("`{}` appears in the other arguments of the intrinsic: they may not refer to `x`", self.src(x)), span: args[1].span });
        }
        Ok(())
    }

    fn capture(&self, stmt: &Node<S>) -> Result<(), Wrong> {
        if let S::Compound(items) = &stmt.node {
            return self.capture_block(stmt, items);
        }
        let e = self.expression(stmt)?;
        let Some((v, rhs)) = self.assignment(e) else {
            return Err(Wrong { message: "`atomic capture` must be `v = x++;`, `v = x binop= expr;`, `v = x = x binop expr;` or a block of two statements".into(), span: e.span });
        };
        if !is_lvalue(v) {
            return Err(Wrong { message: "the captured value must be stored in a scalar lvalue `v`".into(), span: v.span });
        }
        if is_lvalue(rhs) {
            return Err(Wrong { message: "`v = x;` alone is an atomic read: `atomic capture` also updates `x` (`v = x++;`, or a block `{ v = x; x++; }`)".into(), span: e.span });
        }
        let x = self.update(rhs)?;
        if self.same(v, x) {
            return Err(Wrong { message: "`atomic capture` stores into a variable `v` other than the updated `x`".into(), span: v.span });
        }
        Ok(())
    }

    /// `v = x` with two different lvalues: its `(v, x)`.
    fn capture_of<'e>(&self, e: &'e Node<E>) -> Option<(&'e Node<E>, &'e Node<E>)> {
        self.assignment(e).filter(|(v, x)| is_lvalue(v) && is_lvalue(x) && !self.same(v, x))
    }

    /// `{ v = x; update-or-write of x; }` or `{ update of x; v = x; }`.
    fn capture_block(&self, stmt: &Node<S>, items: &[Node<BlockItem>]) -> Result<(), Wrong> {
        let exprs: Vec<&Node<E>> = items
            .iter()
            .filter_map(|i| match &i.node {
                BlockItem::Statement(s) => match &s.node {
                    S::Expression(Some(e)) => Some(&**e),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        let [first, second] = exprs.as_slice() else {
            return Err(Wrong { message: "a structured `atomic capture` block must hold exactly two expression statements".into(), span: stmt.span });
        };
        if items.len() != 2 {
            return Err(Wrong { message: "a structured `atomic capture` block must hold exactly two expression statements".into(), span: stmt.span });
        }
        // { v = x; x update/write } — the first statement captures the old value.
        if let Some((_, x)) = self.capture_of(first) {
            let updated = match self.update(second) {
                Ok(u) => u,
                Err(_) => {
                    self.write_expr(second)?;
                    self.assignment(second).map(|(x, _)| x).unwrap_or(second)
                }
            };
            if self.same(updated, x) {
                return Ok(());
            }
            return Err(Wrong { message: format!("the block captures `{}` but updates `{}`: both statements must use the same `x`", self.src(x), self.src(updated)), span: second.span });
        }
        // { x update; v = x; } — the second captures the new value.
        let updated = self.update(first)?;
        match self.capture_of(second) {
            Some((_, x)) if self.same(x, updated) => Ok(()),
            _ => Err(Wrong { message: format!("the second statement of this `atomic capture` block must be `v = {};`", self.src(updated)), span: second.span }),
        }
    }
}
