//! accsim's Fortran front-end. It reads the Fortran 90 subset that OpenACC teaching and test codes
//! use, with `!$acc` directives, and translates each file into C with line markers naming the
//! Fortran file and line; accsim's C front-end then lowers that C into the typed IR like any C
//! program, so the engine, the checkers, `info`, the GUI and the CUDA back-end work unchanged
//! (README.md in this crate says why this design).

pub mod ast;
pub mod emit;
pub mod expr_parse;
pub mod lexer;
pub mod names;
pub mod parse;
pub mod runtime;
pub mod source;

pub use emit::FortranError;

/// The C library routines the translation calls (list-directed and formatted output, `stop`…);
/// a translation includes the part of it the program uses ([`runtime::used_by`]).
pub const RUNTIME: &str = include_str!("runtime.h");

/// The declarations of the C library routines, types and objects the runtime and the translator's
/// C use, which a translation starts with in place of the system headers, so that it needs no
/// preprocessor (see the file's own comment).
pub const LIBC: &str = include_str!("libc.h");

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
    translate_with_includes(src, path, fixed, origin, &[])
}

/// [`translate_mapped`] with the directories `include 'file'` lines are searched in (after the
/// source file's own directory).
pub fn translate_with_includes(src: &str, path: &str, fixed: bool, origin: Option<&[u32]>, include_dirs: &[std::path::PathBuf]) -> Result<String, FortranError> {
    translate_named(src, path, fixed, origin, include_dirs).map(|(c, _)| c)
}

/// [`translate_with_includes`], with the side table that words messages about the program in
/// Fortran ([`names`]).
pub fn translate_named(src: &str, path: &str, fixed: bool, origin: Option<&[u32]>, include_dirs: &[std::path::PathBuf]) -> Result<(String, names::FortranNames), FortranError> {
    let identity: Vec<u32> = (1..=src.lines().count() as u32).collect();
    let origin = origin.unwrap_or(&identity);
    let mut dirs: Vec<std::path::PathBuf> = std::path::Path::new(path).parent().map(|p| p.to_path_buf()).into_iter().collect();
    dirs.extend(include_dirs.iter().cloned());
    let (text, origin) = expand_includes(src, origin, &dirs, 0)?;
    let mut lines = if fixed { source::fixed_form(&text) } else { source::free_form(&text) };
    for l in &mut lines {
        l.line = origin.get(l.line as usize - 1).copied().filter(|&n| n > 0).unwrap_or(l.line);
    }
    let units = parse::parse(&lines).map_err(|e| FortranError { line: e.line, col: e.col as u32 + 1, message: e.message.clone(), unsupported: e.message.contains("not supported") })?;
    emit::translate_units_named(&units, path)
}

/// Replace each `include 'file'` line (Fortran 2003 §3.4) by the file's lines, which take the
/// include line's number.
fn expand_includes(src: &str, origin: &[u32], dirs: &[std::path::PathBuf], depth: u32) -> Result<(String, Vec<u32>), FortranError> {
    let mut text = String::new();
    let mut out_origin = Vec::new();
    for (i, line) in src.lines().enumerate() {
        let here = origin.get(i).copied().unwrap_or(0);
        let t = line.trim_start();
        let name = (t.len() > 7 && t[..7].eq_ignore_ascii_case("include")).then(|| t[7..].trim()).and_then(|r| {
            let q = r.chars().next().filter(|c| *c == '\'' || *c == '"')?;
            let body = r[1..].strip_suffix(q)?;
            Some(body.to_string())
        });
        let Some(name) = name else {
            text.push_str(line);
            text.push('\n');
            out_origin.push(here);
            continue;
        };
        if depth > 8 {
            return Err(FortranError { line: here, col: 1, message: format!("`include '{name}'` nests too deeply"), unsupported: false });
        }
        let found = dirs.iter().map(|d| d.join(&name)).find(|p| p.is_file());
        let Some(file) = found else {
            return Err(FortranError { line: here, col: 1, message: format!("cannot find the included file `{name}`"), unsupported: false });
        };
        let inner = std::fs::read_to_string(&file).map_err(|e| FortranError { line: here, col: 1, message: format!("cannot read `{}`: {e}", file.display()), unsupported: false })?;
        let inner_origin = vec![here; inner.lines().count()];
        let (t2, o2) = expand_includes(&inner, &inner_origin, dirs, depth + 1)?;
        text.push_str(&t2);
        out_origin.extend(o2);
    }
    Ok((text, out_origin))
}
