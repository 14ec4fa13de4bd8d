//! Starting a run: the machine is built with the state of every runtime service (the C
//! library's, the OpenACC runtime's, the run's subscribers), memory is initialised (globals,
//! string literals, the C library's objects, file-scope `declare` data), `main` runs with its
//! `argv`, then the `atexit` handlers; the way it ended becomes a [`RunOutcome`].

use super::machine::code::Executable;
use super::libc_state::ShimState;
use super::machine::{call_function, stack_address, Deadline, Machine, StepPool, Trap, TrapKind, DEFAULT_MEMORY_LIMIT, STEP_CHUNK};
use super::memory::{AllocKind, Memory};
use super::value::Kind;
use super::machine::Sink;
use super::{events, libc_shim, openacc};
use crate::diag::{Diagnostic, Loc};

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
    pub observer: Option<Box<dyn super::Observer>>,
    /// The simulated device's launch defaults and modes.
    pub device: super::openacc::DeviceConfig,
    /// Receive the run's events ([`events`]) as they happen: the timeline
    /// ([`events::Timeline`]), the checkers (`accsim check`; the executable must be compiled
    /// with [`compile_for_checking`] for memory accesses and device threads to reach them).
    pub subscribers: Vec<Box<dyn events::Subscriber>>,
    /// The memory model of `--coherence weak` (an executable compiled for checking).
    pub memory_model: Option<Box<dyn super::memory_model::MemoryModel>>,
    /// The accelerator (default: [`device::SequentialDevice`]).
    pub accelerator: Option<super::device::DeviceHandle>,
    /// The level and prefixes of Cray CCE's `CRAY_ACC_DEBUG` commentary, shared with its
    /// subscriber ([`cray_debug::CrayDebug`]) so that the `cray_acc_set_debug_*` routines change
    /// what it prints (default: a control of its own, which the routines read and set).
    pub cray_debug: Option<std::sync::Arc<super::cray_debug::CrayDebugControl>>,
    /// The environment `getenv` sees: `None`, accsim's own; `Some`, only these variables.
    pub environment: Option<std::collections::BTreeMap<String, String>>,
    /// Native code for some functions (issue 15), run in their place when nothing observes the
    /// run (no observer, no memory model, no subscriber that follows memory accesses).
    pub native: Option<super::native::NativeHandle>,
    /// Native code of [`super::Executable::plain`]'s kernels (issue 15): under the checkers,
    /// a kernel proven race-free at its launch runs on it (its accesses are not observed).
    pub proven_native: Option<super::native::NativeHandle>,
    /// Under the checkers of `accsim check` (issue 15): the host allocations they follow
    /// ([`super::observed_host`]). With it, host functions run as [`RunOptions::native`] code
    /// although a subscriber follows memory accesses: native code reports the accesses of the
    /// followed allocations, the only ones the checkers need.
    pub observed_host: Option<std::sync::Arc<super::observed_host::ObservedHost>>,
    /// `--max-time`: when the run started (preprocessing included) and the limit in seconds. The
    /// run stops with a `max-time` limit at the line it is running once the time is up (checked
    /// every 65,536 steps).
    pub deadline: Option<(std::time::Instant, f64)>,
    /// What files the program may open ([`super::libc_file`]; default: none).
    pub files: super::libc_file::FileAccess,
    /// The program's stdin (default: the process's stdin).
    pub stdin: Option<Box<dyn std::io::Read + Send>>,
}

impl Executable {
    /// Allocate and initialise globals, string literals and the C library's objects, then start
    /// the OpenACC runtime.
    pub fn init_memory(&self, m: &mut Machine) -> Result<(), Trap> {
        for (i, g) in self.globals.iter().enumerate() {
            let p = m
                .mem
                .alloc_init(&g.bytes, AllocKind::Global(i as u32), false, g.loc)
                .map_err(|f| m.fault(f, g.loc))?;
            for &(off, word) in &g.relocs {
                m.mem
                    .store_u64(p + off, word)
                    .map_err(|f| m.fault(f, g.loc))?;
            }
            if g.read_only {
                m.mem.set_read_only(p);
            }
        }
        for (i, s) in self.strings.iter().enumerate() {
            m.mem
                .alloc_init(s, AllocKind::StringLiteral(i as u32), true, Loc::default())
                .map_err(|f| m.fault(f, Loc::default()))?;
        }
        libc_shim::init_runtime(m)?;
        openacc::startup(m)
    }
}

/// Set up memory and `argv`, run `main`, then the `atexit` handlers; report how it ended.
pub fn run_main(
    exe: &Executable,
    options: RunOptions,
    argv: Vec<String>,
    stack_size: usize,
) -> RunOutcome {
    let mut m = Machine {
        exe,
        mem: Memory::new(options.max_memory.unwrap_or(DEFAULT_MEMORY_LIMIT)),
        regs: Vec::with_capacity(1 << 12),
        bp: 0,
        ret_dest: 0,
        varargs: Vec::new(),
        frame_allocs: Vec::new(),
        cur_func: 0,
        depth: 0,
        fuel: options.max_steps.unwrap_or(u64::MAX),
        fuel_limited: options.max_steps.is_some(),
        step_pool: None,
        owns_step_pool: false,
        deadline: options.deadline.map(|(started, seconds)| Deadline { at: started + std::time::Duration::from_secs_f64(seconds.clamp(0.0, 1e9)), seconds }),
        observer: options.observer,
        events: events::Subscribers::new(options.subscribers),
        memory_model: options.memory_model,
        stdout: options
            .stdout
            .unwrap_or_else(|| Box::new(std::io::stdout())),
        stderr: options
            .stderr
            .unwrap_or_else(|| Box::new(std::io::stderr())),
        out_buf: Vec::new(),
        output_closed: false,
        libc: {
            let mut libc = ShimState::new(argv.first().cloned().unwrap_or_default());
            libc.environment = options.environment;
            libc.files = super::libc_file::FileTable::new(options.files, Some(options.stdin.unwrap_or_else(|| Box::new(std::io::stdin()))));
            libc
        },
        launch_dims: [0, 1, 1, 1],
        alone: true,
        acc: {
            let mut a = openacc::AccState::new(options.device.clone());
            if let Some(c) = options.cray_debug {
                a.cray_debug = c;
            }
            a.fuel_start = options.max_steps.unwrap_or(u64::MAX);
            a
        },
        device: options.accelerator.unwrap_or_default(),
        native: None,
        proven_native: options.proven_native,
        stack_top: stack_address(),
        stack_size,
        function_return: openacc::function_return,
    };
    if m.deadline.is_some() {
        // Under `--max-time` the run draws its steps from a pool in chunks, so that the deadline
        // is checked at every chunk (an unlimited run would otherwise never come back to it).
        let pool = std::sync::Arc::new(StepPool::new(std::mem::take(&mut m.fuel)));
        m.fuel = pool.draw(STEP_CHUNK);
        m.step_pool = Some(pool);
    }
    if let Some(observed) = options.observed_host.filter(|_| m.observer.is_none() && m.memory_model.is_none()) {
        m.mem.follow_observed(observed);
    }
    if options.native.is_some() && m.native_allowed() {
        m.mem.track_changes();
        m.native = options.native;
    }
    let result = start(&mut m, &argv);
    let result = match result {
        Err(t) if matches!(*t.0, TrapKind::Exit(_)) => {
            let TrapKind::Exit(code) = *t.0 else {
                unreachable!()
            };
            libc_shim::run_atexit(&mut m).map(|()| code as u64)
        }
        Ok(v) => libc_shim::run_atexit(&mut m).map(|()| v),
        other => other,
    };
    m.flush_stdout();
    if result.is_ok() {
        // A normal exit writes what the program's files still hold, as glibc's `exit` does.
        super::libc_file::flush_all(&mut m);
    }
    match result {
        Ok(v) => RunOutcome::Exited((v as i32) & 0xff),
        Err(t) => match *t.0 {
            TrapKind::Error(d) => RunOutcome::Trapped(d),
            TrapKind::Limit(d) => RunOutcome::Limit(d),
            TrapKind::Exit(c) => RunOutcome::Exited(c & 0xff),
            TrapKind::Abort => RunOutcome::Aborted,
            TrapKind::Stopped => RunOutcome::Stopped,
        },
    }
}

fn start(m: &mut Machine, argv: &[String]) -> Result<u64, Trap> {
    let exe = m.exe;
    exe.init_memory(m)?;
    let Some(main) = exe.main else {
        return Err(Trap::error(Diagnostic::error(
            "link",
            "undefined reference to `main`",
            Loc::default(),
        )));
    };
    let Some(f) = exe.funcs.get(main as usize) else {
        return Err(Trap::error(Diagnostic::internal(
            "`main` names no function",
            None,
        )));
    };
    let (argc, argv_ptr, envp) = libc_shim::build_argv(m, argv)?;
    let base = m.regs.len();
    m.regs
        .extend_from_slice(&[argc, argv_ptr, envp][..f.nparams.min(3)]);
    let v = call_function(m, main, base, 0, f.loc)?;
    Ok(if f.ret_kind == Kind::Void { 0 } else { v })
}
