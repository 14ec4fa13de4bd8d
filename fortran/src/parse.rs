//! Program units and statements from logical statements. Keywords are recognised by position
//! (Fortran has no reserved words): an assignment is recognised first (`name[(…)] = …`).

use crate::ast::*;
use crate::expr_parse::{Cursor, PResult};
use crate::lexer::{tokenize, Tok, Token};
use crate::source::Logical;

/// A parse error: line, column (0-based) and message.
#[derive(Debug, Clone)]
pub struct ParseError {
    pub line: u32,
    pub col: usize,
    pub message: String,
}

struct Parser<'a> {
    lines: &'a [Logical],
    pos: usize,
    /// The `format` statements of the file: (line, label, format text with its parentheses).
    formats: Vec<(u32, u32, String)>,
}

/// Split `toks` at the commas outside parentheses.
fn split_top_commas(toks: &[Token]) -> Vec<&[Token]> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, t) in toks.iter().enumerate() {
        match t.tok {
            Tok::P("(") | Tok::P("(/") | Tok::P("[") => depth += 1,
            Tok::P(")") | Tok::P("/)") | Tok::P("]") => depth -= 1,
            Tok::P(",") if depth == 0 => {
                parts.push(&toks[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&toks[start..]);
    parts
}

/// The rest of a `data` statement (Fortran 2003 §5.2.5): `objects /values/ [[,] objects /values/]…`.
fn data_statement(toks: &[Token], line: u32) -> Result<DataStmt, ParseError> {
    let mut objects = Vec::new();
    let mut values = Vec::new();
    let mut i = 0;
    let one = |part: &[Token]| -> Result<Expr, ParseError> {
        let mut c = Cursor::new(part, part.last().map_or(0, |t| t.col + 1));
        let e = c.expr().or_else(|r| err(line, r))?;
        c.expect_end().or_else(|r| err(line, r))?;
        Ok(e)
    };
    while i < toks.len() {
        if matches!(toks[i].tok, Tok::P(",")) {
            i += 1;
            continue;
        }
        // Objects up to the first `/` outside parentheses.
        let mut depth = 0;
        let start = i;
        while i < toks.len() && !(depth == 0 && matches!(toks[i].tok, Tok::P("/"))) {
            match toks[i].tok {
                Tok::P("(") => depth += 1,
                Tok::P(")") => depth -= 1,
                _ => {}
            }
            i += 1;
        }
        if i >= toks.len() {
            return err(line, (0, "a `data` statement needs its values between slashes (`data x /1.0/`)".into()));
        }
        for part in split_top_commas(&toks[start..i]) {
            if matches!(part.first().map(|t| &t.tok), Some(Tok::P("("))) {
                return err(line, (part[0].col, "implied-do lists in `data` statements are not supported by accsim's Fortran front-end".into()));
            }
            objects.push(one(part)?);
        }
        i += 1;
        let vstart = i;
        while i < toks.len() && !matches!(toks[i].tok, Tok::P("/")) {
            i += 1;
        }
        if i >= toks.len() {
            return err(line, (0, "the values of a `data` statement end with `/`".into()));
        }
        for part in split_top_commas(&toks[vstart..i]) {
            // `r*c`: the constant c repeated r times.
            if let (Some(Tok::Int(r, None)), Some(Tok::P("*"))) = (part.first().map(|t| &t.tok), part.get(1).map(|t| &t.tok)) {
                let r: u32 = r.parse().map_err(|_| perr(line, (part[0].col, "a repeat count that is too large".into())))?;
                values.push((r, one(&part[2..])?));
            } else {
                values.push((1, one(part)?));
            }
        }
        i += 1;
    }
    Ok(DataStmt { objects, values, line })
}

/// The `LABEL format(…)` statements of a file (Fortran 2003 §10.1.1), each with the format
/// specification as the character string a `print`/`write` would give: `(f8.3, 2x, 'a')`.
fn format_statements(lines: &[Logical]) -> Vec<(u32, u32, String)> {
    let mut out = Vec::new();
    for l in lines.iter().filter(|l| !l.directive) {
        let Some(label) = l.label else { continue };
        let t = l.text.trim_start();
        if t.len() < 6 || !t[..6].eq_ignore_ascii_case("format") {
            continue;
        }
        let rest = t[6..].trim();
        if !rest.starts_with('(') {
            continue;
        }
        // Lower case outside character constants (edit descriptors are case-insensitive).
        let mut text = String::new();
        let mut quote: Option<char> = None;
        for ch in rest.chars() {
            match quote {
                Some(q) if ch == q => quote = None,
                Some(_) => {}
                None if ch == '\'' || ch == '"' => quote = Some(ch),
                None => {}
            }
            text.push(if quote.is_none() { ch.to_ascii_lowercase() } else { ch });
        }
        out.push((l.line, label, text));
    }
    out
}

/// A tokenized logical statement.
struct Line {
    toks: Vec<Token>,
    end_col: usize,
}

fn err<T>(line: u32, r: (usize, String)) -> Result<T, ParseError> {
    Err(perr(line, r))
}

fn perr(line: u32, (col, message): (usize, String)) -> ParseError {
    ParseError { line, col, message }
}

/// The construct an `end` statement closes: `end do`, `enddo` → "do"; plain `end` → "".
fn end_of(toks: &[Token]) -> Option<String> {
    let first = match toks.first().map(|t| &t.tok) {
        Some(Tok::Name(n)) => n.as_str(),
        _ => return None,
    };
    const JOINED: [&str; 10] = ["do", "if", "select", "program", "module", "subroutine", "function", "where", "interface", "type"];
    if first == "end" {
        return Some(match toks.get(1).map(|t| &t.tok) {
            Some(Tok::Name(n)) => n.clone(),
            _ => String::new(),
        });
    }
    if let Some(rest) = first.strip_prefix("end") {
        if JOINED.contains(&rest) {
            return Some(rest.to_string());
        }
    }
    None
}

/// The index of the token after the designator starting at `at`: a name, then any number of
/// parenthesized subscript lists and `%component` parts.
fn designator_end(toks: &[Token], at: usize) -> usize {
    let mut j = at + 1;
    loop {
        if matches!(toks.get(j).map(|t| &t.tok), Some(Tok::P("("))) {
            let mut depth = 0;
            while j < toks.len() {
                match toks[j].tok {
                    Tok::P("(") | Tok::P("(/") => depth += 1,
                    Tok::P(")") | Tok::P("/)") => {
                        depth -= 1;
                        if depth == 0 {
                            j += 1;
                            break;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            continue;
        }
        if matches!(toks.get(j).map(|t| &t.tok), Some(Tok::P("%"))) && matches!(toks.get(j + 1).map(|t| &t.tok), Some(Tok::Name(_))) {
            j += 2;
            continue;
        }
        return j;
    }
}

const TYPE_WORDS: [&str; 7] = ["integer", "real", "doubleprecision", "double", "complex", "logical", "character"];

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<&'a Logical> {
        self.lines.get(self.pos)
    }

    fn line(&self, l: &Logical) -> Result<Line, ParseError> {
        let toks = tokenize(&l.text).or_else(|e| err(l.line, e))?;
        Ok(Line { toks, end_col: l.text.len() })
    }

    fn units(&mut self) -> Result<Vec<Unit>, ParseError> {
        let mut units = Vec::new();
        let mut pending = Vec::new();
        while let Some(l) = self.peek() {
            if l.directive {
                // `!$acc routine` written just before a procedure applies to it.
                if l.text.trim_start().to_ascii_lowercase().starts_with("routine") {
                    pending.push((l.line, l.text.clone()));
                    self.pos += 1;
                    continue;
                }
                return err(l.line, (0, "an OpenACC directive outside a program unit".into()));
            }
            let mut u = self.unit()?;
            u.spec_directives.splice(0..0, pending.drain(..));
            units.push(u);
        }
        Ok(units)
    }

    /// The header of a program unit, if `toks` is one.
    fn header(&self, toks: &[Token], line: u32, end_col: usize) -> Result<Option<Unit>, ParseError> {
        let mut c = Cursor::new(toks, end_col);
        let mut prefix_type = None;
        loop {
            if c.eat_name("recursive") || c.eat_name("pure") || c.eat_name("elemental") {
                continue;
            }
            if let Some(Tok::Name(n)) = c.peek() {
                if TYPE_WORDS.contains(&n.as_str())
                    && c.toks.iter().map(|t| &t.tok).find(|t| matches!(t, Tok::Name(n) if n == "function")).is_some()
                    && prefix_type.is_none()
                {
                    prefix_type = Some(self.type_spec(&mut c).or_else(|e| err(line, e))?);
                    continue;
                }
            }
            break;
        }
        let kind_word = match c.peek() {
            Some(Tok::Name(n)) => n.clone(),
            _ => return Ok(None),
        };
        let kind = match kind_word.as_str() {
            "program" => UnitKind::Program,
            "module" if !matches!(c.peek_at(1), Some(Tok::Name(n)) if n == "procedure") => UnitKind::Module,
            "subroutine" => UnitKind::Subroutine,
            "function" => UnitKind::Function { result: None, prefix_type },
            _ => return Ok(None),
        };
        if matches!(c.peek_at(1), Some(Tok::P("="))) || matches!(c.peek_at(1), Some(Tok::P("("))) && kind == UnitKind::Program {
            return Ok(None);
        }
        c.pos += 1;
        let name = c.name().or_else(|e| err(line, e))?;
        let mut args = Vec::new();
        let mut kind = kind;
        if c.eat_p("(") && !c.eat_p(")") {
            loop {
                args.push(c.name().or_else(|e| err(line, e))?);
                if c.eat_p(")") {
                    break;
                }
                c.expect_p(",").or_else(|e| err(line, e))?;
            }
        }
        if c.eat_name("result") {
            c.expect_p("(").or_else(|e| err(line, e))?;
            let r = c.name().or_else(|e| err(line, e))?;
            c.expect_p(")").or_else(|e| err(line, e))?;
            if let UnitKind::Function { result, .. } = &mut kind {
                *result = Some(r);
            }
        }
        c.expect_end().or_else(|e| err(line, e))?;
        Ok(Some(Unit {
            kind,
            name,
            args,
            uses: Vec::new(),
            implicit_none: false,
            decls: Vec::new(),
            body: Vec::new(),
            contains: Vec::new(),
            spec_directives: Vec::new(),
            data: Vec::new(),
            types: Vec::new(),
            commons: Vec::new(),
            line,
            end_line: line,
        }))
    }

    fn unit(&mut self) -> Result<Unit, ParseError> {
        let Some(first) = self.peek() else {
            return err(0, (0, "expected a program unit".into()));
        };
        let ln = self.line(first)?;
        let mut unit = match self.header(&ln.toks, first.line, ln.end_col)? {
            Some(u) => {
                self.pos += 1;
                u
            }
            // A main program without a `program` statement.
            None => Unit {
                kind: UnitKind::Program,
                name: "main".into(),
                args: Vec::new(),
                uses: Vec::new(),
                implicit_none: false,
                decls: Vec::new(),
                body: Vec::new(),
                contains: Vec::new(),
                spec_directives: Vec::new(),
                data: Vec::new(),
                types: Vec::new(),
                commons: Vec::new(),
                line: first.line,
                end_line: first.line,
            },
        };
        self.spec_part(&mut unit)?;
        unit.body = self.block()?;
        let Some(l) = self.peek() else {
            return err(unit.line, (0, format!("`{}` has no `end` statement", unit.name)));
        };
        let ln = self.line(l)?;
        if matches!(ln.toks.first().map(|t| &t.tok), Some(Tok::Name(n)) if n == "contains") {
            self.pos += 1;
            loop {
                let Some(l) = self.peek() else {
                    return err(unit.line, (0, format!("`{}` has no `end` statement", unit.name)));
                };
                let ln = self.line(l)?;
                if end_of(&ln.toks).is_some() {
                    break;
                }
                unit.contains.push(self.unit()?);
            }
        }
        let Some(l) = self.peek() else {
            return err(unit.line, (0, format!("`{}` has no `end` statement", unit.name)));
        };
        let ln = self.line(l)?;
        match end_of(&ln.toks) {
            Some(k) if k.is_empty() || ["program", "module", "subroutine", "function"].contains(&k.as_str()) => {
                unit.end_line = l.line;
                self.pos += 1;
                Ok(unit)
            }
            _ => err(l.line, (0, format!("expected the `end` of `{}`", unit.name))),
        }
    }

    /// `use`, `implicit`, declarations, attribute statements and specification directives.
    fn spec_part(&mut self, unit: &mut Unit) -> Result<(), ParseError> {
        while let Some(l) = self.peek() {
            if l.directive {
                let w = l.text.trim_start().to_ascii_lowercase();
                if w.starts_with("declare") || w.starts_with("routine") {
                    unit.spec_directives.push((l.line, l.text.clone()));
                    self.pos += 1;
                    continue;
                }
                return Ok(());
            }
            let ln = self.line(l)?;
            let mut c = Cursor::new(&ln.toks, ln.end_col);
            let line = l.line;
            let Some(Tok::Name(w)) = c.peek().cloned() else { return Ok(()) };
            if matches!(c.peek_at(1), Some(Tok::P("=")) | Some(Tok::P("%"))) {
                return Ok(());
            }
            // A `format` statement may stand among the declarations (collected beforehand).
            if w == "format" && l.label.is_some() && matches!(c.peek_at(1), Some(Tok::P("("))) {
                self.pos += 1;
                continue;
            }
            if matches!(c.peek_at(1), Some(Tok::P("("))) && !TYPE_WORDS.contains(&w.as_str()) && !["dimension", "intent", "allocatable", "type"].contains(&w.as_str()) {
                return Ok(());
            }
            match w.as_str() {
                "use" => {
                    c.pos += 1;
                    if c.eat_p(",") {
                        c.name().or_else(|e| err(line, e))?;
                        c.expect_p("::").or_else(|e| err(line, e))?;
                    } else {
                        c.eat_p("::");
                    }
                    let module = c.name().or_else(|e| err(line, e))?;
                    let mut only = None;
                    if c.eat_p(",") {
                        if !c.eat_name("only") {
                            return err(line, (c.col(), "renaming in `use` is not supported by accsim's Fortran front-end".into()));
                        }
                        c.expect_p(":").or_else(|e| err(line, e))?;
                        let mut names = Vec::new();
                        while !c.at_end() {
                            names.push(c.name().or_else(|e| err(line, e))?);
                            if c.is_p("=>") {
                                return err(line, (c.col(), "renaming in `use` is not supported by accsim's Fortran front-end".into()));
                            }
                            if !c.eat_p(",") {
                                break;
                            }
                        }
                        only = Some(names);
                    }
                    c.expect_end().or_else(|e| err(line, e))?;
                    unit.uses.push(Use { module, only, line });
                }
                "implicit" => {
                    c.pos += 1;
                    if c.eat_name("none") {
                        unit.implicit_none = true;
                    } else {
                        return err(line, (c.col(), "`implicit` type rules other than `implicit none` are not supported by accsim's Fortran front-end".into()));
                    }
                }
                "save" | "intrinsic" | "external" | "private" | "public" => {
                    if w == "external" {
                        return err(line, (0, "`external` procedures are not supported by accsim's Fortran front-end".into()));
                    }
                }
                // An interface block giving the explicit interface of external procedures
                // (Fortran 2003 §12.3.2.1): the procedures are in this file, whose definitions
                // give their interfaces, so the block's body is skipped.
                "interface" if c.peek_at(1).is_none() => {
                    let opener = line;
                    loop {
                        self.pos += 1;
                        let Some(next) = self.peek() else { return err(opener, (0, "this `interface` has no `end interface`".into())) };
                        if next.directive {
                            continue;
                        }
                        let nl = self.line(next)?;
                        if end_of(&nl.toks).as_deref() == Some("interface") {
                            break;
                        }
                    }
                }
                "data" => {
                    c.pos += 1;
                    let stmt = data_statement(&ln.toks[c.pos..], line)?;
                    unit.data.push(stmt);
                }
                // A derived-type definition (Fortran 2003 §4.5.1): `type [, access] [::] name`,
                // component declarations, `end type [name]`.
                "type" if !matches!(c.peek_at(1), Some(Tok::P("("))) => {
                    c.pos += 1;
                    while c.eat_p(",") {
                        let a = c.name().or_else(|e| err(line, e))?;
                        if a != "public" && a != "private" {
                            return err(line, (c.col(), format!("the `{a}` attribute of a derived type is not supported by accsim's Fortran front-end")));
                        }
                    }
                    c.eat_p("::");
                    let name = c.name().or_else(|e| err(line, e))?;
                    c.expect_end().or_else(|e| err(line, e))?;
                    let mut components = Vec::new();
                    loop {
                        self.pos += 1;
                        let Some(next) = self.peek() else { return err(line, (0, format!("the definition of type `{name}` has no `end type`"))) };
                        if next.directive {
                            return err(next.line, (0, format!("`!$acc {}` inside the definition of type `{name}`", next.text.trim())));
                        }
                        let nl = self.line(next)?;
                        if end_of(&nl.toks).as_deref() == Some("type") {
                            break;
                        }
                        let mut cc = Cursor::new(&nl.toks, nl.end_col);
                        match cc.peek() {
                            Some(Tok::Name(w)) if (w == "sequence" || w == "private") && cc.peek_at(1).is_none() => {}
                            Some(Tok::Name(w)) if TYPE_WORDS.contains(&w.as_str()) || w == "type" => components.push(self.type_declaration(&mut cc, next.line)?),
                            _ => return err(next.line, (0, format!("expected a component declaration or `end type` in the definition of type `{name}`"))),
                        }
                    }
                    unit.types.push(TypeDef { name, components, after_decls: unit.decls.len(), line });
                }
                // `common [/name/] list [[,] /name/ list]…` (Fortran 2003 §5.5.2).
                "common" => {
                    c.pos += 1;
                    let mut block = String::new();
                    let mut members: Vec<(String, Option<Vec<Dim>>)> = Vec::new();
                    let mut first = true;
                    loop {
                        let named = if c.eat_p("//") {
                            Some(String::new())
                        } else if c.eat_p("/") {
                            let n = c.name().or_else(|e| err(line, e))?;
                            c.expect_p("/").or_else(|e| err(line, e))?;
                            Some(n)
                        } else {
                            None
                        };
                        if let Some(n) = named {
                            if !first || !members.is_empty() {
                                unit.commons.push(CommonBlock { name: std::mem::take(&mut block), members: std::mem::take(&mut members), line });
                            }
                            block = n;
                        }
                        first = false;
                        let name = c.name().or_else(|e| err(line, e))?;
                        let dims = if c.eat_p("(") { Some(self.dims(&mut c).or_else(|e| err(line, e))?) } else { None };
                        members.push((name, dims));
                        if c.at_end() {
                            break;
                        }
                        c.eat_p(",");
                    }
                    unit.commons.push(CommonBlock { name: block, members, line });
                }
                "dimension" | "allocatable" | "intent" | "parameter" | "equivalence" | "namelist" | "interface" | "format" | "target" | "pointer" | "optional" => {
                    let what = match w.as_str() {
                        "interface" => "generic interface blocks (`interface name`)",
                        "equivalence" => "`equivalence`",
                        "namelist" => "`namelist`",
                        "format" => "`format` statements",
                        "pointer" | "target" => "pointers (`pointer`/`target`)",
                        _ => "attribute statements (give the attribute in the type declaration)",
                    };
                    return err(line, (0, format!("{what} are not supported by accsim's Fortran front-end")));
                }
                _ if TYPE_WORDS.contains(&w.as_str()) || w == "type" => {
                    let decl = self.type_declaration(&mut c, line)?;
                    unit.decls.push(decl);
                }
                _ => return Ok(()),
            }
            self.pos += 1;
        }
        Ok(())
    }

    /// A type declaration statement (Fortran 2003 §5.1): type, attributes, entities.
    fn type_declaration(&self, c: &mut Cursor, line: u32) -> Result<Decl, ParseError> {
        let ty = self.type_spec(c).or_else(|e| err(line, e))?;
        let mut attrs = Attrs::default();
        while c.eat_p(",") {
            let a = c.name().or_else(|e| err(line, e))?;
            match a.as_str() {
                "parameter" => attrs.parameter = true,
                "allocatable" => attrs.allocatable = true,
                "save" => attrs.save = true,
                "optional" => attrs.optional = true,
                "intent" => {
                    c.expect_p("(").or_else(|e| err(line, e))?;
                    let mut i = c.name().or_else(|e| err(line, e))?;
                    if i == "in" && c.eat_name("out") {
                        i = "inout".into();
                    }
                    c.expect_p(")").or_else(|e| err(line, e))?;
                    attrs.intent = Some(i);
                }
                "dimension" => {
                    c.expect_p("(").or_else(|e| err(line, e))?;
                    attrs.dims = Some(self.dims(c).or_else(|e| err(line, e))?);
                }
                "pointer" => attrs.pointer = true,
                "target" => attrs.target = true,
                "value" | "external" => {
                    return err(line, (c.col(), format!("the `{a}` attribute is not supported by accsim's Fortran front-end")));
                }
                _ => attrs.other.push(a),
            }
        }
        c.eat_p("::");
        let mut entities = Vec::new();
        loop {
            let name = c.name().or_else(|e| err(line, e))?;
            let dims = if c.eat_p("(") { Some(self.dims(c).or_else(|e| err(line, e))?) } else { None };
            let len = if c.eat_p("*") { Some(self.len_value(c).or_else(|e| err(line, e))?) } else { None };
            let init = if c.eat_p("=") {
                Some(c.expr().or_else(|e| err(line, e))?)
            } else if c.eat_p("=>") {
                // `=> null()`: a pointer that starts disassociated, as every pointer here does.
                if !(c.eat_name("null") && c.eat_p("(") && c.eat_p(")")) {
                    return err(line, (c.col(), "pointer initialisation other than `=> null()` is not supported by accsim's Fortran front-end".into()));
                }
                None
            } else {
                None
            };
            entities.push(Entity { name, dims, len, init, line });
            if !c.eat_p(",") {
                break;
            }
        }
        c.expect_end().or_else(|e| err(line, e))?;
        Ok(Decl { ty, attrs, entities, line })
    }

    fn len_value(&self, c: &mut Cursor) -> PResult<LenSpec> {
        if c.eat_p("(") {
            if c.eat_p("*") {
                c.expect_p(")")?;
                return Ok(LenSpec::Star);
            }
            let e = c.expr()?;
            c.expect_p(")")?;
            return Ok(LenSpec::Expr(e));
        }
        match c.peek().cloned() {
            Some(Tok::Int(d, k)) => {
                c.pos += 1;
                Ok(LenSpec::Expr(Expr::Int(d, k)))
            }
            _ => Err((c.col(), format!("expected a length{}", c.found()))),
        }
    }

    /// `integer`, `real(8)`, `real*8`, `double precision`, `character(len=n)`, `character*10`.
    fn type_spec(&self, c: &mut Cursor) -> PResult<TypeSpec> {
        let mut base = c.name()?;
        if base == "type" {
            // `type(name)`: a derived type (Fortran 2003 §5.1.1.1).
            c.expect_p("(")?;
            let name = c.name()?;
            c.expect_p(")")?;
            return Ok(TypeSpec { base, kind: None, len: None, derived: Some(name) });
        }
        if base == "double" {
            if !c.eat_name("precision") {
                return Err((c.col(), "expected `precision` after `double`".into()));
            }
            base = "doubleprecision".into();
        }
        let mut kind = None;
        let mut len = None;
        if base == "character" {
            if c.eat_p("*") {
                len = Some(self.len_value(c)?);
            } else if c.eat_p("(") {
                loop {
                    let key = if let (Some(Tok::Name(n)), Some(Tok::P("="))) = (c.peek(), c.peek_at(1)) {
                        let n = n.clone();
                        c.pos += 2;
                        n
                    } else {
                        "len".to_string()
                    };
                    let v = if c.eat_p("*") { LenSpec::Star } else { LenSpec::Expr(c.expr()?) };
                    match key.as_str() {
                        "len" => len = Some(v),
                        "kind" => {}
                        _ => return Err((c.col(), format!("unknown type parameter `{key}`"))),
                    }
                    if c.eat_p(")") {
                        break;
                    }
                    c.expect_p(",")?;
                }
            }
        } else if base != "doubleprecision" {
            if c.eat_p("*") {
                match c.peek().cloned() {
                    Some(Tok::Int(d, None)) => {
                        c.pos += 1;
                        kind = Some(Expr::Int(d, None));
                    }
                    _ => return Err((c.col(), format!("expected a kind{}", c.found()))),
                }
            } else if c.is_p("(") {
                c.pos += 1;
                if let (Some(Tok::Name(n)), Some(Tok::P("="))) = (c.peek(), c.peek_at(1)) {
                    if n != "kind" {
                        return Err((c.col(), format!("unknown type parameter `{n}`")));
                    }
                    c.pos += 2;
                }
                kind = Some(c.expr()?);
                c.expect_p(")")?;
            }
        }
        Ok(TypeSpec { base, kind, len, derived: None })
    }

    /// Array spec after `(` up to `)` (consumed).
    fn dims(&self, c: &mut Cursor) -> PResult<Vec<Dim>> {
        let mut v = Vec::new();
        loop {
            if c.eat_p(":") {
                v.push(Dim::Colon(None));
            } else if c.eat_p("*") {
                v.push(Dim::Star(None));
            } else {
                let e = c.expr()?;
                if c.eat_p(":") {
                    if c.eat_p("*") {
                        v.push(Dim::Star(Some(e)));
                    } else if c.is_p(",") || c.is_p(")") {
                        v.push(Dim::Colon(Some(e)));
                    } else {
                        v.push(Dim::Explicit(Some(e), c.expr()?));
                    }
                } else {
                    v.push(Dim::Explicit(None, e));
                }
            }
            if c.eat_p(")") {
                return Ok(v);
            }
            c.expect_p(",")?;
        }
    }

    /// Whether the next statement ends the current block (an `end …`, `else`, `case`, `contains`,
    /// or an `!$acc end …`).
    fn at_block_end(&self) -> Result<bool, ParseError> {
        let Some(l) = self.peek() else { return Ok(true) };
        if l.directive {
            return Ok(l.text.trim_start().to_ascii_lowercase().starts_with("end"));
        }
        let ln = self.line(l)?;
        if end_of(&ln.toks).is_some() {
            return Ok(!matches!(ln.toks.get(1).map(|t| &t.tok), Some(Tok::P("=")) | Some(Tok::P("("))));
        }
        Ok(match ln.toks.first().map(|t| &t.tok) {
            Some(Tok::Name(n)) => {
                (matches!(n.as_str(), "else" | "elseif" | "elsewhere" | "contains") || (n == "case" && matches!(ln.toks.get(1).map(|t| &t.tok), Some(Tok::P("(")) | Some(Tok::Name(_)))))
                    && !matches!(ln.toks.get(1).map(|t| &t.tok), Some(Tok::P("=")))
            }
            _ => false,
        })
    }

    fn block(&mut self) -> Result<Vec<Stmt>, ParseError> {
        let mut out = Vec::new();
        while !self.at_block_end()? {
            let s = self.stmt()?;
            out.extend(s);
        }
        Ok(out)
    }

    /// Consume an `end` statement closing `what` (`do`, `if`, …), or fail.
    fn expect_end(&mut self, what: &str, opener: u32) -> Result<u32, ParseError> {
        let Some(l) = self.peek() else {
            return err(opener, (0, format!("this `{what}` has no `end {what}`")));
        };
        let ln = self.line(l)?;
        match end_of(&ln.toks) {
            Some(k) if k == what => {
                self.pos += 1;
                Ok(l.line)
            }
            _ if l.directive => err(l.line, (0, format!("`!$acc {}` inside a `{what}` block that is still open (from line {opener})", l.text))),
            _ => err(l.line, (0, format!("expected `end {what}` (for the `{what}` at line {opener})"))),
        }
    }

    fn stmt(&mut self) -> Result<Vec<Stmt>, ParseError> {
        let Some(l) = self.peek() else { return Ok(vec![]) };
        let line = l.line;
        if l.directive {
            return Ok(vec![self.directive()?]);
        }
        let mut out = Vec::new();
        if let Some(label) = l.label {
            out.push(Stmt { line, kind: StmtKind::Label(label) });
        }
        let ln = self.line(l)?;
        self.pos += 1;
        if ln.toks.is_empty() {
            return Ok(out);
        }
        let kind = self.stmt_tokens(&ln.toks, ln.end_col, line, l.label)?;
        out.push(Stmt { line, kind });
        Ok(out)
    }

    /// One executable statement from its tokens (the cursor past the logical line already).
    fn stmt_tokens(&mut self, toks: &[Token], end_col: usize, line: u32, label: Option<u32>) -> Result<StmtKind, ParseError> {
        let mut c = Cursor::new(toks, end_col);
        // Construct name: `outer: do …`.
        let mut cname = None;
        if let (Some(Tok::Name(n)), Some(Tok::P(":"))) = (c.peek(), c.peek_at(1)) {
            cname = Some(n.clone());
            c.pos += 2;
        }
        // Assignment first: `name = …`, `name(…) = …`, `name(…)%component(…) = …`.
        if let Some(Tok::Name(_)) = c.peek() {
            let j = designator_end(toks, c.pos);
            if matches!(toks.get(j).map(|t| &t.tok), Some(Tok::P("="))) {
                let lhs = c.expr().or_else(|e| err(line, e))?;
                c.expect_p("=").or_else(|e| err(line, e))?;
                let rhs = c.expr().or_else(|e| err(line, e))?;
                c.expect_end().or_else(|e| err(line, e))?;
                return Ok(StmtKind::Assign(lhs, rhs));
            }
            if matches!(toks.get(j).map(|t| &t.tok), Some(Tok::P("=>"))) {
                let lhs = c.expr().or_else(|e| err(line, e))?;
                c.expect_p("=>").or_else(|e| err(line, e))?;
                let rhs = c.expr().or_else(|e| err(line, e))?;
                c.expect_end().or_else(|e| err(line, e))?;
                let target = match rhs {
                    Expr::Apply(n, args) if n == "null" && args.is_empty() => None,
                    other => Some(other),
                };
                return Ok(StmtKind::PointerAssign(lhs, target));
            }
        }
        let w = match c.peek() {
            Some(Tok::Name(w)) => w.clone(),
            _ => return err(line, (c.col(), format!("expected a statement{}", c.found()))),
        };
        c.pos += 1;
        let kind = match w.as_str() {
            "if" => {
                c.expect_p("(").map_err(|r| perr(line, r))?;
                let cond = c.expr().map_err(|r| perr(line, r))?;
                c.expect_p(")").map_err(|r| perr(line, r))?;
                if c.eat_name("then") {
                    c.expect_end().map_err(|r| perr(line, r))?;
                    let mut arms = vec![(cond, self.block()?)];
                    let mut otherwise = None;
                    loop {
                        let Some(l) = self.peek() else { return err(line, (0, "this `if` has no `end if`".into())) };
                        let ln = self.line(l)?;
                        let mut c2 = Cursor::new(&ln.toks, ln.end_col);
                        if c2.eat_name("elseif") || (c2.is_name("else") && matches!(c2.peek_at(1), Some(Tok::Name(n)) if n == "if")) {
                            if c2.eat_name("else") {
                                c2.pos += 1;
                            }
                            c2.expect_p("(").or_else(|r| err(l.line, r))?;
                            let cond = c2.expr().or_else(|r| err(l.line, r))?;
                            c2.expect_p(")").or_else(|r| err(l.line, r))?;
                            c2.eat_name("then");
                            self.pos += 1;
                            arms.push((cond, self.block()?));
                        } else if c2.eat_name("else") {
                            self.pos += 1;
                            otherwise = Some(self.block()?);
                        } else {
                            break;
                        }
                    }
                    self.expect_end("if", line)?;
                    StmtKind::If { arms, otherwise }
                } else {
                    let rest = &toks[c.pos..];
                    if rest.is_empty() {
                        return err(line, (c.col(), "expected a statement after `if (…)`".into()));
                    }
                    let inner = self.stmt_tokens(rest, end_col, line, None)?;
                    StmtKind::If { arms: vec![(cond, vec![Stmt { line, kind: inner }])], otherwise: None }
                }
            }
            "do" => {
                // `do 10 i = …` (labelled, ends at the statement labelled 10).
                let end_label = match c.peek() {
                    Some(Tok::Int(d, None)) => {
                        let n: u32 = d.parse().unwrap_or(0);
                        c.pos += 1;
                        c.eat_p(",");
                        Some(n)
                    }
                    _ => None,
                };
                let body_of = |p: &mut Self| -> Result<Vec<Stmt>, ParseError> {
                    match end_label {
                        None => {
                            let b = p.block()?;
                            p.expect_end("do", line)?;
                            Ok(b)
                        }
                        Some(lbl) => {
                            let mut b = Vec::new();
                            loop {
                                let Some(l) = p.peek() else { return err(line, (0, format!("no statement labelled {lbl} ends this `do`"))) };
                                let is_end = l.label == Some(lbl);
                                b.extend(p.stmt()?);
                                if is_end {
                                    return Ok(b);
                                }
                            }
                        }
                    }
                };
                if c.at_end() {
                    let body = body_of(self)?;
                    StmtKind::DoForever { name: cname.take(), body }
                } else if c.eat_name("while") {
                    c.expect_p("(").map_err(|r| perr(line, r))?;
                    let cond = c.expr().map_err(|r| perr(line, r))?;
                    c.expect_p(")").map_err(|r| perr(line, r))?;
                    c.expect_end().map_err(|r| perr(line, r))?;
                    let body = body_of(self)?;
                    StmtKind::DoWhile { name: cname.take(), cond, body }
                } else {
                    let var = c.name().map_err(|r| perr(line, r))?;
                    c.expect_p("=").map_err(|r| perr(line, r))?;
                    let lo = c.expr().map_err(|r| perr(line, r))?;
                    c.expect_p(",").map_err(|r| perr(line, r))?;
                    let hi = c.expr().map_err(|r| perr(line, r))?;
                    let step = if c.eat_p(",") { Some(c.expr().map_err(|r| perr(line, r))?) } else { None };
                    c.expect_end().map_err(|r| perr(line, r))?;
                    let body = body_of(self)?;
                    StmtKind::Do { name: cname.take(), var, lo, hi, step, body }
                }
            }
            "select" | "selectcase" => {
                if w == "select" && !c.eat_name("case") {
                    return err(line, (c.col(), "only `select case` is supported by accsim's Fortran front-end".into()));
                }
                c.expect_p("(").map_err(|r| perr(line, r))?;
                let selector = c.expr().map_err(|r| perr(line, r))?;
                c.expect_p(")").map_err(|r| perr(line, r))?;
                let mut cases = Vec::new();
                let mut default = None;
                loop {
                    let Some(l) = self.peek() else { return err(line, (0, "this `select case` has no `end select`".into())) };
                    let ln = self.line(l)?;
                    let mut c2 = Cursor::new(&ln.toks, ln.end_col);
                    if !c2.eat_name("case") {
                        break;
                    }
                    self.pos += 1;
                    if c2.eat_name("default") {
                        default = Some(self.block()?);
                        continue;
                    }
                    c2.expect_p("(").map_err(|r| perr(l.line, r))?;
                    let mut items = Vec::new();
                    loop {
                        let lo = if c2.is_p(":") { None } else { Some(c2.expr().map_err(|r| perr(l.line, r))?) };
                        if c2.eat_p(":") {
                            let hi = if c2.is_p(",") || c2.is_p(")") { None } else { Some(c2.expr().map_err(|r| perr(l.line, r))?) };
                            items.push(CaseItem::Range(lo, hi));
                        } else if let Some(v) = lo {
                            items.push(CaseItem::Value(v));
                        }
                        if c2.eat_p(")") {
                            break;
                        }
                        c2.expect_p(",").map_err(|r| perr(l.line, r))?;
                    }
                    cases.push((items, self.block()?));
                }
                self.expect_end("select", line)?;
                StmtKind::Select { selector, cases, default }
            }
            "print" => {
                let fmt = self.format_spec(&mut c, line)?;
                let mut items = Vec::new();
                if c.eat_p(",") {
                    items = self.io_items(&mut c, line)?;
                }
                c.expect_end().map_err(|r| perr(line, r))?;
                StmtKind::Print { unit: None, fmt, items, advance: true }
            }
            "write" => {
                c.expect_p("(").map_err(|r| perr(line, r))?;
                let unit = if c.eat_p("*") {
                    None
                } else {
                    if let (Some(Tok::Name(n)), Some(Tok::P("="))) = (c.peek(), c.peek_at(1)) {
                        if n != "unit" {
                            return err(line, (c.col(), "write needs the unit first".into()));
                        }
                        c.pos += 2;
                    }
                    if c.eat_p("*") {
                        None
                    } else {
                        Some(c.expr().map_err(|r| perr(line, r))?)
                    }
                };
                let mut fmt = None;
                if c.eat_p(",") {
                    if let (Some(Tok::Name(n)), Some(Tok::P("="))) = (c.peek(), c.peek_at(1)) {
                        if n != "fmt" {
                            return err(line, (c.col(), format!("the `{n}=` specifier of `write` is not supported by accsim's Fortran front-end")));
                        }
                        c.pos += 2;
                    }
                    fmt = self.format_spec(&mut c, line)?;
                }
                let mut advance = true;
                while c.eat_p(",") {
                    match (c.peek().cloned(), c.peek_at(1).cloned(), c.peek_at(2).cloned()) {
                        (Some(Tok::Name(k)), Some(Tok::P("=")), Some(Tok::Str(v))) if k == "advance" => {
                            advance = !v.eq_ignore_ascii_case("no");
                            c.pos += 3;
                        }
                        _ => return err(line, (c.col(), "`write` specifiers other than the unit, the format and `advance=` are not supported by accsim's Fortran front-end".into())),
                    }
                }
                c.expect_p(")").map_err(|r| perr(line, r))?;
                c.eat_p(",");
                let items = if c.at_end() { Vec::new() } else { self.io_items(&mut c, line)? };
                c.expect_end().map_err(|r| perr(line, r))?;
                StmtKind::Print { unit, fmt, items, advance }
            }
            // List-directed input from standard input (Fortran 2003 §9.5, §10.9.1).
            "read" => {
                let unsupported_form = |c: &Cursor| err(line, (c.col(), "`read` from a unit other than `*` or 5 (standard input) or with a format other than `*` (list-directed) is not supported by accsim's Fortran front-end".to_string()));
                let mut iostat = None;
                if c.eat_p("(") {
                    let mut position = 0;
                    loop {
                        let key = if let (Some(Tok::Name(n)), Some(Tok::P("="))) = (c.peek(), c.peek_at(1)) {
                            let n = n.clone();
                            c.pos += 2;
                            n
                        } else {
                            (if position == 0 { "unit" } else { "fmt" }).to_string()
                        };
                        position += 1;
                        match key.as_str() {
                            "unit" => {
                                if matches!(c.peek(), Some(Tok::Int(d, None)) if d == "5") {
                                    c.pos += 1;
                                } else if !c.eat_p("*") {
                                    return unsupported_form(&c);
                                }
                            }
                            "fmt" => {
                                if !c.eat_p("*") {
                                    return unsupported_form(&c);
                                }
                            }
                            "iostat" => iostat = Some(c.expr().map_err(|r| perr(line, r))?),
                            other => return err(line, (c.col(), format!("the `{other}=` specifier of `read` is not supported by accsim's Fortran front-end"))),
                        }
                        if c.eat_p(")") {
                            break;
                        }
                        c.expect_p(",").map_err(|r| perr(line, r))?;
                    }
                    c.eat_p(",");
                } else {
                    if !c.eat_p("*") {
                        return unsupported_form(&c);
                    }
                    if !c.at_end() {
                        c.expect_p(",").map_err(|r| perr(line, r))?;
                    }
                }
                let items = if c.at_end() { Vec::new() } else { self.io_items(&mut c, line)? };
                c.expect_end().map_err(|r| perr(line, r))?;
                StmtKind::Read { items, iostat }
            }
            "call" => {
                let name = c.name().map_err(|r| perr(line, r))?;
                let args = if c.eat_p("(") { c.args(")").map_err(|r| perr(line, r))? } else { Vec::new() };
                c.expect_end().map_err(|r| perr(line, r))?;
                StmtKind::Call(name, args)
            }
            "stop" | "error" => {
                let error = w == "error";
                if error && !c.eat_name("stop") {
                    return err(line, (c.col(), "expected `error stop`".into()));
                }
                let code = if c.at_end() { None } else { Some(c.expr().map_err(|r| perr(line, r))?) };
                c.expect_end().map_err(|r| perr(line, r))?;
                StmtKind::Stop { error, code }
            }
            "return" => StmtKind::Return,
            "continue" => StmtKind::Continue,
            "exit" | "cycle" => {
                let n = if c.at_end() { None } else { Some(c.name().map_err(|r| perr(line, r))?) };
                c.expect_end().map_err(|r| perr(line, r))?;
                if w == "exit" {
                    StmtKind::Exit(n)
                } else {
                    StmtKind::Cycle(n)
                }
            }
            "goto" | "go" => {
                if w == "go" && !c.eat_name("to") {
                    return err(line, (c.col(), "expected `go to`".into()));
                }
                match c.peek().cloned() {
                    Some(Tok::Int(d, None)) => StmtKind::Goto(d.parse().unwrap_or(0)),
                    _ => return err(line, (c.col(), "only `go to LABEL` is supported by accsim's Fortran front-end".into())),
                }
            }
            "allocate" => {
                c.expect_p("(").map_err(|r| perr(line, r))?;
                let mut items = Vec::new();
                loop {
                    if let (Some(Tok::Name(n)), Some(Tok::P("="))) = (c.peek(), c.peek_at(1)) {
                        return err(line, (c.col(), format!("the `{n}=` specifier of `allocate` is not supported by accsim's Fortran front-end")));
                    }
                    items.push(c.expr().map_err(|r| perr(line, r))?);
                    if c.eat_p(")") {
                        break;
                    }
                    c.expect_p(",").map_err(|r| perr(line, r))?;
                }
                c.expect_end().map_err(|r| perr(line, r))?;
                StmtKind::Allocate(items)
            }
            "nullify" => StmtKind::Nullify(c.parenthesized_list_statement().map_err(|r| perr(line, r))?),
            "deallocate" => StmtKind::Deallocate(c.parenthesized_list_statement().map_err(|r| perr(line, r))?),
            "where" => {
                c.expect_p("(").map_err(|r| perr(line, r))?;
                let mask = c.expr().map_err(|r| perr(line, r))?;
                c.expect_p(")").map_err(|r| perr(line, r))?;
                if !c.at_end() {
                    let inner = self.stmt_tokens(&toks[c.pos..], end_col, line, None)?;
                    StmtKind::Where { mask, then: vec![Stmt { line, kind: inner }], otherwise: Vec::new() }
                } else {
                    let then = self.block()?;
                    let mut otherwise = Vec::new();
                    if let Some(l) = self.peek() {
                        let ln = self.line(l)?;
                        if matches!(ln.toks.first().map(|t| &t.tok), Some(Tok::Name(n)) if n == "elsewhere") {
                            self.pos += 1;
                            otherwise = self.block()?;
                        }
                    }
                    self.expect_end("where", line)?;
                    StmtKind::Where { mask, then, otherwise }
                }
            }
            // Collected before parsing ([`format_statements`]); nothing to run.
            "format" if label.is_some() => StmtKind::Continue,
            "open" | "close" | "inquire" | "rewind" | "backspace" | "forall" | "format" | "associate" | "block" | "entry" => {
                return err(line, (0, format!("the `{w}` statement is not supported by accsim's Fortran front-end")));
            }
            _ if TYPE_WORDS.contains(&w.as_str()) || matches!(w.as_str(), "use" | "implicit") => {
                return err(line, (0, "a declaration after the first executable statement".into()));
            }
            _ => return err(line, (0, format!("unknown statement `{w}`"))),
        };
        if cname.is_some() {
            return err(line, (0, "only `do` constructs may be named in accsim's Fortran front-end".into()));
        }
        let _ = label;
        Ok(kind)
    }

    /// The format of `print`/`write`: `*` (list-directed, `None`) or a character expression.
    fn format_spec(&self, c: &mut Cursor, line: u32) -> Result<Option<Expr>, ParseError> {
        if c.eat_p("*") {
            return Ok(None);
        }
        if let Some(Tok::Int(digits, _)) = c.peek() {
            // A statement label: the `format` statement's specification (the nearest one with
            // that label: labels are local to a program unit, Fortran 2003 §3.2.5).
            let label: u32 = digits.parse().unwrap_or(0);
            let Some((_, _, text)) = self.formats.iter().filter(|(_, l, _)| *l == label).min_by_key(|(l, _, _)| l.abs_diff(line)) else {
                return err(line, (c.col(), format!("no `format` statement has the label {label}")));
            };
            c.pos += 1;
            return Ok(Some(Expr::Str(text.clone())));
        }
        Ok(Some(c.expr().or_else(|r| err(line, r))?))
    }

    fn io_items(&self, c: &mut Cursor, line: u32) -> Result<Vec<Expr>, ParseError> {
        let mut items = Vec::new();
        loop {
            items.push(c.expr().or_else(|r| err(line, r))?);
            if !c.eat_p(",") {
                return Ok(items);
            }
        }
    }

    /// An OpenACC directive, with the statements it owns.
    fn directive(&mut self) -> Result<Stmt, ParseError> {
        let Some(l) = self.peek() else { return err(0, (0, "expected a directive".into())) };
        let line = l.line;
        let text = l.text.clone();
        self.pos += 1;
        let words: Vec<String> = text
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .take(3)
            .map(|w| w.to_ascii_lowercase())
            .collect();
        let w0 = words.first().map(String::as_str).unwrap_or("");
        let w1 = words.get(1).map(String::as_str).unwrap_or("");
        let region = |p: &mut Self, name: &str| -> Result<(Vec<Stmt>, u32), ParseError> {
            let body = p.block()?;
            let Some(e) = p.peek() else { return err(line, (0, format!("`!$acc {name}` has no `!$acc end {name}`"))) };
            let closing: Vec<String> = e.text.split_whitespace().map(|w| w.to_ascii_lowercase()).collect();
            let want: Vec<&str> = std::iter::once("end").chain(name.split(' ')).collect();
            if !e.directive || closing.iter().map(String::as_str).collect::<Vec<_>>() != want {
                return err(e.line, (0, format!("expected `!$acc end {name}` (for the `!$acc {name}` at line {line})")));
            }
            p.pos += 1;
            Ok((body, e.line))
        };
        let (body, end_line) = match (w0, w1) {
            ("end", _) => return err(line, (0, format!("`!$acc {text}` does not close an open construct"))),
            // PGI Accelerator 1.3 (seeds/004 §2.4, §2.5): `!$acc do` and `!$acc region do` own
            // the `do` loop that follows, as `loop` does.
            ("parallel", "loop") | ("kernels", "loop") | ("loop", _) | ("region", "do") | ("do", _) => {
                let Some(next) = self.peek() else { return err(line, (0, format!("`!$acc {text}` must be followed by a `do` loop"))) };
                let nl = next.line;
                let s = self.stmt()?;
                if !matches!(s.last().map(|s| &s.kind), Some(StmtKind::Do { .. })) || s.len() != 1 {
                    return err(nl, (0, format!("`!$acc {}` must be followed by a `do` loop with loop control (OpenACC 2.0 §2.7)", if w0 == "loop" { "loop" } else { "parallel loop" })));
                }
                let mut end_line = nl;
                if let Some(e) = self.peek() {
                    let closing: Vec<String> = e.text.split_whitespace().map(|w| w.to_ascii_lowercase()).collect();
                    let mut want = vec!["end".to_string(), w0.to_string()];
                    if w0 != "loop" {
                        want.push("loop".into());
                    }
                    if e.directive && closing == want {
                        end_line = e.line;
                        self.pos += 1;
                    }
                }
                (Some(s), end_line)
            }
            // 1.3 §2.3.1, §2.3.2: `!$acc region` … `!$acc end region`, `!$acc data region` …
            // `!$acc end data region`.
            ("data", "region") => {
                let (b, e) = region(self, "data region")?;
                (Some(b), e)
            }
            ("parallel", _) | ("kernels", _) | ("data", _) | ("host_data", _) | ("region", _) => {
                let (b, e) = region(self, w0)?;
                (Some(b), e)
            }
            ("atomic", _) => {
                let s = self.stmt()?;
                let mut body = s;
                let mut end_line = line;
                // `atomic capture` may own two statements, closed by `!$acc end atomic`.
                if let Some(e) = self.peek() {
                    if !e.directive && w1 == "capture" {
                        body.extend(self.stmt()?);
                    }
                }
                if let Some(e) = self.peek() {
                    let closing: Vec<String> = e.text.split_whitespace().map(|w| w.to_ascii_lowercase()).collect();
                    if e.directive && closing == ["end", "atomic"] {
                        end_line = e.line;
                        self.pos += 1;
                    }
                }
                (Some(body), end_line)
            }
            _ => (None, line),
        };
        Ok(Stmt { line, kind: StmtKind::Acc { text, body, end_line } })
    }
}

/// Parse all program units of a file.
pub fn parse(lines: &[Logical]) -> Result<Vec<Unit>, ParseError> {
    let mut p = Parser { lines, pos: 0, formats: format_statements(lines) };
    p.units()
}
