//! `#pragma acc` extraction (DESIGN.md "Front-end").
//!
//! lang-c does not parse pragmas. After preprocessing (which also turns `_Pragma("acc …")` into a
//! `#pragma` line), each `#pragma acc` line is replaced *on the same line* by a marker lang-c parses:
//! - a label `__acc_pragma_<id>:` for directives that own the next statement (parallel, kernels,
//!   data, host_data, loop, atomic and the combined forms), so the construct's statement is the
//!   labelled one;
//! - `_Static_assert(1, "__acc_pragma:<id>");` for the others (enter/exit data, update, wait,
//!   cache, declare, routine), valid at file scope and in blocks.
//!
//! Line-marker lines are blanked (the [`super::LineMap`] keeps their meaning); other pragmas are
//! blanked and reported as ignored.
//!
//! In a dialect ([`crate::dialect`]), each directive's text is first translated to OpenACC 2.0:
//! the site keeps the 2.0 text (which the 2.0 parser reads), the original text, and the ids of
//! the standalone directives the translation runs before and after the construct (they have no
//! marker; the lowering places them around the construct's statement).

use super::preprocess::{parse_line_marker, LineMap};
use crate::diag::Loc;
use crate::dialect::{pgi13, Dialect};

/// Which marker stands in for a directive.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MarkerKind {
    Label,
    StaticAssert,
}

/// One `#pragma acc` found in the preprocessed text.
#[derive(Clone, Debug)]
pub struct ExtractedDirective {
    pub id: u32,
    /// Directive text after `acc`, whitespace-trimmed.
    pub text: String,
    /// The directive name as written (`parallel loop`, `enter data`, …), for messages.
    pub name: String,
    /// Where `acc` stands, and the column where `text` starts.
    pub loc: Loc,
    pub text_loc: Loc,
    pub marker: MarkerKind,
    /// In a dialect: the directive as written, when `text` is its 2.0 translation.
    pub dialect_text: Option<String>,
    /// The translation's standalone directives run before / after the construct (ids in the
    /// same list; they have no marker of their own).
    pub before: Vec<u32>,
    pub after: Vec<u32>,
    /// Why the dialect rejected the directive (then `text` is the directive as written).
    pub dialect_error: Option<pgi13::Pgi13Error>,
    /// The translation's notes (hints with no 2.0 spelling), for `accsim info`.
    pub dialect_notes: Vec<String>,
    /// A 1.3 compute region: the variables its own clauses name (the front-end's implicit data
    /// analysis, [`super::region_data`], adds clauses for the arrays it uses besides).
    pub implicit_data: Option<Vec<String>>,
    /// A 1.3 `host` loop (§2.4.1.1) and a 1.3 `kernel` loop (§2.4.3) ([`pgi13::Translation`]).
    pub host_loop: bool,
    pub kernel_loop: bool,
    /// A 1.3 compute region split at the `host` loops of its block
    /// ([`super::pgi13_loops`]): then `text` is the region's `data` construct.
    pub split: Option<RegionSplit>,
    /// A `host` loop of a split region: the loop runs on the host, without its directive;
    /// `before`/`after` are the updates around it.
    pub on_host: bool,
}

/// The parts of a 1.3 compute region split at its `host` loops ([`super::pgi13_loops`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RegionSplit {
    /// One `kernels` directive (site id) per device part, in order: host loops + 1.
    pub kernels: Vec<u32>,
    /// The marker ids of the host loops, in order.
    pub host_loops: Vec<u32>,
}

pub const LABEL_PREFIX: &str = "__acc_pragma_";
pub const ASSERT_PREFIX: &str = "__acc_pragma:";

impl ExtractedDirective {
    pub fn label(&self) -> String {
        format!("{LABEL_PREFIX}{}", self.id)
    }
}

/// The marker id inside a label name, if it is one.
pub fn label_marker_id(label: &str) -> Option<u32> {
    label.strip_prefix(LABEL_PREFIX)?.parse().ok()
}

/// The marker id inside a `_Static_assert` message (the string literal as lang-c keeps it, quotes
/// included), if it is one.
pub fn assert_marker_id(message: &str) -> Option<u32> {
    message.trim_matches('"').strip_prefix(ASSERT_PREFIX)?.parse().ok()
}

pub struct Extracted {
    pub text: String,
    pub directives: Vec<ExtractedDirective>,
    pub ignored: Vec<(Loc, String)>,
}

/// Does a directive with this text own the statement that follows it?
pub fn owns_statement(text: &str) -> bool {
    let first = text.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').next().unwrap_or("");
    matches!(first, "parallel" | "kernels" | "data" | "host_data" | "loop" | "atomic")
}

/// Replace pragma and line-marker lines, keeping every line's length-independent position (the
/// number of lines is unchanged, so the line map still applies). `dialect` is already resolved
/// (not [`Dialect::Auto`], which reads as 2.0 here); `lang`: the language the directives were
/// written in ([`pgi13::Lang::Fortran`] for a Fortran file's translation).
pub fn extract(text: &str, lines: &LineMap, dialect: Dialect, lang: pgi13::Lang) -> Extracted {
    let mut out = String::with_capacity(text.len());
    let mut directives = Vec::new();
    let mut ignored = Vec::new();
    let mut offset = 0;
    for raw in text.split_inclusive('\n') {
        let start = offset;
        offset += raw.len();
        let nl = if raw.ends_with('\n') { "\n" } else { "" };
        let body = raw.trim_end_matches(['\n', '\r']);
        let trimmed = body.trim_start();
        if parse_line_marker(body).is_some() {
            out.push_str(nl);
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix('#') {
            let rest = rest.trim_start();
            if let Some(p) = rest.strip_prefix("pragma") {
                let p_trim = p.trim_start();
                let acc_at = start + (body.len() - p_trim.len());
                let loc = lines.loc(text, acc_at);
                if let Some(d) = p_trim.strip_prefix("acc").filter(|d| d.is_empty() || d.starts_with(char::is_whitespace)) {
                    let dtext = d.trim();
                    let text_at = acc_at + 3 + (d.len() - d.trim_start().len());
                    let loc_text = lines.loc(text, text_at);
                    let site = |id: usize, text: String, marker: MarkerKind| ExtractedDirective {
                        id: id as u32,
                        name: directive_name(&text),
                        text,
                        loc,
                        text_loc: loc_text,
                        marker,
                        dialect_text: None,
                        before: Vec::new(),
                        after: Vec::new(),
                        dialect_error: None,
                        dialect_notes: Vec::new(),
                        implicit_data: None,
                        host_loop: false,
                        kernel_loop: false,
                        split: None,
                        on_host: false,
                    };
                    let translated = match dialect {
                        Dialect::Pgi13 => Some(pgi13::translate(dtext, lang)),
                        _ => None,
                    };
                    match translated {
                        Some(Ok(pgi13::Outcome::Pgi13(t))) => {
                            let mut before = Vec::new();
                            for b in t.before {
                                before.push(directives.len() as u32);
                                directives.push(site(directives.len(), b, MarkerKind::StaticAssert));
                            }
                            let main_id = directives.len();
                            let after: Vec<u32> = (0..t.after.len()).map(|k| (main_id + 1 + k) as u32).collect();
                            // A translation without a main directive (`function(name) reflected(…)`)
                            // has no run-time effect: its site has no marker and keeps the notes
                            // for `accsim info`.
                            let marker = match &t.main {
                                Some(main) if owns_statement(main) => MarkerKind::Label,
                                _ => MarkerKind::StaticAssert,
                            };
                            if t.main.is_some() {
                                push_marker(&mut out, main_id as u32, marker);
                            }
                            let mut s = site(main_id, t.main.unwrap_or_default(), marker);
                            s.name = pgi13_name(dtext);
                            s.dialect_text = Some(dtext.to_string());
                            s.before = before;
                            s.after = after;
                            s.dialect_notes = t.notes;
                            s.implicit_data = t.implicit_data;
                            s.host_loop = t.host_loop;
                            s.kernel_loop = t.kernel_loop;
                            directives.push(s);
                            for a in t.after {
                                directives.push(site(directives.len(), a, MarkerKind::StaticAssert));
                            }
                        }
                        Some(Err(e)) => {
                            let id = directives.len();
                            let marker = if pgi13::owns_statement(dtext) { MarkerKind::Label } else { MarkerKind::StaticAssert };
                            push_marker(&mut out, id as u32, marker);
                            let mut s = site(id, dtext.to_string(), marker);
                            s.name = pgi13_name(dtext);
                            s.dialect_error = Some(e);
                            directives.push(s);
                        }
                        Some(Ok(pgi13::Outcome::OpenAcc20)) | None => {
                            let id = directives.len();
                            let marker = if owns_statement(dtext) || (dialect != Dialect::Pgi13 && pgi13::owns_statement(dtext)) {
                                MarkerKind::Label
                            } else {
                                MarkerKind::StaticAssert
                            };
                            push_marker(&mut out, id as u32, marker);
                            directives.push(site(id, dtext.to_string(), marker));
                        }
                    }
                } else {
                    ignored.push((loc, format!("#pragma {}", p_trim)));
                }
                out.push_str(nl);
                continue;
            }
            // Any other directive left by the preprocessor (`#ident`): blank it.
            out.push_str(nl);
            continue;
        }
        out.push_str(raw);
    }
    Extracted { text: out, directives, ignored }
}

fn push_marker(out: &mut String, id: u32, marker: MarkerKind) {
    match marker {
        MarkerKind::Label => out.push_str(&format!("{LABEL_PREFIX}{id}:")),
        MarkerKind::StaticAssert => out.push_str(&format!("_Static_assert(1, \"{ASSERT_PREFIX}{id}\");")),
    }
}

/// A 1.3 directive's name words (`region`, `data region`, `region for`, `device present`).
fn pgi13_name(text: &str) -> String {
    let words: Vec<&str> = text.split(|c: char| c.is_whitespace() || c == '(' || c == ',').filter(|w| !w.is_empty()).take(2).collect();
    match words.as_slice() {
        ["region", w @ ("for" | "do")] => format!("region {w}"),
        ["data", "region"] | ["device", "present" | "resident"] => words.join(" "),
        [first, ..] => first.to_string(),
        [] => String::new(),
    }
}

/// The directive's name words (`enter data`, `parallel loop`, `atomic update`).
pub(crate) fn directive_name(text: &str) -> String {
    let mut words = text.split(|c: char| c.is_whitespace() || c == '(' || c == ',').filter(|w| !w.is_empty());
    let first = words.next().unwrap_or("").to_string();
    let second = words.next().unwrap_or("");
    let two_word = matches!(
        (first.as_str(), second),
        ("parallel", "loop") | ("kernels", "loop") | ("enter", "data") | ("exit", "data")
    ) || (first == "atomic" && matches!(second, "read" | "write" | "update" | "capture"));
    if two_word { format!("{first} {second}") } else { first }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::SourceMap;

    #[test]
    fn markers_keep_lines_and_record_sites() {
        let text = "# 1 \"t.c\"\nvoid f(int *a) {\n#pragma acc parallel loop copy(a[0:4])\nfor (;;) {}\n  #pragma acc update host(a[0:4])\n#pragma omp parallel\n}\n";
        let mut map = SourceMap::new();
        let lm = LineMap::build(text, &mut map, "t.c");
        let ex = extract(text, &lm, Dialect::OpenAcc20, pgi13::Lang::C);
        let lines: Vec<&str> = ex.text.lines().collect();
        assert_eq!(lines[0], "");
        assert_eq!(lines[2], "__acc_pragma_0:");
        assert_eq!(lines[4], "_Static_assert(1, \"__acc_pragma:1\");");
        assert_eq!(ex.text.lines().count(), text.lines().count());
        assert_eq!(ex.directives.len(), 2);
        assert_eq!(ex.directives[0].text, "parallel loop copy(a[0:4])");
        assert_eq!(ex.directives[0].name, "parallel loop");
        assert_eq!(ex.directives[0].loc.line, 2);
        assert_eq!(ex.directives[0].loc.col, 9);
        assert_eq!(ex.directives[1].name, "update");
        assert_eq!(ex.directives[1].marker, MarkerKind::StaticAssert);
        assert_eq!(ex.ignored.len(), 1);
        assert_eq!(ex.ignored[0].1, "#pragma omp parallel");
        assert_eq!(label_marker_id("__acc_pragma_12"), Some(12));
        assert_eq!(assert_marker_id("\"__acc_pragma:3\""), Some(3));
    }
}
