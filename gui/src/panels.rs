//! The panels around the source: controls, the device (gang × worker × lane grid and iteration
//! map), and the bottom tabs (memory, queues, variables, findings, output). Each reads [`App`]
//! and pushes [`Command`]s; none changes the state.

use egui::{Color32, Pos2, Rect, Sense, Stroke, Vec2};

use crate::app::{App, Command, Tab};
use crate::engine::Command as EngineCommand;
use crate::state::{Coherence, DeviceState, IterationMap, MappedVar, RunState, Snapshot, ThreadId};
use crate::view::ViewState;
use accsim_core::exec::events::RecordKind;

/// Colours of §1.2's execution modes, as the legend names them.
pub mod mode_colour {
    use egui::Color32;
    pub const INACTIVE: Color32 = Color32::from_rgb(60, 60, 66);
    pub const GR: Color32 = Color32::from_rgb(70, 120, 220);
    pub const GP: Color32 = Color32::from_rgb(60, 180, 90);
    pub const WP: Color32 = Color32::from_rgb(235, 150, 40);
    pub const VP: Color32 = Color32::from_rgb(175, 90, 220);
}

fn coherence_colour(c: Coherence) -> Color32 {
    match c {
        Coherence::Same => Color32::from_rgb(60, 140, 80),
        Coherence::HostNewer => Color32::from_rgb(70, 120, 220),
        Coherence::DeviceNewer => Color32::from_rgb(220, 140, 40),
        Coherence::DeviceUninitialised => Color32::from_rgb(130, 130, 130),
    }
}

fn coherence_label(c: Coherence) -> &'static str {
    match c {
        Coherence::Same => "same",
        Coherence::HostNewer => "host newer",
        Coherence::DeviceNewer => "device newer",
        Coherence::DeviceUninitialised => "device uninitialised",
    }
}

/// The toolbar: stepping commands, and where the program is.
pub fn controls(app: &App, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
    let snapshot = app.snapshot.as_ref();
    let paused = snapshot.is_some_and(|s| s.state == RunState::Paused) && app.running.is_none();
    let can_back = snapshot.is_some_and(|s| s.step > 1 && s.state != RunState::CompileFailed) && app.running.is_none();
    ui.horizontal(|ui| {
        let mut button = |ui: &mut egui::Ui, enabled: bool, text: &str, hint: &str, c: EngineCommand| {
            if ui.add_enabled(enabled, egui::Button::new(text)).on_hover_text(hint).clicked() {
                commands.push(Command::Engine(c));
            }
        };
        button(ui, can_back, "Step back", "re-run the program to the previous step", EngineCommand::StepBack);
        button(ui, paused, "Step", "run one statement of the running thread", EngineCommand::Step);
        button(ui, paused, "Step over", "run to the next statement in this function or its caller", EngineCommand::StepOver);
        button(ui, paused, "Next construct", "run to the next OpenACC construct, transfer or kernel launch", EngineCommand::StepToNextConstruct);
        button(ui, paused, "Continue", "run to a breakpoint or the end", EngineCommand::Continue);
        button(ui, app.running.is_some(), "Pause", "stop a running program", EngineCommand::Pause);
        ui.separator();
        match (app.running, snapshot) {
            (Some(step), _) => {
                ui.label(format!("running… step {step}"));
            }
            (None, Some(s)) => {
                let place = match &s.state {
                    RunState::Paused => format!(
                        "step {} · {}(){} · depth {}",
                        s.step,
                        s.function,
                        s.line.map(|l| format!(" line {l}")).unwrap_or_default(),
                        s.depth
                    ),
                    RunState::Exited(c) => format!("exited with status {c} after {} steps", s.step),
                    RunState::Failed(m) => format!("stopped: {m}"),
                    RunState::CompileFailed => "does not compile".to_owned(),
                };
                ui.label(place);
            }
            (None, None) if app.source.is_some() => {
                ui.label("compiling…");
            }
            _ => {}
        }
    });
}

/// The device panel: kernel, grid, legend, thread picker, iteration map.
pub fn device(app: &App, _view: &mut ViewState, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
    ui.heading("Device");
    let Some(s) = app.snapshot.as_ref() else {
        ui.label("No program running.");
        return;
    };
    let Some(d) = &s.device else {
        ui.label("The host is running: no kernel on the device.");
        if let Some(t) = app.selected_thread {
            ui.label(format!("selected (from a finding): gang {} worker {} lane {} — shown in the grid when its kernel runs", t.gang, t.worker, t.lane));
        }
        ui.add_space(4.0);
        legend(ui);
        return;
    };
    ui.label(format!(
        "kernel {} (construct at line {}): {} gang{} × {} worker{} × {} lane{}",
        d.kernel,
        d.construct_line,
        d.gangs,
        if d.gangs == 1 { "" } else { "s" },
        d.workers,
        if d.workers == 1 { "" } else { "s" },
        d.lanes,
        if d.lanes == 1 { "" } else { "s" },
    ));
    ui.label(format!(
        "running: gang {} worker {} lane {} — {}",
        d.thread.gang,
        d.thread.worker,
        d.thread.lane,
        d.modes.label()
    ));
    legend(ui);
    let selected = app.selected_thread.unwrap_or(d.thread);
    thread_info(d, selected, ui);
    let grid_height = (ui.available_height() * 0.5).max(80.0);
    egui::ScrollArea::vertical()
        .id_salt("device_grid")
        .max_height(grid_height)
        .auto_shrink([false, true])
        .show_rows(ui, GRID_ROW, d.gangs as usize, |ui, rows| {
            grid_rows(d, selected, rows, ui, commands);
        });
    ui.separator();
    iteration_map(d, selected, ui);
}

/// Height of one gang's row in the grid.
const GRID_ROW: f32 = 12.0;

fn legend(ui: &mut egui::Ui) {
    ui.horizontal_wrapped(|ui| {
        let item = |ui: &mut egui::Ui, c: Color32, text: &str, hint: &str| {
            let (r, _) = ui.allocate_exact_size(Vec2::splat(10.0), Sense::hover());
            ui.painter().rect_filled(r, 2.0, c);
            ui.label(text).on_hover_text(hint);
        };
        item(ui, mode_colour::GR, "GR", "gang-redundant: every gang runs the statement (§1.2)");
        item(ui, mode_colour::GP, "GP", "gang-partitioned: a gang loop shares iterations among gangs");
        item(ui, mode_colour::WP, "WP", "worker-partitioned (WS: only worker 0 runs, grey cells)");
        item(ui, mode_colour::VP, "VP", "vector-partitioned (VS: only lane 0 runs, grey cells)");
        item(ui, mode_colour::INACTIVE, "idle (WS/VS)", "a worker or lane with nothing to run in single mode");
    });
    ui.small("accsim runs gangs one after another: dim cells are gangs already finished; white outline: the running thread; yellow: the selected one.");
}

/// The colour of thread (g, w, v) in the current mode.
pub fn cell_colour(d: &DeviceState, t: ThreadId) -> Color32 {
    let m = d.modes;
    let active = (m.worker_partitioned || t.worker == 0) && (m.vector_partitioned || t.lane == 0);
    let base = if !active {
        mode_colour::INACTIVE
    } else if m.vector_partitioned {
        mode_colour::VP
    } else if m.worker_partitioned {
        mode_colour::WP
    } else if m.gang_partitioned {
        mode_colour::GP
    } else {
        mode_colour::GR
    };
    if t.gang < d.thread.gang {
        base.gamma_multiply(0.45)
    } else {
        base
    }
}

fn grid_rows(d: &DeviceState, selected: ThreadId, rows: std::ops::Range<usize>, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
    let per_gang = (d.workers.max(1) * d.lanes.max(1)) as f32;
    let label_w = 44.0;
    let gaps = d.workers.saturating_sub(1) as f32 * 3.0;
    let cell = ((ui.available_width() - label_w - gaps) / per_gang).clamp(1.0, 12.0);
    for g in rows {
        let g = g as u32;
        let width = label_w + cell * per_gang + gaps;
        let (rect, response) = ui.allocate_exact_size(Vec2::new(width, GRID_ROW), Sense::click());
        let painter = ui.painter_at(rect);
        painter.text(
            rect.left_center(),
            egui::Align2::LEFT_CENTER,
            format!("g{g}"),
            egui::FontId::monospace(9.0),
            ui.visuals().weak_text_color(),
        );
        let cell_rect = |w: u32, v: u32| {
            let x = rect.left() + label_w + (w * d.lanes + v) as f32 * cell + w as f32 * 3.0;
            Rect::from_min_size(Pos2::new(x, rect.top() + 1.0), Vec2::new((cell - 0.5).max(1.0), GRID_ROW - 2.0))
        };
        for w in 0..d.workers {
            // Lanes of one worker with the same colour are one rectangle: fewer shapes per frame.
            let mut v = 0;
            while v < d.lanes {
                let c = cell_colour(d, ThreadId { gang: g, worker: w, lane: v });
                let mut end = v + 1;
                while end < d.lanes && cell_colour(d, ThreadId { gang: g, worker: w, lane: end }) == c {
                    end += 1;
                }
                let r = cell_rect(w, v).union(cell_rect(w, end - 1));
                painter.rect_filled(r, 0.0, c);
                v = end;
            }
        }
        for (t, colour) in [(d.thread, Color32::WHITE), (selected, Color32::YELLOW)] {
            if t.gang == g {
                painter.rect_stroke(cell_rect(t.worker, t.lane).expand(1.0), 0.0, Stroke::new(1.5, colour), egui::StrokeKind::Outside);
            }
        }
        if let Some(pos) = response.interact_pointer_pos().filter(|_| response.clicked()) {
            let x = pos.x - rect.left() - label_w;
            if x >= 0.0 {
                let slot = cell + 3.0 / d.lanes.max(1) as f32;
                let idx = (x / slot) as u32;
                let w = (idx / d.lanes.max(1)).min(d.workers.saturating_sub(1));
                let v = (idx % d.lanes.max(1)).min(d.lanes.saturating_sub(1));
                commands.push(Command::SelectThread(ThreadId { gang: g, worker: w, lane: v }));
            }
        }
    }
}

fn thread_info(d: &DeviceState, t: ThreadId, ui: &mut egui::Ui) {
    let state = if t == d.thread {
        "running the highlighted line".to_owned()
    } else if t.gang < d.thread.gang {
        "finished (its gang has run)".to_owned()
    } else if cell_colour(d, t) == mode_colour::INACTIVE {
        "idle in this mode".to_owned()
    } else if t.gang == d.thread.gang {
        "in the same gang, waiting for its turn".to_owned()
    } else {
        "not started (its gang runs later)".to_owned()
    };
    let mut text = format!("selected: gang {} worker {} lane {} — {state}", t.gang, t.worker, t.lane);
    if let Some(map) = &d.iteration_map {
        let mine: Vec<String> = map
            .executed_by
            .iter()
            .enumerate()
            .filter(|(_, x)| **x == Some(t))
            .map(|(k, _)| k.to_string())
            .take(12)
            .collect();
        if !mine.is_empty() {
            text.push_str(&format!("; ran iterations {}", mine.join(", ")));
        }
    }
    ui.label(text);
}

/// A colour per thread for the iteration map: distinct hues for the threads among which the
/// loop's iterations are partitioned (its gang, worker and vector levels).
pub fn thread_colour(t: ThreadId, d: &DeviceState, map: &IterationMap) -> Color32 {
    let mut index = 0u64;
    if map.gang {
        index = u64::from(t.gang);
    }
    if map.worker {
        index = index * u64::from(d.workers.max(1)) + u64::from(t.worker);
    }
    if map.vector {
        index = index * u64::from(d.lanes.max(1)) + u64::from(t.lane);
    }
    let hue = (index as f32 * 0.618_034).fract();
    let value = if index.is_multiple_of(2) { 0.95 } else { 0.75 };
    Color32::from(egui::ecolor::Hsva::new(hue, 0.6, value, 1.0))
}

fn iteration_map(d: &DeviceState, selected: ThreadId, ui: &mut egui::Ui) {
    let Some(map) = &d.iteration_map else {
        ui.label("Not inside a loop: no iteration map.");
        return;
    };
    let done = map.executed_by.iter().filter(|x| x.is_some()).count();
    ui.label(format!(
        "loop at line {} ({}): iteration {} of {}; {done} executed so far{}",
        map.line,
        map.levels,
        map.current,
        map.iterations,
        if map.iterations as usize > map.executed_by.len() && !map.executed_by.is_empty() {
            format!(" (first {} shown)", map.executed_by.len())
        } else {
            String::new()
        }
    ));
    ui.small("each cell is one iteration, coloured by the thread that ran it (one colour per partitioned thread; hover for gang, worker, lane); dark: not run yet");
    let cell = 9.0;
    let per_row = ((ui.available_width() / cell) as usize).max(1);
    let n = map.executed_by.len().max(map.iterations.min(crate::state::MAX_MAP_ITERATIONS as u64) as usize);
    let rows = n.div_ceil(per_row);
    egui::ScrollArea::vertical()
        .id_salt("iteration_map")
        .auto_shrink([false, true])
        .show_rows(ui, cell, rows, |ui, range| {
            for row in range {
                let (rect, response) = ui.allocate_exact_size(Vec2::new(per_row as f32 * cell, cell), Sense::hover());
                let painter = ui.painter_at(rect);
                for col in 0..per_row {
                    let k = row * per_row + col;
                    if k >= n {
                        break;
                    }
                    let r = Rect::from_min_size(Pos2::new(rect.left() + col as f32 * cell, rect.top()), Vec2::splat(cell - 1.0));
                    let by = map.executed_by.get(k).copied().flatten();
                    let c = by.map_or(Color32::from_gray(40), |t| thread_colour(t, d, map));
                    painter.rect_filled(r, 0.0, c);
                    if k as u64 == map.current {
                        painter.rect_stroke(r, 0.0, Stroke::new(1.5, Color32::WHITE), egui::StrokeKind::Inside);
                    } else if by == Some(selected) {
                        painter.rect_stroke(r, 0.0, Stroke::new(1.0, Color32::YELLOW), egui::StrokeKind::Inside);
                    }
                }
                if let Some(pos) = response.hover_pos() {
                    let col = ((pos.x - rect.left()) / cell) as usize;
                    let k = row * per_row + col;
                    let text = match map.executed_by.get(k).copied().flatten() {
                        Some(t) => format!("iteration {k}: gang {} worker {} lane {}", t.gang, t.worker, t.lane),
                        None => format!("iteration {k}: not run yet"),
                    };
                    response.on_hover_text(text);
                }
            }
        });
}

/// The bottom panels.
pub fn details(app: &App, view: &mut ViewState, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
    ui.horizontal(|ui| {
        for t in Tab::ALL {
            if ui.selectable_label(app.tab == t, t.label()).clicked() {
                commands.push(Command::ShowTab(t));
            }
        }
    });
    ui.separator();
    let Some(s) = app.snapshot.as_ref() else {
        ui.label("Compiling…");
        return;
    };
    match app.tab {
        Tab::Memory => memory(s, ui),
        Tab::Queues => queues(s, ui),
        Tab::Variables => variables(s, view, ui),
        Tab::Findings => findings(app, ui, commands),
        Tab::Output => {
            egui::ScrollArea::vertical().auto_shrink([false, false]).stick_to_bottom(true).show(ui, |ui| {
                ui.monospace(if s.stdout.is_empty() { "(no output yet)" } else { &s.stdout });
            });
        }
    }
}

fn memory(s: &Snapshot, ui: &mut egui::Ui) {
    if s.memory.is_empty() {
        ui.label("The present table is empty: no data is mapped to the device now (§2.6).");
        return;
    }
    ui.horizontal_wrapped(|ui| {
        for c in [Coherence::Same, Coherence::HostNewer, Coherence::DeviceNewer, Coherence::DeviceUninitialised] {
            let (r, _) = ui.allocate_exact_size(Vec2::splat(10.0), Sense::hover());
            ui.painter().rect_filled(r, 2.0, coherence_colour(c));
            ui.label(coherence_label(c));
        }
    });
    egui::Grid::new("present_table").striped(true).show(ui, |ui| {
        for h in ["variable", "host range", "device range", "bytes", "lifetime", "structured", "dynamic"] {
            ui.strong(h);
        }
        ui.end_row();
        for m in &s.memory {
            ui.monospace(&m.name);
            ui.monospace(&m.host_range);
            ui.monospace(&m.device_range);
            ui.label(m.bytes.to_string());
            ui.label(m.lifetime());
            ui.label(m.structured.to_string());
            ui.label(m.dynamic.to_string());
            ui.end_row();
        }
    });
    ui.separator();
    let columns = s.memory.len().min(3);
    ui.columns(columns, |cols| {
        for (i, m) in s.memory.iter().enumerate().take(columns) {
            mapped_var(m, i, &mut cols[i]);
        }
    });
    if s.memory.len() > 3 {
        ui.small(format!("{} more mapped variables (first three shown side by side)", s.memory.len() - 3));
    }
}

fn mapped_var(m: &MappedVar, index: usize, ui: &mut egui::Ui) {
    ui.strong(format!("{} ({} × {})", m.name, m.elements, m.element_type));
    // Heat strip: each column is a run of elements, coloured by the least coherent one.
    let (rect, _) = ui.allocate_exact_size(Vec2::new(ui.available_width(), 10.0), Sense::hover());
    let n = m.coherence.len();
    if n > 0 {
        let w = rect.width().max(1.0) as usize;
        let painter = ui.painter_at(rect);
        for x in 0..w.min(n) {
            let (a, b) = (x * n / w.min(n), ((x + 1) * n / w.min(n)).max(x * n / w.min(n) + 1));
            let worst = m.coherence[a..b.min(n)]
                .iter()
                .copied()
                .max_by_key(|c| match c {
                    Coherence::Same => 0,
                    Coherence::DeviceUninitialised => 1,
                    Coherence::HostNewer => 2,
                    Coherence::DeviceNewer => 3,
                })
                .unwrap_or(Coherence::Same);
            let x0 = rect.left() + x as f32 * rect.width() / w.min(n) as f32;
            let x1 = rect.left() + (x + 1) as f32 * rect.width() / w.min(n) as f32;
            painter.rect_filled(Rect::from_x_y_ranges(x0..=x1, rect.y_range()), 0.0, coherence_colour(worst));
        }
    }
    let row = 16.0;
    egui::ScrollArea::vertical()
        .id_salt(("mapped", index))
        .auto_shrink([false, false])
        .show_rows(ui, row, m.host.len(), |ui, rows| {
            egui::Grid::new(("mapped_rows", index)).num_columns(3).min_row_height(row).show(ui, |ui| {
                for i in rows {
                    let c = m.coherence.get(i).copied().unwrap_or(Coherence::Same);
                    match m.labels.get(i) {
                        Some(label) => ui.monospace(label),
                        None => ui.monospace(format!("[{i}]")),
                    };
                    let text = |v: &str| egui::RichText::new(v.to_owned()).monospace().background_color(coherence_colour(c).gamma_multiply(0.55));
                    ui.label(text(m.host.get(i).map_or("", String::as_str)));
                    ui.label(text(m.device.get(i).map_or("", String::as_str))).on_hover_text(coherence_label(c));
                    ui.end_row();
                }
            });
        });
}

fn queues(s: &Snapshot, ui: &mut egui::Ui) {
    let mut tracks: Vec<Option<i64>> = vec![None];
    for e in &s.events {
        if !tracks.contains(&e.queue) {
            tracks.push(e.queue);
        }
    }
    tracks[1..].sort();
    let end = s.events.iter().map(|e| e.start_ns + e.dur_ns).max().unwrap_or(0).max(s.now_ns).max(1);
    ui.label(format!(
        "{} events; model clock {:.1} µs (1 interpreter step = 1 ns; transfers 1 µs + bytes/10 GB/s)",
        s.events.len(),
        s.now_ns as f64 / 1000.0
    ));
    let label_w = 70.0;
    let track_h = 22.0;
    let width = ui.available_width().max(label_w + 50.0);
    let (rect, response) = ui.allocate_exact_size(Vec2::new(width, track_h * tracks.len() as f32 + 14.0), Sense::hover());
    let painter = ui.painter_at(rect);
    let x_of = |ns: u64| rect.left() + label_w + (ns as f32 / end as f32) * (rect.width() - label_w - 4.0);
    let mut hovered = None;
    for (i, q) in tracks.iter().enumerate() {
        let top = rect.top() + i as f32 * track_h;
        // Cray's implicit auto-async queue is "queue auto" (accsim_core::dialect::cray).
        let name = q.map_or("host".to_owned(), |q| format!("queue {}", accsim_core::dialect::cray::queue_name(q)));
        painter.text(Pos2::new(rect.left(), top + track_h / 2.0), egui::Align2::LEFT_CENTER, name, egui::FontId::proportional(12.0), ui.visuals().text_color());
        painter.line_segment([Pos2::new(rect.left() + label_w, top + track_h - 1.0), Pos2::new(rect.right(), top + track_h - 1.0)], Stroke::new(0.5, ui.visuals().weak_text_color()));
        for e in s.events.iter().filter(|e| e.queue == *q) {
            let (colour, label) = match &e.kind {
                RecordKind::Upload { var, .. } => (Color32::from_rgb(70, 120, 220), format!("upload {var}")),
                RecordKind::Download { var, .. } => (Color32::from_rgb(60, 170, 90), format!("download {var}")),
                RecordKind::Launch { kernel, .. } => (Color32::from_rgb(235, 150, 40), format!("kernel {kernel}")),
                RecordKind::Alloc { var, .. } => (Color32::from_gray(120), format!("alloc {var}")),
                RecordKind::Free { var, .. } => (Color32::from_gray(90), format!("free {var}")),
                RecordKind::Wait { .. } => (Color32::from_rgb(210, 70, 70), "wait".to_owned()),
            };
            let x0 = x_of(e.start_ns);
            let x1 = x_of(e.start_ns + e.dur_ns).max(x0 + 2.0);
            let r = Rect::from_x_y_ranges(x0..=x1, top + 3.0..=top + track_h - 4.0);
            painter.rect_filled(r, 2.0, colour);
            if r.width() > 60.0 {
                painter.text(r.left_center() + Vec2::new(3.0, 0.0), egui::Align2::LEFT_CENTER, &label, egui::FontId::proportional(10.0), Color32::BLACK);
            }
            if response.hover_pos().is_some_and(|p| r.contains(p)) {
                hovered = Some(format!("{label}: line {}, {:.2} µs at {:.2} µs", e.loc.line, e.dur_ns as f64 / 1000.0, e.start_ns as f64 / 1000.0));
            }
        }
    }
    let x = x_of(s.now_ns);
    painter.line_segment([Pos2::new(x, rect.top()), Pos2::new(x, rect.bottom() - 12.0)], Stroke::new(1.5, Color32::WHITE));
    let align = if x > rect.right() - 50.0 { egui::Align2::RIGHT_BOTTOM } else { egui::Align2::CENTER_BOTTOM };
    painter.text(Pos2::new(x, rect.bottom()), align, format!("step {}", s.step), egui::FontId::proportional(10.0), ui.visuals().text_color());
    if let Some(text) = hovered {
        response.on_hover_text(text);
    }
}

fn variables(s: &Snapshot, view: &mut ViewState, ui: &mut egui::Ui) {
    ui.horizontal(|ui| {
        ui.label(match &s.device {
            Some(d) => format!("{}(): gang {} worker {} lane {}", s.function, d.thread.gang, d.thread.worker, d.thread.lane),
            None => format!("{}() on the host", s.function),
        });
        ui.checkbox(&mut view.show_generated, "show loop-scheduling temporaries");
    });
    egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
        egui::Grid::new("variables").striped(true).show(ui, |ui| {
            for h in ["name", "type", "sharing", "value"] {
                ui.strong(h);
            }
            ui.end_row();
            for v in s.variables.iter().filter(|v| view.show_generated || !v.generated) {
                ui.monospace(&v.name);
                ui.monospace(&v.ty);
                ui.label(&v.sharing);
                ui.monospace(&v.value);
                ui.end_row();
            }
        });
    });
}

fn findings(app: &App, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
    let all = app.findings();
    if all.is_empty() {
        ui.label("No findings (the checkers' findings, compile-time notes and warnings, and the run's errors appear here).");
        return;
    }
    egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
        for (i, f) in all.iter().enumerate() {
            let at = f.line.map(|l| format!("line {l}: ")).unwrap_or_default();
            let threads = if f.threads.is_empty() {
                String::new()
            } else {
                let t: Vec<String> = f.threads.iter().map(|t| format!("g{} w{} l{}", t.gang, t.worker, t.lane)).collect();
                format!("  [threads: {}]", t.join(", "))
            };
            let text = format!("{} [{}] {at}{}{threads}", f.severity, f.kind, f.message);
            let colour = match f.severity.as_str() {
                "error" => ui.visuals().error_fg_color,
                "warning" => ui.visuals().warn_fg_color,
                _ => ui.visuals().text_color(),
            };
            let r = ui.selectable_label(app.selected_finding == Some(i), egui::RichText::new(text).color(colour));
            if r.clicked() {
                commands.push(Command::SelectFinding(i));
            }
            for (line, m) in &f.related {
                ui.label(format!("    line {line}: {m}"));
            }
        }
    });
}
