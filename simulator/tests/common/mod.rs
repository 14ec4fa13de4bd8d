//! Shared machinery for the differential tests: finding the corpus under
//! `samples/`, compiling with gcc, running processes with a time limit, and
//! rendering short diffs.
//!
//! Conventions the corpus follows (see `samples/README.md`):
//! - `samples/c/NAME.c` is one program; `samples/c/multi/NAME/*.c` are linked
//!   together into one program.
//! - A line `// args: a b c` in the first lines of a file gives the program's
//!   command-line arguments, split on whitespace (no quoting).
//! - `samples/errors/NAME.c` starts with `// expect-exit:`, `// expect-stderr:`,
//!   `// expect-line:` and optionally `// accsim-flags:` lines.
//!
//! Environment variables:
//! - `ACCSIM_SAMPLE=name[,name...]`: only run these samples (a name is the file
//!   stem, e.g. `vla`, or `multi/geometry`, or `errors/null_deref`).
//! - `ACCSIM_CC`: the C compiler to compare against (default `gcc`).
//! - `ACCSIM_TIMEOUT_SECS`: per-run limit for accsim (default 120).

#![allow(dead_code)]

use std::fmt::Write as _;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// How many leading lines of a file are searched for `// key:` headers.
const HEADER_LINES: usize = 12;

/// The gcc flags the reference binaries are built with (plus `-o`, files, `-lm`).
pub const GCC_FLAGS: &[&str] = &["-std=gnu11", "-O0", "-w"];

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the simulator crate lives one level below the repository root")
        .to_path_buf()
}

pub fn samples_dir() -> PathBuf {
    repo_root().join("samples")
}

/// The `.c` files directly in `dir`, sorted.
pub fn c_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("samples folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    files
}

/// The Fortran sources directly in `dir` (`.f90 .f95 .f03 .f .F90 .F`), sorted.
pub fn fortran_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("samples folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| ["f90", "f95", "f03", "f", "F90", "F"].iter().any(|e| x == *e)))
        .collect();
    files.sort();
    files
}

/// The OpenACC samples: `samples/acc` (the teaching ladder), `samples/openuh`, then `samples/pgi13` (PGI Accelerator 1.3 programs, issue 17).
pub fn acc_sample_files() -> Vec<PathBuf> {
    ["acc", "openuh", "pgi13"].iter().flat_map(|d| c_files(&samples_dir().join(d))).collect()
}

/// Keep the files named by `ACCSIM_SAMPLE=name[,name]` (file stems), when it is set.
pub fn only_named_samples(mut files: Vec<PathBuf>) -> Vec<PathBuf> {
    if let Ok(only) = std::env::var("ACCSIM_SAMPLE") {
        let names: Vec<&str> = only.split(',').map(str::trim).collect();
        files.retain(|p| names.iter().any(|n| p.file_stem().is_some_and(|s| s == *n)));
    }
    files
}

pub fn accsim_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_accsim"))
}

/// The limit for one accsim run; the interpreter may be 20-100x slower than native code.
pub fn accsim_timeout() -> Duration {
    let secs = std::env::var("ACCSIM_TIMEOUT_SECS")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .unwrap_or(120);
    Duration::from_secs(secs)
}

/// The limit for one run of a gcc-compiled sample (they all finish in well under a second).
pub const NATIVE_TIMEOUT: Duration = Duration::from_secs(20);

/// A directory under `std::env::temp_dir()` with a unique name, removed on drop
/// (unless `ACCSIM_KEEP_TEMP` is set, to inspect the binaries).
pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    pub fn new(label: &str) -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("accsim-{label}-{}-{nanos}-{n}", std::process::id()));
        std::fs::create_dir_all(&path)
            .unwrap_or_else(|e| panic!("cannot create temp dir {}: {e}", path.display()));
        TempDir { path }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if std::env::var_os("ACCSIM_KEEP_TEMP").is_none() {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

/// The C compiler to compare against, or a panic explaining that it is missing.
pub fn require_cc() -> String {
    let cc = std::env::var("ACCSIM_CC").unwrap_or_else(|_| "gcc".to_string());
    let ok = Command::new(&cc)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    if !ok {
        eprintln!(
            "NOTICE: the differential tests need a C compiler; `{cc} --version` failed. \
             Install gcc (CI has it) or point ACCSIM_CC at one."
        );
        panic!("C compiler `{cc}` not found: cannot run the differential tests");
    }
    cc
}

/// What a finished (or stopped) process did.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The exit status as a shell reports it: the code, or 128 + signal number.
    pub status: i32,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub timed_out: bool,
    pub elapsed: Duration,
}

impl Outcome {
    pub fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }
}

fn exit_status_code(status: std::process::ExitStatus) -> i32 {
    if let Some(code) = status.code() {
        return code;
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return 128 + sig;
        }
    }
    -1
}

/// Runs `cmd` with stdin closed, capturing stdout and stderr, killing it after `limit`.
pub fn run_with_timeout(mut cmd: Command, limit: Duration) -> Result<Outcome, String> {
    let start = Instant::now();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {:?}: {e}", cmd.get_program()))?;
    // The pipes are drained on threads that report through channels, so that a
    // grandchild which outlives a killed child (and keeps the pipe open) cannot
    // hang the harness.
    let drain = |mut pipe: Box<dyn Read + Send>| {
        let (tx, rx) = std::sync::mpsc::channel::<Vec<u8>>();
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = pipe.read_to_end(&mut buf);
            let _ = tx.send(buf);
        });
        rx
    };
    let out_rx = drain(Box::new(child.stdout.take().expect("stdout is piped")));
    let err_rx = drain(Box::new(child.stderr.take().expect("stderr is piped")));
    let mut timed_out = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => {
                if start.elapsed() > limit {
                    timed_out = true;
                    let _ = child.kill();
                    break child.wait().map_err(|e| format!("wait failed: {e}"))?;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(e) => return Err(format!("wait failed: {e}")),
        }
    };
    let grace = if timed_out {
        Duration::from_secs(1)
    } else {
        Duration::from_secs(30)
    };
    let stdout = out_rx.recv_timeout(grace).unwrap_or_default();
    let stderr = err_rx.recv_timeout(grace).unwrap_or_default();
    Ok(Outcome {
        status: exit_status_code(status),
        stdout,
        stderr,
        timed_out,
        elapsed: start.elapsed(),
    })
}

/// One program of the corpus.
#[derive(Debug, Clone)]
pub struct Sample {
    /// `vla`, `multi/geometry`, `errors/null_deref`.
    pub name: String,
    /// The translation units, sorted by file name.
    pub files: Vec<PathBuf>,
    /// From a `// args:` header.
    pub args: Vec<String>,
}

/// The value of the first `// key: value` line among the first lines of `text`.
pub fn header_value(text: &str, key: &str) -> Option<String> {
    let prefix = format!("// {key}:");
    text.lines()
        .take(HEADER_LINES)
        .find_map(|l| l.trim_start().strip_prefix(prefix.as_str()))
        .map(|v| v.trim().to_string())
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn c_files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    files
}

fn args_of(files: &[PathBuf]) -> Vec<String> {
    files
        .iter()
        .find_map(|f| header_value(&read(f), "args"))
        .map(|a| a.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default()
}

/// `samples/c/*.c` and `samples/c/multi/*/`, sorted by name.
pub fn c_samples() -> Vec<Sample> {
    let dir = samples_dir().join("c");
    let mut samples: Vec<Sample> = c_files_in(&dir)
        .into_iter()
        .map(|f| {
            let stem = f
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let files = vec![f];
            Sample {
                name: stem,
                args: args_of(&files),
                files,
            }
        })
        .collect();
    let multi = dir.join("multi");
    if multi.is_dir() {
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(&multi)
            .unwrap_or_else(|e| panic!("cannot list {}: {e}", multi.display()))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        for d in dirs {
            let files = c_files_in(&d);
            if files.is_empty() {
                continue;
            }
            let name = format!(
                "multi/{}",
                d.file_name().unwrap_or_default().to_string_lossy()
            );
            samples.push(Sample {
                name,
                args: args_of(&files),
                files,
            });
        }
    }
    samples
}

/// `samples/errors/*.c`, sorted by name.
pub fn error_samples() -> Vec<Sample> {
    c_files_in(&samples_dir().join("errors"))
        .into_iter()
        .map(|f| {
            let stem = f
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            Sample {
                name: format!("errors/{stem}"),
                files: vec![f],
                args: Vec::new(),
            }
        })
        .collect()
}

fn filter_names() -> Option<Vec<String>> {
    let filter = std::env::var("ACCSIM_SAMPLE").ok()?;
    Some(
        filter
            .split(',')
            .map(|s| {
                s.trim()
                    .trim_end_matches(".c")
                    .trim_end_matches('/')
                    .to_string()
            })
            .filter(|s| !s.is_empty())
            .collect(),
    )
}

fn name_matches(name: &str, wanted: &str) -> bool {
    name == wanted || name.rsplit('/').next() == Some(wanted)
}

/// Keeps the samples selected by `ACCSIM_SAMPLE` (all when unset). `all_names`
/// lists every sample name of every corpus: a filter entry that names none of
/// them is a failure, so a typo cannot pass silently.
pub fn filter_samples(samples: Vec<Sample>, all_names: &[String]) -> Vec<Sample> {
    let Some(wanted) = filter_names() else {
        return samples;
    };
    for w in &wanted {
        if !all_names.iter().any(|n| name_matches(n, w)) {
            panic!(
                "ACCSIM_SAMPLE names unknown sample `{w}`; known samples: {}",
                all_names.join(", ")
            );
        }
    }
    let kept: Vec<Sample> = samples
        .into_iter()
        .filter(|s| wanted.iter().any(|w| name_matches(&s.name, w)))
        .collect();
    if kept.is_empty() {
        eprintln!("ACCSIM_SAMPLE selects nothing in this test; skipping it");
    }
    kept
}

/// Compiles `files` with the reference compiler into `out`.
pub fn compile_native(cc: &str, files: &[PathBuf], out: &Path) -> Result<(), String> {
    let mut cmd = Command::new(cc);
    cmd.args(GCC_FLAGS)
        .arg("-o")
        .arg(out)
        .args(files)
        .arg("-lm");
    let o = run_with_timeout(cmd, Duration::from_secs(120))?;
    if o.status != 0 || o.timed_out {
        return Err(format!(
            "{cc} could not compile it (status {}):\n{}",
            o.status,
            indent(&o.stderr_text(), 2000)
        ));
    }
    Ok(())
}

/// `accsim run [flags] FILES [-- ARGS]`, run from the repository root.
pub fn run_accsim(flags: &[String], files: &[PathBuf], args: &[String]) -> Result<Outcome, String> {
    let mut cmd = Command::new(accsim_bin());
    cmd.current_dir(repo_root())
        .arg("run")
        .args(flags)
        .args(files);
    if !args.is_empty() {
        cmd.arg("--").args(args);
    }
    run_with_timeout(cmd, accsim_timeout())
}

/// What `accsim info FILE` prints (run from the repository root), the run asserted successful.
pub fn accsim_info(file: &str) -> String {
    let mut cmd = Command::new(accsim_bin());
    cmd.current_dir(repo_root()).arg("info").arg(file);
    let out = run_with_timeout(cmd, accsim_timeout()).expect("run accsim info");
    assert_eq!(out.status, 0, "{}", out.stderr_text());
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs `f` over `items` on all cores, returning the results in input order.
pub fn parallel_map<T: Send + Sync + 'static, R: Send + 'static>(
    items: Vec<T>,
    f: impl Fn(&T) -> R + Send + Sync + 'static,
) -> Vec<R> {
    let n = items.len();
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .min(n.max(1));
    let items = Arc::new(items);
    let f = Arc::new(f);
    let next = Arc::new(AtomicUsize::new(0));
    let results: Arc<Mutex<Vec<Option<R>>>> = Arc::new(Mutex::new((0..n).map(|_| None).collect()));
    let handles: Vec<_> = (0..threads)
        .map(|_| {
            let (items, f, next, results) =
                (items.clone(), f.clone(), next.clone(), results.clone());
            std::thread::spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= items.len() {
                    break;
                }
                let r = f(&items[i]);
                results.lock().unwrap_or_else(|p| p.into_inner())[i] = Some(r);
            })
        })
        .collect();
    for h in handles {
        if let Err(p) = h.join() {
            std::panic::resume_unwind(p);
        }
    }
    let results = Arc::try_unwrap(results)
        .ok()
        .expect("all workers have finished")
        .into_inner()
        .unwrap_or_else(|p| p.into_inner());
    results
        .into_iter()
        .map(|r| r.expect("every item was processed"))
        .collect()
}

/// Text for a report, cut to `max` bytes, each line indented.
pub fn indent(text: &str, max: usize) -> String {
    let mut t: String = text.chars().take(max).collect();
    if t.len() < text.len() {
        t.push_str("\n[... cut ...]");
    }
    t.lines().map(|l| format!("    | {l}\n")).collect()
}

fn show_line(line: Option<&[u8]>) -> String {
    match line {
        None => "<no line: output ended>".to_string(),
        Some(l) => {
            let s = String::from_utf8_lossy(l);
            let mut shown: String = s.chars().take(200).collect();
            if shown.len() < s.len() {
                shown.push_str("...");
            }
            format!("{shown:?}")
        }
    }
}

/// A short description of how `actual` differs from `expected`: the first
/// differing line (1-based) with both versions, and the sizes.
pub fn short_diff(expected: &[u8], actual: &[u8]) -> String {
    let exp: Vec<&[u8]> = expected.split_inclusive(|&b| b == b'\n').collect();
    let act: Vec<&[u8]> = actual.split_inclusive(|&b| b == b'\n').collect();
    let first = (0..exp.len().max(act.len()))
        .find(|&i| exp.get(i) != act.get(i))
        .unwrap_or(0);
    let mut s = String::new();
    let _ = writeln!(s, "    first difference at stdout line {}:", first + 1);
    let _ = writeln!(s, "      gcc:    {}", show_line(exp.get(first).copied()));
    let _ = writeln!(s, "      accsim: {}", show_line(act.get(first).copied()));
    let _ = writeln!(
        s,
        "    (gcc printed {} lines / {} bytes, accsim {} lines / {} bytes)",
        exp.len(),
        expected.len(),
        act.len(),
        actual.len()
    );
    s
}

// ---- Programs that state their expectations in header lines (samples/regress, conformance/spec) ----
//
// A program `NAME.c` says what must happen in header lines among its first 24 lines:
// `// accsim-flags:`, `// accsim-env: K=V` (repeatable), `// expect-exit:`, `// expect-stderr:` (repeatable),
// `// expect-stderr-not:` (text it must not contain, repeatable), `// check: skip`; and
// `NAME.expected`, where it exists, is `run`'s exact stdout. Unless `check: skip`, `accsim check
// --format json` must report exactly the error and warning findings marked in the source with
// `/* expect: KIND */` on their primary line. `program_problems` returns every way the program
// departs from what it states (empty: it behaves as stated).

/// Every `// key: value` line among the first lines of `text`, in order.
pub fn header_values(text: &str, key: &str) -> Vec<String> {
    let prefix = format!("// {key}:");
    text.lines()
        .take(24)
        .filter_map(|l| l.trim_start().strip_prefix(prefix.as_str()))
        .map(|v| v.trim().to_string())
        .collect()
}

/// The `/* expect: KIND */` marks of a program: (kind, line).
pub fn marks(src: &str) -> Vec<(String, u64)> {
    src.lines()
        .enumerate()
        .filter_map(|(i, l)| {
            let at = l.find("/* expect:")?;
            let rest = &l[at + "/* expect:".len()..];
            // A kind may be two words (`memory limit`): up to the comment's end.
            let kind: String = rest.trim_start().chars().take_while(|c| c.is_ascii_lowercase() || *c == '-' || *c == ' ').collect();
            let kind = kind.trim_end().to_string();
            (!kind.is_empty()).then_some((kind, i as u64 + 1))
        })
        .collect()
}

/// (kind, line, severity) of each finding in `accsim check --format json` output (its last
/// stdout line).
pub fn findings(stdout: &[u8]) -> Result<Vec<(String, u64, String)>, String> {
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

fn accsim_on_file(command: &str, flags: &[String], env: &[(String, String)], rel: &Path) -> Result<Outcome, String> {
    let mut cmd = Command::new(accsim_bin());
    cmd.current_dir(repo_root()).arg(command).args(flags).arg(rel);
    cmd.envs(env.iter().map(|(k, v)| (k, v)));
    run_with_timeout(cmd, accsim_timeout())
}

/// Every way `accsim run` and `accsim check` on the program at `path` depart from what its headers,
/// marks and golden file state. With `bless`, `run`'s stdout is written as the golden file instead of
/// compared (programs expecting exit 0 only).
pub fn program_problems(path: &Path, bless: bool) -> Vec<String> {
    let rel = path.strip_prefix(repo_root()).unwrap_or(path).to_path_buf();
    let name = rel.display().to_string();
    let src = std::fs::read_to_string(path).unwrap_or_default();
    let flags: Vec<String> = header_values(&src, "accsim-flags").iter().flat_map(|f| f.split_whitespace().map(str::to_string).collect::<Vec<_>>()).collect();
    let env: Vec<(String, String)> =
        header_values(&src, "accsim-env").iter().filter_map(|kv| kv.split_once('=')).map(|(k, v)| (k.trim().to_string(), v.trim().to_string())).collect();
    let want_exit: i32 = header_values(&src, "expect-exit").first().and_then(|v| v.parse().ok()).unwrap_or(0);
    let mut problems = Vec::new();
    let run = match accsim_on_file("run", &flags, &env, &rel) {
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
    for text in header_values(&src, "expect-stderr-not") {
        if stderr.contains(&text) {
            problems.push(format!("{name}: `accsim run`'s stderr contains `{text}`:\n{}", indent(&stderr, 2000)));
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
    let check = match accsim_on_file("check", &check_flags, &env, &rel) {
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

/// A program known to depart from what it states: (file stem, text its `program_problems` report
/// must contain, why accsim fails it).
pub type KnownFailure = (&'static str, &'static str, &'static str);

/// The problems to report for the program `name` whose `program_problems` are `problems`, given
/// the known failures: none for a known failure that still fails the same way (its report contains
/// the symptom); one when a known failure passes (so that the fix is noticed and the entry
/// removed) or fails differently; otherwise `problems` unchanged.
pub fn against_known_failures(name: &str, problems: Vec<String>, known: &[KnownFailure]) -> Vec<String> {
    let Some((_, symptom, why)) = known.iter().find(|(n, _, _)| *n == name) else {
        return problems;
    };
    let report = problems.join("\n");
    if problems.is_empty() {
        vec![format!("{name}: now passes — remove it from KNOWN_FAILURES (it failed because {why})")]
    } else if !report.contains(symptom) {
        vec![format!("{name}: fails differently than known (`{symptom}`: {why}):\n{report}")]
    } else {
        Vec::new()
    }
}
