//! The host interpreter: runs a linked [`ir::Program`] as gcc's code would on x86-64 Linux.
//!
//! **Model.** [`compile`] turns the IR once into an [`Executable`]: every expression becomes a
//! closure specialised by operation and type (`i32` add, `f32` multiply done in single precision as
//! SSE does, loads of each width, ...), every function a flat instruction list with jumps, so
//! `goto`, `break`, `continue` and `switch` are jumps and nothing is looked up by name at run time.
//! Hot shapes get superinstructions: register and constant operands fused into the operation,
//! array subscripts that are polynomials of register locals (`a[i*n + j]`) evaluated inline by
//! the load, `s += x*y`, the `i++; i < n` of counted loops, and counted loops whose body is one
//! statement run outside the dispatch loop (still counting fuel and calling the observer exactly
//! as the plain instructions would).
//!
//! [`Executable::run`] (or [`run`]) executes it on a thread with a large stack: C calls are Rust
//! calls, register locals are slots of a word stack, every memory local (array, record,
//! address-taken scalar) is its own allocation made at call entry and freed at return, so writing
//! past a local's end and using a pointer to a dead local are both caught; VLAs and `va_list`
//! areas are allocations freed at return too. Memory is the checked allocation table of
//! [`memory`].
//!
//! **Values** are 64-bit words (see [`crate::ir`]): integers sign- or zero-extended, `float` as its
//! bit pattern, `double` and `long double` as f64 bits (long double is 16 bytes in memory: the f64
//! then zeros), pointers as pointer words, records and complex numbers as addresses.
//!
//! **Where C is undefined** the interpreter does what gcc -O0 on x86-64 does when that is harmless
//! (shift counts masked to 5/6 bits, out-of-range float→int giving `0x80000000...`, signed overflow
//! wrapping) and stops with a diagnostic when the machine would fault or the result is garbage:
//! out-of-bounds access, use after free, double and invalid free, null dereference, writes to
//! string literals, integer division by zero and `INT_MIN / -1`. Diagnostics carry the
//! expression's location and, as related location, where the allocation was made or freed.
//!
//! **Limits and control.** A fuel budget counts executed instructions ([`RunOptions::max_steps`]),
//! the live bytes are capped ([`RunOptions::max_memory`]), the C call depth is capped
//! ([`MAX_CALL_DEPTH`]); each ends the run with [`RunOutcome::Limit`]. An [`Observer`] is called
//! before every statement and may stop the run.
//!
//! **The C library** a program calls is bound by name at compile time in [`libc_shim`]; a called
//! function with neither a definition nor a shim is a link error, like `ld`'s "undefined reference".
//!
//! **OpenACC.** Directives compile to calls of the runtime in [`openacc`] (data environment,
//! queues, launches); compute regions are outlined kernel functions that a [`device::Device`]
//! runs — gangs on device threads ([`Machine::device_fork`]) that share the device memory and
//! cannot touch host memory.
//!
//! Known limits: `goto`/`break`/`continue`/`return` out of a GNU statement expression are not
//! supported; stdout is flushed (not discarded, as glibc would when writing to a pipe) when the
//! program aborts or traps; the observer sees a location and a call depth, not yet the machine
//! state; layouts of memory locals do not model the stack (addresses of different locals are not
//! ordered or adjacent as on x86-64, which only a program with undefined behaviour can notice).

pub mod acc_state;
mod arith;
pub(crate) mod float_ops;
pub mod atomic;
pub mod check;
pub mod cray_debug;
pub mod device;
pub mod events;
pub mod gang;
pub mod inspect;
pub mod libc_bind;
mod libc_erf;
pub mod libc_file;
pub mod libc_omp;
pub mod libc_shim;
pub mod libc_state;
pub mod memory;
pub mod memory_model;
pub mod observed_host;
pub mod native;
pub mod openacc;
pub mod value;

mod compile;
mod machine;
mod run;

#[cfg(test)]
mod tests;

use crate::diag::{Diagnostic, Diagnostics};
use crate::ir;

pub use run::{RunOptions, RunOutcome};
pub use machine::code::{AccSite, AccSiteKey};
pub use machine::{arith_trap, time_limit_diagnostic, ArithFault, Capture, Control, DeviceFork, Executable, Machine, Observer, Sink, Trap, TrapKind, MAX_CALL_DEPTH};

/// Compile a validated, linked program once.
pub fn compile(program: &ir::Program, info: &crate::kernel::ProgramInfo) -> Result<Executable, Diagnostics> {
    crate::phase::timed("executable", || compile::compile(program, info))
}

/// Compile a validated, linked program for checking: every memory access and the structure of
/// each kernel's execution are reported to the run's subscribers of device events
/// ([`events::Subscriber::device_events`]; slower than
/// [`compile`]: no fused loads or loops).
pub fn compile_for_checking(program: &ir::Program, info: &crate::kernel::ProgramInfo) -> Result<Executable, Diagnostics> {
    crate::phase::timed("executable", || compile::compile_mode(program, info, true))
}

/// Compile and run `program`'s `main` with `argv` (argv[0] is the program name).
pub fn run(
    program: &ir::Program,
    info: &crate::kernel::ProgramInfo,
    options: RunOptions,
    argv: Vec<String>,
) -> Result<RunOutcome, Diagnostics> {
    let exe = compile(program, info)?;
    Ok(exe.run(options, argv))
}

/// Stack of the interpreter thread: deep C recursion is deep Rust recursion.
pub const INTERPRETER_STACK: usize = 1 << 30;

thread_local! {
    /// The stack size of this thread when it was started by [`on_interpreter_stack`]: runs on
    /// it need no thread of their own.
    static INTERPRETER_STACK_HERE: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
}

/// Run `f` on a new thread with the interpreter's stack, on which [`Executable::run`] runs the
/// program directly instead of starting a thread of its own. `Err` when the thread cannot start
/// (its stack is address space the process may not get: `ulimit -v`), `Ok(None)` when `f`
/// panicked.
///
/// Why (issue 15, "`check` ≤ 3× the program's data in memory"): glibc gives each thread that
/// allocates its own malloc arena, and memory freed in one arena is never reused by another.
/// When the front end runs on the main thread and the program on a second one, the front end's
/// freed syntax trees stay as holes in the main arena while the run (its data, the native
/// engine's code generation) grows a fresh arena beside them: several megabytes of a small
/// program's peak. On one thread, the run reuses what the front end freed.
pub fn on_interpreter_stack<T: Send>(f: impl FnOnce() -> T + Send) -> std::io::Result<Option<T>> {
    std::thread::scope(|s| {
        let handle = std::thread::Builder::new()
            .name("accsim-interpreter".into())
            .stack_size(INTERPRETER_STACK)
            .spawn_scoped(s, || {
                INTERPRETER_STACK_HERE.with(|c| c.set(Some(INTERPRETER_STACK)));
                f()
            })?;
        Ok(handle.join().ok())
    })
}

impl Executable {
    /// Run `main` on a fresh interpreter thread with a large stack, or on this thread when it
    /// is one ([`on_interpreter_stack`]).
    pub fn run(&self, options: RunOptions, argv: Vec<String>) -> RunOutcome {
        if let Some(stack_size) = INTERPRETER_STACK_HERE.with(|c| c.get()) {
            // As on a thread of its own, a panic of the interpreter (an accsim bug) ends the run
            // with an internal error instead of the process.
            let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run::run_main(self, options, argv, stack_size)));
            return ran.unwrap_or_else(|_| RunOutcome::Trapped(Diagnostic::internal("the interpreter thread panicked", None)));
        }
        std::thread::scope(|s| {
            let handle = std::thread::Builder::new()
                .name("accsim-interpreter".into())
                .stack_size(INTERPRETER_STACK)
                .spawn_scoped(s, || {
                    run::run_main(self, options, argv, INTERPRETER_STACK)
                });
            match handle {
                Ok(h) => h.join().unwrap_or_else(|_| {
                    RunOutcome::Trapped(Diagnostic::internal(
                        "the interpreter thread panicked",
                        None,
                    ))
                }),
                Err(e) => RunOutcome::Trapped(Diagnostic::internal(
                    format!("cannot start the interpreter thread: {e}"),
                    None,
                )),
            }
        })
    }
}
