//! Dialects (issue 17): PGI Accelerator 1.3 programs (`samples/pgi13/`) are read as 1.3 when they
//! use `region`, `accsim info` shows every 1.3 directive's OpenACC 2.0 equivalent, `accsim check`
//! finds nothing wrong in the (correct) samples, and `--dialect openacc-2.0` refuses 1.3
//! directives by naming the flag that reads them. The samples' output is checked by
//! `acc_samples.rs` (they are part of its sample set).

mod common;

use std::process::Command;

use common::*;

fn accsim(args: &[&str]) -> Outcome {
    let mut cmd = Command::new(accsim_bin());
    cmd.current_dir(repo_root()).args(args);
    match run_with_timeout(cmd, accsim_timeout()) {
        Ok(o) => o,
        Err(e) => panic!("accsim {args:?}: {e}"),
    }
}

fn pgi13_samples() -> Vec<String> {
    let files = c_files(&samples_dir().join("pgi13"));
    assert!(!files.is_empty(), "no samples in samples/pgi13");
    files.iter().map(|p| p.strip_prefix(repo_root()).unwrap_or(p).display().to_string()).collect()
}

/// The `#pragma acc` lines of a source file.
fn pragma_count(path: &str) -> usize {
    let text = std::fs::read_to_string(repo_root().join(path)).unwrap_or_default();
    text.lines().filter(|l| l.trim_start().starts_with("#pragma acc")).count()
}

#[test]
fn info_shows_the_openacc_20_form_of_every_pgi13_directive() {
    for f in pgi13_samples() {
        let out = accsim(&["info", &f]);
        let stderr = out.stderr_text();
        assert_eq!(out.status, 0, "{f}:\n{stderr}");
        let shown = stderr.lines().filter(|l| l.contains("is OpenACC 2.0")).count();
        assert_eq!(shown, pragma_count(&f), "{f}: one 2.0 equivalent per directive:\n{stderr}");
    }
    let out = accsim(&["info", "samples/pgi13/01_region.c"]);
    let stderr = out.stderr_text();
    assert!(stderr.contains("PGI 1.3 `#pragma acc region` is OpenACC 2.0 `#pragma acc kernels copyin(a, x) copy(y)`"), "{stderr}");
    assert!(stderr.contains("implicit data analysis (§2.3.1)"), "{stderr}");
}

#[test]
fn check_finds_nothing_wrong_in_the_pgi13_samples() {
    for f in pgi13_samples() {
        let out = accsim(&["check", &f]);
        assert_eq!(out.status, 0, "{f}:\n{}", out.stderr_text());
    }
}

#[test]
fn region_selects_the_dialect_with_a_note_and_openacc_20_names_the_flag() {
    let out = accsim(&["run", "-W", "samples/pgi13/01_region.c"]);
    assert_eq!(out.status, 0);
    assert!(out.stderr_text().contains("reading it as `--dialect pgi-1.3`"), "{}", out.stderr_text());
    let out = accsim(&["run", "samples/pgi13/01_region.c"]);
    assert!(out.stderr.is_empty(), "no note without -W: {}", out.stderr_text());
    let out = accsim(&["run", "--dialect", "openacc-2.0", "samples/pgi13/01_region.c"]);
    assert_eq!(out.status, 2);
    assert!(out.stderr_text().contains("PGI Accelerator 1.3 directive: run with --dialect pgi-1.3"), "{}", out.stderr_text());
}

/// OpenUH's benchmark sources nest `gang` (and `vector`) loops (seeds/002, Figs. 6 and 7):
/// `samples/openuh/nested/` run as written under `--dialect openuh`, print their `.expected`
/// (the sequential C result) under several launch shapes, `check` finds nothing, and 2.0 mode
/// names the flag.
#[test]
fn openuh_nested_gang_loops_run_under_the_dialect() {
    let files = only_named_samples(c_files(&samples_dir().join("openuh/nested")));
    assert!(!files.is_empty(), "no samples in samples/openuh/nested (or ACCSIM_SAMPLE matched none)");
    for path in files {
        let rel = path.strip_prefix(repo_root()).unwrap_or(&path).display().to_string();
        let expected = std::fs::read_to_string(path.with_extension("expected")).unwrap_or_default();
        for extra in [&[][..], &["--gangs", "3", "--workers", "2", "--vector-length", "5"][..], &["--threads", "1"][..]] {
            let mut args = vec!["run", "--dialect", "openuh"];
            args.extend(extra);
            args.push(&rel);
            let out = accsim(&args);
            assert_eq!(out.status, 0, "{rel} {extra:?}: {}", out.stderr_text());
            assert_eq!(String::from_utf8_lossy(&out.stdout), expected, "{rel} {extra:?}");
        }
        let out = accsim(&["check", "--dialect", "openuh", &rel]);
        assert_eq!(out.status, 0, "{rel}: {}", out.stderr_text());
        let out = accsim(&["run", &rel]);
        assert_eq!(out.status, 2, "{rel}");
        assert!(out.stderr_text().contains("OpenUH's nested gang and vector loops: run with --dialect openuh"), "{rel}: {}", out.stderr_text());
    }
}

/// `info` says what each OpenUH nest runs as, and `emit-cuda` maps each as the paper does.
#[test]
fn openuh_nests_map_as_the_paper_on_the_gpu() {
    for (file, map, as_20) in [
        ("dgemm_map2_4", "map2_4", "`loop gang worker` / `loop vector`"),
        ("jacobi_map2_3", "map2_3", "`loop gang` / `loop vector`"),
        ("stencil_map3_1", "map3_1", "`loop gang` / `loop worker` / `loop vector`"),
        ("laplacian_map3_3", "map3_3", "`loop gang` / `loop worker` / `loop vector`"),
    ] {
        let rel = format!("samples/openuh/nested/{file}.c");
        let out = accsim(&["info", "--dialect", "openuh", &rel]);
        assert_eq!(out.status, 0, "{}", out.stderr_text());
        let paper = map.replace("map", "Map");
        assert!(out.stderr_text().contains(&format!("(the paper's {paper}, which `emit-cuda` uses) runs as the OpenACC 2.0 nest {as_20}")), "{file}: {}", out.stderr_text());
        let out = accsim(&["emit-cuda", "--dialect", "openuh", &rel]);
        assert_eq!(out.status, 0, "{}", out.stderr_text());
        let cuda = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(cuda.contains(&format!("// loop mapping {map} (OpenUH)")), "{file}: {cuda}");
        assert!(!cuda.contains("does not fit"), "{file}: {cuda}");
    }
    // A 2.0 nest keeps its default mapping under the dialect (only OpenUH's nests change).
    let out = accsim(&["emit-cuda", "--dialect", "openuh", "samples/openuh/laplacian.c"]);
    assert_eq!(out.status, 0, "{}", out.stderr_text());
    assert!(!String::from_utf8_lossy(&out.stdout).contains("loop mapping"));
}

/// 1.3 §2.4.1.1: a `host` loop in a region's block runs on the host. The region is split there:
/// `info` shows the 2.0 form (a `data` construct with the region's data, a `kernels` construct
/// per device part, `update host` / `update device` around the loop), the two device parts are
/// two kernels, the loop's iterations run on the host (`acc_on_device(acc_device_host)`), and the
/// data moves at the split (`--notify`: `a` comes home at the loop's line and goes back).
#[test]
fn host_loop_splits_its_region_and_runs_on_the_host() {
    let f = "samples/pgi13/10_host_loop.c";
    let out = accsim(&["info", f]);
    assert_eq!(out.status, 0, "{}", out.stderr_text());
    let err = out.stderr_text();
    assert!(err.contains("PGI 1.3 `#pragma acc region copyout(b)` is OpenACC 2.0 `#pragma acc data copyout(b) copyin(scale) copy(a)`"), "{err}");
    assert!(err.contains("the region is split there, `data copyout(b) copyin(scale) copy(a)` around a `#pragma acc kernels` for each device part"), "{err}");
    assert!(
        err.contains("PGI 1.3 `#pragma acc for host` is OpenACC 2.0 `#pragma acc update host(a)`; `the loop itself, on the host (no directive)`; `#pragma acc update device(a) (after the loop)`"),
        "{err}"
    );
    let all = format!("{}{err}", String::from_utf8_lossy(&out.stdout));
    assert!(all.contains("kernel `main$acc22`") && all.contains("kernel `main$acc30`"), "two kernels, one per device part:\n{all}");
    let out = accsim(&["run", "--notify", f]);
    assert_eq!(out.status, 0, "{}", out.stderr_text());
    assert!(String::from_utf8_lossy(&out.stdout).contains("iterations of the host loop run on the host: 999 of 999"));
    let notify = out.stderr_text();
    let at = |what: &str| notify.find(what).unwrap_or_else(|| panic!("no `{what}` in:\n{notify}"));
    assert!(at("kernel=main$acc22") < at("download data file=samples/pgi13/10_host_loop.c function=main line=25 device=0 variable=a"));
    assert!(at("upload data file=samples/pgi13/10_host_loop.c function=main line=25 device=0 variable=a") < at("kernel=main$acc30"));
}

/// 1.3 §2.4.1.1 at any depth (issue 17 item 4): a `host` loop inside the time-step loop of its
/// region runs on the host, the time-step loop too, and each step launches the kernel of the
/// parallel loop beside it, then moves `u` to the host and `peak` back, in that order; a host
/// loop inside a loop with a loop directive is an error that says why.
#[test]
fn nested_host_loop_runs_on_the_host_each_step() {
    let f = "samples/pgi13/14_host_loop_nested.c";
    let out = accsim(&["info", f]);
    assert_eq!(out.status, 0, "{}", out.stderr_text());
    let err = out.stderr_text();
    assert!(err.contains("PGI 1.3 `#pragma acc for host` is OpenACC 2.0 `#pragma acc update host(u)`; `the loop itself, on the host (no directive)`; `#pragma acc update device(peak) (after the loop)`"), "{err}");
    let out = accsim(&["run", "--notify", f]);
    assert_eq!(out.status, 0, "{}", out.stderr_text());
    let notify = out.stderr_text();
    let events: Vec<&str> = notify.lines().filter(|l| l.starts_with("launch kernel") || l.contains("data file") && l.contains("line=26")).collect();
    let step = ["launch kernel", "download data", "upload data"];
    assert_eq!(events.len(), 4 * step.len(), "one kernel and two updates per step:\n{notify}");
    for (k, e) in events.iter().enumerate() {
        assert!(e.starts_with(step[k % 3]), "event {k} is `{e}`, expected `{}`:\n{notify}", step[k % 3]);
    }
    let out = accsim(&["run", "samples/regress/pgi13_host_loop_inside_parallel_loop.c"]);
    assert_eq!(out.status, 2);
    assert!(out.stderr_text().contains("a PGI 1.3 `host` loop inside a loop with a loop directive"), "{}", out.stderr_text());
}

/// 1.3 §2.3.3.6 (issue 17 item 3): a data region's `mirror(w)` gives `w` a device copy where it
/// is allocated inside the region, of its size each time, frees it where it is deallocated,
/// and frees what is still allocated at region exit.
#[test]
fn mirror_follows_allocations_in_the_region() {
    let f = "samples/pgi13/15_mirror_allocate.f90";
    let out = accsim(&["run", "--notify", f]);
    assert_eq!(out.status, 0, "{}", out.stderr_text());
    let notify = out.stderr_text();
    let device_w: Vec<(String, String, String)> = notify
        .lines()
        .filter(|l| (l.starts_with("alloc device data") || l.starts_with("free device data")) && l.contains("variable=w["))
        .map(|l| {
            let field = |k: &str| l.split_whitespace().find_map(|w| w.strip_prefix(k)).unwrap_or_default().to_string();
            (l.split(" device data").next().unwrap_or_default().to_string(), field("line="), field("bytes="))
        })
        .collect();
    let expected: Vec<(String, String, String)> = [("alloc", "22", "2000"), ("free", "33", "2000"), ("alloc", "22", "4000"), ("free", "35", "4000")]
        .iter()
        .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
        .collect();
    assert_eq!(device_w, expected, "{notify}");
}

/// 1.3 §2.4.3: the `kernel` loop's body is the kernel; its inner loops run sequentially and carry
/// no loop mapping directive (the error is samples/regress/pgi13_kernel_loop_inner_directive.c).
#[test]
fn kernel_loop_is_the_kernel_and_its_inner_loops_run_sequentially() {
    let out = accsim(&["info", "samples/pgi13/11_kernel_clause.c"]);
    assert_eq!(out.status, 0, "{}", out.stderr_text());
    let err = out.stderr_text();
    assert!(err.contains("PGI 1.3 `#pragma acc for kernel` is OpenACC 2.0 `#pragma acc loop`"), "{err}");
    assert!(err.contains("the loop body is the kernel body and the loops inside it run sequentially (§2.4.3)"), "{err}");
    let out = accsim(&["run", "samples/regress/pgi13_kernel_loop_inner_directive.c"]);
    assert_eq!(out.status, 2);
    assert!(out.stderr_text().contains("must not carry loop mapping directives (1.3 §2.4.3)"), "{}", out.stderr_text());
}

/// The Fortran forms of 1.3 (seeds/004 §2.3–§2.5): `!$acc region` … `!$acc end region`,
/// `!$acc data region` … `!$acc end data region`, `!$acc do` and `!$acc region do` with 1.3's
/// clauses, `mirror` (Fortran only) and `update`. Each `samples/pgi13/*.f90` prints its
/// `.expected` (gfortran's output for the same program), `check` finds nothing, `info` shows the
/// 2.0 form of each directive in Fortran's spelling, and a file that uses `!$acc region` is read
/// as 1.3 with a note at the Fortran line.
#[test]
fn fortran_forms_of_pgi13_run_with_expected_output() {
    let mut files: Vec<_> = std::fs::read_dir(samples_dir().join("pgi13")).expect("samples/pgi13").flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "f90")).collect();
    files.sort();
    assert!(!files.is_empty(), "no Fortran samples in samples/pgi13");
    for path in files {
        let rel = path.strip_prefix(repo_root()).unwrap_or(&path).display().to_string();
        let expected = std::fs::read_to_string(path.with_extension("expected")).unwrap_or_default();
        let out = accsim(&["run", "-W", &rel]);
        assert_eq!(out.status, 0, "{rel}: {}", out.stderr_text());
        assert_eq!(String::from_utf8_lossy(&out.stdout), expected, "{rel}");
        assert!(out.stderr_text().contains(&format!("{rel}:")) && out.stderr_text().contains("reading it as `--dialect pgi-1.3`"), "{rel}: {}", out.stderr_text());
        let out = accsim(&["check", &rel]);
        assert_eq!(out.status, 0, "{rel}: {}", out.stderr_text());
    }
    let out = accsim(&["info", "samples/pgi13/12_fortran_forms.f90"]);
    let err = out.stderr_text();
    assert!(err.contains("PGI 1.3 `!$acc data region copyin(a) mirror(w) copyout(c)` is OpenACC 2.0 `!$acc data copyin(a) copyout(c)`"), "{err}");
    assert!(err.contains("PGI 1.3 `!$acc do parallel vector(64)` is OpenACC 2.0 `!$acc loop gang vector(64)`"), "{err}");
    assert!(err.contains("PGI 1.3 `!$acc region do parallel present_or_copy(w)` is OpenACC 2.0 `!$acc kernels loop present_or_copy(w) gang"), "{err}");
    assert!(err.contains("`mirror(w)`: the device copy follows the array's allocation state (§2.3.3.6)"), "{err}");
}
