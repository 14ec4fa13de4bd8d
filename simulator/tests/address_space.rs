//! A run under a limit on the process's address space (`ulimit -v`, as graders and sandboxes
//! set): memory the system refuses ends the program with the memory-limit diagnostic (exit 4),
//! never an abort of accsim — a heap block, the slabs small blocks live in, the native engine's
//! span tables — and an address space too small for the interpreter's stack is said so
//! (exit 4), not reported as an internal error.

#![cfg(target_os = "linux")]

mod common;

use std::process::Command;

use common::*;

/// `accsim run ARGS PROG` (PROG written from `src`) in a shell whose address space is capped at
/// `kib` KiB.
fn run_capped(dir: &TempDir, name: &str, src: &str, kib: u64, args: &[&str]) -> Outcome {
    let p = dir.path().join(name);
    std::fs::write(&p, src).expect("write program");
    let mut cmd = Command::new("sh");
    cmd.arg("-c").arg(format!("ulimit -v {kib} && exec \"$0\" run \"$@\"")).arg(accsim_bin()).args(args).arg(&p);
    run_with_timeout(cmd, accsim_timeout()).expect("run accsim")
}

/// Refused memory: exit 4 with the system's refusal named, and no abort message.
fn assert_refused(out: &Outcome) {
    let err = out.stderr_text();
    assert_eq!(out.status, 4, "{err}");
    assert!(err.contains("the system gave accsim no more"), "{err}");
    assert!(!err.contains("memory allocation of"), "an abort: {err}");
}

const LEAK: &str = "#include <stdio.h>\n#include <stdlib.h>\nint main(void) {\n  long n = 0;\n  for (;;) {\n    char *p = malloc(24);\n    if (!p) { printf(\"null after %ld\\n\", n); return 1; }\n    p[0] = 1;\n    n++;\n  }\n}\n";

const BIG: &str = "#include <stdio.h>\n#include <stdlib.h>\nint main(void) {\n  char *p = malloc((size_t)1 << 30);\n  printf(\"%d\\n\", p != NULL);\n  return 0;\n}\n";

#[test]
fn small_blocks_past_the_address_space_end_with_the_memory_limit() {
    let dir = TempDir::new("ulimit-leak");
    for engine in ["native", "interp"] {
        let out = run_capped(&dir, "leak.c", LEAK, 1_600_000, &["--engine", engine, "--max-memory", "1000000000000"]);
        assert_refused(&out);
    }
    // 100-byte blocks with 3 GB of address space: the slabs' next block is what the system
    // refuses first (accsim aborted there: "memory allocation of 10485760 bytes failed").
    let out = run_capped(&dir, "leak100.c", &LEAK.replace("malloc(24)", "malloc(100)"), 3_000_000, &["--max-memory", "1000000000000"]);
    assert_refused(&out);
}

#[test]
fn a_block_larger_than_the_address_space_left_ends_with_the_memory_limit() {
    let dir = TempDir::new("ulimit-big");
    let out = run_capped(&dir, "big.c", BIG, 1_600_000, &["--max-memory", "1000000000000"]);
    assert_refused(&out);
}

#[test]
fn no_room_for_the_interpreters_stack_is_said_so() {
    let dir = TempDir::new("ulimit-stack");
    let out = run_capped(&dir, "big.c", BIG, 600_000, &[]);
    let err = out.stderr_text();
    assert_eq!(out.status, 4, "{err}");
    assert!(err.contains("cannot start") && err.contains("ulimit -v"), "{err}");
    assert!(!err.contains("internal error"), "{err}");
}
