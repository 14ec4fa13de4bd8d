//! The part of the C runtime (`runtime.h`) a translated program uses.
//!
//! Every translation used to start with the whole runtime (770 lines: list-directed, formatted
//! and list-directed input, `stop`, the random number generator, …), which the C front-end then
//! preprocessed, parsed and lowered and the native engine translated on every run, whatever the
//! program used (issue 16: about 0.08 s of user CPU per run, more than gfortran's whole run of
//! the benchmarks at their C twins' sizes). [`used_by`] keeps the runtime's `#include` lines and,
//! of its top-level definitions (functions, with the comments and `#pragma acc routine` lines
//! before them, and variables), those the program's text names, directly or through another kept
//! definition, in the runtime's order. Every runtime name starts with `_f`; a definition that
//! defines no such name is always kept.
//!
//! The kept text starts with a line marker entering [`RUNTIME_FILE`] as a system header (flags
//! 1 and 3, GNU cpp manual, "Preprocessor Output"), as the C library's headers are: its
//! functions are library routines (`ir::FunctionOrigin::SystemHeader`), which `accsim info`
//! does not list among the program's functions and the native engine generates code for only
//! once the program calls them often (a program's one formatted `print` runs in the
//! interpreter); the program's own lines each carry a marker naming the Fortran file.

use std::collections::{BTreeSet, HashMap};
use std::sync::OnceLock;

/// The file name diagnostics give the runtime's lines.
pub const RUNTIME_FILE: &str = "<accsim Fortran runtime>";

/// One top-level piece of the runtime: its text, the runtime names it defines and those it uses.
struct Piece {
    text: &'static str,
    defines: Vec<&'static str>,
    uses: Vec<&'static str>,
}

/// Whether `name` is a runtime name (`_fr_…`, `_ff_…`, `_fi_…`, `_f_…`).
fn is_runtime_name(name: &str) -> bool {
    name.starts_with("_f")
}

/// The identifiers of `text`, in order (string and character literals are not skipped: an
/// identifier-like word in one only keeps more of the runtime).
fn identifiers(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            let c = bytes[i];
            if c.is_ascii_alphabetic() || c == b'_' {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                return Some(&text[start..i]);
            }
            if c.is_ascii_digit() {
                // A number's suffix (`0x1fUL`) is no identifier.
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'.') {
                    i += 1;
                }
                continue;
            }
            i += 1;
        }
        None
    })
}

/// The change of brace depth over `line`, outside comments, strings and character literals;
/// `in_comment` carries a `/* … */` comment from one line to the next.
fn brace_change(line: &str, in_comment: &mut bool) -> i32 {
    let b = line.as_bytes();
    let mut depth = 0;
    let mut i = 0;
    while i < b.len() {
        if *in_comment {
            if b[i..].starts_with(b"*/") {
                *in_comment = false;
                i += 2;
            } else {
                i += 1;
            }
            continue;
        }
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'*') => {
                *in_comment = true;
                i += 2;
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => break,
            q @ (b'"' | b'\'') => {
                i += 1;
                while i < b.len() && b[i] != q {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'{' => depth += 1,
            b'}' => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    depth
}

/// `text` without its comments and preprocessor lines.
fn code_only(text: &str) -> String {
    let mut out = String::new();
    let mut in_comment = false;
    for line in text.lines() {
        if !in_comment && line.trim_start().starts_with('#') {
            continue;
        }
        let mut rest = line;
        loop {
            if in_comment {
                match rest.split_once("*/") {
                    Some((_, after)) => {
                        in_comment = false;
                        rest = after;
                    }
                    None => break,
                }
            } else {
                match rest.split_once("/*") {
                    Some((before, after)) => {
                        out.push_str(before);
                        in_comment = true;
                        rest = after;
                    }
                    None => {
                        out.push_str(rest.split("//").next().unwrap_or(""));
                        break;
                    }
                }
            }
        }
        out.push(' ');
    }
    out
}

/// `text` with each comment replaced by blanks (a `/* … */` keeps its line breaks), string and
/// character literals left as they are: what the C preprocessor's third translation phase does
/// (C11 5.1.1.2), which is all the translation's C needs of it.
pub fn strip_comments(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut copied = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'*') => {
                out.push_str(&text[copied..i]);
                let end = text[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
                out.push(' ');
                out.extend(text[i..end].chars().filter(|&c| c == '\n'));
                i = end;
                copied = end;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                out.push_str(&text[copied..i]);
                let end = text[i..].find('\n').map_or(b.len(), |e| i + e);
                i = end;
                copied = end;
            }
            q @ (b'"' | b'\'') => {
                i += 1;
                while i < b.len() && b[i] != q && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    out.push_str(&text[copied.min(text.len())..]);
    out
}

/// `runtime.h` without its comments, cut into its `#include` lines (first) and its top-level
/// pieces.
fn pieces() -> &'static (String, Vec<Piece>) {
    static STRIPPED: OnceLock<String> = OnceLock::new();
    static PIECES: OnceLock<(String, Vec<Piece>)> = OnceLock::new();
    PIECES.get_or_init(|| split(STRIPPED.get_or_init(|| strip_comments(crate::RUNTIME))))
}

/// [`crate::LIBC`] without its comments.
pub fn library_declarations() -> &'static str {
    static STRIPPED: OnceLock<String> = OnceLock::new();
    STRIPPED.get_or_init(|| strip_comments(crate::LIBC))
}

fn split(runtime: &'static str) -> (String, Vec<Piece>) {
    let mut includes = String::new();
    let mut out = Vec::new();
    let mut depth = 0;
    let mut in_comment = false;
    // Byte offset where the current piece (its leading comments and pragmas) starts.
    let mut start: Option<usize> = None;
    // Whether the current piece has reached its declaration (not only comments and pragmas).
    let mut declared = false;
    let mut offset = 0;
    for line in runtime.split_inclusive('\n') {
        let here = offset;
        offset += line.len();
        let t = line.trim();
        let comment_before = in_comment;
        let change = brace_change(line, &mut in_comment);
        if depth == 0 && !comment_before && t.starts_with("#include") {
            // The comments before the include lines (the file's header) go with them.
            if let Some(s) = start.take() {
                includes.push_str(&runtime[s..here]);
            }
            includes.push_str(line);
            continue;
        }
        if depth == 0 && start.is_none() && t.is_empty() {
            continue;
        }
        let start_at = *start.get_or_insert(here);
        let only_comment_or_pragma = comment_before || t.is_empty() || t.starts_with("/*") || t.starts_with("//") || t.starts_with('#');
        if depth == 0 && !declared && only_comment_or_pragma {
            // `/* … */` on one line with code after it is a declaration line too.
            let code_after = t.starts_with("/*") && t.split_once("*/").is_some_and(|(_, rest)| !rest.trim().is_empty());
            if !code_after {
                continue;
            }
        }
        declared = true;
        depth += change;
        let code = t.split("/*").next().unwrap_or("").trim_end();
        if depth == 0 && (code.ends_with(';') || code.ends_with('}')) {
            let text = &runtime[start_at..offset];
            out.push(piece(text));
            start = None;
            declared = false;
        }
    }
    if let Some(s) = start {
        out.push(piece(&runtime[s..]));
    }
    (includes, out)
}

/// A piece's defined names: the runtime names of its declaration before its body or initializer
/// (`static void _fr_begin(int unit) {` defines `_fr_begin`; parameters are not runtime names).
fn piece(text: &'static str) -> Piece {
    let declaration = code_only(text);
    let head_end = declaration.find(['(', '=', '{', '[', ';']).unwrap_or(declaration.len());
    let defines: Vec<&'static str> = identifiers(text)
        .filter(|n| is_runtime_name(n))
        .filter(|n| identifiers(&declaration[..head_end]).any(|d| d == *n))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let uses = identifiers(text).filter(|n| is_runtime_name(n) && !defines.contains(n)).collect::<BTreeSet<_>>().into_iter().collect();
    Piece { text, defines, uses }
}

/// The runtime text a program whose C (without the runtime) is `program` needs: the `#include`
/// lines, then the pieces it reaches, in the runtime's order.
pub fn used_by(program: &str) -> String {
    let (includes, pieces) = pieces();
    let mut by_name: HashMap<&str, usize> = HashMap::new();
    for (i, p) in pieces.iter().enumerate() {
        for d in &p.defines {
            by_name.insert(d, i);
        }
    }
    let mut keep = vec![false; pieces.len()];
    let mut todo: Vec<usize> = Vec::new();
    for (i, p) in pieces.iter().enumerate() {
        if p.defines.is_empty() {
            keep[i] = true;
            todo.push(i);
        }
    }
    for name in identifiers(program).filter(|n| is_runtime_name(n)) {
        if let Some(&i) = by_name.get(name) {
            if !keep[i] {
                keep[i] = true;
                todo.push(i);
            }
        }
    }
    while let Some(i) = todo.pop() {
        for name in &pieces[i].uses {
            if let Some(&j) = by_name.get(name) {
                if !keep[j] {
                    keep[j] = true;
                    todo.push(j);
                }
            }
        }
    }
    let mut out = format!("# 1 \"{RUNTIME_FILE}\" 1 3\n{}{includes}", library_declarations());
    for (p, _) in pieces.iter().zip(&keep).filter(|(_, k)| **k) {
        out.push('\n');
        out.push_str(p.text);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line of the runtime is in exactly one piece or the include lines: nothing is lost.
    #[test]
    fn pieces_cover_the_runtime() {
        let (includes, pieces) = pieces();
        let joined: String = pieces.iter().map(|p| p.text).collect();
        let strip = |s: &str| s.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join("\n");
        let whole = strip(&strip_comments(crate::RUNTIME));
        let parts = strip(&format!("{includes}{joined}"));
        let mut a: Vec<&str> = whole.lines().collect();
        let mut b: Vec<&str> = parts.lines().collect();
        a.sort_unstable();
        b.sort_unstable();
        let missing: Vec<_> = a.iter().filter(|l| !b.contains(l)).collect();
        let extra: Vec<_> = b.iter().filter(|l| !a.contains(l)).collect();
        assert!(missing.is_empty() && extra.is_empty(), "missing {missing:?}, extra {extra:?}");
        assert_eq!(a, b);
        assert!(includes.contains("#include <openacc.h>"));
    }

    /// Each runtime function and variable is defined by exactly one piece, and a function's
    /// `#pragma acc routine seq` travels with it.
    #[test]
    fn each_definition_is_one_piece() {
        let (_, pieces) = pieces();
        let mut seen = BTreeSet::new();
        for p in pieces {
            assert!(!p.defines.is_empty(), "a piece defining nothing: {}", p.text);
            for d in &p.defines {
                assert!(seen.insert(*d), "{d} defined twice");
            }
        }
        for name in ["_fr_begin", "_ff_advance", "_f_rng", "_fi_last", "_f_atomic_max_d", "_ff_group_pos"] {
            assert!(seen.contains(name), "{name} not found");
        }
        let max = pieces.iter().find(|p| p.defines == ["_f_atomic_max_d"]).map(|p| p.text).unwrap_or("");
        assert!(max.contains("#pragma acc routine seq"), "{max}");
    }

    /// A program printing one integer list-directed gets the list-directed writer and what it
    /// calls, not the formatted writer, input or the random numbers.
    #[test]
    fn only_what_is_reached() {
        let kept = used_by("int main(void) { _fr_begin(6); _fr_int((long)(3), 11); _fr_end(); return 0; }");
        for name in ["_fr_begin", "_fr_int", "_fr_sep", "_fr_end", "_fr_unit", "_fr_first"] {
            assert!(kept.contains(name), "{name} missing:\n{kept}");
        }
        for name in ["_ff_advance", "_fi_int", "_f_rng_next", "_fr_real_text"] {
            assert!(!kept.contains(name), "{name} kept:\n{kept}");
        }
        // The formatted writer of a real brings its whole format interpreter.
        let kept = used_by("_ff_begin(6, \"(es10.3)\", 8); _ff_real(1.0, 8); _ff_end();");
        for name in ["_ff_advance", "_ff_exp_text", "_ff_field", "_ff_group_pos"] {
            assert!(kept.contains(name), "{name} missing");
        }
    }
}
