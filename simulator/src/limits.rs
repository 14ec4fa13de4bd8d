//! The wall-clock limit of a run (`--max-time SECONDS`, issue 14).
//!
//! The step and memory limits are counted by the interpreter. Time is checked by the interpreter
//! too, every 65,536 steps, so that the limit names the line being run; but a run can spend time
//! where no step is counted: preprocessing a huge or endless input, a blocked read, a launch of
//! very many gangs. A watchdog thread started before preprocessing ends the process then: it
//! kills a running preprocessor, prints a `max-time` limit diagnostic at the program's file,
//! writes the JSON `--report` when one was asked for, and exits with status 4 (a limit). Output
//! the program had not yet flushed is lost then, as when a shell's `timeout` kills a program.

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use accsim_core::diag::{Loc, SourceMap};
use accsim_core::exec::time_limit_diagnostic;

use crate::outcome::{report_json, Figures, Outcome};

/// `--max-steps` without `--sandbox` and with it.
pub fn default_max_steps(sandbox: bool) -> u64 {
    if sandbox {
        1_000_000_000
    } else {
        10_000_000_000
    }
}

/// `--max-memory` without `--sandbox` and with it.
pub fn default_max_memory(sandbox: bool) -> u64 {
    if sandbox {
        1 << 30
    } else {
        8 << 30
    }
}

/// `--max-time` under `--sandbox` (none without it).
pub const SANDBOX_MAX_TIME: f64 = 10.0;

/// The environment a sandboxed program sees: the variables `--env NAME` names, with accsim's
/// values (a name accsim does not have is left out).
pub fn granted_environment(names: &[String]) -> std::collections::BTreeMap<String, String> {
    names.iter().filter_map(|n| std::env::var(n).ok().map(|v| (n.clone(), v))).collect()
}

/// Exit status of a limit reached (README "Exit status").
pub const LIMIT_STATUS: i32 = 4;

/// When the watchdog started: the start of the run for `--max-time` ([`RunOptions::deadline`]).
static STARTED: OnceLock<Instant> = OnceLock::new();

/// When the command started, for its `--max-time` deadline (the watchdog's start; now if none).
pub fn started() -> Instant {
    *STARTED.get_or_init(Instant::now)
}

/// How long the watchdog waits past the limit for the interpreter to stop the run itself (at the
/// line it is running) before it ends the process.
const WATCHDOG_GRACE: Duration = Duration::from_secs(1);

/// Start the watchdog of `--max-time` (nothing when `seconds` is `None`). `report` is the JSON
/// report file to write for `command` when the time is up; `files` are the program's files.
///
/// The interpreter checks the deadline itself every 65,536 steps and stops at the line it runs
/// ([`RunOptions::deadline`]); the watchdog is for the time spent elsewhere — preprocessing, a
/// blocked read, bookkeeping outside the steps. It waits [`WATCHDOG_GRACE`] past the limit,
/// kills a running preprocessor (its whole process group), reports the limit at the program's
/// file and exits with status 4.
///
/// [`RunOptions::deadline`]: accsim_core::exec::RunOptions::deadline
pub fn start_watchdog(seconds: Option<f64>, report: Option<PathBuf>, command: &'static str, files: &[String]) {
    let started = started();
    let Some(seconds) = seconds.filter(|s| s.is_finite() && *s >= 0.0) else {
        return;
    };
    let file = files.first().cloned();
    let spawned = std::thread::Builder::new().name("accsim-watchdog".into()).spawn(move || {
        std::thread::sleep(Duration::from_secs_f64(seconds.min(1e9)) + WATCHDOG_GRACE);
        accsim_core::frontend::preprocess::kill_running_preprocessors();
        let mut map = SourceMap::new();
        let loc = file.as_deref().map(|f| Loc { file: map.file_id(f), line: 0, col: 0 }).unwrap_or_default();
        let mut d = time_limit_diagnostic(seconds, loc);
        if file.is_none() {
            d.primary = None;
        }
        eprint!("{}", d.render(&map, false));
        if let Some(path) = report {
            let outcome = Outcome::Limit(d);
            let figures = Figures { wall_seconds: started.elapsed().as_secs_f64(), ..Figures::default() };
            let doc = report_json(command, &outcome, LIMIT_STATUS as u8, &[], &figures, &map);
            if let Err(e) = std::fs::write(&path, doc) {
                eprintln!("accsim: cannot write the report {}: {e}", path.display());
            }
        }
        std::process::exit(LIMIT_STATUS);
    });
    if let Err(e) = spawned {
        eprintln!("accsim: cannot start the --max-time watchdog: {e}");
        std::process::exit(101);
    }
}
