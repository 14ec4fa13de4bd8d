//! The running state of one program: memory, the word stack of register locals, frames, fuel,
//! the observer, buffered output; calls and the instruction loop.

pub mod code;
mod seams;

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use code::{CFunc, ExternCode, Instr, Op};
pub use code::Executable;
use super::libc_state::ShimState;
use super::memory::{AllocId, AllocKind, FaultKind, MemFault, Memory, FUNC_ID};
use super::value::Kind;
use crate::diag::{Diagnostic, Loc};

pub use seams::{Capture, Control, Device, DeviceCtx, DeviceHandle, KernelLaunch, LaunchShape, LoopRun, MachineView, NativeCode, NativeHandle, Observer, Sink};

/// Deepest C call nesting before the run stops with a `stack overflow` limit.
pub const MAX_CALL_DEPTH: usize = 100_000;

/// The status of a run whose stdout reader went away: what a shell reports for SIGPIPE.
pub const SIGPIPE_STATUS: i32 = 128 + 13;

/// Steps a device fork draws from its launch's [`StepPool`] at a time: the most a fork can hold
/// unused when another fork finds the pool empty and stops the run.
pub(crate) const STEP_CHUNK: u64 = 1 << 16;

/// The `--max-steps` steps left to the device threads of one launch, drawn in chunks
/// ([`STEP_CHUNK`]) so that the threads together never run more than the limit.
#[derive(Debug)]
pub struct StepPool(AtomicU64);

impl StepPool {
    pub(crate) fn new(steps: u64) -> StepPool {
        StepPool(AtomicU64::new(steps))
    }
    /// Up to `chunk` steps (fewer when fewer are left; 0 when none).
    pub(crate) fn draw(&self, chunk: u64) -> u64 {
        match self.0.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| (left > 0).then(|| left - left.min(chunk))) {
            Ok(left) => left.min(chunk),
            Err(_) => 0,
        }
    }
    /// Exactly `n` steps, or none when fewer are left.
    fn draw_exactly(&self, n: u64) -> u64 {
        match self.0.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| left.checked_sub(n)) {
            Ok(_) => n,
            Err(_) => 0,
        }
    }
    fn give_back(&self, steps: u64) {
        self.0.fetch_add(steps, Ordering::Relaxed);
    }
    fn left(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// When a run with `--max-time` must stop, and the limit in seconds (for the message).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Deadline {
    pub(crate) at: Instant,
    pub(crate) seconds: f64,
}

/// The diagnostic of the `--max-time` limit reached at `loc` (the line being run; a file
/// without a line when the run was still preprocessing or outside the interpreter).
pub fn time_limit_diagnostic(seconds: f64, loc: Loc) -> Diagnostic {
    Diagnostic::error("max-time", format!("the run took longer than {seconds} seconds of wall-clock time (the --max-time limit)"), loc)
        .with_help("`--max-time SECONDS` raises the limit")
}

fn time_limit(seconds: f64, loc: Loc) -> Trap {
    Trap::limit(time_limit_diagnostic(seconds, loc))
}

/// The help of the `--max-steps` limit.
const MAX_STEPS_HELP: &str = "`--max-steps N` raises the limit (default 10000000000 steps)";

/// Default cap on live program memory.
pub(crate) const DEFAULT_MEMORY_LIMIT: u64 = 4 << 30;

/// Stack kept free below the last checked C call (for the Rust frames of one C call and the shims).
const STACK_MARGIN: usize = 16 << 20;

/// Why execution stopped early. Boxed so that `Result<u64, Trap>` stays two words.
#[derive(Debug)]
pub struct Trap(pub Box<TrapKind>);

#[derive(Debug)]
pub enum TrapKind {
    /// A runtime error of the program (exit 3).
    Error(Diagnostic),
    /// Fuel, memory or depth exhausted (exit 4).
    Limit(Diagnostic),
    /// `exit(status)`.
    Exit(i32),
    /// `abort()`.
    Abort,
    /// The observer said stop.
    Stopped,
}

impl Trap {
    pub fn error(d: Diagnostic) -> Trap {
        Trap(Box::new(TrapKind::Error(d)))
    }
    pub fn limit(d: Diagnostic) -> Trap {
        Trap(Box::new(TrapKind::Limit(d)))
    }
    pub fn exit(code: i32) -> Trap {
        Trap(Box::new(TrapKind::Exit(code)))
    }
    pub fn abort() -> Trap {
        Trap(Box::new(TrapKind::Abort))
    }
}

/// Integer arithmetic that x86 would fault on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ArithFault {
    DivZero,
    Overflow,
}

#[cold]
pub fn arith_trap(f: ArithFault, loc: Loc) -> Trap {
    let msg = match f {
        ArithFault::DivZero => "integer division by zero",
        ArithFault::Overflow => {
            "integer overflow in division (the quotient does not fit: INT_MIN / -1)"
        }
    };
    Trap::error(Diagnostic::error("division-by-zero", msg, loc))
}

/// A [`Machine`] running gangs on another thread, with the buffers its output goes to.
pub struct DeviceFork<'e> {
    pub(crate) machine: Machine<'e>,
    out: Capture,
    err: Capture,
}

impl DeviceFork<'_> {
    /// Run on the current thread, whose stack is `stack_size` bytes (for the C call depth check).
    pub fn enter_thread(&mut self, stack_size: usize) {
        self.machine.enter_thread(stack_size);
    }

    /// Run kernel function `fid` for one gang with `args` (see [`super::device::launch_gangs`]).
    pub fn call_kernel(&mut self, fid: u32, args: &[u64], loc: Loc) -> Result<(), Trap> {
        self.machine.call_kernel(fid, args, loc)
    }

    /// Count the updates of the atomic counter blocks `targets` (every block of the launch's
    /// atomic updates, `openacc::private_counters`) in tables of this fork's own, added
    /// into the blocks when it is joined ([`Machine::join_device_forks`]; the rule is
    /// `memory`'s `counters` module, issue 15). Every atomic update of the fork then touches
    /// memory no other thread touches, so native code updates it without a locked instruction
    /// (`Machine::alone`). All or nothing: `false` when some block cannot be counted so.
    pub fn count_privately(&mut self, targets: &[crate::kernel::footprint::AtomicTarget]) -> bool {
        let mem = &mut self.machine.mem;
        let all = targets.iter().all(|t| mem.count_privately((t.block.start >> 32) as u32, t.size, t.align));
        if !all {
            // Nothing is counted yet: the tables made are dropped, adding nothing.
            mem.add_private_counts();
        }
        self.machine.alone = all;
        all
    }
}

/// The machine one program runs on. Its state is the interpreter's own: a device sees what a
/// [`DeviceCtx`] gives it, a tool what [`MachineView`] shows. Its fields and most methods are
/// crate-private; the `pub` methods (memory access with the program's fault messages, fuel,
/// calls through pointers, and `exec/native.rs`'s accessors) are what a native engine (the jit
/// crate) needs to run compiled code on it.
pub struct Machine<'e> {
    pub(crate) exe: &'e Executable,
    pub(crate) mem: Memory,
    /// Register locals of all active calls; a call's slots start at `bp`.
    pub(crate) regs: Vec<u64>,
    pub(crate) bp: usize,
    /// Where the current call writes a record/complex result.
    pub(crate) ret_dest: u64,
    /// The current call's variadic arguments.
    pub(crate) varargs: Vec<u64>,
    /// Memory locals, VLAs and `va_list` areas of active calls, freed when their call returns.
    pub(crate) frame_allocs: Vec<u64>,
    pub(crate) cur_func: u32,
    pub(crate) depth: usize,
    /// Instructions left; `u64::MAX` when unlimited. On a device fork of a limited run, the steps
    /// drawn from [`Machine::step_pool`] and not used yet.
    pub(crate) fuel: u64,
    pub(crate) fuel_limited: bool,
    /// The steps the device forks of a launch share under `--max-steps` ([`StepPool`]): set on
    /// the forks, and on the machine that forked them until [`Machine::join_device_forks`]; for
    /// the whole run under `--max-time`.
    pub(crate) step_pool: Option<Arc<StepPool>>,
    /// This machine made [`Machine::step_pool`] from its own fuel (it forked a launch's threads)
    /// and takes what is left back when it joins them.
    pub(crate) owns_step_pool: bool,
    /// `--max-time`: when the run must stop. Checked each time a chunk of steps is drawn (the
    /// run then holds its steps in a pool, see [`super::run::run_main`]).
    pub(crate) deadline: Option<Deadline>,
    pub(crate) observer: Option<Box<dyn Observer>>,
    /// The run's observers of events ([`super::events`]): the timeline of `--notify`/`--time`/
    /// `--trace`, the checkers of `accsim check` (accesses and thread events come only from an
    /// executable compiled for checking, see [`super::check`]), the GUI.
    pub(crate) events: super::events::Subscribers,
    /// The memory model of `--coherence weak` ([`super::memory_model::MemoryModel`]; called only by an
    /// executable compiled for checking).
    pub(crate) memory_model: Option<Box<dyn super::memory_model::MemoryModel>>,
    pub(crate) stdout: Sink,
    pub(crate) stderr: Sink,
    /// Program stdout not yet written to the sink.
    pub(crate) out_buf: Vec<u8>,
    /// The reader of stdout went away (a closed pipe, `accsim run prog | head`): the run ends
    /// at its next step, as a C program ends on SIGPIPE (status 141, nothing printed).
    pub(crate) output_closed: bool,
    pub(crate) libc: ShimState,
    /// The OpenACC runtime: data environment, device configuration.
    pub(crate) acc: super::acc_state::AccState,
    /// The accelerator compute regions and device memory go to (shared with device threads).
    pub(crate) device: DeviceHandle,
    /// The gang index, gang count, worker count and vector length of the kernel gang this
    /// machine is running ([`Machine::call_kernel`]); `[0, 1, 1, 1]` in host code. Routines read
    /// it to share their loops among the calling threads (`kernel::routine::LAUNCH_DIM_FN`).
    pub(crate) launch_dims: [u64; 4],
    /// Native code of some functions (issue 15); `None` when the run is observed.
    pub(crate) native: Option<NativeHandle>,
    /// Native code of [`super::Executable::plain`]'s kernels: what a kernel `accsim check` proves
    /// race-free at its launch runs on ([`super::openacc`]'s `proven_launch`).
    pub(crate) proven_native: Option<NativeHandle>,
    pub(crate) stack_top: usize,
    pub(crate) stack_size: usize,
    /// No other thread touches this machine's memory while it runs: the host machine (a launch
    /// waits for its gangs; async work runs on this thread too), and a device fork whose launch
    /// runs every gang one after another on the launching thread
    /// ([`super::device::SequentialDevice`]). A fork starts without it ([`Machine::device_fork`]:
    /// forks may run beside each other). Native code then does an `atomic` update of a word
    /// (§2.12) without a locked instruction: with one thread, no other access can fall between its
    /// read and its write, so no program can tell the difference (issue 15). A fork that counts
    /// every atomic target of its launch in tables of its own ([`DeviceFork::count_privately`])
    /// has it too: no other thread touches what its atomic updates touch.
    pub(crate) alone: bool,
    /// Called when a call returns while the OpenACC runtime has constructs open: releases the
    /// data of the function's function-scope `declare` directives (§2.13). Set by whoever builds
    /// the machine (`exec/run.rs`: `openacc::function_return`); the machine knows no runtime.
    pub(crate) function_return: FunctionReturnHook,
}

/// See [`Machine::function_return`].
pub(crate) type FunctionReturnHook = fn(&mut Machine<'_>, Loc) -> Result<(), Trap>;

/// "1 byte", "8 bytes".
fn bytes(n: u64) -> String {
    if n == 1 {
        "1 byte".into()
    } else {
        format!("{n} bytes")
    }
}

/// Stands for a missing allocation in [`Machine::fault`] (never shown: checked before use).
static PLACEHOLDER: super::memory::Allocation = super::memory::Allocation::placeholder();

#[inline(never)]
pub(crate) fn stack_address() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}

impl<'e> Machine<'e> {
    /// The diagnostic of a memory fault at `loc`.
    #[cold]
    pub fn fault(&self, f: MemFault, loc: Loc) -> Trap {
        let access = if f.write { "write" } else { "read" };
        let what = f
            .alloc
            .and_then(|id| self.mem.allocation(id).map(|a| (id, a)));
        let desc = |id: AllocId| self.describe_alloc(id);
        if what.is_none()
            && matches!(
                f.kind,
                FaultKind::OutOfBounds
                    | FaultKind::Underflow
                    | FaultKind::UseAfterFree
                    | FaultKind::ReadOnly
                    | FaultKind::DoubleFree
            )
        {
            return Trap::error(Diagnostic::internal(
                format!("memory fault {:?} without its allocation", f.kind),
                Some(loc),
            ));
        }
        let unknown = AllocId(0);
        let (kind, msg) = match f.kind {
            FaultKind::Null => (
                "null-deref",
                format!("null pointer dereference ({access} of {})", bytes(f.size)),
            ),
            FaultKind::FunctionPointer => (
                "invalid-access",
                format!(
                    "{access} of {} through a pointer to a function",
                    bytes(f.size)
                ),
            ),
            FaultKind::Wild => (
                "invalid-access",
                format!("{access} through an invalid pointer ({:#x})", f.ptr),
            ),
            FaultKind::OutOfBounds if what.is_some_and(|(_, a)| (f.ptr as u32 as u64) < a.lo()) => {
                // Below the part of an array that a data clause mapped (`copy(a[10:50])` and a
                // device access of `a[0]`): the device copy holds only the subarray (§2.6.5).
                let (id, a) = what.unwrap_or((unknown, &PLACEHOLDER));
                let d = Diagnostic::error(
                    "out-of-bounds",
                    format!("out-of-bounds {access} of {} at offset {} of {}: {} before the mapped part: a subarray in a data clause maps only its elements, and the device copy may hold only those (§2.6.5)", bytes(f.size), f.ptr as u32, desc(id), bytes(a.lo() - f.ptr as u32 as u64)),
                    loc,
                )
                .with_help("map the elements the device code accesses: a subarray that starts at the lowest index used");
                let d = if a.origin().line != 0 { d.with_related(a.origin(), format!("{} declared here", desc(id))) } else { d };
                return Trap::error(d);
            }
            FaultKind::OutOfBounds => {
                let (id, a) = what.unwrap_or((unknown, &PLACEHOLDER));
                (
                    "out-of-bounds",
                    format!(
                        "out-of-bounds {access} of {} at offset {} of {} ({})",
                        bytes(f.size),
                        f.ptr as u32,
                        desc(id),
                        bytes(a.size())
                    ),
                )
            }
            FaultKind::Underflow => {
                let (id, a) = what.unwrap_or((unknown, &PLACEHOLDER));
                let before = (1u64 << 32) - (f.ptr as u32) as u64;
                (
                    "out-of-bounds",
                    format!(
                        "out-of-bounds {access} of {}, {} before the start of {} ({})",
                        bytes(f.size),
                        bytes(before),
                        self.describe_alloc(id),
                        bytes(a.size())
                    ),
                )
            }
            FaultKind::UseAfterFree => {
                let (id, _) = what.unwrap_or((unknown, &PLACEHOLDER));
                let dead = match self.mem.allocation(id).map(|a| a.kind()) {
                    Some(AllocKind::Local(..)) => "after its function returned",
                    Some(AllocKind::Vla(..)) => "after its scope ended",
                    _ => "after it was freed",
                };
                (
                    "use-after-free",
                    format!("{access} of {} of {} {dead}", bytes(f.size), desc(id)),
                )
            }
            FaultKind::ReadOnly => {
                let (id, _) = what.unwrap_or((unknown, &PLACEHOLDER));
                (
                    "read-only",
                    format!("write to read-only memory: {}", desc(id)),
                )
            }
            FaultKind::InvalidFree => {
                let m = match what {
                    Some((id, a)) if a.kind() == AllocKind::Heap => {
                        format!("free of a pointer {} bytes into {}", f.ptr as u32, desc(id))
                    }
                    Some((id, _)) => {
                        format!("free of a pointer that malloc did not return: {}", desc(id))
                    }
                    None => format!("free of an invalid pointer ({:#x})", f.ptr),
                };
                ("invalid-free", m)
            }
            FaultKind::DoubleFree => {
                let (id, _) = what.unwrap_or((unknown, &PLACEHOLDER));
                ("double-free", format!("double free of {}", desc(id)))
            }
            FaultKind::MemoryLimit => {
                let live = self.mem.live_bytes();
                if live.saturating_add(f.size).saturating_add(self.mem.bookkeeping()) <= self.mem.limit() {
                    // Within `--max-memory`: the system gave no more (the process's own limit).
                    return self.system_memory(format!("allocating {} bytes with {live} bytes live", f.size), loc);
                }
                // The ids' bookkeeping is named when the bytes alone would have fitted.
                let bookkeeping = if live.saturating_add(f.size) <= self.mem.limit() {
                    format!(" and {} allocations' bookkeeping ({} bytes, {} each)", self.mem.table_len(), self.mem.bookkeeping(), super::memory::BYTES_PER_ID)
                } else {
                    String::new()
                };
                return self.memory_limit(format!("allocating {} bytes with {live} bytes live{bookkeeping}", f.size), loc);
            }
            FaultKind::HostMemory => {
                let (id, a) = what.unwrap_or((unknown, &PLACEHOLDER));
                // §2.10.2, §2.12.2: a `declare link` global has a device copy only while a data
                // clause, compute construct or `enter data` gives it a data lifetime; used by
                // device code outside one, it is not present (not a host pointer the program
                // passed in).
                let link = self.exe.declares.iter().find(|(dc, ptr, ..)| *dc == crate::ir::acc::DataClause::Link && (*ptr >> 32) as u32 == id.0);
                if let Some((_, _, _, name, _, declared)) = link {
                    let d = Diagnostic::error(
                        "not-present",
                        format!("device code {access}s `{name}`, which is in a `declare link` clause but is not present on the device: a link variable gets a device copy only from a data clause, compute construct or `enter data` that names it (§2.10.2, §2.12.2)"),
                        loc,
                    )
                    .with_related(*declared, format!("`{name}` is declared `link` here"))
                    .with_help(format!("give `{name}` a data lifetime around the device code: `copyin({name})` on the compute construct or an enclosing `data` construct, or `enter data copyin({name})`"));
                    return Trap::error(d);
                }
                let msg = format!(
                    "device code {access}s host memory: {} lives in host memory, which the device cannot address (§1.3: separate memories)",
                    desc(id)
                );
                let mut d = Diagnostic::error(crate::finding::FindingKind::DeviceDerefHostPtr.name(), msg, loc);
                if let Some((name, at)) = self.acc.pointers_mapped_alone.get(&id.0) {
                    let why = if self.acc.config.strict_2_0 { "OpenACC 2.0's reading, --strict-2.0" } else { "its extent is not known here, §2.7.1" };
                    d = d.with_related(*at, format!("`{name}` names the pointer: only the 8-byte pointer was mapped, not the data it points to ({why})"))
                        .with_help(format!("map the data with a subarray, e.g. `{name}[0:n]` with the number of elements n"));
                } else if let Some(u) = self.acc.implicit_pointers_unmapped.get(&id.0) {
                    let clause = u.accessed.clone().unwrap_or_else(|| format!("copy({}[0:n])", u.name));
                    let n = if u.accessed.is_some() { "" } else { " with the number of elements n" };
                    d = d.with_related(u.construct, format!("no data clause names `{}`: the device got the pointer, not the data it points to; {}", u.name, u.why))
                        .with_help(format!("map the data with a subarray on the construct, e.g. `{clause}`{n}"));
                } else if let AllocKind::Global(_) = a.kind() {
                    d = d.with_help("a global variable used by device code needs a device copy: `#pragma acc declare create(...)` or `copyin(...)` after its declaration (§2.10)");
                } else {
                    d = d.with_help("pass device code the data through a data clause, so that it gets the device copy's address");
                }
                if a.origin().line != 0 {
                    d = d.with_related(a.origin(), format!("{} declared here", self.describe_alloc(id)));
                }
                return Trap::error(d);
            }
            FaultKind::TooLarge => (
                "unsupported",
                format!(
                    "allocation of {} bytes is larger than accsim supports (2 GiB)",
                    f.size
                ),
            ),
        };
        let mut d = Diagnostic::error(kind, msg, loc);
        if f.kind == FaultKind::TooLarge {
            d = Diagnostic::unsupported(d.message, loc);
        }
        if let Some((id, a)) = what {
            let made = match a.kind() {
                AllocKind::Heap => "allocated here",
                AllocKind::Local(..) => "belonged to this call",
                _ => "declared here",
            };
            if a.origin().line != 0 {
                d = d.with_related(a.origin(), format!("{} {made}", self.describe_alloc(id)));
            }
            if let Some(at) = a.freed_at().filter(|_| a.kind() == AllocKind::Heap) {
                if at.line != 0 {
                    let how = match a.kind() {
                        AllocKind::Heap => "freed here",
                        _ => "its lifetime ended here",
                    };
                    d = d.with_related(at, how);
                }
            }
        }
        Trap::error(d)
    }

    /// A phrase naming an allocation ("heap block", "local variable `a` of `main`").
    pub(crate) fn describe_alloc(&self, id: AllocId) -> String {
        let Some(a) = self.mem.allocation(id) else {
            return "an unknown allocation".into();
        };
        match a.kind() {
            AllocKind::Reserved => "reserved memory".into(),
            AllocKind::Global(g) => match self.exe.globals.get(g as usize) {
                Some(g) => format!("global variable `{}`", g.name),
                None => "a global variable".into(),
            },
            AllocKind::StringLiteral(_) => "a string literal".into(),
            AllocKind::Local(f, l) => match self.exe.funcs.get(f as usize) {
                Some(func) => format!(
                    "local variable `{}` of `{}`",
                    func.local_names
                        .get(l as usize)
                        .map(String::as_str)
                        .unwrap_or("?"),
                    func.name
                ),
                None => "a local variable".into(),
            },
            AllocKind::Heap => "a heap block".into(),
            AllocKind::Vla(f, l) => match self.exe.funcs.get(f as usize) {
                Some(func) => format!(
                    "variable-length array `{}` of `{}`",
                    func.local_names
                        .get(l as usize)
                        .map(String::as_str)
                        .unwrap_or("?"),
                    func.name
                ),
                None => "a variable-length array".into(),
            },
            AllocKind::VaArgs(_) => "the variadic arguments of a call".into(),
            // A device copy names what it copies: the clause's variable and the bytes mapped (a
            // subarray's copy keeps the array's offsets, so an access outside the mapped part
            // shows where the part is).
            AllocKind::Runtime(what) if a.space == super::memory::Space::Device => {
                match self.acc.present.entries().find(|e| e.device_start >> 32 == id.0 as u64) {
                    Some(e) => format!(
                        "the device copy of `{}` (offsets {}..{} mapped)",
                        e.name,
                        e.device_start as u32,
                        (e.device_start as u32 as u64) + e.len()
                    ),
                    None => what.into(),
                }
            }
            AllocKind::Runtime(what) => what.into(),
        }
    }

    #[cold]
    /// Whether `--max-steps` limits this run (otherwise fuel wraps around, unlimited).
    pub fn fuel_limited(&self) -> bool {
        self.fuel_limited
    }

    /// The model clock now: steps run and modeled transfer time (see [`super::events`]).
    pub(crate) fn now_ns(&self) -> u64 {
        self.acc.now_ns(self.fuel_with_pool())
    }

    /// No observer steps the run, no memory model follows it, no subscriber wants its accesses.
    pub(crate) fn unobserved(&self) -> bool {
        self.observer.is_none() && self.memory_model.is_none() && !self.events.wants_device_events()
    }

    /// Whether host functions may run as native code: the run is unobserved, or its only
    /// observers are checkers that follow the host accesses of the allocations they name
    /// ([`super::observed_host`]; set only on the host machine, never on a device thread's).
    pub(crate) fn native_allowed(&self) -> bool {
        self.unobserved() || (self.observer.is_none() && self.memory_model.is_none() && self.mem.follows_observed())
    }

    /// The trap of a run out of fuel at `loc`.
    pub fn out_of_fuel(&self, loc: Loc) -> Trap {
        if self.output_closed {
            return Trap::exit(SIGPIPE_STATUS);
        }
        Trap::limit(
            Diagnostic::error("max-steps", "the program ran out of steps (the --max-steps limit was reached)", loc)
                .with_help(MAX_STEPS_HELP),
        )
    }

    /// The `--max-memory` limit reached (exit 4): `what` says what needed the memory.
    #[cold]
    pub(crate) fn memory_limit(&self, what: String, loc: Loc) -> Trap {
        Trap::limit(
            Diagnostic::error("memory limit", format!("memory limit exceeded: {what}"), loc).with_help(format!(
                "the limit is {} bytes of live memory and its bookkeeping; `--max-memory BYTES` raises it",
                self.mem.limit()
            )),
        )
    }

    /// The system gave no more memory before the `--max-memory` limit was reached (exit 4, as
    /// at the limit): a process under an address-space limit (`ulimit -v`) or a machine out of
    /// memory. `what` says what needed the memory.
    #[cold]
    pub(crate) fn system_memory(&self, what: String, loc: Loc) -> Trap {
        Trap::limit(
            Diagnostic::error("memory limit", format!("out of memory: {what}: the system gave accsim no more"), loc).with_help(format!(
                "the --max-memory limit ({} bytes) was not reached; a limit on the process (`ulimit -v`) or the machine's memory was",
                self.mem.limit()
            )),
        )
    }

    /// The `--max-steps` limit reached before a launch (exit 4): each gang of a kernel costs at
    /// least one step, so a launch of more gangs than the steps left cannot finish.
    #[cold]
    pub(crate) fn steps_limit(&self, what: String, loc: Loc) -> Trap {
        Trap::limit(Diagnostic::error("max-steps", format!("the program would run out of steps: {what}"), loc).with_help(MAX_STEPS_HELP))
    }

    /// The fuel this machine and its launch's step pool hold: `fuel_start` minus it is the steps
    /// run (the model clock, [`super::openacc::now_ns`]).
    pub(crate) fn fuel_with_pool(&self) -> u64 {
        self.fuel.saturating_add(self.step_pool.as_ref().map_or(0, |p| p.left()))
    }

    /// The steps left before the `--max-steps` limit (`None` when the run is not limited).
    pub(crate) fn steps_left(&self) -> Option<u64> {
        self.fuel_limited.then_some(self.fuel_with_pool())
    }

    /// Fuel ran out at `loc`: refill it (see [`Machine::refill`]).
    #[cold]
    pub(crate) fn refuel(&mut self, loc: Loc) -> Result<(), Trap> {
        self.fuel = self.refill(loc)?;
        Ok(())
    }

    /// Fuel ran out at `loc` (in the interpreter or in native code): the steps the run may go
    /// on with — a chunk of the step pool (a launch's device threads; a run with `--max-time`),
    /// or a refill when the run has no step limit — or the trap that ends it: the time limit
    /// passed (`--max-time`, at `loc`), the steps used up (`--max-steps`), the output closed.
    #[cold]
    pub fn refill(&mut self, loc: Loc) -> Result<u64, Trap> {
        if let Some(d) = &self.deadline {
            if Instant::now() >= d.at {
                return Err(time_limit(d.seconds, loc));
            }
        }
        if !self.output_closed {
            if let Some(pool) = &self.step_pool {
                let drawn = pool.draw(STEP_CHUNK);
                if drawn > 0 {
                    return Ok(drawn);
                }
            }
            if !self.fuel_limited {
                return Ok(u64::MAX);
            }
        }
        Err(self.out_of_fuel(loc))
    }

    /// Make sure `need` steps are at hand (drawing them from the step pool when they are there)
    /// before a fast path that takes them all at once; `false` when they are not. Under
    /// `--max-time` a fast path takes at most a chunk's steps past the deadline check.
    pub(crate) fn reserve_fuel(&mut self, need: u64) -> bool {
        if self.fuel >= need {
            return true;
        }
        if let Some(pool) = &self.step_pool {
            if need - self.fuel <= STEP_CHUNK || self.deadline.is_none() {
                self.fuel += pool.draw_exactly(need - self.fuel);
            }
        }
        self.fuel >= need
    }

    /// Account one instruction at `loc` (fuel, and the observer for a statement).
    #[cold]
    fn tick(&mut self, loc: Loc, stmt: bool) -> Result<(), Trap> {
        if self.fuel == 0 {
            self.refuel(loc)?;
        }
        self.fuel -= 1;
        if stmt && self.observer.is_some() {
            self.observe(loc)?;
        }
        Ok(())
    }

    #[cold]
    fn observe(&mut self, loc: Loc) -> Result<(), Trap> {
        // The observer is taken out for the call so that it can read the machine.
        if let Some(mut o) = self.observer.take() {
            let control = o.on_step_inspect(&MachineView::new(self, loc));
            self.observer = Some(o);
            if control == Control::Stop {
                return Err(Trap(Box::new(TrapKind::Stopped)));
            }
        }
        Ok(())
    }

    /// Load a scalar of kind `k` as its canonical word ([`Memory::load_kind`]).
    #[inline]
    pub fn load_kind(&self, k: Kind, p: u64) -> Result<u64, MemFault> {
        self.mem.load_kind(k, p)
    }

    /// Store a scalar word of kind `k` ([`Memory::store_kind`]).
    #[inline]
    pub fn store_kind(&mut self, k: Kind, p: u64, v: u64) -> Result<(), MemFault> {
        self.mem.store_kind(k, p, v)
    }

    /// Write buffered program stdout to its sink.
    pub(crate) fn flush_stdout(&mut self) {
        let mut written = Ok(());
        if !self.out_buf.is_empty() {
            written = self.stdout.write_all(&self.out_buf);
            self.out_buf.clear();
        }
        let written = written.and_then(|()| self.stdout.flush());
        if written.is_err_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe) {
            // Ends the run at the next step (see `out_of_fuel`).
            self.output_closed = true;
            self.fuel = 0;
            self.fuel_limited = true;
        }
    }

    pub(crate) fn write_stdout(&mut self, bytes: &[u8]) {
        self.out_buf.extend_from_slice(bytes);
        if self.out_buf.len() >= 1 << 16 {
            self.flush_stdout();
        }
    }

    /// stderr is unbuffered; stdout written before it appears first, as on a terminal.
    pub(crate) fn write_stderr(&mut self, bytes: &[u8]) {
        self.flush_stdout();
        let _ = self.stderr.write_all(bytes);
        let _ = self.stderr.flush();
    }

    /// Run kernel function `fid` for one gang with `args` (see [`super::device::launch_gangs`]).
    pub(crate) fn call_kernel(&mut self, fid: u32, args: &[u64], loc: Loc) -> Result<(), Trap> {
        let base = self.regs.len();
        self.regs.extend_from_slice(args);
        let outer = self.launch_dims;
        if let [g, ng, nw, nv, ..] = *args {
            self.launch_dims = [g, ng, nw, nv];
        }
        let ran = call_function(self, fid, base, 0, loc).map(|_| ());
        self.launch_dims = outer;
        ran
    }

    /// A machine for a device thread that runs gangs of a kernel beside others: the same
    /// executable and device memory ([`Memory::device_view`]), the remaining fuel, its own
    /// registers, frames and output buffers. No observer: a run that is observed step by step
    /// runs its gangs on the interpreter thread. Call [`Machine::enter_thread`] on the thread
    /// that runs it, and give it back with [`Machine::join_device_forks`]: the forks of a launch
    /// share this machine's allocation table, which it lends them until then (this machine's
    /// memory is not usable in between).
    pub(crate) fn device_fork(&mut self) -> DeviceFork<'e> {
        let out = Capture::new();
        let err = Capture::new();
        // The mapped globals matter only to the first fork, which lends the table (`Memory::device_view`).
        let lent = self.mem.is_lent();
        let globals: Vec<(u32, u32)> = self
            .acc
            .present
            .entries()
            .filter(|_| !lent)
            .filter(|e| self.mem.allocation(AllocId((e.host.start >> 32) as u32)).is_some_and(|a| matches!(a.kind(), AllocKind::Global(_))))
            .map(|e| ((e.host.start >> 32) as u32, (e.device_start >> 32) as u32))
            .collect();
        // Under `--max-steps` the forks draw their steps from one pool, in chunks, so that the
        // launch as a whole stops at the limit (each fork used to get all the steps left: a kernel
        // overran the limit about once per fork, issue 14).
        let (fuel, step_pool) = if self.fuel_limited || self.step_pool.is_some() {
            let pool = match &self.step_pool {
                Some(p) => p.clone(),
                None => {
                    let p = Arc::new(StepPool::new(std::mem::take(&mut self.fuel)));
                    self.step_pool = Some(p.clone());
                    self.owns_step_pool = true;
                    p
                }
            };
            // A fork draws its first chunk when it first runs (see `refuel`).
            (0, Some(pool))
        } else {
            (self.fuel, None)
        };
        let mut machine = Machine {
            exe: self.exe,
            mem: self.mem.device_view(&globals, self.observer.is_some()),
            // Grown by the first call as needed; 1 KiB comes from the allocator's per-thread
            // cache (a launch makes one fork per group of gangs: 8 KiB each cost more to make
            // and free than the rest of the fork, issue 15).
            regs: Vec::with_capacity(128),
            bp: 0,
            ret_dest: 0,
            varargs: Vec::new(),
            frame_allocs: Vec::new(),
            cur_func: self.cur_func,
            depth: self.depth,
            fuel,
            fuel_limited: self.fuel_limited,
            step_pool,
            owns_step_pool: false,
            deadline: self.deadline,
            observer: None,
            events: Default::default(),
            memory_model: None,
            stdout: out.sink(),
            stderr: err.sink(),
            out_buf: Vec::new(),
            output_closed: false,
            libc: self.libc.clone(),
            acc: super::acc_state::AccState::for_device_thread(&self.acc),
            device: self.device.clone(),
            launch_dims: self.launch_dims,
            native: None,
            proven_native: None,
            stack_top: self.stack_top,
            stack_size: self.stack_size,
            alone: false,
            function_return: self.function_return,
        };
        // Unobserved device threads run the kernels the native engine compiled (issue 15).
        if self.native.is_some() && self.unobserved() {
            machine.mem.track_changes();
            machine.native = self.native.clone();
        }
        DeviceFork { machine, out, err }
    }

    /// Start running on the current thread, whose stack is `stack_size` bytes.
    pub(crate) fn enter_thread(&mut self, stack_size: usize) {
        self.stack_top = stack_address();
        self.stack_size = stack_size;
    }

    /// Take back device forks after they ran: their output in fork order, the fuel they used
    /// in total. With a step limit, using more than was left ends the run as one machine would
    /// have.
    pub(crate) fn join_device_forks(&mut self, forks: Vec<DeviceFork<'e>>, loc: Loc) -> Result<(), Trap> {
        let start = self.fuel;
        let mut used = 0u64;
        for mut f in forks {
            // A fork's private counts go into their blocks (`DeviceFork::count_privately`).
            f.machine.mem.add_private_counts();
            f.machine.flush_stdout();
            match &f.machine.step_pool {
                // The steps a fork drew and did not use go back to the pool.
                Some(pool) => pool.give_back(f.machine.fuel),
                None => used = used.saturating_add(start.saturating_sub(f.machine.fuel)),
            }
            drop(f.machine);
            let out = f.out.bytes();
            if !out.is_empty() {
                self.write_stdout(&out);
            }
            let err = f.err.bytes();
            if !err.is_empty() {
                self.write_stderr(&err);
            }
        }
        // The forks are dropped: the allocation table they shared comes back.
        self.mem.take_back();
        if self.step_pool.is_some() {
            // The forks drew from the pool and never beyond it: no overrun to find here. The
            // machine that made the pool takes back what is left; a fork that forked keeps
            // sharing it.
            if std::mem::take(&mut self.owns_step_pool) {
                if let Some(pool) = self.step_pool.take() {
                    self.fuel = self.fuel.saturating_add(pool.left());
                }
            }
            return Ok(());
        }
        if self.fuel_limited && used > self.fuel {
            self.fuel = 0;
            return Err(self.out_of_fuel(loc));
        }
        self.fuel = self.fuel.saturating_sub(used);
        Ok(())
    }

    /// Call the function or shim a function pointer names, with `args`. A shim is called with
    /// `args` as they are (what [`call_indirect`] does with the arguments it takes off the
    /// registers; native code's `malloc`/`free` calls come this way, issue 15).
    pub fn call_pointer(&mut self, fptr: u64, args: &[u64], loc: Loc) -> Result<u64, Trap> {
        if fptr >> 32 == FUNC_ID as u64 {
            let exe = self.exe;
            let idx = fptr as u32 as usize;
            if let Some(ExternCode::Function(call)) = idx.checked_sub(exe.funcs.len()).and_then(|x| exe.externs.get(x)) {
                return call(self, args, 0, loc);
            }
        }
        let base = self.regs.len();
        self.regs.extend_from_slice(args);
        call_indirect(self, fptr, base, 0, loc)
    }
}

/// Call through a function pointer; the arguments are `regs[base..]`.
pub(crate) fn call_indirect(
    m: &mut Machine,
    fptr: u64,
    base: usize,
    ret_dest: u64,
    loc: Loc,
) -> Result<u64, Trap> {
    let idx = fptr as u32 as usize;
    if fptr >> 32 == FUNC_ID as u64 {
        let nfuncs = m.exe.funcs.len();
        if idx < nfuncs {
            return call_function(m, idx as u32, base, ret_dest, loc);
        }
        if let Some(ExternCode::Function(call)) = m.exe.externs.get(idx - nfuncs) {
            let args = m.regs.split_off(base);
            return call(m, &args, ret_dest, loc);
        }
    }
    m.regs.truncate(base);
    let d = if fptr == 0 {
        Diagnostic::error("null-deref", "call through a null function pointer", loc)
    } else {
        Diagnostic::error(
            "invalid-call",
            format!("call through a pointer that is not a function ({fptr:#x})"),
            loc,
        )
    };
    Err(Trap::error(d))
}

/// Call function `fid`; its arguments are `regs[base..]` (pushed by the caller, removed here).
impl Machine<'_> {
    /// End the lifetimes of the frame allocations made since `mark` (a returning call's memory
    /// locals), at `end_loc`. In order, so that the quarantine's order of freed ids is the same
    /// on both engines (`native_frame_leave`), and without a copy of the list: a call with
    /// memory locals paid an allocation for it.
    pub(crate) fn free_frame(&mut self, mark: usize, end_loc: Loc) {
        for i in mark..self.frame_allocs.len() {
            let p = self.frame_allocs[i];
            self.mem.release(AllocId((p >> 32) as u32), end_loc);
        }
        self.frame_allocs.truncate(mark);
    }
}

pub(crate) fn call_function(
    m: &mut Machine,
    fid: u32,
    base: usize,
    ret_dest: u64,
    loc: Loc,
) -> Result<u64, Trap> {
    let exe = m.exe;
    let f: &CFunc = &exe.funcs[fid as usize];
    if m.depth >= MAX_CALL_DEPTH
        || m.stack_top.saturating_sub(stack_address()) + STACK_MARGIN > m.stack_size
    {
        m.regs.truncate(base);
        return Err(Trap::limit(Diagnostic::error(
            "stack overflow",
            format!(
                "stack overflow: calls nested {} deep when calling `{}`",
                m.depth, f.name
            ),
            loc,
        )
        .with_help(format!("accsim allows {MAX_CALL_DEPTH} nested calls and a 1 GiB interpreter stack; no flag raises them"))));
    }
    let nargs = m.regs.len() - base;
    let saved_varargs = if f.variadic {
        let extra = m
            .regs
            .get(base + f.nparams..)
            .map(<[u64]>::to_vec)
            .unwrap_or_default();
        Some(std::mem::replace(&mut m.varargs, extra))
    } else {
        None
    };
    m.regs.truncate(base + f.nparams.min(nargs));
    m.regs.resize(base + f.nslots, 0);
    let saved = (m.bp, m.ret_dest, m.cur_func);
    let mark = m.frame_allocs.len();
    m.bp = base;
    m.ret_dest = ret_dest;
    m.cur_func = fid;
    m.depth += 1;
    let native = m.native.as_ref().filter(|n| n.compiled(fid, m.regs.get(base..base + f.nparams.min(nargs)).unwrap_or(&[]))).cloned();
    let mut result = match native {
        // Compiled functions have no variadic part (the engine declines those) and allocate
        // their memory locals themselves (`Machine::native_frame_enter`), so the prologue is
        // theirs; the arguments are the register slots.
        Some(n) if m.native_allowed() => {
            let args = m.regs[base..base + f.nparams.min(nargs)].to_vec();
            n.call(m, fid, &args, loc)
        }
        _ => f.prologue(m, fid, loc).and_then(|()| run_code(m, &f.code)),
    };
    if !m.acc.is_idle() {
        // Data of this call's function-scope `declare` directives is released now (§2.13).
        let done = (m.function_return)(m, f.end_loc);
        if result.is_ok() {
            if let Err(e) = done {
                result = Err(e);
            }
        }
    }
    m.free_frame(mark, f.end_loc);
    m.regs.truncate(base);
    (m.bp, m.ret_dest, m.cur_func) = saved;
    m.depth -= 1;
    if let Some(v) = saved_varargs {
        m.varargs = v;
    }
    result
}

/// Run an instruction list until it returns (or falls off its end: value 0).
pub(crate) fn run_code(m: &mut Machine, code: &[Instr]) -> Result<u64, Trap> {
    let mut pc = 0usize;
    loop {
        let Some(ins) = code.get(pc) else {
            return Ok(0);
        };
        if m.fuel == 0 {
            m.refuel(ins.loc)?;
        }
        m.fuel -= 1;
        if ins.stmt && m.observer.is_some() {
            m.observe(ins.loc)?;
        }
        pc += 1;
        match &ins.op {
            Op::Expr(f) => {
                f(m)?;
            }
            Op::JumpIfFalse(c, t) => {
                if c(m)? == 0 {
                    pc = *t;
                }
            }
            Op::JumpIfTrue(c, t) => {
                if c(m)? != 0 {
                    pc = *t;
                }
            }
            Op::Jump(t) => pc = *t,
            Op::Switch(c, table) => {
                let v = c(m)?;
                pc = match table.cases.binary_search_by_key(&v, |&(k, _)| k) {
                    Ok(i) => table.cases[i].1,
                    Err(_) => table.default,
                };
            }
            Op::Return(f) => return f(m),
            Op::ReturnVoid => return Ok(0),
            Op::Nop => {}
            Op::NativeLoop(k, t) => {
                m.fuel += 1;
                if let Some(n) = m.native.as_ref().filter(|_| m.native_allowed()).cloned() {
                    match n.run_loop(m, m.cur_func, *k, ins.loc)? {
                        LoopRun::Interpret => {}
                        LoopRun::Ended => pc = *t,
                        LoopRun::Returned(w) => return Ok(w),
                    }
                }
            }
            Op::VecNest(v, t) => {
                m.fuel += 1;
                if v.run(m)? {
                    pc = *t;
                }
            }
            Op::Loop1(lp) => {
                // The loop instruction itself is free: only its statements count.
                m.fuel += 1;
                if let Some(e) = &lp.entry {
                    if m.fuel >= 2 && m.observer.is_none() {
                        m.fuel -= 2;
                        (e.init)(m)?;
                        if (e.cond)(m)? == 0 {
                            continue;
                        }
                    } else {
                        m.tick(e.init_loc, e.init_stmt)?;
                        (e.init)(m)?;
                        m.tick(e.cond_loc, e.cond_stmt)?;
                        if (e.cond)(m)? == 0 {
                            continue;
                        }
                    }
                }
                if lp.mac.is_some() && lp.run_mac(m)? {
                    continue;
                }
                if let (Some(v), Some(c)) = (&lp.vec, &lp.counter) {
                    if v.run(m, c, lp.cost)? {
                        continue;
                    }
                }
                loop {
                    if m.fuel >= lp.cost && m.observer.is_none() {
                        m.fuel -= lp.cost;
                        for s in lp.body.iter() {
                            (s.f)(m)?;
                        }
                        let more = match &lp.counter {
                            Some(c) => c.step(m),
                            None => (lp.step_cond)(m)? != 0,
                        };
                        if !more {
                            break;
                        }
                    } else {
                        for s in lp.body.iter() {
                            m.tick(s.loc, s.stmt)?;
                            (s.f)(m)?;
                        }
                        m.tick(lp.cond_loc, lp.stmt)?;
                        if (lp.step_cond)(m)? == 0 {
                            break;
                        }
                    }
                }
            }
        }
    }
}
