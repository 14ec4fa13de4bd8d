//! Host allocations a checker follows while host code runs as native code (issue 15: `accsim
//! check` runs the program's host functions on the native engine).
//!
//! The checkers of `accsim check` need a host access only when it can find something or change
//! what a later access finds (simulator/src/check): an access to memory that has, or had, a
//! device copy whose state is not "in sync" (stale host reads, host writes making a device copy
//! stale, reads of results discarded with their device copy), to device memory (the host
//! dereferencing a device pointer, §1.3), and any access while an activity queue has work (the
//! async-race checker, §2.14). Every other host access is invisible to them.
//!
//! [`ObservedHost`] is the checker's answer, shared with the host [`super::memory::Memory`]: the
//! checker marks the host allocations it follows (and whether it follows all of them) after each
//! data-environment event, the only events that make an allocation followed, and the memory
//! gives a followed allocation an empty [`super::memory::HostSpan`]. Native code then takes the
//! slow path, the interpreter's checked access, for every access of it, which reports the access
//! to the checker as the checking interpreter does ([`super::check::access`]); the accesses of the
//! other allocations run in place. The native engine refreshes its span table after every helper
//! that may run a data event (an OpenACC statement, a call into the interpreter or the C library),
//! so a newly followed allocation is never read in place.
//!
//! **Soundness.** Over-approximation only costs speed: an allocation may stay followed after the
//! checker stops needing it until the next data event recomputes it; an allocation the checker
//! needs is followed from the data event that made it so.

use std::sync::{Arc, Mutex};

/// The host allocations a checker follows (see the module documentation). One per checked run,
/// shared by the checker, which writes it, and the host memory, which reads it.
#[derive(Debug, Default)]
pub struct ObservedHost {
    state: Mutex<State>,
}

#[derive(Debug, Default, Clone)]
struct State {
    /// By host allocation id: followed.
    ids: Vec<bool>,
    /// Every host access is followed (an activity queue has work).
    all: bool,
    /// Bumped at every change, so that a memory copies the state only when it changed.
    generation: u64,
}

impl ObservedHost {
    pub fn new() -> Arc<ObservedHost> {
        Arc::default()
    }

    /// Follow (or stop following) host allocation `id`.
    pub fn set(&self, id: u32, followed: bool) {
        let Ok(mut s) = self.state.lock() else { return };
        let i = id as usize;
        if s.ids.get(i).copied().unwrap_or(false) == followed {
            return;
        }
        if s.ids.len() <= i {
            s.ids.resize(i + 1, false);
        }
        s.ids[i] = followed;
        s.generation += 1;
    }

    /// Follow every host access (or only the allocations [`ObservedHost::set`] marks).
    pub fn set_all(&self, all: bool) {
        let Ok(mut s) = self.state.lock() else { return };
        if s.all != all {
            s.all = all;
            s.generation += 1;
        }
    }
}

/// A memory's copy of an [`ObservedHost`], taken when it changed ([`Filter::refresh`]).
#[derive(Debug)]
pub(crate) struct Filter {
    shared: Arc<ObservedHost>,
    copy: State,
}

impl Filter {
    pub(crate) fn new(shared: Arc<ObservedHost>) -> Filter {
        // Generation 0 with nothing followed is a fresh `ObservedHost`'s state; a copy starting
        // at `u64::MAX` takes the shared state at the first refresh whatever it is.
        Filter { shared, copy: State { generation: u64::MAX, ..State::default() } }
    }

    /// Take the shared state if it changed since the last call: `true` when it did (every
    /// allocation's span may have changed).
    pub(crate) fn refresh(&mut self) -> bool {
        let Ok(s) = self.shared.state.lock() else { return false };
        if s.generation == self.copy.generation {
            return false;
        }
        self.copy = s.clone();
        true
    }

    /// Whether accesses of host allocation `id` must reach the checker.
    #[inline]
    pub(crate) fn follows(&self, id: u32) -> bool {
        self.copy.all || self.copy.ids.get(id as usize).copied().unwrap_or(false)
    }
}
