//! The `accsim` command: run, check and inspect OpenACC C programs on the modeled accelerator.
//!
//! Exit status (README "Exit codes"): the program's own status when it finishes; 2 when it does
//! not compile; 3 when accsim stopped it at a runtime error in the program; 4 when a limit was
//! reached; 134 for `abort()`/failed `assert`; 101 for an internal error in accsim.

use std::process::ExitCode;

use accsim_core::diag::{Diagnostic, SourceMap};
use accsim_core::driver;
use accsim_core::exec;
use accsim_core::exec::events::{self, Record};
use accsim_core::finding::FindingKind;
use std::sync::{Arc, Mutex};
use accsim_core::frontend::PreprocessOptions;
use clap::{Args, Parser, Subcommand};

use accsim::limits;
use accsim::outcome::{report_json, uri_reference, Figures, Outcome};

#[derive(Parser)]
#[command(name = "accsim", version, about = "Run OpenACC C programs on a modeled accelerator")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a program (one or more C files linked together).
    Run(RunCmd),
    /// Run a program with the checkers on and report findings (program bugs the specification
    /// defines), each with its source sites. Exit 0 without error or warning findings, 1 with
    /// any, 2 when the program does not compile.
    Check(CheckArgs),
    /// Run a program under many seeded schedules (weak-coherence commit orders, §1.3, and
    /// activity-queue schedules, §2.13) and print the distinct outcomes (stdout and exit status)
    /// with their counts and seeds. Exit 0 with exactly one outcome, 1 with several, 2 when the
    /// program does not compile.
    Explore(ExploreArgs),
    /// Print, per compute construct and loop, the kernels, the loop schedule chosen and the data
    /// attributes decided (implicit and explicit), in the spirit of nvc -Minfo=accel.
    Info(CompileArgs),
    /// Print the lowered IR of a program (for debugging accsim).
    DumpIr(CompileArgs),
    /// Print the CUDA C that the GPU back-end makes of every kernel (and the routines they call).
    EmitCuda(EmitCudaArgs),
    /// Run a program on the simulated device and on the GPU, and compare every copy to the host
    /// and the output (PCAST-style). Exit 0 when all agree, 1 when something differs.
    Validate(ValidateArgs),
}

#[derive(Args)]
struct RunCmd {
    #[command(flatten)]
    run: RunArgs,
    /// Write how the run ended to this file as JSON (outcome, the runtime error or limit, the
    /// run's figures), so that a grader never guesses from the exit status (README "Reports").
    #[arg(long, value_name = "FILE")]
    report: Option<std::path::PathBuf>,
}

#[derive(Args)]
struct EmitCudaArgs {
    #[command(flatten)]
    compile: CompileArgs,
    #[command(flatten)]
    map: LoopMapArg,
}

/// `--loop-map` (emit-cuda, and runs on the GPU).
#[derive(Args, Clone, Copy)]
struct LoopMapArg {
    /// How a 2- or 3-deep nest of partitioned loops that is a whole compute region maps onto the
    /// GPU's grid and blocks: `default` (gang → blockIdx.x, worker → threadIdx.y, vector →
    /// threadIdx.x) or one of OpenUH's `map2_1`…`map2_4`, `map3_1`…`map3_3`. Regions it does not
    /// fit keep the default (with a warning).
    #[arg(long = "loop-map", value_name = "MAP", default_value = "default", value_parser = parse_loop_map)]
    loop_map: accsim_cuda::loopmap::LoopMap,
}

fn parse_loop_map(s: &str) -> Result<accsim_cuda::loopmap::LoopMap, String> {
    use accsim_cuda::loopmap::LoopMap;
    LoopMap::parse(s).ok_or_else(|| format!("expected one of {}", LoopMap::ALL.map(|m| m.name()).join(", ")))
}

#[derive(Args)]
struct ValidateArgs {
    #[command(flatten)]
    run: RunArgs,
    /// Floating-point elements agree when they differ by at most this much.
    #[arg(long, value_name = "X")]
    abs: Option<f64>,
    /// Floating-point elements agree when they differ by at most this fraction of the larger.
    #[arg(long, value_name = "X")]
    rel: Option<f64>,
    /// Floating-point elements agree when they are at most this many units in the last place apart.
    #[arg(long, value_name = "N")]
    ulp: Option<u64>,
}

/// Which accelerator compute regions run on.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
enum DeviceKind {
    /// The modeled accelerator (gangs in parallel on the CPU).
    Sim,
    /// An NVIDIA GPU through CUDA (GPU `ACC_DEVICE_NUM`, default 0).
    Cuda,
}

#[derive(Args, Clone)]
struct CompileArgs {
    /// C source files, linked into one program.
    #[arg(required = true)]
    files: Vec<String>,
    /// Define a macro (`-D NAME` or `-D NAME=VALUE`).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    define: Vec<String>,
    /// Undefine a macro.
    #[arg(short = 'U', value_name = "NAME")]
    undefine: Vec<String>,
    /// Add a directory to the include path.
    #[arg(short = 'I', value_name = "DIR")]
    include: Vec<String>,
    /// The preprocessor command (default: `cc -E -fopenacc -U_OPENACC -D_OPENACC=201306`).
    #[arg(long = "cpp", value_name = "COMMAND")]
    cpp: Option<String>,
    /// The directive language: `openacc-2.0`, `pgi-1.3` (the PGI Accelerator model 1.3, its
    /// directives run as their OpenACC 2.0 equivalents, which `info` shows), `openuh` (2.0 with
    /// OpenUH's nested `gang`/`vector` loops, run as 2.0 nests and mapped on the GPU as the
    /// paper's Map2_x/Map3_x), or `auto` (2.0, unless a file uses the 1.3 `region` directive).
    #[arg(long, value_name = "DIALECT", default_value = "auto", value_parser = parse_dialect)]
    dialect: accsim_core::dialect::Dialect,
    /// Behave as Cray CCE: its default execution model `auto_async_kernel:fast_addr:no_deep_copy`
    /// (kernels without `async` run on an implicit queue, shown as `async(auto)`), its
    /// partitioning statement in `info`, and its limits (the `vector_length` values it accepts)
    /// as warnings.
    #[arg(long)]
    cray: bool,
    /// Cray CCE's `-h acc_model=option[:option]` (implies `--cray`; the sets not named keep CCE's
    /// defaults): `auto_async_none|auto_async_kernel|auto_async_all`, `fast_addr|no_fast_addr`,
    /// `deep_copy|no_deep_copy`.
    #[arg(long = "acc-model", value_name = "OPTION[:OPTION]", value_parser = parse_acc_model)]
    acc_model: Option<accsim_core::dialect::cray::AccModel>,
    /// Also print accsim's notes about the program (pragmas other than `#pragma acc`, which
    /// accsim ignores). `run` prints nothing of its own on a correct program without it; `info`
    /// and `check` always report them.
    #[arg(short = 'W')]
    notes: bool,
    /// Run an untrusted program (README "Sandbox"): includes only from the program's directory,
    /// -I directories and the system headers, a capped preprocessor, an empty environment for
    /// `getenv` (but `--env NAME`), and lower default limits (--max-steps 1000000000,
    /// --max-memory 1 GiB, --max-time 10).
    #[arg(long)]
    sandbox: bool,
}

#[derive(Args)]
struct CheckArgs {
    #[command(flatten)]
    run: RunArgs,
    /// How findings are printed. Text goes to stderr after the program's output. JSON and SARIF
    /// go to the `--report` file, or else to stdout, the program's own stdout then going to
    /// stderr so that stdout is the report alone.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Write the findings to this file (in `--format`) instead of stdout or stderr; the
    /// program's stdout and stderr stay its own. A JSON report also says how the run ended
    /// (`outcome`) and gives its figures; a SARIF one gives the exit status in `invocations`.
    #[arg(long, value_name = "FILE")]
    report: Option<std::path::PathBuf>,
    /// Check every access of every kernel. By default a kernel that is proven race-free when it
    /// is launched (its accesses are affine in its loop counters and no two threads can touch
    /// one place) runs unobserved, and the checkers take the bytes it reads and writes instead
    /// of its accesses: the same findings, much faster. `accsim info` shows which kernels can be
    /// proven; the environment variable ACCSIM_EXPLAIN_PROOFS=1 prints, for each launch, whether
    /// it was proven and, if not, why.
    #[arg(long)]
    every_access: bool,
}

#[derive(Args)]
struct ExploreArgs {
    #[command(flatten)]
    run: RunArgs,
    /// How many seeded schedules to run (seeds 0..K).
    #[arg(long, value_name = "K", default_value_t = 20)]
    seeds: u64,
}

/// The memory model of device code (`--coherence`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
enum Coherence {
    /// Every store is visible to every thread at once (the default; race-free programs cannot
    /// tell the difference).
    #[default]
    Sequential,
    /// The store-buffer model of §1.3: a device thread's stores become visible to other
    /// threads only at synchronisation points, in an order `--seed` chooses.
    Weak,
}

/// The engine of host code (`--engine`, issue 15).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
enum Engine {
    /// Host functions the native-code engine covers run as machine code (Cranelift); the others,
    /// kernels and every observed run (`check`, `--coherence weak`, `explore`) run in the
    /// interpreter. `accsim info` says which function runs where and why.
    #[default]
    Native,
    /// Everything runs in the interpreter.
    Interp,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Text,
    Json,
    Sarif,
}

#[derive(Args)]
struct RunArgs {
    #[command(flatten)]
    compile: CompileArgs,
    /// Stop the program after this many interpreter steps (a runaway-program guard; default
    /// 10000000000, 1000000000 under --sandbox).
    #[arg(long, value_name = "N")]
    max_steps: Option<u64>,
    /// Stop the program when its live memory exceeds this many bytes (default 8 GiB, 1 GiB under
    /// --sandbox).
    #[arg(long, value_name = "BYTES")]
    max_memory: Option<u64>,
    /// Stop after this many seconds of wall-clock time, preprocessing and compiling included
    /// (exit 4). Default: no limit, 10 seconds under --sandbox.
    #[arg(long, value_name = "SECONDS")]
    max_time: Option<f64>,
    /// Under --sandbox, pass environment variable NAME (with accsim's value) to the program's
    /// `getenv` (repeatable).
    #[arg(long = "env", value_name = "NAME")]
    env: Vec<String>,
    /// Under --sandbox, let the program open PATH for reading with fopen (a directory: every file
    /// below it; repeatable). Without --sandbox a program opens what the user may open.
    #[arg(long = "allow-read", value_name = "PATH")]
    allow_read: Vec<std::path::PathBuf>,
    /// Under --sandbox, let the program create and write PATH with fopen (a directory: every file
    /// below it; repeatable).
    #[arg(long = "allow-write", value_name = "PATH")]
    allow_write: Vec<std::path::PathBuf>,
    /// Number of gangs of every compute construct without `num_gangs`. Default: one gang per
    /// `vector_length` iterations of the construct's first gang loop (at most 64) when its
    /// bounds are known at entry, else 8; the same on every machine (§2.5.6).
    #[arg(long, value_name = "N")]
    gangs: Option<u64>,
    /// Default number of workers per gang (without `num_workers`).
    #[arg(long, value_name = "N", default_value_t = 1)]
    workers: u64,
    /// Default vector length (without `vector_length`).
    #[arg(long = "vector-length", value_name = "N", default_value_t = 32)]
    vector_length: u64,
    /// OpenACC 2.0's strict data clauses: copy/copyin/copyout/create of data already present is
    /// an error, present-or clauses and routines finding their data present take no reference,
    /// and exit data ends the lifetime (default: present-or behaviour with OpenACC 2.5's
    /// reference counts, as Cray CCE).
    #[arg(long = "strict-2.0")]
    strict_2_0: bool,
    /// How queued (`async`) work is scheduled: `seed:N` delays it as long as the specification
    /// allows (until a wait on its queue; N = 0 delays everything, another N chooses per
    /// operation), so a missing `wait` changes the outcome. Default: run it when issued.
    #[arg(long, value_name = "seed:N", value_parser = parse_schedule)]
    schedule: Option<u64>,
    /// Run the gangs of each kernel in an order drawn from seed N (gangs are unordered, §1.2),
    /// where they run one after another (`--coherence weak`, `check`); what `explore` seed N
    /// does. Default: gang 0 first.
    #[arg(long, value_name = "N")]
    gang_order: Option<u64>,
    /// Run the workers of each gang and the lanes of each worker in an order drawn from seed N
    /// (they are unordered, §1.2; runs the checking executable, as `check` does); what
    /// `explore` seed N does. Default: worker 0 and lane 0 first.
    #[arg(long, value_name = "N")]
    thread_order: Option<u64>,
    /// The device memory model: `weak` delays the visibility of a device thread's stores to
    /// the synchronisation points of §1.3 (runs gangs one after another).
    #[arg(long, value_enum, default_value = "sequential")]
    coherence: Coherence,
    /// The seed of `--coherence weak`: which order buffered stores commit in, and which
    /// buffered stores racy reads see. Same seed, same output.
    #[arg(long, value_name = "N", default_value_t = 0)]
    seed: u64,
    /// Print every device allocation, transfer, launch and wait as it happens (like NV_ACC_NOTIFY).
    #[arg(long)]
    notify: bool,
    /// Print a per-construct summary at the end: launches, bytes moved, model time (like NV_ACC_TIME).
    #[arg(long)]
    time: bool,
    /// Write a Chrome trace (chrome://tracing, Perfetto) of the host and the activity queues.
    #[arg(long, value_name = "FILE.json")]
    trace: Option<std::path::PathBuf>,
    /// Threads that run the gangs of a kernel in parallel (default: one per core, or
    /// RAYON_NUM_THREADS). Results of race-free programs do not depend on it.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// The accelerator: the simulated one, or a real NVIDIA GPU.
    #[arg(long, value_enum, default_value = "sim")]
    device: DeviceKind,
    /// The engine of `accsim run`'s host code: `native` compiles the host functions it covers to
    /// machine code (same output, exit status and faults); `interp` interprets everything.
    /// Observed runs (`check`, `explore`, `--coherence weak`) always interpret. `--max-steps`
    /// counts interpreter steps, and loop iterations and calls of native code.
    #[arg(long, value_enum, default_value = "native")]
    engine: Engine,
    #[command(flatten)]
    map: LoopMapArg,
    /// Arguments for the program's `main` (after `--`).
    #[arg(last = true)]
    args: Vec<String>,
}

/// The simulated device's configuration from the command line.
fn device_config(r: &RunArgs) -> exec::openacc::DeviceConfig {
    exec::openacc::DeviceConfig {
        gangs: r.gangs.map(|n| n.max(1)),
        workers: r.workers.max(1),
        vector_length: r.vector_length.max(1),
        strict_2_0: r.strict_2_0,
        schedule: r.schedule,
        gang_order: r.gang_order,
        thread_order: r.thread_order,
        acc_model: r.compile.acc_model(),
        cray: r.compile.cray(),
    }
}

impl RunArgs {
    /// The options every run of the program shares: limits and the device configuration.
    fn run_options(&self) -> exec::RunOptions {
        exec::RunOptions {
            max_steps: Some(self.max_steps.unwrap_or(limits::default_max_steps(self.compile.sandbox))),
            max_memory: Some(self.max_memory.unwrap_or(limits::default_max_memory(self.compile.sandbox))),
            environment: self.compile.sandbox.then(|| limits::granted_environment(&self.env)),
            device: device_config(self),
            deadline: self.max_time().map(|seconds| (limits::started(), seconds)),
            files: exec::libc_file::FileAccess { unrestricted: !self.compile.sandbox, read: self.allow_read.clone(), write: self.allow_write.clone() },
            ..Default::default()
        }
    }

    /// The wall-clock limit: `--max-time`, or the sandbox's default.
    fn max_time(&self) -> Option<f64> {
        self.max_time.or(self.compile.sandbox.then_some(limits::SANDBOX_MAX_TIME))
    }

    /// The program's `argv`: its first file's name, then the arguments after `--`.
    fn argv(&self) -> Vec<String> {
        std::iter::once(self.compile.files[0].clone()).chain(self.args.iter().cloned()).collect()
    }
}

/// Cray CCE's runtime commentary (`CRAY_ACC_DEBUG=1|2|3`), a subscriber of the event stream
/// ([`exec::cray_debug::commentary`]) on stderr; its control is shared with the program's
/// `cray_acc_*debug*` routines.
fn cray_debug_commentary(
    program: &accsim_core::ir::Program,
    map: &SourceMap,
    subscribers: &mut Vec<Box<dyn events::Subscriber>>,
) -> Option<Arc<exec::cray_debug::CrayDebugControl>> {
    let (debug, control) = exec::cray_debug::commentary(program, map, None)?;
    subscribers.push(Box::new(debug));
    Some(control)
}

/// Under `--dialect openuh` without a `--loop-map`, the paper's mapping of each OpenUH nest.
fn openuh_mappings(a: &CompileArgs, m: &LoopMapArg, program: &accsim_core::ir::Program, info: &accsim_core::kernel::ProgramInfo) -> std::collections::BTreeMap<u32, accsim_cuda::loopmap::LoopMap> {
    if a.dialect == accsim_core::dialect::Dialect::OpenUh && m.loop_map == accsim_cuda::loopmap::LoopMap::Default {
        accsim_cuda::loopmap::openuh_mappings(program, info)
    } else {
        Default::default()
    }
}

/// Under `--cray`, CCE's limits the program's launch clauses break (warnings).
fn cray_limits(a: &CompileArgs, program: &accsim_core::ir::Program) -> Vec<Diagnostic> {
    if a.cray() {
        accsim_core::dialect::cray_info::limits(program)
    } else {
        Vec::new()
    }
}

fn parse_acc_model(s: &str) -> Result<accsim_core::dialect::cray::AccModel, String> {
    accsim_core::dialect::cray::AccModel::CRAY_DEFAULT.with_options(s)
}

impl CompileArgs {
    /// Cray's execution model: `--acc-model`, else CCE's default under `--cray`, else OpenACC
    /// 2.0's (nothing implicit).
    fn acc_model(&self) -> accsim_core::dialect::cray::AccModel {
        match (self.acc_model, self.cray) {
            (Some(m), _) => m,
            (None, true) => accsim_core::dialect::cray::AccModel::CRAY_DEFAULT,
            (None, false) => Default::default(),
        }
    }

    /// `--cray` or `--acc-model`: CCE's statements and limits too.
    fn cray(&self) -> bool {
        self.cray || self.acc_model.is_some()
    }
}

fn parse_dialect(s: &str) -> Result<accsim_core::dialect::Dialect, String> {
    use accsim_core::dialect::Dialect;
    Dialect::parse(s).ok_or_else(|| format!("expected one of {}", Dialect::NAMES.join(", ")))
}

fn parse_schedule(s: &str) -> Result<u64, String> {
    s.strip_prefix("seed:")
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| format!("expected `seed:N` with N a number, found `{s}`"))
}

fn preprocess_options(a: &CompileArgs) -> PreprocessOptions {
    let mut opts = match &a.cpp {
        Some(c) => PreprocessOptions::with_command_line(c),
        None => PreprocessOptions::default(),
    };
    opts.args.extend(a.define.iter().map(|d| format!("-D{d}")));
    opts.args.extend(a.undefine.iter().map(|d| format!("-U{d}")));
    opts.args.extend(a.include.iter().map(|d| format!("-I{d}")));
    opts.dialect = a.dialect;
    if a.sandbox {
        opts.sandbox = Some(accsim_core::frontend::preprocess::PreprocessSandbox {
            include_dirs: a.include.iter().map(std::path::PathBuf::from).collect(),
            ..Default::default()
        });
    }
    opts
}

/// Write to stdout; a reader that went away (`accsim dump-ir x.c | head`) ends nothing but
/// this output (Rust's `print!` would panic on the closed pipe).
fn print_out(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

fn print_diagnostics(diags: &[Diagnostic], map: &SourceMap) {
    for d in diags {
        eprint!("{}", d.render(map, false));
    }
}

/// Compile, printing errors; `Err(exit code)` when the program does not compile. The notes
/// (ignored pragmas) are printed only with `-W`: a program's stderr is its own (issue 12 item 13).
fn compile(a: &CompileArgs, map: &mut SourceMap) -> Result<driver::Compiled, ExitCode> {
    match driver::compile_files(&a.files, &preprocess_options(a), map) {
        Ok(c) => {
            if a.notes {
                print_diagnostics(&c.notes, map);
            }
            print_diagnostics(&cray_limits(a, &c.program), map);
            Ok(c)
        }
        Err(diags) => {
            print_diagnostics(&diags, map);
            let internal = diags.iter().any(|d| d.class == accsim_core::diag::Class::Internal);
            Err(ExitCode::from(if internal { 101 } else { 2 }))
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Large arrays and device copies get huge pages where the system offers them (issue 15),
    // unless `ACCSIM_HUGE_PAGES=0` (where compacting memory for them stalls more than it saves).
    if std::env::var_os("ACCSIM_HUGE_PAGES").is_none_or(|v| v != "0") {
        accsim_core::exec::memory::advice::set_large_block_advice(accsim_jit::heap::advise_huge_pages);
    }
    // The front end and the program's run share one thread, and so one malloc arena: the run
    // reuses the memory the front end freed (issue 15, see `exec::on_interpreter_stack`).
    match exec::on_interpreter_stack(|| command(cli)) {
        Ok(Some(code)) => code,
        Ok(None) => {
            eprintln!("accsim: internal error: the interpreter thread panicked");
            ExitCode::from(101)
        }
        // Exit 4, as a run stopped at a limit: the process's own limit stopped this one.
        Err(e) => {
            eprintln!(
                "accsim: cannot start: the interpreter's thread needs {} MiB of address space for its stack ({e}); a limit on the process (`ulimit -v`) must allow it",
                exec::INTERPRETER_STACK >> 20
            );
            ExitCode::from(4)
        }
    }
}

/// Carry out `cli`'s command (on the interpreter's thread).
fn command(cli: Cli) -> ExitCode {
    let mut map = SourceMap::new();
    match cli.command {
        Command::Check(c) => {
            limits::start_watchdog(c.run.max_time(), c.report.clone().filter(|_| c.format == Format::Json), "check", &c.run.compile.files);
            check(c, &mut map)
        }
        Command::Explore(e) => explore(e, &mut map),
        Command::Info(a) => match compile(&a, &mut map) {
            Ok(c) => {
                if !a.notes {
                    print_diagnostics(&c.notes, &map);
                }
                print_diagnostics(&c.translations, &map);
                print_out(&accsim_core::kernel::info::report(&c.program, &c.info, &map));
                print_out(&long_double_report(&c.program, &map));
                print_out(&engine_report(&c.program, &c.info, &map));
                if a.cray() {
                    print_out(&accsim_core::dialect::cray_info::report(&c.program, &c.info, &map, a.acc_model()));
                }
                ExitCode::SUCCESS
            }
            Err(code) => code,
        },
        Command::DumpIr(a) => match compile(&a, &mut map) {
            Ok(c) => {
                print_out(&accsim_core::ir::print::program(&c.program));
                ExitCode::SUCCESS
            }
            Err(code) => code,
        },
        Command::EmitCuda(a) => match compile(&a.compile, &mut map) {
            Ok(c) => match accsim_cuda::emit::module_mapped_by_kernel(&c.program, &c.info, a.map.loop_map, openuh_mappings(&a.compile, &a.map, &c.program, &c.info)) {
                Ok(m) => {
                    print_out(&m.source);
                    match accsim_cuda::loopmap::report(a.map.loop_map, &m) {
                        Ok(warnings) => {
                            print_diagnostics(&warnings, &map);
                            ExitCode::SUCCESS
                        }
                        Err(errors) => {
                            print_diagnostics(&errors, &map);
                            ExitCode::from(2)
                        }
                    }
                }
                Err(e) => {
                    // The partial CUDA, with a comment at each form left out, then why.
                    print_out(&e.partial);
                    print_diagnostics(&e.diagnostics(), &map);
                    ExitCode::from(2)
                }
            },
            Err(code) => code,
        },
        Command::Validate(v) => {
            let compiled = match compile(&v.run.compile, &mut map) {
                Ok(c) => c,
                Err(code) => return code,
            };
            validate(compiled, &map, &v)
        }
        Command::Run(cmd) => {
            let r = &cmd.run;
            let started = std::time::Instant::now();
            limits::start_watchdog(r.max_time(), cmd.report.clone(), "run", &r.compile.files);
            let compiled = match driver::compile_files(&r.compile.files, &preprocess_options(&r.compile), &mut map) {
                Ok(c) => {
                    if r.compile.notes {
                        print_diagnostics(&c.notes, &map);
                    }
                    print_diagnostics(&cray_limits(&r.compile, &c.program), &map);
                    c
                }
                Err(diags) => {
                    print_diagnostics(&diags, &map);
                    let outcome = Outcome::of_compile_errors(&diags);
                    let status = outcome.run_status();
                    return write_run_report(cmd.report.as_deref(), "run", &outcome, status, &[], &Figures::of_events(&[], started), &map, status);
                }
            };
            front_end_done();
            run(compiled, &map, r, cmd.report.as_deref(), started)
        }
    }
}

/// The front end has freed its syntax trees: give their pages back before the run, whose
/// arrays would not reuse them (issue 15, see `accsim_jit::heap`).
fn front_end_done() {
    accsim_core::phase::timed("release-heap", accsim_jit::heap::release_free_memory);
    // Freed small blocks of the program merge as they are freed, not all at once before its
    // next large allocation (see `accsim_jit::heap`).
    accsim_jit::heap::merge_freed_blocks_at_once();
    // And during the run, before a large allocation that follows many frees.
    accsim_core::exec::memory::set_give_back(accsim_jit::heap::release_free_memory);
}

/// `accsim check`: compile, run, and report every finding. Runtime errors of the program are
/// findings; compile errors are findings of kind `compile-error` in JSON and SARIF.
fn check(c: CheckArgs, map: &mut SourceMap) -> ExitCode {
    let r = &c.run;
    let started = std::time::Instant::now();
    let compiled = match driver::compile_files(&r.compile.files, &preprocess_options(&r.compile), map) {
        Ok(x) => x,
        Err(diags) => {
            let as_findings: Vec<Diagnostic> = diags
                .into_iter()
                .map(|mut d| {
                    if d.severity == accsim_core::diag::Severity::Error && c.format != Format::Text {
                        d.kind = "compile-error";
                    }
                    d
                })
                .collect();
            let outcome = Outcome::of_compile_errors(&as_findings);
            return report(&as_findings, map, &c, &outcome, &Figures::of_events(&[], started), 2);
        }
    };
    front_end_done();
    // Alive until the process ends: the native engine translates functions during the run.
    let compiled: &'static driver::Compiled = Box::leak(Box::new(compiled));
    let mut findings = compiled.notes.clone();
    findings.extend(compiled.program.findings.iter().cloned());
    findings.extend(cray_limits(&r.compile, &compiled.program));
    let exe: &'static exec::Executable = match exec::compile_for_checking(&compiled.program, &compiled.info) {
        Ok(e) => Box::leak(Box::new(e)),
        Err(d) => return report(&d.0, map, &c, &Outcome::of_compile_errors(&d.0), &Figures::of_events(&[], started), 2),
    };
    // Checked kernels run on the sequential device (the simulated device hands them to it while
    // a checker listens): gangs run in order on the interpreter thread, so the checkers see one
    // thread at a time and their findings are deterministic. Kernels proven race-free at launch
    // run on the simulated device as `accsim run` runs them (`accsim_core::kernel::footprint`).
    let (checker, found) = accsim::check::CheckRun::new();
    let mut checker = checker.with_acc_model(r.compile.acc_model());
    checker.proofs = !c.every_access;
    checker.name_locals(exe);
    // Host functions run as native code too (issue 15): the accesses of the host allocations the
    // checkers follow (data with a device copy or a state not in sync, every access while a
    // queue has work) take its slow path, which reports them (`exec::observed_host`).
    let (native, observed_host) = match r.engine {
        Engine::Native => match without_panic_output(|| accsim_jit::Engine::compile_for_checking(&compiled.program, &compiled.info, exe)) {
            Ok(engine) => (Some(engine.handle()), Some(exec::observed_host::ObservedHost::new())),
            Err(_) => (None, None),
        },
        Engine::Interp => (None, None),
    };
    checker.observed = observed_host.clone();
    let accelerator = match accelerator(DeviceKind::Sim, &compiled.program, &compiled.info, map, r) {
        Ok(a) => a,
        Err(code) => return code,
    };
    // A report on stdout has stdout to itself: the program's output goes to stderr.
    let stdout: Option<exec::Sink> = if c.format != Format::Text && c.report.is_none() { Some(Box::new(std::io::stderr())) } else { None };
    // The figures of a JSON report come from the run's events.
    let collected: Arc<Mutex<Vec<Record>>> = Arc::default();
    let mut subscribers: Vec<Box<dyn events::Subscriber>> = vec![Box::new(checker)];
    if c.report.is_some() && c.format == Format::Json {
        let sink = collected.clone();
        subscribers.push(Box::new(events::Timeline(move |e: &Record| {
            if let Ok(mut v) = sink.lock() {
                v.push(e.clone());
            }
        })));
    }
    // CRAY_ACC_DEBUG comments on the checked run as on any other (issue 17).
    let cray_debug = cray_debug_commentary(&compiled.program, map, &mut subscribers);
    // Kernels proven race-free at launch run as native code, as `accsim run` runs them (issue 15).
    let proven_native = match (r.engine, exe.plain.as_deref()) {
        (Engine::Native, Some(plain)) => native_kernels(&compiled.program, &compiled.info, plain, r.threads),
        _ => None,
    };
    let options = exec::RunOptions { subscribers, accelerator: Some(accelerator), stdout, cray_debug, proven_native, native, observed_host, ..r.run_options() };
    let outcome = accsim_core::phase::timed("run", || exe.run(options, r.argv()));
    accsim_core::phase::run_parts::report_run_parts();
    if let Ok(f) = found.lock() {
        findings.extend(f.list.iter().cloned());
        if f.dropped > 0 {
            eprintln!("accsim: {} more findings not shown", f.dropped);
        }
    }
    if let Some(d) = outcome.diagnostic() {
        findings.push(d.clone());
    }
    let outcome = Outcome::of_run(&outcome);
    // A program that fails its own test (a failed `assert`, `abort()`, a non-zero exit) is a
    // failed check, as it is a failed run (issue 14: `check` said `{"findings":[]}`).
    let main_loc = compiled.program.main.and_then(|f| compiled.program.functions.get(f.0 as usize)).map(|f| f.loc).unwrap_or_default();
    findings.extend(outcome.exit_finding(main_loc));
    let serious = findings.iter().any(|f| f.severity != accsim_core::diag::Severity::Note);
    let recorded = collected.lock().map(|v| v.clone()).unwrap_or_default();
    report(&findings, map, &c, &outcome, &Figures::of_events(&recorded, started), if serious { 1 } else { 0 })
}

/// Print or write `check`'s findings as `--format` and `--report` say; `status` is returned
/// unless the report file cannot be written (then 101: accsim could not do its job). A JSON
/// report file also carries the outcome and figures ([`accsim::outcome`]).
fn report(findings: &[Diagnostic], map: &SourceMap, c: &CheckArgs, outcome: &Outcome, figures: &Figures, status: u8) -> ExitCode {
    let document = match (c.format, &c.report) {
        (Format::Text, _) => findings.iter().map(|d| d.render(map, false)).collect::<String>(),
        (Format::Json, Some(_)) => report_json("check", outcome, outcome.run_status(), findings, figures, map),
        (Format::Json, None) => format!("{}\n", findings_json(findings, map, &outcome.to_json(map, outcome.run_status()))),
        (Format::Sarif, _) => format!("{}\n", findings_sarif(findings, map, status, !matches!(outcome, Outcome::Internal(_)))),
    };
    let status = ExitCode::from(status);
    match (&c.report, c.format) {
        (Some(path), _) => {
            if let Err(e) = std::fs::write(path, document) {
                eprintln!("accsim: cannot write the report {}: {e}", path.display());
                return ExitCode::from(101);
            }
        }
        (None, Format::Text) => eprint!("{document}"),
        (None, _) => print_out(&document),
    }
    status
}

/// `{"findings":[{"kind","severity","file","line","column","message","notes":[{"file","line","message"}]}], "outcome": OUTCOME}`
/// on stdout: the findings and how the run ended ([`Outcome::to_json`], issue 14), without the
/// figures of a `--report` file (its wall time would make the same check print different text).
fn findings_json(findings: &[Diagnostic], map: &SourceMap, outcome: &serde_json::Value) -> String {
    let findings: Vec<Diagnostic> = findings.iter().map(|d| map.localized(d)).collect();
    let items: Vec<serde_json::Value> = findings.iter().map(|d| accsim::outcome::finding_json(d, map)).collect();
    accsim::json::write(&serde_json::json!({ "findings": items, "outcome": outcome }), accsim::json::Style::COMPACT)
}

/// SARIF 2.1.0, for code-scanning tools; `status` is `check`'s exit status (`invocations`).
fn findings_sarif(findings: &[Diagnostic], map: &SourceMap, status: u8, successful: bool) -> String {
    let findings: Vec<Diagnostic> = findings.iter().map(|d| map.localized(d)).collect();
    let findings = findings.as_slice();
    let location = |l: &accsim_core::diag::Loc| {
        serde_json::json!({"physicalLocation": {"artifactLocation": {"uri": uri_reference(map.name(l.file))}, "region": {"startLine": l.line.max(1), "startColumn": l.col.max(1)}}})
    };
    let mut rules: Vec<&str> = findings.iter().map(|d| d.kind).collect();
    rules.sort_unstable();
    rules.dedup();
    let results: Vec<serde_json::Value> = findings
        .iter()
        .map(|d| {
            let loc = d.primary.unwrap_or_default();
            let related: Vec<serde_json::Value> = d
                .related
                .iter()
                .enumerate()
                .map(|(i, (l, m))| {
                    let mut v = location(l);
                    v["id"] = serde_json::json!(i);
                    v["message"] = serde_json::json!({"text": m});
                    v
                })
                .collect();
            serde_json::json!({
                "ruleId": d.kind,
                "level": accsim::outcome::severity_name(d),
                "message": {"text": d.headline()},
                "locations": [location(&loc)],
                "relatedLocations": related,
            })
        })
        .collect();
    let sarif = serde_json::json!({
        "version": "2.1.0",
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "runs": [{
            "tool": {"driver": {"name": "accsim", "informationUri": "https://github.com/", "rules": rules.iter().map(|r| serde_json::json!({"id": r})).collect::<Vec<_>>()}},
            "results": results,
            "invocations": [{"executionSuccessful": successful, "exitCode": status}],
        }],
    });
    accsim::json::write(&sarif, accsim::json::Style::COMPACT)
}

/// `accsim explore`: K seeded schedules, the distinct outcomes.
fn explore(e: ExploreArgs, map: &mut SourceMap) -> ExitCode {
    let r = &e.run;
    let compiled = match compile(&r.compile, map) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let exe = match exec::compile_for_checking(&compiled.program, &compiled.info) {
        Ok(x) => x,
        Err(d) => {
            print_diagnostics(&d.0, map);
            return ExitCode::from(2);
        }
    };
    let seeds = e.seeds.max(1);
    let outcomes = accsim::explore::explore(&exe, seeds, || r.run_options(), &r.argv(), map);
    print_out(&accsim::explore::render(&outcomes, seeds));
    ExitCode::from(if outcomes.len() == 1 { 0 } else { 1 })
}

fn run(compiled: driver::Compiled, map: &SourceMap, r: &RunArgs, report: Option<&std::path::Path>, started: std::time::Instant) -> ExitCode {
    // The program and its executable live until the process ends: the native engine translates
    // functions when its tiers compile them, during the run. Freeing them node by node at the
    // end would cost as much as lowering them (8% of a short run of a 20,000-line program,
    // issue 15); the system takes the memory back at exit.
    let compiled: &'static driver::Compiled = Box::leak(Box::new(compiled));
    let weak = r.coherence == Coherence::Weak;
    let compiled_exe = if weak || r.thread_order.is_some() { exec::compile_for_checking(&compiled.program, &compiled.info) } else { exec::compile(&compiled.program, &compiled.info) };
    let exe: &'static exec::Executable = match compiled_exe {
        Ok(e) => Box::leak(Box::new(e)),
        Err(d) => {
            print_diagnostics(&d.0, map);
            let internal = d.0.iter().any(|d| d.class == accsim_core::diag::Class::Internal);
            return ExitCode::from(if internal { 101 } else { 2 });
        }
    };
    let collected: Arc<Mutex<Vec<Record>>> = Arc::default();
    let mut subscribers: Vec<Box<dyn events::Subscriber>> = Vec::new();
    if r.notify || r.time || r.trace.is_some() || report.is_some() {
        let (notify, keep, sink, names) = (r.notify, r.time || r.trace.is_some() || report.is_some(), collected.clone(), map.clone());
        subscribers.push(Box::new(events::Timeline(move |e: &Record| {
            if notify {
                eprintln!("{}", events::notify_line(e, &names));
            }
            if keep {
                if let Ok(mut v) = sink.lock() {
                    v.push(e.clone());
                }
            }
        })));
    }
    let cray_debug = cray_debug_commentary(&compiled.program, map, &mut subscribers);
    // The weak model runs on the sequential device (the default accelerator): it sees one
    // device thread at a time through the checking hooks (see `accsim::weak`).
    // So does a run in another order of workers and lanes (`--thread-order`): the order is the
    // checking executable's.
    let (accelerator, memory_model): (_, Option<Box<dyn exec::check::MemoryModel>>) = if weak || r.thread_order.is_some() {
        if r.device != DeviceKind::Sim {
            eprintln!("accsim: --coherence weak and --thread-order model the simulated device; they cannot be used with --device cuda");
            return ExitCode::from(2);
        }
        (None, weak.then(|| Box::new(accsim::weak::WeakMemory::new(r.seed)) as Box<dyn exec::check::MemoryModel>))
    } else {
        match accelerator(r.device, &compiled.program, &compiled.info, map, r) {
            Ok(a) => (Some(a), None),
            Err(code) => return code,
        }
    };
    // The native engine runs the host functions it covers when nothing observes the run.
    let native = match (r.engine, &accelerator) {
        (Engine::Native, Some(_)) => native_engine(&compiled.program, &compiled.info, exe, r.threads),
        _ => None,
    };
    let options = exec::RunOptions { subscribers, accelerator, memory_model, native, cray_debug, ..r.run_options() };
    let outcome = accsim_core::phase::timed("run", || exe.run(options, r.argv()));
    accsim_core::phase::run_parts::report_run_parts();
    let recorded = collected.lock().map(|v| v.clone()).unwrap_or_default();
    if r.time {
        eprint!("{}", events::time_summary(&recorded, map));
    }
    if let Some(path) = &r.trace {
        if let Err(e) = std::fs::write(path, accsim::json::chrome_trace(&recorded, map)) {
            eprintln!("accsim: cannot write the trace {}: {e}", path.display());
        }
    }
    if let Some(d) = outcome.diagnostic() {
        eprint!("{}", d.render(map, false));
    }
    let outcome = Outcome::of_run(&outcome);
    let status = outcome.run_status();
    let findings: Vec<Diagnostic> = match &outcome {
        Outcome::Trapped(d) | Outcome::Limit(d) | Outcome::Internal(d) => vec![d.clone()],
        _ => Vec::new(),
    };
    write_run_report(report, "run", &outcome, status, &findings, &Figures::of_events(&recorded, started), map, status)
}

/// Write the `--report` file of a run, when one was asked for; `status` is returned unless the
/// file cannot be written (then 101: accsim could not do its job).
fn write_run_report(
    path: Option<&std::path::Path>,
    command: &str,
    outcome: &Outcome,
    outcome_status: u8,
    findings: &[Diagnostic],
    figures: &Figures,
    map: &SourceMap,
    status: u8,
) -> ExitCode {
    if let Some(path) = path {
        if let Err(e) = std::fs::write(path, report_json(command, outcome, outcome_status, findings, figures, map)) {
            eprintln!("accsim: cannot write the report {}: {e}", path.display());
            return ExitCode::from(101);
        }
    }
    ExitCode::from(status)
}

/// The native engine's code for `p`, or `None` (the interpreter runs everything) when it cannot
/// compile: an error of the code generator is a bug of accsim's, but it must not stop a program
/// the interpreter can run, so it is caught and the run goes on interpreted.
/// With `ACCSIM_NATIVE_COMPILE_TIME` set in the environment, the time the code generator took
/// (translation, and the code generation of each function on its first call) is printed on
/// stderr when the run ends (`accsim: native code compiled in S s`; `accsim-bench` reads it).
///
/// Every covered function is translated to Cranelift IR now; its machine code is generated
/// lazily (issue 15: "lazy per function/kernel and cached for the run"), deterministically:
/// a host function on its first call (the host thread calls in program order), a kernel and
/// everything its code may call when it is launched, before its device threads start
/// (`NativeCode::prepare`). A device thread that found a callee's code missing while another
/// generated it would take the interpreter's call path, which counts steps differently, at a
/// point the threads' timing picks: session 8 saw `--trace`'s kernel durations vary so.
/// A first call generates, in one batch, everything the function may reach that has no code
/// yet, on `threads` threads (`--threads`; one per core by default; see `accsim_jit`).
fn native_engine(p: &'static accsim_core::ir::Program, info: &accsim_core::kernel::ProgramInfo, exe: &'static exec::Executable, threads: Option<usize>) -> Option<exec::native::NativeHandle> {
    let engine = compile_engine(p, info, exe, threads).ok()?;
    Some(engine.handle())
}

/// The native engine's code for the kernels of `plain` (the executable `accsim check` runs a
/// kernel proven race-free on) and the functions they call, or `None` (the interpreter runs them)
/// when it cannot compile; the compile time is printed as [`native_engine`] says.
/// Its code is generated when a proven kernel is launched, as [`native_engine`] says.
fn native_kernels(p: &'static accsim_core::ir::Program, info: &accsim_core::kernel::ProgramInfo, plain: &'static exec::Executable, threads: Option<usize>) -> Option<exec::native::NativeHandle> {
    let engine = without_panic_output(|| accsim_jit::Engine::compile_kernels(p, info, plain, threads)).ok()?;
    Some(engine.handle())
}

/// [`accsim_jit::Engine::compile_on`], with a panic of the code generator turned into an error.
fn compile_engine<'p>(p: &'p accsim_core::ir::Program, info: &accsim_core::kernel::ProgramInfo, exe: &'p exec::Executable, threads: Option<usize>) -> Result<accsim_jit::Engine<'p>, String> {
    without_panic_output(|| accsim_jit::Engine::compile_on(p, info, exe, threads))
}

/// Run the code generator with the panic message silenced, a panic turned into an error.
fn without_panic_output<T>(generate: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    let quiet = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let made = std::panic::catch_unwind(std::panic::AssertUnwindSafe(generate));
    std::panic::set_hook(quiet);
    made.unwrap_or_else(|_| Err("the code generator failed (an accsim bug)".into()))
}

/// `info`'s note on each compute region that computes with `long double` (issue 12).
fn long_double_report(p: &accsim_core::ir::Program, map: &SourceMap) -> String {
    accsim_cuda::emit::long_double_regions(p)
        .into_iter()
        .map(|loc| format!("{}: note: `long double` in this compute region is computed as a double, in its 16-byte layout, on every device (nvc computes it so on the GPU)\n", map.describe(loc)))
        .collect()
}

/// `accsim info`'s section on the native-code engine (issue 15): which host function
/// `accsim run --engine native` runs as machine code, and why the others run in the interpreter.
fn engine_report(p: &accsim_core::ir::Program, info: &accsim_core::kernel::ProgramInfo, map: &SourceMap) -> String {
    use std::fmt::Write as _;
    let exe = match exec::compile(p, info) {
        Ok(e) => e,
        Err(_) => return String::new(),
    };
    let mut out = String::new();
    match compile_engine(p, info, &exe, None) {
        Ok(engine) => {
            // Every function's code is generated now (a run generates it on first call), so
            // that a failure of code generation is reported too.
            engine.compile_all();
            // The program's functions: not the C library's inline functions of system headers
            // (the front-end records where each is defined). The report is by function id.
            let mut rows: Vec<accsim_jit::FunctionReport> = engine.report().into_iter().zip(&p.functions).filter(|(_, f)| f.origin == accsim_core::ir::FunctionOrigin::Program).map(|(r, _)| r).collect();
            rows.sort_by_key(|f| (f.loc.file, f.loc.line, f.loc.col));
            for f in rows {
                let _ = match &f.native {
                    Ok(()) => writeln!(out, "{}: function `{}`: native code (--engine native; {})", map.describe(f.loc), f.name, f.tier),
                    Err(why) => writeln!(out, "{}: function `{}`: interpreted ({why})", map.describe(f.loc), f.name),
                };
            }
        }
        Err(e) => {
            let _ = writeln!(out, "native engine: unavailable ({e}); every function is interpreted");
        }
    }
    out
}

/// Exit status when `--device cuda` finds no usable GPU.
const NO_DEVICE: u8 = 5;

/// The device of a run; on failure the message is printed and the exit status returned.
fn accelerator(kind: DeviceKind, program: &accsim_core::ir::Program, info: &accsim_core::kernel::ProgramInfo, map: &SourceMap, r: &RunArgs) -> Result<exec::device::DeviceHandle, ExitCode> {
    match kind {
        DeviceKind::Sim => match accsim::sim_device::SimDevice::new(r.threads) {
            Ok(d) => Ok(exec::device::DeviceHandle(Arc::new(d))),
            Err(e) => {
                eprintln!("accsim: cannot start the device threads: {e}");
                Err(ExitCode::from(101))
            }
        },
        DeviceKind::Cuda => {
            let ordinal = match std::env::var("ACC_DEVICE_NUM") {
                Ok(v) => match v.trim().parse::<u64>() {
                    Ok(n) => n,
                    Err(_) => {
                        eprintln!("accsim: ACC_DEVICE_NUM={v:?} is not a device number");
                        return Err(ExitCode::from(NO_DEVICE));
                    }
                },
                Err(_) => 0,
            };
            match accsim_cuda::CudaDevice::new(program, info, ordinal, r.map.loop_map, openuh_mappings(&r.compile, &r.map, program, info)) {
                Ok(d) => {
                    print_diagnostics(&d.loop_map_warnings, map);
                    if r.notify {
                        let ptx = if d.ptx_from_cache { "PTX from the cache" } else { "compiled by NVRTC" };
                        eprintln!("accsim: device: {}; kernels {ptx}", d.description);
                        for loc in accsim_cuda::emit::long_double_regions(program) {
                            eprintln!("accsim: device: {}: `long double` is computed as a double on the GPU, as on the simulator (and as nvc does on the device)", map.describe(loc));
                        }
                    }
                    Ok(exec::device::DeviceHandle(Arc::new(d)))
                }
                Err(accsim_cuda::device::OpenError::Unsupported(e)) => {
                    print_diagnostics(&e.diagnostics(), map);
                    Err(ExitCode::from(2))
                }
                Err(accsim_cuda::device::OpenError::LoopMap(errors)) => {
                    print_diagnostics(&errors, map);
                    Err(ExitCode::from(2))
                }
                Err(accsim_cuda::device::OpenError::Compile(log)) => {
                    // One line at the first compute region (issue 14: the whole NVRTC log came
                    // without a location); the log follows only with --notify.
                    let at = program.kernels.first().map(|k| map.describe(k.loc)).unwrap_or_else(|| r.compile.files.first().cloned().unwrap_or_default());
                    let first = log.lines().find(|l| l.contains("error")).unwrap_or("no message").trim();
                    // The code is accsim's own: an internal error (exit 101, README "Exit status").
                    eprintln!("error[internal]: {at}: NVRTC does not compile the CUDA C that accsim generated for this program (a bug in accsim: please report it): {first}");
                    if r.notify {
                        eprintln!("{log}");
                    }
                    Err(ExitCode::from(101))
                }
                Err(accsim_cuda::device::OpenError::Cuda(e)) => {
                    // The environment (no driver or NVRTC, no such device, NVRTC out of memory):
                    // exit 5, one line.
                    eprintln!("accsim: cannot run on the GPU: {e}");
                    Err(ExitCode::from(NO_DEVICE))
                }
            }
        }
    }
}

/// `accsim validate`: the program on the simulator, then on the GPU, compared.
fn validate(compiled: driver::Compiled, map: &SourceMap, v: &ValidateArgs) -> ExitCode {
    use accsim::validate::{compare, name_transfer, Recorder, RunResult, Tolerance, TransferLog};
    let r = &v.run;
    let exe = match exec::compile(&compiled.program, &compiled.info) {
        Ok(e) => e,
        Err(d) => {
            print_diagnostics(&d.0, map);
            let internal = d.0.iter().any(|d| d.class == accsim_core::diag::Class::Internal);
            return ExitCode::from(if internal { 101 } else { 2 });
        }
    };
    // The GPU first: without one there is nothing to compare, and nothing is run.
    let gpu = match accelerator(DeviceKind::Cuda, &compiled.program, &compiled.info, map, r) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let sim = match accelerator(DeviceKind::Sim, &compiled.program, &compiled.info, map, r) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let mut results = Vec::new();
    for (inner, label) in [(sim, "simulator"), (gpu, "GPU")] {
        let log: TransferLog = Arc::default();
        let recorder = Recorder { inner, log: log.clone() };
        let names = log.clone();
        let downloads = events::Timeline(move |e: &Record| {
            if let events::RecordKind::Download { bytes, var } = &e.kind {
                name_transfer(&names, e.loc, *bytes, var);
            }
        });
        let stdout = exec::Capture::new();
        let options = exec::RunOptions {
            subscribers: vec![Box::new(downloads)],
            accelerator: Some(exec::device::DeviceHandle(Arc::new(recorder))),
            stdout: Some(stdout.sink()),
            ..r.run_options()
        };
        let outcome = exe.run(options, r.argv());
        if let Some(d) = outcome.diagnostic() {
            eprintln!("accsim: on the {label}:");
            eprint!("{}", d.render(map, false));
        }
        let transfers = log.lock().map(|v| v.clone()).unwrap_or_default();
        results.push(RunResult { device: label.to_string(), transfers, stdout: stdout.text(), exit: outcome.exit_code() });
    }
    let tol = Tolerance { abs: v.abs, rel: v.rel, ulp: v.ulp };
    let report = compare(&compiled.program, map, &results[0], &results[1], tol);
    for l in &report.lines {
        println!("{l}");
    }
    println!(
        "validate: {} copies to the host compared, {} differ ({} elements); output and exit status {}",
        report.transfers,
        report.differing_transfers,
        report.differing_elements,
        if report.output_differs { "differ" } else { "agree" }
    );
    if !report.agree() {
        explain_difference(&compiled, map, r, report.rounding_only);
    }
    ExitCode::from(if report.agree() { 0 } else { 1 })
}

/// After `validate` found the devices to differ: whether the program is racy. The threads of a
/// racy kernel may interleave differently on each device (gangs never synchronise inside a
/// kernel, workers and lanes only at the end of a partitioned loop, §1.2), so its results need
/// not agree; a race-free program's must. Runs the program once more under `accsim check`'s race
/// checkers (its output discarded) and names the first race with both sites, or says that none
/// was found: then a difference of rounding alone (`rounding_only`: the largest distance in ulps)
/// is the devices' arithmetic, and any other is accsim's.
fn explain_difference(compiled: &driver::Compiled, map: &SourceMap, r: &RunArgs, rounding_only: Option<u64>) {
    let races = match race_findings(compiled, map, r) {
        Ok(f) => f,
        Err(why) => {
            println!("validate: `accsim check` could not run the program ({why}); run it to look for races");
            return;
        }
    };
    let Some(first) = races.first() else {
        match rounding_only {
            Some(ulps) => println!(
                "validate: `accsim check` finds no data race, and every difference is floating-point rounding, at most {ulps} ulp: the GPU's reductions combine in another order and its math library rounds differently; `--ulp {ulps}` accepts this"
            ),
            None => println!("validate: `accsim check` finds no data race: a race-free program gives the same results on both devices, so this difference is accsim's (please report it) unless the tolerances are too tight"),
        }
        return;
    };
    let at = |l: &accsim_core::diag::Loc| format!("{}:{}", map.name(l.file), l.line);
    let sites: Vec<String> = first.primary.iter().map(at).chain(first.related.iter().map(|(l, _)| at(l))).collect();
    println!(
        "validate: the program is racy, so its results may differ between devices (§1.2): `accsim check` reports {} race finding(s); the first: {} ({})",
        races.len(),
        first.headline(),
        sites.join(", ")
    );
    println!("validate: run `accsim check` on the program for every race with both sites");
}

/// The data-race and async-race findings of `accsim check` on the compiled program.
fn race_findings(compiled: &driver::Compiled, map: &SourceMap, r: &RunArgs) -> Result<Vec<Diagnostic>, String> {
    let exe = exec::compile_for_checking(&compiled.program, &compiled.info).map_err(|d| d.0.first().map(|d| d.headline()).unwrap_or_default())?;
    let (mut checker, found) = accsim::check::CheckRun::new();
    checker.name_locals(&exe);
    let accelerator = accelerator(DeviceKind::Sim, &compiled.program, &compiled.info, map, r).map_err(|_| "no simulated device".to_string())?;
    let discarded = exec::Capture::new();
    let options = exec::RunOptions { subscribers: vec![Box::new(checker)], accelerator: Some(accelerator), stdout: Some(discarded.sink()), ..r.run_options() };
    let _ = exe.run(options, r.argv());
    let list = found.lock().map(|f| f.list.clone()).unwrap_or_default();
    let race = |d: &Diagnostic| matches!(FindingKind::of(d), Some(FindingKind::DataRace | FindingKind::AsyncRace));
    Ok(list.into_iter().filter(race).collect())
}
