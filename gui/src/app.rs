//! The GUI's state and the commands that change it, testable without drawing.
//!
//! The view ([`crate::view`]) reads [`App`] and returns [`Command`]s; only [`App::apply`] changes
//! the state. Stepping commands go to the engine thread ([`crate::engine`]) over a channel; the
//! engine's pauses arrive as [`Snapshot`]s that [`App::poll`] picks up without waiting, so a
//! frame never blocks on the program.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::engine::{self, EngineHandle, Notify, Update};
use crate::source::SourceFile;
use crate::state::{Finding, RunState, Snapshot, ThreadId};

/// Everything the user can ask the GUI to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Load a C file into the source panel and start an engine on it.
    Open(PathBuf),
    /// A command for the engine (step, continue, breakpoints…).
    Engine(engine::Command),
    /// Pick the device thread whose state the panels show.
    SelectThread(ThreadId),
    /// Pick a finding (its lines are highlighted in the source panel).
    SelectFinding(usize),
    /// Show one of the bottom panels.
    ShowTab(Tab),
}

/// The bottom panels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Tab {
    #[default]
    Memory,
    Queues,
    Variables,
    Findings,
    Output,
}

impl Tab {
    pub const ALL: [Tab; 5] = [Tab::Memory, Tab::Queues, Tab::Variables, Tab::Findings, Tab::Output];

    pub fn label(self) -> &'static str {
        match self {
            Tab::Memory => "Memory",
            Tab::Queues => "Queues",
            Tab::Variables => "Variables",
            Tab::Findings => "Findings",
            Tab::Output => "Output",
        }
    }

    pub fn from_name(name: &str) -> Option<Tab> {
        Tab::ALL.into_iter().find(|t| t.label().eq_ignore_ascii_case(name))
    }
}

/// A line for the status bar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    Info(String),
    Error(String),
}

/// The GUI's state.
pub struct App {
    /// The file in the source panel, if any.
    pub source: Option<SourceFile>,
    /// Sample programs for the Samples menu, sorted; paths as found on disk.
    pub samples: Vec<PathBuf>,
    /// The folder `samples` was listed from, to show sample names relative to it.
    pub samples_dir: Option<PathBuf>,
    pub status: Status,
    /// The engine running the open file.
    engine: Option<EngineHandle>,
    /// The engine's last pause.
    pub snapshot: Option<Snapshot>,
    /// Steps run so far while the engine runs (`None`: paused or idle).
    pub running: Option<u64>,
    /// A command was sent that the engine has not answered with a snapshot yet.
    pub pending: bool,
    pub selected_thread: Option<ThreadId>,
    /// The user picked `selected_thread`; otherwise it follows the running thread.
    pub thread_pinned: bool,
    /// Index into [`App::findings`].
    pub selected_finding: Option<usize>,
    pub tab: Tab,
    /// How the engines of the files opened run them (`--cray`, `--acc-model`).
    pub engine_config: crate::engine::EngineConfig,
    notify: Notify,
}

impl App {
    /// An empty window, with the samples found from the current directory or the executable.
    pub fn new() -> Self {
        let samples_dir = crate::samples::find_samples_dir();
        Self::with_samples_dir(samples_dir)
    }

    /// An empty window listing the `*.c` files under `samples_dir`.
    pub fn with_samples_dir(samples_dir: Option<PathBuf>) -> Self {
        let samples = samples_dir
            .as_deref()
            .map(crate::samples::list_c_files)
            .unwrap_or_default();
        Self {
            source: None,
            samples,
            samples_dir,
            status: Status::Info(
                "Open a C file (File > Open…) or pick one from Samples.".to_owned(),
            ),
            engine: None,
            snapshot: None,
            running: None,
            pending: false,
            selected_thread: None,
            thread_pinned: false,
            selected_finding: None,
            tab: Tab::default(),
            engine_config: Default::default(),
            notify: Arc::new(|| {}),
        }
    }

    /// What the engine calls after each update (the window's repaint request).
    pub fn set_notify(&mut self, notify: Notify) {
        self.notify = notify;
    }

    /// Carries out one command. A failure is shown in the status bar and leaves the rest of the
    /// state as it was.
    pub fn apply(&mut self, command: Command) {
        match command {
            Command::Open(path) => match SourceFile::open(&path) {
                Ok(file) => {
                    let directives = file.directive_line_numbers().count();
                    self.status = Status::Info(format!(
                        "{}: {} lines, {} directive line{}",
                        path.display(),
                        file.lines.len(),
                        directives,
                        if directives == 1 { "" } else { "s" }
                    ));
                    self.source = Some(file);
                    self.snapshot = None;
                    self.running = None;
                    self.selected_thread = None;
                    self.thread_pinned = false;
                    self.selected_finding = None;
                    // The first pause (before the first statement) is the answer to the start.
                    self.pending = true;
                    self.engine = Some(EngineHandle::start(&path, self.engine_config.clone(), Arc::clone(&self.notify)));
                }
                Err(e) => self.status = Status::Error(e.to_string()),
            },
            Command::Engine(c) => {
                if let Some(engine) = &self.engine {
                    // Pause, and breakpoints set while running, get no snapshot of their own.
                    let unanswered = matches!(c, engine::Command::Pause)
                        || (matches!(c, engine::Command::ToggleBreakpoint(_)) && self.running.is_some());
                    let answered = !unanswered;
                    if answered {
                        self.pending = true;
                    }
                    engine.send(c);
                }
            }
            Command::SelectThread(t) => {
                self.selected_thread = Some(t);
                self.thread_pinned = true;
            }
            Command::SelectFinding(i) => {
                self.selected_finding = Some(i);
                self.tab = Tab::Findings;
                // The device thread of the finding's primary site is picked in the device panel.
                if let Some(&t) = self.findings().get(i).and_then(|f| f.threads.first()) {
                    self.selected_thread = Some(t);
                    self.thread_pinned = true;
                }
            }
            Command::ShowTab(t) => self.tab = t,
        }
    }

    /// Takes the engine's updates, without waiting. Returns whether anything changed.
    pub fn poll(&mut self) -> bool {
        let Some(engine) = &self.engine else {
            return false;
        };
        let updates = engine.drain();
        let changed = !updates.is_empty();
        for u in updates {
            self.take(u);
        }
        changed
    }

    fn take(&mut self, update: Update) {
        match update {
            Update::Running(step) => self.running = Some(step),
            Update::Snapshot(s) => {
                self.running = None;
                self.pending = false;
                self.status = match &s.state {
                    RunState::Paused => Status::Info(format!(
                        "paused at step {}{}",
                        s.step,
                        s.line.map(|l| format!(", line {l}")).unwrap_or_default()
                    )),
                    RunState::Exited(c) => Status::Info(format!("the program exited with status {c} after {} steps", s.step)),
                    RunState::Failed(m) => Status::Error(format!("the program stopped: {m}")),
                    RunState::CompileFailed => Status::Error("the program does not compile (see Findings)".into()),
                };
                if matches!(s.state, RunState::CompileFailed | RunState::Failed(_)) && !s.findings.is_empty() {
                    self.tab = Tab::Findings;
                }
                match &s.device {
                    Some(d) if !self.thread_pinned => self.selected_thread = Some(d.thread),
                    Some(_) => {}
                    // A thread picked from a finding stays picked until its kernel runs.
                    None if self.thread_pinned && self.selected_finding.is_some() => {}
                    None => {
                        self.selected_thread = None;
                        self.thread_pinned = false;
                    }
                }
                self.snapshot = Some(*s);
            }
        }
    }

    /// The findings panel's list: the checkers' findings so far in the stepped run (they follow
    /// it: a finding appears when the run reaches it), then the compiler's and the run's errors.
    pub fn findings(&self) -> Vec<&Finding> {
        self.snapshot.iter().flat_map(|s| s.findings.iter()).collect()
    }

    /// Waits until the engine has answered every command sent (tests, `--screenshot`; never
    /// called while drawing). False on timeout.
    pub fn wait_idle(&mut self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while self.pending {
            let Some(engine) = &self.engine else {
                return true;
            };
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            if let Some(u) = engine.wait(left) {
                self.take(u);
            }
        }
        self.poll();
        true
    }

    /// The name a sample is listed under: its path below the samples folder.
    pub fn sample_label(&self, sample: &Path) -> String {
        self.samples_dir
            .as_deref()
            .and_then(|dir| sample.strip_prefix(dir).ok())
            .unwrap_or(sample)
            .to_string_lossy()
            .into_owned()
    }

    /// Title for the window.
    pub fn title(&self) -> String {
        match &self.source {
            Some(file) => format!("accsim — {}", file.path.display()),
            None => "accsim".to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_file(name: &str, text: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("accsim-gui-app-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn open_loads_lines_and_finds_directives() {
        let path = temp_file(
            "saxpy.c",
            "void saxpy(int n, float a, float *x, float *y) {\n\
             #pragma acc parallel loop copyin(x[0:n]) copy(y[0:n])\n\
             \x20 for (int i = 0; i < n; i++)\n\
             \x20   y[i] = a * x[i] + y[i];\n\
             }\n",
        );
        let mut app = App::with_samples_dir(None);
        assert!(app.source.is_none());
        app.apply(Command::Open(path.clone()));
        let file = app.source.as_ref().expect("file loaded");
        assert_eq!(file.path, path);
        assert_eq!(file.lines.len(), 5);
        assert_eq!(file.lines[3].text, "    y[i] = a * x[i] + y[i];");
        assert_eq!(file.directive_line_numbers().collect::<Vec<_>>(), vec![2]);
        assert_eq!(
            app.status,
            Status::Info(format!("{}: 5 lines, 1 directive line", path.display()))
        );
        assert_eq!(app.title(), format!("accsim — {}", path.display()));
    }

    #[test]
    fn failed_open_keeps_the_current_file() {
        let path = temp_file("hello.c", "int main(void) { return 0; }\n");
        let mut app = App::with_samples_dir(None);
        app.apply(Command::Open(path.clone()));
        app.apply(Command::Open(PathBuf::from(
            "/nonexistent/accsim/missing.c",
        )));
        assert_eq!(app.source.as_ref().map(|f| f.path.clone()), Some(path));
        match &app.status {
            Status::Error(message) => assert!(
                message.contains("/nonexistent/accsim/missing.c"),
                "{message}"
            ),
            other => panic!("expected an error status, got {other:?}"),
        }
    }

    #[test]
    fn samples_are_listed_relative_to_their_folder() {
        let dir =
            std::env::temp_dir().join(format!("accsim-gui-app-samples-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("c")).unwrap();
        std::fs::write(dir.join("c/hello.c"), "int main(void) { return 0; }\n").unwrap();
        let app = App::with_samples_dir(Some(dir.clone()));
        assert_eq!(app.samples, vec![dir.join("c/hello.c")]);
        assert_eq!(app.sample_label(&app.samples[0]), "c/hello.c");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
