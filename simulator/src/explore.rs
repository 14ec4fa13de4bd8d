//! `accsim explore`: run a program under many seeded schedules and list the distinct outcomes.
//!
//! Schedule `s` (for `s` in `0..K`) is the weak-coherence store-buffer model of [`crate::weak`]
//! with seed `s` (commit orders of store buffers and which buffered stores racy reads see,
//! §1.3) together with the seeded activity-queue schedule `--schedule seed:s` (queued work
//! delayed as long as §2.13–§2.14 allow), and for `s` > 0 the gangs of every kernel, the
//! workers of every gang and the lanes of every worker run in orders drawn from `s` (each level
//! is unordered, §1.2: a program that relies on their order — slots numbered by an atomic
//! counter, device `printf` — shows it). An outcome is what the
//! program printed on stdout, its exit status, and the runtime error that stopped it, if any. A program without data races or
//! missing waits has exactly one outcome (the nondeterminism the specification allows cannot
//! show); a racy one may have several, and their seeds reproduce each with
//! `accsim run --coherence weak --seed S --schedule seed:S --gang-order S --thread-order S`
//! (S > 0).
//!
//! Cost: K runs of the checking executable on the sequential device, one after another.

use accsim_core::diag::SourceMap;
use accsim_core::exec::{Capture, Executable, RunOptions};

use crate::weak::WeakMemory;

/// One distinct outcome and the schedules that produced it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub stdout: String,
    pub status: i32,
    /// The runtime error that stopped the program (its headline), if any.
    pub error: Option<String>,
    /// The seeds that gave this outcome, ascending.
    pub seeds: Vec<u64>,
}

/// Run `exe` (compiled for checking) once per seed in `0..seeds`, with the options `options`
/// makes (stdout, the memory model and the queue schedule are set here); the distinct outcomes in
/// the order their first seed found them.
pub fn explore(exe: &Executable, seeds: u64, options: impl Fn() -> RunOptions, argv: &[String], map: &SourceMap) -> Vec<Outcome> {
    let mut outcomes: Vec<Outcome> = Vec::new();
    for seed in 0..seeds {
        let out = Capture::new();
        let mut o = options();
        o.stdout = Some(out.sink());
        o.stderr = Some(Capture::new().sink());
        o.memory_model = Some(Box::new(WeakMemory::new(seed)));
        o.accelerator = None;
        o.device.schedule = Some(seed);
        // Seed 0 runs the gangs, workers and lanes in their natural order (the default run's);
        // the others in seeded orders.
        o.device.gang_order = (seed != 0).then_some(seed);
        o.device.thread_order = (seed != 0).then_some(seed);
        let ran = exe.run(o, argv.to_vec());
        let stdout = out.text();
        let status = ran.exit_code();
        let error = ran.diagnostic().map(|d| {
            let at = d.primary.map(|l| format!("{}:{}:{}: ", map.name(l.file), l.line, l.col)).unwrap_or_default();
            format!("{at}{}", d.headline())
        });
        match outcomes.iter_mut().find(|x| x.stdout == stdout && x.status == status && x.error == error) {
            Some(x) => x.seeds.push(seed),
            None => outcomes.push(Outcome { stdout, status, error, seeds: vec![seed] }),
        }
    }
    outcomes
}

/// The report `accsim explore` prints.
pub fn render(outcomes: &[Outcome], seeds: u64) -> String {
    let mut s = format!(
        "accsim explore: {seeds} schedule{} (seeds 0..{seeds}), {} distinct outcome{}\n",
        if seeds == 1 { "" } else { "s" },
        outcomes.len(),
        if outcomes.len() == 1 { "" } else { "s" },
    );
    for (i, o) in outcomes.iter().enumerate() {
        let seeds: Vec<String> = o.seeds.iter().map(|x| x.to_string()).collect();
        s += &format!("\noutcome {} of {}: {} schedule{}, exit status {}\n", i + 1, outcomes.len(), o.seeds.len(), if o.seeds.len() == 1 { "" } else { "s" }, o.status);
        s += &format!("  seeds: {}\n", seeds.join(" "));
        if let Some(e) = &o.error {
            s += &format!("  error: {e}\n");
        }
        s += "  stdout:\n";
        for line in o.stdout.lines() {
            s += &format!("    | {line}\n");
        }
        if !o.stdout.is_empty() && !o.stdout.ends_with('\n') {
            s += "    (no newline at end)\n";
        }
    }
    s
}
