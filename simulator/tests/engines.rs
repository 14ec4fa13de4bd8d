//! Differential test of the two engines (issue 15): every sample program — plain C
//! (`samples/c`, with their arguments, multi-file ones included), compile errors
//! (`samples/errors`), OpenACC samples (`samples/acc`, `samples/openuh`, the PGI 1.3 ones in
//! `samples/pgi13`), the planted bugs
//! (`samples/bugs`), the regression programs (`samples/regress`, with their `accsim-flags` and
//! `accsim-env` headers; the planted bugs with `--threads 1`, their races being
//! nondeterministic on parallel gangs) and the benchmarks at small sizes (`samples/bench/{plain,acc,styles}`)
//! — gives the same exit status, stdout and stderr under `accsim run --engine native` as under
//! `--engine interp`.
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
    }
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
        })
        .collect();
    for dir in ["errors", "acc", "openuh", "pgi13", "bugs", "regress"] {
        let d = samples_dir().join(dir);
        // The planted bugs and some regression programs have data races or depend on the order
        // of gangs (§1.2: gangs are unordered), so their outcome depends on how the device
        // threads interleave: their gangs run one after another, as `check` runs them.
        let flags: &[&str] = if matches!(dir, "bugs" | "regress") { &["--threads", "1"] } else { &[] };
        if d.is_dir() {
            cases.extend(c_files(&d).iter().map(|f| case_of_file(f, flags)));
        }
    }
    // The benchmarks at small sizes (their default sizes take seconds in the interpreter).
    for dir in ["plain", "acc", "styles"] {
        let d = samples_dir().join("bench").join(dir);
        if !d.is_dir() {
            continue;
        }
        for f in c_files(&d) {
            let stem = f.file_stem().unwrap_or_default().to_string_lossy().into_owned();
            let n = match stem.as_str() {
                "histogram" | "calltree" => "-DN=20000",
                "conv3d" => "-DN=16",
                _ => "-DN=40",
            };
            cases.push(case_of_file(&f, &[n]));
        }
    }
    if let Ok(only) = std::env::var("ACCSIM_SAMPLE") {
        let names: Vec<&str> = only.split(',').map(str::trim).collect();
        cases.retain(|c| {
            let stem = c.files[0].file_stem().unwrap_or_default().to_string_lossy().into_owned();
            names.contains(&stem.as_str())
        });
    }
    cases
}

fn run(case: &Case, engine: &str) -> Result<Outcome, String> {
    let mut cmd = Command::new(accsim_bin());
    cmd.current_dir(repo_root()).arg("run").args(&case.flags).arg("--engine").arg(engine);
    cmd.args(&case.files);
    if !case.args.is_empty() {
        cmd.arg("--").args(&case.args);
    }
    for (k, v) in &case.env {
        cmd.env(k, v);
    }
    run_with_timeout(cmd, accsim_timeout())
}

/// What differs between the two engines' runs of `case` (nothing: `None`).
fn difference(case: &Case) -> Option<String> {
    let interp = match run(case, "interp") {
        Ok(o) => o,
        Err(e) => return Some(format!("{}: cannot run accsim: {e}", case.name)),
    };
    let native = match run(case, "native") {
        Ok(o) => o,
        Err(e) => return Some(format!("{}: cannot run accsim: {e}", case.name)),
    };
    if interp.timed_out || native.timed_out {
        return Some(format!("{}: timed out (interp {}, native {})", case.name, interp.timed_out, native.timed_out));
    }
    if interp.status != native.status {
        return Some(format!(
            "{}: exit status {} (interp) vs {} (native)\n  interp stderr:\n{}\n  native stderr:\n{}",
            case.name,
            interp.status,
            native.status,
            indent(&interp.stderr_text(), 1500),
            indent(&native.stderr_text(), 1500)
        ));
    }
    if interp.stdout != native.stdout {
        return Some(format!("{}: stdout differs\n{}", case.name, short_diff(&interp.stdout, &native.stdout)));
    }
    // The engines count fuel differently (the interpreter per instruction, native code per loop
    // back-edge and call), so a run stopped by `--max-steps` stops at another point of the
    // same loop: the same diagnostic, another column; and a launch refused for want of steps
    // names how many were left, a count that differs too.
    let first_line = |o: &Outcome| steps_left_masked(o.stderr_text().lines().next().unwrap_or_default());
    if interp.status == 4 && first_line(&interp).contains("[max-steps]") {
        if first_line(&interp) != first_line(&native) {
            return Some(format!("{}: stderr differs
{}", case.name, short_diff(&interp.stderr, &native.stderr)));
        }
        return None;
    }
    if interp.stderr != native.stderr {
        // Not reproducible by the interpreter itself (a printed time)? Then stderr says nothing.
        let again = run(case, "interp").ok()?;
        if again.stderr == interp.stderr {
            return Some(format!("{}: stderr differs\n{}", case.name, short_diff(&interp.stderr, &native.stderr)));
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

/// The engine compiles real code: host functions of the plain-C samples and the kernels of the
/// OpenACC samples (`accsim info` reports each function's engine).
#[test]
fn info_reports_native_host_functions_and_kernels() {
    let info = |file: &str| {
        let mut cmd = Command::new(accsim_bin());
        cmd.current_dir(repo_root()).arg("info").arg(file);
        let out = run_with_timeout(cmd, accsim_timeout()).expect("run accsim info");
        assert_eq!(out.status, 0, "{}", out.stderr_text());
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
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
