//! The seam to a native-code engine (issue 15): an engine that compiled some of the program's
//! functions to machine code runs them in place of the interpreter's instruction lists, on the
//! same [`Machine`] (the same checked memory, C library shim and OpenACC runtime).
//!
//! The interpreter stays the engine of everything observed: a run with an [`super::Observer`]
//! (GUI stepping), a memory model (`--coherence weak`) or a subscriber that follows memory
//! accesses (`accsim check`) never enters native code (`Machine::unobserved`). A function the engine did not compile runs in the interpreter,
//! and the engine says why in its report (`accsim info`).

use super::machine::{Machine, Trap};
use crate::diag::Loc;

pub use super::machine::{LaunchShape, LoopRun, NativeCode, NativeHandle};

/// What native code reads and writes of the machine it runs on (the fields are the crate's).
impl Machine<'_> {
    /// Fuel left (`--max-steps`).
    #[inline]
    pub fn fuel_left(&self) -> u64 {
        self.fuel
    }
    #[inline]
    pub fn set_fuel_left(&mut self, fuel: u64) {
        self.fuel = fuel;
    }
    /// Make sure `need` steps of fuel are at hand before native code takes them all at once
    /// (a counted loop's trip count, `jit/src/loops.rs`), drawing them from the launch's step
    /// pool when they are there; `false` when they are not (the caller then counts them one by
    /// one, stopping where the limit falls).
    pub fn native_reserve_fuel(&mut self, need: u64) -> bool {
        self.reserve_fuel(need)
    }
    /// The lock every `atomic` statement of the run without a word form holds while it runs
    /// (§2.12, [`super::atomic`]): native code takes it around such a statement it runs itself,
    /// so that no other device thread's lock-path atomic, native or interpreted, touches memory
    /// between its read and its write.
    pub fn native_atomic_lock(&self) -> std::sync::Arc<std::sync::Mutex<()>> {
        self.acc.atomic_lock.clone()
    }
    /// Whether no other thread touches this machine's memory while it runs (see
    /// `Machine::alone`): native code may then update an `atomic` target with plain loads and
    /// stores.
    #[inline]
    pub fn runs_alone(&self) -> bool {
        self.alone
    }
    /// The C call depth.
    #[inline]
    pub fn call_depth(&self) -> usize {
        self.depth
    }
    #[inline]
    pub fn set_call_depth(&mut self, depth: usize) {
        self.depth = depth;
    }
    /// The memory, for an engine's table of where allocations are
    /// ([`super::memory::Memory::take_changes`], [`super::memory::Memory::host_span`]).
    #[inline]
    pub fn memory_mut(&mut self) -> &mut super::memory::Memory {
        &mut self.mem
    }
}

/// The frame of a compiled function whose locals live in memory (arrays, records, address-taken
/// scalars): native code allocates and frees it through these, which do what the interpreter's
/// prologue ([`super::machine::code::CFunc::prologue`]) and its call's return do, in the same order, so
/// allocation ids, addresses, `--max-memory` and dangling-pointer faults are the same on both
/// engines.
impl Machine<'_> {
    /// The ids of function `fid`'s memory locals, in the order [`Machine::native_frame_enter`]
    /// returns their addresses.
    pub fn native_memory_locals(&self, fid: u32) -> Vec<u32> {
        self.exe
            .funcs
            .get(fid as usize)
            .map(|f| f.memory_locals.iter().map(|l| l.local).collect())
            .unwrap_or_default()
    }

    /// Allocate function `fid`'s memory locals (writing their addresses to `ptrs`, in
    /// [`Machine::native_memory_locals`] order) and copy the arguments of its memory parameters
    /// (`args`: the argument word of each parameter) into them. `loc` is the call site. Returns
    /// the mark to give [`Machine::native_frame_leave`] (also when allocation fails part-way:
    /// what was allocated is freed there).
    pub fn native_frame_enter(
        &mut self,
        fid: u32,
        args: &[u64],
        ptrs: &mut [u64],
        loc: Loc,
    ) -> (usize, Result<(), Trap>) {
        let mark = self.frame_allocs.len();
        let exe = self.exe;
        let Some(f) = exe.funcs.get(fid as usize) else {
            return (mark, Ok(()));
        };
        for (i, l) in f.memory_locals.iter().enumerate() {
            let p = match self.mem.alloc(
                l.size,
                super::memory::AllocKind::Local(fid, l.local),
                super::memory::Space::Host,
                loc,
            ) {
                Ok(p) => p,
                Err(fault) => return (mark, Err(self.fault(fault, loc))),
            };
            self.frame_allocs.push(p);
            if let Some(slot) = ptrs.get_mut(i) {
                *slot = p;
            }
        }
        // The address of the memory local whose pointer lives in register slot `ptr`.
        let address = |ptr: usize, ptrs: &[u64]| {
            f.memory_locals
                .iter()
                .position(|l| l.ptr == ptr)
                .and_then(|i| ptrs.get(i).copied())
                .unwrap_or(0)
        };
        for p in &f.params {
            let r = match *p {
                super::machine::code::ParamCopy::Scalar { arg, ptr, kind } => {
                    let v = args.get(arg).copied().unwrap_or(0);
                    self.store_kind(kind, address(ptr, ptrs), v)
                }
                super::machine::code::ParamCopy::Aggregate { arg, ptr, size } => {
                    let src = args.get(arg).copied().unwrap_or(0);
                    self.mem.copy(address(ptr, ptrs), src, size)
                }
            };
            if let Err(fault) = r {
                return (mark, Err(self.fault(fault, f.loc)));
            }
        }
        (mark, Ok(()))
    }

    /// Free what [`Machine::native_frame_enter`] allocated for function `fid` (`mark` is what
    /// it returned), as the interpreter frees a frame when its call returns.
    pub fn native_frame_leave(&mut self, fid: u32, mark: usize) {
        let end_loc = self.exe.funcs.get(fid as usize).map(|f| f.end_loc).unwrap_or_default();
        self.free_frame(mark, end_loc);
    }
}

/// OpenACC statements in compiled functions: native code runs their instructions in the
/// interpreter ([`super::machine::code::CFunc::acc_site`]), on a register frame that holds the values of
/// the native function's locals.
impl Machine<'_> {
    /// Run the entry (`exit` false) or the exit part of OpenACC statement `site` of function
    /// `fid` ([`super::machine::code::CFunc::acc_site`]) in the interpreter. `locals` holds pairs
    /// of words, the value of a register local or the address of a memory local, then the
    /// local's id: the locals the instructions may read or write (every other slot of the frame
    /// is 0). The first word of each register local's pair gets back its value after the
    /// instructions ran (a reduction or a capture may write them).
    pub fn native_run_site(
        &mut self,
        fid: u32,
        site: usize,
        exit: bool,
        locals: &mut [u64],
    ) -> Result<(), Trap> {
        let exe = self.exe;
        let Some(f) = exe.funcs.get(fid as usize) else {
            return Ok(());
        };
        let Some(site) = f.acc_sites.get(site) else {
            return Ok(());
        };
        let code: &[super::machine::code::Instr] = match (exit, &site.exit) {
            (false, _) => &site.enter,
            (true, Some(x)) => x,
            (true, None) => return Ok(()),
        };
        let base = self.regs.len();
        self.regs.resize(base + f.nslots, 0);
        // A local's register slot, and whether it is a register local.
        let slot = |id: u64| -> Option<(usize, bool)> {
            let (s, register) = f.local_slot(usize::try_from(id).ok()?)?;
            Some((base + s, register))
        };
        for pair in locals.chunks_exact(2) {
            if let Some(r) = slot(pair[1]).and_then(|(s, _)| self.regs.get_mut(s)) {
                *r = pair[0];
            }
        }
        let saved = (self.bp, self.cur_func);
        self.bp = base;
        self.cur_func = fid;
        let r = super::machine::run_code(self, code);
        for pair in locals.chunks_exact_mut(2) {
            if let Some((s, true)) = slot(pair[1]) {
                pair[0] = self.regs.get(s).copied().unwrap_or(0);
            }
        }
        self.regs.truncate(base);
        (self.bp, self.cur_func) = saved;
        r.map(|_| ())
    }
}

/// Loops of a function the interpreter runs, run by a native-code engine
/// ([`NativeCode::run_loop`]): the locals of the running call, by id, as the words native code
/// keeps in its variables (a register local's value, a memory local's address), as
/// [`Machine::native_run_site`] passes them the other way.
impl Machine<'_> {
    /// The word of local `local` of the running call of function `fid`.
    pub fn native_local_word(&self, fid: u32, local: usize) -> u64 {
        match self.exe.funcs.get(fid as usize).and_then(|f| f.local_slot(local)) {
            Some((s, _)) => self.regs.get(self.bp + s).copied().unwrap_or(0),
            None => 0,
        }
    }

    /// Set register local `local` of the running call of function `fid` to `word` (a memory
    /// local's address does not change: nothing is written for one).
    pub fn native_set_local_word(&mut self, fid: u32, local: usize, word: u64) {
        if let Some((s, true)) = self.exe.funcs.get(fid as usize).and_then(|f| f.local_slot(local)) {
            if let Some(r) = self.regs.get_mut(self.bp + s) {
                *r = word;
            }
        }
    }
}
