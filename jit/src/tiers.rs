//! Tiers by counted work (issue 15: "a program of 20,000 lines compiles in under a second"):
//! code that runs little is not worth compiling. A program's functions start in the
//! interpreter, which runs the same executable form as native code, with the same results;
//! the engine compiles a function when the work of its calls, counted before each call runs
//! ([`crate::work`]), says that compiling pays:
//!
//! - a **host function** whose work cannot be counted (a `while`, `do` or `goto` loop, a loop
//!   whose bounds are read from memory) is compiled at its first call, as before tiers (no
//!   on-stack replacement: a long loop must not start in the interpreter); a loop-free function,
//!   or one whose loops' bounds are its arguments and constants, runs in the interpreter while
//!   each call counts less than [`INTERPRET_BELOW_WORK`], for [`CALLS_INTERPRETED`] calls or
//!   [`INTERPRETED_WORK_LIMIT`] of work in all, then is compiled;
//! - a **kernel** is decided at each launch from the launch's work: its gang loop's trip count
//!   and the loops inside whose bounds are launch values, times their bodies (the functions it
//!   calls counted in; the last gang's share, the largest, times the gangs). A small launch runs in the interpreter (the whole launch: its gangs
//!   and what they call), up to [`LAUNCHES_INTERPRETED`] launches or the same work limit; a
//!   compiled kernel runs quick code, optimised once its launches' work reaches
//!   [`QUICK_WORK_BEFORE_OPTIMISING`], or at once for a launch of [`OPTIMISE_AT_ONCE_WORK`] or
//!   of uncountable work.
//!   Once the kernel and every function its code may reach have their final code (none to
//!   generate, none waiting for its optimised code), the kernel is settled and its launches
//!   count nothing more (`Engine::settle`).
//!
//! The counts are of the program and its values, never of time, so a run makes the same
//! choices every time (the steps counted by `--max-steps` depend on the engine that ran each
//! call; output, faults and findings do not). With `ACCSIM_JIT=eager` every function is
//! compiled at its first call and every kernel at its first launch (the differential test
//! `simulator/tests/engines.rs` runs so, to test the native code of every function).
//! `ACCSIM_PHASE_TIMES` prints what the tiers decided; `accsim info` prints each function's rule.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use accsim_core::ir::{Function, StmtKind};

/// The environment variable whose value `eager` turns the tiers off.
pub const JIT_VAR: &str = "ACCSIM_JIT";

/// A call or launch counting at least this much work is compiled at once. The unit is an
/// expression node evaluated: the interpreter runs about 50–100 million a second on this
/// machine, generating a small function's code costs 0.3–1 ms (quick and optimised tiers,
/// release build), so a call of 30,000 nodes costs in the interpreter about what compiling it
/// costs.
pub const INTERPRET_BELOW_WORK: u64 = 30_000;
/// The interpreted work, over all calls or launches of one function, after which it is
/// compiled (a few compiles' worth).
pub const INTERPRETED_WORK_LIMIT: u64 = 200_000;
/// Calls of a host function the interpreter runs before it is compiled (as many as a library
/// routine's, `LIBRARY_CALLS_INTERPRETED`).
pub const CALLS_INTERPRETED: u32 = 64;
/// Launches of a kernel the interpreter runs before it is compiled (each launch starts the
/// device threads: fewer than a host function's calls).
pub const LAUNCHES_INTERPRETED: u32 = 16;
/// A launch of at least this much work runs optimised code at once: a loop of a million
/// elements.
pub const OPTIMISE_AT_ONCE_WORK: u64 = 4_000_000;
/// The work of quick-code launches after which a kernel's optimised code is generated.
pub const QUICK_WORK_BEFORE_OPTIMISING: u64 = 20_000_000;

/// What the interpreter ran of each function before the tiers compiled it.
pub struct Tiering {
    /// `ACCSIM_JIT=eager`: every function compiled at its first call or launch.
    pub eager: bool,
    work: Box<[AtomicU64]>,
    runs: Box<[AtomicU32]>,
    /// Calls and launches the interpreter ran by the tiers' choice.
    interpreted_calls: AtomicU64,
    interpreted_launches: AtomicU64,
    /// Their counted work.
    interpreted_work: AtomicU64,
}

impl Tiering {
    pub fn new(n: usize) -> Tiering {
        Tiering {
            eager: std::env::var(JIT_VAR).is_ok_and(|v| v == "eager"),
            work: (0..n).map(|_| AtomicU64::new(0)).collect(),
            runs: (0..n).map(|_| AtomicU32::new(0)).collect(),
            interpreted_calls: AtomicU64::new(0),
            interpreted_launches: AtomicU64::new(0),
            interpreted_work: AtomicU64::new(0),
        }
    }

    /// Whether this call (or launch) of function `fid`, of counted work `w`, runs in the
    /// interpreter: not eager, small, and the function's earlier interpreted ones fewer than
    /// `max_runs` and less than [`INTERPRETED_WORK_LIMIT`] of work. Counts it when so.
    pub fn interpret(&self, fid: u32, w: u64, max_runs: u32) -> bool {
        if self.eager || w >= INTERPRET_BELOW_WORK {
            return false;
        }
        let (Some(work), Some(runs)) = (self.work.get(fid as usize), self.runs.get(fid as usize)) else { return false };
        let total = work.fetch_add(w, Ordering::Relaxed).saturating_add(w);
        let n = runs.fetch_add(1, Ordering::Relaxed).saturating_add(1);
        if n > max_runs || total >= INTERPRETED_WORK_LIMIT {
            return false;
        }
        self.interpreted_calls.fetch_add(1, Ordering::Relaxed);
        self.interpreted_work.fetch_add(w, Ordering::Relaxed);
        true
    }

    /// Count a launch [`Tiering::interpret`] sent to the interpreter as a launch.
    pub fn launch_interpreted(&self) {
        self.interpreted_calls.fetch_sub(1, Ordering::Relaxed);
        self.interpreted_launches.fetch_add(1, Ordering::Relaxed);
    }

    /// The line `ACCSIM_PHASE_TIMES` prints at the end of the run (`native`: by function id,
    /// whether it has code).
    pub fn summary(&self, native: &[bool]) -> String {
        let waited = self.runs.iter().zip(native).filter(|(r, &n)| r.load(Ordering::Relaxed) > 0 && !n).count();
        let compiled_after = self.runs.iter().zip(native).filter(|(r, &n)| r.load(Ordering::Relaxed) > 0 && n).count();
        format!(
            "accsim: tiers{}: {} functions compiled ({} after interpreted calls); {} calls and {} launches interpreted by counted work ({} steps of work; {} functions never compiled)",
            if self.eager { " (eager)" } else { "" },
            native.iter().filter(|&&n| n).count(),
            compiled_after,
            self.interpreted_calls.load(Ordering::Relaxed),
            self.interpreted_launches.load(Ordering::Relaxed),
            self.interpreted_work.load(Ordering::Relaxed),
            waited
        )
    }
}

/// Whether `f` holds a loop whose work is never counted before a call: `while`, `do`, `goto`.
pub fn uncounted(f: &Function) -> bool {
    let mut found = false;
    accsim_core::kernel::outline::walk_stmt(&f.body, &mut |_| {}, &mut |s| {
        if matches!(s.kind, StmtKind::While(..) | StmtKind::DoWhile(..) | StmtKind::Goto(_)) {
            found = true;
        }
    });
    found
}

/// `accsim info`'s words for a function run loop by loop ([`crate::loop_entry`]).
pub fn describe_by_loop() -> String {
    format!(
        "runs once: in the interpreter, each of its loops compiled on its own when the interpreter reaches it with {INTERPRET_BELOW_WORK} steps of work or more (or work not counted), or once it ran {INTERPRETED_WORK_LIMIT} steps of it"
    )
}

/// `accsim info`'s words for when a function's code is generated.
pub fn describe(eager: bool, kernel: bool, uncounted: bool, library: bool) -> String {
    if eager {
        return "compiled at its first call (ACCSIM_JIT=eager)".into();
    }
    if library {
        return "a library routine: compiled after its first 64 calls".into();
    }
    match (kernel, uncounted) {
        (true, _) => format!(
            "a kernel: a launch counting less than {INTERPRET_BELOW_WORK} steps of work runs in the interpreter, for up to {LAUNCHES_INTERPRETED} launches or {INTERPRETED_WORK_LIMIT} steps; then compiled, optimised at once for a launch of {OPTIMISE_AT_ONCE_WORK} steps or of work not counted"
        ),
        (false, true) => "compiled at its first call (its loops' work cannot be counted before it runs)".into(),
        (false, false) => format!(
            "a call counting less than {INTERPRET_BELOW_WORK} steps of work runs in the interpreter, for up to {CALLS_INTERPRETED} calls or {INTERPRETED_WORK_LIMIT} steps; then compiled"
        ),
    }
}
