//! Fortran sources: `accsim-fortran` translates a `.f90`/`.f` file into C whose line markers name
//! the Fortran file and lines; that C then takes the C path (directive extraction, lang-c,
//! lowering), so every later stage works on Fortran programs unchanged. `.F90`/`.F` go through
//! the C preprocessor in traditional mode first (`cc -E -traditional-cpp`, as gfortran does),
//! with `_OPENACC` defined and gfortran's predefined macros instead of the C compiler's.
//!
//! The translation is complete C that needs no preprocessor: it declares the C library it uses
//! itself (`accsim_fortran::LIBC`) and has no comment, macro or `#include` but one,
//! `#include <openacc.h>`, which [`translate_file`] replaces by the declarations of accsim's own
//! `openacc.h`. So a Fortran program runs the C preprocessor at most once (`.F90`) and never
//! parses the system headers (issue 16: the second `cc -E` run and the 3,500 lines of headers
//! were most of a small program's fixed cost, and the C compiler's macros `unix` and `linux`
//! replaced Fortran names).

use std::process::Command;
use std::sync::OnceLock;

use accsim_fortran::SourceForm;

use crate::diag::{Diagnostic, Loc, SourceMap};
use crate::frontend::{preprocess::parse_line_marker, PreprocessOptions};

/// The `#include` line of the translation that [`openacc_declarations`] replaces.
const OPENACC_INCLUDE: &str = "#include <openacc.h>\n";

/// The macros gfortran's preprocessor predefines (`gfortran -cpp -dM -E` of an empty file, gcc 12
/// on x86-64) that describe the language and the target. The C compiler's own are dropped, since
/// gfortran does not define them and a Fortran name `unix` must stay a name: `-undef` drops the
/// system's (`unix`, `linux`, `__GNUC__`), `-std=gnu89` `__STDC_VERSION__` (and `//` comments,
/// which C89 does not have: Fortran's concatenation stays), `-ffreestanding` the macros of
/// `stdc-predef.h` and makes `__STDC_HOSTED__` 0, as gfortran has it.
const GFORTRAN_MACROS: [&str; 22] = [
    "-D__GFORTRAN__=1",
    "-D_LANGUAGE_FORTRAN=1",
    "-D__LP64__=1",
    "-D_LP64=1",
    "-D__CHAR_BIT__=8",
    "-D__SIZEOF_INT__=4",
    "-D__SIZEOF_LONG__=8",
    "-D__SIZEOF_LONG_LONG__=8",
    "-D__SIZEOF_SHORT__=2",
    "-D__SIZEOF_POINTER__=8",
    "-D__SIZEOF_FLOAT__=4",
    "-D__SIZEOF_DOUBLE__=8",
    "-D__SIZEOF_LONG_DOUBLE__=16",
    "-D__SIZEOF_SIZE_T__=8",
    "-D__ORDER_LITTLE_ENDIAN__=1234",
    "-D__ORDER_BIG_ENDIAN__=4321",
    "-D__ORDER_PDP_ENDIAN__=3412",
    "-D__BYTE_ORDER__=__ORDER_LITTLE_ENDIAN__",
    "-D__FLOAT_WORD_ORDER__=__ORDER_LITTLE_ENDIAN__",
    "-D__BIGGEST_ALIGNMENT__=16",
    "-D__FINITE_MATH_ONLY__=0",
    "-D__NO_MATH_ERRNO__=1",
];

/// The declarations of accsim's `openacc.h` (the OpenACC 2.0 runtime API, §3) as the translation
/// includes them: its preprocessor lines and C++ guards dropped (the Fortran `openacc` module
/// gives `acc_async_noval` and `acc_async_sync` their values itself) and its comments removed.
fn openacc_declarations() -> &'static str {
    static DECLARATIONS: OnceLock<String> = OnceLock::new();
    DECLARATIONS.get_or_init(|| {
        let text = accsim_fortran::runtime::strip_comments(crate::frontend::preprocess::OPENACC_H);
        let mut out = String::new();
        let mut in_cplusplus = false;
        for line in text.lines() {
            let t = line.trim_start();
            if t.starts_with("#ifdef __cplusplus") {
                in_cplusplus = true;
            } else if in_cplusplus {
                in_cplusplus = !t.starts_with("#endif");
            } else if !t.starts_with('#') {
                out.push_str(line);
            }
            // One line for each line of the header, so the runtime's lines keep their numbers.
            out.push('\n');
        }
        out
    })
}

/// Translate the Fortran file `path` into C and return the C text, with the translator's warnings
/// about the program. The text is what the C preprocessor would have made of it: line markers,
/// `#pragma acc` lines and C without comments or macros.
pub fn translate_file(path: &str, form: SourceForm, opts: &PreprocessOptions, map: &mut SourceMap) -> Result<(String, Vec<Diagnostic>), Diagnostic> {
    let file = map.read_file_id(path);
    let whole = Loc { file, line: 0, col: 0 };
    let bytes = std::fs::read(path).map_err(|e| Diagnostic::error("io", format!("cannot read `{path}`: {e}"), whole))?;
    let mut text = String::from_utf8_lossy(&bytes).into_owned();
    // For preprocessed sources: the original line of each line of the preprocessor's output.
    let mut origin: Option<Vec<u32>> = None;
    if form.preprocess {
        let mut cmd = Command::new("cc");
        cmd.args(["-E", "-traditional-cpp", "-x", "c", "-undef", "-std=gnu89", "-ffreestanding"]).args(GFORTRAN_MACROS).arg("-D_OPENACC=201306").args(&opts.args).arg(path);
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
    let c = c.replacen(OPENACC_INCLUDE, openacc_declarations(), 1);
    // `ACCSIM_FORTRAN_C=FILE` keeps a copy of the translation (for looking at what accsim runs).
    if let Some(keep) = std::env::var_os("ACCSIM_FORTRAN_C") {
        let _ = std::fs::write(keep, &c);
    }
    Ok((c, warnings))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The translation of a Fortran program is C the front-end reads without a preprocessor:
    /// it declares the library it calls and the OpenACC runtime, and names like `unix` stay names.
    #[test]
    fn a_translation_needs_no_preprocessor() {
        let dir = std::env::temp_dir().join(format!("accsim-fortran-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("unix.f90");
        std::fs::write(&path, "program p\n  use openacc\n  integer :: unix\n  real(8) :: x\n  unix = acc_get_num_devices(acc_device_host)\n  x = sqrt(2.0d0)\n  print '(i0, f8.4)', unix, x\nend program p\n").expect("write");
        let path = path.display().to_string();
        let mut map = SourceMap::default();
        let unit = crate::frontend::parse_file(&path, &PreprocessOptions::default(), &mut map).unwrap_or_else(|d| panic!("{d:?}"));
        assert!(unit.fortran);
        assert!(!unit.text.contains("#include"), "an include left in the translation");
        assert!(crate::lower::lower_program(&[unit]).is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A call of a routine the translation does not declare is accsim's bug, reported as one, not
    /// lowered as C89's implicit `int f()` (which would compute a wrong value silently).
    #[test]
    fn an_undeclared_routine_in_a_translation_is_an_internal_error() {
        let mut map = SourceMap::default();
        let mut unit = crate::frontend::parse_preprocessed("t.c", "int main(void) { double x = hypot(3.0, 4.0); return (int)x; }\n".into(), &mut map).expect("parses");
        assert!(crate::lower::lower_program(std::slice::from_ref(&unit)).is_ok(), "C keeps C89's implicit declaration");
        unit.fortran = true;
        let Err(err) = crate::lower::lower_program(&[unit]) else { panic!("an undeclared routine was lowered") };
        assert!(err.iter().any(|d| d.message.contains("`hypot`") && d.class == crate::diag::Class::Internal), "{err:?}");
    }
}
