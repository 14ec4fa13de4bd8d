//! Phase timings of the pipeline, a profiling aid (issue 15's compile-time target: "a program
//! of 20,000 lines compiles in under a second" needs to know where the time goes).
//!
//! With `ACCSIM_PHASE_TIMES` set in the environment, each phase run through [`timed`] prints
//! `accsim: phase NAME S s` on stderr when it ends (wall-clock seconds; `accsim-bench
//! --compile` reads them). Without it, nothing is printed and the run is unchanged.
//!
//! With `ACCSIM_PHASE_MEMORY` set, each phase's end also prints the process's memory from
//! `/proc/self/status` (issue 15: "`check` ≤ 3× the program's data in memory" needs to know which
//! phase holds what): `accsim: memory after NAME: rss R MiB, anon A MiB, peak P MiB` (`VmRSS`,
//! `RssAnon`, `VmHWM`). On a system without `/proc` the line says so.

use std::sync::OnceLock;

/// The environment variable that turns the phase lines on.
pub const PHASE_TIMES_VAR: &str = "ACCSIM_PHASE_TIMES";

/// The environment variable that turns the memory lines on.
pub const PHASE_MEMORY_VAR: &str = "ACCSIM_PHASE_MEMORY";

/// Whether the phase lines are wanted (read once per process).
pub fn wanted() -> bool {
    static WANTED: OnceLock<bool> = OnceLock::new();
    *WANTED.get_or_init(|| std::env::var_os(PHASE_TIMES_VAR).is_some())
}

/// Whether the memory lines are wanted (read once per process).
pub fn memory_wanted() -> bool {
    static WANTED: OnceLock<bool> = OnceLock::new();
    *WANTED.get_or_init(|| std::env::var_os(PHASE_MEMORY_VAR).is_some())
}

/// Run `f` as phase `name`, printing its time when [`wanted`] and the memory after it when
/// [`memory_wanted`].
pub fn timed<T>(name: &str, f: impl FnOnce() -> T) -> T {
    if !wanted() && !memory_wanted() {
        return f();
    }
    let start = std::time::Instant::now();
    let out = f();
    report(name, start.elapsed().as_secs_f64());
    out
}

/// Print a phase's time measured elsewhere (`seconds`), when [`wanted`], and the memory now,
/// when [`memory_wanted`].
pub fn report(name: &str, seconds: f64) {
    if wanted() {
        eprintln!("accsim: phase {name} {seconds:.6} s");
    }
    report_memory(name);
}

/// Print the process's memory now, labelled `after NAME`, when [`memory_wanted`].
pub fn report_memory(name: &str) {
    if memory_wanted() {
        match memory_now() {
            Some(m) => eprintln!(
                "accsim: memory after {name}: rss {:.1} MiB, anon {:.1} MiB, peak {:.1} MiB",
                m.rss_kib as f64 / 1024.0,
                m.anon_kib as f64 / 1024.0,
                m.peak_kib as f64 / 1024.0
            ),
            None => eprintln!("accsim: memory after {name}: unknown (no /proc/self/status)"),
        }
    }
}

/// The resident memory of this process, in KiB, as `/proc/self/status` gives it.
struct MemoryNow {
    rss_kib: u64,
    anon_kib: u64,
    peak_kib: u64,
}

fn memory_now() -> Option<MemoryNow> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let field = |key: &str| {
        status.lines().find_map(|l| l.strip_prefix(key)).and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
    };
    Some(MemoryNow { rss_kib: field("VmRSS:")?, anon_kib: field("RssAnon:")?, peak_kib: field("VmHWM:")? })
}

/// Parts of the `run` phase that do not shrink with device threads (issue 15, "on a 16-core
/// machine, gang-parallel programs faster than gcc -O2"): with [`PHASE_TIMES_VAR`] set, the run
/// adds up the wall time of its data transfers and of its launches, and inside the launches the
/// time the device threads run gangs, and prints them after the `run` phase
/// ([`report_run_parts`]): `accsim: run part NAME S s (N times)`. What a launch takes besides
/// its gangs (`launches` − `gangs`) is its fixed cost: private copies, forks, joins, the
/// present-table lookups. Without the variable nothing is measured.
pub mod run_parts {
    use std::sync::atomic::{AtomicU64, Ordering};

    /// A part of the run.
    #[derive(Copy, Clone, Debug)]
    pub enum RunPart {
        /// Device allocations and host↔device copies of data clauses and runtime calls (§2.6).
        Transfers,
        /// Compute constructs from launch to return, the gangs included.
        Launches,
        /// The device threads running gangs, from handing them out to the last one's end.
        Gangs,
        /// Making the device threads' machines (forks) of a launch and joining them after it.
        Forks,
    }

    const PARTS: [(RunPart, &str); 4] = [(RunPart::Transfers, "transfers"), (RunPart::Launches, "launches"), (RunPart::Gangs, "gangs"), (RunPart::Forks, "forks")];

    static NANOS: [AtomicU64; 4] = [AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0)];
    static TIMES: [AtomicU64; 4] = [AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0)];

    /// Run `f` as a stretch of `part`, timed when [`super::wanted`].
    pub fn timed<T>(part: RunPart, f: impl FnOnce() -> T) -> T {
        if !super::wanted() {
            return f();
        }
        let start = std::time::Instant::now();
        let out = f();
        NANOS[part as usize].fetch_add(start.elapsed().as_nanos() as u64, Ordering::Relaxed);
        TIMES[part as usize].fetch_add(1, Ordering::Relaxed);
        out
    }

    /// Print the parts measured so far, when [`super::wanted`].
    pub fn report_run_parts() {
        if !super::wanted() {
            return;
        }
        for (part, name) in PARTS {
            let (ns, n) = (NANOS[part as usize].load(Ordering::Relaxed), TIMES[part as usize].load(Ordering::Relaxed));
            eprintln!("accsim: run part {name} {:.6} s ({n} times)", ns as f64 * 1e-9);
        }
    }
}
