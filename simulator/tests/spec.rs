//! The spec-traced conformance suite (`conformance/spec/`): one small program per normative rule
//! of chapters 2 and 3 of the OpenACC 2.0 specification, each run by `accsim run` and by
//! `accsim check` against what the rule says must happen (issue 12, the measurement part).
//!
//! A program states its expectations with the header lines and `/* expect: KIND */` marks that
//! `samples/regress` uses (see `program_problems` in `common/mod.rs`); `NAME.expected` is its
//! stdout, decided from the specification, never taken from accsim. `conformance/SPEC_COVERAGE.md`
//! maps each section to its programs.
//!
//! Where accsim departs from the specification the program is listed in `KNOWN_FAILURES` with the
//! symptom the harness reports and why; the test fails if such a program starts passing (remove it
//! from the list, and mark it passing in SPEC_COVERAGE.md) or fails differently. Each known
//! failure has a minimal reproducer in `conformance/spec/FAILURES.md`.
//!
//! `ACCSIM_SAMPLE=name[,name]` runs only those programs (file stems, e.g. `2.6.5.2_copy_array`).

mod common;

use std::path::PathBuf;

use common::*;

/// (program, text the harness's report of it must contain, why accsim fails it); when one starts
/// passing, remove it here and mark it passing in SPEC_COVERAGE.md.
const KNOWN_FAILURES: &[KnownFailure] = &[
];

fn spec_dir() -> PathBuf {
    repo_root().join("conformance").join("spec")
}

fn spec_programs() -> Vec<PathBuf> {
    only_named_samples(c_files(&spec_dir()))
}

fn stem(path: &std::path::Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

/// Queue schedules under which a correct program's output does not change: `--schedule seed:N`
/// delays queued work until something waits for it (§2.13: an async operation may run at any time
/// before its wait), as `acc_samples.rs` runs its samples.
const DELAYED_SCHEDULES: &[&str] = &["seed:0", "seed:7"];

/// A bound on the interpreter steps of a delayed-schedule run, far above what these small programs
/// need, so that a program that waits by polling (§3.2.6) and never sees its work complete stops
/// quickly instead of at the harness's time limit.
const DELAYED_MAX_STEPS: &str = "20000000";

/// For a program that uses asynchronous operations (§2.13) and expects exit 0: how its runs under
/// `DELAYED_SCHEDULES` depart from its exit status and `NAME.expected`.
fn delayed_queue_problems(path: &std::path::Path) -> Vec<String> {
    let src = std::fs::read_to_string(path).unwrap_or_default();
    if !src.contains("async") || !header_values(&src, "expect-exit").is_empty() {
        return Vec::new();
    }
    let name = stem(path);
    let rel = path.strip_prefix(repo_root()).unwrap_or(path).to_path_buf();
    let want = std::fs::read(path.with_extension("expected")).unwrap_or_default();
    let mut problems = Vec::new();
    for seed in DELAYED_SCHEDULES {
        let flags = ["--schedule", seed, "--max-steps", DELAYED_MAX_STEPS].map(str::to_string);
        match run_accsim(&flags, std::slice::from_ref(&rel), &[]) {
            Err(e) => problems.push(format!("{name}: cannot run accsim: {e}")),
            Ok(out) if out.status != 0 || out.stdout != want => problems.push(format!(
                "{name}: under `--schedule {seed}` `accsim run` exited {} and its stdout differs from NAME.expected:\n{}\n{}",
                out.status,
                short_diff(&want, &out.stdout),
                indent(&out.stderr_text(), 1500)
            )),
            Ok(_) => {}
        }
    }
    problems
}

#[test]
fn spec_programs_behave_as_the_specification_says() {
    let files = spec_programs();
    if files.is_empty() {
        assert!(std::env::var("ACCSIM_SAMPLE").is_ok(), "no programs in conformance/spec");
        return;
    }
    let results = parallel_map(files, |path| {
        let name = stem(path);
        let mut problems = program_problems(path, false);
        problems.extend(delayed_queue_problems(path));
        against_known_failures(&name, problems, KNOWN_FAILURES)
    });
    let problems: Vec<String> = results.into_iter().flatten().collect();
    assert!(problems.is_empty(), "{}\n\n{} problem(s)", problems.join("\n\n"), problems.len());
}

/// Every program cites the section it tests, every program has its line in SPEC_COVERAGE.md, and
/// every known failure is recorded there as failing and in FAILURES.md.
#[test]
fn spec_programs_are_traced_to_sections_and_listed() {
    let coverage = std::fs::read_to_string(repo_root().join("conformance/SPEC_COVERAGE.md")).unwrap_or_default();
    let failures = std::fs::read_to_string(spec_dir().join("FAILURES.md")).unwrap_or_default();
    let mut problems = Vec::new();
    for path in c_files(&spec_dir()) {
        let name = stem(&path);
        let src = std::fs::read_to_string(&path).unwrap_or_default();
        let first: String = src.lines().take(6).collect::<Vec<_>>().join("\n");
        if !first.contains('§') {
            problems.push(format!("{name}: its opening comment cites no section (§…)"));
        }
        if !coverage.contains(&format!("`{name}`")) {
            problems.push(format!("{name}: not listed in conformance/SPEC_COVERAGE.md"));
        }
    }
    for (name, _, _) in KNOWN_FAILURES {
        let line = coverage.lines().find(|l| l.contains(&format!("`{name}`"))).unwrap_or("");
        if !line.contains("fails") {
            problems.push(format!("{name}: a known failure, but SPEC_COVERAGE.md does not say it fails"));
        }
        if !failures.contains(name) {
            problems.push(format!("{name}: a known failure missing from conformance/spec/FAILURES.md"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
