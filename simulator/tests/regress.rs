//! Regression programs from real code (`samples/regress/`): each is a minimal program for one bug
//! found on code nobody here wrote (issue 12 and later), run by `accsim run` and by
//! `accsim check`.
//!
//! A program `NAME.c` states what must happen in header lines among its first lines:
//!
//! ```text
//! // accsim-flags: --strict-2.0        extra flags for both `run` and `check` (optional)
//! // accsim-env: ACC_DEVICE_TYPE=host  an environment variable of both runs (repeatable)
//! // expect-exit: 3                    `run`'s exit status (default 0)
//! // expect-stderr: not-present        text `run`'s stderr must contain (repeatable)
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

use std::path::Path;
use std::process::Command;

use common::*;

/// Every `// key: value` line among the first lines of `text`, in order.
fn header_values(text: &str, key: &str) -> Vec<String> {
    let prefix = format!("// {key}:");
    text.lines()
        .take(24)
        .filter_map(|l| l.trim_start().strip_prefix(prefix.as_str()))
        .map(|v| v.trim().to_string())
        .collect()
}

/// The `/* expect: KIND */` marks of a program: (kind, line).
fn marks(src: &str) -> Vec<(String, u64)> {
    src.lines()
        .enumerate()
        .filter_map(|(i, l)| {
            let at = l.find("/* expect:")?;
            let rest = &l[at + "/* expect:".len()..];
            let kind: String = rest.trim_start().chars().take_while(|c| c.is_ascii_lowercase() || *c == '-').collect();
            (!kind.is_empty()).then_some((kind, i as u64 + 1))
        })
        .collect()
}

/// (kind, line, severity) of each finding in `accsim check --format json` output (its last
/// stdout line).
fn findings(stdout: &[u8]) -> Result<Vec<(String, u64, String)>, String> {
    let text = String::from_utf8_lossy(stdout);
    let doc = text.lines().last().ok_or("no JSON document on stdout")?;
    let v: serde_json::Value = serde_json::from_str(doc).map_err(|e| format!("invalid JSON ({e}): {doc}"))?;
    let list = v["findings"].as_array().ok_or("no findings array")?;
    Ok(list
        .iter()
        .map(|f| {
            (
                f["kind"].as_str().unwrap_or("").to_string(),
                f["line"].as_u64().unwrap_or(0),
                f["severity"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect())
}

fn accsim(command: &str, flags: &[String], env: &[(String, String)], rel: &Path) -> Result<Outcome, String> {
    let mut cmd = Command::new(accsim_bin());
    cmd.current_dir(repo_root()).arg(command).args(flags).arg(rel);
    cmd.envs(env.iter().map(|(k, v)| (k, v)));
    run_with_timeout(cmd, accsim_timeout())
}

fn problems_of(path: &Path, bless: bool) -> Vec<String> {
    let rel = path.strip_prefix(repo_root()).unwrap_or(path).to_path_buf();
    let name = rel.display().to_string();
    let src = std::fs::read_to_string(path).unwrap_or_default();
    let flags: Vec<String> = header_values(&src, "accsim-flags").iter().flat_map(|f| f.split_whitespace().map(str::to_string).collect::<Vec<_>>()).collect();
    let env: Vec<(String, String)> =
        header_values(&src, "accsim-env").iter().filter_map(|kv| kv.split_once('=')).map(|(k, v)| (k.trim().to_string(), v.trim().to_string())).collect();
    let want_exit: i32 = header_values(&src, "expect-exit").first().and_then(|v| v.parse().ok()).unwrap_or(0);
    let mut problems = Vec::new();
    let run = match accsim("run", &flags, &env, &rel) {
        Ok(o) => o,
        Err(e) => return vec![format!("{name}: cannot run accsim: {e}")],
    };
    if run.timed_out {
        problems.push(format!("{name}: `accsim run` timed out"));
    }
    if run.status != want_exit {
        problems.push(format!("{name}: `accsim run` exited {} (expected {want_exit})\n{}", run.status, indent(&run.stderr_text(), 2000)));
    }
    let stderr = run.stderr_text();
    for text in header_values(&src, "expect-stderr") {
        if !stderr.contains(&text) {
            problems.push(format!("{name}: `accsim run`'s stderr lacks `{text}`:\n{}", indent(&stderr, 2000)));
        }
    }
    let golden = path.with_extension("expected");
    if bless && want_exit == 0 {
        if let Err(e) = std::fs::write(&golden, &run.stdout) {
            problems.push(format!("{}: cannot write: {e}", golden.display()));
        }
    } else if let Ok(want) = std::fs::read(&golden) {
        if want != run.stdout {
            problems.push(format!("{name}: stdout differs from {}:\n{}", golden.display(), short_diff(&want, &run.stdout)));
        }
    }
    if header_values(&src, "check").first().is_some_and(|v| v == "skip") {
        return problems;
    }
    let mut check_flags = vec!["--format".to_string(), "json".to_string()];
    check_flags.extend(flags.iter().cloned());
    let check = match accsim("check", &check_flags, &env, &rel) {
        Ok(o) => o,
        Err(e) => return vec![format!("{name}: cannot run accsim check: {e}")],
    };
    let expected = marks(&src);
    match findings(&check.stdout) {
        Err(e) if want_exit != 0 && expected.is_empty() => {
            // `check` stopped where `run` stops; its diagnostic is on stderr.
            if check.status != want_exit {
                problems.push(format!("{name}: `accsim check` exited {} (expected {want_exit}, as `run`): {e}", check.status));
            }
        }
        Err(e) => problems.push(format!("{name}: `accsim check`: {e}\n{}", indent(&check.stderr_text(), 2000))),
        Ok(found) => {
            let serious: Vec<(String, u64)> = found.iter().filter(|(_, _, s)| s != "note").map(|(k, l, _)| (k.clone(), *l)).collect();
            for (kind, line) in &expected {
                if !found.iter().any(|(k, l, _)| k == kind && l == line) {
                    problems.push(format!("{name}:{line}: `check` missed the marked `{kind}`; found {found:?}"));
                }
            }
            for (kind, line) in &serious {
                if !expected.iter().any(|(k, l)| k == kind && l == line) {
                    problems.push(format!("{name}:{line}: false `{kind}` finding from `check`\n{}", indent(&check.stderr_text(), 2000)));
                }
            }
        }
    }
    problems
}

#[test]
fn regression_programs_run_and_check_as_stated() {
    let dir = samples_dir().join("regress");
    let files = only_named_samples(c_files(&dir));
    if files.is_empty() {
        assert!(std::env::var("ACCSIM_SAMPLE").is_ok(), "no programs in samples/regress");
        return;
    }
    let bless = std::env::var("BLESS").is_ok_and(|v| v == "1");
    let problems: Vec<String> = parallel_map(files, move |p| problems_of(p, bless)).into_iter().flatten().collect();
    assert!(
        problems.is_empty(),
        "{}\n\n{} problem(s); to accept run's stdout as golden: BLESS=1 cargo test -p accsim --test regress",
        problems.join("\n\n"),
        problems.len()
    );
}
