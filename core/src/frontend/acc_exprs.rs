//! C expressions inside directive clauses (`num_gangs(n*2)`, `copy(a[0:n])`'s bounds), parsed by
//! lang-c so that lowering treats them exactly like the program's own expressions.
//!
//! lang-c parses only whole translation units, so each unit's clause expressions are parsed once
//! as the statements of one synthetic function, after `typedef int T;` for every typedef name of
//! the unit (so casts parse). A clause expression is found again by (directive id, byte offset of
//! the expression in the directive text).

use std::collections::{HashMap, HashSet};

use lang_c::ast::{self, Expression, TranslationUnit};
use lang_c::span::Node;
use lang_c::visit::Visit;

use crate::directive::{self, ClauseKind, Directive, DirectiveKind, ExprSrc, GangStatic, Section, TileSize, VarRef};

/// Parsed clause expressions of one unit.
#[derive(Default)]
pub struct AccExprs {
    unit: Option<TranslationUnit>,
    /// (directive id, span start) → index of the statement holding the expression.
    index: HashMap<(u32, usize), usize>,
    /// By statement index: the offset in the synthetic text where the expression's text starts
    /// (after the statement's `(`), to map a span of its parse back into the directive text.
    starts: Vec<usize>,
    /// Expressions that do not parse as C: (directive id, span) → message.
    pub errors: Vec<(u32, std::ops::Range<usize>, String)>,
}

impl AccExprs {
    /// The parsed expression at byte `start` of directive `id`'s text.
    pub fn get(&self, id: u32, start: usize) -> Option<&Node<Expression>> {
        self.get_with_origin(id, start).map(|(e, _)| e)
    }

    /// [`AccExprs::get`], with where the expression's text starts in the text it was parsed
    /// from: a span `s` of the expression's parse is byte `s.start - origin` of the expression
    /// as written in the directive (its spans mean nothing in the program's files).
    pub fn get_with_origin(&self, id: u32, start: usize) -> Option<(&Node<Expression>, usize)> {
        let k = *self.index.get(&(id, start))?;
        let origin = *self.starts.get(k)?;
        let unit = self.unit.as_ref()?;
        let ast::ExternalDeclaration::FunctionDefinition(f) = &unit.0.last()?.node else { return None };
        let ast::Statement::Compound(items) = &f.node.statement.node else { return None };
        match &items.get(k)?.node {
            ast::BlockItem::Statement(s) => match &s.node {
                ast::Statement::Expression(Some(e)) => Some((e, origin)),
                _ => None,
            },
            _ => None,
        }
    }
}

/// Every expression of a directive, in order.
pub fn directive_exprs(d: &Directive) -> Vec<&ExprSrc> {
    let mut out = Vec::new();
    fn var<'d>(v: &'d VarRef, out: &mut Vec<&'d ExprSrc>) {
        out.push(&v.base);
        for s in &v.sections {
            match s {
                Section::Index(e) => out.push(e),
                Section::Range { lower, length, .. } => {
                    out.extend(lower.iter());
                    out.extend(length.iter());
                }
            }
        }
    }
    match &d.kind {
        DirectiveKind::Cache(vs) => vs.iter().for_each(|v| var(v, &mut out)),
        DirectiveKind::Wait(Some(es)) => out.extend(es.iter()),
        _ => {}
    }
    for c in &d.clauses {
        match &c.kind {
            ClauseKind::If(e) | ClauseKind::NumGangs(e) | ClauseKind::NumWorkers(e) | ClauseKind::VectorLength(e) | ClauseKind::Collapse(e) => {
                out.push(e)
            }
            ClauseKind::Async(e) | ClauseKind::Worker(e) | ClauseKind::Vector(e) => out.extend(e.iter()),
            ClauseKind::Wait(Some(es)) => out.extend(es.iter()),
            ClauseKind::Reduction { vars, .. }
            | ClauseKind::Data(_, vars)
            | ClauseKind::Private(vars)
            | ClauseKind::FirstPrivate(vars)
            | ClauseKind::UseDevice(vars)
            | ClauseKind::Host(_, vars)
            | ClauseKind::Device(vars) => vars.iter().for_each(|v| var(v, &mut out)),
            ClauseKind::Gang(g) => {
                out.extend(g.num.iter());
                if let Some(GangStatic::Chunk(e)) = &g.static_ {
                    out.push(e);
                }
            }
            ClauseKind::Tile(ts) => out.extend(ts.iter().filter_map(|t| match t {
                TileSize::Size(e) => Some(e),
                TileSize::Any(_) => None,
            })),
            _ => {}
        }
    }
    out
}

struct Typedefs(HashSet<String>);

impl<'ast> Visit<'ast> for Typedefs {
    fn visit_declaration(&mut self, d: &'ast ast::Declaration, span: &'ast lang_c::span::Span) {
        let is_typedef = d.specifiers.iter().any(|s| {
            matches!(&s.node, ast::DeclarationSpecifier::StorageClass(c) if c.node == ast::StorageClassSpecifier::Typedef)
        });
        if is_typedef {
            for id in &d.declarators {
                if let Some(n) = crate::lower::declarator_name(&id.node.declarator.node) {
                    self.0.insert(n.to_string());
                }
            }
        }
        lang_c::visit::visit_declaration(self, d, span)
    }
}

/// Parse the expressions of `directives` (parsed with [`directive::parse_directive`]; `None` for
/// those that did not parse) in the context of `unit`'s typedef names.
pub fn parse(unit: &TranslationUnit, directives: &[Option<Directive>]) -> AccExprs {
    let mut exprs: Vec<(u32, &ExprSrc)> = Vec::new();
    for (i, d) in directives.iter().enumerate() {
        if let Some(d) = d {
            exprs.extend(directive_exprs(d).into_iter().map(|e| (i as u32, e)));
        }
    }
    let mut out = AccExprs::default();
    if exprs.is_empty() {
        return out;
    }
    let mut td = Typedefs(HashSet::new());
    td.visit_translation_unit(unit);
    let mut names: Vec<&String> = td.0.iter().collect();
    names.sort();
    let prefix: String = names.iter().map(|n| format!("typedef int {n};\n")).collect();
    let config = lang_c::driver::Config::with_gcc();
    // The synthetic text, and where each expression's text starts in it.
    let synth = |list: &[(u32, &ExprSrc)]| {
        let mut text = prefix.clone();
        let mut starts = Vec::with_capacity(list.len());
        text.push_str("void __accsim_directive_exprs(void) {\n");
        for (_, e) in list {
            text.push('(');
            starts.push(text.len());
            text.push_str(&e.text.replace('\n', " "));
            text.push_str(");\n");
        }
        text.push_str("}\n");
        (text, starts)
    };
    let (text, starts) = synth(&exprs);
    match lang_c::driver::parse_preprocessed(&config, text) {
        Ok(p) => {
            for (k, (id, e)) in exprs.iter().enumerate() {
                out.index.insert((*id, e.span.start), k);
            }
            out.starts = starts;
            out.unit = Some(p.unit);
        }
        Err(_) => {
            // Find the expressions that do not parse; keep the others.
            let mut good = Vec::new();
            for (id, e) in &exprs {
                match lang_c::driver::parse_preprocessed(&config, synth(&[(*id, e)]).0) {
                    Ok(_) => good.push((*id, *e)),
                    Err(_) => out.errors.push((*id, e.span.clone(), format!("`{}` is not a valid C expression", e.text.trim()))),
                }
            }
            let (text, starts) = synth(&good);
            if let Ok(p) = lang_c::driver::parse_preprocessed(&config, text) {
                for (k, (id, e)) in good.iter().enumerate() {
                    out.index.insert((*id, e.span.start), k);
                }
                out.starts = starts;
                out.unit = Some(p.unit);
            }
        }
    }
    out
}

/// Parse every directive of a unit.
pub fn parse_directives(texts: &[&str]) -> Vec<Result<Directive, directive::DirectiveError>> {
    texts.iter().map(|t| directive::parse_directive(t)).collect()
}
