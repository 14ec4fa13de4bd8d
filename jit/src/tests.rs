//! Unit tests of the engine's launch tiers: when a kernel is settled ([`Engine::settle`]), its
//! launches stop counting their work and walking its call graph (issue 15's compile pipeline,
//! the review of session 11); until then a launch still decides, and a callee compiled quick
//! is still upgraded with the kernel. And of shared machine code ([`crate::shared`]).

use accsim_core::exec::native::{LaunchShape, NativeCode};
use accsim_core::ir::Program;
use accsim_core::kernel::ProgramInfo;

use super::*;

/// A kernel whose loop bound is its launch value `n` and which calls a routine (loop-free, so
/// that the launch's work is counted; not a single expression, so that it is called, not
/// translated inline).
const PROGRAM: &str = r#"
#pragma acc routine seq
static double poly(double v) { double s = v * v + 1.0; s = s * v - 2.0; return s; }
static void step(int n, double *restrict y)
{
#pragma acc parallel loop present(y[0:n])
    for (int i = 0; i < n; i++)
        y[i] = poly(y[i]);
}
static double v[64];
int main(void)
{
#pragma acc data copy(v)
    step(64, v);
    return (int)v[0];
}
"#;

/// Runs `test` on the engine of the test program, the kernel's function id and the routine's.
fn with_the_engine(test: impl FnOnce(&Engine<'_>, u32, u32)) {
    let mut map = accsim_core::diag::SourceMap::new();
    let compiled = accsim_core::driver::compile_preprocessed("settle.c", PROGRAM.to_string(), &mut map).expect("the test program compiles");
    let (p, info): (&Program, &ProgramInfo) = (&compiled.program, &compiled.info);
    let exe = accsim_core::exec::compile(p, info).expect("the executable compiles");
    let engine = Engine::compile_on(p, info, &exe, Some(1)).expect("the engine starts");
    let kernel = p.kernels.first().expect("one kernel").func.0;
    let poly = p.functions.iter().position(|f| f.name == "poly").expect("the routine") as u32;
    test(&engine, kernel, poly);
}

/// The captured values of a launch of the kernel over `n` elements (the bound is its first
/// capture, the array's address unknown).
fn captures(engine: &Engine<'_>, kernel: u32, n: u64) -> Vec<Option<u64>> {
    let fid = engine.fast_variant.get(&kernel).copied().unwrap_or(kernel);
    let count = engine.nparams.get(fid as usize).map_or(0, |&p| p.saturating_sub(4));
    let mut values = vec![None; count];
    if let Some(first) = values.first_mut() {
        *first = Some(n);
    }
    values
}

/// The launch of the kernel over `n` elements with 8 gangs: whether it runs natively.
fn launch(engine: &Engine<'_>, kernel: u32, n: u64) -> bool {
    let values = captures(engine, kernel, n);
    engine.prepare_launch(&LaunchShape { fid: kernel, gangs: 8, workers: 1, vector: 128, captures: &values })
}

fn state(engine: &Engine<'_>, fid: u32) -> (u8, u8) {
    (engine.state[fid as usize].load(Ordering::Acquire), engine.optimise[fid as usize].load(Ordering::Acquire))
}

/// A launch of much work compiles the kernel and its routine optimised at once: the kernel is
/// settled, and its later launches decide nothing.
#[test]
fn a_big_launch_settles_its_kernel() {
    with_the_engine(|engine, kernel, poly| {
        let fid = engine.fast_variant.get(&kernel).copied().unwrap_or(kernel);
        assert!(!engine.is_settled(kernel));
        assert!(launch(engine, kernel, 2_000_000));
        assert!(engine.is_settled(kernel));
        assert_eq!(state(engine, fid).0, NATIVE);
        assert_eq!(state(engine, poly).0, NATIVE);
        assert_ne!(state(engine, fid).1, TIER_UP_WAITING);
        // A settled kernel's launch, even a small one, runs its code.
        assert!(launch(engine, kernel, 10));
        assert!(engine.is_settled(kernel));
    });
}

/// A small launch runs in the interpreter and settles nothing; medium launches run quick code
/// and keep deciding until their work pays for the optimised code, which the kernel and what it
/// calls then get together, and only then is the kernel settled.
#[test]
fn medium_launches_settle_the_kernel_once_it_is_optimised() {
    with_the_engine(|engine, kernel, poly| {
        let fid = engine.fast_variant.get(&kernel).copied().unwrap_or(kernel);
        assert!(!launch(engine, kernel, 10), "a launch of ten elements runs in the interpreter");
        assert!(!engine.is_settled(kernel));
        assert_eq!(state(engine, fid).0, PENDING);
        let medium = 20_000;
        let values = captures(engine, kernel, medium);
        let work = engine.launch_work(&LaunchShape { fid, gangs: 8, workers: 1, vector: 128, captures: &values });
        let w = work.expect("the launch's work is counted");
        assert!((tiers::INTERPRET_BELOW_WORK..tiers::OPTIMISE_AT_ONCE_WORK).contains(&w), "{w}");
        assert!(launch(engine, kernel, medium));
        assert_eq!(state(engine, fid), (NATIVE, TIER_UP_WAITING), "quick code first");
        assert!(!engine.is_settled(kernel));
        // The launch that compiled the quick code, then those whose work the quick code ran.
        let launches = 1 + tiers::QUICK_WORK_BEFORE_OPTIMISING.div_ceil(w);
        for _ in 1..launches {
            assert!(!engine.is_settled(kernel));
            assert!(launch(engine, kernel, medium));
        }
        assert!(engine.is_settled(kernel), "settled after {launches} launches of {w} steps");
        assert_eq!(state(engine, fid).1, TIER_UP_STARTED, "optimised");
        assert_eq!(state(engine, poly).0, NATIVE);
        assert_ne!(state(engine, poly).1, TIER_UP_WAITING);
    });
}

/// A callee whose quick code waits for its optimised code keeps the kernel unsettled, and is
/// upgraded with the kernel when the kernel's launches pay for it.
#[test]
fn a_callee_waiting_for_its_optimised_code_keeps_the_kernel_unsettled() {
    with_the_engine(|engine, kernel, poly| {
        let fid = engine.fast_variant.get(&kernel).copied().unwrap_or(kernel);
        // The routine as if its code were generated quick, its optimised code to follow.
        if let Ok(mut lazy) = engine.lazy.lock() {
            lazy.tiers[poly as usize] = Tier::QuickThenOptimised;
        }
        engine.optimise[poly as usize].store(TIER_UP_WAITING, Ordering::Release);
        let medium = 20_000;
        assert!(launch(engine, kernel, medium));
        assert_eq!(state(engine, poly), (NATIVE, TIER_UP_WAITING));
        assert!(!engine.is_settled(kernel));
        let mut launches = 1;
        while !engine.is_settled(kernel) {
            assert!(launches < 10_000, "never settled");
            assert!(launch(engine, kernel, medium));
            launches += 1;
        }
        assert_eq!(state(engine, fid).1, TIER_UP_STARTED);
        assert_eq!(state(engine, poly).1, TIER_UP_STARTED, "the routine is optimised with its kernel");
    });
}

/// Two sweeps that are the same code up to the order of their captures (`a` → `b`, then `b` →
/// `a`, both outlined with parameters `(a, b)`) and a third with a different body: generated
/// together, the first two share one machine code ([`crate::canon`], [`crate::shared`]), each
/// with its own table of locations, and the first takes its arguments swapped.
#[test]
fn swapped_sweeps_share_one_machine_code() {
    const SWEEPS: &str = r#"
static double a[256], b[256];
int main(void)
{
    int n = 256;
#pragma acc data copy(a, b)
    {
#pragma acc parallel loop present(a, b)
        for (int i = 1; i < n - 1; i++)
            b[i] = 0.5 * (a[i - 1] + a[i + 1]);
#pragma acc parallel loop present(a, b)
        for (int i = 1; i < n - 1; i++)
            a[i] = 0.5 * (b[i - 1] + b[i + 1]);
#pragma acc parallel loop present(a, b)
        for (int i = 1; i < n - 1; i++)
            a[i] = b[i] - a[i];
    }
    return (int)a[3];
}
"#;
    let mut map = accsim_core::diag::SourceMap::new();
    let compiled = accsim_core::driver::compile_preprocessed("sweeps.c", SWEEPS.to_string(), &mut map).expect("the test program compiles");
    let (p, info): (&Program, &ProgramInfo) = (&compiled.program, &compiled.info);
    let exe = accsim_core::exec::compile(p, info).expect("the executable compiles");
    let engine = Engine::compile_on(p, info, &exe, Some(1)).expect("the engine starts");
    engine.compile_all();
    let fast: Vec<u32> = p.kernels.iter().map(|k| engine.fast_variant.get(&k.func.0).copied().unwrap_or(k.func.0)).collect();
    assert_eq!(fast.len(), 3);
    for &f in &fast {
        assert_eq!(state(&engine, f).0, NATIVE, "{}", p.functions[f as usize].name);
    }
    assert!(engine.twinned[fast[0] as usize] && engine.twinned[fast[1] as usize], "the sweeps may share");
    // The code cache holds the code of functions that may share (those of the sweeps' shape).
    let twinned = (0..engine.state.len()).filter(|&f| engine.twinned[f] && engine.state[f].load(Ordering::Acquire) == NATIVE).count();
    let generated = engine.lazy.lock().map(|l| l.shared.len()).unwrap_or(0);
    assert_eq!(generated, twinned - 1, "one code for the two sweeps");
    let order = |f: u32| engine.arg_orders[f as usize].get().cloned();
    assert_eq!(order(fast[0]), Some(vec![0, 1, 2, 3, 4, 6, 5]), "the first sweep writes its second array (after `n`)");
    assert_eq!(order(fast[1]), None, "the second sweep is in canonical form already");
    let locs = |f: u32| engine.locs[f as usize].get().cloned().unwrap_or_default();
    assert_ne!(locs(fast[0]), locs(fast[1]), "each sweep has its own locations");
}
