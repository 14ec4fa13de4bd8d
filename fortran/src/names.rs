//! Fortran wording for messages about a translated program (issue 16).
//!
//! The checkers and the runtime describe what they find in the terms of the C translation: an
//! element as its flat 0-based index (`a[9]`), a data clause's array as the translated subarray
//! (`a[0:(a_n1)]`), a fix as a C directive (`#pragma acc update host(a)`). The translator records,
//! for each C variable, the Fortran variable it holds (name, bounds) and, for each array or section
//! it wrote in a clause, the Fortran text it came from: a [`FortranNames`] side table. Its
//! [`FortranNames::render`] rewrites the `` `code` `` spans of a message into Fortran: elements as
//! 1-based column-major subscripts (`a(10)`, `b(3,2)`: array element order, Fortran 2003 §6.2.2.2),
//! sections as written (`a(1:n)`, `a`), directives with the `!$acc` sentinel (OpenACC 2.0 §2.1;
//! clauses keep their names: `update host` is §2.11.1.2's, which gfortran also reads), runtime
//! calls as `call acc_…`. Spans it cannot place are left as they are.

use crate::ast::{Arg, Expr};

/// What the Fortran program calls one C variable of the translation.
#[derive(Debug, Clone, PartialEq)]
pub struct VarName {
    /// The name in the C translation (`a`, `m_x` for a module variable, `f_result`).
    pub cname: String,
    /// The Fortran name.
    pub fname: String,
    /// Lines of the program unit the variable belongs to (inclusive); `(0, u32::MAX)` for globals.
    pub lines: (u32, u32),
    /// Lower bound of each dimension, when constant (empty for a scalar).
    pub lbs: Vec<Option<i64>>,
    /// Extent of each dimension, when constant.
    pub exts: Vec<Option<i64>>,
}

/// The side table of one translated Fortran file (see the module documentation).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FortranNames {
    pub vars: Vec<VarName>,
    /// C clause text (`a[1 - 1:(100)]`) → Fortran text (`a(1:n)`), with the line it was written on.
    pub sections: Vec<(String, String, u32)>,
    /// For each allocatable array (C name): the bounds every `allocate` of it gives, per
    /// dimension, where all agree and are constant.
    pub allocations: Vec<(String, Vec<(Option<i64>, Option<i64>)>)>,
    /// Warnings about the program (line, kind, message): constructs gfortran accepts with a
    /// warning under a compatibility option, which accsim runs as gfortran does.
    pub warnings: Vec<(u32, &'static str, String)>,
}

impl FortranNames {
    /// Record a variable (a later identical entry is not added twice).
    pub fn add_var(&mut self, v: VarName) {
        if !self.vars.contains(&v) {
            self.vars.push(v);
        }
    }

    /// Record the bounds (lower bound, extent; `None` where not constant) one `allocate` gives
    /// the allocatable array `cname`.
    pub fn note_allocation(&mut self, cname: &str, dims: &[(Option<i64>, Option<i64>)]) {
        match self.allocations.iter_mut().find(|(c, _)| c == cname) {
            Some((_, known)) => {
                for (k, d) in known.iter_mut().zip(dims) {
                    if k.0 != d.0 {
                        k.0 = None;
                    }
                    if k.1 != d.1 {
                        k.1 = None;
                    }
                }
            }
            None => self.allocations.push((cname.to_string(), dims.to_vec())),
        }
    }

    /// Give allocatable arrays the bounds all their `allocate` statements agree on.
    pub fn apply_allocations(&mut self) {
        // Allocatable arrays are the ones whose lower bounds are all run-time variables.
        for v in self.vars.iter_mut().filter(|v| !v.lbs.is_empty() && v.lbs.iter().all(Option::is_none)) {
            let Some((_, dims)) = self.allocations.iter().find(|(c, d)| *c == v.cname && d.len() == v.lbs.len()) else { continue };
            for (k, (lb, ext)) in dims.iter().enumerate() {
                v.lbs[k] = v.lbs[k].or(*lb);
                v.exts[k] = v.exts[k].or(*ext);
            }
        }
    }

    /// Record that the C clause text `c` stands for the Fortran text `fortran` (at `line`).
    pub fn add_section(&mut self, c: &str, fortran: &str, line: u32) {
        if c != fortran && !self.sections.iter().any(|(x, f, l)| x == c && f == fortran && *l == line) {
            self.sections.push((c.to_string(), fortran.to_string(), line));
        }
    }

    /// The variable named `cname` in C, as seen from `line`: the innermost unit containing the
    /// line, else the one entry of that name (or several that agree on name and shape).
    pub fn var(&self, cname: &str, line: u32) -> Option<&VarName> {
        let all: Vec<&VarName> = self.vars.iter().filter(|v| v.cname == cname).collect();
        let inside = all.iter().filter(|v| v.lines.0 <= line && line <= v.lines.1).min_by_key(|v| v.lines.1 - v.lines.0);
        if let Some(v) = inside {
            return Some(v);
        }
        let first = *all.first()?;
        all.iter().all(|v| v.fname == first.fname && v.lbs == first.lbs && v.exts == first.exts).then_some(first)
    }

    /// The Fortran text of a C clause text, as seen from `line` (the nearest recording).
    fn section(&self, c: &str, line: u32) -> Option<&str> {
        self.sections.iter().filter(|(x, _, _)| x == c).min_by_key(|(_, _, l)| l.abs_diff(line)).map(|(_, f, _)| f.as_str())
    }

    /// Rewrite the `` `code` `` spans of a message into Fortran (`line`: where the message is).
    pub fn render(&self, text: &str, line: u32) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(open) = rest.find('`') {
            let Some(len) = rest[open + 1..].find('`') else { break };
            out.push_str(&rest[..open]);
            let code = &rest[open + 1..open + 1 + len];
            out.push('`');
            match self.element_order(code, line) {
                Some((name, k)) => {
                    out.push_str(&name);
                    out.push('`');
                    out.push_str(&format!(" (element {k} in array element order)"));
                }
                None => {
                    out.push_str(&self.code(code, line));
                    out.push('`');
                }
            }
            rest = &rest[open + 2 + len..];
        }
        out.push_str(rest);
        out
    }

    /// One code span in Fortran.
    pub fn code(&self, code: &str, line: u32) -> String {
        if let Some(d) = code.strip_prefix("#pragma acc") {
            return format!("!$acc{}", self.directive(d, line));
        }
        if let Some(f) = self.section(code, line) {
            return f.to_string();
        }
        if let Some(call) = runtime_call(code) {
            return format!("call {}", self.args_in(call, line));
        }
        if let Some(e) = self.reference(code, line) {
            return e;
        }
        // A clause or a list of them (`create(a)`, `copyin(a[0:(a_n1)])`), or an expression.
        self.args_in(code, line)
    }

    /// The text after `#pragma acc` in Fortran: the clause arguments rendered.
    fn directive(&self, d: &str, line: u32) -> String {
        self.args_in(d, line)
    }

    /// Render every clause argument in `text` (`name(arg, arg)` groups, at any depth of one level).
    fn args_in(&self, text: &str, line: u32) -> String {
        let mut out = String::new();
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < text.len() {
            if bytes[i] == b'(' {
                // Find the matching parenthesis.
                let mut depth = 0;
                let mut j = i;
                while j < text.len() {
                    match bytes[j] {
                        b'(' => depth += 1,
                        b')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
                if j >= text.len() {
                    out.push_str(&text[i..]);
                    return out;
                }
                let inner = &text[i + 1..j];
                let parts: Vec<String> = split_top(inner).iter().map(|p| {
                    let t = p.trim();
                    self.section(t, line).map(str::to_string).or_else(|| self.reference(t, line)).unwrap_or_else(|| t.to_string())
                }).collect();
                out.push('(');
                out.push_str(&parts.join(", "));
                out.push(')');
                i = j + 1;
                continue;
            }
            let ch = text[i..].chars().next().unwrap_or(' ');
            out.push(ch);
            i += ch.len_utf8();
        }
        out
    }

    /// `a`, `a[9]` or `a[2:5]` of a known variable in Fortran.
    fn reference(&self, code: &str, line: u32) -> Option<String> {
        let code = code.trim();
        let (name, index) = match code.split_once('[') {
            Some((n, rest)) => (n, Some(rest.strip_suffix(']')?)),
            None => (code, None),
        };
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return None;
        }
        let v = self.var(name, line)?;
        let Some(index) = index else { return Some(v.fname.clone()) };
        if let Some((lo, len)) = index.split_once(':') {
            let (lo, len) = (lo.trim().parse::<i64>().ok()?, len.trim().parse::<i64>().ok()?);
            if len <= 0 {
                return None;
            }
            let first = v.subscripts(lo)?;
            let last = v.subscripts(lo + len - 1)?;
            return Some(section_text(&v.fname, &first, &last, v));
        }
        let k = index.trim().parse::<i64>().ok()?;
        v.subscripts(k).map(|s| format!("{}({})", v.fname, join(&s)))
    }

    /// `u[7]` of an array whose bounds are known only at run time: the Fortran name and the
    /// 1-based position in array element order (Fortran 2003 §6.2.2.2).
    fn element_order(&self, code: &str, line: u32) -> Option<(String, i64)> {
        let (name, index) = code.trim().split_once('[')?;
        let k = index.strip_suffix(']')?.trim().parse::<i64>().ok()?;
        let v = self.var(name, line)?;
        (k >= 0 && !v.lbs.is_empty() && v.subscripts(k).is_none()).then(|| (v.fname.clone(), k + 1))
    }

    /// What a message names first: its first `` `code` `` span (the column a location points at).
    pub fn subject(message: &str) -> Option<String> {
        let open = message.find('`')?;
        let len = message[open + 1..].find('`')?;
        Some(message[open + 1..open + 1 + len].to_string())
    }

    /// The column of `loc`'s line that a message about `subject` (Fortran text: `a(10)` or a
    /// name) points at: the subject's first occurrence in the statement (outside comments), else
    /// the statement's first character. The translation's own columns are those of the C text.
    pub fn column(line_text: &str, subject: Option<&str>) -> u32 {
        let first = line_text.len() - line_text.trim_start().len();
        let code_end = comment_start(line_text).unwrap_or(line_text.len());
        let code = line_text[..code_end].to_ascii_lowercase();
        if let Some(s) = subject.map(|s| s.to_ascii_lowercase()) {
            let squeezed: String = s.chars().filter(|c| !c.is_whitespace()).collect();
            if !squeezed.is_empty() {
                // An exact match of the text (blanks aside), then the name as a whole word.
                if let Some(at) = find_squeezed(&code, &squeezed) {
                    return at as u32 + 1;
                }
                let name: String = squeezed.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                if let Some(at) = find_word(&code, &name) {
                    return at as u32 + 1;
                }
            }
        }
        first as u32 + 1
    }
}

impl VarName {
    /// The subscripts of the element at flat 0-based index `k` (column-major), when the bounds
    /// that decide them are constants.
    fn subscripts(&self, k: i64) -> Option<Vec<i64>> {
        if k < 0 || self.lbs.is_empty() {
            return None;
        }
        let mut rest = k;
        let mut subs = Vec::new();
        for d in 0..self.lbs.len() {
            let lb = self.lbs[d]?;
            if d + 1 == self.lbs.len() {
                subs.push(lb + rest);
            } else {
                let n = self.exts[d].filter(|&n| n > 0)?;
                subs.push(lb + rest % n);
                rest /= n;
            }
        }
        Some(subs)
    }
}

/// `a(2:5)` for a rank-1 range, `a(1:10,3)`-style for a range inside one column, else the first
/// and last elements (`a(1,2)` to `a(4,3)`).
fn section_text(name: &str, first: &[i64], last: &[i64], v: &VarName) -> String {
    if first.len() == 1 {
        return if first[0] == last[0] { format!("{name}({})", first[0]) } else { format!("{name}({}:{})", first[0], last[0]) };
    }
    // Whole leading dimensions, then one range, then fixed subscripts.
    let whole = |d: usize| v.lbs[d].zip(v.exts[d]).map(|(lb, n)| (lb, lb + n - 1));
    let mut parts = Vec::new();
    let mut varying = false;
    for d in 0..first.len() {
        if first[d] == last[d] && !varying {
            parts.push(first[d].to_string());
        } else if whole(d) == Some((first[d], last[d])) || (first[d] <= last[d] && parts.iter().all(|p: &String| p == ":") && !varying) {
            if whole(d) == Some((first[d], last[d])) {
                parts.push(":".into());
            } else {
                parts.push(format!("{}:{}", first[d], last[d]));
                varying = true;
            }
        } else {
            return format!("{name}({}) to {name}({})", join(first), join(last));
        }
    }
    format!("{name}({})", parts.join(","))
}

fn join(v: &[i64]) -> String {
    v.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
}

/// `acc_wait(1)`, `acc_copyin(...)`: a C call of an OpenACC runtime routine (§3.2).
fn runtime_call(code: &str) -> Option<&str> {
    let code = code.trim();
    (code.starts_with("acc_") && code.ends_with(')') && code.contains('(')).then_some(code)
}

/// Split at the commas outside brackets and parentheses.
fn split_top(s: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts
}

/// Where a `!` comment starts in a line (outside character constants), `!$acc` excepted.
fn comment_start(line: &str) -> Option<usize> {
    let mut quote: Option<char> = None;
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None if c == '!' => {
                if line[i..].to_ascii_lowercase().starts_with("!$acc") {
                    continue;
                }
                return Some(i);
            }
            None => {}
        }
    }
    None
}

/// The byte offset in `hay` where `needle` (without blanks) starts, blanks in `hay` ignored.
fn find_squeezed(hay: &str, needle: &str) -> Option<usize> {
    let chars: Vec<(usize, char)> = hay.char_indices().filter(|(_, c)| !c.is_whitespace()).collect();
    let n: Vec<char> = needle.chars().collect();
    if n.is_empty() || chars.len() < n.len() {
        return None;
    }
    'outer: for s in 0..=chars.len() - n.len() {
        for (k, c) in n.iter().enumerate() {
            if chars[s + k].1 != *c {
                continue 'outer;
            }
        }
        // Whole words at both ends.
        let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
        let before = s.checked_sub(1).map(|p| chars[p].1);
        let after = chars.get(s + n.len()).map(|x| x.1);
        if before.is_some_and(|b| word(b) && word(n[0])) || after.is_some_and(|a| word(a) && n.last().is_some_and(|l| word(*l))) {
            continue;
        }
        return Some(chars[s].0);
    }
    None
}

/// The byte offset of `word` as a whole word in `hay`.
fn find_word(hay: &str, word: &str) -> Option<usize> {
    if word.is_empty() {
        return None;
    }
    let is_word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let b = hay.as_bytes();
    let mut from = 0;
    while let Some(at) = hay[from..].find(word) {
        let s = from + at;
        let e = s + word.len();
        if (s == 0 || !is_word(b[s - 1])) && (e >= b.len() || !is_word(b[e])) {
            return Some(s);
        }
        from = s + 1;
    }
    None
}

/// Fortran source text of an expression as a clause writes it (`a(1:n/2)`, `b(:,j)`).
pub fn fortran_text(e: &Expr) -> String {
    match e {
        Expr::Int(d, None) => d.clone(),
        Expr::Int(d, Some(k)) => format!("{d}_{k}"),
        Expr::Real(r) => r.clone(),
        Expr::Str(s) => format!("'{}'", s.replace('\'', "''")),
        Expr::Logical(b) => if *b { ".true." } else { ".false." }.into(),
        Expr::Complex(a, b) => format!("({}, {})", fortran_text(a), fortran_text(b)),
        Expr::Name(n) => n.clone(),
        Expr::Apply(n, args) => {
            let a: Vec<String> = args
                .iter()
                .map(|a| match a {
                    Arg::Value(v) => fortran_text(v),
                    Arg::Keyword(k, v) => format!("{k}={}", fortran_text(v)),
                    Arg::Range(lo, hi, st) => {
                        let p = |x: &Option<Expr>| x.as_ref().map(fortran_text).unwrap_or_default();
                        match st {
                            Some(s) => format!("{}:{}:{}", p(lo), p(hi), fortran_text(s)),
                            None => format!("{}:{}", p(lo), p(hi)),
                        }
                    }
                })
                .collect();
            format!("{n}({})", a.join(","))
        }
        Expr::Unary(op, x) => format!("{op}{}", fortran_text(x)),
        Expr::Binary(op, a, b) => {
            let (l, r) = (fortran_text(a), fortran_text(b));
            if op.starts_with('.') || matches!(*op, "==" | "/=" | "<" | "<=" | ">" | ">=" | "//") {
                format!("{l} {op} {r}")
            } else {
                format!("{l}{op}{r}")
            }
        }
        Expr::Constructor(items) => format!("[{}]", items.iter().map(fortran_text).collect::<Vec<_>>().join(", ")),
        Expr::ImpliedDo { items, var, lo, hi, step } => {
            let s = step.as_ref().map(|s| format!(", {}", fortran_text(s))).unwrap_or_default();
            format!("({}, {var} = {}, {}{s})", items.iter().map(fortran_text).collect::<Vec<_>>().join(", "), fortran_text(lo), fortran_text(hi))
        }
        Expr::Paren(x) => format!("({})", fortran_text(x)),
        Expr::Substring(base, lo, hi) => {
            let p = |x: &Option<Box<Expr>>| x.as_ref().map(|e| fortran_text(e)).unwrap_or_default();
            format!("{}({}:{})", fortran_text(base), p(lo), p(hi))
        }
        Expr::Component(base, part, args) => match args {
            Some(a) => format!("{}%{}", fortran_text(base), fortran_text(&Expr::Apply(part.clone(), a.clone()))),
            None => format!("{}%{part}", fortran_text(base)),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> FortranNames {
        let mut t = FortranNames::default();
        t.add_var(VarName { cname: "a".into(), fname: "a".into(), lines: (1, 20), lbs: vec![Some(1)], exts: vec![Some(100)] });
        t.add_var(VarName { cname: "b".into(), fname: "b".into(), lines: (1, 20), lbs: vec![Some(0), Some(1)], exts: vec![Some(10), Some(5)] });
        t.add_var(VarName { cname: "u".into(), fname: "u".into(), lines: (1, 20), lbs: vec![Some(1), Some(1)], exts: vec![None, None] });
        t.add_var(VarName { cname: "int_".into(), fname: "int".into(), lines: (21, 30), lbs: vec![], exts: vec![] });
        t.add_section("a[1 - 1:(100)]", "a(1:n)", 10);
        t.add_section("u[0:(u_n1) * (u_n2)]", "u", 12);
        t
    }

    #[test]
    fn elements_are_one_based_and_column_major() {
        let t = table();
        assert_eq!(t.render("the host reads `a[9]`, but", 5), "the host reads `a(10)`, but");
        // b(0:9, 1:5): flat 23 is (3, 3).
        assert_eq!(t.render("`b[23]`", 5), "`b(3,3)`");
        assert_eq!(t.render("`b[0:10]`", 5), "`b(:,1)`");
        assert_eq!(t.render("`a[4:3]`", 5), "`a(5:7)`");
    }

    #[test]
    fn run_time_bounds_give_the_position_in_array_element_order() {
        let t = table();
        assert_eq!(t.render("`u[7]` is read", 5), "`u` (element 8 in array element order) is read");
    }

    #[test]
    fn sections_and_directives_are_written_as_in_fortran() {
        let t = table();
        assert_eq!(t.render("`a[1 - 1:(100)]` is partially present", 10), "`a(1:n)` is partially present");
        assert_eq!(t.render("add `#pragma acc update host(a)` after", 5), "add `!$acc update host(a)` after");
        assert_eq!(t.render("`#pragma acc wait(1)` (or `acc_wait(1)`)", 5), "`!$acc wait(1)` (or `call acc_wait(1)`)");
        assert_eq!(t.render("`copyin(u[0:(u_n1) * (u_n2)])`", 12), "`copyin(u)`");
        assert_eq!(t.render("`int_` is", 25), "`int` is");
        assert_eq!(t.render("`unknown[3]` stays", 5), "`unknown[3]` stays");
    }

    #[test]
    fn columns_follow_the_fortran_text() {
        assert_eq!(FortranNames::column("  print *, a(10) ! a(10)", Some("a(10)")), 12);
        assert_eq!(FortranNames::column("    if (x(i) > 4.5) count = count + 1", Some("count")), 21);
        assert_eq!(FortranNames::column("  !$acc parallel loop present(a) ! expect", Some("a")), 31);
        assert_eq!(FortranNames::column("  do i = 1, n", None), 3);
    }
}
