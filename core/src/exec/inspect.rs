//! Read-only views of a running machine, for tools that show the state between steps (the GUI's
//! variables, memory and device panels; DESIGN.md "GUI").
//!
//! An [`super::Observer`] receives a [`MachineView`] at every statement through
//! [`super::Observer::on_step_inspect`]. The view borrows the machine for the duration of that call
//! only; it can read the registers of the *running* call (callers' frames are not kept addressable
//! by the interpreter), both memories through typed loads, the present table (§2.6) and the model
//! clock of [`super::events`]. Nothing here can change the machine, so observing a run never
//! changes its result.

use crate::data::present::PresentEntry;
use crate::diag::Loc;

use super::machine::code::Home;
use super::memory::{AllocId, Space};

/// Where a local of the running call lives, and its word.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LocalValue {
    /// A register local: its value as the interpreter holds it (see [`crate::ir`] for the word
    /// encoding of each type).
    Register(u64),
    /// A memory local (array, record, address-taken scalar) or a VLA: the address of its bytes.
    Memory(u64),
}

/// The address space and size of the allocation a pointer points into.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AllocationInfo {
    pub device: bool,
    pub size: u64,
    pub live: bool,
}

pub use super::machine::MachineView;

impl MachineView<'_> {
    /// The statement about to run.
    pub fn loc(&self) -> Loc {
        self.loc
    }

    /// The C call depth (1 in `main`; a kernel function launched from `main` is at depth 2).
    pub fn depth(&self) -> usize {
        self.m.depth
    }

    /// Index of the running function (as in [`crate::ir::Program::functions`]).
    pub fn function(&self) -> u32 {
        self.m.cur_func
    }

    /// Name of the running function.
    pub fn function_name(&self) -> &str {
        self.m
            .exe
            .funcs
            .get(self.m.cur_func as usize)
            .map(|f| f.name.as_str())
            .unwrap_or("")
    }

    /// Number of locals of the running function (indexed like [`crate::ir::Function::locals`]).
    pub fn local_count(&self) -> usize {
        self.m
            .exe
            .funcs
            .get(self.m.cur_func as usize)
            .map_or(0, |f| f.homes.len())
    }

    /// Local `local` of the running call. A register local that has not been assigned yet holds
    /// whatever its slot held (as an uninitialised C variable would).
    pub fn local(&self, local: u32) -> Option<LocalValue> {
        let f = self.m.exe.funcs.get(self.m.cur_func as usize)?;
        let slot = |s: usize| self.m.regs.get(self.m.bp + s).copied();
        match *f.homes.get(local as usize)? {
            Home::Reg(s) => slot(s).map(LocalValue::Register),
            Home::Mem(s) | Home::Vla(s) => slot(s).map(LocalValue::Memory),
        }
    }

    /// Model-clock nanoseconds since the program started ([`super::events`]).
    pub fn now_ns(&self) -> u64 {
        self.m.now_ns()
    }

    /// Kernels launched so far.
    pub fn launches(&self) -> u64 {
        self.m.acc.launches
    }

    /// The present table's entries, ordered by host address (§2.6).
    pub fn present_entries(&self) -> impl Iterator<Item = &PresentEntry> {
        self.m.acc.present.entries()
    }

    /// The allocation `ptr` points into, if any (live or freed).
    pub fn allocation(&self, ptr: u64) -> Option<AllocationInfo> {
        let a = self.m.mem.allocation(AllocId((ptr >> 32) as u32))?;
        Some(AllocationInfo {
            device: a.space == Space::Device,
            size: a.size(),
            live: a.live,
        })
    }

    pub fn load_u8(&self, ptr: u64) -> Option<u8> {
        let b = self.m.mem.inspect_bytes(ptr, 1)?;
        Some(u8::from_le_bytes(b.try_into().ok()?))
    }
    pub fn load_u16(&self, ptr: u64) -> Option<u16> {
        let b = self.m.mem.inspect_bytes(ptr, 2)?;
        Some(u16::from_le_bytes(b.try_into().ok()?))
    }
    pub fn load_u32(&self, ptr: u64) -> Option<u32> {
        let b = self.m.mem.inspect_bytes(ptr, 4)?;
        Some(u32::from_le_bytes(b.try_into().ok()?))
    }
    pub fn load_u64(&self, ptr: u64) -> Option<u64> {
        let b = self.m.mem.inspect_bytes(ptr, 8)?;
        Some(u64::from_le_bytes(b.try_into().ok()?))
    }

    /// A copy of the bytes `[ptr, ptr + len)`, `None` when any of them is not readable.
    pub fn load_bytes(&self, ptr: u64, len: u64) -> Option<Vec<u8>> {
        self.m.mem.inspect_bytes(ptr, len)
    }
}
