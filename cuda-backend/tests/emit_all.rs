//! Issue 12 item 14: every program the simulator runs also runs on the GPU. `emit-cuda` (the
//! translation `run --device cuda` compiles) must accept every kernel of every program of the
//! repository written in the styles real codes use: `samples/bench/styles` (PolyBench-style
//! kernels), `samples/acc`, `samples/openuh`, `samples/regress`, the spec-traced suite
//! `conformance/spec`, the Fortran samples (`samples/fortran`, issue 16), the PGI 1.3 and Cray
//! dialect samples (`samples/pgi13`, `samples/cray`, issue 17). No GPU is needed: the test
//! translates, it does not compile or run.
//!
//! A program that does not compile (the compile-error tests) is the front-end's business and is
//! skipped, except in the folders of [`MUST_COMPILE`], which hold no such test. Of the others, each "not supported" item must be one of [`DELIBERATE`], a documented
//! refusal with its reason; a panic of the emitter fails the test too.

use std::path::{Path, PathBuf};

use accsim_core::diag::SourceMap;
use accsim_core::driver;
use accsim_core::frontend::PreprocessOptions;

/// The refusals that are deliberate: (program, what the refusal names, why).
const DELIBERATE: &[(&str, &str, &str)] = &[(
    "samples/regress/runtime_routine_in_device_code.c",
    "calling `acc_get_device_num` on the GPU",
    "§3.2.5: the routine may not be called in a compute region; the simulator stops the program there (exit 3), \
     and the GPU has no device version to stop it, so the back-end refuses it before the launch",
)];

const DIRS: &[&str] = &["samples/bench/styles", "samples/acc", "samples/openuh", "samples/regress", "conformance/spec", "samples/fortran", "samples/pgi13", "samples/cray"];

/// Folders whose every program compiles (their error programs live in subfolders).
const MUST_COMPILE: &[&str] = &["samples/fortran", "samples/pgi13", "samples/cray"];

/// Source files: C, and Fortran in free and fixed form.
fn is_source(name: &str) -> bool {
    [".c", ".f90", ".F90", ".f"].iter().any(|x| name.ends_with(x))
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn programs() -> Vec<String> {
    let mut all = Vec::new();
    for dir in DIRS {
        let mut files: Vec<String> = std::fs::read_dir(root().join(dir))
            .unwrap_or_else(|e| panic!("reading {dir}: {e}"))
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| is_source(n))
            .map(|n| format!("{dir}/{n}"))
            .collect();
        files.sort();
        all.extend(files);
    }
    all
}

#[test]
fn every_kernel_of_every_program_translates() {
    let mut translated = 0;
    let mut refused = Vec::new();
    let mut deliberate_seen = Vec::new();
    for rel in programs() {
        let mut map = SourceMap::new();
        let compiled = match driver::compile_files(&[root().join(&rel).display().to_string()], &PreprocessOptions::default(), &mut map) {
            Ok(c) => c,
            Err(_) if MUST_COMPILE.iter().any(|d| rel.starts_with(d)) => {
                refused.push(format!("{rel}: does not compile"));
                continue;
            }
            Err(_) => continue,
        };
        match accsim_cuda::emit::program(&compiled.program, &compiled.info) {
            Ok(_) => translated += 1,
            Err(e) => {
                for u in &e.items {
                    match DELIBERATE.iter().find(|(file, what, _)| *file == rel && u.what.contains(what)) {
                        Some(d) => deliberate_seen.push(d.0),
                        None => refused.push(format!("{rel}:{}: not supported: {}", u.loc.line, u.what)),
                    }
                }
            }
        }
    }
    assert!(refused.is_empty(), "`emit-cuda` refuses kernels of {} program(s):\n{}", refused.len(), refused.join("\n"));
    // Each listed refusal still happens (a stale entry would hide nothing, but says something false).
    for (file, what, _) in DELIBERATE {
        assert!(deliberate_seen.contains(file), "{file} no longer refuses {what}: remove it from DELIBERATE");
    }
    assert!(translated > 400, "only {translated} programs translated: are the sample folders there?");
}
