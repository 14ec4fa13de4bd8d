//! Issue 14, untrusted programs: `--sandbox`. The program's `getenv` sees only what `--env NAME`
//! passes; the preprocessor reads only the program's directory, the `-I` directories and the
//! system headers (symbolic links resolved), never shows what it read elsewhere, and is bounded
//! on endless input.

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use common::*;

fn sandboxed(dir: &TempDir, name: &str, src: &str, extra: &[&str], env: &[(&str, &str)]) -> common::Outcome {
    let p = dir.path().join(name);
    std::fs::write(&p, src).expect("write program");
    let mut cmd = Command::new(accsim_bin());
    cmd.arg("run").arg("--sandbox").args(extra).arg(&p);
    for (k, v) in env {
        cmd.env(k, v);
    }
    run_with_timeout(cmd, accsim_timeout()).expect("run accsim")
}

const PRINT_ENV: &str = "#include <stdio.h>\n#include <stdlib.h>\nint main(void) {\n  const char *t = getenv(\"GRADER_TOKEN\"), *l = getenv(\"LAB_INPUT\");\n  printf(\"%s %s\\n\", t ? t : \"(none)\", l ? l : \"(none)\");\n  return 0;\n}\n";

#[test]
fn getenv_sees_only_the_variables_passed_with_env() {
    let dir = TempDir::new("sandbox-env");
    let env = [("GRADER_TOKEN", "s3cret"), ("LAB_INPUT", "7")];
    let out = sandboxed(&dir, "env.c", PRINT_ENV, &[], &env);
    assert_eq!(out.status, 0, "{}", out.stderr_text());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "(none) (none)\n");
    let out = sandboxed(&dir, "env.c", PRINT_ENV, &["--env", "LAB_INPUT"], &env);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "(none) 7\n");
}

#[test]
fn includes_outside_the_allowed_directories_are_refused_without_their_text() {
    let dir = TempDir::new("sandbox-inc");
    let secret = TempDir::new("sandbox-secret");
    let secret_file = secret.path().join("token.h");
    std::fs::write(&secret_file, "GRADER-SECRET-TEXT\n").expect("write secret");
    let src = format!("#include \"{}\"\nint main(void) {{ return 0; }}\n", secret_file.display());
    let out = sandboxed(&dir, "inc.c", &src, &[], &[]);
    assert_eq!(out.status, 2, "{}", out.stderr_text());
    let err = out.stderr_text();
    assert!(err.contains("error[sandbox]"), "{err}");
    assert!(!err.contains("GRADER-SECRET-TEXT"), "the file's text is never shown: {err}");

    // A link in the program's directory to a file outside is outside.
    #[cfg(unix)]
    {
        let _ = std::os::unix::fs::symlink(&secret_file, dir.path().join("link.h"));
        let out = sandboxed(&dir, "lnk.c", "#include \"link.h\"\nint main(void) { return 0; }\n", &[], &[]);
        assert_eq!(out.status, 2, "{}", out.stderr_text());
        assert!(!out.stderr_text().contains("GRADER-SECRET-TEXT"));
    }

    // Headers next to the program, in -I directories and the system's are fine.
    std::fs::write(dir.path().join("mine.h"), "#define N 4\n").expect("write header");
    let out = sandboxed(&dir, "ok.c", "#include <stdio.h>\n#include \"mine.h\"\n#include \"token.h\"\nint main(void) { printf(\"%d\\n\", N); return 0; }\n", &["-I", &secret.path().display().to_string()], &[]);
    assert_eq!(out.status, 2, "token.h's text is not C, but -I allowed reading it: {}", out.stderr_text());
    assert!(!out.stderr_text().contains("error[sandbox]"), "{}", out.stderr_text());
    let out = sandboxed(&dir, "ok2.c", "#include <stdio.h>\n#include \"mine.h\"\nint main(void) { printf(\"%d\\n\", N); return 0; }\n", &[], &[]);
    assert_eq!(out.status, 0, "{}", out.stderr_text());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "4\n");
}

#[test]
fn endless_preprocessor_input_is_bounded() {
    let dir = TempDir::new("sandbox-zero");
    let start = Instant::now();
    let out = sandboxed(&dir, "zero.c", "#include \"/dev/zero\"\nint main(void) { return 0; }\n", &[], &[]);
    assert!(start.elapsed() < Duration::from_secs(30));
    assert!(out.status == 2 || out.status == 4, "a sandbox error or the time limit: {} {}", out.status, out.stderr_text());
    let out = sandboxed(&dir, "stdin.c", "#include \"/dev/stdin\"\nint main(void) { return 0; }\n", &[], &[]);
    assert_eq!(out.status, 2, "{}", out.stderr_text());
}

/// A message at a line a `#line` directive (C11 §6.10.4) or a hand-written line marker
/// (`# 1 "file" 1`, which `cc -E` passes on as it is) attributes to another file names that file
/// and line, but never quotes it: only the files the preprocessor read have their text shown
/// (issue 14). With and without `--sandbox`; the program is accepted under it, as by gcc.
#[test]
fn line_directives_never_make_accsim_read_the_file_they_name() {
    let dir = TempDir::new("sandbox-line");
    let secret = TempDir::new("sandbox-line-secret");
    let secret_file = secret.path().join("answers.txt");
    std::fs::write(&secret_file, "GRADER-SECRET-TEXT line one\nGRADER-SECRET-TEXT line two\n").expect("write secret");
    let named = secret_file.display().to_string();
    for (name, directive) in [("line.c", format!("#line 1 \"{named}\"")), ("marker.c", format!("# 1 \"{named}\" 1"))] {
        // A compile error (undeclared name) and a runtime error (out of bounds) after it.
        for (kind, body, status) in [("compile", "    return undeclared_name;", 2), ("run", "    int a[2] = {0};\n    return a[2];", 3)] {
            let src = format!("int main(void) {{\n{directive}\n{body}\n}}\n");
            for sandbox in [true, false] {
                let p = dir.path().join(name);
                std::fs::write(&p, &src).expect("write program");
                let mut cmd = Command::new(accsim_bin());
                cmd.arg("run").args(sandbox.then_some("--sandbox")).arg(&p);
                let out = run_with_timeout(cmd, accsim_timeout()).expect("run accsim");
                let err = out.stderr_text();
                let what = format!("{name}, {kind} error, sandbox {sandbox}");
                assert_eq!(out.status, status, "{what}: {err}");
                assert!(err.contains(&format!("{named}:")), "{what}: the message names the file: {err}");
                assert!(!err.contains("GRADER-SECRET-TEXT"), "{what}: the file's text is never shown: {err}");
            }
        }
    }
}
