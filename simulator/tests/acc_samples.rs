//! The OpenACC samples (`samples/acc/`, the teaching ladder, and `samples/openuh/`, the OpenUH
//! benchmarks) run on the simulated device and print exactly their golden `.expected` output.
//!
//! Each program is race-free and has every `update` it needs, so by the execution model of
//! OpenACC 2.0 (§1.2, §2.7: gangs, workers and lanes only share data through the synchronisation
//! points a correct program respects) its output cannot depend on the launch configuration: each
//! runs under the default configuration and under two others (`--gangs/--workers/--vector-length`).
//! Gangs run in parallel on the simulator's threads (§1.2: gangs never synchronise inside a
//! kernel), so the output cannot depend on the thread count either: each also runs on one thread
//! and on three (more threads than this machine may have cores, to shuffle the interleavings).
//! The exception is a program that prints counts of redundant execution with explicit
//! `num_gangs`/`num_workers`/`vector_length` clauses (`15_execution_modes.c`), whose numbers the
//! clauses fix.
//!
//! `ACCSIM_SAMPLE=name[,name]` runs only those samples.

mod common;

use common::*;

/// Samples accsim does not run correctly yet, with the reason; the test checks they still fail
/// the way described, so a fix is noticed.
const KNOWN_FAILURES: &[(&str, &str)] = &[];

const CONFIGS: &[&[&str]] = &[
    &[],
    &["--gangs", "1", "--workers", "1", "--vector-length", "1"],
    &["--gangs", "3", "--workers", "2", "--vector-length", "5"],
    // Queued work delayed until its wait (§2.13): correct programs have every wait they need.
    &["--schedule", "seed:0"],
    &["--schedule", "seed:7"],
    // Thread-count independence of race-free programs (one thread: gangs in order).
    &["--threads", "1"],
    &["--threads", "3", "--gangs", "13"],
];

fn acc_samples() -> Vec<std::path::PathBuf> {
    only_named_samples(acc_sample_files())
}

#[test]
fn acc_samples_print_their_expected_output() {
    let samples = acc_samples();
    assert!(!samples.is_empty(), "no OpenACC samples found (or ACCSIM_SAMPLE matched none)");
    let results = parallel_map(samples, |path| {
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let expected = std::fs::read(path.with_extension("expected")).unwrap_or_default();
        let mut problems = Vec::new();
        let known = KNOWN_FAILURES.iter().find(|(n, _)| *n == stem);
        for cfg in CONFIGS {
            if stem.starts_with("15_") && !cfg.is_empty() {
                continue; // its counts depend on the configuration by design (explicit clauses)
            }
            let flags: Vec<String> = cfg.iter().map(|s| s.to_string()).collect();
            let out = match run_accsim(&flags, std::slice::from_ref(path), &[]) {
                Ok(o) => o,
                Err(e) => {
                    problems.push(format!("{stem} {cfg:?}: cannot run accsim: {e}"));
                    continue;
                }
            };
            let stderr = out.stderr_text();
            if stderr.contains("panicked") {
                problems.push(format!("{stem} {cfg:?}: accsim panicked:\n{}", indent(&stderr, 2000)));
                continue;
            }
            match known {
                Some((_, why)) => {
                    if out.status == 0 && out.stdout == expected {
                        problems.push(format!("{stem}: now passes — remove it from KNOWN_FAILURES"));
                    } else if !stderr.contains(why) {
                        problems.push(format!("{stem} {cfg:?}: fails differently than known ({why}):\n{}", indent(&stderr, 1500)));
                    }
                }
                None => {
                    if out.status != 0 || out.stdout != expected {
                        problems.push(format!(
                            "{stem} {cfg:?}: exit {}\n{}\n{}",
                            out.status,
                            short_diff(&expected, &out.stdout),
                            indent(&stderr, 1500)
                        ));
                    }
                }
            }
        }
        problems
    });
    let problems: Vec<String> = results.into_iter().flatten().collect();
    assert!(problems.is_empty(), "{} problem(s):\n\n{}", problems.len(), problems.join("\n\n"));
}

/// `accsim info` reports the schedule and data attributes of every compute construct (§2.5.1,
/// §2.6.1, §2.7): checked on the gang/worker/vector sample.
#[test]
fn info_reports_schedules_and_attributes() {
    let path = samples_dir().join("acc/07_gang_worker_vector.c");
    let mut cmd = std::process::Command::new(accsim_bin());
    cmd.arg("info").arg(&path);
    let out = run_with_timeout(cmd, accsim_timeout()).expect("run accsim info");
    assert_eq!(out.status, 0, "{}", out.stderr_text());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("parallel construct → kernel `main$acc27`"), "{text}");
    assert!(text.contains("loop scheduled gang\n"), "{text}");
    assert!(text.contains("loop scheduled worker\n"), "{text}");
    assert!(text.contains("loop scheduled vector\n"), "{text}");
    assert!(text.contains("int [6][10][70] `cube`: present_or_copy"), "{text}");
    assert!(text.contains("int `n`: firstprivate (scalar, by value)"), "{text}");
}

/// §2.7.6: an auto loop of a kernels construct (no gang/worker/vector/seq/independent clause, or
/// no directive at all) runs in parallel only when the dependence test proves its iterations
/// independent; `accsim info` says what it decided and why, as `nvc -Minfo` does (§2.5.2, §2.7.9,
/// §2.7.11 for the reduction and `independent` loops).
#[test]
fn info_reports_kernels_dependence_decisions() {
    let path = samples_dir().join("acc/27_kernels_dependence.c");
    let mut cmd = std::process::Command::new(accsim_bin());
    cmd.arg("info").arg(&path);
    let out = run_with_timeout(cmd, accsim_timeout()).expect("run accsim info");
    assert_eq!(out.status, 0, "{}", out.stderr_text());
    let text = String::from_utf8_lossy(&out.stdout);
    let line = |n: u32| text.lines().find(|l| l.contains(&format!("27_kernels_dependence.c:{n}:"))).unwrap_or_default().to_string();
    assert!(line(35).contains("loop scheduled gang vector (loop parallelized: no loop-carried dependence)"), "{text}");
    assert!(line(39).contains("loop scheduled seq (loop not parallelized: `a[i]` depends on `a[i-1]` (line 40))"), "{text}");
    assert!(line(42).contains("loop scheduled gang (loop parallelized"), "{text}");
    assert!(line(43).contains("loop scheduled vector (loop parallelized"), "{text}");
    assert!(line(46).contains("private per iteration: t"), "{text}");
    assert!(line(51).contains("loop not parallelized: scalar `s` is written in the loop"), "{text}");
    assert!(line(54).contains("loop scheduled vector (loop parallelized"), "{text}");
    assert!(line(58).contains("loop not parallelized: `p` and `q` may point to the same memory"), "{text}");
    assert!(line(61).contains("loop scheduled gang vector"), "{text}");
}

/// §2.12.1.5: `routine bind(name)` and `routine(name) bind("string")` make calls from a compute
/// region go to the bound procedure; the host keeps calling the routine itself.
#[test]
fn routine_bind_redirects_device_calls() {
    let dir = TempDir::new("acc-bind");
    let path = dir.path().join("bind.c");
    std::fs::write(&path, "#include <stdio.h>\nfloat dev_scale(float x) { return 3.0f * x; }\n#pragma acc routine seq bind(dev_scale)\nfloat scale(float x) { return 2.0f * x; }\nfloat dev_add1(float x);\n#pragma acc routine(dev_add1) seq bind(\"dev_scale\")\nfloat dev_add1(float x) { return x + 1.0f; }\nint main(void) {\n  float a[4] = {1, 2, 3, 4}, b[4], c[4];\n#pragma acc parallel loop copyin(a) copyout(b, c)\n  for (int i = 0; i < 4; i++) { b[i] = scale(a[i]); c[i] = dev_add1(a[i]); }\n  printf(\"host %.1f device %.1f %.1f\\n\", scale(a[1]), b[1], c[1]);\n  return 0;\n}\n").expect("write bind.c");
    let mut cmd = std::process::Command::new(accsim_bin());
    cmd.arg("run").arg(&path);
    let out = run_with_timeout(cmd, accsim_timeout()).expect("run accsim");
    assert_eq!(out.status, 0, "{}", out.stderr_text());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "host 4.0 device 6.0 6.0\n");
}

/// `+` and `*` reductions on `float`, `double` and `long double _Complex` (§2.5.11: "complex"
/// types): gang copies start at (0, 0) or (1, 0) and combine both parts, for every precision, on
/// one and several gangs and threads.
#[test]
fn complex_reductions_of_every_precision() {
    let dir = TempDir::new("acc-complex");
    let path = dir.path().join("complex.c");
    let program = r#"#include <complex.h>
#include <stdio.h>
#define SUMS(T, RE, IM, NAME) do { \
    T s = 1.0 + 1.0 * I, p = 1.0; \
    _Pragma("acc parallel loop reduction(+:s) reduction(*:p)") \
    for (int i = 0; i < 64; i++) { s += (i % 4) + (i % 3) * I; if (i % 16 == 0) p *= 1.0 + 1.0 * I; } \
    printf("%s %.1f%+.1fi %.1f%+.1fi\n", NAME, (double)RE(s), (double)IM(s), (double)RE(p), (double)IM(p)); \
} while (0)
int main(void) {
    SUMS(float _Complex, crealf, cimagf, "float");
    SUMS(double _Complex, creal, cimag, "double");
    SUMS(long double _Complex, creall, cimagl, "long double");
    return 0;
}
"#;
    std::fs::write(&path, program).expect("write complex.c");
    // 64 terms: real parts sum to 16 * (0+1+2+3) = 96, imaginary parts to 21 * (0+1+2) + 1 * 0
    // = 63 (i % 3 over 0..64); (1+i)^4 = -4.
    let line = |t: &str| format!("{t} 97.0+64.0i -4.0+0.0i\n");
    let expected = line("float") + &line("double") + &line("long double");
    for flags in [&["--gangs", "1", "--vector-length", "1"][..], &["--gangs", "5", "--threads", "3"][..]] {
        let mut cmd = std::process::Command::new(accsim_bin());
        cmd.arg("run").args(flags).arg(&path);
        let out = run_with_timeout(cmd, accsim_timeout()).expect("run accsim");
        assert_eq!(out.status, 0, "{flags:?}: {}", out.stderr_text());
        assert_eq!(String::from_utf8_lossy(&out.stdout), expected, "{flags:?}");
    }
}

/// Runtime errors of the data environment stop the program with a diagnostic naming the
/// variable and both places (§2.6.4 partial presence, §2.6.6 exit data of data never entered).
#[test]
fn data_environment_errors_are_diagnosed() {
    let dir = TempDir::new("acc-errors");
    let cases = [
        (
            "notentered.c",
            "#include <stdlib.h>\nint main(void) {\n  double *a = malloc(80);\n#pragma acc exit data delete(a[0:10])\n  return 0;\n}\n",
            "not-entered",
            "notentered.c:4",
        ),
        (
            "partial.c",
            "#include <stdlib.h>\nint main(void) {\n  double *a = malloc(80);\n#pragma acc enter data copyin(a[0:5])\n#pragma acc parallel loop copy(a[0:10])\n  for (int i = 0; i < 10; i++) a[i] = i;\n  return 0;\n}\n",
            "partially-present",
            "partial.c:5",
        ),
        (
            "notpresent.c",
            "int main(void) {\n  double a[4] = {0};\n#pragma acc parallel loop present(a)\n  for (int i = 0; i < 4; i++) a[i] = i;\n  return 0;\n}\n",
            "not-present",
            "notpresent.c:3",
        ),
    ];
    for (name, src, kind, at) in cases {
        let p = dir.path().join(name);
        std::fs::write(&p, src).expect("write test program");
        let out = run_accsim(&[], &[p], &[]).expect("run accsim");
        let err = out.stderr_text();
        assert_eq!(out.status, 3, "{name}: {err}");
        assert!(err.contains(kind) && err.contains(at), "{name}: expected `{kind}` at {at}:\n{err}");
    }
}

/// `--notify` prints each transfer and launch with its source line and launch configuration;
/// `--trace` writes a Chrome trace that is the same on every run (model clock, DESIGN.md
/// "Determinism"), with a track per activity queue (§2.13).
#[test]
fn notify_and_trace_observe_the_device() {
    let dir = TempDir::new("acc-trace");
    let sample = samples_dir().join("acc/12_async_pipeline.c");
    let mut traces = Vec::new();
    for i in 0..2 {
        let trace = dir.path().join(format!("t{i}.json"));
        let flags = vec!["--notify".to_string(), "--trace".to_string(), trace.to_string_lossy().into_owned()];
        let out = run_accsim(&flags, std::slice::from_ref(&sample), &[]).expect("run accsim");
        assert_eq!(out.status, 0, "{}", out.stderr_text());
        let err = out.stderr_text();
        assert!(err.contains("upload data file=") && err.contains("line=36") && err.contains("queue=1"), "{err}");
        assert!(err.contains("launch kernel") && err.contains("num_gangs=16 num_workers=1 vector_length=32"), "{err}");
        assert!(err.contains("wait file="), "{err}");
        traces.push(std::fs::read_to_string(&trace).expect("trace written"));
    }
    assert_eq!(traces[0], traces[1], "the trace is deterministic");
    assert!(traces[0].starts_with("{\"traceEvents\":["));
    assert!(traces[0].contains("\"name\":\"queue 1\"") && traces[0].contains("\"name\":\"host\""));
}

/// Compile-time restrictions are diagnostics with locations (exit 2): `default(none)` with a
/// variable no clause names (§2.5.12), a compute construct inside another (§2.5), a loop
/// partitioned at a level an enclosing loop already uses (§2.7), a `return` out of a compute
/// construct (§2.5), an unknown clause with a suggestion.
#[test]
fn openacc_restrictions_are_compile_errors() {
    let dir = TempDir::new("acc-restrict");
    let cases = [
        (
            "none.c",
            "int main(void) {\n  int n = 4; double a[4];\n#pragma acc parallel loop default(none) copyout(a)\n  for (int i = 0; i < n; i++) a[i] = i;\n  return 0;\n}\n",
            "`n` is used in a construct with `default(none)`",
            "none.c:3",
        ),
        (
            "nested.c",
            "int main(void) {\n  double a[4];\n#pragma acc parallel copy(a)\n  {\n#pragma acc parallel loop\n    for (int i = 0; i < 4; i++) a[i] = i;\n  }\n  return 0;\n}\n",
            "may not appear inside a compute construct",
            "nested.c:5",
        ),
        (
            "levels.c",
            "int main(void) {\n  double a[4][4];\n#pragma acc parallel loop vector copy(a)\n  for (int i = 0; i < 4; i++)\n#pragma acc loop gang\n    for (int j = 0; j < 4; j++) a[i][j] = i;\n  return 0;\n}\n",
            "level",
            "levels.c:5",
        ),
        (
            "branch.c",
            "int main(void) {\n  double a[4];\n#pragma acc parallel copyout(a)\n  {\n    a[0] = 1;\n    if (a[0] > 0) return 1;\n  }\n  return 0;\n}\n",
            "branching out of a compute construct is not allowed",
            "branch.c:6",
        ),
        (
            // §2.6.3: a data region's lifetime ends at the end of the construct.
            "databranch.c",
            "int main(void) {\n  double a[4];\n  for (int k = 0; k < 2; k++) {\n#pragma acc data copy(a)\n    {\n      if (k == 1) break;\n    }\n  }\n  return 0;\n}\n",
            "branching out of a data region is not allowed",
            "databranch.c:6",
        ),
        (
            "typo.c",
            "int main(void) {\n  double a[4];\n#pragma acc parallel loop gnag copy(a)\n  for (int i = 0; i < 4; i++) a[i] = i;\n  return 0;\n}\n",
            "did you mean `gang`?",
            "typo.c:3",
        ),
    ];
    for (name, src, what, at) in cases {
        let p = dir.path().join(name);
        std::fs::write(&p, src).expect("write test program");
        let out = run_accsim(&[], &[p], &[]).expect("run accsim");
        let err = out.stderr_text();
        assert_eq!(out.status, 2, "{name}: {err}");
        assert!(err.contains(what) && err.contains(at), "{name}: expected `{what}` at {at}:\n{err}");
    }
}

/// A missing `wait` changes the outcome only under the adversarial schedule (§2.13: queued work
/// may run any time before the wait): the default schedule runs queued work when issued.
#[test]
fn adversarial_schedule_exposes_a_missing_wait() {
    let dir = TempDir::new("acc-wait");
    let p = dir.path().join("missing_wait.c");
    std::fs::write(
        &p,
        "#include <stdio.h>\nint main(void) {\n  int a[4] = {0, 0, 0, 0};\n#pragma acc data copy(a)\n  {\n\
#pragma acc parallel loop async(1)\n    for (int i = 0; i < 4; i++) a[i] = i + 1;\n\
#pragma acc update host(a) async(1)\n    printf(\"before wait: %d\\n\", a[3]);\n\
#pragma acc wait(1)\n    printf(\"after wait: %d\\n\", a[3]);\n  }\n  return 0;\n}\n",
    )
    .expect("write test program");
    let run = |flags: &[&str]| {
        let flags: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
        let out = run_accsim(&flags, std::slice::from_ref(&p), &[]).expect("run accsim");
        assert_eq!(out.status, 0, "{}", out.stderr_text());
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert_eq!(run(&[]), "before wait: 4\nafter wait: 4\n");
    assert_eq!(run(&["--schedule", "seed:0"]), "before wait: 0\nafter wait: 4\n");
    assert_eq!(run(&["--schedule", "seed:0"]), run(&["--schedule", "seed:0"]), "same seed, same outcome");
}

/// §2.6.5: data clauses on struct members. `accsim info` reports the attribute decided for each
/// member a region uses once clauses map members of its struct (the struct is then not copied
/// whole): pointer members whose targets are mapped by value, mapped members present, the
/// others with the implicit attribute of their type (§2.5.1, §2.5.2, §2.6.1).
#[test]
fn info_reports_struct_member_attributes() {
    let path = samples_dir().join("acc/28_nested_members.c");
    let mut cmd = std::process::Command::new(accsim_bin());
    cmd.arg("info").arg(&path);
    let out = run_with_timeout(cmd, accsim_timeout()).expect("run accsim info");
    assert_eq!(out.status, 0, "{}", out.stderr_text());
    let text = String::from_utf8_lossy(&out.stdout);
    let kernel = |name: &str| text.split("construct → kernel").find(|k| k.starts_with(&format!(" `{name}`"))).unwrap_or_default().to_string();
    let k72 = kernel("main$acc72");
    assert!(k72.contains("double * `g.in.v`: firstprivate pointer member of `g` (by value): `copyin(g.in.v[0:g.n])` maps its target"), "{text}");
    assert!(k72.contains("double `g.scale`: copy (implicit for a scalar in kernels, §2.5.2): member of `g`"), "{text}");
    assert!(k72.contains("double [4] `g.w`: present_or_copy (implicit for an aggregate"), "{text}");
    assert!(k72.contains("double [4] `cfg.coef`: present: member of `cfg` mapped by `copyin(cfg.coef)`"), "{text}");
    assert!(!k72.contains("struct grid"), "the struct is not copied whole:\n{text}");
    assert!(kernel("main$acc72_1").contains("long `g.count`: copy (implicit for a scalar in kernels"), "{text}");
    let k91 = kernel("main$acc91");
    assert!(k91.contains("double [4] `g.w`: present: member array of `g` of which `copyin(g.w[1:2])` maps part"), "{text}");
    assert!(k91.contains("double `cfg.bias`: firstprivate, a copy per gang (implicit for a scalar in parallel, §2.5.1)"), "{text}");
    let k106 = kernel("main$acc107");
    assert!(k106.contains("struct vec `h`: present_or_copy"), "{text}");
    assert!(k106.contains("double * `h.v`: firstprivate pointer member of `h` (by value): `copy(h.v[0:4])` maps its target"), "{text}");
}

/// §2.6.5 with §2.5.1/§2.5.2: a scalar member named in a clause is the device copy (a write in a
/// parallel region comes back with `copy`), one no clause names is firstprivate in a parallel
/// region (each gang writes its own copy; the host keeps its value) and copied in a kernels
/// region. A member array mapped by an enclosing data construct (§2.6.3) is present in the
/// region; `update host` of a member subarray (§2.11) brings part of it back.
#[test]
fn struct_member_attributes_follow_the_spec() {
    let dir = TempDir::new("acc-members");
    let p = dir.path().join("members.c");
    std::fs::write(
        &p,
        "#include <stdio.h>\n\
         struct inner { double a[8]; int tag; };\n\
         struct outer { int x, y, z; struct inner in; };\n\
         int main(void) {\n\
         \x20 struct outer s = {1, 2, 3, {{0}, 7}};\n\
         #pragma acc data copy(s.in.a) copy(s.x)\n\
         \x20 {\n\
         #pragma acc parallel num_gangs(1) present(s.x)\n\
         \x20   { s.x = 10 + s.in.tag; s.y = 20; }\n\
         #pragma acc kernels\n\
         \x20   { s.z = s.x + 30; }\n\
         #pragma acc parallel loop\n\
         \x20   for (int i = 0; i < 8; i++) s.in.a[i] = i * s.in.tag;\n\
         #pragma acc update host(s.in.a[2:2])\n\
         \x20   printf(\"inside: %g %g %g\\n\", s.in.a[2], s.in.a[3], s.in.a[4]);\n\
         \x20 }\n\
         \x20 printf(\"x=%d y=%d z=%d a[7]=%g\\n\", s.x, s.y, s.z, s.in.a[7]);\n\
         \x20 return 0;\n\
         }\n",
    )
    .expect("write members.c");
    for flags in [vec![], vec!["--threads".to_string(), "3".to_string(), "--gangs".to_string(), "5".to_string()]] {
        let out = run_accsim(&flags, std::slice::from_ref(&p), &[]).expect("run accsim");
        assert_eq!(out.status, 0, "{}", out.stderr_text());
        // s.y is firstprivate in the parallel region: the host keeps 2. s.z is copied in kernels
        // and reads the device s.x (17); s.x itself comes home at the end of the data region.
        assert_eq!(String::from_utf8_lossy(&out.stdout), "inside: 14 21 0\nx=17 y=2 z=47 a[7]=49\n", "{flags:?}");
    }
}

/// §2.6.4: a region that uses a struct as a whole while a clause maps one of its members cannot
/// reach it member by member; the implicit copy of the struct is partly present, a runtime error
/// naming the struct. Under `default(none)` (§2.5.12) every member the region uses needs a clause.
#[test]
fn struct_member_misuse_is_diagnosed() {
    let dir = TempDir::new("acc-members-bad");
    let whole = dir.path().join("whole.c");
    std::fs::write(
        &whole,
        "struct s { double a[4]; int n; };\nint main(void) {\n  struct s v = {{1, 2, 3, 4}, 4};\n  double t = 0;\n#pragma acc data copyin(v.a)\n  {\n#pragma acc parallel num_gangs(1) copy(t)\n    { struct s w = v; t = w.a[1]; }\n  }\n  return (int)t;\n}\n",
    )
    .expect("write whole.c");
    let out = run_accsim(&[], std::slice::from_ref(&whole), &[]).expect("run accsim");
    let err = out.stderr_text();
    assert_eq!(out.status, 3, "{err}");
    assert!(err.contains("partially-present") && err.contains("`v`") && err.contains("whole.c:7"), "{err}");
    let mut cmd = std::process::Command::new(accsim_bin());
    cmd.arg("info").arg(&whole);
    let out = run_with_timeout(cmd, accsim_timeout()).expect("run accsim info");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("struct s `v`: present_or_copy of the whole struct (implicit, §2.6.1), although `copyin(v.a)` maps a member of it: the region uses it whole at line 8"), "{text}");

    let none = dir.path().join("none.c");
    std::fs::write(
        &none,
        "#include <stdlib.h>\nstruct s { double *v; int k; };\nint main(void) {\n  struct s p;\n  p.k = 2;\n  p.v = malloc(4 * sizeof(double));\n#pragma acc parallel loop default(none) copyout(p.v[0:4])\n  for (int i = 0; i < 4; i++) p.v[i] = p.k;\n  free(p.v);\n  return 0;\n}\n",
    )
    .expect("write none.c");
    let out = run_accsim(&[], std::slice::from_ref(&none), &[]).expect("run accsim");
    let err = out.stderr_text();
    assert_eq!(out.status, 2, "{err}");
    assert!(err.contains("`p.k` is used in a construct with `default(none)`"), "{err}");
    assert!(!err.contains("`p.v`"), "p.v is named by copyout:\n{err}");

    // A scalar member no clause names is firstprivate in a parallel region (§2.5.1): a write to
    // it that the host reads afterwards is a `lost-write` warning of `accsim check`.
    let lost = dir.path().join("lost.c");
    std::fs::write(
        &lost,
        "#include <stdio.h>
#include <stdlib.h>
struct s { int count; double *v; };
int main(void) {
  struct s a; a.count = 0; a.v = malloc(8 * sizeof(double));
#pragma acc parallel num_gangs(1) copyout(a.v[0:8])
  {
    for (int i = 0; i < 8; i++) a.v[i] = i;
    a.count = 8;
  }
  printf(\"%d %g\\n\", a.count, a.v[7]);
  free(a.v);
  return 0;
}
",
    )
    .expect("write lost.c");
    let mut cmd = std::process::Command::new(accsim_bin());
    cmd.arg("check").arg(&lost);
    let out = run_with_timeout(cmd, accsim_timeout()).expect("run accsim check");
    let err = out.stderr_text();
    assert_eq!(out.status, 1, "{err}");
    assert!(err.contains("warning[lost-write]: `a.count` is written inside the parallel region") && err.contains("lost.c:9:5"), "{err}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "0 7\n");
}

/// §2.6.4 with §2.6.5: struct members entered with `enter data` are mapped for the regions that
/// follow (dynamic lifetime), so a region using them reaches the struct member by member and
/// never copies it whole; `exit data` brings the pointed-to data home.
#[test]
fn entered_struct_members_are_present() {
    let dir = TempDir::new("acc-members-enter");
    let p = dir.path().join("enter.c");
    std::fs::write(
        &p,
        "#include <stdio.h>\n#include <stdlib.h>\n\
         struct buf { int n; double *d; double w[2]; };\n\
         int main(void) {\n\
         \x20 struct buf b;\n\
         \x20 b.n = 6; b.d = malloc(6 * sizeof(double)); b.w[0] = 0.5; b.w[1] = 2.0;\n\
         \x20 for (int i = 0; i < 6; i++) b.d[i] = i;\n\
         #pragma acc enter data copyin(b.d[0:b.n], b.w)\n\
         \x20 for (int rep = 0; rep < 2; rep++) {\n\
         #pragma acc parallel loop\n\
         \x20   for (int i = 0; i < b.n; i++) b.d[i] = b.d[i] * b.w[i % 2] + 1.0;\n\
         \x20 }\n\
         #pragma acc exit data copyout(b.d[0:b.n]) delete(b.w)\n\
         \x20 for (int i = 0; i < 6; i++) printf(\"%g \", b.d[i]);\n\
         \x20 printf(\"\\n\");\n\
         \x20 free(b.d);\n\
         \x20 return 0;\n\
         }\n",
    )
    .expect("write enter.c");
    let out = run_accsim(&["--notify".to_string()], std::slice::from_ref(&p), &[]).expect("run accsim");
    let err = out.stderr_text();
    assert_eq!(out.status, 0, "{err}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "1.5 7 2 15 2.5 23 \n");
    assert!(!err.contains("variable=b bytes"), "the struct is never copied whole:\n{err}");
    // Two launches, no transfer between them: the entered members stay on the device.
    assert_eq!(err.matches("launch kernel").count(), 2, "{err}");
    assert_eq!(err.matches("upload data").count(), 2, "only the two entered members go up:\n{err}");
}

/// Issue 12 item 11, §2.12.1.2–3: a loop without a level that calls a `routine vector` is not
/// vector-partitioned (the call needs vector-single mode), one that calls a `routine worker`
/// neither worker- nor vector-partitioned: both are gang loops.
#[test]
fn info_leaves_a_called_routine_its_levels() {
    let path = samples_dir().join("regress/routine_vector_call_schedule.c");
    let mut cmd = std::process::Command::new(accsim_bin());
    cmd.arg("info").arg(&path);
    let out = run_with_timeout(cmd, accsim_timeout()).expect("run accsim info");
    assert_eq!(out.status, 0, "{}", out.stderr_text());
    let text = String::from_utf8_lossy(&out.stdout);
    let line = |n: u32| text.lines().find(|l| l.contains(&format!("routine_vector_call_schedule.c:{n}:")) && l.contains("loop scheduled")).unwrap_or_default().to_string();
    assert!(line(40).ends_with("loop scheduled gang"), "{text}");
    assert!(line(44).ends_with("loop scheduled gang"), "{text}");
}
