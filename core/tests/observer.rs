//! The interpreter can pause at every statement through the observer hook (DESIGN.md "Execution"):
//! stepping through `samples/c/hello.c` sees its statements in execution order, and an observer
//! can stop the run.

use std::path::Path;
use std::sync::{Arc, Mutex};

use accsim_core::diag::{Loc, SourceMap};
use accsim_core::driver::compile_files;
use accsim_core::exec::{self, Capture, Control, Observer, RunOptions, RunOutcome};
use accsim_core::frontend::PreprocessOptions;

struct Lines {
    seen: Arc<Mutex<Vec<(u32, usize)>>>,
    stop_after: Option<usize>,
}

impl Observer for Lines {
    fn on_step(&mut self, loc: Loc, depth: usize) -> Control {
        let mut seen = self.seen.lock().unwrap();
        seen.push((loc.line, depth));
        match self.stop_after {
            Some(n) if seen.len() >= n => Control::Stop,
            _ => Control::Continue,
        }
    }
}

fn hello() -> (exec::Executable, SourceMap) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/c/hello.c");
    let mut map = SourceMap::new();
    let compiled = compile_files(&[path.to_string_lossy().into_owned()], &PreprocessOptions::default(), &mut map)
        .unwrap_or_else(|d| panic!("{}", d.iter().map(|d| d.render(&map, false)).collect::<String>()));
    (exec::compile(&compiled.program).expect("compiles"), map)
}

#[test]
fn stepping_sees_the_statements_in_order() {
    let (exe, _) = hello();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let out = Capture::new();
    let options = RunOptions {
        observer: Some(Box::new(Lines { seen: seen.clone(), stop_after: None })),
        stdout: Some(out.sink()),
        ..Default::default()
    };
    let outcome = exe.run(options, vec!["hello".into()]);
    assert!(matches!(outcome, RunOutcome::Exited(0)), "{outcome:?}");
    assert_eq!(out.text(), "Hello from accsim!\nsum of 1..100 = 5050\n");
    let lines: Vec<u32> = seen.lock().unwrap().iter().map(|(l, _)| *l).collect();
    // hello.c: 7 `int sum = 0;`, 8 the for loop (init, then its test before every iteration),
    // 9 `sum += i;`, 10 and 11 the printfs, 12 `return 0;`.
    assert_eq!(lines.first(), Some(&7), "{lines:?}");
    assert_eq!(lines.iter().filter(|&&l| l == 9).count(), 100, "the loop body runs 100 times: {lines:?}");
    let tail: Vec<u32> = lines.iter().rev().take(3).rev().copied().collect();
    assert_eq!(tail, vec![10, 11, 12], "{lines:?}");
    // Body statements alternate with the loop's test.
    let first_body = lines.iter().position(|&l| l == 9).unwrap();
    assert!(lines[..first_body].contains(&8), "{lines:?}");
    assert!(seen.lock().unwrap().iter().all(|(_, d)| *d == 1), "all in main (depth 1)");
}

#[test]
fn an_observer_can_stop_the_run() {
    let (exe, _) = hello();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let out = Capture::new();
    let options = RunOptions {
        observer: Some(Box::new(Lines { seen: seen.clone(), stop_after: Some(5) })),
        stdout: Some(out.sink()),
        ..Default::default()
    };
    let outcome = exe.run(options, vec!["hello".into()]);
    assert!(matches!(outcome, RunOutcome::Stopped), "{outcome:?}");
    assert_eq!(seen.lock().unwrap().len(), 5);
    assert_eq!(out.text(), "", "stopped before any printf");
}
