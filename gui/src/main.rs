//! accsim-gui: the step-through window of accsim (DESIGN.md "GUI").
//!
//! Today it shows a C file with line numbers and its OpenACC directive lines coloured, with a
//! File → Open… dialog and a Samples menu. The structure is the final one: [`app::App`] holds the
//! state and changes only through [`app::Command`]s; [`view`] draws it and returns commands. The
//! engine thread, stepping and the device panels come with the engine.
//!
//! `--screenshot OUT.png` draws the window headlessly (see [`screenshot`]) instead of opening it.

mod app;
mod samples;
mod screenshot;
mod source;
mod view;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;

use crate::app::{App, Command};
use crate::view::ViewState;

const USAGE: &str = "usage: accsim-gui [--screenshot OUT.png] [FILE.c]";

/// Width and height of the window and of screenshots, in points.
const WINDOW_SIZE: [usize; 2] = [1024, 720];

/// The parsed command line.
#[derive(Debug, PartialEq, Eq)]
struct Args {
    file: Option<PathBuf>,
    screenshot: Option<PathBuf>,
}

fn parse_args(args: impl IntoIterator<Item = std::ffi::OsString>) -> Result<Option<Args>, String> {
    let mut parsed = Args {
        file: None,
        screenshot: None,
    };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.to_str() {
            Some("-h" | "--help") => return Ok(None),
            Some("--screenshot") => {
                let out = args.next().ok_or("--screenshot needs an output file")?;
                parsed.screenshot = Some(out.into());
            }
            Some(flag) if flag.starts_with('-') && flag.len() > 1 => {
                return Err(format!("unknown option {flag}"))
            }
            _ if parsed.file.is_some() => return Err("only one FILE.c can be opened".to_owned()),
            _ => parsed.file = Some(arg.into()),
        }
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
    if let Some(file) = args.file {
        app.apply(Command::Open(file));
        if let app::Status::Error(message) = &app.status {
            anyhow::bail!("{message}");
        }
    }
    if let Some(out) = args.screenshot {
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
    eframe::run_native("accsim", options, Box::new(|_| Ok(Box::new(window))))
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
                screenshot: None
            }))
        );
        assert_eq!(
            parse(&["--screenshot", "out.png", "a.c"]),
            Ok(Some(Args {
                file: Some("a.c".into()),
                screenshot: Some("out.png".into())
            }))
        );
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
