//! The memory baseline (issues 4 and 15): the peak of the measured command on an empty program
//! with the measured program's own `#include` lines, its `main` compiled to native code, as
//! every program's is. `(peak - baseline) / data` is what the program's data costs beyond
//! accsim's own memory (binary pages, the parsed headers, thread stacks).

use super::*;

/// The baseline runs with its `main` compiled to native code at its first call: the code
/// generator's code pages are accsim's own, as they were in every baseline until the native
/// engine's tiers (issue 15, session 11) began to interpret a call as small as an empty `main`
/// — which took about 1.6 MiB of accsim's code out of the baseline (release build, 12.9 ->
/// 11.3 MiB) and charged it to every program's data. (Any program of the suites compiles its
/// kernels and its `main`.)
pub(crate) const BASELINE_JIT: (&str, &str) = ("ACCSIM_JIT", "eager");

/// The headers of the baseline of a program that is not C (a Fortran program).
pub(crate) const DEFAULT_HEADERS: &str = "#include <stdio.h>\n#include <stdlib.h>\n";

/// The program whose peak memory is the baseline of programs with these `#include` lines: the
/// headers, no data. The parsed declarations of a header are accsim's cost, not the data's
/// (`<math.h>`'s are about 1 MiB of a peak).
pub(crate) fn baseline_source(headers: &str) -> String {
    format!("/* accsim-bench's memory baseline: the program's headers, no data. */\n{headers}\nint main(void)\n{{\n    return 0;\n}}\n")
}

/// The `#include <…>` lines of the C program `file`, in order ([`DEFAULT_HEADERS`] for a program
/// in another language).
pub(crate) fn headers_of(file: &Path) -> Result<String> {
    if file.extension().is_none_or(|e| e != "c") {
        return Ok(DEFAULT_HEADERS.to_string());
    }
    let text = fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("#include <"))
        .map(|l| format!("{l}\n"))
        .collect())
}

/// The peak memory of the measured command on [`baseline_source`], for each set of headers and
/// `--threads` column.
#[derive(Default)]
pub(crate) struct Baseline {
    pub(crate) columns: Vec<BaseColumn>,
}

pub(crate) struct BaseColumn {
    pub(crate) headers: String,
    pub(crate) threads: Option<u32>,
    pub(crate) m: Result<Measurement, Failure>,
}

impl Baseline {
    pub(crate) fn peak_kib(&self, headers: &str, threads: Option<u32>) -> Option<u64> {
        let c = self.columns.iter().find(|c| c.headers == headers && c.threads == threads)?;
        c.m.as_ref().ok()?.peak_kib
    }

    pub(crate) fn has(&self, headers: &str) -> bool {
        self.columns.iter().any(|c| c.headers == headers)
    }
}

/// `headers` as one line: `<math.h> <stdio.h>`.
pub(crate) fn header_names(headers: &str) -> String {
    let names: Vec<&str> = headers.lines().filter_map(|l| l.strip_prefix("#include").map(str::trim)).collect();
    if names.is_empty() {
        "no headers".into()
    } else {
        names.join(" ")
    }
}

/// Runs of the baseline: its peak varies by about a megabyte from run to run (the binary's pages
/// that happen to be mapped), and the largest is kept, as for the programs.
pub(crate) const BASELINE_REPEAT: u32 = 3;

/// Runs the measured command (`accsim run` or `check`, or the `--self-test` stand-in) on
/// [`baseline_source`] of `headers` once per `--threads` column, `--repeat` times each (at least
/// [`BASELINE_REPEAT`]); `k` numbers its files.
#[allow(clippy::too_many_arguments)]
pub(crate) fn measure_baseline(
    cli: &Cli,
    accsim: Option<&Path>,
    scratch: &Path,
    thread_columns: &[Option<u32>],
    timeout: Duration,
    headers: &str,
    k: usize,
) -> Result<Vec<BaseColumn>> {
    let file = scratch.join(format!("baseline-{k}.c"));
    fs::write(&file, baseline_source(headers)).with_context(|| format!("writing {}", file.display()))?;
    let subject = match accsim {
        Some(exe) => Ok(Subject::Accsim {
            exe: exe.to_owned(),
            subcommand: cli.mode.name(),
            file: file.clone(),
            defines: Vec::new(),
            engine: cli.engine.clone(),
            env: vec![(BASELINE_JIT.0, BASELINE_JIT.1)],
        }),
        None => compile_c(&cli.cc, "-O0", &file, &[], &scratch.join(format!("baseline-{k}-O0")))
            .map(|exe| Subject::Native { exe }),
    };
    let columns = thread_columns
        .iter()
        .map(|&threads| {
            let m = subject
                .clone()
                .and_then(|s| measure(&s, threads, cli.repeat.max(BASELINE_REPEAT), timeout, None));
            let t = threads.map_or(String::new(), |t| format!(" [{t} thread(s)]"));
            let names = header_names(headers);
            match &m {
                Ok(m) => eprintln!("accsim-bench: baseline ({names}){t}: {} MiB", fmt_mib(m.peak_kib)),
                Err(f) => eprintln!("accsim-bench: baseline ({names}){t}: {}", f.summary()),
            }
            BaseColumn { headers: headers.to_string(), threads, m }
        })
        .collect();
    Ok(columns)
}
