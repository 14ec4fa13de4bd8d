//! accsim-gui: the step-through window of accsim (DESIGN.md "GUI").
//!
//! A C file is compiled and run by an engine thread ([`engine`]) that pauses at the interpreter's
//! observer hook; the window shows the source with the host's and the device thread's lines, the
//! gang × worker × lane grid with the current loop's iteration map, both copies of mapped data,
//! the activity queues, the variables and the findings. [`app::App`] holds the state and changes
//! only through [`app::Command`]s; [`view`] and [`panels`] draw it and return commands.
//!
//! `--screenshot OUT.png [--steps N] [--tab NAME]` draws the window headlessly (see
//! [`screenshot`]) after N steps instead of opening it.

mod app;
mod engine;
mod layout;
mod panels;
mod samples;
mod screenshot;
#[cfg(test)]
mod snapshot_tests;
mod source;
mod state;
mod values;
mod view;

#[cfg(test)]
mod ui_tests;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;

use crate::app::{App, Command};
use crate::view::ViewState;

const USAGE: &str = "usage: accsim-gui [--cray] [--acc-model OPTION[:OPTION]] [--allow-read PATH]... [--allow-write PATH]... [--screenshot OUT.png [--steps N] [--tab memory|queues|variables|findings|output]] [FILE.c]";

/// How long `--screenshot` waits for the engine.
const SCREENSHOT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(120);

/// Width and height of the window and of screenshots, in points.
const WINDOW_SIZE: [usize; 2] = [1024, 720];

/// The parsed command line.
#[derive(Debug, PartialEq, Eq)]
struct Args {
    file: Option<PathBuf>,
    screenshot: Option<PathBuf>,
    /// Steps to run before the screenshot.
    steps: u64,
    /// The bottom panel shown.
    tab: app::Tab,
    /// Cray CCE's execution model (`--cray`: its default; `--acc-model`, as `accsim run`'s).
    acc_model: accsim_core::dialect::cray::AccModel,
    /// The files the program may open: every file the user may (as `accsim run`), or, once
    /// `--allow-read PATH` or `--allow-write PATH` names one (repeatable; a directory grants what
    /// is below it), only those, as `accsim run --sandbox` (issue 14).
    files: accsim_core::exec::libc_file::FileAccess,
}

fn parse_args(args: impl IntoIterator<Item = std::ffi::OsString>) -> Result<Option<Args>, String> {
    let mut parsed = Args {
        file: None,
        screenshot: None,
        steps: 0,
        tab: app::Tab::default(),
        acc_model: Default::default(),
        files: accsim_core::exec::libc_file::FileAccess::unrestricted(),
    };
    let (mut read, mut write) = (Vec::new(), Vec::new());
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.to_str() {
            Some("-h" | "--help") => return Ok(None),
            Some("--screenshot") => {
                let out = args.next().ok_or("--screenshot needs an output file")?;
                parsed.screenshot = Some(out.into());
            }
            Some("--steps") => {
                let n = args.next().ok_or("--steps needs a number")?;
                parsed.steps = n
                    .to_str()
                    .and_then(|n| n.parse().ok())
                    .ok_or_else(|| format!("--steps needs a number, not {}", n.to_string_lossy()))?;
            }
            Some("--cray") => parsed.acc_model = accsim_core::dialect::cray::AccModel::CRAY_DEFAULT,
            Some("--acc-model") => {
                let m = args.next().ok_or("--acc-model needs options")?;
                parsed.acc_model = accsim_core::dialect::cray::AccModel::CRAY_DEFAULT.with_options(&m.to_string_lossy())?;
            }
            Some(flag @ ("--allow-read" | "--allow-write")) => {
                let path = args.next().ok_or_else(|| format!("{flag} needs a path"))?;
                let grants = if flag == "--allow-read" { &mut read } else { &mut write };
                grants.push(PathBuf::from(path));
            }
            Some("--tab") => {
                let t = args.next().ok_or("--tab needs a panel name")?;
                parsed.tab = t
                    .to_str()
                    .and_then(app::Tab::from_name)
                    .ok_or_else(|| format!("unknown panel {}", t.to_string_lossy()))?;
            }
            Some(flag) if flag.starts_with('-') && flag.len() > 1 => {
                return Err(format!("unknown option {flag}"))
            }
            _ if parsed.file.is_some() => return Err("only one FILE.c can be opened".to_owned()),
            _ => parsed.file = Some(arg.into()),
        }
    }
    if !read.is_empty() || !write.is_empty() {
        parsed.files = accsim_core::exec::libc_file::FileAccess::granted(read, write);
    }
    Ok(Some(parsed))
}

fn main() -> ExitCode {
    let args = match parse_args(std::env::args_os().skip(1)) {
        Ok(Some(args)) => args,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("accsim-gui: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("accsim-gui: error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: Args) -> anyhow::Result<()> {
    let mut app = App::new();
    app.engine_config.acc_model = args.acc_model;
    app.engine_config.files = args.files;
    app.apply(Command::ShowTab(args.tab));
    if let Some(file) = args.file {
        app.apply(Command::Open(file));
        if let app::Status::Error(message) = &app.status {
            anyhow::bail!("{message}");
        }
    }
    if let Some(out) = args.screenshot {
        // Step as a user would, waiting for each pause (no window here to keep responsive).
        loop {
            if !app.wait_idle(SCREENSHOT_TIMEOUT) {
                anyhow::bail!("the engine did not pause within {SCREENSHOT_TIMEOUT:?}");
            }
            match &app.snapshot {
                Some(s) if s.state == state::RunState::Paused && s.step < args.steps => {
                    app.apply(Command::Engine(engine::Command::Step));
                }
                _ => break,
            }
        }
        let image = screenshot::render(&app, WINDOW_SIZE[0], WINDOW_SIZE[1]);
        image
            .save_png(&out)
            .with_context(|| format!("writing the screenshot {}", out.display()))?;
        return Ok(());
    }
    let title = app.title();
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title(title.clone())
            .with_inner_size([WINDOW_SIZE[0] as f32, WINDOW_SIZE[1] as f32]),
        ..eframe::NativeOptions::default()
    };
    let window = Window {
        app,
        view: ViewState::default(),
        title,
    };
    eframe::run_native(
        "accsim",
        options,
        Box::new(|cc| {
            let mut window = window;
            let ctx = cc.egui_ctx.clone();
            window.app.set_notify(std::sync::Arc::new(move || ctx.request_repaint()));
            Ok(Box::new(window))
        }),
    )
        .map_err(|e| anyhow::anyhow!("cannot open the window: {e}"))
}

/// The eframe application: draws, then applies the commands the drawing returned.
struct Window {
    app: App,
    view: ViewState,
    /// The title last sent to the window system.
    title: String,
}

impl eframe::App for Window {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.app.poll();
        if self.app.running.is_some() || self.app.pending {
            ui.ctx().request_repaint_after(std::time::Duration::from_millis(50));
        }
        for command in view::draw(&self.app, &mut self.view, ui) {
            self.app.apply(command);
        }
        let title = self.app.title();
        if title != self.title {
            ui.ctx()
                .send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Option<Args>, String> {
        parse_args(args.iter().map(std::ffi::OsString::from))
    }

    #[test]
    fn command_line() {
        assert_eq!(
            parse(&[]),
            Ok(Some(Args {
                file: None,
                screenshot: None,
                steps: 0,
                tab: app::Tab::Memory,
                acc_model: Default::default(),
                files: accsim_core::exec::libc_file::FileAccess::unrestricted(),
            }))
        );
        assert_eq!(
            parse(&["--screenshot", "out.png", "a.c"]),
            Ok(Some(Args {
                file: Some("a.c".into()),
                screenshot: Some("out.png".into()),
                steps: 0,
                tab: app::Tab::Memory,
                acc_model: Default::default(),
                files: accsim_core::exec::libc_file::FileAccess::unrestricted(),
            }))
        );
        assert_eq!(
            parse(&["--screenshot", "o.png", "--steps", "40", "--tab", "queues", "a.c"]),
            Ok(Some(Args {
                file: Some("a.c".into()),
                screenshot: Some("o.png".into()),
                steps: 40,
                tab: app::Tab::Queues,
                acc_model: Default::default(),
                files: accsim_core::exec::libc_file::FileAccess::unrestricted(),
            }))
        );
        let cray = parse(&["--acc-model", "auto_async_all", "a.c"]).ok().flatten().map(|a| a.acc_model.name());
        assert_eq!(cray.as_deref(), Some("auto_async_all:fast_addr:no_deep_copy"));
        let cray = parse(&["--cray", "a.c"]).ok().flatten().map(|a| a.acc_model);
        assert_eq!(cray, Some(accsim_core::dialect::cray::AccModel::CRAY_DEFAULT));
        assert!(parse(&["--acc-model", "fast"]).is_err());
        let files = parse(&["--allow-read", "img", "--allow-write", "out.pgm", "--allow-read", "b.txt", "a.c"]).ok().flatten().map(|a| a.files);
        assert_eq!(files, Some(accsim_core::exec::libc_file::FileAccess::granted(vec!["img".into(), "b.txt".into()], vec!["out.pgm".into()])));
        assert_eq!(parse(&["--allow-write"]), Err("--allow-write needs a path".to_owned()));
        assert_eq!(parse(&["--steps", "x"]), Err("--steps needs a number, not x".to_owned()));
        assert_eq!(parse(&["--tab", "nope"]), Err("unknown panel nope".to_owned()));
        assert_eq!(parse(&["--help"]), Ok(None));
        assert_eq!(
            parse(&["--screenshot"]),
            Err("--screenshot needs an output file".to_owned())
        );
        assert_eq!(
            parse(&["--frobnicate"]),
            Err("unknown option --frobnicate".to_owned())
        );
        assert_eq!(
            parse(&["a.c", "b.c"]),
            Err("only one FILE.c can be opened".to_owned())
        );
    }
}
