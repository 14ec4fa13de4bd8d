//! Differential tests: accsim against gcc on the plain-C corpus.
//!
//! - `c_samples_match_gcc`: every `samples/c/*.c` and `samples/c/multi/*/` is
//!   compiled with `gcc -std=gnu11 -O0 -w ... -lm` and run; `accsim run` must
//!   print the same stdout bytes and exit with the same status.
//! - `error_samples_are_diagnosed`: every `samples/errors/*.c` must make accsim
//!   exit with its `// expect-exit:` status, with a diagnostic on stderr that
//!   contains the `// expect-stderr:` text and `FILE.c:LINE`, and no panic.
//! - `system_headers_match_gcc`: a tiny program per supported system header
//!   (generated here) must run under accsim and print what gcc's build prints.
//! - `compile_error_samples_are_rejected_by_gcc`: keeps the corpus honest; an
//!   error sample expecting exit 2 must be a real C error that gcc rejects.
//!
//! Every test collects all failures and reports them together. Run one sample
//! with `ACCSIM_SAMPLE=name cargo test -p accsim --test differential`; see
//! `tests/common/mod.rs` for the other knobs.

mod common;

use common::*;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Every sample name of every corpus, for validating `ACCSIM_SAMPLE`.
fn all_sample_names() -> Vec<String> {
    c_samples()
        .into_iter()
        .chain(error_samples())
        .map(|s| s.name)
        .chain(header_programs().iter().map(|(h, _)| header_sample_name(h)))
        .chain(std::iter::once("headers/all".to_string()))
        .collect()
}

fn rerun_hint(test: &str, name: &str) -> String {
    format!("ACCSIM_SAMPLE={name} cargo test -p accsim --test differential {test}")
}

/// Builds `sample` with gcc into `dir`, runs both, and describes any difference.
fn compare_with_gcc(cc: &str, sample: &Sample, dir: &TempDir) -> Option<String> {
    let exe = dir.path().join(sample.name.replace('/', "__"));
    if let Err(e) = compile_native(cc, &sample.files, &exe) {
        return Some(format!("  the corpus is broken here: {e}"));
    }
    let native = {
        let mut cmd = std::process::Command::new(&exe);
        // Same working directory as the accsim run (see `run_accsim`).
        cmd.current_dir(repo_root()).args(&sample.args);
        match run_with_timeout(cmd, NATIVE_TIMEOUT) {
            Ok(o) if o.timed_out => {
                return Some(format!(
                    "  the gcc build did not finish within {:?}: the sample is too slow",
                    NATIVE_TIMEOUT
                ))
            }
            Ok(o) => o,
            Err(e) => return Some(format!("  cannot run the gcc build: {e}")),
        }
    };
    let sim = match run_accsim(&[], &sample.files, &sample.args) {
        Ok(o) => o,
        Err(e) => return Some(format!("  cannot run accsim: {e}")),
    };
    let mut report = String::new();
    if sim.timed_out {
        let _ = writeln!(
            report,
            "  accsim did not finish within {:?} (killed)",
            accsim_timeout()
        );
    } else if sim.status != native.status {
        let _ = writeln!(
            report,
            "  exit status: gcc {} vs accsim {}",
            native.status, sim.status
        );
    }
    if sim.stdout != native.stdout {
        report.push_str(&short_diff(&native.stdout, &sim.stdout));
    }
    if report.is_empty() {
        return None;
    }
    let stderr = sim.stderr_text();
    if stderr.trim().is_empty() {
        let _ = writeln!(report, "  accsim stderr: (empty)");
    } else {
        let _ = writeln!(report, "  accsim stderr:\n{}", indent(&stderr, 1500));
    }
    Some(report)
}

/// Runs the gcc comparison over `samples` in parallel and fails once with every mismatch.
fn check_all_against_gcc(test: &str, what: &str, samples: Vec<Sample>) {
    if samples.is_empty() {
        return;
    }
    let cc = require_cc();
    let dir = std::sync::Arc::new(TempDir::new("differential"));
    let total = samples.len();
    let names: Vec<String> = samples.iter().map(|s| s.name.clone()).collect();
    let results = {
        let dir = dir.clone();
        parallel_map(samples, move |s| compare_with_gcc(&cc, s, &dir))
    };
    let mut failures = String::new();
    let mut failed = 0;
    for (name, result) in names.iter().zip(results) {
        if let Some(report) = result {
            failed += 1;
            let _ = writeln!(
                failures,
                "\n--- {name}: accsim differs from gcc\n{report}    rerun: {}",
                rerun_hint(test, name)
            );
        }
    }
    if failed > 0 {
        panic!("{failed} of {total} {what} differ between gcc and accsim:\n{failures}");
    }
    eprintln!("{total} {what} match gcc");
}

#[test]
fn c_samples_match_gcc() {
    let all = c_samples();
    assert!(
        !all.is_empty(),
        "no samples found under {}",
        samples_dir().join("c").display()
    );
    let samples = filter_samples(all, &all_sample_names());
    check_all_against_gcc("c_samples_match_gcc", "C samples", samples);
}

/// The expectations written at the top of an error sample.
struct ErrorExpectation {
    exit: i32,
    stderr: Option<String>,
    line: Option<u32>,
    flags: Vec<String>,
}

fn parse_expectation(sample: &Sample) -> Result<ErrorExpectation, String> {
    let path = &sample.files[0];
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let exit = header_value(&text, "expect-exit")
        .ok_or("missing `// expect-exit: N` header")?
        .parse::<i32>()
        .map_err(|e| format!("bad expect-exit: {e}"))?;
    let line = match header_value(&text, "expect-line") {
        None => None,
        Some(v) => Some(
            v.parse::<u32>()
                .map_err(|e| format!("bad expect-line: {e}"))?,
        ),
    };
    let flags = header_value(&text, "accsim-flags")
        .map(|f| f.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default();
    Ok(ErrorExpectation {
        exit,
        stderr: header_value(&text, "expect-stderr"),
        line,
        flags,
    })
}

fn check_error_sample(sample: &Sample) -> Option<String> {
    let exp = match parse_expectation(sample) {
        Ok(e) => e,
        Err(e) => return Some(format!("  malformed sample header: {e}\n")),
    };
    let o = match run_accsim(&exp.flags, &sample.files, &[]) {
        Ok(o) => o,
        Err(e) => return Some(format!("  cannot run accsim: {e}\n")),
    };
    let stderr = o.stderr_text();
    let mut problems = String::new();
    if o.timed_out {
        let _ = writeln!(
            problems,
            "  accsim did not stop within {:?}; it should have exited with {}",
            accsim_timeout(),
            exp.exit
        );
    } else if o.status != exp.exit {
        let _ = writeln!(
            problems,
            "  exit status {} (expected {})",
            o.status, exp.exit
        );
    }
    if stderr.contains("panicked") {
        let _ = writeln!(
            problems,
            "  accsim panicked (an internal error, never acceptable for a user program)"
        );
    }
    if let Some(word) = &exp.stderr {
        if !stderr.contains(word.as_str()) {
            let _ = writeln!(problems, "  stderr does not contain {word:?}");
        }
    }
    if let Some(line) = exp.line {
        let file = sample.files[0]
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let loc = format!("{file}:{line}");
        if !stderr.contains(&loc) {
            let _ = writeln!(problems, "  stderr does not point at {loc}");
        }
    }
    if problems.is_empty() {
        return None;
    }
    if stderr.trim().is_empty() {
        let _ = writeln!(problems, "  accsim stderr: (empty)");
    } else {
        let _ = writeln!(problems, "  accsim stderr:\n{}", indent(&stderr, 1500));
    }
    if !o.stdout.is_empty() {
        let _ = writeln!(
            problems,
            "  accsim stdout:\n{}",
            indent(&String::from_utf8_lossy(&o.stdout), 600)
        );
    }
    Some(problems)
}

#[test]
fn error_samples_are_diagnosed() {
    let all = error_samples();
    assert!(
        !all.is_empty(),
        "no samples found under {}",
        samples_dir().join("errors").display()
    );
    let samples = filter_samples(all, &all_sample_names());
    if samples.is_empty() {
        return;
    }
    let total = samples.len();
    let names: Vec<String> = samples.iter().map(|s| s.name.clone()).collect();
    let results = parallel_map(samples, check_error_sample);
    let mut failures = String::new();
    let mut failed = 0;
    for (name, result) in names.iter().zip(results) {
        if let Some(report) = result {
            failed += 1;
            let _ = writeln!(
                failures,
                "\n--- {name}: not diagnosed as expected\n{report}    rerun: {}",
                rerun_hint("error_samples_are_diagnosed", name)
            );
        }
    }
    if failed > 0 {
        panic!("{failed} of {total} error samples were not diagnosed as expected:\n{failures}");
    }
    eprintln!("{total} error samples diagnosed as expected");
}

/// Keeps the corpus honest: an error sample that expects "does not compile"
/// (status 2) must also be rejected by gcc, so it is a real C error and not an
/// accsim limitation.
#[test]
fn compile_error_samples_are_rejected_by_gcc() {
    let samples = filter_samples(error_samples(), &all_sample_names());
    let compile_errors: Vec<Sample> = samples
        .into_iter()
        .filter(|s| parse_expectation(s).is_ok_and(|e| e.exit == 2))
        .collect();
    if compile_errors.is_empty() {
        return;
    }
    let cc = require_cc();
    let dir = TempDir::new("gcc-rejects");
    let mut accepted = Vec::new();
    for s in &compile_errors {
        let exe = dir.path().join(s.name.replace('/', "__"));
        if compile_native(&cc, &s.files, &exe).is_ok() {
            accepted.push(s.name.clone());
        }
    }
    assert!(
        accepted.is_empty(),
        "these error samples expect exit 2 (does not compile) but {cc} compiles them: {}",
        accepted.join(", ")
    );
}

fn header_sample_name(header: &str) -> String {
    format!(
        "headers/{}",
        header.trim_end_matches(".h").replace('/', "_")
    )
}

/// One small program per system header the corpus relies on: it includes the
/// header and prints values only that header provides.
fn header_programs() -> Vec<(&'static str, &'static str)> {
    vec![
        (
            "stdio.h",
            r#"int main(void) { char b[16]; int n = snprintf(b, sizeof b, "%d", BUFSIZ > 0); printf("EOF=%d n=%d b=%s\n", EOF, n, b); puts("puts"); putchar('x'); putchar('\n'); fprintf(stdout, "%s\n", "fprintf"); return 0; }"#,
        ),
        (
            "stdlib.h",
            r#"int main(void) { int *p = malloc(4 * sizeof *p); if (!p) return 1; p[3] = abs(-3); srand(42); int r = rand(); free(p); printf("%d %d %d %ld %d\n", EXIT_SUCCESS, EXIT_FAILURE, RAND_MAX, strtol("ff", NULL, 16), r); return 0; }"#,
        ),
        (
            "math.h",
            r#"int main(void) { volatile double x = 2.0; printf("%.17g %.17g %.17g %.9g %d\n", sqrt(x), pow(x, 0.5), M_PI, sinf((float)x), isnan(NAN) != 0); return 0; }"#,
        ),
        (
            "string.h",
            r#"int main(void) { char b[16]; strcpy(b, "abc"); strcat(b, "def"); printf("%zu %d %s %s\n", strlen(b), strcmp(b, "abd") < 0, strchr(b, 'd'), (char *)memchr(b, 'e', 6)); return 0; }"#,
        ),
        (
            "complex.h",
            r#"int main(void) { double complex z = 3.0 + 4.0 * I; double complex w = z * conj(z); printf("%g %g %g %g\n", creal(z), cimag(z), cabs(z), creal(w)); return 0; }"#,
        ),
        (
            "stdbool.h",
            r#"int main(void) { bool t = true, f = false; printf("%d %d %d %zu\n", t, f, __bool_true_false_are_defined, sizeof(bool)); return 0; }"#,
        ),
        (
            "sys/time.h",
            r#"int main(void) { struct timeval a, b; gettimeofday(&a, NULL); gettimeofday(&b, NULL); double d = (b.tv_sec - a.tv_sec) + (b.tv_usec - a.tv_usec) * 1e-6; printf("elapsed >= 0: %d\n", d >= 0); return 0; }"#,
        ),
        (
            "time.h",
            r#"int main(void) { struct timespec a; int rc = clock_gettime(CLOCK_MONOTONIC, &a); time_t t = time(NULL); clock_t c = clock(); printf("%d %d %d %ld\n", rc, t > 0, c >= 0, (long)CLOCKS_PER_SEC); return 0; }"#,
        ),
        (
            "stdint.h",
            r#"int main(void) { int32_t a = INT32_MIN; uint64_t b = UINT64_MAX; int8_t c = -1; uintptr_t u = 0; printf("%d %llu %d %lld %d\n", a, (unsigned long long)b, c, (long long)INT64_MAX, (int)u); return 0; }"#,
        ),
        (
            "inttypes.h",
            r#"int main(void) { int64_t a = INT64_MIN; uint32_t b = 0xdeadbeef; printf("%" PRId64 " %" PRIx32 " %" PRIu64 "\n", a, b, (uint64_t)1 << 40); return 0; }"#,
        ),
        (
            "limits.h",
            r#"int main(void) { printf("%d %d %d %ld %lld %u %d\n", CHAR_BIT, SCHAR_MIN, INT_MAX, LONG_MAX, LLONG_MIN, UINT_MAX, SHRT_MAX); return 0; }"#,
        ),
        (
            "float.h",
            r#"int main(void) { printf("%.17g %.9g %d %d %d\n", DBL_EPSILON, FLT_MAX, DBL_DIG, FLT_MANT_DIG, FLT_EVAL_METHOD); return 0; }"#,
        ),
        (
            "stddef.h",
            r#"struct s { char c; double d; }; int main(void) { size_t n = offsetof(struct s, d); ptrdiff_t p = -3; int *q = NULL; printf("%zu %td %d %zu\n", n, p, q == NULL, sizeof(max_align_t) >= 16); return 0; }"#,
        ),
        (
            "assert.h",
            r#"int main(void) { int x = 4; assert(x == 4); static_assert(sizeof(int) == 4, "int"); printf("assert passed %d\n", x); return 0; }"#,
        ),
        (
            "ctype.h",
            r#"int main(void) { const char *s = "aZ9 _!"; for (const char *p = s; *p; p++) printf("%c:%d%d%d%d%d%c ", *p, isalpha((unsigned char)*p) != 0, isdigit((unsigned char)*p) != 0, isspace((unsigned char)*p) != 0, isupper((unsigned char)*p) != 0, ispunct((unsigned char)*p) != 0, toupper((unsigned char)*p)); printf("\n"); return 0; }"#,
        ),
    ]
}

/// All listed headers at once, to catch conflicts between their declarations.
fn all_headers_program() -> String {
    let mut src: String = header_programs()
        .iter()
        .map(|(h, _)| format!("#include <{h}>\n"))
        .collect();
    src.push_str("int main(void) { printf(\"all headers: %d %zu %d\\n\", INT_MAX, sizeof(int64_t), (int)floor(2.5)); return 0; }\n");
    src
}

#[test]
fn system_headers_match_gcc() {
    let dir = TempDir::new("headers");
    let mut samples: Vec<Sample> = header_programs()
        .into_iter()
        .map(|(header, body)| {
            let name = header_sample_name(header);
            // stdio.h is included for printing; the header under test comes first.
            let src = format!("// Generated by simulator/tests/differential.rs: does <{header}> parse and work?\n#include <{header}>\n#include <stdio.h>\n{body}\n");
            (name, src)
        })
        .chain(std::iter::once(("headers/all".to_string(), all_headers_program())))
        .map(|(name, src)| {
            let path: PathBuf = dir.path().join(format!("{}.c", name.replace('/', "__")));
            std::fs::write(&path, src).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
            Sample { name, files: vec![path], args: Vec::new() }
        })
        .collect();
    samples = filter_samples(samples, &all_sample_names());
    check_all_against_gcc(
        "system_headers_match_gcc",
        "system-header programs",
        samples,
    );
}
