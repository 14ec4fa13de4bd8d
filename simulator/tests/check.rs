//! `accsim check`: findings with a kind, a severity, a primary site and related sites, in text,
//! JSON and SARIF; exit 0 without error or warning findings, 1 with any, 2 when the program does
//! not compile. First checker: `lost-write` (§2.5.1).

mod common;

use common::*;

const LOST_WRITE: &str = "#include <stdio.h>\nint main(void) {\n  double a[100], sum = 0.0;\n  for (int i = 0; i < 100; i++) a[i] = i;\n#pragma acc parallel loop copyin(a)\n  for (int i = 0; i < 100; i++)\n    sum += a[i];\n  printf(\"sum = %f\\n\", sum);\n  return 0;\n}\n";

fn check(dir: &TempDir, name: &str, src: &str, extra: &[&str]) -> Outcome {
    let p = dir.path().join(name);
    std::fs::write(&p, src).expect("write program");
    let mut cmd = std::process::Command::new(accsim_bin());
    cmd.arg("check").args(extra).arg(&p);
    run_with_timeout(cmd, accsim_timeout()).expect("run accsim check")
}

#[test]
fn lost_write_is_reported_with_both_sites() {
    let dir = TempDir::new("check-lw");
    let out = check(&dir, "lw.c", LOST_WRITE, &[]);
    assert_eq!(out.status, 1, "{}", out.stderr_text());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "sum = 0.000000\n", "the program's own output comes first");
    let err = out.stderr_text();
    assert!(err.contains("warning[lost-write]"), "{err}");
    assert!(err.contains("lw.c:7:5"), "the write: {err}");
    assert!(err.contains("the host reads `sum` here"), "the read: {err}");
    assert!(err.contains("reduction(op:sum)"), "help: {err}");
}

#[test]
fn json_and_sarif_formats() {
    let dir = TempDir::new("check-fmt");
    let out = check(&dir, "lw.c", LOST_WRITE, &["--format", "json"]);
    assert_eq!(out.status, 1);
    let text = String::from_utf8_lossy(&out.stdout);
    let json_line = text.lines().last().expect("a JSON document");
    let v: serde_json::Value = serde_json::from_str(json_line).expect("valid JSON");
    let f = &v["findings"][0];
    assert_eq!(f["kind"], "lost-write");
    assert_eq!(f["severity"], "warning");
    assert_eq!(f["line"], 7);
    assert_eq!(f["column"], 5);
    assert!(f["notes"].as_array().is_some_and(|n| n.iter().any(|n| n["line"] == 8)), "{f}");

    let out = check(&dir, "lw.c", LOST_WRITE, &["--format", "sarif"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let v: serde_json::Value = serde_json::from_str(text.lines().last().unwrap_or("")).expect("valid SARIF JSON");
    assert_eq!(v["version"], "2.1.0");
    let r = &v["runs"][0]["results"][0];
    assert_eq!(r["ruleId"], "lost-write");
    assert_eq!(r["level"], "warning");
    assert_eq!(r["locations"][0]["physicalLocation"]["region"]["startLine"], 7);
}

#[test]
fn correct_programs_have_no_findings_and_errors_exit_2() {
    let dir = TempDir::new("check-ok");
    let fixed = LOST_WRITE.replace("copyin(a)", "copyin(a) reduction(+:sum)");
    let out = check(&dir, "ok.c", &fixed, &[]);
    assert_eq!(out.status, 0, "{}", out.stderr_text());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "sum = 4950.000000\n");
    for sample in ["acc/01_vector_add.c", "acc/06_reductions.c", "acc/17_private_firstprivate.c", "openuh/jacobi.c"] {
        let mut cmd = std::process::Command::new(accsim_bin());
        cmd.arg("check").arg(samples_dir().join(sample));
        let out = run_with_timeout(cmd, accsim_timeout()).expect("run accsim check");
        assert_eq!(out.status, 0, "{sample}: {}", out.stderr_text());
    }
    let out = check(&dir, "bad.c", "int main(void) { return x; }\n", &["--format", "json"]);
    assert_eq!(out.status, 2);
    let v: serde_json::Value = serde_json::from_str(String::from_utf8_lossy(&out.stdout).trim()).expect("JSON");
    assert_eq!(v["findings"][0]["kind"], "compile-error");
}

/// A kernel over `n` elements of `T` with body `body` (`i` is the loop index), run through
/// `accsim check`.
fn race_program(decl: &str, body: &str) -> String {
    format!(
        "#include <stdio.h>\n#define N 64\nint main(void) {{\n  {decl}\n  for (int i = 0; i < N + 1; i++) a[i] = 0;\n#pragma acc parallel loop gang vector copy(a)\n  for (int i = 0; i < N; i++) {{\n    {body}\n  }}\n  printf(\"%d\\n\", (int)a[3]);\n  return 0;\n}}\n"
    )
}

/// The race shadow's granules (§1.2, §1.3): 8-byte words while a block sees only whole aligned
/// doubles, 4-byte granules with byte masks otherwise, and the switch between them inside one
/// kernel. Each racy variant must be reported, each race-free one must not.
#[test]
fn data_races_on_doubles_chars_and_mixed_sizes() {
    let dir = TempDir::new("check-race");
    let cases: &[(&str, &str, &str, bool)] = &[
        ("d_neighbor.c", "double a[N + 1];", "a[i] = a[i + 1] + 1.0;", true),
        ("d_own.c", "double a[N + 1];", "a[i] = a[i] + 1.0;", false),
        ("c_own.c", "char a[N + 1];", "a[i] = 1;", false),
        ("c_shared.c", "char a[N + 1];", "a[i / 2] = 1;", true),
        // Lane i writes the double a[i], then the low half of a[i + 1] through an int
        // pointer: the block switches to 4-byte granules mid-kernel, and lane i + 1's write
        // of a[i + 1] still meets lane i's half-word write.
        ("mixed_race.c", "double a[N + 1];", "a[i] = 1.0;\n    ((int *)a)[2 * (i + 1)] = 0;", true),
        // The high half of its own element: no other thread touches it.
        ("mixed_own.c", "double a[N + 1];", "a[i] = 1.0;\n    ((int *)a)[2 * i + 1] = 0;", false),
    ];
    for &(name, decl, body, racy) in cases {
        let out = check(&dir, name, &race_program(decl, body), &[]);
        let err = out.stderr_text();
        assert_eq!(err.contains("error[data-race]"), racy, "{name}: {err}");
        assert_eq!(out.status, if racy { 1 } else { 0 }, "{name}: {err}");
    }
}

/// Issue 12 item 13: a JSON report on stdout has stdout to itself (the program's output moves to
/// stderr); with `--report FILE` the program's streams stay its own; `run` says nothing of the
/// pragmas it ignores unless asked (`-W`), and `check` reports them as notes.
#[test]
fn reports_never_share_a_stream_with_the_program() {
    let dir = TempDir::new("check-report");
    let src = LOST_WRITE.replace("#pragma acc parallel loop copyin(a)", "#pragma omp parallel for\n#pragma acc parallel loop copyin(a) reduction(+:sum)");
    let out = check(&dir, "ok.c", &src, &["--format", "json"]);
    assert_eq!(out.status, 0, "{}", out.stderr_text());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is the JSON document alone");
    assert_eq!(v["findings"][0]["kind"], "pragma");
    assert_eq!(v["findings"][0]["severity"], "note");
    assert_eq!(out.stderr_text(), "sum = 4950.000000\n", "the program's stdout moved to stderr");

    let report = dir.path().join("findings.sarif");
    let report_arg = report.to_string_lossy().into_owned();
    let out = check(&dir, "ok.c", &src, &["--format", "sarif", "--report", &report_arg]);
    assert_eq!(out.status, 0, "{}", out.stderr_text());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "sum = 4950.000000\n");
    assert_eq!(out.stderr_text(), "");
    let text = std::fs::read_to_string(&report).expect("the report file");
    let v: serde_json::Value = serde_json::from_str(&text).expect("SARIF");
    assert_eq!(v["runs"][0]["results"][0]["ruleId"], "pragma");

    let p = dir.path().join("ok.c");
    let run = |extra: &[&str]| {
        let mut cmd = std::process::Command::new(accsim_bin());
        cmd.arg("run").args(extra).arg(&p);
        run_with_timeout(cmd, accsim_timeout()).expect("run accsim run")
    };
    let out = run(&[]);
    assert_eq!(out.status, 0);
    assert_eq!(out.stderr_text(), "", "`run` prints nothing of its own on a correct program");
    assert!(run(&["-W"]).stderr_text().contains("ignoring `#pragma omp parallel for`"));
}

/// Issue 12: a `deviceptr` pointer is passed to the device as it is (§2.6.5.1): no transfer of
/// the pointer variable, so no `redundant-transfer` note about one (notes are not counted by
/// the regression harness, which compares errors and warnings).
#[test]
fn deviceptr_pointers_move_no_data() {
    let rel = "samples/regress/deviceptr_no_transfer.c";
    let run = |args: &[&str]| {
        let mut cmd = std::process::Command::new(accsim_bin());
        cmd.current_dir(repo_root()).args(args).arg(rel);
        run_with_timeout(cmd, accsim_timeout()).expect("run accsim")
    };
    let out = run(&["check"]);
    assert_eq!(out.status, 0, "{}", out.stderr_text());
    assert!(!out.stderr_text().contains("redundant-transfer"), "{}", out.stderr_text());
    let notify = run(&["run", "--notify"]).stderr_text();
    for name in ["variable=d ", "variable=e "] {
        assert!(!notify.contains(name), "{name}: {notify}");
    }
}

/// Issue 12: data mapped by a runtime routine is named by the variable of the call's first
/// argument (`acc_copyin(b, n)`: `b`), never by the call's values.
#[test]
fn runtime_mapped_data_is_named_by_its_variable() {
    let mut cmd = std::process::Command::new(accsim_bin());
    cmd.current_dir(repo_root()).arg("check").arg("samples/regress/runtime_data_names.c");
    let out = run_with_timeout(cmd, accsim_timeout()).expect("run accsim check");
    let err = out.stderr_text();
    assert_eq!(out.status, 1, "{err}");
    assert!(err.contains("the host reads `b[5]`"), "{err}");
    assert!(err.contains("update host(b)"), "{err}");
    assert!(!err.contains("acc_copyin("), "{err}");
}

/// Issue 12 (session 8, names in findings): a race on storage the gang's threads share names the
/// program's variable — the gang's `firstprivate` copy made by the runtime (§2.5.10), a gang
/// loop's `private` copy made by the scheduler (§2.7.10), a variable of the gang's code — in C
/// and in Fortran, never "a local variable".
#[test]
fn shared_gang_storage_races_name_the_variable() {
    let run = |file: &str| {
        let mut cmd = std::process::Command::new(accsim_bin());
        cmd.current_dir(repo_root()).arg("check").arg(file);
        let out = run_with_timeout(cmd, accsim_timeout()).expect("run accsim check");
        assert_eq!(out.status, 1, "{file}: {}", out.stderr_text());
        let err = out.stderr_text();
        assert!(!err.contains("a local variable"), "{file}: {err}");
        assert!(!err.contains("a `private`/`firstprivate` variable"), "{file}: {err}");
        err
    };
    let err = run("samples/regress/race_firstprivate_shared_by_lanes.c");
    assert!(err.contains("data race on the gang's `firstprivate` copy of `scale`"), "{err}");
    assert!(err.contains("`private(scale)` on the worker or vector loop"), "help names it: {err}");
    let err = run("samples/regress/race_lane_flag_inside_vector_loop.c");
    for name in ["`limit`", "`cap`", "`base`"] {
        assert!(err.contains(&format!("data race on {name}")), "{name}: {err}");
    }
    let err = run("samples/bugs/f_race_gang_scalar.f90");
    assert!(err.contains("data race on `last`"), "{err}");
}

/// Issue 12 item 7: a pointer no clause names has what the kernel accesses through it copied,
/// as nvc does; `info` says so with the clause kinds, `check` with the clauses it made (a
/// `portability` note, not a warning: nvc and the PGI compilers accept the program), and
/// `--strict-2.0` makes none.
#[test]
fn implicit_pointer_copies_are_noted() {
    let rel = "samples/regress/implicit_pointer_saxpy_kernels.c";
    let run = |args: &[&str]| {
        let mut cmd = std::process::Command::new(accsim_bin());
        cmd.current_dir(repo_root()).args(args).arg(rel);
        run_with_timeout(cmd, accsim_timeout()).expect("run accsim")
    };
    let info = run(&["info"]);
    let text = String::from_utf8_lossy(&info.stdout).into_owned();
    assert!(text.contains("note: no data clause names `x`, `y`") && text.contains("`copyin(x[…])`, `copy(y[…])`"), "{text}");
    let out = run(&["check", "--format", "json"]);
    assert_eq!(out.status, 0, "{}", out.stderr_text());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let notes: Vec<&serde_json::Value> = v["findings"].as_array().expect("findings").iter().filter(|f| f["kind"] == "portability").collect();
    assert_eq!(notes.len(), 1, "{v}");
    assert_eq!(notes[0]["severity"], "note");
    let message = notes[0]["message"].as_str().unwrap_or_default();
    assert!(message.contains("`copyin(x[0:1000])`, `copy(y[0:1000])`"), "{message}");
    let strict = run(&["check", "--strict-2.0", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&strict.stdout).expect("JSON");
    let kinds: Vec<&str> = v["findings"].as_array().expect("findings").iter().filter_map(|f| f["kind"].as_str()).collect();
    assert!(kinds.contains(&"device-deref-host-ptr") && !kinds.contains(&"portability"), "{kinds:?}");
}
