//! The OpenMP runtime routines a host program calls (OpenMP 4.5 chapter 3), for programs that
//! include `<omp.h>` to time themselves or print their thread count, as the OpenACC training
//! labs do.
//!
//! accsim's host is sequential and `#pragma omp` lines are ignored (a note under `accsim info`
//! and `check`), so every region runs on one thread, the initial thread: the routines answer as
//! OpenMP's do outside any parallel region with one thread available (`omp_get_num_threads` 1,
//! `omp_get_thread_num` 0, `omp_get_max_threads` 1, `omp_in_parallel` 0, level 0).
//! `omp_set_num_threads` and the other setters are accepted and change nothing that a program
//! could observe through these routines: a region would still run on one thread. Timing is the
//! host's real clock (`omp_get_wtime`: seconds since the epoch; `omp_get_wtick`: 1 ns).
//!
//! Locks (`omp_init_lock` …, §3.3) keep their state in the program's `omp_lock_t` (the first
//! four bytes: 0 unlocked, 1 locked) and `omp_nest_lock_t` (the first four bytes: the nesting
//! count), so a use of an uninitialised or destroyed lock is seen. With one thread, setting a
//! lock this thread already holds can never succeed: that is reported as the deadlock it is.

use super::machine::{Machine, Trap};
use crate::diag::{Diagnostic, Loc};

/// One OpenMP runtime routine.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OmpFn {
    GetWtime,
    GetWtick,
    /// Routines whose answer on accsim's one host thread is a constant (the value).
    Constant(i32),
    /// `omp_get_ancestor_thread_num(level)`: 0 at level 0, -1 otherwise.
    AncestorThreadNum,
    /// `omp_get_team_size(level)`: 1 at level 0, -1 otherwise.
    TeamSize,
    /// Setters (`omp_set_num_threads`, `omp_set_dynamic`, …): accepted, no observable effect.
    Setter,
    /// `omp_get_schedule(omp_sched_t *kind, int *chunk)`: static, default chunk.
    GetSchedule,
    InitLock,
    DestroyLock,
    SetLock,
    UnsetLock,
    TestLock,
    InitNestLock,
    DestroyNestLock,
    SetNestLock,
    UnsetNestLock,
    TestNestLock,
}

/// The routine a library name binds to, if it is one of OpenMP's.
pub fn runtime_fn(name: &str) -> Option<OmpFn> {
    use OmpFn::*;
    Some(match name {
        "omp_get_wtime" => GetWtime,
        "omp_get_wtick" => GetWtick,
        "omp_get_num_threads" | "omp_get_max_threads" | "omp_get_num_procs" | "omp_get_thread_limit"
        | "omp_get_max_active_levels" | "omp_is_initial_device" => Constant(1),
        "omp_get_thread_num" | "omp_in_parallel" | "omp_get_dynamic" | "omp_get_nested" | "omp_get_level"
        | "omp_get_active_level" | "omp_in_final" | "omp_get_cancellation" | "omp_get_proc_bind"
        | "omp_get_num_devices" | "omp_get_default_device" | "omp_get_num_places" => Constant(0),
        "omp_get_ancestor_thread_num" => AncestorThreadNum,
        "omp_get_team_size" => TeamSize,
        "omp_set_num_threads" | "omp_set_dynamic" | "omp_set_nested" | "omp_set_max_active_levels"
        | "omp_set_schedule" | "omp_set_default_device" => Setter,
        "omp_get_schedule" => GetSchedule,
        "omp_init_lock" | "omp_init_lock_with_hint" => InitLock,
        "omp_destroy_lock" => DestroyLock,
        "omp_set_lock" => SetLock,
        "omp_unset_lock" => UnsetLock,
        "omp_test_lock" => TestLock,
        "omp_init_nest_lock" | "omp_init_nest_lock_with_hint" => InitNestLock,
        "omp_destroy_nest_lock" => DestroyNestLock,
        "omp_set_nest_lock" => SetNestLock,
        "omp_unset_nest_lock" => UnsetNestLock,
        "omp_test_nest_lock" => TestNestLock,
        _ => return None,
    })
}

/// A lock's state word: unlocked, locked (simple locks) or the nesting count (nestable locks),
/// and `DESTROYED` after `omp_destroy_*lock`.
const UNLOCKED: u32 = 0;
const LOCKED: u32 = 1;
const DESTROYED: u32 = 0xdead_10c4;

/// `omp_sched_static` (OpenMP 4.5 §3.2.12).
const SCHED_STATIC: u32 = 1;

/// Run an OpenMP routine with evaluated arguments; the result as the machine's return word.
pub fn call(m: &mut Machine, f: OmpFn, args: &[u64], loc: Loc) -> Result<u64, Trap> {
    use OmpFn::*;
    let a = |i: usize| args.get(i).copied().unwrap_or(0);
    let int = |v: i32| v as i64 as u64;
    macro_rules! mem {
        ($e:expr) => {
            match $e {
                Ok(v) => v,
                Err(fault) => return Err(m.fault(fault, loc)),
            }
        };
    }
    let misuse = |what: String| Err(Trap::error(Diagnostic::error("omp-lock", what, loc)));
    Ok(match f {
        GetWtime => seconds_since_origin().to_bits(),
        GetWtick => 1e-9f64.to_bits(),
        Constant(v) => int(v),
        AncestorThreadNum => int(if a(0) as i32 == 0 { 0 } else { -1 }),
        TeamSize => int(if a(0) as i32 == 0 { 1 } else { -1 }),
        Setter => 0,
        GetSchedule => {
            mem!(m.mem.store_u32(a(0), SCHED_STATIC));
            mem!(m.mem.store_u32(a(1), 0));
            0
        }
        InitLock | InitNestLock => {
            mem!(m.mem.store_u32(a(0), UNLOCKED));
            0
        }
        DestroyLock | DestroyNestLock | SetLock | UnsetLock | TestLock | SetNestLock | UnsetNestLock | TestNestLock => {
            let state = mem!(m.mem.load_u32(a(0)));
            let nest = matches!(f, DestroyNestLock | SetNestLock | UnsetNestLock | TestNestLock);
            if state == DESTROYED || (!nest && state > LOCKED) {
                return misuse("an OpenMP lock used after `omp_destroy_lock` or before `omp_init_lock` (OpenMP 4.5 §3.3)".into());
            }
            match f {
                DestroyLock | DestroyNestLock if state != UNLOCKED => {
                    return misuse("`omp_destroy_lock` of a lock that is set (OpenMP 4.5 §3.3.2)".into());
                }
                DestroyLock | DestroyNestLock => {
                    mem!(m.mem.store_u32(a(0), DESTROYED));
                    0
                }
                SetLock if state == LOCKED => {
                    return misuse("`omp_set_lock` of a lock this thread already holds: it would wait forever (accsim's host has one thread; OpenMP 4.5 §3.3.4)".into());
                }
                SetLock | SetNestLock => {
                    mem!(m.mem.store_u32(a(0), state + 1));
                    0
                }
                UnsetLock | UnsetNestLock if state == UNLOCKED => {
                    return misuse("`omp_unset_lock` of a lock that is not set (OpenMP 4.5 §3.3.5)".into());
                }
                UnsetLock | UnsetNestLock => {
                    mem!(m.mem.store_u32(a(0), state - 1));
                    0
                }
                TestLock if state == LOCKED => 0,
                _ => {
                    // omp_test_lock of a free lock, or omp_test_nest_lock: set it (once more).
                    mem!(m.mem.store_u32(a(0), state + 1));
                    int(if nest { (state + 1) as i32 } else { 1 })
                }
            }
        }
    })
}

/// The host's real time in seconds since the epoch (`omp_get_wtime`).
/// `omp_get_wtime`: wall-clock seconds since a fixed time in the past (OpenMP 4.5 §3.4.1; the
/// origin is the first call in this process, as libgomp's is an arbitrary monotonic origin).
/// A monotonic clock near zero keeps the nanosecond tick `omp_get_wtick` promises: seconds
/// since the Unix epoch as a `double` step by 0.24 µs.
fn seconds_since_origin() -> f64 {
    static ORIGIN: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    ORIGIN.get_or_init(std::time::Instant::now).elapsed().as_secs_f64()
}
