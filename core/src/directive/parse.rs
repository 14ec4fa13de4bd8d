//! The recursive-descent parser over the lexer's tokens: directive name (§2.1), clauses and their
//! arguments, var-lists with subarrays (§2.6.5), `device_type` groups (§2.4).
//!
//! Arguments are first delimited by bracket matching, then split at top-level commas; each piece
//! becomes an [`ExprSrc`] or a [`VarRef`]. Which clause may appear where is asked of
//! [`super::rules`]; restrictions that involve several clauses are in [`super::check`].

use std::ops::Range;

use super::ast::*;
use super::lexer::{source_text, tokenize, Token, TokenKind};
use super::rules::{self, ClauseName};
use super::suggest::did_you_mean;

/// Parses the text of one directive, the part after `#pragma acc`.
pub fn parse_directive(text: &str) -> Result<Directive, DirectiveError> {
    let tokens = tokenize(text)?;
    let mut p = Parser {
        src: text,
        toks: &tokens,
        pos: 0,
    };
    let (kind, span) = p.directive_name()?;
    let (clauses, groups) = p.clauses(&kind)?;
    let directive = Directive {
        kind,
        clauses,
        span,
    };
    super::check::check_directive(&directive, &groups)?;
    Ok(directive)
}

/// The directive names of chapter 2, for suggestions and help.
const DIRECTIVE_NAMES: &[&str] = &[
    "parallel",
    "kernels",
    "data",
    "enter data",
    "exit data",
    "host_data",
    "loop",
    "parallel loop",
    "kernels loop",
    "cache",
    "atomic",
    "update",
    "wait",
    "declare",
    "routine",
];

struct Parser<'a> {
    src: &'a str,
    toks: &'a [Token],
    pos: usize,
}

/// A clause, or a `device_type` clause that opens a group.
enum Parsed {
    Clause(ClauseKind),
    DeviceType(Vec<DeviceTypeName>),
}

/// The (possibly absent) parenthesized arguments of a clause: token indices of `(` and `)`.
#[derive(Clone, Copy)]
struct Parens {
    open: usize,
    close: usize,
}

impl Parens {
    fn inner(self) -> (usize, usize) {
        (self.open + 1, self.close)
    }
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<&'a Token> {
        self.toks.get(self.pos)
    }

    fn text(&self, tok: &Token) -> &'a str {
        self.src.get(tok.span.clone()).unwrap_or("")
    }

    fn tok_text(&self, i: usize) -> &'a str {
        self.toks.get(i).map_or("", |t| self.text(t))
    }

    fn is_punct(&self, i: usize, p: &str) -> bool {
        self.toks.get(i).is_some_and(|t| t.is_punct(p))
    }

    fn is_ident(&self, i: usize, name: &str) -> bool {
        self.toks
            .get(i)
            .is_some_and(|t| t.kind == TokenKind::Ident && self.text(t) == name)
    }

    fn end_span(&self) -> Range<usize> {
        self.src.len()..self.src.len()
    }

    /// The span of token `i`, or the end of the text.
    fn span_at(&self, i: usize) -> Range<usize> {
        self.toks
            .get(i)
            .map_or_else(|| self.end_span(), |t| t.span.clone())
    }

    /// Span from the start of token `lo` to the end of token `hi - 1` (`lo < hi`).
    fn span_of(&self, lo: usize, hi: usize) -> Range<usize> {
        let start = self.span_at(lo).start;
        let end = if hi > lo {
            self.span_at(hi - 1).end
        } else {
            start
        };
        start..end
    }

    /// Describes token `i` for messages: "`x`" or "the end of the directive".
    fn describe(&self, i: usize) -> String {
        match self.toks.get(i) {
            Some(t) => format!("`{}`", self.text(t)),
            None => "the end of the directive".to_string(),
        }
    }

    // ---------------------------------------------------------------- brackets and lists

    /// Index of the bracket closing the one at `open`; checks that everything between nests.
    fn matching(&self, open: usize) -> Result<usize, DirectiveError> {
        let mut stack: Vec<(usize, &'static str)> = Vec::new();
        let mut i = open;
        while let Some(t) = self.toks.get(i) {
            if let TokenKind::Punct(p) = t.kind {
                match p {
                    "(" => stack.push((i, ")")),
                    "[" => stack.push((i, "]")),
                    "{" => stack.push((i, "}")),
                    ")" | "]" | "}" => {
                        let Some((opened, expected)) = stack.pop() else {
                            return Err(DirectiveError::new(
                                format!("unmatched `{p}`"),
                                t.span.clone(),
                            ));
                        };
                        if p != expected {
                            return Err(DirectiveError::new(
                                format!("mismatched `{p}`: expected `{expected}`"),
                                t.span.clone(),
                            )
                            .with_help(format!(
                                "close the `{}` before this `{p}`",
                                self.tok_text(opened)
                            )));
                        }
                        if stack.is_empty() {
                            return Ok(i);
                        }
                    }
                    _ => {}
                }
            }
            i += 1;
        }
        let (opened, expected) = stack.last().copied().unwrap_or((open, ")"));
        Err(DirectiveError::new(
            format!("unclosed `{}`", self.tok_text(opened)),
            self.span_at(opened),
        )
        .with_help(format!("add `{expected}`")))
    }

    /// Splits tokens `lo..hi` (balanced) at top-level occurrences of punctuator `sep`.
    fn split_top_level(&self, lo: usize, hi: usize, sep: &str) -> Vec<(usize, usize)> {
        let mut parts = Vec::new();
        let mut depth = 0usize;
        let mut start = lo;
        for i in lo..hi {
            let Some(t) = self.toks.get(i) else { break };
            match t.kind {
                TokenKind::Punct("(" | "[" | "{") => depth += 1,
                TokenKind::Punct(")" | "]" | "}") => depth = depth.saturating_sub(1),
                TokenKind::Punct(p) if p == sep && depth == 0 => {
                    parts.push((start, i));
                    start = i + 1;
                }
                _ => {}
            }
        }
        parts.push((start, hi));
        parts
    }

    /// The top-level `:`s in `lo..hi` that do not belong to a `?:` conditional.
    fn section_colon(&self, lo: usize, hi: usize) -> Vec<usize> {
        let mut colons = Vec::new();
        let mut depth = 0usize;
        let mut pending_conditionals = 0usize;
        for i in lo..hi {
            let Some(t) = self.toks.get(i) else { break };
            match t.kind {
                TokenKind::Punct("(" | "[" | "{") => depth += 1,
                TokenKind::Punct(")" | "]" | "}") => depth = depth.saturating_sub(1),
                TokenKind::Punct("?") if depth == 0 => pending_conditionals += 1,
                TokenKind::Punct(":") if depth == 0 => {
                    if pending_conditionals > 0 {
                        pending_conditionals -= 1;
                    } else {
                        colons.push(i);
                    }
                }
                _ => {}
            }
        }
        colons
    }

    fn expr_src(&self, lo: usize, hi: usize) -> ExprSrc {
        let span = self.span_of(lo, hi);
        ExprSrc {
            text: source_text(self.src, span.clone()),
            span,
        }
    }

    /// One expression in tokens `lo..hi`; `what` names it for messages.
    fn expr(&self, lo: usize, hi: usize, what: &str) -> Result<ExprSrc, DirectiveError> {
        if lo >= hi {
            return Err(DirectiveError::new(
                format!("expected {what}"),
                self.span_at(lo),
            ));
        }
        // A top-level `:` outside `?:` cannot be part of a C expression; it is a misplaced
        // keyword argument or subarray.
        if let Some(&colon) = self.section_colon(lo, hi).first() {
            return Err(DirectiveError::new(
                format!("unexpected `:` in {what}"),
                self.span_at(colon),
            ));
        }
        Ok(self.expr_src(lo, hi))
    }

    /// The single expression argument of `clause(expr)`.
    fn single_expr(
        &self,
        parens: Parens,
        clause: &str,
        what: &str,
    ) -> Result<ExprSrc, DirectiveError> {
        let (lo, hi) = parens.inner();
        if lo == hi {
            return Err(self.empty_parens(parens, clause, what));
        }
        let parts = self.split_top_level(lo, hi, ",");
        if let [(_, comma), _, ..] = parts.as_slice() {
            let comma = *comma;
            return Err(DirectiveError::new(
                format!("`{clause}` takes one argument, found a list"),
                self.span_of(comma, hi),
            )
            .with_help(format!("write `{clause}({what})`")));
        }
        self.expr(lo, hi, what)
    }

    fn empty_parens(&self, parens: Parens, clause: &str, what: &str) -> DirectiveError {
        DirectiveError::new(
            format!("empty argument list in `{clause}`"),
            self.span_of(parens.open, parens.close + 1),
        )
        .with_help(format!("write `{clause}({what})`"))
    }

    /// The comma-separated items of a non-empty list in `parens`; each item is non-empty.
    fn list_items(
        &self,
        parens: Parens,
        clause: &str,
        what: &str,
    ) -> Result<Vec<(usize, usize)>, DirectiveError> {
        let (lo, hi) = parens.inner();
        if lo == hi {
            return Err(self.empty_parens(parens, clause, what));
        }
        let parts = self.split_top_level(lo, hi, ",");
        for &(a, b) in &parts {
            if a == b {
                return Err(DirectiveError::new(
                    format!("empty item in the list of `{clause}`"),
                    self.span_at(a.min(hi)),
                )
                .with_help(format!("expected {what} between the commas")));
            }
        }
        Ok(parts)
    }

    fn expr_list(
        &self,
        parens: Parens,
        clause: &str,
        what: &str,
    ) -> Result<Vec<ExprSrc>, DirectiveError> {
        self.list_items(parens, clause, what)?
            .into_iter()
            .map(|(a, b)| self.expr(a, b, what))
            .collect()
    }

    fn var_list(&self, parens: Parens, clause: &str) -> Result<Vec<VarRef>, DirectiveError> {
        self.list_items(parens, clause, "var-list")?
            .into_iter()
            .map(|(a, b)| self.var_ref(a, b))
            .collect()
    }

    // ---------------------------------------------------------------- var-lists (§2.6.5)

    /// A variable, member or (sub)array reference in tokens `lo..hi` (non-empty, balanced).
    fn var_ref(&self, lo: usize, hi: usize) -> Result<VarRef, DirectiveError> {
        let span = self.span_of(lo, hi);
        let mut first_bracket = None;
        let mut depth = 0usize;
        for i in lo..hi {
            match self.toks.get(i).map(|t| t.kind) {
                Some(TokenKind::Punct("[")) if depth == 0 => {
                    first_bracket = Some(i);
                    break;
                }
                Some(TokenKind::Punct("(" | "{")) => depth += 1,
                Some(TokenKind::Punct(")" | "}")) => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        let base_end = first_bracket.unwrap_or(hi);
        if base_end == lo {
            return Err(DirectiveError::new(
                "expected a variable name before `[`",
                self.span_at(lo),
            )
            .with_help("a subarray is written `name[lower:length]` (§2.6.5)"));
        }
        self.check_base(lo, base_end)?;
        let base = self.expr_src(lo, base_end);

        let mut sections = Vec::new();
        let mut i = base_end;
        while i < hi && self.is_punct(i, "[") {
            let close = self.matching(i)?;
            if close >= hi {
                return Err(
                    DirectiveError::new("unclosed `[`", self.span_at(i)).with_help("add `]`")
                );
            }
            sections.push(self.section(i, close)?);
            i = close + 1;
        }
        if i < hi {
            self.postfix_chain(i, hi, true)
                .map_err(|at| self.bad_var(lo, hi, at))?;
            if sections.iter().any(|s| matches!(s, Section::Range { .. })) {
                // §2.6.5: "Members of a subarray of struct or class type may not be specified."
                return Err(DirectiveError::new(
                    "a member of a subarray may not be specified",
                    self.span_of(i, hi),
                )
                .with_help("list the struct array (or its subarray) itself (§2.6.5)"));
            }
            // An array element's member, `a[i].x`: the whole lvalue is the base.
            return Ok(VarRef {
                base: self.expr_src(lo, hi),
                sections: Vec::new(),
                span,
            });
        }
        Ok(VarRef {
            base,
            sections,
            span,
        })
    }

    /// Checks that `lo..hi` is `name`, `(expr)`, followed by `.member` / `->member` accesses.
    fn check_base(&self, lo: usize, hi: usize) -> Result<(), DirectiveError> {
        let i = match self.toks.get(lo).map(|t| t.kind) {
            Some(TokenKind::Ident) => lo + 1,
            Some(TokenKind::Punct("(")) => {
                let close = self.matching(lo)?;
                if close >= hi || close == lo + 1 {
                    return Err(self.bad_var(lo, hi, lo));
                }
                close + 1
            }
            _ => return Err(self.bad_var(lo, hi, lo)),
        };
        self.postfix_chain(i, hi, false)
            .map_err(|at| self.bad_var(lo, hi, at))
    }

    /// Checks that tokens `i..hi` are a chain of `.member`, `->member` and, if `subscripts`,
    /// `[...]`; on failure, the index of the first token that does not fit.
    fn postfix_chain(&self, mut i: usize, hi: usize, subscripts: bool) -> Result<(), usize> {
        while i < hi {
            let member = (self.is_punct(i, ".") || self.is_punct(i, "->"))
                && i + 1 < hi
                && self
                    .toks
                    .get(i + 1)
                    .is_some_and(|t| t.kind == TokenKind::Ident);
            if member {
                i += 2;
            } else if subscripts && self.is_punct(i, "[") {
                match self.matching(i) {
                    Ok(close) if close < hi => i = close + 1,
                    _ => return Err(i),
                }
            } else {
                return Err(i);
            }
        }
        Ok(())
    }

    /// "expected a variable …" for the var-list item `lo..hi`, pointing at token `at`.
    fn bad_var(&self, lo: usize, hi: usize, at: usize) -> DirectiveError {
        DirectiveError::new(
            format!(
                "expected a variable, member or array name, found `{}`",
                source_text(self.src, self.span_of(lo, hi))
            ),
            self.span_at(at),
        )
        .with_help(
            "a var-list holds variables, struct members and subarrays such as `a[0:n]` (§2.6.5)",
        )
    }

    /// One `[...]` subscript; `open` and `close` are the bracket tokens.
    fn section(&self, open: usize, close: usize) -> Result<Section, DirectiveError> {
        let span = self.span_of(open, close + 1);
        let (lo, hi) = (open + 1, close);
        if lo == hi {
            return Err(DirectiveError::new("empty subscript `[]`", span)
                .with_help("write an index `[i]` or a subarray `[lower:length]`"));
        }
        let colons = self.section_colon(lo, hi);
        match colons.as_slice() {
            [] => Ok(Section::Index(self.expr_src(lo, hi))),
            [colon] => {
                let lower = (lo < *colon).then(|| self.expr_src(lo, *colon));
                let length = (colon + 1 < hi).then(|| self.expr_src(colon + 1, hi));
                Ok(Section::Range {
                    lower,
                    length,
                    span,
                })
            }
            [_, second, ..] => Err(DirectiveError::new(
                "a subarray has the form `[lower:length]`; found a second `:`",
                self.span_at(*second),
            )
            .with_help("OpenACC 2.0 subarrays have no stride")),
        }
    }

    // ---------------------------------------------------------------- directive name (§2.1)

    fn directive_name(&mut self) -> Result<(DirectiveKind, Range<usize>), DirectiveError> {
        let Some(tok) = self.peek() else {
            return Err(DirectiveError::new(
                "expected a directive name after `#pragma acc`",
                self.end_span(),
            )
            .with_help(format!("directives: {}", DIRECTIVE_NAMES.join(", "))));
        };
        if tok.kind != TokenKind::Ident {
            return Err(DirectiveError::new(
                format!("expected a directive name, found `{}`", self.text(tok)),
                tok.span.clone(),
            ));
        }
        let name = self.text(tok);
        let start = tok.span.clone();
        self.pos += 1;
        let follows = |p: &Self, word: &str| p.is_ident(p.pos, word);
        let kind = match name {
            "parallel" | "kernels" => {
                let combined = follows(self, "loop");
                let span = if combined {
                    self.pos += 1;
                    start.start..self.span_at(self.pos - 1).end
                } else {
                    start
                };
                let kind = match (name, combined) {
                    ("parallel", false) => DirectiveKind::Parallel,
                    ("parallel", true) => DirectiveKind::ParallelLoop,
                    (_, false) => DirectiveKind::Kernels,
                    (_, true) => DirectiveKind::KernelsLoop,
                };
                return Ok((kind, span));
            }
            "enter" | "exit" => {
                if !follows(self, "data") {
                    return Err(DirectiveError::new(
                        format!(
                            "expected `data` after `{name}`, found {}",
                            self.describe(self.pos)
                        ),
                        self.span_at(self.pos),
                    )
                    .with_help(format!("the directive is `{name} data`")));
                }
                self.pos += 1;
                let span = start.start..self.span_at(self.pos - 1).end;
                let kind = if name == "enter" {
                    DirectiveKind::EnterData
                } else {
                    DirectiveKind::ExitData
                };
                return Ok((kind, span));
            }
            "data" => DirectiveKind::Data,
            "host_data" => DirectiveKind::HostData,
            "loop" => DirectiveKind::Loop,
            "update" => DirectiveKind::Update,
            "declare" => DirectiveKind::Declare,
            "atomic" => DirectiveKind::Atomic(self.atomic_clause()?),
            "cache" => DirectiveKind::Cache(self.cache_args()?),
            "wait" => DirectiveKind::Wait(self.wait_args()?),
            "routine" => DirectiveKind::Routine(self.routine_name()?),
            _ => {
                let mut err =
                    DirectiveError::new(format!("unknown directive `{name}`"), start.clone());
                // The first words of the directive names.
                let candidates = [
                    "parallel",
                    "kernels",
                    "data",
                    "enter",
                    "exit",
                    "host_data",
                    "loop",
                    "cache",
                    "atomic",
                    "update",
                    "wait",
                    "declare",
                    "routine",
                ];
                if let Some(s) = did_you_mean(name, &candidates) {
                    err = err.with_help(s);
                } else {
                    err = err.with_help(format!("directives: {}", DIRECTIVE_NAMES.join(", ")));
                }
                return Err(err);
            }
        };
        Ok((kind, start))
    }

    /// `atomic [read | write | update | capture]`.
    fn atomic_clause(&mut self) -> Result<AtomicKind, DirectiveError> {
        let Some(tok) = self.peek() else {
            return Ok(AtomicKind::Update);
        };
        let kind = match self.text(tok) {
            "read" => AtomicKind::Read,
            "write" => AtomicKind::Write,
            "update" => AtomicKind::Update,
            "capture" => AtomicKind::Capture,
            other => {
                let mut err = DirectiveError::new(
                    format!("expected `read`, `write`, `update` or `capture` after `atomic`, found `{other}`"),
                    tok.span.clone(),
                );
                if tok.kind == TokenKind::Ident {
                    if let Some(s) = did_you_mean(other, &["read", "write", "update", "capture"]) {
                        err = err.with_help(s);
                    }
                }
                return Err(err);
            }
        };
        self.pos += 1;
        Ok(kind)
    }

    /// A required `(...)` after a directive or clause name at `self.pos`; advances past it.
    fn required_parens(&mut self, owner: &str, form: &str) -> Result<Parens, DirectiveError> {
        if !self.is_punct(self.pos, "(") {
            let prev = self.span_at(self.pos.saturating_sub(1));
            return Err(DirectiveError::new(
                format!("`{owner}` requires an argument in parentheses"),
                prev,
            )
            .with_help(format!("write `{form}`")));
        }
        self.optional_parens()
            .map(|p| p.unwrap_or(Parens { open: 0, close: 0 }))
    }

    /// An optional `(...)` at `self.pos`; advances past it.
    fn optional_parens(&mut self) -> Result<Option<Parens>, DirectiveError> {
        if !self.is_punct(self.pos, "(") {
            return Ok(None);
        }
        let open = self.pos;
        let close = self.matching(open)?;
        self.pos = close + 1;
        Ok(Some(Parens { open, close }))
    }

    /// §2.8: `cache(var-list)`.
    fn cache_args(&mut self) -> Result<Vec<VarRef>, DirectiveError> {
        let parens = self.required_parens("cache", "cache(a[lower:length], ...)")?;
        self.var_list(parens, "cache")
    }

    /// §2.13.3: `wait [(int-expr-list)]`.
    fn wait_args(&mut self) -> Result<Option<Vec<ExprSrc>>, DirectiveError> {
        match self.optional_parens()? {
            None => Ok(None),
            Some(p) => self.expr_list(p, "wait", "int-expr-list").map(Some),
        }
    }

    /// §2.12.1: `routine [(name)]`.
    fn routine_name(&mut self) -> Result<Option<RoutineName>, DirectiveError> {
        let Some(p) = self.optional_parens()? else {
            return Ok(None);
        };
        let (lo, hi) = p.inner();
        if lo == hi {
            return Err(self.empty_parens(p, "routine", "name"));
        }
        match self.toks.get(lo) {
            Some(t) if t.kind == TokenKind::Ident && hi == lo + 1 => Ok(Some(RoutineName {
                name: self.text(t).to_string(),
                span: t.span.clone(),
            })),
            _ => Err(DirectiveError::new(
                "expected a function name in `routine(name)`",
                self.span_of(lo, hi),
            )),
        }
    }

    // ---------------------------------------------------------------- clauses

    /// All clauses up to the end. Returns them with the `device_type` group index of each
    /// (0: before any `device_type`).
    fn clauses(
        &mut self,
        kind: &DirectiveKind,
    ) -> Result<(Vec<Clause>, Vec<usize>), DirectiveError> {
        let mut clauses = Vec::new();
        let mut groups = Vec::new();
        let mut group: Option<Vec<DeviceTypeName>> = None;
        let mut group_index = 0;
        let takes_clauses = !rules::allowed_names(kind).is_empty();
        let dname = kind.name();
        let mut first = true;
        while let Some(tok) = self.peek() {
            if !takes_clauses {
                return Err(DirectiveError::new(
                    format!(
                        "the `{dname}` directive takes no clauses, found `{}`",
                        self.text(tok)
                    ),
                    tok.span.clone(),
                ));
            }
            // §2.1: `clause [[,] clause]...`
            if !first && tok.is_punct(",") {
                self.pos += 1;
                if self.peek().is_none() {
                    return Err(DirectiveError::new(
                        "expected a clause after `,`",
                        tok.span.clone(),
                    ));
                }
            }
            first = false;
            let Some(tok) = self.peek() else { break };
            if tok.kind != TokenKind::Ident {
                return Err(DirectiveError::new(
                    format!("expected a clause, found `{}`", self.text(tok)),
                    tok.span.clone(),
                ));
            }
            let word = self.text(tok);
            let Some((name, spelling)) = ClauseName::lookup(word) else {
                let mut err = DirectiveError::new(
                    format!("unknown clause `{word}` on `{dname}`"),
                    tok.span.clone(),
                );
                if let Some(s) = did_you_mean(word, &rules::allowed_spellings(kind)) {
                    err = err.with_help(s);
                }
                return Err(err);
            };
            let name_span = tok.span.clone();
            self.pos += 1;
            // Arguments first, so that an error covers the whole clause; but a clause that does
            // not belong here is reported as such even when its arguments are also wrong.
            let parsed = if name == ClauseName::DeviceType {
                self.device_type_args(spelling).map(Parsed::DeviceType)
            } else {
                self.clause_args(name, spelling).map(Parsed::Clause)
            };
            let span = match parsed {
                Ok(_) => name_span.start..self.span_at(self.pos - 1).end,
                Err(_) => name_span,
            };
            if !rules::allowed(kind, name) {
                return Err(self.not_allowed(kind, spelling, span));
            }
            let clause_kind = match parsed? {
                Parsed::Clause(clause_kind) => clause_kind,
                Parsed::DeviceType(device_types) => {
                    group = Some(device_types);
                    group_index += 1;
                    continue;
                }
            };
            if group.is_some() && !rules::allowed_after_device_type(kind, name) {
                let only = rules::allowed_after_device_type_names(kind);
                return Err(DirectiveError::new(
                    format!("`{spelling}` may not follow a `device_type` clause on `{dname}`"),
                    span,
                )
                .with_help(format!(
                    "only {} may follow `device_type` here (§2.4); move `{spelling}` before the first `device_type`",
                    quoted_list(&only)
                )));
            }
            clauses.push(Clause {
                kind: clause_kind,
                span,
                spelling,
                device_types: group.clone(),
            });
            groups.push(group_index);
        }
        Ok((clauses, groups))
    }

    fn not_allowed(
        &self,
        kind: &DirectiveKind,
        spelling: &str,
        span: Range<usize>,
    ) -> DirectiveError {
        let names = rules::allowed_names(kind);
        DirectiveError::new(
            format!(
                "clause `{spelling}` is not allowed on the `{}` directive",
                kind.name()
            ),
            span,
        )
        .with_help(format!("`{}` takes {}", kind.name(), quoted_list(&names)))
    }

    /// `device_type(*)` or `device_type(name, ...)` (§2.4).
    fn device_type_args(&mut self, spelling: &str) -> Result<Vec<DeviceTypeName>, DirectiveError> {
        let form = format!("{spelling}(nvidia) or {spelling}(*)");
        let parens = self.required_parens(spelling, &form)?;
        let items = self.list_items(parens, spelling, "a device type")?;
        let mut names = Vec::new();
        for &(a, b) in &items {
            let tok = self.toks.get(a);
            match tok {
                Some(t) if b == a + 1 && t.is_punct("*") => {
                    if items.len() > 1 {
                        return Err(DirectiveError::new(
                            format!("`*` must be the only argument of `{spelling}`"),
                            t.span.clone(),
                        ));
                    }
                    names.push(DeviceTypeName::Any);
                }
                Some(t) if b == a + 1 && t.kind == TokenKind::Ident => {
                    names.push(DeviceTypeName::Named(self.text(t).to_string()));
                }
                _ => {
                    return Err(DirectiveError::new(
                        format!("expected a device type name or `*` in `{spelling}`"),
                        self.span_of(a, b),
                    ))
                }
            }
        }
        Ok(names)
    }

    /// The arguments of clause `name` at `self.pos` (just after its name).
    fn clause_args(
        &mut self,
        name: ClauseName,
        spelling: &'static str,
    ) -> Result<ClauseKind, DirectiveError> {
        use ClauseName as C;
        let kind = match name {
            C::If => ClauseKind::If(self.expr_arg(spelling, "condition")?),
            C::NumGangs => ClauseKind::NumGangs(self.expr_arg(spelling, "int-expr")?),
            C::NumWorkers => ClauseKind::NumWorkers(self.expr_arg(spelling, "int-expr")?),
            C::VectorLength => ClauseKind::VectorLength(self.expr_arg(spelling, "int-expr")?),
            C::Collapse => ClauseKind::Collapse(self.expr_arg(spelling, "n")?),
            C::Async => match self.optional_parens()? {
                None => ClauseKind::Async(None),
                Some(p) => ClauseKind::Async(Some(self.single_expr(p, spelling, "int-expr")?)),
            },
            C::Wait => match self.optional_parens()? {
                None => ClauseKind::Wait(None),
                Some(p) => ClauseKind::Wait(Some(self.expr_list(p, spelling, "int-expr-list")?)),
            },
            C::Reduction => self.reduction()?,
            C::Data(d) => ClauseKind::Data(d, self.var_list_arg(spelling)?),
            C::Private => ClauseKind::Private(self.var_list_arg(spelling)?),
            C::FirstPrivate => ClauseKind::FirstPrivate(self.var_list_arg(spelling)?),
            C::UseDevice => ClauseKind::UseDevice(self.var_list_arg(spelling)?),
            C::Device => ClauseKind::Device(self.var_list_arg(spelling)?),
            C::Host => {
                let which = match spelling {
                    "self" => HostSpelling::SelfClause,
                    "local" => HostSpelling::Local,
                    _ => HostSpelling::Host,
                };
                ClauseKind::Host(which, self.var_list_arg(spelling)?)
            }
            C::Default => self.default()?,
            C::Gang => ClauseKind::Gang(self.gang()?),
            C::Worker => ClauseKind::Worker(self.level_arg(spelling, "num")?),
            C::Vector => ClauseKind::Vector(self.level_arg(spelling, "length")?),
            C::Seq => self.no_args(spelling, ClauseKind::Seq)?,
            C::Auto => self.no_args(spelling, ClauseKind::Auto)?,
            C::Independent => self.no_args(spelling, ClauseKind::Independent)?,
            C::NoHost => self.no_args(spelling, ClauseKind::NoHost)?,
            C::Tile => self.tile()?,
            C::Bind => self.bind()?,
            // Handled by the caller; kept total for robustness.
            C::DeviceType => {
                return Err(DirectiveError::new(
                    "unexpected `device_type`",
                    self.span_at(self.pos - 1),
                ))
            }
        };
        Ok(kind)
    }

    fn expr_arg(&mut self, clause: &str, what: &str) -> Result<ExprSrc, DirectiveError> {
        let p = self.required_parens(clause, &format!("{clause}({what})"))?;
        self.single_expr(p, clause, what)
    }

    fn var_list_arg(&mut self, clause: &str) -> Result<Vec<VarRef>, DirectiveError> {
        let p = self.required_parens(clause, &format!("{clause}(var-list)"))?;
        self.var_list(p, clause)
    }

    fn no_args(&mut self, clause: &str, kind: ClauseKind) -> Result<ClauseKind, DirectiveError> {
        if let Some(p) = self.optional_parens()? {
            return Err(DirectiveError::new(
                format!("`{clause}` takes no arguments"),
                self.span_of(p.open, p.close + 1),
            )
            .with_help(format!("write `{clause}`")));
        }
        Ok(kind)
    }

    /// `default(none)` (§2.5.12).
    fn default(&mut self) -> Result<ClauseKind, DirectiveError> {
        let p = self.required_parens("default", "default(none)")?;
        let (lo, hi) = p.inner();
        if lo == hi {
            return Err(self.empty_parens(p, "default", "none"));
        }
        if hi == lo + 1 && self.is_ident(lo, "none") {
            return Ok(ClauseKind::DefaultNone);
        }
        let found = source_text(self.src, self.span_of(lo, hi));
        let mut err = DirectiveError::new(
            format!("`default({found})` is not OpenACC 2.0: the only form is `default(none)`"),
            self.span_of(lo, hi),
        );
        err = if found == "present" {
            err.with_help("`default(present)` was added in OpenACC 2.5; use `default(none)` and list the data")
        } else {
            err.with_help("write `default(none)`")
        };
        Err(err)
    }

    /// `reduction(op:var-list)` (§2.5.11).
    fn reduction(&mut self) -> Result<ClauseKind, DirectiveError> {
        let p = self.required_parens("reduction", "reduction(+:var-list)")?;
        let (lo, hi) = p.inner();
        if lo == hi {
            return Err(self.empty_parens(p, "reduction", "operator:var-list"));
        }
        let colon = (lo..hi).find(|&i| self.is_punct(i, ":"));
        let Some(colon) = colon else {
            return Err(DirectiveError::new(
                "expected `operator:` in `reduction`",
                self.span_of(lo, hi),
            )
            .with_help("write `reduction(+:sum)`; the operators are + * max min & | ^ && ||"));
        };
        let valid = "the operators are + * max min & | ^ && || (§2.5.11)";
        if colon == lo {
            return Err(DirectiveError::new(
                "missing reduction operator before `:`",
                self.span_at(colon),
            )
            .with_help(valid));
        }
        let op_span = self.span_of(lo, colon);
        let op_text = source_text(self.src, op_span.clone());
        let op = if colon == lo + 1 {
            ReductionOp::from_spelling(&op_text)
        } else {
            None
        };
        let Some(op) = op else {
            let mut err =
                DirectiveError::new(format!("unknown reduction operator `{op_text}`"), op_span);
            let names: Vec<&str> = ReductionOp::ALL.iter().map(|(_, s)| *s).collect();
            err = match did_you_mean(&op_text, &names).filter(|_| {
                colon == lo + 1
                    && self
                        .toks
                        .get(lo)
                        .is_some_and(|t| t.kind == TokenKind::Ident)
            }) {
                Some(s) => err.with_help(format!("{s} {valid}")),
                None => err.with_help(valid),
            };
            return Err(err);
        };
        let vars_parens = Parens {
            open: colon,
            close: hi,
        };
        let vars = self.var_list(vars_parens, "reduction")?;
        Ok(ClauseKind::Reduction { op, op_span, vars })
    }

    /// `gang [( [num:]int-expr [, static:(int-expr|*)] )]` (§2.7.2).
    fn gang(&mut self) -> Result<GangArgs, DirectiveError> {
        let mut args = GangArgs::default();
        let Some(p) = self.optional_parens()? else {
            return Ok(args);
        };
        for (a, b) in self.list_items(p, "gang", "[num:]int-expr or static:chunk")? {
            let keyword = self.keyword_arg(a, &["num", "static"]);
            match keyword {
                Some(("static", value_lo)) => {
                    if args.static_.is_some() {
                        return Err(DirectiveError::new(
                            "duplicate `static:` argument in `gang`",
                            self.span_of(a, b),
                        ));
                    }
                    let value = if b == value_lo + 1 && self.is_punct(value_lo, "*") {
                        GangStatic::Any(self.span_at(value_lo))
                    } else {
                        GangStatic::Chunk(self.expr(
                            value_lo,
                            b,
                            "a chunk size or `*` after `static:`",
                        )?)
                    };
                    args.static_ = Some(value);
                }
                other => {
                    let value_lo = other.map_or(a, |(_, v)| v);
                    if args.num.is_some() {
                        return Err(DirectiveError::new(
                            "duplicate `num` argument in `gang`",
                            self.span_of(a, b),
                        )
                        .with_help(
                            "`gang` takes one `[num:]int-expr` and one `static:` argument",
                        ));
                    }
                    args.num = Some(self.expr(value_lo, b, "an int-expr after `num:`")?);
                }
            }
        }
        Ok(args)
    }

    /// `worker [( [num:]int-expr )]`, `vector [( [length:]int-expr )]` (§2.7.3, §2.7.4).
    fn level_arg(
        &mut self,
        clause: &str,
        keyword: &'static str,
    ) -> Result<Option<ExprSrc>, DirectiveError> {
        let Some(p) = self.optional_parens()? else {
            return Ok(None);
        };
        let (lo, hi) = p.inner();
        if lo == hi {
            return Err(self.empty_parens(p, clause, &format!("[{keyword}:]int-expr")));
        }
        let value_lo = match self.keyword_arg(lo, &[keyword]) {
            Some((_, v)) => v,
            None => {
                if let Some(Token {
                    kind: TokenKind::Ident,
                    ..
                }) = self.toks.get(lo)
                {
                    if self.is_punct(lo + 1, ":") {
                        return Err(DirectiveError::new(
                            format!(
                                "unknown argument keyword `{}:` in `{clause}`",
                                self.tok_text(lo)
                            ),
                            self.span_of(lo, lo + 2),
                        )
                        .with_help(format!(
                            "write `{clause}({keyword}:int-expr)` or `{clause}(int-expr)`"
                        )));
                    }
                }
                lo
            }
        };
        let parens = Parens {
            open: value_lo - 1,
            close: hi,
        };
        Ok(Some(self.single_expr(parens, clause, "int-expr")?))
    }

    /// If tokens `a..` start with `keyword :` for one of `keywords`, that keyword and the index
    /// of the value's first token.
    fn keyword_arg(&self, a: usize, keywords: &[&'static str]) -> Option<(&'static str, usize)> {
        let word = self
            .toks
            .get(a)
            .filter(|t| t.kind == TokenKind::Ident)
            .map(|t| self.text(t))?;
        let keyword = keywords.iter().find(|k| **k == word)?;
        self.is_punct(a + 1, ":").then_some((keyword, a + 2))
    }

    /// `tile(size-list)` (§2.7.7).
    fn tile(&mut self) -> Result<ClauseKind, DirectiveError> {
        let p = self.required_parens("tile", "tile(size, ...)")?;
        let sizes = self
            .list_items(p, "tile", "a tile size or `*`")?
            .into_iter()
            .map(|(a, b)| {
                if b == a + 1 && self.is_punct(a, "*") {
                    Ok(TileSize::Any(self.span_at(a)))
                } else {
                    self.expr(a, b, "a tile size").map(TileSize::Size)
                }
            })
            .collect::<Result<_, _>>()?;
        Ok(ClauseKind::Tile(sizes))
    }

    /// `bind(name)` or `bind("string")` (§2.12.1.5).
    fn bind(&mut self) -> Result<ClauseKind, DirectiveError> {
        let p = self.required_parens("bind", "bind(name)")?;
        let (lo, hi) = p.inner();
        if lo == hi {
            return Err(self.empty_parens(p, "bind", "name"));
        }
        let name = match self.toks.get(lo) {
            Some(t) if hi == lo + 1 && t.kind == TokenKind::Ident => BindName::Identifier {
                name: self.text(t).to_string(),
                span: t.span.clone(),
            },
            Some(t) if hi == lo + 1 && t.kind == TokenKind::Str => {
                let lit = self.text(t);
                BindName::String {
                    value: lit
                        .get(1..lit.len().saturating_sub(1))
                        .unwrap_or("")
                        .to_string(),
                    span: t.span.clone(),
                }
            }
            _ => {
                return Err(DirectiveError::new(
                    "expected an identifier or a string literal in `bind`",
                    self.span_of(lo, hi),
                )
                .with_help("write `bind(name)` or `bind(\"name\")`"))
            }
        };
        Ok(ClauseKind::Bind(name))
    }
}

/// "`a`, `b` and `c`".
pub(crate) fn quoted_list(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.split_last() {
        None => "no clauses".to_string(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}
