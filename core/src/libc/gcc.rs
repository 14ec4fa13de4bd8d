//! Test support: compile and run a C program with the system's gcc, for differential tests
//! against glibc.

use std::path::PathBuf;
use std::process::Command;

/// Compile `source` with gcc and return what the program prints on stdout, or `None` (after
/// saying why on stderr) when gcc is not available, so the calling test can skip itself.
pub fn run_c_program(name: &str, source: &str) -> Option<Vec<u8>> {
    if Command::new("gcc").arg("--version").output().is_err() {
        eprintln!("skipping the differential test {name}: gcc is not installed");
        return None;
    }
    let dir: PathBuf =
        std::env::temp_dir().join(format!("accsim-libc-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create a temporary directory");
    let c_file = dir.join("prog.c");
    let exe = dir.join("prog");
    std::fs::write(&c_file, source).expect("write the C program");
    let compile = Command::new("gcc")
        .args(["-O0", "-w", "-fno-builtin", "-o"])
        .arg(&exe)
        .arg(&c_file)
        .arg("-lm")
        .output()
        .expect("run gcc");
    assert!(
        compile.status.success(),
        "gcc failed on the generated program {}:\n{}",
        c_file.display(),
        String::from_utf8_lossy(&compile.stderr)
    );
    let run = Command::new(&exe)
        .env("LC_ALL", "C")
        .output()
        .expect("run the compiled program");
    assert!(
        run.status.success(),
        "the generated program {} failed: {:?}",
        c_file.display(),
        run.status
    );
    let _ = std::fs::remove_dir_all(&dir);
    Some(run.stdout)
}

/// `bytes` as a C string literal.
pub fn c_string_literal(bytes: &[u8]) -> String {
    let mut s = String::from("\"");
    for &b in bytes {
        match b {
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            b'?' => s.push_str("\\?"), // no trigraphs
            0x20..=0x7e => s.push(b as char),
            _ => s.push_str(&format!("\\{b:03o}")),
        }
    }
    s.push('"');
    s
}
