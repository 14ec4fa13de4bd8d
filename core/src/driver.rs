//! The pipeline from files to a linked program: preprocess and parse every translation unit, then
//! lower and link them (DESIGN.md "The pipeline"). Used by the `accsim` command, the GUI and tests.

use crate::diag::{Diagnostic, SourceMap};
use crate::frontend::{self, PreprocessOptions};
use crate::ir::Program;
use crate::lower;

/// A compiled program plus the sources it came from, and notes about ignored pragmas.
pub struct Compiled {
    pub program: Program,
    /// What the passes learned about the program's kernels (their access plans), validated
    /// with it (`ir::valid`).
    pub info: crate::kernel::ProgramInfo,
    pub notes: Vec<Diagnostic>,
}

/// Compile C files into one linked IR program. On failure, every error found is returned.
pub fn compile_files(files: &[String], opts: &PreprocessOptions, map: &mut SourceMap) -> Result<Compiled, Vec<Diagnostic>> {
    let mut units = Vec::new();
    let mut errors = Vec::new();
    let mut notes = Vec::new();
    for f in files {
        match frontend::parse_file(f, opts, map) {
            Ok(u) => {
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
    let mut program = lower::lower_program(&units)?;
    let plans = crate::kernel::outline_program(&mut program)?;
    crate::ir::reach::drop_unreachable(&mut program);
    let info = crate::ir::valid::validate(&program, plans)?;
    Ok(Compiled { program, info, notes })
}
