//! `--compile` (issue 15's compile-time targets): "compile time of the native engine under 10% of
//! the run on the suite, and a program of 20,000 lines compiles in under a second".
//!
//! For each program of the suite (`--suite`, `--only`, `--size` as for the other modes) it runs
//! `accsim run` (the native engine) `--repeat` times and reports the compile time accsim prints
//! under `ACCSIM_NATIVE_COMPILE_TIME` (translation and code generation of every function, all
//! done before the run starts) as a share of the run's wall time. Then it writes a program of
//! `--compile-lines` lines with `gen_big_program.py` (in the samples folder; units of the
//! `styles` kinds, each called once from `main` on 8×8 data, so that the run itself is short)
//! and times `accsim run` on it with each engine: with `--engine interp`, the front end
//! (preprocessing, parsing, lowering, outlining) and the interpreter's compilation; with the
//! native engine, that plus the native code generation, which it also prints by itself. Both
//! outputs must equal `gcc -O2`'s. Exit status 3 when a target is missed, 1 when a run fails.

use std::fmt::Write as _;
use std::process::Command;
use std::time::Duration;

use anyhow::{bail, Context, Result};

use super::programs::{Program, Suite};
use super::{compile_c, find_accsim, find_samples, measure, Cli, Measurement, ScratchDir, Size, SuiteChoice, Subject};

/// Native compile time within this share of the run's wall time.
const SHARE_TARGET: f64 = 0.10;
/// The large program's front end and native compile time within this many seconds.
const BIG_TARGET_S: f64 = 1.0;

pub fn compile_times(cli: &Cli) -> Result<u8> {
    let samples = find_samples(cli)?;
    let accsim = find_accsim(cli)?;
    let timeout = Duration::from_secs(cli.timeout);
    let scratch = ScratchDir::new()?;
    let threads = cli.threads.first().copied();
    let mut failed = false;
    let mut missed = false;
    let mut out = String::new();
    let _ = writeln!(out, "| program | run wall s (user) | native compile s | share of the run |");
    let _ = writeln!(out, "|---|---|---|---|");
    for program in Program::all() {
        let wanted = match cli.suite {
            SuiteChoice::Plain => program.suite == Suite::Plain,
            SuiteChoice::Acc => program.suite == Suite::Acc,
            SuiteChoice::Styles => program.suite == Suite::Styles,
            SuiteChoice::Fortran => false,
            SuiteChoice::All => program.suite != Suite::Fortran,
        };
        if !wanted || (!cli.only.is_empty() && !cli.only.iter().any(|o| o == program.kernel.name)) {
            continue;
        }
        let file = samples.join(program.suite.dir()).join(format!("{}.c", program.kernel.name));
        let defines = match cli.size {
            Size::Full => Vec::new(),
            Size::Small => program.kernel.small_defines(),
        };
        let label = program.label();
        eprintln!("accsim-bench: {label}");
        let subject = Subject::Accsim { exe: accsim.clone(), subcommand: "run", file, defines, engine: None, env: Vec::new() };
        match measure(&subject, threads, cli.repeat, timeout, None) {
            Ok(Measurement { best_s, user_s, compile_s: Some(c), .. }) => {
                let share = c / best_s;
                missed |= share > SHARE_TARGET;
                let _ = writeln!(out, "| {label} | {best_s:.3} ({user_s:.2}) | {c:.3} | {:.1}% |", share * 100.0);
            }
            Ok(m) => {
                missed = true;
                let _ = writeln!(out, "| {label} | {:.3} ({:.2}) | not printed | – |", m.best_s, m.user_s);
            }
            Err(f) => {
                failed = true;
                let _ = writeln!(out, "| {label} | {} | – | – |", f.summary());
            }
        }
    }
    let _ = writeln!(out, "\nTarget: native compile time under {:.0}% of the run.\n", SHARE_TARGET * 100.0);

    // The large program.
    let generator = samples.join("gen_big_program.py");
    if !generator.is_file() {
        bail!("{}: no such file", generator.display());
    }
    let big = scratch.0.join("big.c");
    let made = Command::new("python3")
        .arg(&generator)
        .arg("--lines")
        .arg(cli.compile_lines.to_string())
        .arg(&big)
        .status()
        .with_context(|| format!("running {}", generator.display()))?;
    if !made.success() {
        bail!("{} failed ({made})", generator.display());
    }
    let lines = std::fs::read_to_string(&big).map(|s| s.lines().count()).unwrap_or(0);
    let reference = compile_c(&cli.cc, "-O2", &big, &[], &scratch.0.join("big-O2"))
        .and_then(|exe| measure(&Subject::Native { exe }, None, 1, timeout, None))
        .map_err(|f| anyhow::anyhow!("gcc -O2 on the generated program: {}", f.summary()))?;
    let _ = writeln!(out, "| {lines}-line program | wall s | user s | native compile s |");
    let _ = writeln!(out, "|---|---|---|---|");
    let mut front_end = None;
    for engine in ["interp", "native"] {
        let subject = Subject::Accsim { exe: accsim.clone(), subcommand: "run", file: big.clone(), defines: Vec::new(), engine: Some(engine.into()), env: Vec::new() };
        match measure(&subject, threads, cli.repeat, timeout, Some(reference.stdout.as_str())) {
            Ok(m) => {
                let compile = m.compile_s.map_or("–".to_string(), |c| format!("{c:.3}"));
                let what = if engine == "interp" { "`run --engine interp` (front end, interpreter)" } else { "`run` (front end, native code)" };
                let _ = writeln!(out, "| {what} | {:.3} | {:.2} | {compile} |", m.best_s, m.user_s);
                if engine == "interp" {
                    front_end = Some(m.best_s);
                } else {
                    missed |= m.best_s > BIG_TARGET_S;
                    if let (Some(f), Some(c)) = (front_end, m.compile_s) {
                        let _ = writeln!(out, "\nFront end {f:.3} s + native code generation {c:.3} s = {:.3} s (target: under {BIG_TARGET_S} s).", f + c);
                    }
                    let _ = writeln!(out, "\n{}", phase_split(&m.phases));
                }
            }
            Err(f) => {
                failed = true;
                let _ = writeln!(out, "| `run --engine {engine}` | {} | | |", f.summary());
            }
        }
    }
    print!("{out}");
    Ok(if failed {
        1
    } else if missed {
        3
    } else {
        0
    })
}

/// The phases of a native run (`ACCSIM_PHASE_TIMES`, wall seconds): the front end (every phase
/// before the run: preprocessor, parser, lowering, passes, the interpreter's executable), the
/// translation to Cranelift IR and the code generation (which happens during the run).
fn phase_split(phases: &[(String, f64)]) -> String {
    if phases.is_empty() {
        return "Phases: accsim printed none.".into();
    }
    let list: Vec<String> = phases.iter().map(|(n, s)| format!("{n} {s:.3}")).collect();
    let sum = |keep: &dyn Fn(&str) -> bool| phases.iter().filter(|(n, _)| keep(n)).map(|(_, s)| s).sum::<f64>();
    let front = sum(&|n| !n.starts_with("native-") && n != "run");
    let code = sum(&|n| n.starts_with("native-"));
    format!("Phases of that run (s): {}. Front end {front:.3} s + native code {code:.3} s = {:.3} s.", list.join(", "), front + code)
}
