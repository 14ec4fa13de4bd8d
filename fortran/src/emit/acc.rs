//! OpenACC directives in Fortran (OpenACC 2.0 §2.1, §2.4–§2.14): each `!$acc` directive becomes
//! the `#pragma acc` of the C translation, with its clause arguments translated: variables to
//! their C names, array sections `a(lo:hi, j)` to the contiguous C subarray `a[start:length]` of
//! the column-major storage, whole arrays stored behind a pointer to `a[0:size]`, expressions to C.
//! A compute construct gives each array it uses that no clause names the implicit
//! `present_or_copy` of the whole array (§2.5.1, §2.5.2: arrays not in a data clause are treated
//! as `present_or_copy`).

use super::expr::count;
use super::*;
use crate::lexer::{tokenize, Tok};

/// Clauses whose arguments are variable lists (data clauses and the like).
const VAR_CLAUSES: [&str; 27] = [
    "copy", "copyin", "copyout", "create", "present", "present_or_copy", "pcopy", "present_or_copyin", "pcopyin",
    "present_or_copyout", "pcopyout", "present_or_create", "pcreate", "deviceptr", "private", "firstprivate",
    "device_resident", "host", "self", "device", "use_device", "delete", "link", "reduction", "cache", "pcopy_", "",
];

/// Data clauses: an array named in one of these has its data attribute decided.
const DATA_CLAUSES: [&str; 16] = [
    "copy", "copyin", "copyout", "create", "present", "present_or_copy", "pcopy", "present_or_copyin", "pcopyin",
    "present_or_copyout", "pcopyout", "present_or_create", "pcreate", "deviceptr", "private", "firstprivate",
];

impl Translator {
    /// Translate a directive's text (after `!$acc`) into the text after `#pragma acc`.
    /// `extra_private`: loop variables to add to a loop directive's `private` clause.
    pub fn acc_directive_text(&mut self, text: &str, line: u32, extra_private: &[String]) -> TResult<String> {
        let toks = tokenize(text).map_err(|(c, m)| FortranError { line, col: c as u32 + 1, message: m, unsupported: false })?;
        // `copy(/blk/)`: the lexer reads `(/` and `/)` as an array constructor's brackets; in a
        // directive they are a clause's parenthesis and a common block's slash (§2.7).
        let toks: Vec<crate::lexer::Token> = toks
            .into_iter()
            .flat_map(|t| match t.tok {
                Tok::P("(/") => vec![crate::lexer::Token { tok: Tok::P("("), col: t.col }, crate::lexer::Token { tok: Tok::P("/"), col: t.col + 1 }],
                Tok::P("/)") => vec![crate::lexer::Token { tok: Tok::P("/"), col: t.col }, crate::lexer::Token { tok: Tok::P(")"), col: t.col + 1 }],
                _ => vec![t],
            })
            .collect();
        let mut out = String::new();
        let mut i = 0;
        // PGI Accelerator 1.3 (seeds/004): `region`, `data region`, `region do`, `do` keep their
        // names (the dialect layer, accsim_core::dialect::pgi13, translates them), and their
        // loop scheduling clauses take widths, not variables.
        let pgi13_name = Self::pgi13_directive_name(&toks);
        if let Some((words, n)) = &pgi13_name {
            out.push_str(words);
            out.push(' ');
            i = *n;
        }
        let pgi13_loop = pgi13_name.as_ref().is_some_and(|(w, _)| w.ends_with("do"));
        // Directive name words.
        while let Some(Tok::Name(w)) = toks.get(i).map(|t| &t.tok).filter(|_| pgi13_name.is_none()) {
            if !matches!(w.as_str(), "parallel" | "kernels" | "loop" | "data" | "enter" | "exit" | "update" | "wait" | "host_data" | "atomic" | "read" | "write" | "capture" | "routine" | "declare" | "cache") {
                break;
            }
            out.push_str(w);
            i += 1;
            if matches!(toks.get(i).map(|t| &t.tok), Some(Tok::P("("))) && matches!(w.as_str(), "wait" | "cache" | "routine") {
                // `wait(1, 2)`, `cache(a(i:i+2))`, `routine(f)`: the argument follows the name.
                let mut depth = 0;
                let mut inner = Vec::new();
                while i < toks.len() {
                    match toks[i].tok {
                        Tok::P("(") => depth += 1,
                        Tok::P(")") => {
                            depth -= 1;
                            if depth == 0 {
                                i += 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                    inner.push(toks[i].clone());
                    i += 1;
                }
                inner.remove(0);
                let arg = match w.as_str() {
                    "wait" => self.expr_list(&inner, line)?,
                    "cache" => self.var_list(&inner, line)?.join(", "),
                    _ => self.var_list(&inner, line)?.join(", "),
                };
                out.push_str(&format!("({arg}) "));
                break;
            }
            out.push(' ');
            if w == "update" && matches!(toks.get(i).map(|t| &t.tok), Some(Tok::P("("))) {
                break;
            }
        }
        let name = out.trim().to_string();
        let mut privates_done = false;
        let mut clauses = Vec::new();
        while i < toks.len() {
            if matches!(toks[i].tok, Tok::P(",")) {
                i += 1;
                continue;
            }
            let clause = match &toks[i].tok {
                Tok::Name(n) => n.clone(),
                other => return error(line, format!("expected an OpenACC clause in `!$acc {text}`, found {}", crate::expr_parse::describe(other))),
            };
            i += 1;
            // The parenthesised argument, as tokens.
            let mut arg_toks = Vec::new();
            if matches!(toks.get(i).map(|t| &t.tok), Some(Tok::P("("))) {
                let mut depth = 0;
                while i < toks.len() {
                    match toks[i].tok {
                        Tok::P("(") => depth += 1,
                        Tok::P(")") => {
                            depth -= 1;
                            if depth == 0 {
                                i += 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                    arg_toks.push(toks[i].clone());
                    i += 1;
                }
                arg_toks.remove(0);
                if depth != 0 {
                    return error(line, format!("unbalanced parentheses in `!$acc {text}`"));
                }
            }
            let has_arg = !arg_toks.is_empty();
            let mut c = clause.clone();
            let after_update = clauses.last().is_some_and(|c: &String| c == "update");
            if has_arg {
                let arg = if pgi13_loop && !after_update && matches!(clause.as_str(), "host" | "parallel" | "vector" | "seq" | "unroll") {
                    // 1.3 §2.4.1: `host(16)`, `vector(256)`: widths.
                    self.expr_list(&arg_toks, line)?
                } else if clause == "reduction" {
                    self.reduction_arg(&arg_toks, line)?
                } else if VAR_CLAUSES.contains(&clause.as_str()) || (pgi13_name.is_some() && matches!(clause.as_str(), "local" | "mirror" | "reflected")) {
                    // Common block names (`/blk/`) may appear in the data clauses but for
                    // `present` and `deviceptr` (OpenACC 2.0 §2.7), and in `declare`'s
                    // `device_resident` and `link` (§2.10).
                    let commons_allowed = matches!(
                        clause.as_str(),
                        "copy" | "copyin" | "copyout" | "create" | "present_or_copy" | "pcopy" | "present_or_copyin" | "pcopyin" | "present_or_copyout" | "pcopyout" | "present_or_create" | "pcreate" | "delete" | "device_resident" | "link"
                    );
                    let mut vars = self.var_list_in(&arg_toks, line, commons_allowed.then_some(clause.as_str()))?;
                    if clause == "private" && !extra_private.is_empty() {
                        privates_done = true;
                        for p in extra_private {
                            if !vars.contains(p) {
                                vars.push(p.clone());
                            }
                        }
                    }
                    vars.join(", ")
                } else if clause == "default" || clause == "device_type" || clause == "dtype" {
                    arg_toks.iter().map(|t| crate::expr_parse::describe(&t.tok).trim_matches('`').to_string()).collect::<Vec<_>>().join(" ")
                } else {
                    // Expression arguments (`num_gangs(n)`, `if(cond)`, `collapse(2)`, `wait(1, 2)`,
                    // `gang(num: n)`…).
                    self.expr_list(&arg_toks, line)?
                };
                c = format!("{clause}({arg})");
            }
            clauses.push(c);
        }
        if name.is_empty() {
            return error(line, format!("unknown OpenACC directive `!$acc {text}`"));
        }
        if (name == "cache" || name == "wait" || name == "routine") && clauses.is_empty() {
            // `cache(...)`, `wait(...)` and `routine(name)` take their argument right after the name.
        }
        if !extra_private.is_empty() && !privates_done {
            clauses.push(format!("private({})", extra_private.join(", ")));
        }
        Ok(format!("{name} {}", clauses.join(" ")).trim().to_string())
    }

    /// The name words of a PGI Accelerator 1.3 directive that owns a block or loop (`region`,
/// `region do`, `data region`, `do`), and the token index after them.
fn pgi13_directive_name(toks: &[crate::lexer::Token]) -> Option<(String, usize)> {
    let word = |k: usize| match toks.get(k).map(|t| &t.tok) {
        Some(Tok::Name(w)) => Some(w.as_str()),
        _ => None,
    };
    match (word(0)?, word(1)) {
        ("region", Some("do")) => Some(("region do".into(), 2)),
        ("region", _) => Some(("region".into(), 1)),
        ("data", Some("region")) => Some(("data region".into(), 2)),
        ("do", _) => Some(("do".into(), 1)),
        _ => None,
    }
}

/// `+:s`, `max:m`, `.and.:flag` → C reduction argument.
    fn reduction_arg(&mut self, toks: &[crate::lexer::Token], line: u32) -> TResult<String> {
        let colon = toks.iter().position(|t| matches!(t.tok, Tok::P(":"))).ok_or_else(|| FortranError { line, col: 0, message: "expected `operator:list` in `reduction`".into(), unsupported: false })?;
        let op = match toks.get(..colon) {
            Some([t]) => match &t.tok {
                Tok::P("+") => "+",
                Tok::P("*") => "*",
                Tok::Name(n) if n == "max" => "max",
                Tok::Name(n) if n == "min" => "min",
                Tok::Name(n) if n == "iand" => "&",
                Tok::Name(n) if n == "ior" => "|",
                Tok::Name(n) if n == "ieor" => "^",
                Tok::Dot(d) if d == "and" => "&&",
                Tok::Dot(d) if d == "or" => "||",
                Tok::Dot(d) if d == "eqv" || d == "neqv" => return unsupported(line, format!("the `.{d}.` reduction operator")),
                other => return error(line, format!("unknown reduction operator {}", crate::expr_parse::describe(other))),
            },
            _ => return error(line, "expected one reduction operator"),
        };
        let vars = self.var_list(&toks[colon + 1..], line)?;
        Ok(format!("{op}:{}", vars.join(", ")))
    }

    /// Comma-separated expressions (Fortran) → C; keeps `name:` prefixes such as `num:`.
    fn expr_list(&mut self, toks: &[crate::lexer::Token], line: u32) -> TResult<String> {
        let mut parts = Vec::new();
        let mut c = crate::expr_parse::Cursor::new(toks, 0);
        while !c.at_end() {
            let mut prefix = String::new();
            if let (Some(Tok::Name(n)), Some(Tok::P(":"))) = (c.peek(), c.peek_at(1)) {
                prefix = format!("{n}: ");
                c.pos += 2;
            }
            if c.eat_p("*") {
                parts.push(format!("{prefix}*"));
            } else {
                let e = c.expr().map_err(|(col, m)| FortranError { line, col: col as u32, message: m, unsupported: false })?;
                let ce = self.expr(&e, None, line)?;
                parts.push(format!("{prefix}{}", super::expr::unparen(&ce.c)));
            }
            if !c.eat_p(",") {
                break;
            }
        }
        Ok(parts.join(", "))
    }

    /// A list of variables and array sections → C names and subarrays.
    fn var_list(&mut self, toks: &[crate::lexer::Token], line: u32) -> TResult<Vec<String>> {
        self.var_list_in(toks, line, None)
    }

    /// [`Self::var_list`] of clause `commons_clause` when it may name common blocks: `/blk/`
    /// stands for every variable of the block (OpenACC 2.0 §2.7: "the list argument may include
    /// a Fortran common block name enclosed within slashes"). accsim lays a block out as one C
    /// global per member, so the block's data are its members' data.
    fn var_list_in(&mut self, toks: &[crate::lexer::Token], line: u32, commons_clause: Option<&str>) -> TResult<Vec<String>> {
        let mut c = crate::expr_parse::Cursor::new(toks, 0);
        let mut out = Vec::new();
        while !c.at_end() {
            if c.is_p("/") || c.is_p("//") {
                let block = match (c.peek_at(0), c.peek_at(1), c.peek_at(2)) {
                    (Some(Tok::P("/")), Some(Tok::Name(b)), Some(Tok::P("/"))) => b.clone(),
                    _ => return error(line, "a common block in a clause is its name between slashes (`/name/`); blank common cannot be named"),
                };
                let Some(clause) = commons_clause else {
                    return error(line, format!("common block /{block}/ cannot appear in this clause: only the data clauses but `present` and `deviceptr` (OpenACC 2.0 §2.7) and `declare`'s `device_resident` and `link` (§2.10) take common block names"));
                };
                let Some(members) = self.f.commons.iter().find(|(name, _)| name == &block).map(|(_, m)| m.clone()) else {
                    return error(line, format!("`/{block}/` in `{clause}`: this procedure declares no common block /{block}/"));
                };
                c.pos += 3;
                for m in members {
                    let var = self.clause_var(&Expr::Name(m.clone()), line)?;
                    self.names.add_section(&var, &m, line);
                    out.push(var);
                }
                if !c.eat_p(",") {
                    break;
                }
                continue;
            }
            let e = c.expr().map_err(|(col, m)| FortranError { line, col: col as u32, message: m, unsupported: false })?;
            let var = self.clause_var(&e, line)?;
            self.names.add_section(&var, &crate::names::fortran_text(&e), line);
            out.push(var);
            if !c.eat_p(",") {
                break;
            }
        }
        Ok(out)
    }

    /// One variable or section in a clause.
    fn clause_var(&mut self, e: &Expr, line: u32) -> TResult<String> {
        match e {
            Expr::Name(n) => {
                if self.procs.contains_key(n) && self.lookup(n).is_none() {
                    return Ok(format!("{n}_"));
                }
                let v = self.var(n, line)?;
                Ok(match &v.shape {
                    Some(sh) if !sh.fixed => {
                        if sh.assumed_size {
                            return error(line, format!("assumed-size array `{n}` needs an explicit section in an OpenACC clause"));
                        }
                        // A character array's subarray counts characters (OpenACC's C form).
                        let scale = if v.ty == Ty::Char { format!(" * {}", v.char_len.max(1)) } else { String::new() };
                        format!("{}[0:{}{scale}]", v.cname, sh.total())
                    }
                    _ => v.cname.clone(),
                })
            }
            Expr::Apply(n, args) => {
                if self.f.in_declare {
                    return error(line, format!("`{}` in `!$acc declare`: subarrays are not allowed in declare directives (OpenACC 2.0 §2.10); name the whole array `{n}`", crate::names::fortran_text(e)));
                }
                let v = self.var(n, line)?;
                let Some(sh) = v.shape.clone() else { return error(line, format!("`{n}` is not an array")) };
                if args.len() != sh.rank() {
                    return error(line, format!("`{n}` has rank {} but the section has {} subscripts", sh.rank(), args.len()));
                }
                // Contiguous: full dimensions, then at most one partial range, then scalars.
                let mut subs = Vec::new();
                let mut len = Vec::new();
                let mut stage = 0; // 0: full dims so far, 1: partial range seen, 2: scalars
                for (k, a) in args.iter().enumerate() {
                    match a {
                        Arg::Range(lo, hi, None) => {
                            let lo_c = match lo {
                                Some(l) => self.expr(l, None, line)?.c,
                                None => sh.lbs[k].clone(),
                            };
                            let hi_c = match hi {
                                Some(h) => self.expr(h, None, line)?.c,
                                None => {
                                    if sh.assumed_size && k + 1 == sh.rank() {
                                        return error(line, format!("the section of assumed-size array `{n}` needs an upper bound"));
                                    }
                                    sh.ub(k)
                                }
                            };
                            // A range spelling out the bounds (`a(1:n, j)` of `a(n, m)`) is whole too.
                            let same = |given: &Option<Expr>, c: &str, bound: &str, t: &Self| match given {
                                None => true,
                                Some(e) => c == bound || t.fold(e).is_some_and(|v| bound.parse::<i64>() == Ok(v)),
                            };
                            let full = same(lo, &lo_c, &sh.lbs[k], self) && same(hi, &hi_c, &sh.ub(k), self);
                            if stage >= 1 {
                                return error(line, format!("the section `{}` is not contiguous: an array or subarray in a data clause must be a contiguous block of memory (OpenACC 2.0 §2.6)", crate::names::fortran_text(e)));
                            }
                            if !full {
                                stage = 1;
                            }
                            len.push(count(&lo_c, &hi_c, None));
                            subs.push(lo_c);
                        }
                        Arg::Value(x) => {
                            stage = 2;
                            subs.push(self.expr(x, None, line)?.c);
                        }
                        _ => return unsupported(line, format!("strided sections of `{n}` in OpenACC clauses")),
                    }
                }
                let start = Self::offset(&sh, &subs, None);
                let length = if len.is_empty() { "1".to_string() } else { len.iter().map(|l| format!("({l})")).collect::<Vec<_>>().join(" * ") };
                if v.ty == Ty::Char {
                    let l = v.char_len.max(1);
                    return Ok(format!("{}[({start}) * {l}:({length}) * {l}]", v.cname));
                }
                Ok(format!("{}[{start}:{length}]", v.cname))
            }
            // A member of a variable of derived type, or a subarray of a member (OpenACC 2.0
            // §2.6: "members of variables of derived type may be specified, including a subarray
            // of a member ... Members of subarrays of derived type may not be specified").
            Expr::Component(base, part, args) => {
                let Expr::Name(root) = base.as_ref() else {
                    return error(line, format!("`{}`: members of array elements or subarrays of derived type may not be specified in a data clause (OpenACC 2.0 §2.6)", crate::names::fortran_text(e)));
                };
                let v = self.var(root, line)?;
                if v.shape.is_some() {
                    return error(line, format!("`{}`: members of arrays of derived type may not be specified in a data clause (OpenACC 2.0 §2.6)", crate::names::fortran_text(e)));
                }
                let comp = self.component_of(base, part, line)?;
                match (&comp.shape, args) {
                    (None, None) => Ok(comp.cname),
                    // An allocatable component: its data, the elements the pointer member points
                    // to (what a member's subarray names in C, §2.7).
                    (Some(sh), None) if !sh.fixed => Ok(format!("{}[0:{}]", comp.cname, sh.total())),
                    (Some(_), None) => Ok(comp.cname),
                    (Some(_), Some(a)) => {
                        // The member's subarray: the same contiguity rules as an array's.
                        let tmp = format!("_fmember{}", part);
                        self.f.scope.insert(tmp.clone(), comp.clone());
                        let r = self.clause_var(&Expr::Apply(tmp.clone(), a.clone()), line);
                        self.f.scope.remove(&tmp);
                        r
                    }
                    (None, Some(_)) => error(line, format!("component `{part}` is not an array")),
                }
            }
            _ => error(line, "expected a variable or an array section in the OpenACC clause"),
        }
    }

    /// A directive statement and, for constructs, its body.
    pub fn acc(&mut self, text: &str, body: Option<&[Stmt]>, end_line: u32, line: u32, out: &mut String) -> TResult<()> {
        let m = self.marker(line);
        let lower = text.trim().to_ascii_lowercase();
        let words: Vec<&str> = lower.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).filter(|w| !w.is_empty()).collect();
        let w0 = words.first().copied().unwrap_or("");
        let w1 = words.get(1).copied().unwrap_or("");
        // PGI 1.3's `region` and `region do` are compute constructs, `do` a loop directive.
        let compute = matches!(w0, "parallel" | "kernels" | "region");
        let is_loop = w0 == "loop" || w0 == "do" || (compute && matches!(w1, "loop" | "do"));
        if w0 == "declare" || w0 == "routine" {
            return unsupported(line, format!("`!$acc {w0}` among executable statements (put it in the specification part)"));
        }
        let Some(body) = body else {
            let c = self.acc_directive_text(text, line, &[])?;
            let _ = writeln!(out, "{m}#pragma acc {c}");
            return Ok(());
        };
        // Sequential loops nested in a loop directive's loop get private loop variables.
        let mut extra_private = Vec::new();
        if is_loop {
            if let Some(Stmt { kind: StmtKind::Do { body: inner, .. }, .. }) = body.first() {
                let collapse = clause_int(&lower, "collapse").unwrap_or(1);
                inner_loop_vars(inner, collapse.saturating_sub(1), &mut extra_private);
            }
            extra_private.retain(|v| self.lookup(v).is_some_and(|x| x.shape.is_none()));
            extra_private = extra_private.iter().map(|v| self.lookup(v).map(|x| x.cname.clone()).unwrap_or_default()).collect();
            extra_private.sort();
            extra_private.dedup();
        }
        let mut c = self.acc_directive_text(text, line, &extra_private)?;
        if compute {
            // Implicit present_or_copy for arrays behind pointers that no clause names.
            let mut used = Vec::new();
            arrays_used(body, &mut used);
            used.sort();
            used.dedup();
            let named = clause_names(&lower);
            let mut implicit = Vec::new();
            for n in used {
                if named.contains(&n) {
                    continue;
                }
                if let Some(v) = self.lookup(&n) {
                    if let Some(sh) = &v.shape {
                        if !sh.fixed && !sh.assumed_size {
                            let section = format!("{}[0:{}]", v.cname, sh.total());
                            self.names.add_section(&section, &n, line);
                            implicit.push(section);
                        }
                    }
                }
            }
            if !implicit.is_empty() {
                c.push_str(&format!(" present_or_copy({})", implicit.join(", ")));
            }
            self.f.in_compute += 1;
            if matches!(w0, "kernels" | "region") {
                self.f.in_kernels += 1;
            }
        }
        let _ = writeln!(out, "{m}#pragma acc {c}");
        let r = if is_loop {
            match body.first() {
                Some(Stmt { kind: StmtKind::Do { name, var, lo, hi, step, body: inner }, line: dl }) => {
                    let collapse = clause_int(&lower, "collapse").unwrap_or(1);
                    self.f.in_compute += 1;
                    let r = self.do_loop_collapsed(name.as_ref(), var, lo, hi, step.as_ref(), inner, *dl, out, collapse);
                    self.f.in_compute -= 1;
                    r
                }
                _ => error(line, "a loop directive must be followed by a `do` loop"),
            }
        } else if w0 == "atomic" {
            // The C form: the directive, then the one expression statement (or a block of two
            // for `atomic capture`).
            self.f.in_atomic = true;
            let two = body.len() > 1;
            if two {
                let _ = writeln!(out, "{m}{{");
            }
            let r = self.block(body, out);
            if two {
                let _ = writeln!(out, "{}}}", self.marker(end_line));
            }
            self.f.in_atomic = false;
            r
        } else {
            let _ = writeln!(out, "{m}{{");
            let r = self.block(body, out);
            let _ = writeln!(out, "{}}}", self.marker(end_line));
            r
        };
        if compute {
            self.f.in_compute -= 1;
            if matches!(w0, "kernels" | "region") {
                self.f.in_kernels -= 1;
            }
        }
        r
    }

    /// A `do` loop under a loop directive; with `collapse(n)` the next n-1 nested loops are
    /// written canonically too.
    fn do_loop_collapsed(&mut self, name: Option<&String>, var: &str, lo: &Expr, hi: &Expr, step: Option<&Expr>, body: &[Stmt], line: u32, out: &mut String, collapse: u32) -> TResult<()> {
        if collapse <= 1 {
            return self.do_loop(name, var, lo, hi, step, body, line, out, true);
        }
        match body {
            [Stmt { kind: StmtKind::Do { name: n2, var: v2, lo: l2, hi: h2, step: s2, body: b2 }, line: l }] => {
                let outer = [(name.cloned(), var.to_string(), lo.clone(), hi.clone(), step.cloned(), line)];
                self.collapsed_nest(&outer, n2.as_ref(), v2, l2, h2, s2.as_ref(), b2, *l, out, collapse - 1)
            }
            _ => error(line, format!("`collapse({collapse})` needs {collapse} tightly nested `do` loops")),
        }
    }

    fn collapsed_nest(
        &mut self,
        outer: &[(Option<String>, String, Expr, Expr, Option<Expr>, u32)],
        name: Option<&String>,
        var: &str,
        lo: &Expr,
        hi: &Expr,
        step: Option<&Expr>,
        body: &[Stmt],
        line: u32,
        out: &mut String,
        remaining: u32,
    ) -> TResult<()> {
        if remaining > 1 {
            if let [Stmt { kind: StmtKind::Do { name: n2, var: v2, lo: l2, hi: h2, step: s2, body: b2 }, line: l }] = body {
                let mut o = outer.to_vec();
                o.push((name.cloned(), var.to_string(), lo.clone(), hi.clone(), step.cloned(), line));
                return self.collapsed_nest(&o, n2.as_ref(), v2, l2, h2, s2.as_ref(), b2, *l, out, remaining - 1);
            }
            return error(line, "`collapse` needs tightly nested `do` loops");
        }
        // Build the nest from the outermost: each loop's body is the next loop.
        let mut loops = outer.to_vec();
        loops.push((name.cloned(), var.to_string(), lo.clone(), hi.clone(), step.cloned(), line));
        let mut stmt_body = body.to_vec();
        for (n, v, l, h, s, ln) in loops.iter().rev() {
            stmt_body = vec![Stmt { line: *ln, kind: StmtKind::Do { name: n.clone(), var: v.clone(), lo: l.clone(), hi: h.clone(), step: s.clone(), body: stmt_body } }];
        }
        let Some(Stmt { kind: StmtKind::Do { name, var, lo, hi, step, body }, line }) = stmt_body.first() else { return error(line, "collapse") };
        self.do_loop(name.as_ref(), var, lo, hi, step.as_ref(), body, *line, out, true)
    }
}

/// The integer argument of `clause(n)` in a lower-case directive text.
fn clause_int(text: &str, clause: &str) -> Option<u32> {
    let at = text.find(&format!("{clause}("))?;
    let rest = &text[at + clause.len() + 1..];
    rest[..rest.find(')')?].trim().parse().ok()
}

/// Names that appear inside the data clauses of a lower-case directive text.
fn clause_names(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let Ok(toks) = tokenize(text) else { return out };
    let mut i = 0;
    while i < toks.len() {
        if let Tok::Name(n) = &toks[i].tok {
            if DATA_CLAUSES.contains(&n.as_str()) || n == "reduction" {
                if let Some(Tok::P("(")) = toks.get(i + 1).map(|t| &t.tok) {
                    let mut depth = 0;
                    let mut j = i + 1;
                    while j < toks.len() {
                        match &toks[j].tok {
                            Tok::P("(") => depth += 1,
                            Tok::P(")") => {
                                depth -= 1;
                                if depth == 0 {
                                    break;
                                }
                            }
                            Tok::Name(v) if depth == 1 => out.push(v.clone()),
                            _ => {}
                        }
                        j += 1;
                    }
                    i = j;
                }
            }
        }
        i += 1;
    }
    out
}

/// Names of variables referenced with subscripts or by name in the statements.
fn arrays_used(stmts: &[Stmt], out: &mut Vec<String>) {
    fn expr(e: &Expr, out: &mut Vec<String>) {
        match e {
            Expr::Name(n) => out.push(n.clone()),
            Expr::Apply(n, args) => {
                out.push(n.clone());
                for a in args {
                    match a {
                        Arg::Value(x) | Arg::Keyword(_, x) => expr(x, out),
                        Arg::Range(a, b, c) => {
                            for x in [a, b, c].into_iter().flatten() {
                                expr(x, out);
                            }
                        }
                    }
                }
            }
            Expr::Unary(_, x) | Expr::Paren(x) => expr(x, out),
            Expr::Substring(b, lo, hi) => {
                expr(b, out);
                for x in [lo, hi].into_iter().flatten() {
                    expr(x, out);
                }
            }
            Expr::Component(b, _, args) => {
                expr(b, out);
                if let Some(args) = args {
                    expr(&Expr::Apply(String::new(), args.clone()), out);
                }
            }
            Expr::Binary(_, a, b) | Expr::Complex(a, b) => {
                expr(a, out);
                expr(b, out);
            }
            Expr::Constructor(items) => items.iter().for_each(|x| expr(x, out)),
            Expr::ImpliedDo { items, lo, hi, step, .. } => {
                items.iter().for_each(|x| expr(x, out));
                expr(lo, out);
                expr(hi, out);
                if let Some(s) = step {
                    expr(s, out);
                }
            }
            _ => {}
        }
    }
    for s in stmts {
        match &s.kind {
            StmtKind::Assign(a, b) => {
                expr(a, out);
                expr(b, out);
            }
            StmtKind::Call(_, args) => {
                for a in args {
                    if let Arg::Value(x) | Arg::Keyword(_, x) = a {
                        expr(x, out);
                    }
                }
            }
            StmtKind::Print { items, .. } => items.iter().for_each(|x| expr(x, out)),
            StmtKind::Read { items, iostat } => items.iter().chain(iostat).for_each(|x| expr(x, out)),
            StmtKind::If { arms, otherwise } => {
                for (c, b) in arms {
                    expr(c, out);
                    arrays_used(b, out);
                }
                if let Some(b) = otherwise {
                    arrays_used(b, out);
                }
            }
            StmtKind::Do { lo, hi, step, body, .. } => {
                expr(lo, out);
                expr(hi, out);
                if let Some(s) = step {
                    expr(s, out);
                }
                arrays_used(body, out);
            }
            StmtKind::DoWhile { cond, body, .. } => {
                expr(cond, out);
                arrays_used(body, out);
            }
            StmtKind::DoForever { body, .. } => arrays_used(body, out),
            StmtKind::Select { selector, cases, default } => {
                expr(selector, out);
                for (_, b) in cases {
                    arrays_used(b, out);
                }
                if let Some(b) = default {
                    arrays_used(b, out);
                }
            }
            StmtKind::Where { mask, then, otherwise } => {
                expr(mask, out);
                arrays_used(then, out);
                arrays_used(otherwise, out);
            }
            StmtKind::Acc { body: Some(b), .. } => arrays_used(b, out),
            _ => {}
        }
    }
}

/// Loop variables of the `do` loops nested in `stmts` (skipping `skip` levels of collapsed loops).
fn inner_loop_vars(stmts: &[Stmt], skip: u32, out: &mut Vec<String>) {
    for s in stmts {
        match &s.kind {
            StmtKind::Do { var, body, .. } => {
                if skip == 0 {
                    out.push(var.clone());
                }
                inner_loop_vars(body, skip.saturating_sub(1), out);
            }
            StmtKind::If { arms, otherwise } => {
                for (_, b) in arms {
                    inner_loop_vars(b, 0, out);
                }
                if let Some(b) = otherwise {
                    inner_loop_vars(b, 0, out);
                }
            }
            StmtKind::DoWhile { body, .. } | StmtKind::DoForever { body, .. } => inner_loop_vars(body, 0, out),
            StmtKind::Select { cases, default, .. } => {
                for (_, b) in cases {
                    inner_loop_vars(b, 0, out);
                }
                if let Some(b) = default {
                    inner_loop_vars(b, 0, out);
                }
            }
            // A nested loop directive makes its own loop's variable private.
            StmtKind::Acc { body: Some(b), .. } => inner_loop_vars(b, 0, out),
            _ => {}
        }
    }
}

/// Runtime routines taking an array (or scalar) and an optional byte count (§3.2.15–§3.2.23 in
/// their Fortran form: `call acc_copyin(a(1:n))`).
const DATA_API: [&str; 11] = [
    "acc_copyin", "acc_present_or_copyin", "acc_pcopyin", "acc_create", "acc_present_or_create", "acc_pcreate", "acc_copyout", "acc_delete", "acc_update_device", "acc_update_self", "acc_is_present",
];

impl Translator {
    /// The address and element count of a variable, element or contiguous section.
    fn data_extent(&mut self, e: &Expr, line: u32) -> TResult<(String, String, Ty)> {
        match e {
            Expr::Name(n) => {
                let v = self.var(n, line)?;
                Ok(match &v.shape {
                    Some(sh) if v.ty == Ty::Char => (v.cname.clone(), format!("{} * {}", sh.total(), v.char_len.max(1)), v.ty),
                    Some(sh) => (v.cname.clone(), sh.total(), v.ty),
                    None if v.ty == Ty::Char => (v.cname.clone(), v.len_c(), v.ty),
                    None => (format!("&{}", v.cname), "1".into(), v.ty),
                })
            }
            Expr::Apply(n, _) => {
                let v = self.var(n, line)?;
                let sub = self.clause_var(e, line)?;
                // `name[start:length]`
                let inner = sub.strip_prefix(&format!("{}[", v.cname)).and_then(|r| r.strip_suffix(']')).unwrap_or("0:1");
                let (start, len) = inner.rsplit_once(':').unwrap_or(("0", "1"));
                Ok((format!("&{}[{start}]", v.cname), len.to_string(), v.ty))
            }
            _ => error(line, "expected a variable or array section"),
        }
    }

    /// A call of an OpenACC runtime routine from Fortran (`use openacc`, §3): C's routine with the
    /// array turned into its address and byte count. `None` when `name` is not one.
    pub fn acc_api(&mut self, name: &str, args: &[Arg], line: u32) -> TResult<Option<super::expr::CE>> {
        use super::expr::CE;
        if !name.starts_with("acc_") || self.procs.contains_key(name) {
            return Ok(None);
        }
        let vals: Vec<&Expr> = args
            .iter()
            .filter_map(|a| match a {
                Arg::Value(v) | Arg::Keyword(_, v) => Some(v),
                Arg::Range(..) => None,
            })
            .collect();
        if DATA_API.contains(&name) {
            let Some(first) = vals.first() else { return error(line, format!("`{name}` needs an array")) };
            let (ptr, count, ty) = self.data_extent(first, line)?;
            let elem = if ty == Ty::Char { "char" } else { ty.c() };
            let bytes = match vals.get(1) {
                Some(l) => self.expr(l, None, line)?.c,
                None => format!("({count}) * sizeof({elem})"),
            };
            let call = format!("{name}({ptr}, {bytes})");
            return Ok(Some(if name == "acc_is_present" { CE::new(format!("({call} != 0)"), Ty::Logical) } else { CE::new(call, Ty::Int(4)) }));
        }
        let ret = match name {
            "acc_get_num_devices" | "acc_get_device_num" | "acc_get_device_type" => Ty::Int(4),
            "acc_on_device" | "acc_async_test" | "acc_async_test_all" => Ty::Logical,
            "acc_set_device_type" | "acc_set_device_num" | "acc_init" | "acc_shutdown" | "acc_async_wait" | "acc_async_wait_all" | "acc_wait" | "acc_wait_all" | "acc_wait_async" | "acc_wait_all_async" => Ty::Int(4),
            _ => return unsupported(line, format!("the OpenACC runtime routine `{name}` in Fortran")),
        };
        let mut cargs = Vec::new();
        for v in &vals {
            cargs.push(super::expr::unparen(&self.expr(v, None, line)?.c));
        }
        // Device numbers (OpenACC 2.0 §3.2.4): "If the value of devicenum is zero, the runtime
        // will revert to its default behavior", and only a number greater than
        // `acc_get_num_devices` is implementation-defined: the devices of a type are numbered
        // 1 to n, as the V&V suite's Fortran tests use them. accsim's runtime numbers them from 0
        // (0 is also the default device), so the Fortran binding shifts by one.
        if name == "acc_set_device_num" {
            if let Some(n) = cargs.first_mut() {
                *n = format!("(({n}) > 0 ? ({n}) - 1 : 0)");
            }
        }
        let call = format!("{name}({})", cargs.join(", "));
        if name == "acc_get_device_num" {
            return Ok(Some(CE::new(format!("({call} + 1)"), Ty::Int(4))));
        }
        Ok(Some(if ret == Ty::Logical { CE::new(format!("({call} != 0)"), Ty::Logical) } else { CE::new(call, ret) }))
    }
}
