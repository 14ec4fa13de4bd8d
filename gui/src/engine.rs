//! The engine thread (DESIGN.md "GUI"; STYLE.md "The GUI only sends commands"): compiles a
//! program, runs it in accsim's interpreter and stops at the observer hook
//! ([`accsim_core::exec::Observer`]). The GUI sends [`Command`]s over a crossbeam channel and
//! receives [`Update`]s; it never waits for the engine while drawing a frame.
//!
//! **Steps.** A step is one call of the observer: one statement (or loop test) of the running
//! thread, on the host or in a kernel. Gangs run one after the other in the interpreter (a legal
//! schedule, §1.2), so the running device thread is the one stepped.
//!
//! **Step back** is deterministic re-execution: the program is run again from the start, with the
//! same input, and paused at step N-1. The interpreter, the data environment and the default
//! queue schedule are deterministic, so the re-run reaches the same state.
//!
//! **Checkers.** The stepped run is the checking run: the program is compiled for checking and
//! the checkers of `accsim check` ([`accsim::check::CheckRun`]) subscribe to its event stream,
//! so every access, transfer and launch reaches them as the program is stepped (kernels run on the
//! sequential device, every access observed). A pause shows the findings made so far, each with
//! the device thread of its primary site; there is no second run of the program.
//!
//! **Coherence colours** are the coherence checker's own state at the pause
//! ([`accsim::check::coherence::Coherence::newest`]): per element, which copy holds the newest
//! value, as every store and transfer so far left it.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, TryRecvError};

use accsim_core::diag::{Diagnostic, FileId, Loc, Severity, SourceMap};
use accsim_core::exec::events::{Record, Timeline};
use accsim_core::exec::inspect::{LocalValue, MachineView};
use accsim_core::exec::{self, Capture, Control, Observer, RunOptions, RunOutcome};
use accsim::check::coherence::Newest;
use accsim::check::{CheckRun, Findings, SharedCheckRun};
use accsim_core::frontend::PreprocessOptions;
use accsim_core::ir::acc::CaptureMode;
use accsim_core::ir::Program;

use crate::layout::{self, KernelLayout};
use crate::state::*;
use crate::values::{self, Scalar};

/// What the GUI asks the engine to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Run one statement of the running thread.
    Step,
    /// Run to the next statement at the current call depth or above.
    StepOver,
    /// Run to the next OpenACC construct, transfer or kernel launch.
    StepToNextConstruct,
    /// Run to a breakpoint or the end.
    Continue,
    /// Run until the statement about to run is on this line.
    RunTo(u32),
    /// Re-run the program to the step before this one.
    StepBack,
    /// Set or clear a breakpoint on a line of the main file.
    ToggleBreakpoint(u32),
    /// Stop a running `Continue`/`RunTo` at the next statement.
    Pause,
}

/// What the engine tells the GUI.
#[derive(Clone, Debug)]
pub enum Update {
    /// The engine paused (or the program ended) with this state.
    Snapshot(Box<Snapshot>),
    /// The engine is running; steps so far.
    Running(u64),
}

/// Called after each update so that a window can repaint.
pub type Notify = Arc<dyn Fn() + Send + Sync>;

/// The GUI's end of the engine.
pub struct EngineHandle {
    commands: Sender<Command>,
    updates: Receiver<Update>,
}

/// How the engine runs a program: Cray CCE's execution model (`--cray`, `--acc-model`;
/// `accsim_core::dialect::cray`), whose implicit queue the queues panel shows as `queue auto`,
/// and the files the program may open (`--allow-read`, `--allow-write`; by default every file
/// the user may open, as `accsim run`'s programs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    pub acc_model: accsim_core::dialect::cray::AccModel,
    pub files: accsim_core::exec::libc_file::FileAccess,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig { acc_model: Default::default(), files: accsim_core::exec::libc_file::FileAccess::unrestricted() }
    }
}

impl EngineHandle {
    /// Starts an engine thread for `path` run under `config`; it compiles the program and
    /// pauses before its first statement.
    pub fn start(path: &Path, config: EngineConfig, notify: Notify) -> Self {
        let (commands, command_rx) = crossbeam_channel::unbounded();
        let (update_tx, updates) = crossbeam_channel::unbounded();
        let path = path.to_owned();
        let spawned = std::thread::Builder::new()
            .name("accsim-gui-engine".into())
            .spawn(move || engine_main(path, config, command_rx, update_tx, notify));
        if let Err(e) = spawned {
            let (tx, rx) = crossbeam_channel::unbounded();
            let mut s = Snapshot::empty(RunState::Failed(format!("cannot start the engine thread: {e}")));
            s.findings.push(Finding {
                severity: "error".into(),
                kind: "internal".into(),
                message: format!("cannot start the engine thread: {e}"),
                line: None,
                related: Vec::new(),
                threads: Vec::new(),
                checker: false,
            });
            let _ = tx.send(Update::Snapshot(Box::new(s)));
            return EngineHandle { commands, updates: rx };
        }
        EngineHandle { commands, updates }
    }

    /// Sends a command; a stopped engine ignores it.
    pub fn send(&self, command: Command) {
        let _ = self.commands.send(command);
    }

    /// The updates received since the last call, without waiting.
    pub fn drain(&self) -> Vec<Update> {
        self.updates.try_iter().collect()
    }

    /// Waits up to `timeout` for the next update (tests and `--screenshot`, never a frame).
    pub fn wait(&self, timeout: Duration) -> Option<Update> {
        self.updates.recv_timeout(timeout).ok()
    }
}

/// What the program is, once compiled.
struct Compiled {
    program: Program,
    exe: exec::Executable,
    main_file: FileId,
    /// The program's files (the Fortran side table words its findings: issue 16; the
    /// `CRAY_ACC_DEBUG` commentary's locations).
    map: SourceMap,
    kernels: HashMap<u32, KernelLayout>,
    /// Lines of the main file that carry an OpenACC directive.
    directive_lines: BTreeSet<u32>,
    /// Findings known before running (notes, compile-time warnings).
    static_findings: Vec<Finding>,
    path: PathBuf,
}

fn finding(d: &Diagnostic, main_file: FileId, map: &SourceMap) -> Finding {
    let d = &map.localized(d);
    let line = |l: Loc| (l.file == main_file && l.line > 0).then_some(l.line);
    let mut related: Vec<(u32, String)> = d
        .related
        .iter()
        .filter_map(|(l, m)| line(*l).map(|n| (n, m.clone())))
        .collect();
    related.extend(d.notes.iter().filter_map(|n| d.primary.and_then(line).map(|l| (l, n.clone()))));
    let mut threads = threads_named(&d.message);
    for (_, m) in &d.related {
        for t in threads_named(m) {
            if !threads.contains(&t) {
                threads.push(t);
            }
        }
    }
    Finding {
        severity: match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
        .into(),
        kind: d.kind.into(),
        message: d.headline(),
        line: d.primary.and_then(line),
        related,
        threads,
        checker: false,
    }
}

/// The checkers' findings so far (`accsim check`'s, less the compile-time ones the engine
/// shows itself), with the device thread of each primary site as data where the checker has it.
fn checker_findings(found: &Mutex<Findings>, main_file: FileId, map: &SourceMap) -> Vec<Finding> {
    let mut out = Vec::new();
    if let Ok(f) = found.lock() {
        for (i, d) in f.list.iter().enumerate() {
            let mut x = finding(d, main_file, map);
            if let Some(Some(t)) = f.threads.get(i) {
                let t = ThreadId { gang: t.gang, worker: t.worker, lane: t.lane };
                x.threads.retain(|u| *u != t);
                x.threads.insert(0, t);
            }
            x.checker = true;
            out.push(x);
        }
        if f.dropped > 0 {
            out.push(Finding {
                severity: "note".into(),
                kind: "checker".into(),
                message: format!("{} more findings not shown", f.dropped),
                line: None,
                related: Vec::new(),
                threads: Vec::new(),
                checker: true,
            });
        }
    }
    out
}

fn compile(path: &Path) -> Result<Compiled, Vec<Finding>> {
    let mut map = SourceMap::new();
    let name = path.to_string_lossy().into_owned();
    let result = accsim_core::driver::compile_files(std::slice::from_ref(&name), &PreprocessOptions::default(), &mut map);
    let main_file = map.file_id(&name);
    let compiled = result.map_err(|ds| ds.iter().map(|d| finding(d, main_file, &map)).collect::<Vec<_>>())?;
    let exe = exec::compile_for_checking(&compiled.program, &compiled.info).map_err(|ds| ds.0.iter().map(|d| finding(d, main_file, &map)).collect::<Vec<_>>())?;
    let mut static_findings: Vec<Finding> = compiled.notes.iter().map(|d| finding(d, main_file, &map)).collect();
    static_findings.extend(compiled.program.findings.iter().map(|d| finding(d, main_file, &map)));
    let directive_lines = compiled
        .program
        .directives
        .iter()
        .filter(|d| d.loc.file == main_file)
        .map(|d| d.loc.line)
        .collect();
    Ok(Compiled {
        kernels: layout::kernels(&compiled.program, &compiled.info),
        program: compiled.program,
        exe,
        main_file,
        map,
        directive_lines,
        static_findings,
        path: path.to_owned(),
    })
}

/// When the observer pauses next.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Goal {
    /// At step number N (the first pause, a single step, a step back).
    AtStep(u64),
    /// At the next step at depth ≤ d.
    Over(usize),
    /// At the next construct, transfer, launch or kernel entry/exit.
    NextConstruct { events: usize, line: Option<u32>, in_kernel: bool },
    /// At a breakpoint.
    Breakpoint,
    /// On this line.
    Line(u32),
}

/// State shared by the engine loop and the observer of the current run.
struct Shared {
    breakpoints: BTreeSet<u32>,
    /// The last snapshot published.
    last: Option<Snapshot>,
    /// Set by the observer: re-run and pause at this step.
    restart_at: Option<u64>,
    /// The GUI hung up.
    gone: bool,
}

/// The observer of one run.
struct Stepper {
    c: Arc<Compiled>,
    shared: Arc<Mutex<Shared>>,
    commands: Receiver<Command>,
    updates: Sender<Update>,
    notify: Notify,
    events: Arc<Mutex<Vec<Record>>>,
    stdout: Capture,
    goal: Goal,
    step: u64,
    /// The previous step's line and depth (breakpoints fire when a line is entered).
    previous: (Option<u32>, usize),
    /// The last host statement's line.
    host_line: Option<u32>,
    /// Iteration maps of the current launch: (loop index, enclosing loops' iterations) → map.
    maps: HashMap<(usize, Vec<u64>), Vec<Option<ThreadId>>>,
    /// Launch count when `maps` was filled.
    maps_launch: u64,
    /// The checkers of the run (read at each pause: the coherence model's state).
    check: Arc<Mutex<CheckRun>>,
    /// Their findings.
    found: Arc<Mutex<Findings>>,
    last_progress: Instant,
}

/// Bytes of one mapped variable compared and shown.
const MAX_SHOWN_BYTES: u64 = 1 << 19;

impl Stepper {
    fn line_of(&self, loc: Loc) -> Option<u32> {
        (loc.file == self.c.main_file && loc.line > 0).then_some(loc.line)
    }

    fn register(view: &MachineView<'_>, local: u32) -> u64 {
        match view.local(local) {
            Some(LocalValue::Register(v)) => v,
            _ => 0,
        }
    }

    /// The running device thread, its modes and the iteration it runs, when in a kernel.
    fn device(&mut self, view: &MachineView<'_>, record: bool) -> Option<DeviceState> {
        let k = self.c.kernels.get(&view.function())?;
        let reg = |l: u32| Self::register(view, l);
        let (gangs, workers, lanes) = (reg(1) as u32, reg(2) as u32, reg(3) as u32);
        let stack = k.stack(view.loc());
        let mut thread = ThreadId { gang: reg(accsim_core::ir::acc::KernelParams::FIXED.gang.0) as u32, worker: 0, lane: 0 };
        let mut modes = Modes::default();
        for &i in stack {
            let l = &k.loops[i];
            modes.gang_partitioned |= l.gang;
            if l.worker {
                modes.worker_partitioned = true;
                thread.worker = reg(l.temps.worker.0) as u32;
            }
            if l.vector {
                modes.vector_partitioned = true;
                thread.lane = reg(l.temps.lane.0) as u32;
            }
        }
        if view.launches() != self.maps_launch {
            self.maps.clear();
            self.maps_launch = view.launches();
        }
        let iteration_map = stack.last().map(|&i| {
            let l = &k.loops[i];
            let current = reg(l.temps.iteration.0);
            let iterations = reg(l.temps.iterations.0);
            let outer: Vec<u64> = stack[..stack.len() - 1].iter().map(|&o| reg(k.loops[o].temps.iteration.0)).collect();
            let map = self.maps.entry((i, outer)).or_default();
            if record && current < iterations && (current as usize) < MAX_MAP_ITERATIONS {
                let n = (iterations as usize).min(MAX_MAP_ITERATIONS);
                if map.len() < n {
                    map.resize(n, None);
                }
                map[current as usize] = Some(thread);
            }
            IterationMap { line: l.line, levels: l.levels(), gang: l.gang, worker: l.worker, vector: l.vector, current, executed_by: map.clone(), iterations }
        });
        Some(DeviceState {
            kernel: k.name.clone(),
            construct_line: k.line,
            gangs,
            workers,
            lanes,
            thread,
            modes,
            iteration_map,
        })
    }

    fn variables(&self, view: &MachineView<'_>) -> Vec<Variable> {
        let p = &self.c.program;
        let Some(f) = p.functions.get(view.function() as usize) else {
            return Vec::new();
        };
        let kernel = self.c.kernels.get(&view.function());
        let mut out = Vec::new();
        for (i, l) in f.locals.iter().enumerate() {
            let Some(value) = view.local(i as u32) else { continue };
            let param = f.params.iter().position(|p| p.0 as usize == i);
            let generated = l.role.is_execution_model();
            let sharing = match (kernel, param) {
                (Some(_), Some(0..=3)) => "launch parameter".to_owned(),
                (Some(k), Some(n)) => match k.captures.get(n - 4).map(|c| c.1) {
                    Some(CaptureMode::Present) => "shared: address of the device copy".to_owned(),
                    Some(CaptureMode::Value) => "firstprivate (by value)".to_owned(),
                    Some(CaptureMode::FirstPrivate) => "firstprivate: address of the gang's copy".to_owned(),
                    Some(CaptureMode::Private) => "private: address of the gang's copy".to_owned(),
                    Some(CaptureMode::Reduction(op)) => format!("reduction({}): the gang's partial", op.as_str()),
                    None => "parameter".to_owned(),
                },
                (Some(_), None) if generated => "loop scheduling".to_owned(),
                (Some(_), None) => "private to the thread".to_owned(),
                (None, Some(_)) => "parameter".to_owned(),
                (None, None) => "local".to_owned(),
            };
            // Kernel captures passed by address show the object they point to.
            let shown = match (kernel, param, value) {
                (Some(k), Some(n), LocalValue::Register(addr)) if n >= 4 && k.captures.get(n - 4).is_some_and(|c| c.1 != CaptureMode::Value) => {
                    let ty = p.types.pointee(l.ty).unwrap_or(l.ty);
                    format!("{} → {}", values::local(&p.types, l.ty, value, view), values::local(&p.types, ty, LocalValue::Memory(addr), view))
                }
                _ => values::local(&p.types, l.ty, value, view),
            };
            out.push(Variable { name: l.name.clone(), ty: p.types.display(l.ty), sharing, value: shown, generated });
        }
        out
    }

    /// The element type of a mapped variable, from the variable its clause names.
    fn element_type(&self, view: &MachineView<'_>, name: &str) -> Scalar {
        let root: String = name.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        let p = &self.c.program;
        let local = p
            .functions
            .get(view.function() as usize)
            .and_then(|f| f.locals.iter().find(|l| l.name == root))
            .map(|l| l.ty);
        let ty = local.or_else(|| p.globals.iter().find(|g| g.name == root).map(|g| g.ty));
        // In a kernel, the host function's variables are not in scope: try every function.
        let ty = ty.or_else(|| p.functions.iter().flat_map(|f| f.locals.iter()).find(|l| l.name == root).map(|l| l.ty));
        ty.map_or(Scalar::Byte, |t| Scalar::element_of(&p.types, t))
    }

    fn memory(&mut self, view: &MachineView<'_>) -> Vec<MappedVar> {
        let entries: Vec<_> = view.present_entries().cloned().collect();
        let mut out = Vec::new();
        for e in entries {
            let scalar = self.element_type(view, &e.name);
            let size = scalar.size();
            let bytes = e.len();
            let shown = bytes.min(MAX_SHOWN_BYTES) / size * size;
            let host = view.load_bytes(e.host.start, shown).unwrap_or_default();
            let device = view.load_bytes(e.device_start, shown).unwrap_or_default();
            let n = (host.len().min(device.len()) as u64 / size) as usize;
            let states: Vec<Coherence> = match self.check.lock() {
                Ok(run) => (0..n as u64)
                    .map(|i| match run.coherence.newest(e.host.start + i * size, size) {
                        Newest::InSync => Coherence::Same,
                        Newest::Host => Coherence::HostNewer,
                        // A result discarded by an earlier lifetime was newest on the device.
                        Newest::Device | Newest::Discarded => Coherence::DeviceNewer,
                        Newest::DeviceUninitialised => Coherence::DeviceUninitialised,
                    })
                    .collect(),
                Err(_) => vec![Coherence::Same; n],
            };
            let fmt = |b: &[u8]| -> Vec<String> { b.chunks_exact(size as usize).take(n).map(|c| scalar.format(c)).collect() };
            out.push(MappedVar {
                name: e.name.clone(),
                host_range: format!("host#{}+{}..+{}", e.host.start >> 32, e.host.start as u32, e.host.end as u32),
                device_range: format!("device#{}+{}..+{}", e.device_start >> 32, e.device_start as u32, e.device_start as u32 + bytes as u32),
                bytes,
                structured: e.structured,
                dynamic: e.dynamic,
                element_type: scalar.name(),
                host: fmt(&host),
                device: fmt(&device),
                coherence: states,
                elements: bytes / size,
                labels: Vec::new(),
            });
        }
        self.fortran_names(view, &mut out);
        out
    }

    /// For a Fortran program: each mapped array and section under its Fortran name (`g(0:9,0:5)`,
    /// `a(1:n)`), its elements by their subscripts in array element order (column-major), and
    /// the bound variables of an allocatable or dummy array (`g_lb1`, `g_n1` in the translation,
    /// mapped with it as its descriptor) as `lbound(g, 1)` and `size(g, 1)`. Bounds that are not
    /// constant are read from those mapped bound variables.
    fn fortran_names(&self, view: &MachineView<'_>, vars: &mut [MappedVar]) {
        let Some(names) = self.c.map.file(self.c.main_file).and_then(|f| f.fortran.clone()) else { return };
        let line = self.line_of(view.loc()).unwrap_or(0);
        let value_of = |vars: &[MappedVar], cname: &str| -> Option<i64> { vars.iter().find(|m| m.name == cname).and_then(|m| m.host.first()).and_then(|v| v.trim().parse().ok()) };
        let mut renamed = Vec::new();
        for (i, m) in vars.iter().enumerate() {
            let root: String = m.name.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if let Some(v) = names.var(&root, line) {
                if v.lbs.is_empty() {
                    renamed.push((i, names.code(&m.name, line), Vec::new()));
                    continue;
                }
                let known = |k: usize| -> Option<(i64, i64)> {
                    let lb = v.lbs[k].or_else(|| value_of(vars, &format!("{root}_lb{}", k + 1)))?;
                    let ext = v.exts[k].or_else(|| value_of(vars, &format!("{root}_n{}", k + 1)))?;
                    Some((lb, ext))
                };
                let bounds: Option<Vec<(i64, i64)>> = (0..v.lbs.len()).map(known).collect();
                // The entry's first element: `root[START:LENGTH]` with a constant start, or the whole array.
                let start = match m.name.strip_prefix(&root) {
                    Some("") => Some(0),
                    Some(rest) => rest.strip_prefix('[').and_then(|r| r.split_once(':')).and_then(|(s, _)| constant_sum(s)),
                    None => None,
                };
                let labels = match (bounds, start) {
                    (Some(b), Some(start)) if b.iter().all(|(_, e)| *e > 0) => (0..m.host.len() as i64)
                        .map(|k| {
                            let mut linear = start + k;
                            let subs: Vec<String> = b
                                .iter()
                                .map(|(lb, ext)| {
                                    let s = lb + linear % ext;
                                    linear /= ext;
                                    s.to_string()
                                })
                                .collect();
                            format!("({})", subs.join(","))
                        })
                        .collect(),
                    _ => Vec::new(),
                };
                renamed.push((i, names.code(&m.name, line), labels));
                continue;
            }
            // A bound variable of an array: `NAME_lbK` / `NAME_nK`.
            for (suffix, what) in [("_lb", "lbound"), ("_n", "size")] {
                if let Some((array, k)) = root.rsplit_once(suffix).filter(|(_, k)| !k.is_empty() && k.chars().all(|c| c.is_ascii_digit())) {
                    if let Some(v) = names.var(array, line) {
                        renamed.push((i, format!("{what}({}, {k})", v.fname), Vec::new()));
                        break;
                    }
                }
            }
        }
        let mut descriptor = vec![false; vars.len()];
        for (i, name, labels) in renamed {
            descriptor[i] = name.starts_with("lbound(") || name.starts_with("size(");
            vars[i].name = name;
            vars[i].labels = labels;
        }
        // Arrays first (the panel shows the first three side by side), then scalars, then bounds.
        let mut order: Vec<usize> = (0..vars.len()).collect();
        order.sort_by_key(|&i| if descriptor[i] { 2 } else if vars[i].labels.is_empty() { 1 } else { 0 });
        let sorted: Vec<MappedVar> = order.iter().map(|&i| vars[i].clone()).collect();
        vars.clone_from_slice(&sorted);
    }

    fn snapshot(&mut self, view: &MachineView<'_>) -> Snapshot {
        let device = self.device(view, false);
        let line = self.line_of(view.loc());
        let host_line = if device.is_some() { self.host_line } else { line };
        let breakpoints = self.shared.lock().map(|s| s.breakpoints.clone()).unwrap_or_default();
        Snapshot {
            step: self.step,
            state: RunState::Paused,
            line,
            host_line,
            function: view.function_name().to_owned(),
            depth: view.depth(),
            device,
            variables: self.variables(view),
            memory: self.memory(view),
            events: self.events.lock().map(|e| e.clone()).unwrap_or_default(),
            now_ns: view.now_ns(),
            findings: self.findings(),
            stdout: self.stdout.text(),
            breakpoints,
        }
    }

    /// The findings panel's list at a pause: the checkers' findings so far, then the compiler's.
    fn findings(&self) -> Vec<Finding> {
        let mut all = checker_findings(&self.found, self.c.main_file, &self.c.map);
        all.extend(self.c.static_findings.iter().cloned());
        all
    }

    fn publish(&self, snapshot: Snapshot) {
        if let Ok(mut s) = self.shared.lock() {
            s.last = Some(snapshot.clone());
        }
        let _ = self.updates.send(Update::Snapshot(Box::new(snapshot)));
        (self.notify)();
    }

    fn should_stop(&self, view: &MachineView<'_>, line: Option<u32>) -> bool {
        match &self.goal {
            Goal::AtStep(n) => self.step >= *n,
            Goal::Over(d) => view.depth() <= *d,
            Goal::NextConstruct { events, line: from, in_kernel } => {
                let kernel = self.c.kernels.contains_key(&view.function());
                let n = self.events.lock().map(|e| e.len()).unwrap_or(0);
                n != *events
                    || kernel != *in_kernel
                    || (line != *from && line.is_some_and(|l| self.c.directive_lines.contains(&l)))
            }
            Goal::Breakpoint => {
                let entered = (line, view.depth()) != self.previous;
                entered && line.is_some_and(|l| self.shared.lock().is_ok_and(|s| s.breakpoints.contains(&l)))
            }
            Goal::Line(l) => line == Some(*l),
        }
    }

    /// Paused: wait for the GUI's next command. `Stop` ends this run (step back, or the GUI left).
    fn paused(&mut self, view: &MachineView<'_>) -> Control {
        let snapshot = self.snapshot(view);
        self.publish(snapshot);
        loop {
            let Ok(command) = self.commands.recv() else {
                if let Ok(mut s) = self.shared.lock() {
                    s.gone = true;
                }
                return Control::Stop;
            };
            let line = self.line_of(view.loc());
            self.goal = match command {
                Command::Step => Goal::AtStep(self.step + 1),
                Command::StepOver => Goal::Over(view.depth()),
                Command::StepToNextConstruct => Goal::NextConstruct {
                    events: self.events.lock().map(|e| e.len()).unwrap_or(0),
                    line,
                    in_kernel: self.c.kernels.contains_key(&view.function()),
                },
                Command::Continue => Goal::Breakpoint,
                Command::RunTo(l) => Goal::Line(l),
                Command::StepBack => {
                    if self.step <= 1 {
                        let last = self.shared.lock().ok().and_then(|s| s.last.clone());
                        if let Some(last) = last {
                            self.publish(last);
                        }
                        continue;
                    }
                    if let Ok(mut s) = self.shared.lock() {
                        s.restart_at = Some(self.step - 1);
                    }
                    return Control::Stop;
                }
                Command::ToggleBreakpoint(l) => {
                    let last = self.shared.lock().ok().and_then(|mut s| {
                        if !s.breakpoints.remove(&l) {
                            s.breakpoints.insert(l);
                        }
                        let b = s.breakpoints.clone();
                        s.last.as_mut().map(|x| {
                            x.breakpoints = b;
                            x.clone()
                        })
                    });
                    if let Some(last) = last {
                        self.publish(last);
                    }
                    continue;
                }
                Command::Pause => continue,
            };
            self.previous = (line, view.depth());
            return Control::Continue;
        }
    }

    /// While running: breakpoints and pause requests, and a progress report now and then.
    fn poll_running(&mut self) -> bool {
        loop {
            match self.commands.try_recv() {
                Ok(Command::Pause) => return true,
                Ok(Command::ToggleBreakpoint(l)) => {
                    if let Ok(mut s) = self.shared.lock() {
                        if !s.breakpoints.remove(&l) {
                            s.breakpoints.insert(l);
                        }
                    }
                }
                Ok(_) => {}
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    if let Ok(mut s) = self.shared.lock() {
                        s.gone = true;
                    }
                    return true;
                }
            }
        }
        if self.last_progress.elapsed() > Duration::from_millis(100) {
            self.last_progress = Instant::now();
            let _ = self.updates.send(Update::Running(self.step));
            (self.notify)();
        }
        false
    }
}

impl Observer for Stepper {
    fn on_step(&mut self, _: Loc, _: usize) -> Control {
        Control::Continue
    }

    fn on_step_inspect(&mut self, view: &MachineView<'_>) -> Control {
        self.step += 1;
        let line = self.line_of(view.loc());
        let in_kernel = self.c.kernels.contains_key(&view.function());
        if in_kernel {
            // Record which thread runs which iteration.
            let _ = self.device(view, true);
        } else {
            self.host_line = line;
        }
        let replaying = matches!(self.goal, Goal::AtStep(n) if self.step < n);
        if !replaying && self.step.is_multiple_of(1024) && self.poll_running() {
            if self.shared.lock().is_ok_and(|s| s.gone) {
                return Control::Stop;
            }
            return self.paused(view);
        }
        if replaying && self.step.is_multiple_of(4096) {
            // A long replay reports progress too.
            if self.last_progress.elapsed() > Duration::from_millis(100) {
                self.last_progress = Instant::now();
                let _ = self.updates.send(Update::Running(self.step));
                (self.notify)();
            }
        }
        if self.should_stop(view, line) {
            return self.paused(view);
        }
        self.previous = (line, view.depth());
        Control::Continue
    }
}

fn engine_main(path: PathBuf, config: EngineConfig, commands: Receiver<Command>, updates: Sender<Update>, notify: Notify) {
    let compiled = match compile(&path) {
        Ok(c) => Arc::new(c),
        Err(findings) => {
            let mut s = Snapshot::empty(RunState::CompileFailed);
            s.findings = findings;
            let _ = updates.send(Update::Snapshot(Box::new(s)));
            notify();
            // Nothing to run: wait for the GUI to hang up.
            while commands.recv().is_ok() {}
            return;
        }
    };
    let shared = Arc::new(Mutex::new(Shared { breakpoints: BTreeSet::new(), last: None, restart_at: None, gone: false }));
    let mut target = 1;
    loop {
        let events: Arc<Mutex<Vec<Record>>> = Arc::default();
        let stdout = Capture::new();
        let sink_events = Arc::clone(&events);
        // The checkers of `accsim check` follow the stepped run (a fresh set for each re-run).
        let (mut run, found) = CheckRun::new();
        run.name_locals(&compiled.exe);
        let check = Arc::new(Mutex::new(run.with_acc_model(config.acc_model)));
        let stepper = Stepper {
            c: Arc::clone(&compiled),
            shared: Arc::clone(&shared),
            commands: commands.clone(),
            updates: updates.clone(),
            notify: Arc::clone(&notify),
            events: Arc::clone(&events),
            stdout: stdout.clone(),
            goal: Goal::AtStep(target),
            step: 0,
            previous: (None, 0),
            host_line: None,
            maps: HashMap::new(),
            maps_launch: 0,
            check: Arc::clone(&check),
            found: Arc::clone(&found),
            last_progress: Instant::now(),
        };
        let mut subscribers: Vec<Box<dyn accsim_core::exec::events::Subscriber>> = vec![
            Box::new(Timeline(move |e: &Record| {
                if let Ok(mut v) = sink_events.lock() {
                    v.push(e.clone());
                }
            })),
            Box::new(SharedCheckRun(check)),
        ];
        // CRAY_ACC_DEBUG's commentary goes to the output panel, with the program's stderr.
        let cray_debug = accsim_core::exec::cray_debug::commentary(&compiled.program, &compiled.map, Some(stdout.sink())).map(|(debug, control)| {
            subscribers.push(Box::new(debug));
            control
        });
        let options = RunOptions {
            stdout: Some(stdout.sink()),
            stderr: Some(stdout.sink()),
            observer: Some(Box::new(stepper)),
            subscribers,
            cray_debug,
            device: accsim_core::exec::openacc::DeviceConfig { acc_model: config.acc_model, ..Default::default() },
            files: config.files.clone(),
            ..RunOptions::default()
        };
        let argv = vec![compiled.path.to_string_lossy().into_owned()];
        let outcome = compiled.exe.run(options, argv);
        let (restart, gone, last) = match shared.lock() {
            Ok(mut s) => (s.restart_at.take(), s.gone, s.last.clone()),
            Err(_) => return,
        };
        if gone {
            return;
        }
        if let Some(step) = restart {
            target = step;
            continue;
        }
        // The program ended: publish its final state, then serve step back.
        let mut s = last.unwrap_or_else(|| Snapshot::empty(RunState::Paused));
        s.state = match &outcome {
            RunOutcome::Exited(c) => RunState::Exited(*c),
            RunOutcome::Aborted => RunState::Failed("abort() was called".into()),
            RunOutcome::Stopped => RunState::Failed("stopped".into()),
            RunOutcome::Trapped(d) | RunOutcome::Limit(d) => RunState::Failed(d.headline()),
        };
        // The checkers' findings of the whole run (the end of a lifetime may add some).
        s.findings = checker_findings(&found, compiled.main_file, &compiled.map);
        s.findings.extend(compiled.static_findings.iter().cloned());
        if let Some(d) = outcome.diagnostic() {
            s.findings.push(finding(d, compiled.main_file, &compiled.map));
        }
        s.line = None;
        s.host_line = None;
        s.device = None;
        s.events = events.lock().map(|e| e.clone()).unwrap_or_default();
        s.now_ns = s.events.iter().map(|e| e.start_ns + e.dur_ns).max().unwrap_or(s.now_ns).max(s.now_ns);
        s.stdout = stdout.text();
        let final_step = s.step;
        let _ = updates.send(Update::Snapshot(Box::new(s.clone())));
        notify();
        loop {
            match commands.recv() {
                Err(_) => return,
                Ok(Command::StepBack) if final_step > 0 => {
                    target = final_step;
                    break;
                }
                Ok(Command::ToggleBreakpoint(l)) => {
                    if let Ok(mut sh) = shared.lock() {
                        if !sh.breakpoints.remove(&l) {
                            sh.breakpoints.insert(l);
                        }
                        s.breakpoints = sh.breakpoints.clone();
                    }
                    let _ = updates.send(Update::Snapshot(Box::new(s.clone())));
                    notify();
                }
                // Nothing left to run: the answer is the final state again.
                Ok(_) => {
                    let _ = updates.send(Update::Snapshot(Box::new(s.clone())));
                    notify();
                }
            }
        }
    }
}

/// The value of a C constant sum like `0`, `10`, `1 - 1` or `(3) + 2` (the start of a clause's
/// subarray); `None` for anything else.
fn constant_sum(text: &str) -> Option<i64> {
    let mut total = 0i64;
    let mut sign = 1i64;
    let mut expect_number = true;
    for tok in text.split_whitespace() {
        let tok = tok.trim_matches(|c| c == '(' || c == ')');
        match (expect_number, tok) {
            (false, "+") => sign = 1,
            (false, "-") => sign = -1,
            (true, t) => total = total.checked_add(sign.checked_mul(t.parse::<i64>().ok()?)?)?,
            _ => return None,
        }
        expect_number = !expect_number;
    }
    (!expect_number).then_some(total)
}
