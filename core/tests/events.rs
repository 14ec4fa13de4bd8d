//! The event stream (docs/DESIGN.md "The event stream"): one `Event` per data-environment
//! operation, launch, loop schedule, wait, device thread change and access, in program order, to
//! every subscriber; accesses and thread events only to subscribers that ask for them and only
//! from an executable compiled for checking; the timeline's records derived from the same events.

use std::path::Path;
use std::sync::{Arc, Mutex};

use accsim_core::diag::SourceMap;
use accsim_core::driver::compile_files;
use accsim_core::exec::events::{Event, Record, RecordKind, Stamp, Subscriber, Timeline};
use accsim_core::exec::memory::Memory;
use accsim_core::exec::{self, Capture, RunOptions, RunOutcome};
use accsim_core::frontend::PreprocessOptions;

/// A `data copy(a)` region around a `parallel loop gang vector present(a)` (§2.6.5.1, §2.6.5.6,
/// §2.7).
const PROGRAM: &str = r#"#include <stdio.h>
int main(void) {
    float a[64];
    for (int i = 0; i < 64; i++) a[i] = i;
#pragma acc data copy(a)
    {
#pragma acc parallel loop gang vector present(a)
        for (int i = 0; i < 64; i++) a[i] = 2 * a[i];
    }
    printf("%.1f\n", a[10]);
    return 0;
}
"#;

fn program() -> accsim_core::driver::Compiled {
    // One directory per call: the tests of this file run at once in one process, and each
    // removes its directory when compiled (a shared one was removed under another test's
    // compile: "copy_scale.c: No such file or directory").
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("accsim-events-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("copy_scale.c");
    std::fs::write(&path, PROGRAM).expect("write the program");
    let mut map = SourceMap::new();
    let compiled = compile_files(&[path.to_string_lossy().into_owned()], &PreprocessOptions::default(), &mut map)
        .unwrap_or_else(|d| panic!("{}", d.iter().map(|d| d.render(&map, false)).collect::<String>()));
    let _ = std::fs::remove_dir_all(Path::new(&dir));
    compiled
}

/// Names the events it sees (with the variable where there is one).
struct Names {
    seen: Arc<Mutex<Vec<String>>>,
    device: bool,
}

impl Subscriber for Names {
    fn event(&mut self, _mem: &Memory, at: &Stamp<'_>, e: &Event<'_>) {
        let name = match e {
            Event::Created { name, .. } => format!("created {name}"),
            Event::Present { name, .. } => format!("present {name}"),
            Event::Released { name, .. } => format!("released {name}"),
            Event::Upload { var, .. } => format!("upload {}", var.unwrap_or("?")),
            Event::Download { var, .. } => format!("download {}", var.unwrap_or("?")),
            Event::LaunchBegin { gangs, .. } => format!("launch {gangs} gangs"),
            Event::LoopSchedule(l) => format!("schedule gang={} worker={} vector={} seq={}", l.gang, l.worker, l.vector, l.seq),
            Event::LaunchEnd { .. } => "end".into(),
            Event::Launched { .. } => format!("launched in {}", at.function),
            Event::Thread(_) => "thread".into(),
            Event::Access(_) => "access".into(),
            other => format!("{other:?}"),
        };
        if let Ok(mut v) = self.seen.lock() {
            v.push(name);
        }
    }

    fn device_events(&self) -> bool {
        self.device
    }
}

fn run(exe: &exec::Executable, device: bool) -> (Vec<String>, Vec<Record>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let records = Arc::new(Mutex::new(Vec::new()));
    let keep = records.clone();
    let out = Capture::new();
    let options = RunOptions {
        subscribers: vec![
            Box::new(Names { seen: seen.clone(), device }),
            Box::new(Timeline(move |r: &Record| keep.lock().unwrap().push(r.clone()))),
        ],
        stdout: Some(out.sink()),
        ..Default::default()
    };
    let outcome = exe.run(options, vec!["copy_scale".into()]);
    assert!(matches!(outcome, RunOutcome::Exited(0)), "{outcome:?}");
    assert_eq!(out.text(), "20.0\n");
    let seen = seen.lock().unwrap().clone();
    let records = records.lock().unwrap().clone();
    (seen, records)
}

#[test]
fn every_subscriber_sees_the_data_environment_launches_and_loop_schedules_in_order() {
    let compiled = program();
    let exe = exec::compile(&compiled.program, &compiled.info).expect("compiles");
    let (seen, records) = run(&exe, false);
    assert_eq!(
        seen,
        [
            "created a",
            "upload a",
            "present a",
            // 64 iterations, one gang per vector length of 32 (`kernel::gang_count`, §2.5.6).
            "launch 2 gangs",
            "schedule gang=true worker=false vector=true seq=false",
            "end",
            "launched in main",
            "download a",
            "released a",
        ],
        "no accesses or thread events for a subscriber that did not ask for them"
    );
    // The timeline's records come from the same events, with the model clock.
    let kinds: Vec<&str> = records
        .iter()
        .map(|r| match r.kind {
            RecordKind::Alloc { .. } => "alloc",
            RecordKind::Upload { .. } => "upload",
            RecordKind::Launch { .. } => "launch",
            RecordKind::Download { .. } => "download",
            RecordKind::Free { .. } => "free",
            RecordKind::Wait { .. } => "wait",
        })
        .collect();
    assert_eq!(kinds, ["alloc", "upload", "launch", "download", "free"]);
    assert_eq!(records[1].dur_ns, 1000 + 256 / 10, "a transfer of 256 bytes: 1 µs + bytes / 10 GB/s");
    assert!(records.windows(2).all(|w| w[0].start_ns + w[0].dur_ns <= w[1].start_ns), "in clock order: {records:?}");
}

#[test]
fn accesses_and_device_threads_reach_only_the_subscribers_that_ask() {
    let compiled = program();
    let exe = exec::compile_for_checking(&compiled.program, &compiled.info).expect("compiles");
    let (seen, _) = run(&exe, true);
    let begin = seen.iter().position(|s| s.starts_with("launch ")).expect("a launch");
    let end = seen.iter().position(|s| s == "end").expect("its end");
    let kernel = &seen[begin..end];
    assert!(kernel.iter().filter(|s| *s == "thread").count() >= 8, "a gang start per gang at least: {kernel:?}");
    assert!(kernel.iter().filter(|s| *s == "access").count() >= 128, "a load and a store per element: {kernel:?}");
    assert!(seen[..begin].contains(&"access".to_string()), "the host's accesses too");
}
