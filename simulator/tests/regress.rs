//! Regression programs from real code (`samples/regress/`): each is a minimal program for one bug
//! found on code nobody here wrote (issue 12 and later), or a program written in the styles real
//! codes use (`real_*.c`, issue 12), run by `accsim run` and by `accsim check`.
//!
//! A program `NAME.c` states what must happen in header lines among its first lines:
//!
//! ```text
//! // accsim-flags: --strict-2.0        extra flags for both `run` and `check` (optional)
//! // accsim-env: ACC_DEVICE_TYPE=host  an environment variable for both (repeatable)
//! // expect-exit: 3                    `run`'s exit status (default 0)
//! // expect-stderr: not-present        text `run`'s stderr must contain (repeatable)
//! // expect-stderr-not: root:x        text `run`'s stderr must not contain (repeatable)
//! // check: skip                       do not run `check` (default: run it)
//! ```
//!
//! and, where it exists, `NAME.expected` is `run`'s exact stdout. Unless `check: skip`,
//! `accsim check --format json` must report exactly the error and warning findings marked in the
//! source with `/* expect: KIND */` on their primary line (none for a correct program: no false
//! finding), and every marked one (no missed bug). A program whose `run` must fail is checked too,
//! unless it says `check: skip`, because `check` stops the same way.
//!
//! `ACCSIM_SAMPLE=name[,name]` runs only those programs; `BLESS=1` writes `NAME.expected` from
//! `run`'s stdout for programs that expect exit 0 (read the result before committing it).

mod common;

use common::*;

/// Real-code programs (issue 12) on which accsim does not yet do what nvc and gcc do: (program,
/// text its report must contain, why). Listed in conformance/spec/FAILURES.md with the spec
/// programs that reduce them.
const KNOWN_FAILURES: &[KnownFailure] = &[];

#[test]
fn regression_programs_run_and_check_as_stated() {
    let dir = samples_dir().join("regress");
    let files = only_named_samples(c_files(&dir));
    if files.is_empty() {
        assert!(std::env::var("ACCSIM_SAMPLE").is_ok(), "no programs in samples/regress");
        return;
    }
    let bless = std::env::var("BLESS").is_ok_and(|v| v == "1");
    let problems: Vec<String> = parallel_map(files, move |p| {
        let name = p.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let known = KNOWN_FAILURES.iter().any(|(n, _, _)| *n == name);
        against_known_failures(&name, program_problems(p, bless && !known), KNOWN_FAILURES)
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(
        problems.is_empty(),
        "{}\n\n{} problem(s); to accept run's stdout as golden: BLESS=1 cargo test -p accsim --test regress",
        problems.join("\n\n"),
        problems.len()
    );
}
