//! Front-end: the system C preprocessor, `#pragma acc` extraction, and lang-c parsing.
//!
//! ```text
//! FILE.c ──cc -E──► preprocessed text ──extract──► text with markers + directive sites ──lang-c──► AST
//! ```
//! Line numbers survive: each `#pragma acc` line is replaced, on the same line, by a marker lang-c
//! parses (see [`pragma`]), GNU attributes lang-c's grammar lacks are moved or dropped on their
//! lines ([`gnu_attr`]), and the preprocessor's `# N "file"` markers give every line of the
//! preprocessed text its original file and line ([`LineMap`]).

pub mod acc_exprs;
mod directive_macros;
pub mod fortran;
pub mod gnu_attr;
pub mod pgi13_loops;
pub mod pragma;
pub mod preprocess;
pub mod region_data;

use lang_c::ast::TranslationUnit;

use crate::diag::{Diagnostic, Loc, SourceMap};
use crate::dialect::{pgi13, Dialect};
pub use pragma::{ExtractedDirective, MarkerKind};
pub use preprocess::{LineMap, PreprocessOptions};

/// One parsed translation unit, ready for lowering.
pub struct ParsedUnit {
    /// The text lang-c parsed (preprocessed, with directive markers).
    pub text: String,
    pub unit: TranslationUnit,
    pub lines: LineMap,
    /// The `#pragma acc` directives of this unit, indexed by the id in their marker.
    pub directives: Vec<ExtractedDirective>,
    /// Where the GNU attributes that [`gnu_attr`] moved were written.
    pub moves: gnu_attr::Moves,
    /// Pragmas that are not `acc` (ignored with a note), with their text.
    pub ignored_pragmas: Vec<(Loc, String)>,
    /// Each directive parsed (same order as `directives`).
    pub parsed: Vec<Result<crate::directive::Directive, crate::directive::DirectiveError>>,
    /// The C expressions inside the directives' clauses.
    pub acc_exprs: acc_exprs::AccExprs,
    /// The directive language the unit was read in (resolved: never `Auto`).
    pub dialect: Dialect,
    /// Notes about how the unit was read (the dialect chosen for it).
    pub notes: Vec<Diagnostic>,
    /// Whether the unit is the C translation of a Fortran file (it declares every routine it
    /// calls: see [`fortran`]).
    pub fortran: bool,
}

impl ParsedUnit {
    /// Original location of a byte offset in [`ParsedUnit::text`].
    pub fn loc(&self, offset: usize) -> Loc {
        self.lines.loc(&self.text, self.moves.original(offset))
    }
}

/// Preprocess, extract directives and parse one C file.
pub fn parse_file(path: &str, opts: &PreprocessOptions, map: &mut SourceMap) -> Result<ParsedUnit, Vec<Diagnostic>> {
    // A Fortran file is translated into C first (see [`fortran`]): C that needs no preprocessor.
    if let Some(form) = accsim_fortran::source_form(path) {
        let (c, fortran_warnings) = crate::phase::timed("fortran", || fortran::translate_file(path, form, opts, map)).map_err(|d| vec![d])?;
        let (dialect, mut notes) = resolve_dialect(path, true, opts.dialect, map);
        notes.extend(fortran_warnings);
        let lines = LineMap::build(&c, map, path);
        // A Fortran file's directives are its own (1.3's `do`, `end region`, `mirror`), their
        // clause arguments already C with 2.0 subarrays.
        return parse_preprocessed_text(preprocess::Preprocessed { text: c, lines }, dialect, pgi13::Lang::Fortran, notes);
    }
    let (dialect, notes) = resolve_dialect(path, false, opts.dialect, map);
    let mut opts = opts.clone();
    if let Some((name, value)) = dialect.version_macro() {
        opts.args.insert(0, format!("-D{name}={value}"));
    }
    let pp = crate::phase::timed("preprocess", || preprocess::preprocess(path, &opts, map)).map_err(|d| vec![d])?;
    parse_preprocessed_text(pp, dialect, pgi13::Lang::C, notes)
}

/// Extract directives from and parse C text that is already preprocessed (as `cc -E` writes
/// it, line markers included), named `path` where it has no line marker, in OpenACC 2.0.
/// The fuzz targets (issue 14) use this; [`parse_file`] runs the preprocessor first.
pub fn parse_preprocessed(path: &str, text: String, map: &mut SourceMap) -> Result<ParsedUnit, Vec<Diagnostic>> {
    let lines = LineMap::build(&text, map, path);
    parse_preprocessed_text(preprocess::Preprocessed { text, lines }, Dialect::OpenAcc20, pgi13::Lang::C, Vec::new())
}

fn parse_preprocessed_text(pp: preprocess::Preprocessed, dialect: Dialect, lang: pgi13::Lang, notes: Vec<Diagnostic>) -> Result<ParsedUnit, Vec<Diagnostic>> {
    let (mut extracted, moves, lines) = crate::phase::timed("extract", || {
        let mut extracted = pragma::extract(&pp.text, &pp.lines, dialect, lang);
        let (normalized, moves) = gnu_attr::normalize_with_moves(&extracted.text);
        extracted.text = normalized;
        let lines = pp.lines.rebase(&extracted.text);
        (extracted, moves, lines)
    });
    let mut diags = Vec::new();
    let config = lang_c::driver::Config::with_gcc();
    match crate::phase::timed("parse", || lang_c::driver::parse_preprocessed(&config, extracted.text.clone())) {
        Ok(parse) => {
            let (parsed, acc_exprs) = crate::phase::timed("directives", || {
                add_implicit_region_data(&parse.unit, &mut extracted.directives);
                let texts: Vec<&str> = extracted.directives.iter().map(|d| d.text.as_str()).collect();
                let mut parsed = acc_exprs::parse_directives(&texts);
                explain_dialect_errors(&extracted.directives, &mut parsed, dialect, lang);
                let ok: Vec<Option<crate::directive::Directive>> = parsed.iter().map(|r| r.as_ref().ok().cloned()).collect();
                let acc_exprs = acc_exprs::parse(&parse.unit, &ok);
                (parsed, acc_exprs)
            });
            Ok(ParsedUnit {
                text: extracted.text,
                moves,
                unit: parse.unit,
                lines,
                directives: extracted.directives,
                ignored_pragmas: extracted.ignored,
                parsed,
                acc_exprs,
                dialect,
                notes,
                fortran: lang == pgi13::Lang::Fortran,
            })
        }
        Err(err) => {
            let loc = lines.loc(&extracted.text, moves.original(err.offset));
            // A statement-owning directive with nothing after it makes lang-c stop right after its marker.
            let before = &extracted.text[..err.offset.min(extracted.text.len())];
            let trimmed = before.trim_end();
            if let Some(d) = extracted.directives.iter().find(|d| {
                d.marker == MarkerKind::Label && trimmed.ends_with(&format!("{}:", d.label()))
            }) {
                diags.push(
                    Diagnostic::error(
                        "directive",
                        format!("`#pragma acc {}` must be followed by a statement", d.name),
                        d.loc,
                    )
                    .with_note("OpenACC constructs apply to the statement (loop, block) that follows the directive"),
                );
                return Err(diags);
            }
            let mut expected: Vec<&str> = err.expected.iter().copied().collect();
            expected.sort_unstable();
            let found = extracted.text[err.offset.min(extracted.text.len())..]
                .trim_start()
                .chars()
                .take_while(|c| !c.is_whitespace())
                .take(20)
                .collect::<String>();
            let found = if found.is_empty() { "end of file".to_string() } else { format!("`{found}`") };
            let mut d = Diagnostic::error("syntax", format!("syntax error: unexpected {found}"), loc);
            if found.contains("__real__") || found.contains("__imag__") {
                d = Diagnostic::unsupported("the GNU `__real__`/`__imag__` operators (use `creal`/`cimag`)", loc);
            }
            if !expected.is_empty() && expected.len() <= 12 {
                d = d.with_note(format!("expected one of: {}", expected.join(" ")));
            }
            diags.push(d);
            Err(diags)
        }
    }
}

/// PGI 1.3 compute regions: the data clauses of their implicit data analysis
/// ([`region_data`]) join the translated directive; regions with `host` loops in their block
/// are split there, and `kernel` loops are checked ([`pgi13_loops`]).
fn add_implicit_region_data(unit: &lang_c::ast::TranslationUnit, sites: &mut Vec<ExtractedDirective>) {
    let regions: std::collections::HashMap<u32, Vec<region_data::Item>> =
        sites.iter().filter(|s| s.implicit_data.is_some()).map(|s| (s.id, pgi13::data_clause_items(&s.text))).collect();
    if regions.is_empty() {
        return;
    }
    let mut mapped = region_data::Mapped::default();
    for s in sites.iter() {
        let items = || pgi13::data_clause_items(&s.text);
        if s.text.starts_with("declare") {
            mapped.declares.insert(s.id, items());
        } else if s.marker == MarkerKind::Label && (s.text == "data" || s.text.starts_with("data ")) {
            mapped.data.insert(s.id, items());
        }
    }
    let host_loops: std::collections::HashSet<u32> = sites.iter().filter(|s| s.host_loop).map(|s| s.id).collect();
    let analysis = region_data::implicit_clauses(unit, &regions, &mapped, &host_loops);
    for (id, clauses) in &analysis.clauses {
        if let Some(site) = sites.get_mut(*id as usize) {
            site.text = format!("{} {clauses}", site.text);
            site.dialect_notes.insert(0, format!("`{clauses}`: 1.3's implicit data analysis (§2.3.1) of the variables the region uses"));
        }
    }
    pgi13_loops::split_regions(sites, &analysis.host_loops);
    pgi13_loops::check_kernel_loops(unit, sites);
}

/// `Auto` reads a file that uses a 1.3 `region` directive as PGI 1.3, with a note saying so
/// (`fortran`: the file at `path` is Fortran, whose directives are `!$acc`).
fn resolve_dialect(path: &str, fortran: bool, dialect: Dialect, map: &mut SourceMap) -> (Dialect, Vec<Diagnostic>) {
    if dialect != Dialect::Auto {
        return (dialect, Vec::new());
    }
    let find = if fortran { crate::dialect::pgi13_region_line_fortran } else { crate::dialect::pgi13_region_line };
    let Some(line) = std::fs::read_to_string(path).ok().and_then(|src| find(&src)) else {
        return (Dialect::OpenAcc20, Vec::new());
    };
    let loc = Loc { file: map.read_file_id(path), line, col: 1 };
    let mut note = Diagnostic::error("dialect", "this file uses the PGI Accelerator 1.3 `region` directive: reading it as `--dialect pgi-1.3`", loc)
        .with_note("1.3 directives run as the OpenACC 2.0 directives `accsim info` shows; `--dialect openacc-2.0` reads the file as 2.0 only");
    note.severity = crate::diag::Severity::Note;
    (Dialect::Pgi13, vec![note])
}

/// Directive errors in a dialect's terms: a 1.3 directive the dialect rejected keeps the 1.3
/// message; in 2.0, a directive that is PGI 1.3 says which flag reads it.
fn explain_dialect_errors(sites: &[ExtractedDirective], parsed: &mut [Result<crate::directive::Directive, crate::directive::DirectiveError>], dialect: Dialect, lang: pgi13::Lang) {
    for (site, result) in sites.iter().zip(parsed.iter_mut()) {
        if let Some(e) = &site.dialect_error {
            let message = if e.message.contains("1.3") { e.message.clone() } else { format!("PGI Accelerator 1.3: {}", e.message) };
            let mut err = crate::directive::DirectiveError::new(message, e.span.clone());
            err.help = e.help.clone();
            *result = Err(err);
            continue;
        }
        if dialect == Dialect::Pgi13 {
            continue;
        }
        if let Err(e) = result {
            let is_pgi13 = matches!(pgi13::translate(&site.text, lang), Ok(pgi13::Outcome::Pgi13(_))) || pgi13::looks_like_pgi13(&site.text);
            if is_pgi13 {
                e.help = Some(format!("as OpenACC 2.0 it is wrong ({}); a file that uses `#pragma acc region` is read as 1.3 without the flag", e.message));
                e.message = format!("`{}`: PGI Accelerator 1.3 directive: run with --dialect pgi-1.3", site.name);
                e.related.clear();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn system_headers_parse() {
        let dir = std::env::temp_dir().join(format!("accsim-fe-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("h.c");
        std::fs::write(
            &path,
            "#include <stdio.h>\n#include <stdlib.h>\n#include <math.h>\n#include <string.h>\n#include <complex.h>\n#include <stdbool.h>\n#include <sys/time.h>\n#include <time.h>\n#include <stdint.h>\n#include <inttypes.h>\n#include <limits.h>\n#include <float.h>\n#include <stddef.h>\n#include <assert.h>\n#include <ctype.h>\n#include <stdarg.h>\n#include <openacc.h>\nint main(void) {\n#pragma acc parallel loop\n for (int i = 0; i < 3; i++) {}\n return 0; }\n",
        )
        .unwrap();
        let mut map = SourceMap::new();
        let parsed = match parse_file(path.to_str().unwrap(), &PreprocessOptions::default(), &mut map) {
            Ok(p) => p,
            Err(d) => panic!("{}", d.iter().map(|d| d.render(&map, false)).collect::<String>()),
        };
        assert_eq!(parsed.directives.len(), 1);
        assert_eq!(parsed.directives[0].loc.line, 19);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
