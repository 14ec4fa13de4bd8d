//! accsim's Fortran front-end. It reads the Fortran 90 subset that OpenACC teaching and test codes
//! use, with `!$acc` directives, and translates each file into C with line markers naming the
//! Fortran file and line; accsim's C front-end then lowers that C into the typed IR like any C
//! program, so the engine, the checkers, `info`, the GUI and the CUDA back-end work unchanged
//! (README.md in this crate says why this design).

pub mod ast;
pub mod emit;
pub mod expr_parse;
pub mod lexer;
pub mod parse;
pub mod source;

pub use emit::FortranError;

/// The C library routines the translation calls (list-directed and formatted output, `stop`…).
pub const RUNTIME: &str = include_str!("runtime.h");

/// Whether a file name is Fortran source: `.f90 .f95 .f03 .f08` free form, `.f .for` fixed form;
/// upper-case suffixes (`.F90`, `.F`) ask for the C preprocessor first.
pub fn source_form(path: &str) -> Option<SourceForm> {
    let ext = path.rsplit_once('.')?.1;
    let fixed = matches!(ext.to_ascii_lowercase().as_str(), "f" | "for" | "ftn" | "f77");
    let free = matches!(ext.to_ascii_lowercase().as_str(), "f90" | "f95" | "f03" | "f08");
    if !fixed && !free {
        return None;
    }
    Some(SourceForm { fixed, preprocess: ext.chars().next().is_some_and(|c| c.is_ascii_uppercase()) })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SourceForm {
    pub fixed: bool,
    /// `.F90`/`.F`: run the C preprocessor in traditional mode first, as gfortran does.
    pub preprocess: bool,
}

/// Translate Fortran source text into C. `path` is the name line markers give.
pub fn translate(src: &str, path: &str, fixed: bool) -> Result<String, FortranError> {
    translate_mapped(src, path, fixed, None)
}

/// [`translate`] for preprocessed text: `origin[i]` is the original line of line `i + 1`.
pub fn translate_mapped(src: &str, path: &str, fixed: bool, origin: Option<&[u32]>) -> Result<String, FortranError> {
    let mut lines = if fixed { source::fixed_form(src) } else { source::free_form(src) };
    if let Some(o) = origin {
        for l in &mut lines {
            l.line = o.get(l.line as usize - 1).copied().filter(|&n| n > 0).unwrap_or(l.line);
        }
    }
    let units = parse::parse(&lines).map_err(|e| FortranError { line: e.line, col: e.col as u32 + 1, message: e.message.clone(), unsupported: e.message.contains("not supported") })?;
    emit::translate_units(&units, path)
}
