//! Golden-image tests of the main views: the window drawn by the software rasteriser of
//! `--screenshot` ([`crate::screenshot::render`], deterministic: no GPU, no fonts of the
//! system) compared with the PNGs in `gui/tests/snapshots/`, a small per-pixel tolerance
//! allowed. `BLESS=1 cargo test -p accsim-gui snapshot` writes them anew; a failing test writes
//! the image it got and a difference image next to the golden one (`*.new.png`, `*.diff.png`)
//! and prints that command.

use std::path::{Path, PathBuf};
use std::time::Duration;

use egui::Color32;

use crate::app::{App, Command, Tab};
use crate::engine::Command as EngineCommand;
use crate::screenshot::{self, Image};
use crate::state::RunState;
use accsim_core::exec::events::RecordKind;

const WAIT: Duration = Duration::from_secs(60);
const SIZE: (usize, usize) = (800, 500);
/// A channel may differ by this much (rounding in blending) without the pixel counting as
/// different.
const CHANNEL_TOLERANCE: u8 = 8;
/// Pixels allowed beyond the channel tolerance (antialiasing at glyph edges).
const MAX_DIFFERENT_PIXELS: usize = 40;

fn snapshot_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots")
}

/// `file` (relative to `gui/`, so that the path drawn is the same in every checkout) opened,
/// stepped `steps` times, `tab` shown.
fn app_at(file: &str, steps: u64, tab: Tab) -> App {
    let mut app = App::with_samples_dir(None);
    app.apply(Command::Open(PathBuf::from(file)));
    assert!(app.wait_idle(WAIT), "the engine paused");
    for _ in 0..steps {
        if !app.snapshot.as_ref().is_some_and(|s| s.state == RunState::Paused) {
            break;
        }
        app.apply(Command::Engine(EngineCommand::Step));
        assert!(app.wait_idle(WAIT), "the engine stepped");
    }
    app.apply(Command::ShowTab(tab));
    app
}

fn read_png(path: &Path) -> Result<Image, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let decoder = png::Decoder::new(std::io::BufReader::new(file));
    let mut reader = decoder.read_info().map_err(|e| format!("{}: {e}", path.display()))?;
    let mut buf = vec![0; reader.output_buffer_size().ok_or("image too large")?];
    let info = reader.next_frame(&mut buf).map_err(|e| format!("{}: {e}", path.display()))?;
    if info.color_type != png::ColorType::Rgba || info.bit_depth != png::BitDepth::Eight {
        return Err(format!("{}: not an 8-bit RGBA PNG", path.display()));
    }
    let pixels = buf[..info.buffer_size()]
        .chunks_exact(4)
        .map(|p| Color32::from_rgba_premultiplied(p[0], p[1], p[2], p[3]))
        .collect();
    Ok(Image { width: info.width as usize, height: info.height as usize, pixels })
}

/// Pixels of `a` and `b` that differ by more than the tolerance, and a difference image (red
/// where they differ, the golden image faded elsewhere).
fn compare(a: &Image, b: &Image) -> (usize, Image) {
    let mut diff = a.clone();
    let mut n = 0;
    for (i, (p, q)) in a.pixels.iter().zip(&b.pixels).enumerate() {
        let far = p.to_array().iter().zip(q.to_array()).any(|(x, y)| x.abs_diff(y) > CHANNEL_TOLERANCE);
        diff.pixels[i] = if far {
            n += 1;
            Color32::RED
        } else {
            p.gamma_multiply(0.3).to_opaque()
        };
    }
    (n, diff)
}

fn check(name: &str, app: &App) {
    let image = screenshot::render(app, SIZE.0, SIZE.1);
    let golden = snapshot_dir().join(format!("{name}.png"));
    if std::env::var_os("BLESS").is_some_and(|v| v != "0") {
        std::fs::create_dir_all(snapshot_dir()).unwrap();
        image.save_png(&golden).unwrap();
        return;
    }
    let bless = "BLESS=1 cargo test -p accsim-gui snapshot";
    let expected = match read_png(&golden) {
        Ok(x) => x,
        Err(e) => panic!("no golden image for {name} ({e}); to create it run: {bless}"),
    };
    let new = snapshot_dir().join(format!("{name}.new.png"));
    let diff_path = snapshot_dir().join(format!("{name}.diff.png"));
    if (expected.width, expected.height) != (image.width, image.height) {
        image.save_png(&new).unwrap();
        panic!(
            "{name}: the view is {}×{}, the golden image {}×{} (got: {}); if the change is intended run: {bless}",
            image.width, image.height, expected.width, expected.height, new.display()
        );
    }
    let (different, diff) = compare(&expected, &image);
    if different > MAX_DIFFERENT_PIXELS {
        image.save_png(&new).unwrap();
        diff.save_png(&diff_path).unwrap();
        panic!(
            "{name}: {different} pixels differ from {} by more than {CHANNEL_TOLERANCE} per channel (at most {MAX_DIFFERENT_PIXELS} may); got {}, differences in red in {}; if the change is intended run: {bless}",
            golden.display(),
            new.display(),
            diff_path.display()
        );
    }
    let _ = std::fs::remove_file(new);
    let _ = std::fs::remove_file(diff_path);
}

/// A few steps into the first kernel of 07_gang_worker_vector: the device grid and both copies
/// of `cube` in the memory panel, the device copy newer in places.
#[test]
fn snapshot_kernel_memory() {
    let mut app = app_at("../samples/acc/07_gang_worker_vector.c", 0, Tab::Memory);
    while app.snapshot.as_ref().is_some_and(|s| s.device.is_none() && s.state == RunState::Paused) {
        app.apply(Command::Engine(EngineCommand::StepToNextConstruct));
        assert!(app.wait_idle(WAIT));
    }
    for _ in 0..40 {
        app.apply(Command::Engine(EngineCommand::Step));
        assert!(app.wait_idle(WAIT));
    }
    check("kernel_memory", &app);
}

/// A Fortran program in the memory panel (issue 16): the allocatable `g(0:9, 0:5)` mapped by a
/// kernels construct under its Fortran name, its elements by their subscripts in array element
/// order (column-major: the first subscript varies fastest, Fortran 2003 §6.2.2.2), and the bound
/// variables the translation maps with it shown as `size(g, 1)`, … .
#[test]
fn fortran_memory_column_major() {
    let mut app = app_at("../samples/fortran/28_acc_kernels_2d.f90", 0, Tab::Memory);
    while app.snapshot.as_ref().is_some_and(|s| s.device.is_none() && s.state == RunState::Paused) {
        app.apply(Command::Engine(EngineCommand::StepToNextConstruct));
        assert!(app.wait_idle(WAIT));
    }
    let memory = app.snapshot.as_ref().map(|s| s.memory.clone()).unwrap_or_default();
    let names: Vec<&str> = memory.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names.first(), Some(&"g"), "the array first, under its Fortran name: {names:?}");
    // The bound variables the kernel reads are mapped with the array, under Fortran names (a
    // bound the translation knows as a constant, as `g`'s lower bounds here, has no variable).
    for bound in ["size(g, 1)", "size(g, 2)"] {
        assert!(names.contains(&bound), "{bound} in {names:?}");
    }
    let fortran_bound = |n: &str| ["lbound", "size"].iter().any(|f| (1..=2).any(|k| n == format!("{f}(g, {k})")));
    assert!(names[1..].iter().all(|n| fortran_bound(n)), "only g's bounds, under Fortran names: {names:?}");
    let g = &memory[0];
    assert_eq!(g.elements, 60);
    assert_eq!(&g.labels[..3], ["(0,0)", "(1,0)", "(2,0)"]);
    assert_eq!(g.labels[10], "(0,1)", "element 11 starts the second column");
    assert_eq!(g.labels[59], "(9,5)");
}

/// The queues timeline after the program ran to its end.
#[test]
fn snapshot_queues() {
    let mut app = app_at("../samples/acc/07_gang_worker_vector.c", 0, Tab::Queues);
    app.apply(Command::Engine(EngineCommand::Continue));
    assert!(app.wait_idle(WAIT));
    check("queues", &app);
}

/// Under Cray CCE's default model (`--cray`), the kernels run on the implicit queue: the queues
/// panel has a `queue auto` track with both launches, and the host's track its wait for it.
#[test]
fn snapshot_queues_cray() {
    let mut app = App::with_samples_dir(None);
    app.engine_config.acc_model = accsim_core::dialect::cray::AccModel::CRAY_DEFAULT;
    app.apply(Command::Open(PathBuf::from("../samples/cray/01_auto_async_kernel.c")));
    assert!(app.wait_idle(WAIT));
    app.apply(Command::Engine(EngineCommand::Continue));
    assert!(app.wait_idle(WAIT));
    app.apply(Command::ShowTab(Tab::Queues));
    let auto = Some(accsim_core::dialect::cray::AUTO_ASYNC_QUEUE);
    let events = app.snapshot.as_ref().map(|s| s.events.clone()).unwrap_or_default();
    assert_eq!(events.iter().filter(|e| e.queue == auto).count(), 2, "two launches on the implicit queue");
    let waits = events.iter().filter(|e| e.queue.is_none() && matches!(e.kind, RecordKind::Wait { queue } if queue == auto)).count();
    assert_eq!(waits, 1, "the host's wait for the implicit queue");
    check("queues_cray", &app);
}

/// The checkers' data race in a planted-bug program run to its end, selected: both source sites
/// marked.
#[test]
fn snapshot_findings() {
    let mut app = app_at("../samples/bugs/race_vector_neighbor.c", 0, Tab::Findings);
    app.apply(Command::Engine(EngineCommand::Continue));
    assert!(app.wait_idle(WAIT), "the program ran to its end");
    let i = app.findings().iter().position(|f| f.kind == "data-race").expect("a data race");
    app.apply(Command::SelectFinding(i));
    check("findings", &app);
}

#[test]
fn comparison_tolerates_small_differences_only() {
    let a = Image { width: 2, height: 1, pixels: vec![Color32::from_rgb(10, 10, 10); 2] };
    let mut b = a.clone();
    b.pixels[0] = Color32::from_rgb(15, 10, 10);
    assert_eq!(compare(&a, &b).0, 0);
    b.pixels[1] = Color32::from_rgb(40, 10, 10);
    assert_eq!(compare(&a, &b).0, 1);
}
