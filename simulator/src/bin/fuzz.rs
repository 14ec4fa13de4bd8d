//! `accsim-fuzz`: the stable-Rust driver of accsim's fuzz targets (`accsim::fuzzing`), for
//! machines without cargo-fuzz (`fuzz/run.sh` uses it then; fuzz/RESULTS.md records its runs).
//!
//! ```text
//! accsim-fuzz TARGET [--seconds S] [--runs N] [--seed K] [--crashes DIR] [--headers prelude|system] [SAMPLE_DIR...]
//! ```
//!
//! Seeds: the C programs of the sample directories (default samples/acc, samples/regress,
//! samples/bugs), preprocessed once with `cc -E` against the small headers of fuzz/prelude
//! (`--headers system`: glibc's) (for `directive_parser`, their `#pragma acc` lines). Each execution stacks 1–4 structure-aware mutations ([`accsim::fuzzing::mutate`]) on
//! a seed or on an earlier mutant, runs the target, and counts a panic, a defect (an internal
//! error) or an execution slower than 10 s as a crash, written to `DIR/TARGET/crash-HASH` (default
//! fuzz/crashes). Same seed, same mutants. Exit 1 when something crashed.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use accsim::fuzzing::{compiles, mutate, Rng, TARGETS};
use accsim_core::diag::SourceMap;
use accsim_core::frontend::preprocess::{parse_line_marker, preprocess};
use accsim_core::frontend::PreprocessOptions;

struct Options {
    target: String,
    seconds: f64,
    runs: u64,
    seed: u64,
    crashes: PathBuf,
    headers: Headers,
    dirs: Vec<PathBuf>,
}

fn parse_args() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let target = args.next().ok_or("usage: accsim-fuzz TARGET [--seconds S] [--runs N] [--seed K] [--crashes DIR] [--headers prelude|system] [SAMPLE_DIR...]")?;
    let mut o = Options { target, seconds: 60.0, runs: u64::MAX, seed: 1, crashes: PathBuf::from("fuzz/crashes"), headers: Headers::Prelude, dirs: Vec::new() };
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--seconds" => o.seconds = value("--seconds")?.parse().map_err(|e| format!("--seconds: {e}"))?,
            "--runs" => o.runs = value("--runs")?.parse().map_err(|e| format!("--runs: {e}"))?,
            "--seed" => o.seed = value("--seed")?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--crashes" => o.crashes = PathBuf::from(value("--crashes")?),
            "--headers" => {
                o.headers = match value("--headers")?.as_str() {
                    "prelude" => Headers::Prelude,
                    "system" => Headers::System,
                    other => return Err(format!("--headers: `{other}` is not `prelude` or `system`")),
                }
            }
            _ => o.dirs.push(PathBuf::from(a)),
        }
    }
    if o.dirs.is_empty() {
        o.dirs = ["samples/acc", "samples/regress", "samples/bugs"].map(PathBuf::from).to_vec();
    }
    Ok(o)
}

/// Where the seeds' headers come from (`--headers`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Headers {
    /// fuzz/prelude: a few dozen declarations per header (the default; see fuzz/prelude/README.md).
    Prelude,
    /// The system's (glibc's) headers, as `accsim run` uses them: 700–2,000 lines a seed.
    System,
}

/// The prelude directory: `fuzz/prelude` of the source tree this driver was built from.
fn prelude_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/prelude")
}

/// The preprocessed text of every `.c` file of `dirs`, in name order, and how many files were
/// skipped (not preprocessable with the chosen headers).
///
/// With [`Headers::Prelude`] the seeds are preprocessed with `-nostdinc -Ifuzz/prelude` and their
/// line markers are dropped (the text starts with one marker naming `fuzz.c`): the targets then
/// parse a few hundred lines an input instead of thousands, and the source map does not read
/// every header file named in the markers again for each input (the two costs that held the
/// front-end and execution targets to 55–70 executions a second, issue 14).
fn seeds(dirs: &[PathBuf], directives_only: bool, headers: Headers) -> (Vec<Vec<u8>>, usize) {
    let mut files: Vec<PathBuf> = dirs.iter().filter_map(|d| std::fs::read_dir(d).ok()).flatten().filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "c")).collect();
    files.sort();
    let mut opts = PreprocessOptions::default();
    if headers == Headers::Prelude {
        opts.args = vec!["-nostdinc".into(), format!("-I{}", prelude_dir().display())];
    }
    let (mut out, mut skipped) = (Vec::new(), 0);
    for f in files {
        let mut map = SourceMap::new();
        let Ok(pp) = preprocess(&f.to_string_lossy(), &opts, &mut map) else {
            skipped += 1;
            continue;
        };
        if directives_only {
            out.extend(pp.text.lines().filter_map(|l| l.trim_start().strip_prefix("#pragma acc")).map(|l| l.trim().as_bytes().to_vec()));
        } else if headers == Headers::Prelude {
            let mut text = String::from("# 1 \"fuzz.c\"\n");
            for line in pp.text.lines().filter(|l| parse_line_marker(l).is_none()) {
                text.push_str(line);
                text.push('\n');
            }
            out.push(text.into_bytes());
        } else {
            out.push(pp.text.into_bytes());
        }
    }
    (out, skipped)
}

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

fn save(dir: &Path, input: &[u8]) -> PathBuf {
    let _ = std::fs::create_dir_all(dir);
    let p = dir.join(format!("crash-{:016x}", fnv(input)));
    let _ = std::fs::write(&p, input);
    p
}

fn main() -> std::process::ExitCode {
    let o = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("accsim-fuzz: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    let Some(&(name, target)) = TARGETS.iter().find(|(n, _)| *n == o.target) else {
        eprintln!("accsim-fuzz: unknown target `{}` (one of {})", o.target, TARGETS.iter().map(|t| t.0).collect::<Vec<_>>().join(", "));
        return std::process::ExitCode::from(2);
    };
    let (corpus, skipped) = seeds(&o.dirs, name == "directive_parser", o.headers);
    if corpus.is_empty() {
        eprintln!("accsim-fuzz: no seeds in {:?}", o.dirs);
        return std::process::ExitCode::from(2);
    }
    let compiling = if name == "directive_parser" { corpus.len() } else { corpus.iter().filter(|s| compiles(s)).count() };
    eprintln!("accsim-fuzz {name}: {} seeds, {compiling} of them compile; {skipped} files skipped", corpus.len());
    // Panics are counted, not printed (each is saved as a crash file).
    std::panic::set_hook(Box::new(|_| {}));
    let mut rng = Rng::new(o.seed);
    let (start, limit) = (Instant::now(), Duration::from_secs_f64(o.seconds.max(0.0)));
    let (mut runs, mut crashes, mut slow) = (0u64, 0u64, 0u64);
    let mut previous: Vec<u8> = corpus[0].clone();
    while runs < o.runs && start.elapsed() < limit {
        let base = if rng.below(4) == 0 { previous.clone() } else { corpus[rng.below(corpus.len())].clone() };
        let mut input = base;
        for _ in 0..1 + rng.below(4) {
            input = mutate(&input, &mut rng);
        }
        let began = Instant::now();
        let result = catch_unwind(AssertUnwindSafe(|| target(&input)));
        runs += 1;
        let took = began.elapsed();
        let failed = match result {
            Err(_) => Some("panic".to_string()),
            Ok(Err(d)) => Some(d.0),
            Ok(Ok(())) if took > Duration::from_secs(10) => {
                slow += 1;
                Some(format!("slow: {:.1} s", took.as_secs_f64()))
            }
            Ok(Ok(())) => None,
        };
        if let Some(why) = failed {
            crashes += 1;
            let p = save(&o.crashes.join(name), &input);
            eprintln!("accsim-fuzz: {name}: {why}: {}", p.display());
        }
        previous = input;
        if runs % 50_000 == 0 {
            eprintln!("accsim-fuzz {name}: {runs} executions in {:.0} s, {crashes} crashes", start.elapsed().as_secs_f64());
        }
    }
    println!(
        "accsim-fuzz {name}: {runs} executions in {:.0} s, {} seeds ({skipped} files skipped), seed {}: {crashes} crashes ({slow} slow)",
        start.elapsed().as_secs_f64(),
        corpus.len(),
        o.seed
    );
    std::process::ExitCode::from(u8::from(crashes > 0))
}
