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
pub mod memory;
pub mod native;
pub mod openacc;
pub mod value;

mod code;
mod compile;
mod machine;

#[cfg(test)]
mod tests;

use std::io::Write;
use std::sync::{Arc, Mutex};

use crate::diag::{Diagnostic, Diagnostics, Loc};
use crate::ir;

pub use code::Executable;
pub use machine::{arith_trap, time_limit_diagnostic, ArithFault, DeviceFork, Machine, Trap, TrapKind, MAX_CALL_DEPTH};

/// What the observer tells the interpreter.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Control {
    Continue,
    Stop,
}

/// Called before every statement (and every loop test) is executed.
pub trait Observer: Send {
    /// `depth` is the C call depth (1 in `main`).
    fn on_step(&mut self, loc: Loc, depth: usize) -> Control;

    /// The same hook with a read-only view of the machine (registers of the running call,
    /// memories, present table, model clock), for tools that show the state (the GUI). The
    /// interpreter calls this one; by default it forwards to [`Observer::on_step`].
    fn on_step_inspect(&mut self, view: &inspect::MachineView<'_>) -> Control {
        self.on_step(view.loc(), view.depth())
    }
}

/// How a run ended.
#[derive(Clone, Debug)]
pub enum RunOutcome {
    /// `main` returned or `exit` was called; the status as the shell sees it (0..=255).
    Exited(i32),
    /// A runtime error in the program (exit status 3).
    Trapped(Diagnostic),
    /// A limit was reached: fuel, memory, call depth (exit status 4).
    Limit(Diagnostic),
    /// `abort()` or a failed `assert` (exit status 134, as a shell reports SIGABRT).
    Aborted,
    /// The observer asked to stop.
    Stopped,
}

impl RunOutcome {
    /// The process exit status accsim reports for this outcome.
    pub fn exit_code(&self) -> i32 {
        match self {
            RunOutcome::Exited(c) => *c,
            RunOutcome::Trapped(_) => 3,
            RunOutcome::Limit(_) => 4,
            RunOutcome::Aborted => 134,
            RunOutcome::Stopped => 130,
        }
    }
    /// The diagnostic of a trapped or limited run.
    pub fn diagnostic(&self) -> Option<&Diagnostic> {
        match self {
            RunOutcome::Trapped(d) | RunOutcome::Limit(d) => Some(d),
            _ => None,
        }
    }
}

/// An output stream of the program.
pub type Sink = Box<dyn Write + Send>;

/// Options of one run.
#[derive(Default)]
pub struct RunOptions {
    /// Fuel: the number of instructions the run may execute.
    pub max_steps: Option<u64>,
    /// Cap on the live bytes of program memory (default 4 GiB).
    pub max_memory: Option<u64>,
    /// Where the program's stdout goes (default: the process's stdout).
    pub stdout: Option<Sink>,
    /// Where the program's stderr goes (default: the process's stderr).
    pub stderr: Option<Sink>,
    pub observer: Option<Box<dyn Observer>>,
    /// The simulated device's launch defaults and modes.
    pub device: openacc::DeviceConfig,
    /// Receive the run's events ([`events`]) as they happen: the timeline
    /// ([`events::Timeline`]), the checkers (`accsim check`; the executable must be compiled
    /// with [`compile_for_checking`] for memory accesses and device threads to reach them).
    pub subscribers: Vec<Box<dyn events::Subscriber>>,
    /// The memory model of `--coherence weak` (an executable compiled for checking).
    pub memory_model: Option<Box<dyn check::MemoryModel>>,
    /// The accelerator (default: [`device::SequentialDevice`]).
    pub accelerator: Option<device::DeviceHandle>,
    /// The level and prefixes of Cray CCE's `CRAY_ACC_DEBUG` commentary, shared with its
    /// subscriber ([`cray_debug::CrayDebug`]) so that the `cray_acc_set_debug_*` routines change
    /// what it prints (default: a control of its own, which the routines read and set).
    pub cray_debug: Option<std::sync::Arc<cray_debug::CrayDebugControl>>,
    /// The environment `getenv` sees: `None`, accsim's own; `Some`, only these variables.
    pub environment: Option<std::collections::BTreeMap<String, String>>,
    /// Native code for some functions (issue 15), run in their place when nothing observes the
    /// run (no observer, no memory model, no subscriber that follows memory accesses).
    pub native: Option<native::NativeHandle>,
    /// `--max-time`: when the run started (preprocessing included) and the limit in seconds. The
    /// run stops with a `max-time` limit at the line it is running once the time is up (checked
    /// every 65,536 steps).
    pub deadline: Option<(std::time::Instant, f64)>,
    /// What files the program may open ([`libc_file`]; default: none).
    pub files: libc_file::FileAccess,
    /// The program's stdin (default: the process's stdin).
    pub stdin: Option<Box<dyn std::io::Read + Send>>,
}

/// A cloneable in-memory sink, for tests and tools that capture a program's output.
#[derive(Clone, Default, Debug)]
pub struct Capture(pub Arc<Mutex<Vec<u8>>>);

impl Capture {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn sink(&self) -> Sink {
        Box::new(self.clone())
    }
    pub fn bytes(&self) -> Vec<u8> {
        self.0.lock().map(|b| b.clone()).unwrap_or_default()
    }
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes()).into_owned()
    }
}

impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Ok(mut b) = self.0.lock() {
            b.extend_from_slice(buf);
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Compile a validated, linked program once.
pub fn compile(program: &ir::Program, info: &crate::kernel::ProgramInfo) -> Result<Executable, Diagnostics> {
    compile::compile(program, info)
}

/// Compile a validated, linked program for checking: every memory access and the structure of
/// each kernel's execution are reported to the run's subscribers of device events
/// ([`events::Subscriber::device_events`]; slower than
/// [`compile`]: no fused loads or loops).
pub fn compile_for_checking(program: &ir::Program, info: &crate::kernel::ProgramInfo) -> Result<Executable, Diagnostics> {
    compile::compile_mode(program, info, true)
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
const INTERPRETER_STACK: usize = 1 << 30;

impl Executable {
    /// Run `main` on a fresh interpreter thread with a large stack.
    pub fn run(&self, options: RunOptions, argv: Vec<String>) -> RunOutcome {
        std::thread::scope(|s| {
            let handle = std::thread::Builder::new()
                .name("accsim-interpreter".into())
                .stack_size(INTERPRETER_STACK)
                .spawn_scoped(s, || {
                    machine::run_main(self, options, argv, INTERPRETER_STACK)
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
