//! The wall-clock limit of a run (`--max-time SECONDS`, issue 14).
//!
//! The step and memory limits are counted by the interpreter; time cannot be, because a run can
//! spend it where no step is counted: preprocessing a huge or endless input, a blocked read, a
//! launch of very many gangs. A watchdog thread started before preprocessing ends the process
//! when the time is up: it prints a `max-time` limit diagnostic, writes the JSON `--report`
//! when one was asked for, and exits with status 4 (a limit). Output the program had not yet
//! flushed is lost then, as when a shell's `timeout` kills a program.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use accsim_core::diag::{Diagnostic, SourceMap};

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

/// The diagnostic of the time limit.
pub fn time_limit(seconds: f64) -> Diagnostic {
    let mut d = Diagnostic::error("max-time", format!("the run took longer than {seconds} seconds of wall-clock time (the --max-time limit)"), Default::default())
        .with_help("`--max-time SECONDS` raises the limit");
    d.primary = None;
    d
}

/// Start the watchdog of `--max-time` (nothing when `seconds` is `None`). `report` is the JSON
/// report file to write for `command` when the time is up.
pub fn start_watchdog(seconds: Option<f64>, report: Option<PathBuf>, command: &'static str) {
    let Some(seconds) = seconds.filter(|s| s.is_finite() && *s >= 0.0) else {
        return;
    };
    let started = Instant::now();
    let spawned = std::thread::Builder::new().name("accsim-watchdog".into()).spawn(move || {
        std::thread::sleep(Duration::from_secs_f64(seconds.min(1e9)));
        let d = time_limit(seconds);
        eprintln!("error[{}]: {}", d.kind, d.message);
        if let Some(help) = &d.help {
            eprintln!("  = help: {help}");
        }
        if let Some(path) = report {
            let outcome = Outcome::Limit(d);
            let figures = Figures { wall_seconds: started.elapsed().as_secs_f64(), ..Figures::default() };
            let doc = report_json(command, &outcome, LIMIT_STATUS as u8, &[], &figures, &SourceMap::new());
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
