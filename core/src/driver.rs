//! The pipeline from files to a linked program: preprocess and parse every translation unit, then
//! lower and link them (DESIGN.md "The pipeline"). Used by the `accsim` command, the GUI and tests.

use crate::diag::{Diagnostic, SourceMap};
use crate::frontend::{self, PreprocessOptions};
use crate::ir::Program;
use crate::lower;
use crate::phase;

/// A compiled program plus the sources it came from, and notes about ignored pragmas.
pub struct Compiled {
    pub program: Program,
    /// What the passes learned about the program's kernels (access plans, loop schedules,
    /// fast-share variants), validated with it (`ir::valid`).
    pub info: crate::kernel::ProgramInfo,
    pub notes: Vec<Diagnostic>,
    /// For every directive of a dialect (PGI 1.3), a note with its OpenACC 2.0 equivalent, in
    /// source order (`accsim info` prints them).
    pub translations: Vec<Diagnostic>,
}

/// Compile C files into one linked IR program. On failure, every error found is returned.
pub fn compile_files(files: &[String], opts: &PreprocessOptions, map: &mut SourceMap) -> Result<Compiled, Vec<Diagnostic>> {
    compile_units(files.iter().map(|f| frontend::parse_file(f, opts, map)).collect())
}

/// Compile one C translation unit that is already preprocessed (`cc -E` output), named `path`
/// (the fuzz targets, issue 14).
pub fn compile_preprocessed(path: &str, text: String, map: &mut SourceMap) -> Result<Compiled, Vec<Diagnostic>> {
    compile_units(vec![frontend::parse_preprocessed(path, text, map)])
}

fn compile_units(parsed: Vec<Result<frontend::ParsedUnit, Vec<Diagnostic>>>) -> Result<Compiled, Vec<Diagnostic>> {
    let mut units = Vec::new();
    let mut errors = Vec::new();
    let mut notes = Vec::new();
    let mut translations = Vec::new();
    for unit in parsed {
        match unit {
            Ok(u) => {
                notes.extend(u.notes.iter().cloned());
                translations.extend(dialect_translations(&u));
                for (loc, text) in &u.ignored_pragmas {
                    let mut d = Diagnostic::error("pragma", format!("ignoring `{text}` (accsim runs `#pragma acc` only)"), *loc);
                    d.severity = crate::diag::Severity::Note;
                    notes.push(d);
                }
                units.push(u);
            }
            Err(mut e) => errors.append(&mut e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut program = phase::timed("lower", || lower::lower_program(&units))?;
    if units.iter().any(|u| u.dialect == crate::dialect::Dialect::OpenUh) {
        translations.extend(crate::dialect::openuh::lower_nests(&mut program));
    }
    phase::timed("free-ast", || drop(units));
    let kernels = phase::timed("outline", || crate::kernel::outline_program(&mut program))?;
    let kernel_functions: Vec<crate::ir::FuncId> = program.kernels.iter().zip(&kernels).flat_map(|(k, info)| std::iter::once(k.func).chain(info.fast)).collect();
    phase::timed("drop-unreachable", || crate::ir::reach::drop_unreachable(&mut program, kernel_functions));
    let info = phase::timed("validate", || crate::ir::valid::validate(&program, kernels))?;
    Ok(Compiled { program, info, notes, translations })
}

/// Notes with the OpenACC 2.0 form of each directive of a dialect, and what it left out.
fn dialect_translations(u: &frontend::ParsedUnit) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for site in &u.directives {
        let Some(original) = &site.dialect_text else { continue };
        let pragma = "#pragma acc";
        let equivalent = |id: &u32| u.directives.get(*id as usize).map(|d| format!("{pragma} {}", d.text)).unwrap_or_default();
        let mut parts: Vec<String> = site.before.iter().map(equivalent).collect();
        parts.push(if site.on_host {
            // A `host` loop of a split region (1.3 §2.4.1.1): no directive, the loop runs on the host.
            "the loop itself, on the host (no directive)".into()
        } else if site.marker == frontend::MarkerKind::Label || !site.text.is_empty() {
            format!("{pragma} {}", site.text)
        } else {
            "nothing (no run-time effect)".into()
        });
        let after = if site.on_host { "after the loop" } else { "after the construct" };
        parts.extend(site.after.iter().map(|id| format!("{} ({after})", equivalent(id))));
        let mut d = Diagnostic::error("dialect", format!("PGI 1.3 `{pragma} {original}` is OpenACC 2.0 `{}`", parts.join("`; `")), site.loc);
        d.severity = crate::diag::Severity::Note;
        for n in &site.dialect_notes {
            d = d.with_note(n.clone());
        }
        out.push(d);
    }
    out
}
