//! The event stream of the data environment and the device (DESIGN.md "Events are the single
//! source of observation"): allocations, transfers, launches and waits, each with its place in
//! the source and a time on a *model clock*, so the same program gives the same trace every run.
//!
//! **Model clock.** One interpreter step is one nanosecond; a transfer of `b` bytes takes
//! `1 µs + b / 10 GB/s` (a PCIe-like link); device allocation and free take 1 µs. Host steps and
//! kernel steps advance the clock as they run; transfers and launches are on the host track (the
//! queues run their work when it is issued, so every queue's work is also host-synchronous).
//!
//! Consumers: `--notify` prints each event as it happens (NV_ACC_NOTIFY-style lines), `--time`
//! summarises per construct (NV_ACC_TIME-style), `--trace FILE.json` writes a Chrome trace.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::diag::{Loc, SourceMap};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventKind {
    Alloc { bytes: u64, var: String },
    Free { bytes: u64, var: String },
    Upload { bytes: u64, var: String },
    Download { bytes: u64, var: String },
    Launch { kernel: String, gangs: u64, workers: u64, vector_length: u64, steps: u64 },
    Wait { queue: Option<i64> },
}

/// One event: what, where (the directive or call that caused it), when (model ns), how long.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    pub kind: EventKind,
    pub loc: Loc,
    /// The function the host was running.
    pub function: String,
    /// The activity queue (`async(n)`), `None` for synchronous work.
    pub queue: Option<i64>,
    pub start_ns: u64,
    pub dur_ns: u64,
}

/// Cost of a transfer on the model clock.
pub fn transfer_ns(bytes: u64) -> u64 {
    1000 + bytes / 10
}

/// The NV_ACC_NOTIFY-style line of an event.
pub fn notify_line(e: &Event, map: &SourceMap) -> String {
    let file = map.name(e.loc.file);
    let at = format!("file={file} function={} line={} device=0", e.function, e.loc.line);
    let q = e.queue.map(|q| format!(" queue={q}")).unwrap_or_default();
    match &e.kind {
        EventKind::Alloc { bytes, var } => format!("alloc device data {at}{q} variable={var} bytes={bytes}"),
        EventKind::Free { bytes, var } => format!("free device data {at}{q} variable={var} bytes={bytes}"),
        EventKind::Upload { bytes, var } => format!("upload data {at}{q} variable={var} bytes={bytes}"),
        EventKind::Download { bytes, var } => format!("download data {at}{q} variable={var} bytes={bytes}"),
        EventKind::Launch { kernel, gangs, workers, vector_length, .. } => {
            format!("launch kernel {at}{q} kernel={kernel} num_gangs={gangs} num_workers={workers} vector_length={vector_length}")
        }
        EventKind::Wait { queue } => match queue {
            Some(n) => format!("wait {at} queue={n}"),
            None => format!("wait {at} all queues"),
        },
    }
}

/// The NV_ACC_TIME-style summary: per function, per source line, how often each construct was
/// reached, kernels launched, bytes moved, and model time.
pub fn time_summary(events: &[Event], map: &SourceMap) -> String {
    #[derive(Default)]
    struct Line {
        launches: u64,
        steps: u64,
        uploads: u64,
        up_bytes: u64,
        downloads: u64,
        down_bytes: u64,
        allocs: u64,
        time_ns: u64,
        config: Option<(u64, u64, u64)>,
    }
    let mut by_fn: BTreeMap<(String, String), BTreeMap<u32, Line>> = BTreeMap::new();
    for e in events {
        let file = map.name(e.loc.file).to_string();
        let l = by_fn.entry((file, e.function.clone())).or_default().entry(e.loc.line).or_default();
        l.time_ns += e.dur_ns;
        match &e.kind {
            EventKind::Launch { gangs, workers, vector_length, steps, .. } => {
                l.launches += 1;
                l.steps += steps;
                l.config = Some((*gangs, *workers, *vector_length));
            }
            EventKind::Upload { bytes, .. } => {
                l.uploads += 1;
                l.up_bytes += bytes;
            }
            EventKind::Download { bytes, .. } => {
                l.downloads += 1;
                l.down_bytes += bytes;
            }
            EventKind::Alloc { .. } => l.allocs += 1,
            _ => {}
        }
    }
    let mut out = String::from("Accelerator timing (accsim model clock: 1 interpreter step = 1 ns)\n");
    for ((file, func), lines) in &by_fn {
        let total: u64 = lines.values().map(|l| l.time_ns).sum();
        let _ = writeln!(out, "{file}\n  {func}  simulated device 0\n    time(us): {}", total / 1000);
        for (line, l) in lines {
            if l.launches > 0 {
                let (g, w, v) = l.config.unwrap_or((0, 0, 0));
                let _ = writeln!(
                    out,
                    "    {line}: kernel launched {} time{}\n        num_gangs: {g}  num_workers: {w}  vector_length: {v}\n        simulated work: {} steps  time(us): {}",
                    l.launches,
                    if l.launches == 1 { "" } else { "s" },
                    l.steps,
                    l.time_ns / 1000
                );
            }
            if l.uploads + l.downloads + l.allocs > 0 {
                let _ = writeln!(
                    out,
                    "    {line}: data region: allocations {}, copyin transfers {} ({} bytes), copyout transfers {} ({} bytes)",
                    l.allocs, l.uploads, l.up_bytes, l.downloads, l.down_bytes
                );
            }
        }
    }
    out
}

/// A Chrome trace (chrome://tracing, Perfetto): the host thread and each activity queue as tracks.
pub fn chrome_trace(events: &[Event], map: &SourceMap) -> String {
    let mut out = String::from("{\"traceEvents\":[\n");
    let esc = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
    let mut first = true;
    let mut tracks: BTreeMap<i64, ()> = BTreeMap::new();
    for e in events {
        let tid = e.queue.map(|q| q + 2).unwrap_or(1);
        tracks.insert(tid, ());
        let (name, cat) = match &e.kind {
            EventKind::Alloc { var, .. } => (format!("alloc {var}"), "alloc"),
            EventKind::Free { var, .. } => (format!("free {var}"), "alloc"),
            EventKind::Upload { var, .. } => (format!("upload {var}"), "transfer"),
            EventKind::Download { var, .. } => (format!("download {var}"), "transfer"),
            EventKind::Launch { kernel, .. } => (format!("kernel {kernel}"), "kernel"),
            EventKind::Wait { .. } => ("wait".to_string(), "wait"),
        };
        if !first {
            out.push_str(",\n");
        }
        first = false;
        let _ = write!(
            out,
            "{{\"name\":\"{}\",\"cat\":\"{cat}\",\"ph\":\"X\",\"ts\":{:.3},\"dur\":{:.3},\"pid\":1,\"tid\":{tid},\"args\":{{\"source\":\"{}\"}}}}",
            esc(&name),
            e.start_ns as f64 / 1000.0,
            e.dur_ns as f64 / 1000.0,
            esc(&map.describe(e.loc))
        );
    }
    for tid in tracks.keys() {
        let label = if *tid == 1 { "host".to_string() } else { format!("queue {}", tid - 2) };
        let _ = write!(out, "{}{{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":{tid},\"args\":{{\"name\":\"{label}\"}}}}", if first { "" } else { ",\n" });
        first = false;
    }
    out.push_str("\n]}\n");
    out
}
