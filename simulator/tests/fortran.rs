//! The Fortran front-end (issue 16): `samples/fortran/` programs run under accsim and print
//! exactly their golden `.expected` output with the exit status their `! expect-exit: N` header
//! states (0 by default); where gfortran is installed (CI installs it), each is also compiled
//! with `gfortran -fopenacc` (which runs the directives on the host) and must print the same
//! bytes with the same status. The OpenACC programs (`*_acc_*`) also run under other launch configurations and
//! `accsim check` finds no error or warning in them. `samples/fortran/errors/` programs use
//! Fortran accsim does not support or that is wrong: each must give a diagnostic naming the
//! Fortran file and line (`! expect-stderr:` lines) and exit 2, never a panic.
//!
//! A sample that reads standard input (`read *, …`) has its input in `NAME.stdin` beside it; both
//! accsim and the gfortran build read it (other samples run with standard input closed).
//! `! gfortran-flags: …` header lines add options to the gfortran build (a sample of what gfortran
//! accepts only under a compatibility option, as `-fallow-argument-mismatch`).
//!
//! `BLESS=1` writes the golden files; `ACCSIM_SAMPLE=name[,name]` runs only those samples.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::*;

/// `cmd` reading `NAME.stdin` beside `sample` as its standard input when that file exists (the
/// harness closes standard input otherwise), through `sh -c 'exec … < FILE'`.
fn with_input(cmd: Command, sample: &Path) -> Command {
    let input = sample.with_extension("stdin");
    if !input.is_file() {
        return cmd;
    }
    let mut sh = Command::new("sh");
    sh.arg("-c").arg("exec \"$0\" \"$@\" < \"$ACCSIM_SAMPLE_STDIN\"").arg(cmd.get_program()).args(cmd.get_args()).env("ACCSIM_SAMPLE_STDIN", &input);
    if let Some(dir) = cmd.get_current_dir() {
        sh.current_dir(dir);
    }
    sh
}

/// `accsim run FLAGS SAMPLE`, with the sample's standard input if it has one.
fn run_sample(flags: &[String], sample: &Path) -> Result<Outcome, String> {
    let mut cmd = Command::new(accsim_bin());
    cmd.current_dir(repo_root()).arg("run").args(flags).arg(sample);
    run_with_timeout(with_input(cmd, sample), accsim_timeout())
}

fn fortran_dir() -> PathBuf {
    samples_dir().join("fortran")
}

/// Values of `! key: value` header lines.
fn fortran_header(text: &str, key: &str) -> Vec<String> {
    let prefix = format!("! {key}:");
    text.lines().take(24).filter_map(|l| l.trim_start().strip_prefix(prefix.as_str())).map(|v| v.trim().to_string()).collect()
}

fn expected_exit(path: &Path) -> i32 {
    let src = std::fs::read_to_string(path).unwrap_or_default();
    fortran_header(&src, "expect-exit").first().and_then(|v| v.parse().ok()).unwrap_or(0)
}

fn gfortran_available() -> bool {
    Command::new("gfortran").arg("--version").output().map(|o| o.status.success()).unwrap_or(false)
}

#[test]
fn fortran_samples_print_their_expected_output() {
    let files = only_named_samples(fortran_files(&fortran_dir()));
    assert!(!files.is_empty(), "no Fortran samples (or ACCSIM_SAMPLE matched none)");
    if std::env::var("ACCSIM_SAMPLE").is_err() {
        assert!(files.len() >= 25, "samples/fortran holds {} programs; the corpus needs at least 25", files.len());
    }
    let bless = std::env::var("BLESS").is_ok_and(|v| v == "1");
    let problems: Vec<String> = parallel_map(files, move |path| {
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let want_exit = expected_exit(path);
        let golden = path.with_extension("expected");
        let mut configs: Vec<Vec<String>> = vec![vec![]];
        if stem.contains("_acc_") {
            configs.push(["--gangs", "3", "--workers", "2", "--vector-length", "5"].iter().map(|s| s.to_string()).collect());
            configs.push(["--threads", "1"].iter().map(|s| s.to_string()).collect());
        }
        let mut problems = Vec::new();
        for cfg in &configs {
            let out = match run_sample(cfg, path) {
                Ok(o) => o,
                Err(e) => {
                    problems.push(format!("{stem}: cannot run accsim: {e}"));
                    continue;
                }
            };
            if out.status != want_exit {
                problems.push(format!("{stem} {cfg:?}: exit {} (expected {want_exit})\n{}", out.status, indent(&out.stderr_text(), 2000)));
                continue;
            }
            if bless && cfg.is_empty() {
                std::fs::write(&golden, &out.stdout).expect("write the golden file");
                continue;
            }
            let want = std::fs::read(&golden).unwrap_or_default();
            if want != out.stdout {
                problems.push(format!("{stem} {cfg:?}: stdout differs from {}:\n{}", golden.display(), short_diff(&want, &out.stdout)));
            }
        }
        problems
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(problems.is_empty(), "{}\n\n(BLESS=1 rewrites the golden files)", problems.join("\n\n"));
}

#[test]
fn fortran_samples_match_gfortran() {
    if !gfortran_available() {
        eprintln!("NOTICE: gfortran is not installed: the Fortran samples are checked against their golden files only");
        return;
    }
    let files = only_named_samples(fortran_files(&fortran_dir()));
    let problems: Vec<String> = parallel_map(files, |path| {
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let dir = TempDir::new(&format!("gfortran-{stem}"));
        let exe = dir.path().join(&stem);
        let mut cc = Command::new("gfortran");
        // In the temporary directory: gfortran writes its `.mod` files into the current one.
        let extra: Vec<String> = std::fs::read_to_string(path).map(|src| fortran_header(&src, "gfortran-flags")).unwrap_or_default().iter().flat_map(|l| l.split_whitespace().map(str::to_string).collect::<Vec<_>>()).collect();
        cc.current_dir(dir.path()).args(["-O0", "-fopenacc"]).args(&extra).arg("-o").arg(&exe).arg(path);
        let built = match run_with_timeout(cc, Duration::from_secs(120)) {
            Ok(o) if o.status == 0 => true,
            Ok(o) => return Some(format!("{stem}: gfortran rejects it:\n{}", indent(&o.stderr_text(), 1500))),
            Err(e) => return Some(format!("{stem}: cannot run gfortran: {e}")),
        };
        let _ = built;
        let native = match run_with_timeout(with_input(Command::new(&exe), path), Duration::from_secs(60)) {
            Ok(o) => o,
            Err(e) => return Some(format!("{stem}: cannot run the gfortran build: {e}")),
        };
        let ours = match run_sample(&[], path) {
            Ok(o) => o,
            Err(e) => return Some(format!("{stem}: cannot run accsim: {e}")),
        };
        if native.status != ours.status || native.stdout != ours.stdout {
            return Some(format!(
                "{stem}: gfortran's build exits {} and accsim {}:\n{}\n{}",
                native.status,
                ours.status,
                short_diff(&native.stdout, &ours.stdout),
                indent(&ours.stderr_text(), 1500)
            ));
        }
        None
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

#[test]
fn fortran_openacc_samples_give_no_findings() {
    let files: Vec<PathBuf> = only_named_samples(fortran_files(&fortran_dir()))
        .into_iter()
        .filter(|p| p.file_stem().is_some_and(|s| s.to_string_lossy().contains("_acc_")))
        .collect();
    let problems: Vec<String> = parallel_map(files, |path| {
        let rel = path.strip_prefix(repo_root()).unwrap_or(path).to_path_buf();
        let mut cmd = Command::new(accsim_bin());
        cmd.current_dir(repo_root()).args(["check", "--format", "json"]).arg(&rel);
        let out = match run_with_timeout(cmd, accsim_timeout()) {
            Ok(o) => o,
            Err(e) => return Some(format!("{}: {e}", rel.display())),
        };
        match findings(&out.stdout) {
            Err(e) => Some(format!("{}: {e}\n{}", rel.display(), out.stderr_text())),
            Ok(found) => {
                let serious: Vec<String> = found.iter().filter(|(_, _, s)| s != "note").map(|(k, l, _)| format!("{k} at line {l}")).collect();
                (!serious.is_empty() || out.status != 0).then(|| format!("{}: exit {} with findings {serious:?}\n{}", rel.display(), out.status, out.stderr_text()))
            }
        }
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// `emit-cuda` makes CUDA C of every OpenACC Fortran sample without refusing a kernel (issue
/// 16): column-major indexing, Fortran's `x = max(x, …)` atomic form, the runtime API.
#[test]
fn fortran_openacc_samples_emit_cuda() {
    let files: Vec<PathBuf> = only_named_samples(fortran_files(&fortran_dir()))
        .into_iter()
        .filter(|p| p.file_stem().is_some_and(|s| s.to_string_lossy().contains("_acc_")))
        .collect();
    if std::env::var("ACCSIM_SAMPLE").is_err() {
        assert!(files.len() >= 20, "only {} OpenACC Fortran samples", files.len());
    }
    let problems: Vec<String> = parallel_map(files, |path| {
        let rel = path.strip_prefix(repo_root()).unwrap_or(path).to_path_buf();
        let mut cmd = Command::new(accsim_bin());
        cmd.current_dir(repo_root()).arg("emit-cuda").arg(&rel);
        let out = match run_with_timeout(cmd, accsim_timeout()) {
            Ok(o) => o,
            Err(e) => return Some(format!("{}: {e}", rel.display())),
        };
        let cuda = String::from_utf8_lossy(&out.stdout);
        if out.status != 0 || !cuda.contains("__global__") {
            return Some(format!("{}: emit-cuda exit {} (no kernel emitted?)\n{}", rel.display(), out.status, out.stderr_text()));
        }
        None
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

#[test]
fn fortran_errors_are_diagnosed_with_their_line() {
    let files = only_named_samples(fortran_files(&fortran_dir().join("errors")));
    assert!(!files.is_empty(), "no programs in samples/fortran/errors (or ACCSIM_SAMPLE matched none)");
    let problems: Vec<String> = parallel_map(files, |path| {
        let rel = path.strip_prefix(repo_root()).unwrap_or(path).to_path_buf();
        let src = std::fs::read_to_string(path).unwrap_or_default();
        let wants = fortran_header(&src, "expect-stderr");
        let mut problems = Vec::new();
        if wants.is_empty() {
            problems.push(format!("{}: no `! expect-stderr:` line", rel.display()));
        }
        let out = match run_accsim(&[], std::slice::from_ref(path), &[]) {
            Ok(o) => o,
            Err(e) => return vec![format!("{}: {e}", rel.display())],
        };
        let stderr = out.stderr_text();
        if out.status != 2 || stderr.contains("panicked") {
            problems.push(format!("{}: exit {} (expected 2)\n{}", rel.display(), out.status, indent(&stderr, 1500)));
        }
        for w in wants {
            if !stderr.contains(&w) {
                problems.push(format!("{}: stderr lacks `{w}`:\n{}", rel.display(), indent(&stderr, 1500)));
            }
        }
        problems
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// Issue 16 (speed): the C the Fortran front-end writes runs as native code (`accsim info`
/// reports each function's engine): `exit`/`cycle` of the innermost loop and `do` loops without
/// them leave no label in the procedure, and constant actual arguments (compound literals) and
/// reductions (statement expressions) are translated by the engine; the Fortran benchmarks'
/// main programs and kernels are native; `return` returns in place (after the procedure's end
/// actions); an `exit`/`cycle` of an outer named loop is a flag, not a jump (session 10).
#[test]
fn fortran_procedures_run_as_native_code() {
    let info = accsim_info;
    let loops = info("samples/fortran/90_exit_cycle_loops.f90");
    for f in ["first_negative_", "odd_sum_", "all_positive_", "main"] {
        assert!(loops.contains(&format!("function `{f}`: native code")), "{f}:\n{loops}");
    }
    let returns = info("samples/fortran/92_early_return.f90");
    for f in ["sum_until_", "locate_", "scale_", "main"] {
        assert!(returns.contains(&format!("function `{f}`: native code")), "{f}:\n{returns}");
    }
    // An `exit`/`cycle` of an outer named loop is written with a flag, not a `goto` (session 10).
    assert!(loops.contains("function `find_above_`: native code"), "{loops}");
    let named = info("samples/fortran/93_named_exit_cycle.f90");
    for f in ["first_pair_", "skip_rows_", "count_until_", "main"] {
        assert!(named.contains(&format!("function `{f}`: native code")), "{f}:\n{named}");
    }
    for bench in ["jacobi", "matmul", "daxpy", "laplace", "stencil"] {
        let text = info(&format!("samples/bench/fortran/{bench}.F90"));
        let natives = text.lines().filter(|l| l.contains(": native code")).count();
        let program: Vec<&str> = text.lines().filter(|l| l.contains("function `main") && !l.contains("the checked variant of a kernel")).collect();
        assert!(natives > 0 && program.iter().all(|l| l.contains(": native code")), "{bench}:\n{text}");
    }
}

/// Issue 16 (speed): an array assignment in a `kernels` construct is a parallel loop (OpenACC
/// 2.0 §2.7.9 `independent`: its right-hand side does not overlap the assigned array, and
/// distinct Fortran arrays never share memory), as Fortran compilers parallelise array syntax;
/// it was a sequential loop ("`y` and `x` may point to the same memory") because the C
/// pointers of the two arrays could alias.
#[test]
fn fortran_kernels_array_assignments_are_parallel_loops() {
    for (file, line) in [("samples/bench/fortran/daxpy.F90", "daxpy.F90:27:13: loop scheduled gang"), ("samples/bench/fortran/laplace.F90", "laplace.F90:41:13: loop scheduled gang")] {
        let mut cmd = Command::new(accsim_bin());
        cmd.current_dir(repo_root()).arg("info").arg(file);
        let out = run_with_timeout(cmd, accsim_timeout()).expect("run accsim info");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(text.contains(line) && !text.contains("may point to the same memory"), "{file}:\n{text}");
    }
}
