//! Dialects (issue 17): PGI Accelerator 1.3 programs (`samples/pgi13/`) are read as 1.3 when they
//! use `region`, `accsim info` shows every 1.3 directive's OpenACC 2.0 equivalent, `accsim check`
//! finds nothing wrong in the (correct) samples, and `--dialect openacc-2.0` refuses 1.3
//! directives by naming the flag that reads them. The samples' output is checked by
//! `acc_samples.rs` (they are part of its sample set).

mod common;

use std::process::Command;

use common::*;

fn accsim(args: &[&str]) -> Outcome {
    let mut cmd = Command::new(accsim_bin());
    cmd.current_dir(repo_root()).args(args);
    match run_with_timeout(cmd, accsim_timeout()) {
        Ok(o) => o,
        Err(e) => panic!("accsim {args:?}: {e}"),
    }
}

fn pgi13_samples() -> Vec<String> {
    let files = c_files(&samples_dir().join("pgi13"));
    assert!(!files.is_empty(), "no samples in samples/pgi13");
    files.iter().map(|p| p.strip_prefix(repo_root()).unwrap_or(p).display().to_string()).collect()
}

/// The `#pragma acc` lines of a source file.
fn pragma_count(path: &str) -> usize {
    let text = std::fs::read_to_string(repo_root().join(path)).unwrap_or_default();
    text.lines().filter(|l| l.trim_start().starts_with("#pragma acc")).count()
}

#[test]
fn info_shows_the_openacc_20_form_of_every_pgi13_directive() {
    for f in pgi13_samples() {
        let out = accsim(&["info", &f]);
        let stderr = out.stderr_text();
        assert_eq!(out.status, 0, "{f}:\n{stderr}");
        let shown = stderr.lines().filter(|l| l.contains("is OpenACC 2.0")).count();
        assert_eq!(shown, pragma_count(&f), "{f}: one 2.0 equivalent per directive:\n{stderr}");
    }
    let out = accsim(&["info", "samples/pgi13/01_region.c"]);
    let stderr = out.stderr_text();
    assert!(stderr.contains("PGI 1.3 `#pragma acc region` is OpenACC 2.0 `#pragma acc kernels copyin(a, x) copy(y)`"), "{stderr}");
    assert!(stderr.contains("implicit data analysis (§2.3.1)"), "{stderr}");
}

#[test]
fn check_finds_nothing_wrong_in_the_pgi13_samples() {
    for f in pgi13_samples() {
        let out = accsim(&["check", &f]);
        assert_eq!(out.status, 0, "{f}:\n{}", out.stderr_text());
    }
}

#[test]
fn region_selects_the_dialect_with_a_note_and_openacc_20_names_the_flag() {
    let out = accsim(&["run", "-W", "samples/pgi13/01_region.c"]);
    assert_eq!(out.status, 0);
    assert!(out.stderr_text().contains("reading it as `--dialect pgi-1.3`"), "{}", out.stderr_text());
    let out = accsim(&["run", "samples/pgi13/01_region.c"]);
    assert!(out.stderr.is_empty(), "no note without -W: {}", out.stderr_text());
    let out = accsim(&["run", "--dialect", "openacc-2.0", "samples/pgi13/01_region.c"]);
    assert_eq!(out.status, 2);
    assert!(out.stderr_text().contains("PGI Accelerator 1.3 directive: run with --dialect pgi-1.3"), "{}", out.stderr_text());
}
