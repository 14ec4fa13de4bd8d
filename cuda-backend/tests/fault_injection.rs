//! GPU fault injection (issue 14), gated: `ACCSIM_BIN=path/to/accsim cargo test -p accsim-cuda
//! --test fault_injection -- --ignored` on a machine with a CUDA GPU runs
//! `tests/fault-injection.sh` (an NVRTC failure, out-of-memory `cuMemAlloc`s, faulting kernels:
//! each must be one error naming file:line with a non-zero exit, never a hang).

#[test]
#[ignore = "needs a CUDA GPU and an accsim binary (ACCSIM_BIN)"]
fn gpu_faults_end_the_run_with_one_located_error() {
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let bin = std::env::var_os("ACCSIM_BIN").map(std::path::PathBuf::from).unwrap_or_else(|| here.join("../target/debug/accsim"));
    let out = std::process::Command::new("sh").arg(here.join("tests/fault-injection.sh")).arg(&bin).output().expect("run fault-injection.sh");
    let report = String::from_utf8_lossy(&out.stdout);
    println!("{report}");
    assert!(out.status.success(), "{report}\n{}", String::from_utf8_lossy(&out.stderr));
}
