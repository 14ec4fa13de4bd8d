//! The checking hooks: what an executable compiled for checking reports while it runs, and the
//! memory-model seam.
//!
//! An executable compiled for checking ([`super::compile_for_checking`]) reports every memory
//! access of the program (loads, stores, read-modify-writes, record copies) with the address,
//! the size, whether it writes, whether it is inside an `atomic` construct, and the source
//! location, as an [`Event::Access`]; and the structure of the execution model (a gang starts, a
//! worker or vector partitioned loop starts, an iteration of it — a thread — starts, the loop
//! ends and its threads rejoin, §1.2) as an [`Event::Thread`]. Both go to the run's subscribers
//! that want device events ([`super::events`]: the checkers of `accsim check`), with the
//! data-environment events of the runtime in one stream.
//!
//! A [`MemoryModel`] (the weak-coherence store buffers of `accsim run --coherence weak`, §1.3)
//! is no observer: it may change what an access sees, so it is called *before* each access and
//! at each thread change, with the memory the device code runs on.
//!
//! **Cost.** Nothing for `accsim run`: the ordinary executable has no hook, and the runtime's
//! calls here test one flag. The checkers themselves live in the simulator crate.
//!
//! **Threads.** Device code runs one gang at a time on the interpreter thread when checking
//! ([`super::device::SequentialDevice`], which moves the subscribers and the memory model into
//! the device fork as it does the observer); the worker and lane of an access are the current
//! iterations of the enclosing worker and vector partition loops of the kernel, reported through
//! [`ThreadEvent`]. Accesses made by C library shims (`memcpy`, `printf`'s reads of strings) are
//! reported as one access of the bytes they touch.


use crate::diag::Loc;

use super::events::{Event, Stamp};

/// The payloads of the checking hooks are event types ([`super::events`]); the memory-model seam
/// has its module ([`super::memory_model`]). Both are named here too, where the hooks are.
pub use super::events::{Access, Level, ThreadEvent};
pub use super::memory_model::MemoryModel;

/// The stamp of an event that takes no model time, now.
#[inline]
pub fn stamp_now<'e>(m: &super::Machine<'e>) -> Stamp<'e> {
    let exe: &'e super::Executable = m.exe;
    Stamp {
        function: exe.funcs.get(m.cur_func as usize).map_or("", |f| f.name.as_str()),
        queue: m.acc.queue,
        start_ns: m.now_ns(),
        dur_ns: 0,
    }
}

/// Deliver an event that takes no model time.
#[inline(always)]
pub(crate) fn deliver_now(m: &mut super::Machine<'_>, e: &Event<'_>) {
    let at = stamp_now(m);
    m.events.deliver(&m.mem, &at, e);
}

/// Report a memory access to the run's subscribers of device events, if it has any.
#[inline]
pub fn access(m: &mut super::Machine<'_>, addr: u64, size: u64, write: bool, atomic: bool, loc: Loc) {
    if m.events.wants_device_events() {
        deliver_now(m, &Event::Access(Access { addr, size, write, atomic, loc }));
    }
}

/// Report a change of the running device thread (to the memory model first).
#[inline]
pub fn thread_event(m: &mut super::Machine<'_>, e: ThreadEvent) {
    if let Some(model) = m.memory_model.as_deref_mut() {
        model.thread(&mut m.mem, e);
    }
    if m.events.wants_device_events() {
        deliver_now(m, &Event::Thread(e));
    }
}

/// Tell the run's memory model that an access is about to be made (see
/// [`MemoryModel::before_access`]).
#[inline]
pub fn before_access(m: &mut super::Machine<'_>, addr: u64, size: u64, write: bool, atomic: bool, loc: Loc) {
    if let Some(model) = m.memory_model.as_deref_mut() {
        model.before_access(&mut m.mem, &Access { addr, size, write, atomic, loc });
    }
}
