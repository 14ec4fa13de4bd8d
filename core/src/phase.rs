//! Phase timings of the pipeline, a profiling aid (issue 15's compile-time target: "a program
//! of 20,000 lines compiles in under a second" needs to know where the time goes).
//!
//! With `ACCSIM_PHASE_TIMES` set in the environment, each phase run through [`timed`] prints
//! `accsim: phase NAME S s` on stderr when it ends (wall-clock seconds; `accsim-bench
//! --compile` reads them). Without it, nothing is printed and the run is unchanged.

use std::sync::OnceLock;

/// The environment variable that turns the phase lines on.
pub const PHASE_TIMES_VAR: &str = "ACCSIM_PHASE_TIMES";

/// Whether the phase lines are wanted (read once per process).
pub fn wanted() -> bool {
    static WANTED: OnceLock<bool> = OnceLock::new();
    *WANTED.get_or_init(|| std::env::var_os(PHASE_TIMES_VAR).is_some())
}

/// Run `f` as phase `name`, printing its time when [`wanted`].
pub fn timed<T>(name: &str, f: impl FnOnce() -> T) -> T {
    if !wanted() {
        return f();
    }
    let start = std::time::Instant::now();
    let out = f();
    report(name, start.elapsed().as_secs_f64());
    out
}

/// Print a phase's time measured elsewhere (`seconds`), when [`wanted`].
pub fn report(name: &str, seconds: f64) {
    if wanted() {
        eprintln!("accsim: phase {name} {seconds:.6} s");
    }
}
