//! Drawing: reads [`App`], returns the [`Command`]s the user gave this frame.
//!
//! Nothing here changes [`App`]; the caller applies the commands after drawing. [`ViewState`]
//! holds what belongs to the widgets alone (the text typed into the Open dialog).

use egui::text::LayoutJob;
use egui::{Color32, FontId, TextFormat, TextStyle};

use crate::app::{App, Command, Status};
use crate::engine::Command as EngineCommand;

/// Widget state that is not the application's state.
#[derive(Debug, Default)]
pub struct ViewState {
    /// The File → Open… dialog, while it is shown.
    pub open_dialog: Option<OpenDialog>,
    /// The line the source panel last scrolled to.
    pub followed_line: Option<u32>,
    /// The variables panel shows loop-scheduling temporaries.
    pub show_generated: bool,
}

/// The File → Open… dialog: a path typed by hand (no platform file dialog).
#[derive(Debug, Default)]
pub struct OpenDialog {
    pub path: String,
    /// The path field takes the keyboard focus on the next frame.
    pub focus_pending: bool,
}

/// Colours of the source panel.
struct Palette {
    line_number: Color32,
    code: Color32,
    directive: Color32,
    directive_background: Color32,
    host_line: Color32,
    device_line: Color32,
    finding_line: Color32,
    breakpoint: Color32,
    arrow: Color32,
}

impl Palette {
    fn for_ui(ui: &egui::Ui) -> Self {
        if ui.visuals().dark_mode {
            Self {
                line_number: Color32::from_gray(110),
                code: Color32::from_gray(210),
                directive: Color32::from_rgb(255, 170, 60),
                directive_background: Color32::from_rgba_unmultiplied(255, 170, 60, 24),
                host_line: Color32::from_rgb(70, 70, 20),
                device_line: Color32::from_rgb(20, 80, 40),
                finding_line: Color32::from_rgb(90, 30, 30),
                breakpoint: Color32::from_rgb(230, 60, 60),
                arrow: Color32::from_rgb(120, 220, 120),
            }
        } else {
            Self {
                line_number: Color32::from_gray(140),
                code: Color32::from_gray(30),
                directive: Color32::from_rgb(170, 80, 0),
                directive_background: Color32::from_rgba_unmultiplied(255, 170, 60, 40),
                host_line: Color32::from_rgb(250, 240, 150),
                device_line: Color32::from_rgb(170, 235, 180),
                finding_line: Color32::from_rgb(250, 190, 190),
                breakpoint: Color32::from_rgb(200, 30, 30),
                arrow: Color32::from_rgb(20, 130, 40),
            }
        }
    }
}

/// Draws the whole window into `ui` and returns the commands given.
pub fn draw(app: &App, view: &mut ViewState, ui: &mut egui::Ui) -> Vec<Command> {
    let mut commands = Vec::new();
    egui::Panel::top("menu_bar").show(ui, |ui| {
        egui::MenuBar::new().ui(ui, |ui| menu_bar(app, view, ui, &mut commands));
    });
    egui::Panel::top("controls").show(ui, |ui| crate::panels::controls(app, ui, &mut commands));
    egui::Panel::bottom("status_bar").show(ui, |ui| match &app.status {
        Status::Info(text) => {
            ui.label(text);
        }
        Status::Error(text) => {
            ui.colored_label(ui.visuals().error_fg_color, text);
        }
    });
    if app.source.is_some() {
        egui::Panel::bottom("details")
            .resizable(true)
            .default_size(250.0)
            .min_size(230.0)
            .show(ui, |ui| crate::panels::details(app, view, ui, &mut commands));
        egui::Panel::right("device")
            .resizable(true)
            .default_size(420.0)
            .show(ui, |ui| crate::panels::device(app, view, ui, &mut commands));
    }
    egui::CentralPanel::default().show(ui, |ui| source_panel(app, view, ui, &mut commands));
    open_dialog(view, ui.ctx(), &mut commands);
    commands
}

fn menu_bar(app: &App, view: &mut ViewState, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
    ui.menu_button("File", |ui| {
        if ui.button("Open…").clicked() {
            let current = app.source.as_ref().map(|f| f.path.display().to_string());
            view.open_dialog = Some(OpenDialog {
                path: current.unwrap_or_default(),
                focus_pending: true,
            });
            ui.close();
        }
        if ui.button("Quit").clicked() {
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
    });
    ui.menu_button("Samples", |ui| {
        if app.samples.is_empty() {
            ui.label("no samples/ folder found");
        }
        egui::ScrollArea::vertical()
            .max_height(480.0)
            .show(ui, |ui| {
                for sample in &app.samples {
                    if ui.button(app.sample_label(sample)).clicked() {
                        commands.push(Command::Open(sample.clone()));
                        ui.close();
                    }
                }
            });
    });
}

fn open_dialog(view: &mut ViewState, ctx: &egui::Context, commands: &mut Vec<Command>) {
    let Some(dialog) = view.open_dialog.as_mut() else {
        return;
    };
    let mut keep_open = true;
    let mut submitted = false;
    egui::Window::new("Open a C file")
        .collapsible(false)
        .resizable(false)
        .open(&mut keep_open)
        .show(ctx, |ui| {
            ui.label("Path:");
            let field = ui.add(
                egui::TextEdit::singleline(&mut dialog.path)
                    .desired_width(420.0)
                    .hint_text("samples/c/hello.c"),
            );
            if std::mem::take(&mut dialog.focus_pending) {
                field.request_focus();
            }
            let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if ui.button("Open").clicked() || enter {
                submitted = true;
            }
        });
    if ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
        keep_open = false;
    }
    let path = dialog.path.trim();
    if submitted && !path.is_empty() {
        commands.push(Command::Open(path.into()));
        keep_open = false;
    }
    if !keep_open {
        view.open_dialog = None;
    }
}

/// The lines a finding names: its own line and its related lines.
fn finding_lines(app: &App) -> Vec<u32> {
    let all = app.findings();
    let Some(f) = app.selected_finding.and_then(|i| all.get(i).copied()) else {
        return Vec::new();
    };
    f.line.into_iter().chain(f.related.iter().map(|r| r.0)).collect()
}

fn source_panel(app: &App, view: &mut ViewState, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
    let Some(file) = &app.source else {
        ui.centered_and_justified(|ui| ui.label("No file open."));
        return;
    };
    let palette = Palette::for_ui(ui);
    let font = TextStyle::Monospace.resolve(ui.style());
    let row_height = ui.text_style_height(&TextStyle::Monospace);
    let number_width = file.lines.len().max(1).to_string().len();
    let snapshot = app.snapshot.as_ref();
    let host_line = snapshot.and_then(|s| s.host_line);
    // The running device thread's line (the only device thread with a current statement: gangs
    // and threads run one after another).
    let device_line = snapshot.and_then(|s| s.device.as_ref().and(s.line));
    let marked = finding_lines(app);
    let breakpoints = snapshot.map(|s| s.breakpoints.clone()).unwrap_or_default();
    // Follow the running line (or the selected finding) when it changes.
    let follow = device_line.or(host_line).or(marked.first().copied());
    let mut scroll = egui::ScrollArea::both().auto_shrink([false, false]);
    if follow != view.followed_line {
        view.followed_line = follow;
        if let Some(line) = follow {
            let visible = ui.available_height();
            let offset = (line as f32 - 1.0) * row_height - visible / 3.0;
            scroll = scroll.vertical_scroll_offset(offset.max(0.0));
        }
    }
    ui.spacing_mut().item_spacing.y = 0.0;
    scroll.show_rows(ui, row_height, file.lines.len(), |ui, rows| {
        for index in rows {
            let line = &file.lines[index];
            let number = index as u32 + 1;
            let format = |color: Color32, background: Color32| TextFormat {
                font_id: FontId::clone(&font),
                color,
                background,
                ..TextFormat::default()
            };
            let line_background = if Some(number) == device_line {
                palette.device_line
            } else if Some(number) == host_line {
                palette.host_line
            } else if marked.contains(&number) {
                palette.finding_line
            } else if line.is_directive {
                palette.directive_background
            } else {
                Color32::TRANSPARENT
            };
            ui.horizontal(|ui| {
                ui.spacing_mut().item_spacing.x = 0.0;
                let mut gutter = LayoutJob::default();
                let marker = if breakpoints.contains(&number) { "●" } else { " " };
                gutter.append(marker, 0.0, format(palette.breakpoint, Color32::TRANSPARENT));
                let arrow = if Some(number) == device_line {
                    "▶"
                } else if Some(number) == host_line {
                    "▷"
                } else {
                    " "
                };
                gutter.append(arrow, 0.0, format(palette.arrow, Color32::TRANSPARENT));
                gutter.append(
                    &format!("{number:>number_width$} "),
                    0.0,
                    format(palette.line_number, Color32::TRANSPARENT),
                );
                let g = ui
                    .add(egui::Label::new(gutter).sense(egui::Sense::click()))
                    .on_hover_text("click: toggle a breakpoint");
                if g.clicked() {
                    commands.push(Command::Engine(EngineCommand::ToggleBreakpoint(number)));
                }
                let color = if line.is_directive {
                    palette.directive
                } else {
                    palette.code
                };
                let mut job = LayoutJob::default();
                // Tabs as four spaces, so that columns line up in the monospace font.
                job.append(&line.text.replace('\t', "    "), 0.0, format(color, line_background));
                let code = ui.add(egui::Label::new(job).extend().sense(egui::Sense::click()));
                code.context_menu(|ui| {
                    if ui.button(format!("Run to line {number}")).clicked() {
                        commands.push(Command::Engine(EngineCommand::RunTo(number)));
                        ui.close();
                    }
                    if ui.button(format!("Toggle breakpoint on line {number}")).clicked() {
                        commands.push(Command::Engine(EngineCommand::ToggleBreakpoint(number)));
                        ui.close();
                    }
                });
            });
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(
        ctx: &egui::Context,
        app: &App,
        view: &mut ViewState,
        events: Vec<egui::Event>,
    ) -> Vec<Command> {
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(800.0, 600.0),
            )),
            events,
            ..egui::RawInput::default()
        };
        let mut commands = Vec::new();
        let mut output = ctx.run_ui(input, |ui| commands = draw(app, view, ui));
        output.textures_delta.clear();
        commands
    }

    fn key(key: egui::Key) -> egui::Event {
        egui::Event::Key {
            key,
            physical_key: None,
            pressed: true,
            repeat: false,
            modifiers: egui::Modifiers::NONE,
        }
    }

    #[test]
    fn an_idle_frame_sends_no_command() {
        let ctx = egui::Context::default();
        let app = App::with_samples_dir(None);
        let mut view = ViewState::default();
        assert!(frame(&ctx, &app, &mut view, vec![]).is_empty());
        assert!(view.open_dialog.is_none());
    }

    #[test]
    fn enter_in_the_open_dialog_sends_open() {
        let ctx = egui::Context::default();
        let app = App::with_samples_dir(None);
        let mut view = ViewState {
            open_dialog: Some(OpenDialog {
                path: " samples/c/hello.c ".to_owned(),
                focus_pending: true,
            }),
            ..ViewState::default()
        };
        // First frame: the dialog appears and its path field takes the focus.
        assert!(frame(&ctx, &app, &mut view, vec![]).is_empty());
        assert!(view.open_dialog.as_ref().is_some_and(|d| !d.focus_pending));
        // Second frame: Enter submits the trimmed path and closes the dialog.
        let commands = frame(&ctx, &app, &mut view, vec![key(egui::Key::Enter)]);
        assert_eq!(commands, vec![Command::Open("samples/c/hello.c".into())]);
        assert!(view.open_dialog.is_none());
    }

    #[test]
    fn escape_closes_the_open_dialog_without_a_command() {
        let ctx = egui::Context::default();
        let app = App::with_samples_dir(None);
        let mut view = ViewState {
            open_dialog: Some(OpenDialog::default()),
            ..ViewState::default()
        };
        assert!(frame(&ctx, &app, &mut view, vec![]).is_empty());
        assert!(frame(&ctx, &app, &mut view, vec![key(egui::Key::Escape)]).is_empty());
        assert!(view.open_dialog.is_none());
    }
}
