//! `--engines native,interp` (issue 15): both engines and `gcc -O2` side by side, measured in one
//! invocation. For each program: the gcc -O2 build, then `accsim run --engine E` for each engine
//! in the order given, each `--repeat` times (best wall time; least user CPU time), every stdout
//! checked against gcc's. Besides wall time the table shows user CPU time (the child's and the
//! children it waited for, such as the preprocessor), which a loaded machine disturbs less than
//! wall time, and the native engine's compile time (`ACCSIM_NATIVE_COMPILE_TIME`) as a share of
//! its run. The geometric means of the ratios close the table. `--suite fortran` compares the
//! Fortran programs with `--fc` (gfortran) -O2 instead of gcc (its column keeps the name).

use std::fmt::Write as _;
use std::time::Duration;

use anyhow::{bail, Result};

use super::programs::{Program, Suite};
use super::{
    compile_c, find_accsim, find_samples, geometric_mean, measure, Cli, Failure, Measurement,
    Mode, ScratchDir, Size, SuiteChoice, Subject,
};

/// One engine's measurement of one program.
type Side = Result<Measurement, Failure>;

/// Run the side-by-side comparison and print its table (markdown); the exit status is 1 when a
/// run failed or printed other bytes than gcc -O2.
pub fn side_by_side(cli: &Cli) -> Result<u8> {
    if cli.mode != Mode::Run {
        bail!("--engines compares `accsim run` with gcc -O2: it takes --mode run");
    }
    let samples = find_samples(cli)?;
    let accsim = find_accsim(cli)?;
    let timeout = Duration::from_secs(cli.timeout);
    let scratch = ScratchDir::new()?;
    // One thread count per table: the columns are engines, not thread counts.
    if cli.threads.len() > 1 {
        bail!("--engines measures one thread count: give one --threads value (got {:?}); run once per count", cli.threads);
    }
    let threads = cli.threads.first().copied();
    let mut rows: Vec<(String, Side, Vec<Side>)> = Vec::new();
    for program in Program::all() {
        let wanted = match cli.suite {
            SuiteChoice::Plain => program.suite == Suite::Plain,
            SuiteChoice::Acc => program.suite == Suite::Acc,
            SuiteChoice::Styles => program.suite == Suite::Styles,
            // The Fortran programs compare with `--fc` (gfortran) -O2, in their own run
            // (`--suite fortran`; `all` is the C suites').
            SuiteChoice::Fortran => program.suite == Suite::Fortran,
            SuiteChoice::All => program.suite != Suite::Fortran,
        };
        if !wanted || (!cli.only.is_empty() && !cli.only.iter().any(|o| o == program.kernel.name)) {
            continue;
        }
        let file = samples
            .join(program.suite.dir())
            .join(format!("{}.{}", program.kernel.name, program.suite.extension()));
        let defines = match cli.size {
            Size::Full => Vec::new(),
            Size::Small => program.kernel.small_defines(),
        };
        let label = program.label();
        eprintln!("accsim-bench: {label}");
        let stem = format!("{}-{}", program.suite.dir(), program.kernel.name);
        let exe = scratch.0.join(format!("{stem}-O2"));
        let compiler = if program.suite == Suite::Fortran { &cli.fc } else { &cli.cc };
        let gcc = compile_c(compiler, "-O2", &file, &defines, &exe)
            .and_then(|exe| measure(&Subject::Native { exe }, None, cli.repeat, timeout, None));
        let mut sides = Vec::new();
        for engine in &cli.engines {
            let side = match &gcc {
                Ok(g) => measure(
                    &Subject::Accsim {
                        exe: accsim.clone(),
                        subcommand: "run",
                        file: file.clone(),
                        defines: defines.clone(),
                        engine: Some(engine.clone()),
                        env: Vec::new(),
                    },
                    threads,
                    cli.repeat,
                    timeout,
                    Some(g.stdout.as_str()),
                ),
                Err(f) => Err(f.clone()),
            };
            match &side {
                Ok(m) => eprintln!("  {engine}: {:.3} s (user {:.2} s)", m.best_s, m.user_s),
                Err(f) => eprintln!("  {engine}: {}", f.summary()),
            }
            sides.push(side);
        }
        rows.push((label, gcc, sides));
    }
    print!("{}", render(&cli.engines, &rows));
    let failed = rows
        .iter()
        .any(|(_, g, s)| g.is_err() || s.iter().any(Result::is_err));
    Ok(u8::from(failed))
}

/// The markdown table: per engine, wall time, its ratio to gcc -O2, the user-CPU ratio, and for
/// an engine that printed its compile time, that time as a share of the run's wall time.
fn render(engines: &[String], rows: &[(String, Side, Vec<Side>)]) -> String {
    let mut out = String::from("| program | gcc -O2 s (user) |");
    let mut rule = String::from("|---|---|");
    for e in engines {
        let _ = write!(out, " {e} s (user) | {e} ratio | {e} user ratio | {e} compile |");
        rule.push_str("---|---|---|---|");
    }
    out.push('\n');
    out.push_str(&rule);
    out.push('\n');
    let mut wall_ratios = vec![Vec::new(); engines.len()];
    let mut user_ratios = vec![Vec::new(); engines.len()];
    for (label, gcc, sides) in rows {
        let _ = write!(out, "| {label} |");
        match gcc {
            Ok(g) => {
                let _ = write!(out, " {:.3} ({:.2}) |", g.best_s, g.user_s);
            }
            Err(f) => {
                let _ = write!(out, " {} |", f.label());
            }
        }
        for (i, side) in sides.iter().enumerate() {
            match (gcc, side) {
                (Ok(g), Ok(m)) => {
                    let wall = m.best_s / g.best_s;
                    // User time has a 10 ms resolution: a gcc run under it gives no ratio.
                    let user = (g.user_s > 0.0).then(|| m.user_s / g.user_s);
                    wall_ratios[i].push(wall);
                    if let Some(u) = user {
                        user_ratios[i].push(u);
                    }
                    let compile = m.compile_s.map_or("–".to_string(), |c| {
                        format!("{:.3} s ({:.1}%)", c, 100.0 * c / m.best_s)
                    });
                    let _ = write!(
                        out,
                        " {:.3} ({:.2}) | {:.1}× | {} | {} |",
                        m.best_s,
                        m.user_s,
                        wall,
                        user.map_or("–".to_string(), |u| format!("{u:.1}×")),
                        compile
                    );
                }
                (_, Err(f)) => {
                    let _ = write!(out, " {} | | | |", f.label());
                }
                (Err(_), Ok(_)) => out.push_str(" | | | |"),
            }
        }
        out.push('\n');
    }
    out.push_str("| **geometric mean** | |");
    for i in 0..engines.len() {
        let g = |v: &[f64]| geometric_mean(v).map_or("–".to_string(), |m| format!("**{m:.1}×**"));
        let _ = write!(out, " | {} | {} | |", g(&wall_ratios[i]), g(&user_ratios[i]));
    }
    out.push('\n');
    out
}
