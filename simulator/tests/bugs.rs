//! The planted-bug corpus (`samples/bugs/`): `accsim check` finds every bug, and only where it
//! was planted; and the correct samples give no error or warning finding at all.
//!
//! Each `samples/bugs/NAME.c` marks the line of each expected finding with
//! `/* expect: KIND */`. The test runs `accsim check samples/bugs/NAME.c` from the repository
//! root and checks (1) that a finding of each expected kind has its primary location on the
//! marked line (JSON output), (2) the exit status (1 with an error or warning finding, 0 with
//! notes only), and (3) the rendered findings against the golden `NAME.stderr`.
//! `BLESS=1 cargo test -p accsim --test bugs` regenerates the golden files.
//! `ACCSIM_SAMPLE=name[,name]` runs only those programs.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

/// Correct samples that still give a finding, with the reason; each must keep giving exactly
/// this finding kind, so that a fix is noticed.
const KNOWN_FINDINGS: &[(&str, &str)] = &[];

fn only() -> Option<Vec<String>> {
    std::env::var("ACCSIM_SAMPLE").ok().map(|s| s.split(',').map(|n| n.trim().to_string()).collect())
}

/// The C and Fortran programs of `dir`.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut files = c_files(dir);
    files.extend(fortran_files(dir));
    only_named_samples(files)
}

/// `accsim check [flags] FILE`, run from the repository root with `FILE` relative to it, so
/// that paths in the output do not depend on where the repository is.
fn check(rel: &Path, flags: &[&str]) -> Outcome {
    let mut cmd = Command::new(accsim_bin());
    cmd.current_dir(repo_root()).arg("check").args(flags).arg(rel);
    run_with_timeout(cmd, accsim_timeout()).expect("run accsim check")
}


/// The `/* expect: KIND */` marks of a program: (kind, line).
fn expectations(src: &str) -> Vec<(String, u64)> {
    src.lines()
        .enumerate()
        .filter_map(|(i, l)| {
            let rest = &l[l.find("expect:")? + "expect:".len()..];
            let kind: String = rest.trim_start().chars().take_while(|c| c.is_ascii_lowercase() || *c == '-').collect();
            (!kind.is_empty()).then_some((kind, i as u64 + 1))
        })
        .collect()
}

#[test]
fn planted_bugs_are_found_where_they_were_planted() {
    let root = repo_root();
    let files = sources(&samples_dir().join("bugs"));
    assert!(!files.is_empty(), "no programs in samples/bugs (or ACCSIM_SAMPLE matched none)");
    if only().is_none() {
        assert!(files.len() >= 30, "samples/bugs holds {} programs; the corpus needs at least 30", files.len());
    }
    let bless = std::env::var("BLESS").is_ok_and(|v| v == "1");
    let results = parallel_map(files, move |path| {
        let rel = path.strip_prefix(repo_root()).unwrap_or(path).to_path_buf();
        let name = rel.display().to_string();
        let src = std::fs::read_to_string(path).unwrap_or_default();
        let expected = expectations(&src);
        let mut problems = Vec::new();
        if expected.is_empty() {
            problems.push(format!("{name}: no `/* expect: KIND */` mark"));
        }
        let json = check(&rel, &["--format", "json"]);
        match findings(&json.stdout) {
            Err(e) => problems.push(format!("{name}: {e}\n{}", json.stderr_text())),
            Ok(found) => {
                for (kind, line) in &expected {
                    if !found.iter().any(|(k, l, _)| k == kind && l == line) {
                        problems.push(format!("{name}:{line}: expected a `{kind}` finding here; found {found:?}"));
                    }
                }
                let serious = found.iter().any(|(_, _, s)| s != "note");
                let want = if serious { 1 } else { 0 };
                if json.status != want {
                    problems.push(format!("{name}: exit status {} (expected {want})", json.status));
                }
            }
        }
        let text = check(&rel, &[]);
        let golden = path.with_extension("stderr");
        if bless {
            if let Err(e) = std::fs::write(&golden, &text.stderr) {
                problems.push(format!("{}: cannot write: {e}", golden.display()));
            }
        } else {
            let want = std::fs::read(&golden).unwrap_or_default();
            if want != text.stderr {
                problems.push(format!("{name}: the findings differ from {}:\n{}", golden.display(), short_diff(&want, &text.stderr)));
            }
        }
        problems
    });
    let problems: Vec<String> = results.into_iter().flatten().collect();
    assert!(
        problems.is_empty(),
        "{}\n\nto accept the new output as golden: BLESS=1 cargo test -p accsim --test bugs (from {})",
        problems.join("\n\n"),
        root.display()
    );
}

#[test]
fn correct_samples_give_no_error_or_warning_findings() {
    let mut files = sources(&samples_dir().join("acc"));
    files.extend(sources(&samples_dir().join("openuh")));
    assert!(!files.is_empty(), "no samples (or ACCSIM_SAMPLE matched none)");
    let results = parallel_map(files, |path| {
        let rel = path.strip_prefix(repo_root()).unwrap_or(path).to_path_buf();
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let out = check(&rel, &["--format", "json"]);
        let found = match findings(&out.stdout) {
            Ok(f) => f,
            Err(e) => return Some(format!("{}: {e}", rel.display())),
        };
        let serious: Vec<String> = found.iter().filter(|(_, _, s)| s != "note").map(|(k, l, _)| format!("{k} at line {l}")).collect();
        match KNOWN_FINDINGS.iter().find(|(n, _)| *n == stem) {
            Some((_, kind)) if serious.iter().all(|s| s.starts_with(kind)) && !serious.is_empty() => None,
            Some((_, kind)) => Some(format!("{}: known to give `{kind}`, now gives {serious:?} (update KNOWN_FINDINGS)", rel.display())),
            None if serious.is_empty() && out.status == 0 => None,
            None => Some(format!("{}: exit {} with findings {serious:?}", rel.display(), out.status)),
        }
    });
    let problems: Vec<String> = results.into_iter().flatten().collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
