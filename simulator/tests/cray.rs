//! Cray CCE's behaviour (issue 17; seeds/003, the CCE man page): `--acc-model` and `--cray`.
//!
//! Each `samples/cray/NAME.c` names its flags in a `// accsim-flags:` line and prints its
//! `NAME.expected` under them, on one thread and on three, and (unless it is marked
//! `// check: skip`, a program racy under the model by design) with queued work delayed until
//! its wait (`--schedule seed:0`). `accsim check` with the same flags finds nothing in the
//! correct ones, and reports the racy one's host read as an `async-race` naming the model. The
//! implicit queue shows as `queue=auto` in `--notify`, `queue auto` in `--trace`, `async(auto)`
//! in `CRAY_ACC_DEBUG` (under `run` and `check`).
//!
//! `ACCSIM_SAMPLE=name[,name]` runs only those samples.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

fn accsim(args: &[&str], env: &[(&str, &str)]) -> Outcome {
    let mut cmd = Command::new(accsim_bin());
    cmd.current_dir(repo_root()).args(args).env_remove("CRAY_ACC_DEBUG");
    for (k, v) in env {
        cmd.env(k, v);
    }
    match run_with_timeout(cmd, accsim_timeout()) {
        Ok(o) => o,
        Err(e) => panic!("accsim {args:?}: {e}"),
    }
}

fn samples() -> Vec<PathBuf> {
    only_named_samples(c_files(&samples_dir().join("cray")))
}

/// The sample's path from the repository root, and its header flags.
fn sample(path: &Path) -> (String, Vec<String>, bool) {
    let rel = path.strip_prefix(repo_root()).unwrap_or(path).display().to_string();
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let flags = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("// accsim-flags:"))
        .map(|f| f.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default();
    let racy = text.lines().any(|l| l.trim() == "// check: skip");
    (rel, flags, racy)
}

fn text_of(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

#[test]
fn cray_samples_print_their_expected_output() {
    let files = samples();
    assert!(!files.is_empty(), "no samples in samples/cray (or ACCSIM_SAMPLE matched none)");
    let mut problems = Vec::new();
    for path in files {
        let (rel, flags, racy) = sample(&path);
        assert!(!flags.is_empty(), "{rel}: no `// accsim-flags:` line");
        let expected = std::fs::read_to_string(path.with_extension("expected")).unwrap_or_default();
        let mut configs: Vec<Vec<&str>> = vec![vec![], vec!["--threads", "1"], vec!["--threads", "3", "--gangs", "5"]];
        if !racy {
            configs.push(vec!["--schedule", "seed:0"]);
        }
        for extra in configs {
            let mut args: Vec<&str> = vec!["run"];
            args.extend(flags.iter().map(String::as_str));
            args.extend(&extra);
            args.push(&rel);
            let out = accsim(&args, &[]);
            if out.status != 0 || String::from_utf8_lossy(&out.stdout) != expected {
                problems.push(format!("{rel} {extra:?}: exit {}\n{}\n{}", out.status, short_diff(expected.as_bytes(), &out.stdout), out.stderr_text()));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

#[test]
fn check_finds_nothing_in_correct_samples_and_names_the_model_in_racy_ones() {
    for path in samples() {
        let (rel, flags, racy) = sample(&path);
        let mut args: Vec<&str> = vec!["check"];
        args.extend(flags.iter().map(String::as_str));
        args.push(&rel);
        let out = accsim(&args, &[]);
        let err = out.stderr_text();
        let limits = text_of(&path).contains("accsim warns: cray-limit");
        if limits {
            // A limit of CCE the sample breaks on purpose, and nothing else.
            assert_eq!(out.status, 1, "{rel}: {err}");
            assert_eq!(err.matches("warning[").count(), 1, "{rel}: {err}");
            assert!(err.contains("warning[cray-limit]") && !err.contains("error"), "{rel}: {err}");
        } else if racy {
            assert_eq!(out.status, 1, "{rel}: {err}");
            assert!(err.contains("error[async-race]") && err.contains("acc_model=auto_async_kernel"), "{rel}: {err}");
        } else {
            assert_eq!(out.status, 0, "{rel}: {err}");
            assert!(!err.contains("error") && !err.contains("warning"), "{rel}: {err}");
        }
    }
}

/// The implicit queue in the three views of the one event stream, and no implicit queue
/// without the model (OpenACC 2.0's behaviour stays the default).
#[test]
fn the_implicit_queue_shows_in_notify_trace_and_cray_debug() {
    let sample = "samples/cray/01_auto_async_kernel.c";
    let trace = std::env::temp_dir().join(format!("accsim-cray-trace-{}.json", std::process::id()));
    let trace_arg = trace.display().to_string();
    let out = accsim(&["run", "--cray", "--notify", "--trace", &trace_arg, sample], &[]);
    assert_eq!(out.status, 0, "{}", out.stderr_text());
    let notify = out.stderr_text();
    assert_eq!(notify.lines().filter(|l| l.starts_with("launch kernel") && l.contains(" queue=auto ")).count(), 2, "{notify}");
    // One wait, before the `update host` (line 26): a synchronous transfer after the kernels.
    assert!(notify.contains("wait file=samples/cray/01_auto_async_kernel.c function=main line=26 device=0 queue=auto"), "{notify}");
    let text = std::fs::read_to_string(&trace).unwrap_or_default();
    let _ = std::fs::remove_file(&trace);
    assert!(text.contains("\"queue auto\""), "{text}");

    let out = accsim(&["run", "--cray", sample], &[("CRAY_ACC_DEBUG", "1")]);
    let debug = out.stderr_text();
    assert!(debug.contains("ACC: Execute kernel main$acc20 blocks:32 threads:32 async(auto) from samples/cray/01_auto_async_kernel.c:20"), "{debug}");
    assert!(debug.contains("ACC: Wait async(auto) from samples/cray/01_auto_async_kernel.c:26"), "{debug}");
    // The commentary is a subscriber of every run, the checked one too.
    let out = accsim(&["check", "--cray", sample], &[("CRAY_ACC_DEBUG", "1")]);
    assert_eq!(out.status, 0, "{}", out.stderr_text());
    assert!(out.stderr_text().contains("async(auto)"), "{}", out.stderr_text());

    let out = accsim(&["run", "--notify", sample], &[]);
    assert!(!out.stderr_text().contains("queue="), "{}", out.stderr_text());
    let out = accsim(&["run", "--cray", "--acc-model", "auto_async_none", "--notify", sample], &[]);
    assert!(!out.stderr_text().contains("queue="), "{}", out.stderr_text());
}

/// Under `auto_async_all` an `update host` without `async` is queued: the host reading its data
/// without a wait is racy, and `check` says which model made it so.
#[test]
fn auto_async_all_makes_a_read_after_update_racy() {
    let dir = std::env::temp_dir().join(format!("accsim-cray-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("no_wait.c");
    std::fs::write(
        &file,
        "#include <stdio.h>\nint main(void) {\n    int x[64];\n    for (int i = 0; i < 64; i++) x[i] = i;\n    #pragma acc data copy(x)\n    {\n        #pragma acc parallel loop\n        for (int i = 0; i < 64; i++) x[i] *= 2;\n        #pragma acc update host(x)\n        printf(\"%d\\n\", x[5]);\n    }\n    return 0;\n}\n",
    )
    .expect("write program");
    let path = file.display().to_string();
    let out = accsim(&["check", "--acc-model", "auto_async_all", &path], &[]);
    let under_kernel = accsim(&["check", "--acc-model", "auto_async_kernel", &path], &[]);
    let _ = std::fs::remove_dir_all(&dir);
    let err = out.stderr_text();
    assert_eq!(out.status, 1, "{err}");
    assert!(err.contains("error[async-race]: the host reads `x[5]` while the copy to the host that acc_model=auto_async_all runs asynchronously may still be running"), "{err}");
    assert!(err.contains("no_wait.c:10:"), "{err}");
    assert_eq!(under_kernel.status, 0, "{}", under_kernel.stderr_text());
}

#[test]
fn deep_copy_follows_pointer_members_and_no_deep_copy_does_not() {
    let sample = "samples/cray/04_deep_copy.c";
    let out = accsim(&["run", "--cray", sample], &[]);
    assert_eq!(out.status, 3, "{}", out.stderr_text());
    assert!(out.stderr_text().contains("device-deref-host-ptr"), "{}", out.stderr_text());
    let out = accsim(&["run", "--acc-model", "deep_copy", sample], &[("CRAY_ACC_DEBUG", "2")]);
    assert_eq!(out.status, 0, "{}", out.stderr_text());
    let debug = out.stderr_text();
    assert!(debug.contains("Transfer 'g.u' to acc (512 bytes)") && debug.contains("Transfer 'g.f' to host (512 bytes)"), "{debug}");
}

#[test]
fn info_states_cce_partitioning_atomics_and_limits() {
    let out = accsim(&["info", "--cray", "samples/cray/05_vector_length_limits.c"], &[]);
    assert_eq!(out.status, 0, "{}", out.stderr_text());
    let info = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(info.contains("Cray CCE: acc_model=auto_async_kernel:fast_addr:no_deep_copy"), "{info}");
    assert!(info.contains("threads per block: 128 (4 warps of 32)"), "{info}");
    assert!(info.contains(":18:13: CCE places every iteration on the next thread in the warp"), "{info}");
    assert!(info.contains("(gang → thread block)") && info.contains("(gang → thread block, vector → thread)"), "{info}");
    let err = out.stderr_text();
    assert!(err.contains("warning[cray-limit]: Cray CCE does not accept vector_length(100)") && err.contains(":22:60"), "{err}");
    assert_eq!(err.matches("cray-limit").count(), 1, "{err}");

    let out = accsim(&["info", "--cray", "samples/cray/06_atomic_histogram.c"], &[]);
    let info = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(info.contains(":18:13: CCE atomic update: one of x++"), "{info}");
    assert!(info.contains(":24:13: CCE atomic capture: one of v = x++"), "{info}");

    // Without --cray, no CCE statement and no CCE limit.
    let out = accsim(&["info", "samples/cray/05_vector_length_limits.c"], &[]);
    assert!(!String::from_utf8_lossy(&out.stdout).contains("CCE") && !out.stderr_text().contains("cray-limit"));
    let out = accsim(&["run", "--acc-model", "auto_async_some", "samples/cray/05_vector_length_limits.c"], &[]);
    assert_eq!(out.status, 2);
    assert!(out.stderr_text().contains("unknown acc_model option `auto_async_some`"), "{}", out.stderr_text());
}

/// `fast_addr` (CCE's default): a device copy of 2 GiB or more gets a `cray-limit` warning at its
/// clause, before it is allocated (the memory limit then stops the run: the host array is never
/// touched, so the test costs no memory); `no_fast_addr` has none.
#[test]
fn fast_addr_warns_at_a_copy_32_bit_addressing_cannot_reach() {
    let file = "samples/regress/cray_fast_addr_large_copy.c";
    let out = accsim(&["check", "--cray", "--max-memory", "3000000000", file], &[]);
    let err = out.stderr_text();
    assert!(err.contains("warning[cray-limit]: the device copy of `bytes[0:n]` is 2147483648 bytes: under acc_model=fast_addr") && err.contains(":18:25"), "{err}");
    let out = accsim(&["check", "--acc-model", "no_fast_addr", "--max-memory", "3000000000", file], &[]);
    assert!(!out.stderr_text().contains("cray-limit"), "{}", out.stderr_text());
}

/// `deep_copy` and `update`: `update host(s)` brings home what the members point to and keeps
/// the host's pointers, `update device(s)` sends it (samples/cray/07). Under `--strict-2.0` a
/// second mapping of the struct is 2.0's error, at the struct's clause, naming the first
/// mapping; members two structs share are not second mappings
/// (samples/regress/cray_deep_copy_shared_member_strict.c).
#[test]
fn deep_copy_updates_follow_members_and_strict_second_mapping_errors() {
    let out = accsim(&["run", "--acc-model", "deep_copy", "samples/cray/07_deep_copy_update.c"], &[("CRAY_ACC_DEBUG", "2")]);
    assert_eq!(out.status, 0, "{}", out.stderr_text());
    let debug = out.stderr_text();
    assert!(debug.contains("Transfer 's.val' to host (800 bytes) from samples/cray/07_deep_copy_update.c:31"), "{debug}");
    assert!(debug.contains("Transfer 's.count' to acc (4 bytes) from samples/cray/07_deep_copy_update.c:40"), "{debug}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("after update host: sum = 9900.0, host pointer kept: 1"));

    let dir = std::env::temp_dir().join(format!("accsim-cray-second-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("second.c");
    std::fs::write(
        &file,
        "#include <stdio.h>\n#include <stdlib.h>\nstruct vec { int n; double *x; };\nint main(void) {\n    struct vec v = { 16, malloc(16 * sizeof(double)) };\n    for (int i = 0; i < v.n; i++) v.x[i] = i;\n    #pragma acc enter data copyin(v)\n    #pragma acc parallel loop copy(v)\n    for (int i = 0; i < v.n; i++) v.x[i] += 1;\n    #pragma acc exit data copyout(v)\n    printf(\"%g\\n\", v.x[15]);\n    return 0;\n}\n",
    )
    .expect("write program");
    let path = file.display().to_string();
    let strict = accsim(&["run", "--strict-2.0", "--acc-model", "deep_copy", &path], &[]);
    let present_or = accsim(&["run", "--acc-model", "deep_copy", &path], &[]);
    let _ = std::fs::remove_dir_all(&dir);
    let err = strict.stderr_text();
    assert_eq!(strict.status, 3, "{err}");
    assert!(err.contains("error[present]: `v` is already present on the device; OpenACC 2.0 `copy` requires it not to be (--strict-2.0)"), "{err}");
    assert!(err.contains("second.c:8:32") && err.contains("`v` was mapped here") && !err.contains("v.x"), "{err}");
    assert_eq!(present_or.status, 0, "{}", present_or.stderr_text());
    assert_eq!(String::from_utf8_lossy(&present_or.stdout), "16\n");
}

/// CCE's `vector_length` limits for a value known only at launch: under `--cray`, `check` warns
/// at the clause, naming the value the launch used (once per clause and value); without
/// `--cray`, nothing.
#[test]
fn non_constant_vector_length_is_checked_at_launch() {
    let dir = std::env::temp_dir().join(format!("accsim-cray-vl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("vl.c");
    std::fs::write(
        &file,
        "#include <stdio.h>\nint main(int argc, char **argv) {\n    int vl = argc > 5 ? 128 : 100;\n    float a[1000];\n    for (int k = 0; k < 2; k++) {\n        #pragma acc parallel loop vector_length(vl) copyout(a)\n        for (int i = 0; i < 1000; i++) a[i] = i;\n    }\n    #pragma acc parallel loop num_workers(2) vector_length(vl + 28) copyout(a)\n    for (int i = 0; i < 1000; i++) a[i] = i;\n    #pragma acc parallel loop vector_length(vl + 28) copyout(a)\n    for (int i = 0; i < 1000; i++) a[i] = i;\n    printf(\"%g\\n\", a[999]);\n    return 0;\n}\n",
    )
    .expect("write program");
    let path = file.display().to_string();
    let cray = accsim(&["check", "--cray", &path], &[]);
    let plain = accsim(&["check", &path], &[]);
    let _ = std::fs::remove_dir_all(&dir);
    let err = cray.stderr_text();
    assert!(err.contains("warning[cray-limit]: this launch's vector_length is 100, and Cray CCE does not accept vector_length(100): without num_workers"), "{err}");
    assert!(err.contains("vl.c:6:"), "{err}");
    assert!(err.contains("this launch's vector_length is 128, and Cray CCE does not accept vector_length(128): with num_workers, vector_length can only be 32"), "{err}");
    assert!(err.contains("vl.c:9:"), "{err}");
    assert_eq!(err.matches("warning[cray-limit]").count(), 2, "128 without num_workers is accepted; one warning per clause and value:\n{err}");
    assert_eq!(plain.status, 0, "{}", plain.stderr_text());
    assert!(!plain.stderr_text().contains("cray-limit"));
}

/// `async` without a value (`acc_async_noval`, §2.13.1) is a queue of its own in `--trace`, not
/// the host's track.
#[test]
fn async_without_a_value_has_its_own_trace_track() {
    let dir = std::env::temp_dir().join(format!("accsim-trace-noval-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("noval.c");
    let trace = dir.join("t.json");
    std::fs::write(
        &file,
        "#include <stdio.h>\nint main(void) {\n    float a[256];\n    #pragma acc data create(a)\n    {\n        #pragma acc parallel loop async\n        for (int i = 0; i < 256; i++) a[i] = i;\n        #pragma acc update host(a) async\n        #pragma acc wait\n    }\n    printf(\"%g\\n\", a[255]);\n    return 0;\n}\n",
    )
    .expect("write program");
    let out = accsim(&["run", "--trace", &trace.display().to_string(), &file.display().to_string()], &[]);
    let text = std::fs::read_to_string(&trace).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status, 0, "{}", out.stderr_text());
    assert!(text.contains("\"tid\":-2,\"args\":{\"name\":\"queue acc_async_noval (async without a value)\"}"), "{text}");
    let on_host = text.lines().filter(|l| l.contains("\"tid\":1,") && (l.contains("kernel main") || l.contains("download a"))).count();
    assert_eq!(on_host, 0, "the async kernel and download are not on the host's track:\n{text}");
    assert!(text.lines().any(|l| l.contains("\"name\":\"kernel main$acc6\"") && l.contains("\"tid\":-2")), "{text}");
}
