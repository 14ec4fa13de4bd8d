//! Issue 14: every input in `fuzz/crashes/TARGET/` (crashes the fuzzers found, and the crashes,
//! hangs and internal errors the issue lists, as programs) replayed through its fuzz target
//! (`accsim::fuzzing`): each returns without a panic, an internal error or a hang. `.ci/run`
//! runs this with `cargo test --workspace`.

mod common;

use std::time::{Duration, Instant};

use accsim::fuzzing::TARGETS;
use common::*;

#[test]
fn crash_corpus_replays_cleanly() {
    let root = repo_root().join("fuzz").join("crashes");
    let mut replayed = 0;
    let mut problems = Vec::new();
    for (name, target) in TARGETS {
        let Ok(entries) = std::fs::read_dir(root.join(name)) else { continue };
        let mut files: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_file()).collect();
        files.sort();
        for f in files {
            let input = std::fs::read(&f).expect("read crash input");
            let start = Instant::now();
            let result = std::panic::catch_unwind(|| target(&input));
            replayed += 1;
            match result {
                Err(_) => problems.push(format!("{}: panicked", f.display())),
                Ok(Err(d)) => problems.push(format!("{}: {}", f.display(), d.0)),
                Ok(Ok(())) if start.elapsed() > Duration::from_secs(60) => problems.push(format!("{}: took {:?}", f.display(), start.elapsed())),
                Ok(Ok(())) => {}
            }
        }
    }
    assert!(replayed > 0, "no inputs in {}", root.display());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
