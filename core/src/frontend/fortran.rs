//! Fortran sources: `accsim-fortran` translates a `.f90`/`.f` file into C whose line markers name
//! the Fortran file and lines; that C then takes the C path (preprocessor, directive extraction,
//! lang-c, lowering), so every later stage works on Fortran programs unchanged. `.F90`/`.F` go
//! through the C preprocessor in traditional mode first (`cc -E -traditional-cpp`, as gfortran
//! does), with `_OPENACC` defined.

use std::process::Command;

use accsim_fortran::SourceForm;

use crate::diag::{Diagnostic, Loc, SourceMap};
use crate::frontend::{preprocess::parse_line_marker, PreprocessOptions};

/// Distinguishes the translations of one process (tests compile in parallel threads).
static SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Remove the C file [`translate_file`] wrote (once preprocessed; the source map keeps its text).
pub fn remove_translation(c_path: &str) {
    let p = std::path::Path::new(c_path);
    let _ = std::fs::remove_file(p);
    if let Some(dir) = p.parent() {
        let _ = std::fs::remove_dir(dir);
    }
}

/// Translate the Fortran file `path` into C and return the path of the C file written, with the
/// translator's warnings about the program.
pub fn translate_file(path: &str, form: SourceForm, opts: &PreprocessOptions, map: &mut SourceMap) -> Result<(String, Vec<Diagnostic>), Diagnostic> {
    let file = map.read_file_id(path);
    let whole = Loc { file, line: 0, col: 0 };
    let bytes = std::fs::read(path).map_err(|e| Diagnostic::error("io", format!("cannot read `{path}`: {e}"), whole))?;
    let mut text = String::from_utf8_lossy(&bytes).into_owned();
    // For preprocessed sources: the original line of each line of the preprocessor's output.
    let mut origin: Option<Vec<u32>> = None;
    if form.preprocess {
        let mut cmd = Command::new("cc");
        cmd.args(["-E", "-traditional-cpp", "-x", "c", "-D_OPENACC=201306"]).args(&opts.args).arg(path);
        let out = cmd.output().map_err(|e| Diagnostic::error("preprocessor", format!("cannot run the C preprocessor: {e}"), whole))?;
        if !out.status.success() {
            let stderr = String::from_utf8_lossy(&out.stderr);
            return Err(Diagnostic::error("preprocessor", "preprocessing failed", whole).with_note(stderr.trim().to_string()));
        }
        let pp = String::from_utf8_lossy(&out.stdout).into_owned();
        let mut lines = Vec::new();
        let mut map_lines = Vec::new();
        let mut current = 1u32;
        let mut in_main = true;
        for l in pp.lines() {
            if let Some((n, name)) = parse_line_marker(l) {
                current = n;
                in_main = name == path;
                lines.push(String::new());
                map_lines.push(0);
                continue;
            }
            lines.push(if in_main { l.to_string() } else { String::new() });
            map_lines.push(current);
            current += 1;
        }
        text = lines.join("\n");
        origin = Some(map_lines);
    }
    let include_dirs: Vec<std::path::PathBuf> = opts.args.iter().filter_map(|a| a.strip_prefix("-I")).map(std::path::PathBuf::from).collect();
    let (c, names) = accsim_fortran::translate_named(&text, path, form.fixed, origin.as_deref(), &include_dirs).map_err(|e| {
        let loc = Loc { file, line: e.line, col: e.col.max(1) };
        if e.unsupported {
            // The class's own wording says "not supported by accsim": keep only the feature.
            let feature = e.message.replace(" are not supported by accsim's Fortran front-end", "").replace(" is not supported by accsim's Fortran front-end", "");
            Diagnostic::unsupported(format!("Fortran: {feature}"), loc)
        } else {
            Diagnostic::error("fortran", e.message, loc)
        }
    })?;
    let mut names = names;
    let warnings = std::mem::take(&mut names.warnings)
        .into_iter()
        .map(|(line, kind, message)| {
            let mut d = Diagnostic::error(kind, message, Loc { file, line, col: 1 });
            d.severity = crate::diag::Severity::Warning;
            d
        })
        .collect();
    map.set_fortran_names(file, names);
    // Write the C next to other temporaries, named after the Fortran file and this process.
    let base = std::path::Path::new(path).file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_else(|| "fortran".into());
    let dir = std::env::temp_dir().join(format!("accsim-fortran-{}-{}", std::process::id(), SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed)));
    std::fs::create_dir_all(&dir).map_err(|e| Diagnostic::internal(format!("cannot create {}: {e}", dir.display()), None))?;
    let out = dir.join(format!("{base}.c"));
    // `ACCSIM_FORTRAN_C=FILE` keeps a copy of the translation (for looking at what accsim runs).
    if let Some(keep) = std::env::var_os("ACCSIM_FORTRAN_C") {
        let _ = std::fs::write(keep, &c);
    }
    std::fs::write(&out, c).map_err(|e| Diagnostic::internal(format!("cannot write {}: {e}", out.display()), None))?;
    Ok((out.display().to_string(), warnings))
}
