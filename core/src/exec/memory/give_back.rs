//! Freed heap memory goes back to the system before a large allocation (issue 15: "`check` ≤ 3×
//! the program's data in memory").
//!
//! Each block the program allocates is a block of the process's allocator. Once a program has
//! freed many small blocks (calltree frees a tree of 262,143 nodes), glibc keeps their pages: a
//! freed small block waits in a free list for another block of its size, while a large block made
//! next (the device copy of an array, a new array) is mapped afresh, so the freed nodes and the
//! new array both stay in the process's memory. Before an allocation of at least [`LARGE`] bytes
//! by a memory that has released at least [`LARGE`] bytes of allocations since it last did so,
//! the memory asks the process's allocator to give its free pages back: a hook that the
//! native-code crate sets ([`set_give_back`]; there it is `malloc_trim`, a foreign call, which
//! the workspace allows only in that crate). Nothing observable changes: freed memory stays
//! freed, and the allocator faults pages in again when it reuses them.

use std::sync::OnceLock;

/// Allocations this large, after this many bytes were released, give free memory back first.
pub const LARGE: u64 = 1 << 20;

static GIVE_BACK: OnceLock<fn()> = OnceLock::new();

/// Set the call that gives the process allocator's free pages back to the system (once; later
/// calls are ignored).
pub fn set_give_back(give_back: fn()) {
    let _ = GIVE_BACK.set(give_back);
}

/// Bytes released since free memory was last given back.
#[derive(Debug, Default)]
pub(super) struct Released(u64);

impl Released {
    /// An allocation of `size` bytes ended.
    #[inline]
    pub(super) fn add(&mut self, size: u64) {
        self.0 = self.0.saturating_add(size);
    }

    /// Before an allocation of `size` bytes: give free memory back if it is large and much was
    /// released since the last time.
    #[inline]
    pub(super) fn before_alloc(&mut self, size: u64) {
        if size >= LARGE && self.0 >= LARGE {
            self.0 = 0;
            if let Some(give_back) = GIVE_BACK.get() {
                give_back();
            }
        }
    }
}
