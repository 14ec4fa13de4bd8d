//! Issue 14: determinism. Every OpenACC sample and every planted-bug program, run twice on one
//! device thread and twice on three: `run` gives the same stdout, stderr, exit status and
//! Chrome trace (model clock) every time, and `check` the same findings. A planted bug that is a
//! data race may print different results on three threads (§1.2: gangs run in any order), so
//! for samples/bugs `run`'s output is compared on one thread only, and `check` (which runs the
//! gangs in order) on both.

mod common;

use std::path::{Path, PathBuf};

use common::*;

/// What one run showed: status, stdout, stderr, and the trace or the findings.
type Observed = (i32, Vec<u8>, String, String);

fn observe(command: &str, file: &Path, threads: &str, dir: &Path, tag: &str) -> Result<Observed, String> {
    let mut cmd = std::process::Command::new(accsim_bin());
    cmd.current_dir(repo_root()).arg(command).args(["--threads", threads]);
    let trace = dir.join(format!("{tag}.json"));
    if command == "run" {
        cmd.arg("--trace").arg(&trace);
    } else {
        cmd.args(["--format", "json"]);
    }
    cmd.arg(file);
    let out = run_with_timeout(cmd, accsim_timeout())?;
    if out.timed_out {
        return Err(format!("{} {command} timed out", file.display()));
    }
    let trace = if command == "run" { std::fs::read_to_string(&trace).unwrap_or_default() } else { String::new() };
    let stderr = out.stderr_text();
    Ok((out.status, out.stdout, stderr, trace))
}

fn problems(file: &Path, racy_output: bool) -> Vec<String> {
    let name = file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let dir = TempDir::new(&format!("det-{name}"));
    let mut found = Vec::new();
    for command in ["run", "check"] {
        let mut first: Option<(String, Observed)> = None;
        for (threads, round) in [("1", 0), ("1", 1), ("3", 0), ("3", 1)] {
            if command == "run" && racy_output && threads == "3" {
                continue;
            }
            let tag = format!("{command}-{threads}-{round}");
            match observe(command, file, threads, dir.path(), &tag) {
                Err(e) => found.push(e),
                Ok(o) => match &first {
                    None => first = Some((tag, o)),
                    Some((t0, o0)) if *o0 != o => found.push(format!(
                        "{}: `{command}` differs between {t0} and {tag}: status {} vs {}, stdout equal {}, stderr equal {}, trace equal {}\n{}",
                        file.display(),
                        o0.0,
                        o.0,
                        o0.1 == o.1,
                        o0.2 == o.2,
                        o0.3 == o.3,
                        indent(&short_diff(format!("{}{}", o0.2, String::from_utf8_lossy(&o0.1)).as_bytes(), format!("{}{}", o.2, String::from_utf8_lossy(&o.1)).as_bytes()), 1500)
                    )),
                    Some(_) => {}
                },
            }
        }
    }
    found
}

#[test]
fn samples_and_planted_bugs_are_deterministic_on_one_and_three_threads() {
    let mut files: Vec<(PathBuf, bool)> = acc_sample_files().into_iter().map(|f| (f, false)).collect();
    files.extend(c_files(&samples_dir().join("bugs")).into_iter().map(|f| (f, true)));
    let files: Vec<(PathBuf, bool)> = {
        let names: Vec<PathBuf> = only_named_samples(files.iter().map(|f| f.0.clone()).collect());
        files.into_iter().filter(|f| names.contains(&f.0)).collect()
    };
    assert!(!files.is_empty() || std::env::var("ACCSIM_SAMPLE").is_ok(), "no samples");
    let found: Vec<String> = parallel_map(files, |(f, racy)| problems(f, *racy)).into_iter().flatten().collect();
    assert!(found.is_empty(), "{}\n\n{} problem(s)", found.join("\n\n"), found.len());
}
