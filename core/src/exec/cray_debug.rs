//! Cray CCE's runtime commentary (seeds/003, the CCE man page, "CRAY_ACC_DEBUG Output Routines"
//! and the environment variable `CRAY_ACC_DEBUG`): "When set to 1, 2, or 3 (most verbose),
//! writes runtime commentary of accelerator activity to STDERR … every accelerator action …
//! generates output prefixed with `ACC:`", and the routines `cray_acc_set_debug_*` /
//! `cray_acc_get_debug_*` that change the level and the prefix while the program runs.
//!
//! [`CrayDebug`] is a subscriber of the event stream ([`super::events`]): it prints what the
//! events say, nothing of its own. Its levels, in CCE's spirit:
//! 1. kernel launches with their configuration, and waits;
//! 2. and each variable's device allocation, transfers (direction, bytes) and release;
//! 3. and present-table lookups that found data present, device addresses, pointer attachments
//!    and queue joins.
//!
//! The man page does not fix the wording; the lines name the variable and the source line as
//! CCE's do. The level and prefixes live in a [`CrayDebugControl`] shared by the subscriber and
//! the runtime routines ([`super::openacc`]); the thread level and prefix override the global
//! ones when set (accsim's host program has one thread).

use std::io::Write;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};

use super::events::{Event, Stamp, Subscriber};
use super::memory::Memory;
use crate::dialect::cray::queue_name;
use crate::diag::SourceMap;

/// "Setting a level less than or equal to 0 disables the debug output."
const UNSET: i64 = i64::MIN;

/// The debug level and prefixes, shared by the subscriber and the `cray_acc_*` routines.
#[derive(Debug)]
pub struct CrayDebugControl {
    global_level: AtomicI64,
    thread_level: AtomicI64,
    global_prefix: Mutex<String>,
    thread_prefix: Mutex<Option<String>>,
}

impl CrayDebugControl {
    /// The control with `CRAY_ACC_DEBUG`'s level (0 when unset or not a number).
    pub fn from_env() -> Arc<CrayDebugControl> {
        let level = std::env::var("CRAY_ACC_DEBUG").ok().and_then(|v| v.trim().parse::<i64>().ok()).unwrap_or(0);
        Arc::new(CrayDebugControl::with_level(level))
    }

    pub fn with_level(level: i64) -> CrayDebugControl {
        CrayDebugControl {
            global_level: AtomicI64::new(level),
            thread_level: AtomicI64::new(UNSET),
            global_prefix: Mutex::new("ACC:".into()),
            thread_prefix: Mutex::new(None),
        }
    }

    pub fn global_level(&self) -> i64 {
        self.global_level.load(Ordering::Relaxed)
    }
    pub fn set_global_level(&self, level: i64) {
        self.global_level.store(level, Ordering::Relaxed)
    }
    /// The thread level: the global one until set.
    pub fn thread_level(&self) -> i64 {
        match self.thread_level.load(Ordering::Relaxed) {
            UNSET => self.global_level(),
            l => l,
        }
    }
    pub fn set_thread_level(&self, level: i64) {
        self.thread_level.store(level, Ordering::Relaxed)
    }
    pub fn global_prefix(&self) -> String {
        self.global_prefix.lock().map(|p| p.clone()).unwrap_or_default()
    }
    pub fn set_global_prefix(&self, prefix: String) {
        if let Ok(mut p) = self.global_prefix.lock() {
            *p = prefix;
        }
    }
    /// The thread prefix: the global one until set.
    pub fn thread_prefix(&self) -> String {
        self.thread_prefix.lock().ok().and_then(|p| p.clone()).unwrap_or_else(|| self.global_prefix())
    }
    pub fn set_thread_prefix(&self, prefix: String) {
        if let Ok(mut p) = self.thread_prefix.lock() {
            *p = Some(prefix);
        }
    }
}

impl Default for CrayDebugControl {
    fn default() -> Self {
        CrayDebugControl::with_level(0)
    }
}

/// The `CRAY_ACC_DEBUG` commentary, a subscriber of the event stream.
pub struct CrayDebug {
    control: Arc<CrayDebugControl>,
    files: SourceMap,
    out: Box<dyn Write + Send>,
}

impl CrayDebug {
    /// Commentary on stderr, as CCE writes it.
    pub fn new(control: Arc<CrayDebugControl>, files: SourceMap) -> CrayDebug {
        CrayDebug { control, files, out: Box::new(std::io::stderr()) }
    }

    /// Commentary into `out` (tests).
    pub fn with_output(control: Arc<CrayDebugControl>, files: SourceMap, out: Box<dyn Write + Send>) -> CrayDebug {
        CrayDebug { control, files, out }
    }

    /// The commentary line of an event at `level`, if it has one at that level (without prefix).
    fn line(&self, level: i64, queue: Option<i64>, e: &Event<'_>) -> Option<String> {
        let loc = e.loc();
        let from = format!("from {}:{}", self.files.name(loc.file), loc.line);
        let queue = queue.map(|q| format!(" async({})", queue_name(q))).unwrap_or_default();
        let quoted = |n: &str| format!("'{n}'");
        let text = match *e {
            Event::Launched { kernel, gangs, workers, vector_length, .. } => {
                format!("Execute kernel {kernel} blocks:{gangs} threads:{}{queue} {from}", workers * vector_length)
            }
            // A wait the runtime makes on its own (no source line) is not the program's.
            Event::Waited { loc, .. } if loc.line == 0 => return None,
            Event::Waited { queue: q, .. } | Event::WaitDirective { queue: q, .. } => match q {
                Some(q) => format!("Wait async({}) {from}", queue_name(q)),
                None => format!("Wait all async queues {from}"),
            },
            Event::Created { ref host, device, name, .. } if level >= 2 => {
                let addr = if level >= 3 { format!(" at device {device:#x} for host {:#x}", host.start) } else { String::new() };
                format!("  Create {} ({} bytes){addr}{queue} {from}", quoted(name), host.end - host.start)
            }
            Event::Upload { len, var: Some(var), .. } if level >= 2 => format!("  Transfer {} to acc ({len} bytes){queue} {from}", quoted(var)),
            Event::Download { len, var: Some(var), .. } if level >= 2 => format!("  Transfer {} to host ({len} bytes){queue} {from}", quoted(var)),
            Event::Released { ref host, name, .. } if level >= 2 => format!("  Free {} ({} bytes){queue} {from}", quoted(name), host.end - host.start),
            Event::Present { ref host, device, name, .. } if level >= 3 => {
                format!("  Share {} (present: host {:#x} is device {device:#x}, {} bytes) {from}", quoted(name), host.start, host.end - host.start)
            }
            Event::PointerAttached { device, .. } if level >= 3 => format!("  Attach pointer at device {device:#x} {from}"),
            Event::QueueJoined { waiter, on, .. } if level >= 3 => match on {
                Some(on) => format!("Queue async({}) waits for async({}) {from}", queue_name(waiter), queue_name(on)),
                None => format!("Queue async({}) waits for all other queues {from}", queue_name(waiter)),
            },
            Event::LaunchBegin { gangs, workers, vector, on_host, .. } if level >= 3 => {
                format!("Start kernel: gangs {gangs}, workers {workers}, vector length {vector}{}{queue} {from}", if on_host { " (on the host)" } else { "" })
            }
            _ => return None,
        };
        Some(text)
    }
}

/// The commentary of a run of `program`, when the environment asks for it (`CRAY_ACC_DEBUG`)
/// or the program calls the `cray_acc_*debug*` routines (which may turn it on), written to `out`
/// (stderr when `None`, as CCE writes it): the subscriber, and its control for
/// [`super::RunOptions::cray_debug`]. `run`, `check` and the GUI each add it to their run.
pub fn commentary(program: &crate::ir::Program, files: &SourceMap, out: Option<Box<dyn Write + Send>>) -> Option<(CrayDebug, Arc<CrayDebugControl>)> {
    let asked = std::env::var("CRAY_ACC_DEBUG").is_ok_and(|v| !v.trim().is_empty());
    let calls = program.externs.iter().any(|e| e.name.starts_with("cray_acc_") && e.name.contains("_debug_"));
    if !asked && !calls {
        return None;
    }
    let control = CrayDebugControl::from_env();
    let debug = match out {
        Some(out) => CrayDebug::with_output(control.clone(), files.clone(), out),
        None => CrayDebug::new(control.clone(), files.clone()),
    };
    Some((debug, control))
}

impl CrayDebug {
    /// Comment on an event of activity queue `queue` at the level in force now.
    fn comment(&mut self, queue: Option<i64>, e: &Event<'_>) {
        let level = self.control.thread_level();
        if level <= 0 {
            return;
        }
        if let Some(text) = self.line(level, queue, e) {
            let _ = writeln!(self.out, "{} {text}", self.control.thread_prefix());
        }
    }
}

impl Subscriber for CrayDebug {
    fn event(&mut self, _mem: &Memory, at: &Stamp<'_>, e: &Event<'_>) {
        self.comment(at.queue, e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Loc;

    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);
    impl Write for Shared {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().map_err(|_| std::io::Error::other("poisoned"))?.extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn levels_and_prefixes() {
        let mut files = SourceMap::new();
        let file = files.file_id("t.c");
        let loc = Loc { file, line: 7, col: 1 };
        let control = Arc::new(CrayDebugControl::with_level(1));
        let out = Shared::default();
        let mut d = CrayDebug::with_output(control.clone(), files, Box::new(out.clone()));
        let launched = Event::Launched { kernel: "main$acc7", gangs: 8, workers: 1, vector_length: 32, steps: 10, loc };
        let upload = Event::Upload { device: 0, host: 0, len: 64, var: Some("a"), loc };
        d.comment(None, &upload);
        d.comment(None, &launched);
        control.set_global_level(2);
        control.set_global_prefix("RANK0:".into());
        d.comment(Some(3), &upload);
        control.set_thread_level(0);
        d.comment(None, &launched);
        let text = String::from_utf8(out.0.lock().map(|v| v.clone()).unwrap_or_default()).unwrap_or_default();
        assert_eq!(text, "ACC: Execute kernel main$acc7 blocks:8 threads:32 from t.c:7\nRANK0:   Transfer 'a' to acc (64 bytes) async(3) from t.c:7\n");
        assert_eq!(control.thread_level(), 0);
        assert_eq!(control.global_level(), 2);
    }
}
