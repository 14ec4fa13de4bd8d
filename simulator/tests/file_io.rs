//! Issue 14, file I/O: a program opens files with glibc's behaviour where `--allow-read` and
//! `--allow-write` grant them under `--sandbox` (a directory grants what is below it; links are
//! resolved before the check), and nothing else: a refused `fopen` is NULL with errno EACCES.
//! Without `--sandbox` a program opens what the user may (as a compiled program). What a file
//! holds counts against `--max-memory`; `system`, `popen`, `exec*` and sockets stay link errors.
//! The lab programs reading images and matrices are samples/regress/file_io_*.c.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::*;

fn accsim_in(dir: &TempDir, args: &[&str]) -> common::Outcome {
    let mut cmd = Command::new(accsim_bin());
    cmd.current_dir(dir.path()).args(args);
    run_with_timeout(cmd, accsim_timeout()).expect("run accsim")
}

fn stdout(o: &common::Outcome) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Writes results (fprintf, fputs, fputc, fwrite), reads them back (fgets, fseek, ftell,
/// rewind), appends, and reports what fopen refuses.
const WRITER: &str = r#"#include <errno.h>
#include <stdio.h>
#include <string.h>

static void try_open(const char *path, const char *mode) {
    errno = 0;
    FILE *f = fopen(path, mode);
    printf("fopen(%s, %s): %s", path, mode, f ? "ok" : "NULL");
    if (!f)
        printf(" (%s)", strerror(errno));
    printf("\n");
    if (f)
        fclose(f);
}

int main(void) {
    FILE *o = fopen("out/results.txt", "w");
    if (!o) {
        perror("out/results.txt");
        return 1;
    }
    double t[3] = {0.5, 1.25, 2.0};
    for (int i = 0; i < 3; i++)
        fprintf(o, "t[%d] = %.3f\n", i, t[i]);
    fputs("end", o);
    fputc('\n', o);
    fwrite("raw\n", 1, 4, o);
    printf("ftell %ld\n", ftell(o));
    fclose(o);
    FILE *a = fopen("out/results.txt", "a");
    fprintf(a, "appended\n");
    fclose(a);
    FILE *r = fopen("out/results.txt", "r");
    char line[80];
    int n = 0;
    while (fgets(line, sizeof line, r))
        n++;
    printf("%d lines, eof %d\n", n, feof(r) != 0);
    fseek(r, -9, SEEK_END);
    printf("last: %s", fgets(line, sizeof line, r));
    rewind(r);
    printf("first: %s", fgets(line, sizeof line, r));
    printf("fputs to a file open to read: %d\n", fputs("x", r));
    fclose(r);
    try_open("in/data.txt", "r");
    try_open("in/data.txt", "w");
    try_open("in/link_out.txt", "r");
    try_open("in/../secret/token.txt", "r");
    try_open("secret/token.txt", "r");
    try_open("secret/missing.txt", "r");
    try_open("out/new/deeper.txt", "w");
    try_open("out", "r");
    try_open("in/data.txt", "q");
    return 0;
}
"#;

fn writer_dir() -> TempDir {
    let dir = TempDir::new("fileio-writer");
    for d in ["in", "out", "secret"] {
        std::fs::create_dir_all(dir.path().join(d)).expect("mkdir");
    }
    std::fs::write(dir.path().join("in/data.txt"), "1 2 3\n").expect("write data");
    std::fs::write(dir.path().join("secret/token.txt"), "GRADER-SECRET\n").expect("write secret");
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.path().join("secret/token.txt"), dir.path().join("in/link_out.txt")).expect("symlink");
    std::fs::write(dir.path().join("writer.c"), WRITER).expect("write program");
    dir
}

#[test]
fn granted_files_are_written_and_read_as_with_glibc_and_the_rest_is_refused() {
    let dir = writer_dir();
    let out = accsim_in(&dir, &["run", "--sandbox", "--allow-read", "in", "--allow-read", "out", "--allow-write", "out", "writer.c"]);
    assert_eq!(out.status, 0, "{}", out.stderr_text());
    let text = stdout(&out);
    let written = std::fs::read_to_string(dir.path().join("out/results.txt")).expect("the program wrote its results");
    assert_eq!(written, "t[0] = 0.500\nt[1] = 1.250\nt[2] = 2.000\nend\nraw\nappended\n");
    let expected_head = "ftell 47\n6 lines, eof 1\nlast: appended\nfirst: t[0] = 0.500\nfputs to a file open to read: -1\nfopen(in/data.txt, r): ok\n";
    assert!(text.starts_with(expected_head), "{text}");
    for refused in [
        "fopen(in/data.txt, w): NULL (Permission denied)",
        "fopen(in/link_out.txt, r): NULL (Permission denied)",
        "fopen(in/../secret/token.txt, r): NULL (Permission denied)",
        "fopen(secret/token.txt, r): NULL (Permission denied)",
        "fopen(secret/missing.txt, r): NULL (Permission denied)",
        "fopen(out/new/deeper.txt, w): NULL (No such file or directory)",
        "fopen(out, r): NULL (Is a directory)",
        "fopen(in/data.txt, q): NULL (Invalid argument)",
    ] {
        assert!(text.contains(refused), "missing `{refused}` in:\n{text}");
    }
    assert!(!text.contains("GRADER-SECRET"));

    // The same program with gcc and glibc, where a C compiler is here: the same lines, except
    // what the sandbox refuses.
    if let Ok(cc) = std::env::var("CC").or_else(|_| Ok::<_, ()>("cc".into())) {
        let exe = dir.path().join("writer-native");
        let built = Command::new(&cc).arg("-o").arg(&exe).arg(dir.path().join("writer.c")).status();
        if built.is_ok_and(|s| s.success()) {
            std::fs::remove_file(dir.path().join("out/results.txt")).expect("remove results");
            let native = Command::new(&exe).current_dir(dir.path()).output().expect("run the native program");
            let native = String::from_utf8_lossy(&native.stdout).into_owned();
            assert!(native.starts_with(expected_head), "gcc's program printed:\n{native}");
            assert!(native.contains("fopen(out, r): ok"), "glibc opens a directory to read: {native}");
        }
    }
}

#[test]
fn without_sandbox_a_program_opens_what_the_user_may() {
    let dir = writer_dir();
    let out = accsim_in(&dir, &["run", "writer.c"]);
    assert_eq!(out.status, 0, "{}", out.stderr_text());
    let text = stdout(&out);
    assert!(text.contains("fopen(secret/token.txt, r): ok"), "{text}");
    assert!(text.contains("fopen(in/link_out.txt, r): ok"), "{text}");
    assert!(text.contains("fopen(secret/missing.txt, r): NULL (No such file or directory)"), "{text}");
}

#[test]
fn scanf_reads_stdin() {
    let dir = TempDir::new("fileio-stdin");
    let src = "#include <stdio.h>\nint main(void) {\n  int n; double s = 0, x;\n  char name[16];\n  if (scanf(\"%15s %d\", name, &n) != 2) return 1;\n  for (int i = 0; i < n; i++) { if (scanf(\"%lf\", &x) != 1) return 2; s += x; }\n  int c = getchar();\n  char rest[32];\n  printf(\"%s: %d values, sum %g, next %d, rest %s\", name, n, s, c, fgets(rest, sizeof rest, stdin));\n  printf(\"then %d %d\\n\", scanf(\"%d\", &n), getchar());\n  return 0;\n}\n";
    std::fs::write(dir.path().join("sum.c"), src).expect("write program");
    let mut child = Command::new(accsim_bin())
        .current_dir(dir.path())
        .args(["run", "--sandbox", "sum.c"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start accsim");
    child.stdin.take().expect("stdin").write_all(b"lab4 3\n1.5 2.5\n-1\nthe end\n").expect("write stdin");
    let out = child.wait_with_output().expect("accsim ends");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "lab4: 3 values, sum 3, next 10, rest the end\nthen -1 -1\n");
}

#[test]
fn an_open_file_counts_against_max_memory() {
    let dir = TempDir::new("fileio-memory");
    std::fs::write(dir.path().join("big.bin"), vec![7u8; 4 << 20]).expect("write big file");
    let src = "#include <stdio.h>\nint main(void) {\n  FILE *f = fopen(\"big.bin\", \"rb\");\n  printf(\"%d\\n\", f != 0);\n  return 0;\n}\n";
    std::fs::write(dir.path().join("big.c"), src).expect("write program");
    let out = accsim_in(&dir, &["run", "--max-memory", "1000000", "big.c"]);
    assert_eq!(out.status, 4, "{}", out.stderr_text());
    assert!(out.stderr_text().contains("memory limit"), "{}", out.stderr_text());
    assert!(out.stderr_text().contains("big.c:3"), "at the fopen: {}", out.stderr_text());
    let out = accsim_in(&dir, &["run", "--max-memory", "100000000", "big.c"]);
    assert_eq!(out.status, 0, "{}", out.stderr_text());
}

#[test]
fn commands_and_sockets_stay_link_errors_naming_the_call() {
    let dir = TempDir::new("fileio-system");
    for call in ["system(\"ls\")", "popen(\"ls\", \"r\")", "execl(\"/bin/ls\", \"ls\", (char *)0)", "socket(2, 1, 0)"] {
        let src = format!("#include <stdio.h>\n#include <stdlib.h>\n#include <unistd.h>\n#include <sys/socket.h>\nint main(void) {{\n  {call};\n  return 0;\n}}\n");
        std::fs::write(dir.path().join("call.c"), src).expect("write program");
        let out = accsim_in(&dir, &["run", "call.c"]);
        let name = call.split('(').next().unwrap_or_default();
        assert_eq!(out.status, 2, "{call}: {}", out.stderr_text());
        assert!(out.stderr_text().contains(&format!("undefined reference to `{name}`")), "{}", out.stderr_text());
        assert!(out.stderr_text().contains("call.c:6"), "{}", out.stderr_text());
    }
}

/// `ungetc` (pushed-back bytes read first, `ftell` counting each, EOF cleared), `remove` (a file,
/// an empty directory with errno EISDIR left set, a full one refused), `rename`, and `freopen` of
/// a file and of `stdin`, as glibc does them (the report below is compared with gcc's program).
const UNGET_RENAME: &str = r#"#include <errno.h>
#include <stdio.h>
#include <string.h>

static void report(const char *what, long r) {
    printf("%s: %ld (%s)\n", what, r, strerror(errno));
    errno = 0;
}

int main(void) {
    FILE *f = fopen("work/ug.txt", "w");
    fputs("abc", f);
    fclose(f);
    f = fopen("work/ug.txt", "r");
    report("ungetc x", ungetc('x', f));
    report("ftell", ftell(f));
    report("fgetc", fgetc(f));
    report("fgetc", fgetc(f));
    report("ungetc a (the byte read)", ungetc('a', f));
    report("ftell", ftell(f));
    report("ungetc z", ungetc('z', f));
    report("ftell", ftell(f));
    report("ungetc y", ungetc('y', f));
    report("ftell", ftell(f));
    char buf[32];
    printf("fgets: %s\n", fgets(buf, sizeof buf, f));
    report("ftell", ftell(f));
    report("feof", feof(f) != 0);
    report("ungetc EOF", ungetc(EOF, f));
    report("feof", feof(f) != 0);
    report("ungetc q", ungetc('q', f));
    report("feof", feof(f) != 0);
    report("fgetc", fgetc(f));
    fseek(f, 1, SEEK_SET);
    ungetc('m', f);
    fseek(f, 0, SEEK_CUR);
    report("fgetc after a seek", fgetc(f));
    fclose(f);
    report("remove missing", remove("work/missing.txt"));
    report("rename", rename("work/ug.txt", "work/ug2.txt"));
    report("rename missing", rename("work/ug.txt", "work/ug3.txt"));
    report("rename into a missing directory", rename("work/ug2.txt", "work/none/ug.txt"));
    report("remove", remove("work/ug2.txt"));
    report("remove an empty directory", remove("work/empty"));
    report("remove a full directory", remove("work/full"));
    FILE *g = fopen("work/fr.txt", "w");
    fputs("one\ntwo\n", g);
    FILE *h = freopen("work/fr.txt", "r", g);
    printf("freopen keeps the FILE: %d\n", h == g);
    printf("read: %s", fgets(buf, sizeof buf, h));
    FILE *k = freopen("work/none/x.txt", "r", h);
    report("freopen of a missing file", k == NULL);
    FILE *in = freopen("work/fr.txt", "r", stdin);
    int n = scanf("%31s", buf);
    printf("stdin: %d %s %d\n", n, buf, in == stdin);
    n = scanf("%31s", buf);
    printf("stdin: %d %s, ftell %ld\n", n, buf, ftell(stdin));
    return 0;
}
"#;

fn unget_dir() -> TempDir {
    let dir = TempDir::new("fileio-unget");
    for d in ["work/empty", "work/full", "keep"] {
        std::fs::create_dir_all(dir.path().join(d)).expect("mkdir");
    }
    std::fs::write(dir.path().join("work/full/x"), "x").expect("write");
    std::fs::write(dir.path().join("keep/kept.txt"), "kept\n").expect("write");
    std::fs::write(dir.path().join("unget.c"), UNGET_RENAME).expect("write program");
    dir
}

#[test]
fn ungetc_remove_rename_and_freopen_behave_as_with_glibc() {
    let dir = unget_dir();
    let out = accsim_in(&dir, &["run", "--sandbox", "--allow-read", "work", "--allow-write", "work", "unget.c"]);
    assert_eq!(out.status, 0, "{}", out.stderr_text());
    let text = stdout(&out);
    for line in [
        "ungetc x: 120 (Success)\nftell: 0 (Success)\nfgetc: 120 (Success)\nfgetc: 97 (Success)\n",
        "ungetc a (the byte read): 97 (Success)\nftell: 0 (Success)\nungetc z: 122 (Success)\nftell: -1 (Input/output error)\n",
        "fgets: yzabc\nftell: 3 (Success)\n",
        "remove missing: -1 (No such file or directory)\nrename: 0 (Success)\n",
        "remove an empty directory: 0 (Is a directory)\nremove a full directory: -1 (Directory not empty)\n",
        "freopen keeps the FILE: 1\nread: one\nfreopen of a missing file: 1 (No such file or directory)\nstdin: 1 one 1\nstdin: 1 two, ftell 7\n",
    ] {
        assert!(text.contains(line), "missing\n{line}in:\n{text}");
    }
    assert!(!dir.path().join("work/empty").exists() && dir.path().join("work/full/x").exists());

    // The same program with gcc and glibc, in a fresh copy of the directory: the same report.
    let native_dir = unget_dir();
    let exe = native_dir.path().join("unget-native");
    if Command::new("cc").arg("-o").arg(&exe).arg(native_dir.path().join("unget.c")).status().is_ok_and(|s| s.success()) {
        let native = Command::new(&exe).current_dir(native_dir.path()).output().expect("run the native program");
        assert_eq!(String::from_utf8_lossy(&native.stdout), text, "gcc's program and accsim differ");
    }
}

/// Under `--sandbox`, `remove` and `rename` change only what `--allow-write` grants (both names
/// of a rename); anything else is -1 with errno EACCES and stays as it was.
#[test]
fn remove_and_rename_change_only_granted_paths() {
    let dir = unget_dir();
    std::fs::write(dir.path().join("work/mine.txt"), "mine\n").expect("write");
    let src = r#"#include <errno.h>
#include <stdio.h>
#include <string.h>
static void report(const char *what, int r) { printf("%s: %d (%s)\n", what, r, strerror(errno)); errno = 0; }
int main(void) {
    report("remove outside", remove("keep/kept.txt"));
    report("remove missing outside", remove("keep/missing.txt"));
    report("rename out of the grant", rename("work/mine.txt", "keep/mine.txt"));
    report("rename into the grant", rename("keep/kept.txt", "work/kept.txt"));
    report("rename inside", rename("work/mine.txt", "work/yours.txt"));
    report("remove through ..", remove("work/../keep/kept.txt"));
    return 0;
}
"#;
    std::fs::write(dir.path().join("refused.c"), src).expect("write program");
    let out = accsim_in(&dir, &["run", "--sandbox", "--allow-read", "keep", "--allow-write", "work", "refused.c"]);
    assert_eq!(out.status, 0, "{}", out.stderr_text());
    assert_eq!(
        stdout(&out),
        "remove outside: -1 (Permission denied)\nremove missing outside: -1 (Permission denied)\n\
         rename out of the grant: -1 (Permission denied)\nrename into the grant: -1 (Permission denied)\n\
         rename inside: 0 (Success)\nremove through ..: -1 (Permission denied)\n"
    );
    assert!(dir.path().join("keep/kept.txt").exists() && dir.path().join("work/yours.txt").exists());
}
