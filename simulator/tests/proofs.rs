//! `accsim check` runs a kernel proven race-free at its launch without observing it, and hands
//! the checkers the bytes it reads and writes (`accsim_core::kernel::footprint`). That may only
//! make checking faster: every program must give the same output, findings and exit status as
//! `accsim check --every-access`, which observes every access of every kernel.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

fn check(dir: &Path, file: &Path, flags: &[&str]) -> Outcome {
    let mut cmd = Command::new(accsim_bin());
    cmd.current_dir(dir).env("ACCSIM_EXPLAIN_PROOFS", "1").arg("check").args(flags).arg(file);
    run_with_timeout(cmd, accsim_timeout()).expect("run accsim check")
}

/// The explanation lines (`accsim: kernel at line …`) apart from the rest of stderr.
fn split_explained(out: &Outcome) -> (String, Vec<String>) {
    let err = out.stderr_text();
    let (explained, rest): (Vec<&str>, Vec<&str>) = err.lines().partition(|l| l.starts_with("accsim: kernel at line"));
    (rest.join("\n"), explained.into_iter().map(str::to_string).collect())
}

/// Check `file` both ways; the launches run on their footprint.
fn same_both_ways(dir: &Path, file: &Path) -> Result<usize, String> {
    let fast = check(dir, file, &[]);
    let slow = check(dir, file, &["--every-access"]);
    let (fast_err, explained) = split_explained(&fast);
    let (slow_err, none) = split_explained(&slow);
    if !none.is_empty() {
        return Err(format!("{}: --every-access still proved kernels: {none:?}", file.display()));
    }
    if fast.status != slow.status || fast.stdout != slow.stdout || fast_err != slow_err {
        return Err(format!(
            "{}: differs from --every-access\n--- with proofs (exit {}):\n{}{fast_err}\n--- every access (exit {}):\n{}{slow_err}",
            file.display(),
            fast.status,
            String::from_utf8_lossy(&fast.stdout),
            slow.status,
            String::from_utf8_lossy(&slow.stdout)
        ));
    }
    Ok(explained.iter().filter(|l| l.ends_with("run on its footprint")).count())
}

#[test]
fn proofs_change_nothing_on_the_samples_and_planted_bugs() {
    let root = repo_root();
    let mut files: Vec<PathBuf> = acc_sample_files();
    files.extend(only_named_samples(c_files(&samples_dir().join("bugs"))));
    let mut failures = Vec::new();
    let mut proven = 0;
    for f in &files {
        let rel = f.strip_prefix(&root).unwrap_or(f);
        match same_both_ways(&root, rel) {
            Ok(n) => proven += n,
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // The samples' kernels are mostly affine loop nests: most launches must be proven, or the
    // comparison above tests nothing.
    if std::env::var_os("ACCSIM_SAMPLE").is_none() {
        assert!(proven >= 50, "only {proven} launches ran on their footprint");
    }
}

/// Kernels whose writes the host then reads stale: the finding names the gang that wrote the
/// element, which a proven kernel must compute from the schedule (`kernel::schedule`) for every
/// kind of gang loop: gang and vector, a static chunk and a descending counter, collapsed gang,
/// worker and vector, a triangular vector loop inside a gang loop, a strided write, writes and
/// reads under conditions (boundary cases, `?:`), a row written by one vector loop and read by
/// the next in the same gang iteration, an array written by one gang loop and read by the next
/// one of the same schedule in one parallel region.
const GANGS: &str = r#"#include <stdio.h>
#define N 400
static double a[N], b[N], c[40][50], d[N], e[N], f[N], g[N], h[N], k[N], l[N];
int main(void) {
    int n = N;
    for (int i = 0; i < N; i++) { a[i] = b[i] = d[i] = e[i] = f[i] = g[i] = h[i] = k[i] = l[i] = 0; }
    for (int i = 0; i < 40; i++) for (int j = 0; j < 50; j++) c[i][j] = 0;
#pragma acc data copyin(a, b, c, d, e, f, g, h, k, l)
    {
#pragma acc parallel loop gang vector num_gangs(5) vector_length(7)
        for (int i = 0; i < n; i++) a[i] = i;
#pragma acc parallel loop gang(static:3) num_gangs(4)
        for (int i = n - 1; i >= 0; i -= 2) b[i] = i;
#pragma acc parallel loop collapse(2) gang worker vector num_gangs(3) num_workers(2) vector_length(4)
        for (int i = 0; i < 40; i++)
            for (int j = 0; j < 50; j++) c[i][j] = i + j;
#pragma acc parallel loop gang num_gangs(6)
        for (int i = 0; i < 20; i++) {
#pragma acc loop vector
            for (int j = 0; j <= i; j++) d[i * 20 + j] = j;
        }
#pragma acc parallel loop gang vector num_gangs(7) vector_length(3)
        for (int i = 0; i < n / 2; i++) e[2 * i + 1] = i;
#pragma acc parallel loop gang vector num_gangs(3) vector_length(5)
        for (int i = 0; i < n; i++) {
            if (i == 0 || i == n - 1)
                f[i] = 0;
            else
                f[i] = (i > 1 ? a[i - 2] : 0.0) + a[i + 1];
        }
#pragma acc parallel loop gang num_gangs(4)
        for (int i = 0; i < 20; i++) {
#pragma acc loop vector
            for (int j = 0; j < 20; j++) g[i * 20 + j] = j;
#pragma acc loop vector
            for (int j = 0; j < 20; j++) h[i * 20 + j] = g[i * 20 + 19 - j];
        }
#pragma acc parallel num_gangs(3) vector_length(4)
        {
#pragma acc loop gang vector
            for (int i = 0; i < n; i++) k[i] = i;
#pragma acc loop gang vector
            for (int i = 0; i < n; i++) l[i] = k[i] + 1;
        }
        printf("%g %g %g\n", a[0], a[13], a[399]);
        printf("%g %g %g\n", b[399], b[1], b[151]);
        printf("%g %g %g\n", c[0][0], c[17][33], c[39][49]);
        printf("%g %g %g\n", d[0], d[19 * 20 + 19], d[5 * 20 + 3]);
        printf("%g %g %g\n", e[1], e[201], e[399]);
        printf("%g %g %g\n", f[0], f[7], f[399]);
        printf("%g %g %g\n", h[0], h[77], h[399]);
        printf("%g %g %g\n", l[0], l[77], l[399]);
    }
    return 0;
}
"#;

#[test]
fn proven_kernels_report_the_gang_that_wrote_an_element() {
    let dir = TempDir::new("proofs-gangs");
    let file = dir.path().join("gangs.c");
    std::fs::write(&file, GANGS).expect("write program");
    let proven = same_both_ways(dir.path(), Path::new("gangs.c")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(proven, 8, "every kernel runs on its footprint");
    let out = check(dir.path(), Path::new("gangs.c"), &[]);
    let err = out.stderr_text();
    assert_eq!(out.status, 1, "{err}");
    assert_eq!(err.matches("error[stale-host-read]").count(), 24, "{err}");
    // a[399]: the last iteration of a gang-vector loop of 400 iterations on 5 gangs, which run
    // blocks of 80 (`kernel::schedule`): gang 4.
    assert!(err.contains("by gang 4 in the kernel at line 10"), "{err}");
    // Proven kernels run on the device's threads: the findings do not depend on how many.
    for threads in ["1", "3"] {
        let other = check(dir.path(), Path::new("gangs.c"), &["--threads", threads]);
        assert_eq!((other.status, other.stderr_text()), (out.status, err.clone()), "--threads {threads}");
    }
}

/// Racy kernels get no proof: each is checked access by access and its race is reported.
#[test]
fn racy_kernels_are_not_proven() {
    let cases = [
        ("neighbour", "for (int i = 0; i < 99; i++) a[i + 1] = a[i] + 1.0;", "#pragma acc parallel loop gang vector"),
        ("same-element", "for (int i = 0; i < 100; i++) a[i / 4 * 4] = i;", "#pragma acc parallel loop gang vector"),
        ("redundant", "for (int i = 0; i < 100; i++) a[i] = i;", "#pragma acc parallel num_gangs(4)\n#pragma acc loop vector"),
        // Ten iterations would get one gang by default (`kernel::gang_count`), which cannot race
        // with itself: four gangs share them.
        ("column", "for (int i = 0; i < 10; i++) for (int j = 0; j < 10; j++) a[j] = i;", "#pragma acc parallel loop gang num_gangs(4)"),
        ("next-row", "for (int i = 0; i < 9; i++) { for (int j = 0; j < 10; j++) a[i * 10 + j] = j; for (int j = 0; j < 10; j++) a[i * 10 + j] += a[(i + 1) * 10 + j]; }", "#pragma acc parallel loop gang num_gangs(4)"),
        // The second loop reads in gang g what other gangs wrote in the first (gang g runs
        // the same block of i in both): gangs never synchronise, so that races.
        ("other-schedule", "{\n#pragma acc loop gang\n for (int i = 0; i < 50; i++) a[i] = i;\n#pragma acc loop gang vector\n for (int i = 0; i < 50; i++) a[50 + i] = a[49 - i]; }", "#pragma acc parallel num_gangs(4) vector_length(8)"),
        ("guarded-neighbour", "for (int i = 0; i < 100; i++) if (i > 0) a[i - 1] = a[i] * 0.5;", "#pragma acc parallel loop gang vector"),
    ];
    for (name, body, directive) in cases {
        let dir = TempDir::new(&format!("proofs-{name}"));
        let src = format!("#include <stdio.h>\nint main(void) {{\n    static double a[100];\n#pragma acc data copy(a)\n    {{\n{directive}\n    {body}\n    }}\n    printf(\"%g\\n\", a[5]);\n    return 0;\n}}\n");
        std::fs::write(dir.path().join("race.c"), &src).expect("write program");
        let out = check(dir.path(), Path::new("race.c"), &[]);
        let (err, explained) = split_explained(&out);
        assert!(err.contains("error[data-race]"), "{name}: {err}\n{explained:?}");
        assert!(explained.iter().all(|l| l.contains("checked access by access")), "{name}: {explained:?}");
        same_both_ways(dir.path(), Path::new("race.c")).unwrap_or_else(|e| panic!("{e}"));
    }
}

/// `accsim info` says, per kernel, whether `check` can prove it at launch, or why not.
#[test]
fn info_tells_which_kernels_have_an_access_plan() {
    let info = accsim_info;
    let jacobi = info("samples/bench/acc/jacobi.c");
    // b[i*n+j] and four reads of a.
    assert!(jacobi.contains("check: an access plan over 5 sites of shared device memory"), "{jacobi}");
    let routine = info("samples/acc/10_routine.c");
    assert!(routine.contains("check: checked access by access (a call of a function that may access memory)"), "{routine}");
}

/// Check `src` (written to `name.c`) both ways; the stderr and the explanation lines.
fn check_source(name: &str, src: &str) -> (Outcome, String, Vec<String>) {
    let dir = TempDir::new(&format!("proofs-{name}"));
    std::fs::write(dir.path().join("p.c"), src).expect("write program");
    same_both_ways(dir.path(), Path::new("p.c")).unwrap_or_else(|e| panic!("{name}: {e}"));
    let out = check(dir.path(), Path::new("p.c"), &[]);
    let (err, explained) = split_explained(&out);
    (out, err, explained)
}

/// The Laplace lab's shapes (issue 15), proven at launch: a `create`d array whose interior the
/// update loop writes and then reads in the same iteration, the copy-back loop reading the
/// interior rows only (its hull covers the border columns, never initialised on the device), a
/// `reduction(max:)` on both loops (the lanes' combines into the gang's copy are `atomic`,
/// §2.12), and variable-length rows (`double A[n][n]` parameters, mvt). Every near miss — the
/// copy-back reading one column too far, the write under a condition the read is not, the
/// read of the element next to the one written, a lane updating the gang's variable without
/// `atomic`, a row written by every gang — is still reported, by the kernel checked access by
/// access.
#[test]
fn stencil_reduction_and_vla_kernels_are_proven_and_their_near_misses_found() {
    let laplace = |update_read: &str, update_guard: &str, copy_read: &str| {
        format!(
            r#"#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#define N 40
int main(void) {{
    double (*A)[N] = malloc(sizeof(double[N][N]));
    double (*Anew)[N] = malloc(sizeof(double[N][N]));
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) A[j][i] = (j == 0) ? 1.0 : 0.0;
    double err = 1.0;
    int iter = 0;
#pragma acc data copy(A[0:N]) create(Anew[0:N])
    while (err > 1e-6 && iter < 3) {{
        err = 0.0;
#pragma acc parallel loop reduction(max:err) num_gangs(3) vector_length(4)
        for (int j = 1; j < N - 1; j++) {{
#pragma acc loop reduction(max:err)
            for (int i = 1; i < N - 1; i++) {{
                {update_guard}Anew[j][i] = 0.25 * (A[j][i + 1] + A[j][i - 1] + A[j - 1][i] + A[j + 1][i]);
                err = fmax(err, fabs({update_read} - A[j][i]));
            }}
        }}
#pragma acc parallel loop collapse(2) num_gangs(3)
        for (int j = 1; j < N - 1; j++)
            for (int i = 1; i < N - 1; i++) A[j][i] = {copy_read};
        iter++;
    }}
    printf("%d %.9f %.9f\n", iter, err, A[1][1]);
    free(A);
    free(Anew);
    return 0;
}}
"#
        )
    };
    let (out, err, explained) = check_source("laplace", &laplace("Anew[j][i]", "", "Anew[j][i]"));
    assert_eq!(out.status, 0, "{err}");
    assert!(!explained.is_empty() && explained.iter().all(|l| l.ends_with("run on its footprint")), "{explained:?}");
    let near_misses = [
        ("copy-back-one-column-too-far", laplace("Anew[j][i]", "", "Anew[j][i + 1]")),
        ("write-under-a-condition", laplace("Anew[j][i]", "if (i < N - 2) ", "Anew[j][i]")),
        ("read-next-to-the-write", laplace("Anew[j][i - 1]", "", "Anew[j][i]")),
    ];
    for (name, src) in near_misses {
        let (out, err, _) = check_source(name, &src);
        assert_eq!(out.status, 1, "{name}: {err}");
        assert!(err.contains("error[uninit-device-read]"), "{name}: {err}");
    }

    // A gang's variable that its lanes update: with `atomic`, no finding (the plan, made
    // before scheduling, still refuses a variable of the gang's code that its lanes write);
    // without, a race.
    let counted = |update: &str| {
        format!(
            r#"#include <stdio.h>
int main(void) {{
    static int hits[8], v[8 * 64];
    for (int i = 0; i < 8 * 64; i++) v[i] = i % 3;
#pragma acc parallel loop gang num_gangs(4) vector_length(8) copyin(v) copyout(hits)
    for (int g = 0; g < 8; g++) {{
        int count = 0;
#pragma acc loop vector
        for (int i = 0; i < 64; i++)
            if (v[g * 64 + i] == 0) {{
                {update}
            }}
        hits[g] = count;
    }}
    printf("%d %d\n", hits[0], hits[7]);
    return 0;
}}
"#
        )
    };
    let (out, err, explained) = check_source("atomic-count", &counted("#pragma acc atomic update\n                count++;"));
    assert_eq!(out.status, 0, "{err}\n{explained:?}");
    let (out, err, explained) = check_source("plain-count", &counted("count++;"));
    assert_eq!(out.status, 1, "{err}");
    assert!(err.contains("error[data-race]"), "{err}");
    assert!(explained.iter().all(|l| l.contains("checked access by access")), "{explained:?}");

    // Variable-length rows: mvt's products are proven; a row every iteration writes races.
    let mvt = |body: &str| {
        format!(
            r#"#include <stdio.h>
#include <stdlib.h>
static void kernel(int n, double x[n], double y[n], double A[n][n]) {{
#pragma acc parallel loop present(A[0:n][0:n], x[0:n], y[0:n]) num_gangs(3) vector_length(4)
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            {body}
}}
int main(void) {{
    int n = 30;
    double (*A)[n] = malloc(sizeof(double) * n * n);
    double *x = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n);
    for (int i = 0; i < n; i++) {{
        x[i] = 0;
        y[i] = i;
        for (int j = 0; j < n; j++) A[i][j] = i - j;
    }}
#pragma acc data copy(A[0:n][0:n], x[0:n]) copyin(y[0:n])
    kernel(n, x, y, A);
    printf("%g %g\n", x[3], A[0][5]);
    free(A);
    free(x);
    free(y);
    return 0;
}}
"#
        )
    };
    let (out, err, explained) = check_source("vla-rows", &mvt("x[i] = x[i] + A[j][i] * y[j];"));
    assert_eq!(out.status, 0, "{err}");
    assert!(!explained.is_empty() && explained.iter().all(|l| l.ends_with("run on its footprint")), "{explained:?}");
    let (out, err, explained) = check_source("vla-shared-row", &mvt("A[0][j] = x[i] + y[j];"));
    assert_eq!(out.status, 1, "{err}");
    assert!(err.contains("error[data-race]"), "{err}");
    assert!(explained.iter().all(|l| l.contains("checked access by access")), "{explained:?}");
}

/// Triangular loops (issue 15, PolyBench's correlation): a symmetric matrix filled from its
/// upper triangle, `c[i][j]` and `c[j][i]` for `j > i` (also `j >= i`: the diagonal is written
/// by its own row's thread only). The bound `j > i` depends on the gang loop's counter, which the
/// per-coefficient test cannot use; the two sites are compared run by run at launch
/// (`kernel/footprint/listed.rs`). The near misses — the whole range of `j` (every element
/// written by two threads) and the lower triangle shifted by one column (the diagonal element
/// of the next row) — are races, still found.
#[test]
fn triangular_kernels_are_proven_and_their_near_misses_found() {
    let symmetric = |first_j: &str, lower: &str| {
        format!(
            r#"#include <stdio.h>
#define M 24
static double x[M], c[M][M];
int main(void) {{
    for (int i = 0; i < M; i++) x[i] = 1.0 + i % 5;
#pragma acc parallel loop copyin(x) copyout(c) num_gangs(5) vector_length(4)
    for (int i = 0; i < M; i++) {{
        c[i][i] = 1.0;
        for (int j = {first_j}; j < M; j++) {{
            double v = x[i] * x[j];
            c[i][j] = v;
            {lower} = v;
        }}
    }}
    double s = 0.0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < M; j++) s += c[i][j] * (1 + (i + j) % 3);
    printf("%.3f\n", s);
    return 0;
}}
"#
        )
    };
    for (name, first_j) in [("upper-triangle", "i + 1"), ("with-the-diagonal", "i")] {
        let (out, err, explained) = check_source(name, &symmetric(first_j, "c[j][i]"));
        assert_eq!(out.status, 0, "{name}: {err}");
        assert!(!explained.is_empty() && explained.iter().all(|l| l.ends_with("run on its footprint")), "{name}: {explained:?}");
    }
    for (name, first_j, lower) in [("whole-range", "0", "c[j][i]"), ("shifted-column", "i + 1", "c[j][i + 1]")] {
        let (out, err, explained) = check_source(name, &symmetric(first_j, lower));
        assert_eq!(out.status, 1, "{name}: {err}");
        assert!(err.contains("error[data-race]"), "{name}: {err}");
        assert!(explained.iter().all(|l| !l.ends_with("run on its footprint")), "{name}: {explained:?}");
    }
}

/// Atomic counters (issue 15's histogram, §2.12): a kernel whose only accesses of an array are
/// `atomic update` counter increments at data-dependent elements is proven at launch; the
/// elements each gang changed, and the gang that changed each last, reach the coherence model,
/// so a host read of the counters without `update host` names the same element, site and gang
/// as the checked run. The near misses are still found, each with the checked run's findings:
/// a plain read of the counters in the kernel (a race with the atomic updates), the increment
/// without `atomic` (a race), counters `create`d and never initialised on the device (an
/// uninitialised device read), and `unsigned char` counters that may wrap (not proven, no
/// finding).
#[test]
fn atomic_counter_kernels_are_proven_and_their_near_misses_found() {
    let histogram = |counter: &str, clause: &str, update: &str, extra: &str| {
        format!(
            r#"#include <stdio.h>
#define N 3000
#define BINS 16
static unsigned values[N];
static {counter} hist[BINS];
int main(void) {{
    unsigned state = 7u;
    for (int i = 0; i < N; i++) {{
        state = state * 1664525u + 1013904223u;
        values[i] = state >> 8;
    }}
    int peeks = 0;
#pragma acc data copyin(values) {clause}(hist) copy(peeks)
    {{
        for (int r = 0; r < 3; r++) {{
#pragma acc parallel loop num_gangs(6) vector_length(4)
            for (int i = 0; i < N; i++) {{
                int bin = (int)((values[i] ^ (unsigned)r) % BINS);
                {extra}
                {update}
                    hist[bin]++;
            }}
        }}
        printf("before the update: %ld\n", (long)hist[3]);
#pragma acc update host(hist)
    }}
    long total = 0;
    for (int b = 0; b < BINS; b++) total += hist[b];
    printf("%ld %d\n", total, peeks);
    return 0;
}}
"#
        )
    };
    let (out, err, explained) = check_source("histogram", &histogram("long", "copy", "#pragma acc atomic update", ""));
    assert_eq!(out.status, 1, "{err}");
    assert_eq!(err.matches("error[").count(), 1, "{err}");
    assert!(err.contains("error[stale-host-read]") && err.contains("by gang"), "{err}");
    assert!(explained.len() == 3 && explained.iter().all(|l| l.ends_with("run on its footprint")), "{explained:?}");
    let (out, err, explained) = check_source("histogram-int-decrement", &histogram("int", "copy", "#pragma acc atomic", "").replace("hist[bin]++", "hist[bin] -= 2"));
    assert_eq!(out.status, 1, "{err}");
    assert!(explained.iter().all(|l| l.ends_with("run on its footprint")), "{explained:?}");
    let near_misses = [
        ("plain-read-of-the-counters", histogram("long", "copy", "#pragma acc atomic update", "if (hist[0] > 100000) peeks++;"), "error[data-race]"),
        ("increment-without-atomic", histogram("long", "copy", "", ""), "error[data-race]"),
        ("counters-never-initialised", histogram("long", "create", "#pragma acc atomic update", ""), "error[uninit-device-read]"),
    ];
    for (name, src, finding) in near_misses {
        let (out, err, explained) = check_source(name, &src);
        assert_eq!(out.status, 1, "{name}: {err}");
        assert!(err.contains(finding), "{name}: {err}");
        // (Once the first launch wrote every counter, the uninitialised ones are no more.)
        assert!(explained.first().is_some_and(|l| !l.ends_with("run on its footprint")), "{name}: {explained:?}");
    }
    let (_, err, explained) = check_source("byte-counters", &histogram("unsigned char", "copy", "#pragma acc atomic update", ""));
    assert!(explained.iter().all(|l| l.contains("may wrap around")), "{explained:?}");
    assert!(!err.contains("error[data-race]"), "{err}");
}
