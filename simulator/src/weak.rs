//! Weak coherence made visible: the store-buffer model of `accsim run --coherence weak --seed N`
//! (DESIGN.md "Weak coherence").
//!
//! **Rule (§1.3, §1.2, §2.12).** Inside a kernel a device thread is only guaranteed to see
//! another thread's store after a synchronisation point: the end of a worker or vector
//! partitioned loop, for the workers/lanes of that loop within their gang ("at the end of a
//! partitioned loop the threads rejoin", §1.2); the end of the kernel, across gangs (§1.2: "there
//! is no support for synchronization between gangs"; §1.3: the device memory model is weak, and
//! only the completion of the compute construct makes the stores visible); atomic operations
//! (§2.12) at once. A thread always sees its own stores.
//!
//! **State.** The threads of a kernel form a tree: the kernel, its gangs, the workers of a
//! worker loop, the lanes of a vector loop. [`WeakMemory`] keeps the path from the kernel to the
//! running thread as a stack of frames, and device memory always holds *the running thread's
//! view*. Each frame remembers, per byte it stored (or adopted, below), the byte its parent saw
//! there (`undo`). When a thread's share ends (the next thread of its loop starts, the loop ends,
//! the next gang starts) its stores are lifted out of memory into a *store buffer* (byte → value)
//! held by its parent, and memory is put back to the parent's view. When the loop ends (or, for
//! gangs, the kernel), the buffers of its threads commit into the parent's view in an order the
//! seed chooses, as stores of the parent — so they stay invisible to the parent's siblings until
//! the parent's own synchronisation point. Atomic accesses write through: the bytes leave every
//! frame's `undo`, so their value is every thread's value from then on.
//!
//! **Reads of buffered stores.** A real machine may or may not show a thread a store of a
//! thread it has not synchronised with. When a thread reads a location it has not stored
//! itself and some finished, not yet committed thread holds a store to it, the seed chooses
//! between the thread's current view and one of those stores (uniformly); the choice is
//! remembered (adopted bytes are put back, not committed, when the thread ends), so the thread
//! keeps reading what it chose. Together with the commit order this is what a racy program
//! shows; both happen only where two threads of one kernel touch one location without
//! synchronisation, that is in a data race, so a race-free program gives exactly the result of
//! the default (sequentially consistent) run, for every seed.
//!
//! **Cost.** Runs the checking executable on the sequential device (gangs in order on the
//! interpreter thread): each access of device code calls [`WeakMemory`] before it is made (a
//! hash lookup or two per byte of a store); each thread's end costs its stored bytes.
//! `accsim run` without `--coherence weak` does not use it and its executable has no hooks.
//!
//! **Limits.** Threads run in order (gang 0, then gang 1, …; within a loop thread 0's share,
//! then thread 1's), so a thread can adopt the stores of threads that ran before it, never of
//! later ones; buffers commit whole, in a seeded order (no per-location interleaving). Stack
//! locals of device code (address-taken locals, VLAs) and device-side `malloc` are private to
//! their thread here and not buffered. Accesses made by C library shims (`memcpy` in a kernel)
//! are not seen and act on the running thread's view directly.
//!
//! **Later stores, a plan.** Showing a thread a store of a thread that runs after it would take
//! two passes over a partitioned loop: a first run records each thread's reads; the seed then
//! picks some racing pairs "earlier read, later store" (the race checker's read/write pairs are
//! the candidates), and the loop is run again from its starting state with those reads forced to
//! the later stores' values. A choice is dropped when the later store's value changes on the
//! second run (the value would justify itself, which no machine shows). About twice the cost of
//! each loop that gets a choice.

use std::collections::HashMap;

use accsim_core::exec::check::{Access, Level, MemoryModel, ThreadEvent};
use accsim_core::exec::memory::{AllocId, AllocKind, Memory};

/// The level of a thread in the execution model (§1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Tier {
    Kernel,
    Gang,
    Worker,
    Vector,
}

impl From<Level> for Tier {
    fn from(l: Level) -> Tier {
        match l {
            Level::Worker => Tier::Worker,
            Level::Vector => Tier::Vector,
        }
    }
}

/// A byte a thread has stored or adopted: what its parent saw there.
#[derive(Clone, Copy, Debug)]
struct Held {
    parent: u8,
    /// Stored by the thread (committed when it synchronises), not only adopted.
    stored: bool,
}

/// The stores of a finished thread, not yet visible to its siblings (byte address → value).
type StoreBuffer = HashMap<u64, u8>;

/// A running thread (or the kernel) on the path from the kernel to the running thread.
#[derive(Debug)]
struct Frame {
    tier: Tier,
    /// Bytes this thread stored or adopted, with its parent's value (empty for the kernel,
    /// whose view is device memory itself).
    undo: HashMap<u64, Held>,
    /// Store buffers of this thread's children that finished in the current partitioned loop
    /// (for the kernel: of its gangs), committed at the loop's end.
    done: Vec<StoreBuffer>,
    /// Byte address → the indices in `done` of the buffers that hold it, in order.
    index: HashMap<u64, Vec<u32>>,
}

impl Frame {
    fn new(tier: Tier) -> Frame {
        Frame { tier, undo: HashMap::new(), done: Vec::new(), index: HashMap::new() }
    }
}

/// A small deterministic generator (SplitMix64): the seed's choices.
#[derive(Clone, Debug)]
struct Choices(u64);

impl Choices {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The store-buffer memory model (see the module documentation), the [`MemoryModel`] of a run
/// of the checking executable on the sequential device.
#[derive(Debug)]
pub struct WeakMemory {
    choices: Choices,
    /// Inside a kernel that runs on the device (not `if(false)`).
    in_kernel: bool,
    /// The kernel, then the running gang, worker, lane (those that are partitioned).
    frames: Vec<Frame>,
}

impl WeakMemory {
    /// A model whose commit orders and read choices come from `seed`.
    pub fn new(seed: u64) -> WeakMemory {
        WeakMemory { choices: Choices(seed ^ 0x5EED_0FAC_C51A), in_kernel: false, frames: Vec::new() }
    }

    /// End the running thread: lift its stores into a buffer its parent holds and put memory
    /// back to the parent's view.
    fn finish(&mut self, mem: &mut Memory) {
        if self.frames.len() < 2 {
            return;
        }
        let Some(f) = self.frames.pop() else { return };
        let mut buffer = StoreBuffer::with_capacity(f.undo.len());
        for (&addr, held) in &f.undo {
            if held.stored {
                if let Some(now) = byte(mem, addr) {
                    buffer.insert(addr, now);
                }
            }
            let _ = mem.write_bytes(addr, &[held.parent]);
        }
        if buffer.is_empty() {
            return;
        }
        if let Some(parent) = self.frames.last_mut() {
            let at = parent.done.len() as u32;
            for &addr in buffer.keys() {
                parent.index.entry(addr).or_default().push(at);
            }
            parent.done.push(buffer);
        }
    }

    /// End every thread at `tier` or below.
    fn finish_to(&mut self, mem: &mut Memory, tier: Tier) {
        while self.frames.len() > 1 && self.frames.last().is_some_and(|f| f.tier >= tier) {
            self.finish(mem);
        }
    }

    /// The synchronisation point of the running thread's children: their buffers commit into
    /// its view in a seeded order, as its own stores.
    fn commit(&mut self, mem: &mut Memory) {
        let Some(top) = self.frames.last_mut() else { return };
        let mut done = std::mem::take(&mut top.done);
        top.index.clear();
        for i in (1..done.len()).rev() {
            let j = self.choices.below(i + 1);
            done.swap(i, j);
        }
        let is_kernel = top.tier == Tier::Kernel;
        for buffer in done {
            // One buffer's bytes are distinct: the order within it does not matter.
            for (addr, value) in buffer {
                if !is_kernel {
                    let Some(now) = byte(mem, addr) else { continue };
                    top.undo.entry(addr).or_insert(Held { parent: now, stored: true }).stored = true;
                }
                let _ = mem.write_bytes(addr, &[value]);
            }
        }
    }

    /// The seed's choice for a read of `[addr, addr+size)` by the running thread, which has
    /// not stored there: its current view, or a finished thread's buffered store.
    fn choose_read(&mut self, mem: &mut Memory, addr: u64, size: u64) {
        let top = self.frames.len() - 1;
        let mut candidates: Vec<(usize, u32)> = Vec::new();
        for (fi, f) in self.frames.iter().enumerate() {
            if let Some(ix) = f.index.get(&addr) {
                candidates.extend(ix.iter().map(|&b| (fi, b)));
            }
        }
        if candidates.is_empty() {
            return;
        }
        let pick = self.choices.below(candidates.len() + 1);
        let Some(&(fi, b)) = pick.checked_sub(1).and_then(|p| candidates.get(p)) else { return };
        for a in addr..addr + size {
            let Some(&value) = self.frames[fi].done.get(b as usize).and_then(|buf| buf.get(&a)) else { continue };
            let Some(now) = byte(mem, a) else { continue };
            self.frames[top].undo.entry(a).or_insert(Held { parent: now, stored: false });
            let _ = mem.write_bytes(a, &[value]);
        }
    }
}

/// The byte at `addr`, if it can be read.
fn byte(mem: &Memory, addr: u64) -> Option<u8> {
    mem.read_bytes(addr, 1).ok().and_then(|b| b.first().copied())
}

/// Whether the model buffers accesses to `addr`: device memory, device copies of globals and
/// the runtime's per-gang copies; not the stack of a device thread, not device-side heap.
fn modeled(mem: &Memory, addr: u64) -> bool {
    mem.allocation(AllocId((addr >> 32) as u32)).is_some_and(|a| {
        a.live
            && !a.read_only
            && !matches!(
                a.kind(),
                AllocKind::Local(..) | AllocKind::Vla(..) | AllocKind::VaArgs(_) | AllocKind::Heap | AllocKind::StringLiteral(_) | AllocKind::Reserved
            )
    })
}

impl MemoryModel for WeakMemory {
    fn launch(&mut self, on_host: bool) {
        self.in_kernel = !on_host;
        self.frames = vec![Frame::new(Tier::Kernel)];
    }

    fn before_access(&mut self, mem: &mut Memory, a: &Access) {
        if !self.in_kernel || self.frames.len() < 2 || a.size == 0 || !modeled(mem, a.addr) {
            return;
        }
        let bytes = match mem.read_bytes(a.addr, a.size) {
            Ok(b) => b.into_owned(),
            Err(_) => return,
        };
        if a.atomic {
            // Atomics are visible at once (§2.12): the bytes become every thread's value.
            for f in &mut self.frames {
                for addr in a.addr..a.addr + a.size {
                    f.undo.remove(&addr);
                }
            }
            return;
        }
        let top = self.frames.len() - 1;
        if !self.frames[top].undo.contains_key(&a.addr) {
            self.choose_read(mem, a.addr, a.size);
        }
        if a.write {
            let undo = &mut self.frames[top].undo;
            for (addr, &now) in (a.addr..a.addr + a.size).zip(bytes.iter()) {
                undo.entry(addr).or_insert(Held { parent: now, stored: true }).stored = true;
            }
        }
    }

    fn thread(&mut self, mem: &mut Memory, e: ThreadEvent) {
        if !self.in_kernel || self.frames.is_empty() {
            return;
        }
        match e {
            ThreadEvent::GangStart(_) => {
                self.finish_to(mem, Tier::Gang);
                self.frames.push(Frame::new(Tier::Gang));
            }
            ThreadEvent::PartitionBegin(..) => {}
            ThreadEvent::Partition(level, _) => {
                self.finish_to(mem, level.into());
                self.frames.push(Frame::new(level.into()));
            }
            ThreadEvent::PartitionEnd(level) => {
                self.finish_to(mem, level.into());
                self.commit(mem);
            }
            ThreadEvent::GangsDone => {
                self.finish_to(mem, Tier::Gang);
                self.commit(mem);
                self.frames.clear();
                self.in_kernel = false;
            }
        }
    }
}
