//! Differential test of the two engines (issue 15): every sample program — plain C
//! (`samples/c`, with their arguments, multi-file ones included), compile errors
//! (`samples/errors`), OpenACC samples (`samples/acc`, `samples/openuh`, the PGI 1.3 ones in
//! `samples/pgi13`, the Cray CCE ones in `samples/cray`), the planted bugs
//! (`samples/bugs`), the regression programs (`samples/regress`, with their `accsim-flags` and
//! `accsim-env` headers; the planted bugs with `--threads 1`, their races being
//! nondeterministic on parallel gangs), the spec-traced conformance programs
//! (`conformance/spec`, `--threads 1` too), the Fortran samples (`samples/fortran`, with their
//! standard input) and the benchmarks at small sizes (`samples/bench/{plain,acc,styles}`)
//! — gives the same exit status, stdout and stderr under `accsim run --engine native` as under
//! `--engine interp`, and the same findings, stdout and exit status under `accsim check`
//! with either engine (the native engine runs the host functions, whose accesses of the data the
//! checkers follow it reports, and the kernels `check` proves race-free at launch).
//! The V&V suite's files in scope are compared by `conformance/tools/vv-engines.sh`.
//!
//! A run stopped by `--max-steps` is compared by its diagnostic's first line (the engines count
//! fuel differently: the point where it runs out differs). A program whose own output is not
//! reproducible (it prints a wall-clock time) is recognised by
//! running the interpreter twice: where the two interpreter runs differ too, only the exit
//! status and stdout are compared. `ACCSIM_SAMPLE=name[,name]` runs only the programs with those
//! file stems.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

/// One program and how to run it.
struct Case {
    name: String,
    files: Vec<PathBuf>,
    flags: Vec<String>,
    env: Vec<(String, String)>,
    args: Vec<String>,
    /// Standard input (`NAME.stdin` beside a Fortran sample).
    stdin: Option<PathBuf>,
    /// `run` or `check`.
    sub: &'static str,
}

fn case_of_file(path: &Path, extra_flags: &[&str]) -> Case {
    let src = std::fs::read_to_string(path).unwrap_or_default();
    let mut flags: Vec<String> = header_values(&src, "accsim-flags")
        .iter()
        .flat_map(|f| f.split_whitespace().map(str::to_string).collect::<Vec<_>>())
        .collect();
    flags.extend(extra_flags.iter().map(|s| s.to_string()));
    let env = header_values(&src, "accsim-env")
        .iter()
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    let rel = path.strip_prefix(repo_root()).unwrap_or(path);
    Case {
        name: rel.display().to_string(),
        files: vec![path.to_path_buf()],
        flags,
        env,
        args: Vec::new(),
        stdin: None,
        sub: "run",
    }
}

/// A Fortran sample: its `! accsim-flags:` header and its `NAME.stdin`.
fn case_of_fortran(path: &Path) -> Case {
    let src = std::fs::read_to_string(path).unwrap_or_default();
    let flags = src
        .lines()
        .take(24)
        .filter_map(|l| l.trim_start().strip_prefix("! accsim-flags:"))
        .flat_map(|f| f.split_whitespace().map(str::to_string).collect::<Vec<_>>())
        .collect();
    let stdin = Some(path.with_extension("stdin")).filter(|p| p.is_file());
    let rel = path.strip_prefix(repo_root()).unwrap_or(path);
    Case { name: rel.display().to_string(), files: vec![path.to_path_buf()], flags, env: Vec::new(), args: Vec::new(), stdin, sub: "run" }
}

/// Every program of the samples, each with how the other tests run it.
fn cases() -> Vec<Case> {
    let mut cases: Vec<Case> = c_samples()
        .into_iter()
        .map(|s| Case {
            name: format!("samples/c/{}", s.name),
            files: s.files,
            flags: Vec::new(),
            env: Vec::new(),
            args: s.args,
            stdin: None,
            sub: "run",
        })
        .collect();
    for dir in ["samples/errors", "samples/acc", "samples/openuh", "samples/pgi13", "samples/cray", "samples/bugs", "samples/regress", "conformance/spec"] {
        let d = repo_root().join(dir);
        // The planted bugs and some regression programs have data races or depend on the order
        // of gangs (§1.2: gangs are unordered), so their outcome depends on how the device
        // threads interleave: their gangs run one after another, as `check` runs them.
        let flags: &[&str] = if matches!(dir, "samples/bugs" | "samples/regress" | "conformance/spec") { &["--threads", "1"] } else { &[] };
        if d.is_dir() {
            cases.extend(c_files(&d).iter().map(|f| case_of_file(f, flags)));
        }
    }
    cases.extend(fortran_files(&samples_dir().join("fortran")).iter().map(|f| case_of_fortran(f)));
    // The benchmarks at small sizes (their default sizes take seconds in the interpreter).
    for dir in ["plain", "acc", "styles"] {
        let d = samples_dir().join("bench").join(dir);
        if !d.is_dir() {
            continue;
        }
        for f in c_files(&d) {
            let stem = f.file_stem().unwrap_or_default().to_string_lossy().into_owned();
            let sizes: &[&str] = match stem.as_str() {
                "histogram" => &["-DN=20000"],
                "calltree" => &["-DN=20000", "-DDEPTH=12"],
                "conv3d" => &["-DN=16"],
                _ => &["-DN=40"],
            };
            cases.push(case_of_file(&f, sizes));
        }
    }
    if let Ok(only) = std::env::var("ACCSIM_SAMPLE") {
        let names: Vec<&str> = only.split(',').map(str::trim).collect();
        cases.retain(|c| {
            let stem = c.files[0].file_stem().unwrap_or_default().to_string_lossy().into_owned();
            names.contains(&stem.as_str())
        });
    }
    // `check` too, on every program but the plain-C ones and the compile errors (no device
    // code: nothing the checkers follow).
    let checks: Vec<Case> = cases
        .iter()
        .filter(|c| !c.name.starts_with("samples/c/") && !c.name.starts_with("samples/errors/"))
        .map(|c| Case { name: c.name.clone(), files: c.files.clone(), flags: c.flags.clone(), env: c.env.clone(), args: c.args.clone(), stdin: c.stdin.clone(), sub: "check" })
        .collect();
    cases.extend(checks);
    cases
}

/// Run `case` on `engine`: `interp`, `native` (every function compiled at its first call and
/// every kernel at its first launch, `ACCSIM_JIT=eager`: the native code is what the test
/// compares) or `tiered` (the native engine as `accsim run` runs by default: its tiers leave
/// calls and launches of little counted work to the interpreter).
fn run(case: &Case, engine: &str) -> Result<Outcome, String> {
    let (engine, jit) = match engine {
        "tiered" => ("native", "tiered"),
        other => (other, "eager"),
    };
    let mut cmd = Command::new(accsim_bin());
    cmd.current_dir(repo_root()).arg(case.sub).args(&case.flags).arg("--engine").arg(engine);
    cmd.env("ACCSIM_JIT", jit);
    cmd.args(&case.files);
    if !case.args.is_empty() {
        cmd.arg("--").args(&case.args);
    }
    for (k, v) in &case.env {
        cmd.env(k, v);
    }
    if let Some(input) = &case.stdin {
        // Through `sh -c 'exec … < FILE'` (the harness closes standard input otherwise).
        let mut sh = Command::new("sh");
        sh.arg("-c").arg("exec \"$0\" \"$@\" < \"$ACCSIM_SAMPLE_STDIN\"").arg(cmd.get_program()).args(cmd.get_args()).env("ACCSIM_SAMPLE_STDIN", input);
        sh.current_dir(repo_root()).env("ACCSIM_JIT", jit);
        for (k, v) in &case.env {
            sh.env(k, v);
        }
        return run_with_timeout(sh, accsim_timeout());
    }
    run_with_timeout(cmd, accsim_timeout())
}

/// What differs between the two engines' runs of `case` (nothing: `None`).
fn difference(case: &Case) -> Option<String> {
    difference_on(case, "native")
}

/// What differs between the interpreter's run of `case` and `engine`'s ([`run`]).
fn difference_on(case: &Case, engine: &str) -> Option<String> {
    let interp = match run(case, "interp") {
        Ok(o) => o,
        Err(e) => return Some(format!("{} ({}): cannot run accsim: {e}", case.name, case.sub)),
    };
    let native = match run(case, engine) {
        Ok(o) => o,
        Err(e) => return Some(format!("{} ({}): cannot run accsim: {e}", case.name, case.sub)),
    };
    if interp.timed_out || native.timed_out {
        return Some(format!("{} ({}): timed out (interp {}, native {})", case.name, case.sub, interp.timed_out, native.timed_out));
    }
    if interp.status != native.status {
        return Some(format!(
            "{} ({}): exit status {} (interp) vs {} (native)\n  interp stderr:\n{}\n  native stderr:\n{}",
            case.name,
            case.sub,
            interp.status,
            native.status,
            indent(&interp.stderr_text(), 1500),
            indent(&native.stderr_text(), 1500)
        ));
    }
    if interp.stdout != native.stdout {
        return Some(format!("{} ({}): stdout differs\n{}", case.name, case.sub, short_diff(&interp.stdout, &native.stdout)));
    }
    // The engines count fuel differently (the interpreter per instruction, native code per loop
    // back-edge and call), so a run stopped by `--max-steps` stops at another point of the
    // same loop: the same diagnostic, another column; and a launch refused for want of steps
    // names how many were left, a count that differs too.
    let first_line = |o: &Outcome| steps_left_masked(o.stderr_text().lines().next().unwrap_or_default());
    // (`check` exits 1 there, with the limit as a finding.)
    if (interp.status == 4 || case.sub == "check") && first_line(&interp).contains("[max-steps]") {
        if first_line(&interp) != first_line(&native) {
            return Some(format!("{}: stderr differs
{}", case.name, short_diff(&interp.stderr, &native.stderr)));
        }
        return None;
    }
    if interp.stderr != native.stderr {
        // Not reproducible by either engine itself (a printed time)? Then stderr says nothing.
        // Both are run again: one engine can print the same time twice by chance.
        let (interp_again, native_again) = (run(case, "interp").ok()?, run(case, engine).ok()?);
        if interp_again.stderr == interp.stderr && native_again.stderr == native.stderr {
            return Some(format!("{} ({}): stderr differs\n{}", case.name, case.sub, short_diff(&interp.stderr, &native.stderr)));
        }
    }
    None
}

#[test]
fn both_engines_give_the_same_output_exit_status_and_diagnostics() {
    let cases = cases();
    if std::env::var("ACCSIM_SAMPLE").is_err() {
        assert!(cases.len() > 250, "only {} sample programs found", cases.len());
    }
    let problems: Vec<String> = parallel_map(cases, difference).into_iter().flatten().collect();
    assert!(problems.is_empty(), "{}\n\n{} program(s) differ between the engines", problems.join("\n\n"), problems.len());
}

/// The tiers (`accsim run`'s default: calls and launches of little counted work run in the
/// interpreter, the others as native code, issue 15) give the interpreter's output too: the
/// regression programs, the OpenACC samples and the benchmarks at small sizes, where calls of
/// both engines mix in one run.
#[test]
fn tiered_runs_give_the_same_output_exit_status_and_diagnostics() {
    let cases: Vec<Case> = cases()
        .into_iter()
        .filter(|c| c.sub == "run" && ["samples/regress/", "samples/acc/", "samples/bench/"].iter().any(|d| c.name.starts_with(d)))
        .collect();
    if std::env::var("ACCSIM_SAMPLE").is_err() {
        assert!(cases.len() > 100, "only {} programs found", cases.len());
    }
    let problems: Vec<String> = parallel_map(cases, |c| difference_on(c, "tiered")).into_iter().flatten().collect();
    assert!(problems.is_empty(), "{}\n\n{} program(s) differ between the interpreter and the tiers", problems.join("\n\n"), problems.len());
}

/// The engine compiles real code: host functions of the plain-C samples and the kernels of the
/// OpenACC samples (`accsim info` reports each function's engine).
#[test]
fn info_reports_native_host_functions_and_kernels() {
    let info = accsim_info;
    let plain = info("samples/bench/plain/matmul.c");
    assert!(plain.contains("function `main`: native code"), "{plain}");
    let acc = info("samples/bench/acc/jacobi.c");
    assert!(acc.contains("function `main$acc60$fast`: native code"), "{acc}");
    assert!(acc.contains("function `main`: native code"), "{acc}");
}

/// `line` with the count of `… and N are left` (a launch refused by `--max-steps`) replaced by
/// `N`: the engines count steps differently.
fn steps_left_masked(line: &str) -> String {
    match line.find(" steps and ") {
        Some(i) => {
            let (head, tail) = line.split_at(i + " steps and ".len());
            let rest = tail.trim_start_matches(|c: char| c.is_ascii_digit());
            format!("{head}N{rest}")
        }
        None => line.to_string(),
    }
}

/// Kernels are compiled by their launches' counted work (issue 15's compile time; `accsim_jit`'s
/// tiers): the regress program's `blend` kernel, launched on 2 MiB arrays, has one code, its
/// optimised one, generated before its first launch; `scale_add`'s small launches start in the
/// interpreter (`ACCSIM_PHASE_TIMES` counts them), then run its quick code
/// (`ACCSIM_NATIVE_PERF_MAP` lists each code generated). The output is gcc's (`regress.rs`
/// compares it with the `.expected` file).
#[test]
fn kernels_are_compiled_by_their_launches_counted_work() {
    let file = samples_dir().join("regress/native_kernel_quick_then_optimised_code.c");
    let child = Command::new(accsim_bin())
        .args(["run", "--threads", "2"])
        .arg(&file)
        // The tiers are what is tested: a run of the tests under `ACCSIM_JIT=eager` (the
        // differential tests' other mode) must not compile everything at its first call here.
        .env_remove("ACCSIM_JIT")
        .env("ACCSIM_NATIVE_PERF_MAP", "1")
        .env("ACCSIM_PHASE_TIMES", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("accsim runs");
    let map = PathBuf::from(format!("/tmp/perf-{}.map", child.id()));
    let out = child.wait_with_output().expect("accsim runs");
    let text = std::fs::read_to_string(&map).unwrap_or_default();
    let _ = std::fs::remove_file(&map);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    // `blend` runs on 2 MiB arrays: its optimised code is generated before its first launch,
    // and no quick code before it; `scale_add`'s 400 small launches start in the interpreter,
    // then run its quick code.
    let codes = |kernel: &str| text.lines().filter(|l| l.contains(&format!("native:{kernel}$")) && l.ends_with("$fast")).count();
    assert_eq!(codes("blend"), 1, "optimised code of blend's kernel only expected:\n{text}");
    assert_eq!(codes("scale_add"), 1, "one code of scale_add's kernel expected:\n{text}");
    let tiers = stderr.lines().find(|l| l.starts_with("accsim: tiers")).unwrap_or_default();
    assert!(tiers.contains(" launches interpreted") && !tiers.contains(" 0 launches interpreted"), "{stderr}");
}

/// `main` runs in the interpreter and its loops of much work run as native code of their own
/// (issue 15, `jit/src/loop_entry.rs`), under `run` and under `check` alike (the checking
/// executable's loops ask the engine too: without that, `check` ran all of `main`'s loops in the
/// checking interpreter, 7.6 times its run on blur); a small table is filled in the
/// interpreter. `ACCSIM_PHASE_TIMES` counts the loops compiled and the loop runs interpreted.
#[test]
fn mains_long_loops_are_compiled_one_by_one_under_run_and_check() {
    let file = samples_dir().join("regress/main_loops_entered.c");
    for sub in ["run", "check"] {
        let out = Command::new(accsim_bin())
            .args([sub, "--threads", "1"])
            .arg(&file)
            .env_remove("ACCSIM_JIT")
            .env("ACCSIM_PHASE_TIMES", "1")
            .output()
            .expect("accsim runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{sub}: {stderr}");
        // `check` may make a second engine, for the kernels it proves race-free at launch.
        let by_loop = |l: &&str| l.starts_with("accsim: loops: 1 functions run loop by loop");
        let loops = stderr.lines().find(by_loop).unwrap_or_default();
        assert!(loops.contains("5 loops compiled") && loops.contains("1 loop runs interpreted"), "{sub}: {stderr}");
    }
}
