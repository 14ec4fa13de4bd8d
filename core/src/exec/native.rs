//! The seam to a native-code engine (issue 15): an engine that compiled some of the program's
//! functions to machine code runs them in place of the interpreter's instruction lists, on the
//! same [`Machine`] (the same checked memory, C library shim and OpenACC runtime).
//!
//! The interpreter stays the engine of everything observed: a run with an [`super::Observer`]
//! (GUI stepping), a memory model (`--coherence weak`) or a subscriber that follows memory
//! accesses (`accsim check`) never enters native code (`Machine::unobserved`). A function the engine did not compile runs in the interpreter,
//! and the engine says why in its report (`accsim info`).

use super::machine::Machine;

pub use super::machine::{NativeCode, NativeHandle};

/// What native code reads and writes of the machine it runs on (the fields are the crate's).
impl Machine<'_> {
    /// Fuel left (`--max-steps`).
    pub fn fuel_left(&self) -> u64 {
        self.fuel
    }
    pub fn set_fuel_left(&mut self, fuel: u64) {
        self.fuel = fuel;
    }
    /// The C call depth.
    pub fn call_depth(&self) -> usize {
        self.depth
    }
    pub fn set_call_depth(&mut self, depth: usize) {
        self.depth = depth;
    }
    /// The memory, for an engine's table of where allocations are
    /// ([`super::memory::Memory::take_changes`], [`super::memory::Memory::host_span`]).
    pub fn memory_mut(&mut self) -> &mut super::memory::Memory {
        &mut self.mem
    }
}
