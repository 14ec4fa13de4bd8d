//! Vectorised loops (core/src/exec/compile/vector.rs) compute what the ordinary loops compute:
//! an observed run, which always runs loops one iteration at a time, prints the same output as an
//! unobserved one, and a step limit that falls inside a vectorised loop stops both runs at the
//! same statement with the same output (steps are charged as the ordinary loop charges them).

use std::path::Path;

use accsim_core::diag::{Loc, SourceMap};
use accsim_core::driver::compile_files;
use accsim_core::exec::{self, Capture, Control, Observer, RunOptions, RunOutcome};
use accsim_core::frontend::PreprocessOptions;

/// Sees every statement and lets the run go on.
struct Watch;

impl Observer for Watch {
    fn on_step(&mut self, _loc: Loc, _depth: usize) -> Control {
        Control::Continue
    }
}

fn sample() -> exec::Executable {
    sample_named("vector_loops.c")
}

fn sample_named(name: &str) -> exec::Executable {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/c").join(name);
    let mut map = SourceMap::new();
    let compiled = compile_files(&[path.to_string_lossy().into_owned()], &PreprocessOptions::default(), &mut map)
        .unwrap_or_else(|d| panic!("{}", d.iter().map(|d| d.render(&map, false)).collect::<String>()));
    exec::compile(&compiled.program, &compiled.info).expect("compiles")
}

/// The outcome (as text) and the output of a run, observed or not, with an optional step limit.
fn run(exe: &exec::Executable, observed: bool, max_steps: Option<u64>) -> (String, String) {
    let out = Capture::new();
    let options = RunOptions {
        observer: observed.then(|| Box::new(Watch) as Box<dyn Observer>),
        stdout: Some(out.sink()),
        max_steps,
        ..Default::default()
    };
    let outcome = exe.run(options, vec!["vector_loops".into()]);
    (format!("{outcome:?}"), out.text())
}

#[test]
fn vectorised_loops_match_the_observed_run() {
    let exe = sample();
    let (plain, text) = run(&exe, false, None);
    assert!(plain == format!("{:?}", RunOutcome::Exited(0)), "{plain}");
    assert_eq!(text.lines().count(), 13, "{text}");
    let (observed, observed_text) = run(&exe, true, None);
    assert_eq!(plain, observed);
    assert_eq!(text, observed_text);
}

#[test]
fn a_step_limit_inside_a_vectorised_loop_stops_where_the_ordinary_loop_stops() {
    let exe = sample();
    // Limits spread over the program's loops (it takes about 60 000 steps).
    for limit in [3_001, 7_777, 12_345, 20_000, 31_337, 40_000, 45_678, 50_000, 55_000, 58_000] {
        let (plain, text) = run(&exe, false, Some(limit));
        let (observed, observed_text) = run(&exe, true, Some(limit));
        assert!(plain.contains("Limit"), "limit {limit}: {plain}");
        assert_eq!(plain, observed, "limit {limit}");
        assert_eq!(text, observed_text, "limit {limit}");
    }
}

#[test]
fn loops_accumulating_through_a_constant_nest_match_the_observed_run_and_its_step_limits() {
    let exe = sample_named("vector_nests.c");
    let (plain, text) = run(&exe, false, None);
    assert!(plain == format!("{:?}", RunOutcome::Exited(0)), "{plain}");
    assert_eq!(text.lines().count(), 5, "{text}");
    let (observed, observed_text) = run(&exe, true, None);
    assert_eq!((plain, text), (observed, observed_text));
    // Limits inside the 5x5 nest (about 80 steps a point) and the later loops.
    for limit in [5_000, 33_333, 61_001, 90_017, 110_000, 123_457, 131_000, 140_000, 150_001] {
        let (plain, text) = run(&exe, false, Some(limit));
        let (observed, observed_text) = run(&exe, true, Some(limit));
        assert_eq!(plain, observed, "limit {limit}");
        assert_eq!(text, observed_text, "limit {limit}");
    }
}
