//! Golden snapshots of the CUDA C that `accsim emit-cuda` makes of the samples (STYLE.md "Tests are
//! golden files"). Each sample's output is compared with `tests/emit/NAME.cu`; regenerate them with
//! `BLESS=1 cargo test -p accsim-cuda --test emit` and review the diff with `git diff`.

use std::path::{Path, PathBuf};

use accsim_core::diag::SourceMap;
use accsim_core::driver;
use accsim_core::frontend::PreprocessOptions;
use accsim_cuda::loopmap::LoopMap;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn compile(sample: &str) -> driver::Compiled {
    let path = root().join(sample);
    let mut map = SourceMap::new();
    match driver::compile_files(&[path.display().to_string()], &PreprocessOptions::default(), &mut map) {
        Ok(c) => c,
        Err(d) => panic!("{sample} does not compile: {}", d.iter().map(|d| d.render(&map, false)).collect::<String>()),
    }
}

/// The emitted text under loop mapping `lm`, or the partial text followed by the list of
/// unsupported forms.
fn emit(sample: &str, lm: LoopMap) -> String {
    let c = compile(sample);
    match accsim_cuda::emit::program_mapped(&c.program, &c.info, lm) {
        Ok((text, _)) => text,
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
    check_mapped(sample, LoopMap::Default);
}

/// [`check`] under a loop mapping: the snapshot is `tests/emit/NAME.MAP.cu`.
fn check_mapped(sample: &str, lm: LoopMap) {
    let actual = emit(sample, lm);
    let name = Path::new(sample).file_stem().and_then(|s| s.to_str()).unwrap_or("out");
    let file = if lm == LoopMap::Default { format!("{name}.cu") } else { format!("{name}.{lm}.cu") };
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/emit").join(file);
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
    let err = accsim_cuda::emit::program(&compiled.program, &compiled.info).expect_err("strlen is not supported on the GPU");
    assert!(err.partial.contains("accsim: not supported"));
    assert!(err.items.iter().any(|u| u.what.contains("strlen")), "{err}");
    // `long double` is computed as a double, in its 16-byte layout (as nvc does on the device).
    assert!(!err.items.iter().any(|u| u.what.contains("long double")), "{err}");
    assert!(err.partial.contains("accsim_ldouble *__restrict__ total_addr_4 = total_addr_4_gangs + __gang;"), "{}", err.partial);
    assert!(err.partial.contains("atomicAdd(((double *)(total_addr_4)), __r);"), "the double in the first 8 bytes: {}", err.partial);
}

/// OpenUH's loop mappings (`--loop-map`, Tian et al. Figs. 6 and 7): a 2-deep nest (Gaussblur,
/// gang rows / vector columns) under each Map2, a 3-deep nest (Laplacian, gang / worker / vector)
/// under each Map3. Each mapped loop is one `for` over its linear index with the mapping's start
/// and stride, and no barrier.
#[test]
fn loop_mappings() {
    for lm in LoopMap::ALL.into_iter().filter(|m| m.depth() > 0) {
        let sample = if lm.depth() == 2 { "samples/openuh/gaussblur.c" } else { "samples/openuh/laplacian.c" };
        check_mapped(sample, lm);
        let text = emit(sample, lm);
        assert!(!text.contains("__syncthreads") && !text.contains("accsim_sync_worker();"), "{lm}: a mapped nest needs no barrier");
        assert_eq!(text.matches(&format!("// {lm}, loop ")).count(), lm.depth(), "{lm}: one mapped loop per level");
    }
}

/// A mapping that does not fit a region says why, and the region keeps the default mapping; a
/// mapping that fits no region is an error.
#[test]
fn loop_mapping_misfits_are_reported() {
    // Laplacian is 3 loops deep: no Map2 fits it.
    let c = compile("samples/openuh/laplacian.c");
    let m = accsim_cuda::emit::module_mapped(&c.program, &c.info, LoopMap::Map2_4).expect("emits");
    assert!(m.loop_maps.is_empty());
    assert!(m.source.contains("-partitioned: each thread runs its share"), "the default mapping is kept");
    let errors = accsim_cuda::loopmap::report(LoopMap::Map2_4, &m).expect_err("fits no region");
    assert_eq!(errors.len(), 1);
    assert!(errors[0].message.contains("maps a nest of 2 partitioned loops; this region has 3 partitioned loops (lines 47, 49, 51)"), "{}", errors[0].message);
    // Jacobi (OpenUH): its sweep has `reduction(max:err)` loops, its copy-back fits.
    let c = compile("samples/openuh/jacobi.c");
    let m = accsim_cuda::emit::module_mapped(&c.program, &c.info, LoopMap::Map2_1).expect("emits");
    assert_eq!(m.loop_maps.len(), 1);
    let warnings = accsim_cuda::loopmap::report(LoopMap::Map2_1, &m).expect("fits one region");
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].severity, accsim_core::diag::Severity::Warning);
    assert_eq!(warnings[0].primary.map(|l| l.line), Some(45));
    // A nest with a `seq` loop between its partitioned loops (Stencil) has fewer partitioned
    // loops than any mapping needs.
    let c = compile("samples/openuh/stencil.c");
    let m = accsim_cuda::emit::module_mapped(&c.program, &c.info, LoopMap::Map3_3).expect("emits");
    assert!(m.map_misfits[0].1.contains("this region has one partitioned loop (line 52)"), "{:?}", m.map_misfits);
}

/// Reductions (§2.5.11, §2.7.11) at vector, worker and worker-vector level, every operator on
/// int, float and double, complex `+`, and a vector reduction inside a worker loop: the threads
/// of the loop combine by a block reduction over their group, then the group's first thread
/// combines the result into the variable once.
#[test]
fn reductions_are_block_reductions() {
    check("cuda-backend/tests/emit/reduction_levels.c");
    let text = emit("cuda-backend/tests/emit/reduction_levels.c", LoopMap::Default);
    // Lanes (rank threadIdx.x), workers (rank threadIdx.y, slots blockDim.x apart), the block.
    for (group, args) in [("the worker's vector lanes", "threadIdx.x, blockDim.x, 1,"), ("the workers,", "threadIdx.y, blockDim.y, blockDim.x,"), ("the workers and vector lanes", "threadIdx.y * blockDim.x + threadIdx.x, blockDim.x * blockDim.y, 1,")] {
        assert!(text.contains(&format!("a block reduction over {group}")), "a reduction over {group}");
        assert!(text.contains(args), "the group of {group}: {args}");
    }
    // Every operator appears as the function of the tree, on each type.
    for op in ["(__assumed + __mine)", "(__assumed * __mine)", "(__mine > __assumed) ? __mine : __assumed", "(__mine < __assumed) ? __mine : __assumed", "(__assumed & __mine)", "(__assumed | __mine)", "(__assumed ^ __mine)", "(__assumed != 0) && (__mine != 0)", "(__assumed != 0) || (__mine != 0)"] {
        assert!(text.contains(&format!("[](int __assumed, int __mine) {{ return {op}")) || text.contains(&format!("[](int __assumed, int __mine) {{ return ({op})")), "int {op}");
    }
    for t in ["float", "double"] {
        assert!(text.matches(&format!("[]({t} __assumed, {t} __mine)")).count() >= 18, "{t}: six operators at three levels");
    }
    assert!(text.contains("accsim_reduce(*(accsim_cdouble *)(&"), "complex + reduces by parts");
    // Inside a worker loop, a vector reduction synchronises that worker's lanes only.
    assert!(text.contains("[] { accsim_sync_worker(); });"), "a worker's lanes reduce with the worker's barrier");
    // One combine per group, no longer one per thread.
    assert!(!text.contains("first version; a block reduction is faster"));
}

/// Barriers only where needed (§1.2): Jacobi's rows (gang) of columns (vector) have none —
/// neither between the rounds of the copy-back nor around the sweep's vector loop, whose block
/// reduction is combined by the block's first thread, which also initialises and reads the
/// gang's copy. A vector loop inside a worker loop uses the worker's barrier where it needs one.
#[test]
fn barriers_only_where_needed() {
    let jacobi = emit("samples/openuh/jacobi.c", LoopMap::Default);
    assert!(!jacobi.contains("// barrier before") && !jacobi.contains("// barrier after"), "Jacobi needs no barrier:\n{jacobi}");
    assert!(jacobi.contains("round by round (no barrier between rounds)"));
    let modes = emit("samples/acc/15_execution_modes.c", LoopMap::Default);
    for line in modes.lines().filter(|l| l.contains("__syncthreads();") || l.contains("accsim_sync_worker();")) {
        assert!(line.contains("// barrier before the partitioned loop:") || line.contains("// barrier after the partitioned loop:"), "every barrier says why: {line}");
    }
    // In 15_execution_modes a worker loop contains vector loops: their barriers are the worker's.
    assert!(modes.contains("accsim_sync_worker(); // barrier"));
    let nested = emit("cuda-backend/tests/emit/reduction_levels.c", LoopMap::Default);
    // The worker's copy `si` (one slot per worker) is read by all the worker's lanes after the
    // vector loop whose reduction lane 0 combines into it: the worker's barrier after the loop,
    // and before it (the lanes read the previous iteration's value).
    assert!(nested.contains("accsim_sync_worker(); // barrier after the partitioned loop: `si`"));
    assert!(nested.contains("accsim_sync_worker(); // barrier before the partitioned loop: `si`"));
}

/// The cases of `tests/emit/barriers.c`, kernel by kernel: (barriers before, barriers after).
#[test]
fn barrier_cases() {
    check("cuda-backend/tests/emit/barriers.c");
    let text = emit("cuda-backend/tests/emit/barriers.c", LoopMap::Default);
    let kernels: Vec<&str> = text.split("\n// line ").skip(1).collect();
    let count = |k: &str| (k.matches("// barrier before the partitioned loop").count(), k.matches("// barrier after the partitioned loop").count());
    assert_eq!(kernels.len(), 4);
    assert_eq!(count(kernels[0]), (0, 0), "1. a vector loop alone in a gang iteration");
    assert_eq!(count(kernels[1]), (1, 0), "2. single code stores what the vector loop reads");
    assert_eq!(count(kernels[2]), (1, 1), "3. a gang-private array filled by the loop, read after it");
    assert!(kernels[2].contains("barrier after the partitioned loop: `row`"));
    assert_eq!(count(kernels[3]), (1, 1), "4. a vector loop reads what the previous one wrote");
}

/// Issue 12 (GPU): single code's store to a shared variable that every thread then reads before
/// the next partitioned loop (a `for seq` counter bounding a vector loop, in gang-redundant and
/// worker-single code; a local a `routine seq` writes through its address) is broadcast between
/// two barriers of its context, as is the reset of a gang's copy that a `while` condition reads;
/// a store that a partitioned loop follows first is not (samples/pgi13/09_seed_examples.c summed
/// 606 instead of 726 on the GPU; V&V parallel_while_loop.F90 hung).
#[test]
fn single_store_read_by_all_threads_is_broadcast() {
    let sample = "samples/regress/gpu_single_store_read_by_all.c";
    check(sample);
    let text = emit(sample, LoopMap::Default);
    let kernels: Vec<&str> = text.split("__global__").skip(1).collect();
    // The first `kernels` region is two kernels (its two loop nests).
    assert_eq!(kernels.len(), 6, "six kernels");
    let marks = |k: &str| k.matches("read this store of single code").count();
    assert_eq!(marks(kernels[0]), 0, "the zeroing nest stores nothing single code reads");
    assert_eq!(marks(kernels[1]), 1, "1. the `kernels` seq counter:\n{}", kernels[1]);
    assert!(kernels[1].contains("__syncthreads(); // the threads read this store"));
    assert_eq!(marks(kernels[2]), 1, "2. the seq counter in a worker loop:\n{}", kernels[2]);
    assert!(kernels[2].contains("accsim_sync_worker(); // the threads read this store"));
    assert_eq!(marks(kernels[3]), 1, "3. the length a routine stores through `&len`:\n{}", kernels[3]);
    assert!(kernels[3].contains("__shared__ int len_"), "`len` lives where every thread reads it");
    assert_eq!(marks(kernels[4]), 0, "4. a routine's own locals are the thread's");
    assert_eq!(marks(kernels[5]), 1, "5. the gang's copy of `avg` reset before the `while`:\n{}", kernels[5]);
    // The other threads load that copy again after the barrier: no `__restrict__` (with it the
    // compiler kept `avg` in a register and the `while` never ended on an H200).
    assert!(kernels[5].contains("double *avg_addr_4 = "), "5. the broadcast gang copy is not __restrict__:\n{}", kernels[5]);
    check("samples/pgi13/09_seed_examples.c");
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
                let _ = accsim_cuda::emit::program(&c.program, &c.info);
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

/// Issue 12 item 14: the PolyBench shapes of `samples/regress/gpu_*.c` translate, each with its
/// snapshot. A loop counter that several loop nests share (`int i, j;`) is a register of each
/// thread, not block-shared memory: no value flows between its uses (§2.6.1).
#[test]
fn polybench_shapes_translate() {
    for name in ["gpu_counter_shared_by_nests", "gpu_counter_in_memory", "gpu_private_pointer_copy", "gpu_cholesky_seq_outer", "gpu_store_in_loop_header", "gpu_store_in_vector_loop_header", "gpu_nested_reduction_same_variable", "gpu_workers_beyond_block"] {
        let sample = format!("samples/regress/{name}.c");
        check(&sample);
        let text = emit(&sample, LoopMap::Default);
        assert!(!text.contains("not supported"), "{name} translates:\n{text}");
    }
    let counters = emit("samples/regress/gpu_counter_shared_by_nests.c", LoopMap::Default);
    assert!(!counters.contains("__shared__ int"), "the shared counters are registers");
    // A counter in memory (a per-gang firstprivate copy reached through a pointer): each thread
    // keeps its own copy, so that the lanes do not share one.
    let in_memory = emit("samples/regress/gpu_counter_in_memory.c", LoopMap::Default);
    assert!(in_memory.contains("int i_addr_4_mine = i_addr_4_gangs[__gang]; // this thread's copy"), "{in_memory}");
    assert!(in_memory.contains("int *__restrict__ i_addr_4 = &i_addr_4_mine;"));
    // A `private(tmp[0:M])` pointer's copy per thread starts as the gang's, which aims into the
    // gang's block.
    let private = emit("samples/regress/gpu_private_pointer_copy.c", LoopMap::Default);
    assert!(private.contains("double *tmp_addr_7_mine = tmp_addr_7_gangs[__gang];"), "{private}");
    let cholesky = emit("samples/regress/gpu_cholesky_seq_outer.c", LoopMap::Default);
    assert!(!cholesky.contains("__shared__"), "`j`, `k` and `x` are registers");
    assert!(!cholesky.contains("(shared by the block's threads)"), "no barrier for a local; those for `p` and `A` stay");
}

/// Issue 12 (variable-length arrays): kernels that index rows and planes of variable-length arrays
/// (locals, parameters, pointers to VLA rows) translate, each row step in bytes from the count
/// locals the kernel captures (C11 6.5.6p8, 6.7.6.2p5), and the snapshots parse as C++.
#[test]
fn variable_length_arrays_translate() {
    for name in ["vla_local_rows", "vla_param_whole", "vla_pointer_rows", "vla_3d_kernels", "real_matmul_vla_params"] {
        let sample = format!("samples/regress/{name}.c");
        check(&sample);
        let text = emit(&sample, LoopMap::Default);
        assert!(!text.contains("not supported"), "{name} translates:\n{text}");
    }
    // `unew[i][j]` of `double unew[n][m]`: the row is `m * 8` bytes, `m` the captured count.
    let local = emit("samples/regress/vla_local_rows.c", LoopMap::Default);
    assert!(local.contains("* (long)(8UL * vla_size_"), "{local}");
    // A private copy of a VLA: each thread's from the device heap, sized by the captured
    // count (§2.7.10); a gang's copies of `private(w)` are the array's run-time size apart.
    check("samples/regress/vla_private.c");
    let private = emit("samples/regress/vla_private.c", LoopMap::Default);
    assert!(!private.contains("not supported"), "{private}");
    assert!(private.contains("accsim_vla priv_"), "{private}");
    assert!(private.contains(".alloc((8UL * vla_size_"), "{private}");
    assert!(private.contains("(double (*)[])((char *)w_addr_12_gangs + __gang * (8UL * vla_size_"), "{private}");
}

/// A store in a condition or `for` clause of code that one thread runs is evaluated by that
/// thread and its value broadcast: through a block slot after `__syncthreads()` in gang-redundant
/// code, through a worker's slot after the worker's barrier in worker-single code.
#[test]
fn control_expressions_with_stores_are_broadcast() {
    let text = emit("samples/regress/gpu_store_in_loop_header.c", LoopMap::Default);
    assert!(text.contains("for ([&]() -> int { __syncthreads(); if (threadIdx.x == 0 && threadIdx.y == 0) __ctl_int = "), "the `for` init of a counter in device memory");
    assert!(text.contains("__syncthreads(); return __ctl_int; }())"));
    assert!(text.contains("if ([&]() -> int { accsim_sync_worker(); if (threadIdx.x == 0) __ctl_w_int[threadIdx.y] = "), "a worker-single condition");
    // Worker-single code in a vector loop: a plain assignment is made by the first worker and
    // every thread has the value; a statement whose control updates memory (`todo[j][i]-- > 0`)
    // is run by the first worker alone.
    let vector = emit("samples/regress/gpu_store_in_vector_loop_header.c", LoopMap::Default);
    assert!(vector.contains("((threadIdx.y == 0) ? ("), "a guarded plain store in a `for` init:\n{vector}");
    assert!(vector.contains("if (threadIdx.y == 0) // worker-single code in a vector loop: the first worker alone runs this statement"), "{vector}");
}

/// Nested reductions on one variable (§2.7.11): the workers combine the copies into which their
/// lanes combined, read from each worker's shared slot.
#[test]
fn nested_reductions_on_one_variable() {
    let text = emit("samples/regress/gpu_nested_reduction_same_variable.c", LoopMap::Default);
    let worker_combine = text.lines().find(|l| l.contains("accsim_reduce(") && l.contains("threadIdx.y, blockDim.y, blockDim.x,")).expect("a reduction over the workers");
    assert!(worker_combine.contains("[threadIdx.y], __scratch_double"), "the worker's copy is its shared slot: {worker_combine}");
}

/// A launch of more workers × lanes than a block holds (`num_workers(100) vector_length(32)`)
/// runs the rows the block holds; a kernel with per-worker slots at most 32 rows, one with a
/// named barrier per worker at most 15 (`Module::block_fit`).
#[test]
fn launches_beyond_a_block_fit_it() {
    let c = compile("samples/regress/gpu_workers_beyond_block.c");
    let m = accsim_cuda::emit::module(&c.program, &c.info).expect("translates");
    assert_eq!(m.worker_limits.len(), 2, "two kernels");
    for (&fid, limits) in &m.worker_limits {
        // Both have a vector loop with a reduction inside a worker loop: a slot per worker (the
        // worker's copy) and the worker's barrier.
        assert!(limits.worker_slots && limits.worker_barriers, "{limits:?}");
        assert_eq!(m.block_fit(fid, 100, 32), (32, 32), "lanes of a worker in one warp: a warp barrier");
        assert_eq!(m.shape(fid, 3, 100, 32), ([3, 1, 1], [32, 32, 1]));
        assert_eq!(m.block_fit(fid, 40, 64), (15, 64), "named barriers: 1 + worker < 16");
        assert_eq!(m.block_fit(fid, 100, 1), (32, 1), "at most 32 rows of per-worker slots");
        assert_eq!(m.block_fit(fid, 4, 2048), (1, 1024), "at most 1024 lanes: one row");
        assert_eq!(m.block_fit(fid, 4, 32), (4, 32), "a launch that fits runs as asked");
    }
}

/// Where kernel locals live (`tests/emit/homes.c`, cuda-backend/src/liveness.rs): a counter that
/// a sequential loop and a vector loop share is a register; a local whose value leaves the
/// vector loop, is read by a lane before it writes it, or comes back in the next round of an
/// enclosing loop is block-shared.
#[test]
fn locals_are_shared_only_where_values_flow_between_threads() {
    check("cuda-backend/tests/emit/homes.c");
    let text = emit("cuda-backend/tests/emit/homes.c", LoopMap::Default);
    let shared: Vec<&str> = text.lines().filter_map(|l| l.trim().strip_prefix("__shared__ int ")).collect();
    let named = |n: &str| shared.iter().any(|s| s.starts_with(&format!("{n}_")));
    assert!(!named("reused"), "a counter of two loops: {shared:?}");
    for n in ["left", "carried", "round_value"] {
        assert!(named(n), "`{n}` carries a value between threads: {shared:?}");
    }
}

/// An `atomic` whose target is the running thread's own copy (a `routine vector`'s reduction
/// combine into its local, run by the one calling thread for each of its lanes) is a plain
/// statement: CUDA atomics on a thread's local memory fail the launch.
#[test]
fn atomics_on_a_threads_own_copy_are_plain() {
    let text = emit("samples/regress/routine_worker_loop_race.c", LoopMap::Default);
    assert!(!text.contains("accsim_cas(__p"), "{text}");
    assert!(text.contains("best_2 = ((priv_14 > best_2) ? priv_14 : best_2);"), "{text}");
}

/// Device addresses that host code took (`host_data use_device`, `acc_deviceptr`) and passed as
/// integers become the block's GPU address when device code makes a pointer of them.
#[test]
fn integers_made_pointers_are_translated() {
    check("samples/regress/device_address_in_copied_data.c");
    let c = compile("samples/regress/device_address_in_copied_data.c");
    let m = accsim_cuda::emit::module(&c.program, &c.info).expect("translates");
    assert!(m.device_addresses);
    assert!(m.source.contains("(*((double *)accsim_device_address((unsigned long long)(((unsigned long *)where_addr_4)[((long)i_5)])))) += 100.0;"), "{}", m.source);
    assert!(m.source.contains("(*((double *)accsim_device_address((unsigned long long)(last_4)))) = (-1.0);"), "{}", m.source);
    let c = compile("samples/acc/02_saxpy.c");
    let plain = accsim_cuda::emit::module(&c.program, &c.info).expect("translates");
    assert!(!plain.device_addresses && !plain.source.contains("accsim_device_address"));
}

/// `long double` is computed as a double in its 16-byte layout: data, reductions and atomics on
/// the double in the first 8 bytes.
#[test]
fn long_double_is_a_double_in_sixteen_bytes() {
    check("samples/regress/long_double_on_device.c");
    let text = emit("samples/regress/long_double_on_device.c", LoopMap::Default);
    assert!(!text.contains("not supported"), "{text}");
    assert!(text.contains("struct __align__(16) accsim_ldouble {"));
    assert!(text.contains("atomicAdd(((double *)(count_addr_7)), 1.0);"), "{text}");
}

/// GNU `aligned` on a member: `__align__` on that member gives gcc's offset (the `static_assert`
/// of the record's size holds in NVRTC as in a host compiler).
#[test]
fn aligned_members_keep_their_offsets() {
    check("samples/regress/gnu_aligned_layout.c");
    let text = emit("samples/regress/gnu_aligned_layout.c", LoopMap::Default);
    assert!(text.contains("__align__(32) double value; // GNU `aligned`: at offset 32"), "{text}");
}

/// Complex `*` reductions (§2.5.11): the block combines with the gang model's double-precision
/// product, and the last combine is a compare-and-swap loop.
#[test]
fn complex_multiply_reductions_translate() {
    check("conformance/spec/2.7.11_reduction_complex_multiply.c");
    let text = emit("conformance/spec/2.7.11_reduction_complex_multiply.c", LoopMap::Default);
    assert!(text.contains("return accsim_cmul_combine(__assumed, __mine);"), "{text}");
    assert!(text.contains("accsim_cmul_atomic((accsim_cfloat *)(z_addr_4), __r);"), "{text}");
}
