//! Golden snapshots of the CUDA C that `accsim emit-cuda` makes of the samples (STYLE.md "Tests are
//! golden files"). Each sample's output is compared with `tests/emit/NAME.cu`; regenerate them with
//! `BLESS=1 cargo test -p accsim-cuda --test emit` and review the diff with `git diff`.

use std::path::{Path, PathBuf};

use accsim_core::diag::SourceMap;
use accsim_core::driver;
use accsim_core::frontend::PreprocessOptions;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The emitted text, or the partial text followed by the list of unsupported forms.
fn emit(sample: &str) -> String {
    let path = root().join(sample);
    let mut map = SourceMap::new();
    let compiled = match driver::compile_files(&[path.display().to_string()], &PreprocessOptions::default(), &mut map) {
        Ok(c) => c,
        Err(d) => panic!("{sample} does not compile: {}", d.iter().map(|d| d.render(&map, false)).collect::<String>()),
    };
    match accsim_cuda::emit::program(&compiled.program) {
        Ok(text) => text,
        Err(e) => {
            let mut text = e.partial;
            for u in &e.items {
                text.push_str(&format!("// error: line {}: not supported: {}\n", u.loc.line, u.what));
            }
            text
        }
    }
}

fn check(sample: &str) {
    let actual = emit(sample);
    let name = Path::new(sample).file_stem().and_then(|s| s.to_str()).unwrap_or("out");
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/emit").join(format!("{name}.cu"));
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&golden, &actual).unwrap_or_else(|e| panic!("writing {}: {e}", golden.display()));
        return;
    }
    let expected = std::fs::read_to_string(&golden).unwrap_or_default();
    if expected != actual {
        let first = expected.lines().zip(actual.lines()).position(|(a, b)| a != b).unwrap_or(expected.lines().count().min(actual.lines().count()));
        panic!(
            "the CUDA emitted for {sample} differs from {} (first difference at line {}):\n  expected: {:?}\n  actual:   {:?}\n\
             If the change is intended, regenerate the snapshots with\n  BLESS=1 cargo test -p accsim-cuda --test emit\nand review `git diff`.",
            golden.display(),
            first + 1,
            expected.lines().nth(first).unwrap_or("<end of file>"),
            actual.lines().nth(first).unwrap_or("<end of file>"),
        );
    }
}

#[test]
fn vector_add() {
    check("samples/acc/01_vector_add.c");
}

#[test]
fn saxpy() {
    check("samples/acc/02_saxpy.c");
}

#[test]
fn reductions() {
    check("samples/acc/06_reductions.c");
}

#[test]
fn gang_worker_vector() {
    check("samples/acc/07_gang_worker_vector.c");
}

#[test]
fn jacobi() {
    check("samples/openuh/jacobi.c");
}

/// A routine called from a kernel becomes a `__device__` function.
#[test]
fn routine() {
    check("samples/acc/10_routine.c");
}

/// Every `atomic` form of the sample: atomicAdd/Or/Xor, compare-and-swap loops, captures.
#[test]
fn atomics() {
    check("samples/acc/11_atomics.c");
}

/// A `declare`d global used by a routine becomes a `__device__` variable.
#[test]
fn declare() {
    check("samples/acc/14_declare.c");
}

/// Struct members mapped by clauses (§2.6.5) are kernel parameters of their own: a pointer
/// member by value, a mapped member by its device address (21, and 28 for nested members). A
/// struct copied whole (`copyin(h)` in 28) is a record defined with its members (layout checked
/// by `static_assert`), its members accessed by name.
#[test]
fn struct_members() {
    check("samples/acc/21_struct_members.c");
    check("samples/acc/28_nested_members.c");
}

/// Unsupported forms are reported with their line, and marked in the partial output.
#[test]
fn unsupported_forms_are_reported() {
    check("cuda-backend/tests/emit/unsupported.c");
    let path = root().join("cuda-backend/tests/emit/unsupported.c");
    let mut map = SourceMap::new();
    let compiled = driver::compile_files(&[path.display().to_string()], &PreprocessOptions::default(), &mut map).expect("unsupported.c compiles");
    let err = accsim_cuda::emit::program(&compiled.program).expect_err("strlen and long double are not supported on the GPU");
    assert!(err.partial.contains("accsim: not supported"));
    assert!(err.items.iter().any(|u| u.what.contains("strlen")), "{err}");
    assert!(err.items.iter().any(|u| u.what.contains("long double")), "{err}");
    assert!(err.items.iter().any(|u| u.what.contains("inside a condition")), "{err}");
}

/// Every sample of `samples/acc` and `samples/openuh` has its snapshot (the tests above name the
/// ones that show a particular translation).
#[test]
fn every_sample_has_a_snapshot() {
    for dir in ["samples/acc", "samples/openuh"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(dir)).expect("samples").filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "c")).collect();
        files.sort();
        for f in files {
            let name = f.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
            check(&format!("{dir}/{name}"));
        }
    }
}

/// No sample makes the emitter panic.
#[test]
fn every_sample_emits_or_reports() {
    for dir in ["samples/acc", "samples/openuh"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(dir)).expect("samples").filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "c")).collect();
        files.sort();
        for f in files {
            let mut map = SourceMap::new();
            if let Ok(c) = driver::compile_files(&[f.display().to_string()], &PreprocessOptions::default(), &mut map) {
                let _ = accsim_cuda::emit::program(&c.program);
            }
        }
    }
}

/// Every complete snapshot is valid C++ for a host compiler given declarations of the CUDA
/// built-ins (`tests/cuda_shim.h`). Skipped where no `g++` is installed.
#[test]
fn snapshots_parse_as_cpp() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    if std::process::Command::new("g++").arg("--version").output().is_err() {
        eprintln!("g++ not found: skipping");
        return;
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("emit")).expect("snapshots").filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "cu")).collect();
    files.sort();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        if text.contains("accsim: not supported") {
            continue;
        }
        let out = std::process::Command::new("g++")
            .args(["-std=c++17", "-fsyntax-only", "-w", "-include"])
            .arg(dir.join("cuda_shim.h"))
            .args(["-x", "c++"])
            .arg(&f)
            .output()
            .expect("running g++");
        assert!(out.status.success(), "{} does not parse:\n{}", f.display(), String::from_utf8_lossy(&out.stderr));
    }
}

/// Where NVRTC is installed (a GPU machine), every complete snapshot compiles to PTX, as the
/// device will compile it. Skipped elsewhere.
#[test]
fn snapshots_compile_with_nvrtc() {
    if !accsim_cuda::probe::nvrtc_present() {
        eprintln!("no NVRTC: skipping");
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/emit");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).expect("snapshots").filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "cu")).collect();
    files.sort();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        if text.contains("accsim: not supported") {
            continue;
        }
        if let Err(e) = cudarc::nvrtc::compile_ptx(&text) {
            panic!("NVRTC does not compile {}: {e:?}", f.display());
        }
    }
}
