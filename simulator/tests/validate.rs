//! `accsim validate`'s comparison, without a GPU: a program runs twice on the simulated device,
//! the second time behind a device that corrupts one element of one copy to the host, and the
//! report must name the variable, the element, both values and the line of the copy.

use std::sync::Arc;

use accsim::validate::{compare, name_transfer, Recorder, RunResult, Tolerance, TransferLog};
use accsim_core::diag::{Loc, SourceMap};
use accsim_core::exec::device::{Device, DeviceCtx, DeviceHandle, KernelLaunch, SequentialDevice};
use accsim_core::exec::events::{Record, RecordKind, Timeline};
use accsim_core::exec::{self, Trap};
use accsim_core::frontend::PreprocessOptions;

/// The simulated device, except that element `index` (a float) of every copy to the host is
/// increased by one.
struct Corrupting {
    index: u64,
}

impl Device for Corrupting {
    fn name(&self) -> &'static str {
        "corrupting"
    }
    fn download(&self, cx: &mut DeviceCtx<'_, '_>, host: u64, dev: u64, len: u64, loc: Loc) -> Result<(), Trap> {
        SequentialDevice.download(cx, host, dev, len, loc)?;
        let at = host + 4 * self.index;
        if 4 * self.index + 4 <= len {
            let v = cx.mem().load_f32(at).map_err(|f| cx.fault(f, loc))?;
            cx.mem_mut().store_f32(at, v + 1.0).map_err(|f| cx.fault(f, loc))?;
        }
        Ok(())
    }
    fn launch(&self, cx: &mut DeviceCtx<'_, '_>, k: &KernelLaunch<'_>) -> Result<(), Trap> {
        SequentialDevice.launch(cx, k)
    }
}

fn run(exe: &exec::Executable, device: DeviceHandle, label: &str) -> RunResult {
    let log: TransferLog = Arc::default();
    let names = log.clone();
    let downloads = Timeline(move |e: &Record| {
        if let RecordKind::Download { bytes, var } = &e.kind {
            name_transfer(&names, e.loc, *bytes, var);
        }
    });
    let stdout = exec::Capture::new();
    let options = exec::RunOptions {
        subscribers: vec![Box::new(downloads)],
        accelerator: Some(DeviceHandle(Arc::new(Recorder { inner: device, log: log.clone() }))),
        stdout: Some(stdout.sink()),
        ..Default::default()
    };
    let outcome = exe.run(options, vec!["prog".into()]);
    let transfers = log.lock().map(|v| v.clone()).unwrap_or_default();
    RunResult { device: label.into(), transfers, stdout: stdout.text(), exit: outcome.exit_code() }
}

#[test]
fn a_differing_element_is_reported_with_its_variable_index_values_and_line() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../samples/acc/01_vector_add.c").to_string();
    let mut map = SourceMap::new();
    let compiled = accsim_core::driver::compile_files(&[file], &PreprocessOptions::default(), &mut map).expect("the sample compiles");
    let exe = exec::compile(&compiled.program).expect("the sample compiles to executable form");
    let sim = run(&exe, DeviceHandle::default(), "simulator");
    let same = run(&exe, DeviceHandle::default(), "GPU");
    let bad = run(&exe, DeviceHandle(Arc::new(Corrupting { index: 7 })), "GPU");

    // One copy to the host: the copy-out of `c` at the end of the construct at line 24.
    assert_eq!(sim.transfers.len(), 1);
    assert_eq!(sim.transfers[0].var.as_deref(), Some("c"));

    let agree = compare(&compiled.program, &map, &sim, &same, Tolerance::default());
    assert!(agree.agree(), "{:?}", agree.lines);
    assert_eq!(agree.transfers, 1);

    let r = compare(&compiled.program, &map, &sim, &bad, Tolerance::default());
    assert!(!r.agree());
    assert_eq!((r.differing_transfers, r.differing_elements), (1, 1));
    assert!(r.output_differs, "the printed sum differs too");
    let text = r.lines.join("\n");
    assert!(text.contains("01_vector_add.c:24: copy to the host of `c` (4000 bytes): 1 element(s) differ"), "{text}");
    assert!(text.contains("`c` element 7: simulator 2.1e1, GPU 2.2e1"), "{text}");

    // Within the tolerance the element agrees (the output still differs).
    let tol = compare(&compiled.program, &map, &sim, &bad, Tolerance { abs: Some(1.5), ..Default::default() });
    assert_eq!(tol.differing_elements, 0);
    let rel = compare(&compiled.program, &map, &sim, &bad, Tolerance { rel: Some(0.01), ..Default::default() });
    assert_eq!(rel.differing_elements, 1, "1/22 is more than 1 %");
}
