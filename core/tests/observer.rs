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
    (exec::compile(&compiled.program, &compiled.info).expect("compiles"), map)
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

fn compile_text(name: &str, text: &str) -> (accsim_core::driver::Compiled, exec::Executable) {
    let dir = std::env::temp_dir().join(format!("accsim-observer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    let mut map = SourceMap::new();
    let compiled = compile_files(&[path.to_string_lossy().into_owned()], &PreprocessOptions::default(), &mut map)
        .unwrap_or_else(|d| panic!("{}", d.iter().map(|d| d.render(&map, false)).collect::<String>()));
    let exe = exec::compile(&compiled.program, &compiled.info).expect("compiles");
    (compiled, exe)
}

/// Records, before each statement of `main`, the line, `x` and the bytes of `a`.
struct Inspector {
    x: u32,
    a: u32,
    seen: Arc<Mutex<Vec<(u32, i64, Vec<u8>)>>>,
}

impl Observer for Inspector {
    fn on_step(&mut self, _: Loc, _: usize) -> Control {
        Control::Continue
    }
    fn on_step_inspect(&mut self, view: &exec::inspect::MachineView<'_>) -> Control {
        use exec::inspect::LocalValue;
        if view.function_name() == "main" {
            let x = match view.local(self.x) {
                Some(LocalValue::Register(v)) => v as i32 as i64,
                _ => -1,
            };
            let a = match view.local(self.a) {
                Some(LocalValue::Memory(p)) => view.load_bytes(p, 3).unwrap_or_default(),
                _ => Vec::new(),
            };
            self.seen.lock().unwrap().push((view.loc().line, x, a));
        }
        Control::Continue
    }
}

#[test]
fn the_inspect_hook_reads_registers_and_memory_locals() {
    let src = "int main(void) {\n  char a[3] = {1, 2, 3};\n  int x = 5;\n  a[1] = 9;\n  x = x + 1;\n  return x - 6;\n}\n";
    let (compiled, exe) = compile_text("inspect.c", src);
    let program = compiled.program;
    let f = &program.functions[program.main.unwrap().0 as usize];
    let index = |n: &str| f.locals.iter().position(|l| l.name == n).unwrap() as u32;
    let seen = Arc::new(Mutex::new(Vec::new()));
    let observer = Inspector { x: index("x"), a: index("a"), seen: seen.clone() };
    let outcome = exe.run(RunOptions { observer: Some(Box::new(observer)), ..Default::default() }, vec!["t".into()]);
    assert!(matches!(outcome, RunOutcome::Exited(0)), "{outcome:?}");
    let seen = seen.lock().unwrap().clone();
    let at = |line: u32| seen.iter().find(|s| s.0 == line).cloned().unwrap();
    // Before line 5 runs, x is 5 and a[1] has been written; before the return, x is 6.
    assert_eq!(at(5), (5, 5, vec![1, 9, 3]));
    assert_eq!(at(6).1, 6);
}

/// In a kernel, the scheduled loop's temporaries say which thread runs which iteration.
struct Iterations {
    kernel: u32,
    temps: accsim_core::ir::acc::LoopTemps,
    body_line: u32,
    seen: Arc<Mutex<Vec<(u64, u64, u64, u64)>>>,
}

impl Observer for Iterations {
    fn on_step(&mut self, _: Loc, _: usize) -> Control {
        Control::Continue
    }
    fn on_step_inspect(&mut self, view: &exec::inspect::MachineView<'_>) -> Control {
        use exec::inspect::LocalValue;
        if view.function() == self.kernel && view.loc().line == self.body_line {
            let reg = |l: u32| match view.local(l) {
                Some(LocalValue::Register(v)) => v,
                _ => u64::MAX,
            };
            let gang = reg(0);
            let k = reg(self.temps.iteration.0);
            let lane = reg(self.temps.lane.0);
            let n = reg(self.temps.iterations.0);
            self.seen.lock().unwrap().push((gang, lane, k, n));
        }
        Control::Continue
    }
}

#[test]
fn loop_temporaries_name_the_thread_of_each_iteration() {
    let src = "int main(void) {\n  int a[10];\n#pragma acc parallel loop gang vector num_gangs(2) vector_length(4) copyout(a)\n  for (int i = 0; i < 10; i++)\n    a[i] = i;\n  return a[9] - 9;\n}\n";
    let (compiled, exe) = compile_text("iterations.c", src);
    let kernel = &compiled.program.kernels[0];
    let temps = compiled.info.loops(accsim_core::ir::acc::KernelId(0)).first().and_then(|l| l.temps).expect("scheduled loop has temporaries");
    let seen = Arc::new(Mutex::new(Vec::new()));
    let observer = Iterations { kernel: kernel.func.0, temps, body_line: 5, seen: seen.clone() };
    let outcome = exe.run(RunOptions { observer: Some(Box::new(observer)), ..Default::default() }, vec!["t".into()]);
    assert!(matches!(outcome, RunOutcome::Exited(0)), "{outcome:?}");
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 10, "{seen:?}");
    for (gang, lane, k, n) in seen {
        assert_eq!(n, 10);
        // Gang g runs the block [g*10/2, (g+1)*10/2) (the fast share's blocks, so that `check`
        // and `run` put each iteration on the same gang); its 4 lanes take it round by round.
        let first = gang * 10 / 2;
        assert!((first..(gang + 1) * 10 / 2).contains(&k), "iteration {k} on gang {gang}");
        assert_eq!((k - first) % 4, lane, "iteration {k}");
    }
}
