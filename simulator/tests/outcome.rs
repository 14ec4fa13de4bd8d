//! Issue 14, untrusted programs: an unambiguous outcome. `--report FILE` of `run` and `check`
//! says how the run ended (a program's own status 3 is `exited`, accsim's runtime error is
//! `trapped`), `check` reports a program that fails its own `assert` or exits non-zero,
//! `--max-time` ends a run that takes too long (preprocessing included), a closed output pipe
//! ends the run quietly, and SARIF URIs are percent-encoded.

mod common;

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::*;

fn write(dir: &TempDir, name: &str, src: &str) -> std::path::PathBuf {
    let p = dir.path().join(name);
    std::fs::write(&p, src).expect("write program");
    p
}

fn accsim(args: &[&std::ffi::OsStr]) -> common::Outcome {
    let mut cmd = Command::new(accsim_bin());
    cmd.args(args);
    run_with_timeout(cmd, accsim_timeout()).expect("run accsim")
}

fn report(path: &std::path::Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).expect("the report file");
    serde_json::from_str(&text).expect("the report is one JSON document")
}

const EXIT_3: &str = "#include <stdio.h>\n#include <stdlib.h>\nint main(void) {\n  printf(\"{\\\"findings\\\":[]}\");\n  exit(3);\n}\n";

#[test]
fn a_program_exiting_3_is_told_apart_from_a_runtime_error() {
    let dir = TempDir::new("outcome-exit3");
    let prog = write(&dir, "exit3.c", EXIT_3);
    let rep = dir.path().join("run.json");
    let out = accsim(&["run".as_ref(), "--report".as_ref(), rep.as_os_str(), prog.as_os_str()]);
    assert_eq!(out.status, 3);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "{\"findings\":[]}", "the program's stdout is its own");
    let v = report(&rep);
    assert_eq!(v["command"], "run");
    assert_eq!(v["outcome"]["kind"], "exited", "{v}");
    assert_eq!(v["outcome"]["program_status"], 3);

    let trap = write(&dir, "oob.c", "int main(void) {\n  int a[4];\n  int i = 4;\n  return a[i];\n}\n");
    let out = accsim(&["run".as_ref(), "--report".as_ref(), rep.as_os_str(), trap.as_os_str()]);
    assert_eq!(out.status, 3);
    let v = report(&rep);
    assert_eq!(v["outcome"]["kind"], "trapped", "{v}");
    assert_eq!(v["outcome"]["error"]["kind"], "out-of-bounds");
    assert_eq!(v["outcome"]["error"]["line"], 4);

    let bad = write(&dir, "bad.c", "int main(void) { return x; }\n");
    let out = accsim(&["run".as_ref(), "--report".as_ref(), rep.as_os_str(), bad.as_os_str()]);
    assert_eq!(out.status, 2);
    let v = report(&rep);
    assert_eq!(v["outcome"]["kind"], "compile-error", "{v}");
    assert_eq!(v["outcome"]["errors"][0]["line"], 1);
}

#[test]
fn check_reports_a_failed_assert_and_a_non_zero_exit() {
    let dir = TempDir::new("outcome-check");
    let prog = write(&dir, "exit3.c", EXIT_3);
    let rep = dir.path().join("check.json");
    let out = accsim(&["check".as_ref(), "--format".as_ref(), "json".as_ref(), "--report".as_ref(), rep.as_os_str(), prog.as_os_str()]);
    assert_eq!(out.status, 1, "a failed program is a failed check: {}", out.stderr_text());
    let v = report(&rep);
    assert_eq!(v["outcome"]["kind"], "exited", "{v}");
    assert_eq!(v["findings"][0]["kind"], "exit-status", "{v}");
    assert_eq!(v["findings"][0]["line"], 3, "at main: {v}");

    let assert_src = "#include <assert.h>\nint main(void) {\n  int n = 2;\n  assert(n == 3);\n  return 0;\n}\n";
    let prog = write(&dir, "assert.c", assert_src);
    let out = accsim(&["check".as_ref(), "--format".as_ref(), "json".as_ref(), prog.as_os_str()]);
    assert_eq!(out.status, 1, "{}", out.stderr_text());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is the JSON document alone");
    assert_eq!(v["findings"][0]["kind"], "aborted", "{v}");
    // The outcome block comes with the findings without `--report` too.
    assert_eq!(v["outcome"]["kind"], "aborted", "{v}");
    assert_eq!(v["outcome"]["status"], 134, "as `accsim run` would exit: {v}");
    assert!(out.stderr_text().contains("Assertion `n == 3' failed"), "{}", out.stderr_text());
}

#[test]
fn max_time_ends_an_endless_run_with_a_limit() {
    let dir = TempDir::new("outcome-time");
    let prog = write(&dir, "spin.c", "int main(void) {\n  volatile long x = 0;\n  for (;;) x++;\n}\n");
    let rep = dir.path().join("time.json");
    let start = Instant::now();
    let out = accsim(&["run".as_ref(), "--max-time".as_ref(), "1".as_ref(), "--report".as_ref(), rep.as_os_str(), prog.as_os_str()]);
    assert_eq!(out.status, 4, "{}", out.stderr_text());
    assert!(start.elapsed() < Duration::from_secs(20), "stopped near the limit");
    assert!(out.stderr_text().contains("error[max-time]"), "{}", out.stderr_text());
    assert!(out.stderr_text().contains("--max-time SECONDS"), "names the flag");
    let v = report(&rep);
    assert_eq!(v["outcome"]["kind"], "limit", "{v}");
    assert_eq!(v["outcome"]["limit"], "max-time");
    // The interpreter stops at the line it runs (issue 14: the message had no file:line).
    assert!(out.stderr_text().contains("spin.c:3:"), "{}", out.stderr_text());
    assert_eq!(v["outcome"]["error"]["line"], 3, "{v}");
}

/// The processes whose command line mentions `needle` (Linux: /proc/PID/cmdline).
fn processes_naming(needle: &str) -> Vec<String> {
    let Ok(dir) = std::fs::read_dir("/proc") else { return Vec::new() };
    dir.filter_map(|e| e.ok())
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
        .filter(|c| c.contains(needle))
        .collect()
}

/// `--max-time` while still preprocessing an endless input: the limit names the program's file
/// and the preprocessor (`cc1` under `cc -E`) is killed with accsim (issue 14: it kept running).
#[test]
fn max_time_kills_the_preprocessor_and_names_the_file() {
    let dir = TempDir::new("outcome-cpp-time");
    let prog = write(&dir, "endless_include.c", "#include \"/dev/zero\"\nint main(void) { return 0; }\n");
    let out = accsim(&["run".as_ref(), "--max-time".as_ref(), "1".as_ref(), prog.as_os_str()]);
    assert_eq!(out.status, 4, "{}", out.stderr_text());
    assert!(out.stderr_text().contains("error[max-time]"), "{}", out.stderr_text());
    assert!(out.stderr_text().contains("endless_include.c"), "names the file: {}", out.stderr_text());
    let needle = prog.display().to_string();
    let mut left = processes_naming(&needle);
    for _ in 0..20 {
        if left.is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
        left = processes_naming(&needle);
    }
    assert!(left.is_empty(), "preprocessor processes left running: {left:?}");
}

#[test]
fn a_closed_output_pipe_ends_the_run_quietly() {
    let dir = TempDir::new("outcome-pipe");
    let prog = write(&dir, "many.c", "#include <stdio.h>\nint main(void) {\n  for (long i = 0; ; i++)\n    printf(\"line %ld\\n\", i);\n}\n");
    let mut child = Command::new(accsim_bin())
        .args(["run".as_ref(), prog.as_os_str()])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start accsim");
    let mut first = [0u8; 16];
    child.stdout.take().expect("stdout").read_exact(&mut first).expect("some output");
    // The reader goes away (as `| head -1` does).
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break Some(s);
        }
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let status = status.expect("the run ends once its output pipe is closed");
    assert_eq!(status.code(), Some(141), "as a shell reports SIGPIPE");
    let mut err = String::new();
    child.stderr.take().expect("stderr").read_to_string(&mut err).expect("stderr");
    assert_eq!(err, "", "quietly");
}

#[test]
fn sarif_uris_are_percent_encoded() {
    let dir = TempDir::new("outcome-sarif");
    let src = "#include <stdio.h>\nint main(void) {\n  double a[100], sum = 0.0;\n  for (int i = 0; i < 100; i++) a[i] = i;\n#pragma acc parallel loop copyin(a)\n  for (int i = 0; i < 100; i++)\n    sum += a[i];\n  printf(\"%f\\n\", sum);\n  return 0;\n}\n";
    let prog = write(&dir, "lost write#1.c", src);
    let rep = dir.path().join("f.sarif");
    let out = accsim(&["check".as_ref(), "--format".as_ref(), "sarif".as_ref(), "--report".as_ref(), rep.as_os_str(), prog.as_os_str()]);
    assert_eq!(out.status, 1, "{}", out.stderr_text());
    let v = report(&rep);
    let uri = v["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str().unwrap_or_default().to_string();
    assert!(uri.ends_with("lost%20write%231.c"), "{uri}");
    assert_eq!(v["runs"][0]["invocations"][0]["exitCode"], 1);
}

/// Gangs that never end, each printing a line every 10,000 iterations: how many lines come out
/// before `--max-steps 2000000` stops the run, on `threads` device threads.
fn lines_before_the_step_limit(dir: &TempDir, threads: &str) -> usize {
    let prog = write(
        dir,
        "endless_gangs.c",
        "#include <stdio.h>\nint main(void) {\n#pragma acc parallel num_gangs(16)\n  {\n#pragma acc loop gang\n    for (int g = 0; g < 16; g++)\n      for (long i = 0; ; i++)\n        if (i % 10000 == 0) printf(\"gang %d at %ld\\n\", g, i);\n  }\n  return 0;\n}\n",
    );
    let out = accsim(&["run".as_ref(), "--max-steps".as_ref(), "2000000".as_ref(), "--threads".as_ref(), threads.as_ref(), prog.as_os_str()]);
    assert_eq!(out.status, 4, "{}", out.stderr_text());
    assert!(out.stderr_text().contains("error[max-steps]"), "{}", out.stderr_text());
    String::from_utf8_lossy(&out.stdout).lines().count()
}

/// The device threads of a launch share one pool of steps (issue 14: each used to get all the
/// steps left, so an endless kernel ran about once per device thread group past the limit: 3,200
/// lines here instead of 200).
#[test]
fn device_threads_share_the_step_limit() {
    let dir = TempDir::new("outcome-steps");
    let one = lines_before_the_step_limit(&dir, "1");
    let four = lines_before_the_step_limit(&dir, "4");
    assert!(one > 0);
    // Each thread may stop holding up to one chunk (65,536 steps) it did not use.
    assert!(four <= one + one / 4, "1 thread: {one} lines, 4 threads: {four} lines");
}
