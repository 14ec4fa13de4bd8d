//! Macros in the text of `#pragma acc` lines, expanded as a compiler that knows every directive
//! expands them (issue 17).
//!
//! C11 6.10.6 leaves macro replacement in a `#pragma` to the implementation. gcc (`-fopenacc`)
//! expands the pragmas it registers, OpenACC 2.0's directive names, and leaves the others as
//! written, so a PGI Accelerator 1.3 directive (`#pragma acc region copyin(p[0:N-1])`,
//! `#pragma acc for parallel(W)`, `#pragma acc device present(…)`) kept `N` and `W`, and the
//! program failed with "undeclared identifier". The PGI compilers that took 1.3 expanded macros
//! in every accelerator directive (the seed's examples size their subarrays with macros).
//!
//! The expansion is the preprocessor's own, at the pragma's point:
//! 1. The file is preprocessed again without `-fopenacc` and with `-dD`: every `#define` and
//!    `#undef` comes out where it takes effect, and every `#pragma acc` line as written.
//! 2. A directive the first run left as written (the same text in both runs) and that names a
//!    macro defined at its point is expanded: the `#define`/`#undef` lines, each such directive
//!    as a plain line (`__accsim_directive_K text`, after a `#line` naming its place, so that
//!    `__LINE__` and `__FILE__` are the pragma's), through the preprocessor once more.
//! 3. The expanded text replaces the directive's text on its own line, so the line map and
//!    every location stay as they were.
//!
//! A directive the preprocessor already expanded (its text differs between the runs) is left
//! alone: expanding twice is wrong (`#define x x + 1`). When a step fails (a preprocessor that
//! does not write `-dD` output, a different number of directives in the runs, a directive whose
//! expansion runs past its line) the text stays as the first run made it, and the directive's
//! own diagnostics report what is wrong with it.

use std::collections::{HashMap, HashSet};

/// The OpenACC 2.0 directive names a preprocessor that knows OpenACC (gcc `-fopenacc`)
/// expands macros after: a directive starting with another word is left as written.
const EXPANDED_BY_OPENACC_PREPROCESSORS: [&str; 13] =
    ["parallel", "kernels", "data", "enter", "exit", "host_data", "loop", "cache", "update", "wait", "declare", "routine", "atomic"];

/// The text after `acc` of a `#pragma acc` line, and where it starts in the line.
pub(super) fn acc_pragma_text(line: &str) -> Option<(usize, &str)> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start().strip_prefix("pragma")?.trim_start();
    let after = rest.strip_prefix("acc")?;
    if !(after.is_empty() || after.starts_with(char::is_whitespace)) {
        return None;
    }
    let text = after.trim_start();
    Some((line.len() - text.len(), text.trim_end()))
}

/// Whether a second look is needed: a `#pragma acc` line starts with a word the OpenACC-aware
/// preprocessor does not expand after, or the preprocessor was not told about OpenACC
/// (`--cpp` without `-fopenacc`). Only then do the extra runs cost anything.
pub(super) fn may_need_expansion(text: &str, command: &[String]) -> bool {
    let openacc_aware = command.iter().any(|a| a == "-fopenacc");
    text.lines().filter_map(acc_pragma_text).any(|(_, t)| {
        let first = t.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').next().unwrap_or("");
        !openacc_aware || !EXPANDED_BY_OPENACC_PREPROCESSORS.contains(&first)
    })
}

/// One line of the `-dD` run that matters here.
#[derive(Debug, PartialEq, Eq)]
enum DefinesLine<'t> {
    /// `#define …` or `#undef …`, as written by the preprocessor (one line), and the name.
    Macro { line: &'t str, name: &'t str, defined: bool },
    /// The K-th `#pragma acc` line: its text after `acc`, and the place it stands.
    Directive { text: &'t str, line: u32, file: String },
}

/// The `#define`/`#undef` and `#pragma acc` lines of a `-dD` run's output, in order, with the
/// place of each directive (from the line markers).
fn defines_and_directives(text: &str) -> Vec<DefinesLine<'_>> {
    let mut out = Vec::new();
    let (mut file, mut line) = (String::new(), 1u32);
    for raw in text.split('\n') {
        if let Some((n, name)) = super::preprocess::parse_line_marker(raw) {
            file = name;
            line = n;
            continue;
        }
        let trimmed = raw.trim_start();
        let directive = trimmed.strip_prefix('#').map(str::trim_start);
        let macro_line = directive.and_then(|d| d.strip_prefix("define").map(|r| (r, true)).or_else(|| d.strip_prefix("undef").map(|r| (r, false))));
        if let Some((rest, defined)) = macro_line.filter(|(r, _)| r.starts_with(char::is_whitespace)) {
            let rest = rest.trim_start();
            let name_len = rest.find(|c: char| !c.is_ascii_alphanumeric() && c != '_').unwrap_or(rest.len());
            out.push(DefinesLine::Macro { line: raw.trim_end(), name: &rest[..name_len], defined });
        } else if let Some((_, t)) = acc_pragma_text(raw) {
            out.push(DefinesLine::Directive { text: t, line, file: file.clone() });
        }
        line += 1;
    }
    out
}

/// The identifiers of a directive's text, outside string and character literals.
fn identifiers(text: &str) -> Vec<&str> {
    let b = text.as_bytes();
    let (mut out, mut i) = (Vec::new(), 0);
    while i < b.len() {
        let c = b[i];
        if c == b'"' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(&text[s..i]);
        } else if c.is_ascii_digit() {
            // A number (`1e5f`, `0x1F`): its letters are no identifier.
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    out
}

/// The prefix of the plain line a directive becomes in the expansion input.
const DIRECTIVE_LINE: &str = "__accsim_directive_";

/// The expansion input (step 2): the macro lines of `defines` and the directives `wanted` (by
/// index among the directives) as plain lines; `None` when no directive is wanted.
fn expansion_input(defines: &[DefinesLine<'_>], first_run: &[&str]) -> Option<String> {
    let mut live: HashSet<&str> = HashSet::new();
    let mut input = String::new();
    let mut k = 0usize;
    let mut wanted = 0usize;
    for l in defines {
        match l {
            DefinesLine::Macro { line, name, defined } => {
                if *defined {
                    live.insert(name);
                } else {
                    live.remove(name);
                }
                input.push_str(line);
                input.push('\n');
            }
            DefinesLine::Directive { text, line, file } => {
                let as_written = first_run.get(k).is_some_and(|t| same_tokens(t, text));
                if as_written && identifiers(text).iter().any(|i| live.contains(i)) {
                    let file = file.replace('\\', "\\\\").replace('"', "\\\"");
                    input.push_str(&format!("#line {line} \"{file}\"\n{DIRECTIVE_LINE}{k} {text}\n"));
                    wanted += 1;
                }
                k += 1;
            }
        }
    }
    (wanted > 0).then_some(input)
}

/// Two directive texts with the same tokens (the runs may space them differently).
fn same_tokens(a: &str, b: &str) -> bool {
    a.split_whitespace().eq(b.split_whitespace())
}

/// The expanded directives in the preprocessor's output of the expansion input, by index.
fn expanded_directives(output: &str) -> HashMap<usize, String> {
    let mut out = HashMap::new();
    for l in output.lines() {
        let Some(rest) = l.trim_start().strip_prefix(DIRECTIVE_LINE) else { continue };
        let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
        if let Ok(k) = rest[..digits].parse::<usize>() {
            out.insert(k, rest[digits..].trim().to_string());
        }
    }
    out
}

/// Replace the text of the `#pragma acc` lines of `text` (the first run's output) by their
/// expansions (by index among the directives), each on its own line.
fn replace_directives(text: &str, expanded: &HashMap<usize, String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut k = 0usize;
    for raw in text.split_inclusive('\n') {
        let Some((at, _)) = acc_pragma_text(raw) else {
            out.push_str(raw);
            continue;
        };
        match expanded.get(&k) {
            Some(e) => {
                out.push_str(&raw[..at]);
                out.push_str(e);
                if raw.ends_with('\n') {
                    out.push('\n');
                }
            }
            None => out.push_str(raw),
        }
        k += 1;
    }
    out
}

/// Steps 2 and 3 ([module docs](self)): `first_run` is the preprocessed text, `defines_run`
/// the `-dD` output without `-fopenacc`, `expand` runs the preprocessor on an expansion input
/// and returns its output. `None`: nothing to expand, or a step failed.
pub(super) fn expand_directives(first_run: &str, defines_run: &str, expand: &mut dyn FnMut(&str) -> Option<String>) -> Option<String> {
    let defines = defines_and_directives(defines_run);
    let first: Vec<&str> = first_run.lines().filter_map(acc_pragma_text).map(|(_, t)| t).collect();
    let in_defines = defines.iter().filter(|l| matches!(l, DefinesLine::Directive { .. })).count();
    if in_defines != first.len() {
        return None;
    }
    let input = expansion_input(&defines, &first)?;
    let expanded = expanded_directives(&expand(&input)?);
    // A directive whose expansion ran into the next line (an unclosed macro call) is not
    // trusted: it keeps its text.
    let wanted = input.lines().filter(|l| l.starts_with(DIRECTIVE_LINE)).count();
    if expanded.len() != wanted {
        return None;
    }
    Some(replace_directives(first_run, &expanded))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pragma_text_and_identifiers() {
        assert_eq!(acc_pragma_text("  #  pragma acc region copy(a)\n"), Some((16, "region copy(a)")));
        assert_eq!(acc_pragma_text("#pragma accel"), None);
        assert_eq!(identifiers("for parallel(W) copy(a[0:1e5f]) if(s == \"N\")"), ["for", "parallel", "W", "copy", "a", "if", "s"]);
        assert!(may_need_expansion("#pragma acc region\n", &["cc".into(), "-fopenacc".into()]));
        assert!(!may_need_expansion("#pragma acc kernels copy(a[0:N])\n", &["cc".into(), "-fopenacc".into()]));
        assert!(may_need_expansion("#pragma acc kernels copy(a[0:N])\n", &["clang".into(), "-E".into()]));
    }

    /// The directives the first run left as written and that name a live macro are expanded,
    /// each at its point (`#undef`, a redefinition), with its place for `__LINE__`; one the
    /// first run expanded stays as it is.
    #[test]
    fn directives_expand_with_the_macros_of_their_point() {
        let defines_run = "# 1 \"a.c\"\n#define N 8\n#define LAST(n) ((n)-1)\n#pragma acc region copyin(p[0:N-1])\n#pragma acc kernels copy(x)\n#pragma acc kernels loop vector(N)\n#undef N\n#define N 16\n#pragma acc for parallel(LAST(N))\n#pragma acc region copy(q)\n";
        let first_run = "# 1 \"a.c\"\n\n\n#pragma acc region copyin(p[0:N-1])\n#pragma acc kernels copy(x)\n#pragma acc kernels loop vector(8)\n\n\n#pragma acc for parallel(LAST(N))\n#pragma acc region copy(q)\n";
        let mut seen = String::new();
        let out = expand_directives(first_run, defines_run, &mut |input| {
            seen = input.to_string();
            Some("__accsim_directive_0 region copyin(p[0:8 -1])\n\n__accsim_directive_3 for parallel(((16)-1))\n".into())
        });
        assert!(seen.contains("#line 3 \"a.c\"\n__accsim_directive_0 region copyin(p[0:N-1])\n"), "{seen}");
        assert!(seen.contains("#undef N\n#define N 16\n#line 8 \"a.c\"\n__accsim_directive_3 for parallel(LAST(N))\n"), "{seen}");
        assert!(!seen.contains("__accsim_directive_1") && !seen.contains("__accsim_directive_2") && !seen.contains("__accsim_directive_4"), "{seen}");
        let out = out.expect("expanded");
        assert_eq!(out.lines().count(), first_run.lines().count());
        assert_eq!(out.lines().nth(3), Some("#pragma acc region copyin(p[0:8 -1])"));
        assert_eq!(out.lines().nth(5), Some("#pragma acc kernels loop vector(8)"));
        assert_eq!(out.lines().nth(8), Some("#pragma acc for parallel(((16)-1))"));
        assert_eq!(out.lines().nth(9), Some("#pragma acc region copy(q)"));
    }

    #[test]
    fn nothing_to_expand_or_a_failed_step_keeps_the_text() {
        let run = "# 1 \"a.c\"\n#pragma acc region copy(q)\n";
        assert_eq!(expand_directives(run, run, &mut |_| panic!("no expansion needed")), None);
        let defines_run = "#define N 4\n#pragma acc region copy(q[0:N])\n";
        // Different directive counts in the two runs.
        assert_eq!(expand_directives("#pragma acc region copy(q[0:N])\n#pragma acc wait\n", defines_run, &mut |_| panic!()), None);
        // The expansion lost its directive line.
        assert_eq!(expand_directives("#pragma acc region copy(q[0:N])\n", defines_run, &mut |_| Some(String::new())), None);
    }
}
