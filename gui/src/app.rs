//! The GUI's state and the commands that change it, testable without drawing.
//!
//! The view ([`crate::view`]) reads [`App`] and returns [`Command`]s; only [`App::apply`] changes
//! the state. When the engine runs on its own thread (DESIGN.md "GUI"), stepping commands will be
//! forwarded to it over a channel from here, and the view will still only send commands.

use std::path::{Path, PathBuf};

use crate::source::SourceFile;

/// Everything the user can ask the GUI to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Load a C file into the source panel.
    Open(PathBuf),
}

/// A line for the status bar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    Info(String),
    Error(String),
}

/// The GUI's state.
#[derive(Debug)]
pub struct App {
    /// The file in the source panel, if any.
    pub source: Option<SourceFile>,
    /// Sample programs for the Samples menu, sorted; paths as found on disk.
    pub samples: Vec<PathBuf>,
    /// The folder `samples` was listed from, to show sample names relative to it.
    pub samples_dir: Option<PathBuf>,
    pub status: Status,
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
        }
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
                }
                Err(e) => self.status = Status::Error(e.to_string()),
            },
        }
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
