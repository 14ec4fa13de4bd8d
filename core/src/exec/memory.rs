//! Program memory: a table of allocations addressed by 64-bit pointer words.
//!
//! A pointer word is `(alloc_id << 32) | offset`. Id 0 is the null allocation (never live), id 1
//! is reserved for function pointers (offset = function index, then extern index), so neither can
//! be loaded from or stored to. Every access checks that the allocation is live and that the whole
//! access lies inside it; a failing check returns a [`MemFault`] that the interpreter turns into a
//! diagnostic at the accessing expression.
//!
//! Ids are never reused while a program runs, so a dangling pointer keeps naming the freed
//! allocation and use after free and double free are always caught; the bytes of a freed
//! allocation are released. Pointer arithmetic is plain 64-bit wrapping arithmetic on the word, so
//! a pointer moved before the start of allocation `n` reads as a huge offset in allocation `n-1`;
//! [`Memory::fault`] recognises offsets of 2^31 and more as such underflows.
//!
//! Ids are never reused, with one bounded exception: to keep the table's size bounded in programs
//! that make millions of short-lived allocations (calls with local arrays, malloc/free loops), the
//! id of a freed heap block, local or VLA is recycled once [`QUARANTINE`] newer ones have been
//! freed after it, as AddressSanitizer's quarantine does; only a pointer that dangles across that
//! many frees can then alias a newer object unnoticed.
//!
//! Each allocation carries a [`Space`]: host memory, or the simulated device's separate memory
//! (§1.3). Limits: an allocation is at most 2^31 bytes; at most 2^32 allocations are made in one
//! run; the total of live bytes is capped by `limit`.
//!
//! **Sharing with device threads.** Gangs of a kernel run on several threads at once (the
//! simulator's rayon pool). Device memory is therefore stored as little-endian 8-byte words
//! accessed with relaxed atomics ([`Store::Shared`]), behind an `Arc` that the memory of each
//! device thread ([`Memory::device_view`]) shares. Relaxed atomics are exactly OpenACC's weak
//! device memory model (§1.3): a store becomes visible to other gangs at some point, with no
//! ordering promised, and an aligned store of a scalar is never torn. Host memory stays plain
//! bytes owned by the interpreter thread; read-only host data (string literals) is frozen into a
//! shared slice so device code can still read it (`printf` formats). A device view cannot touch
//! the other host allocations: they are [`Store::Remote`] there, and an access faults with
//! [`FaultKind::HostMemory`].

use std::borrow::Cow;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

use crate::diag::Loc;

/// Index of an allocation in [`Memory`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AllocId(pub u32);

/// The null allocation (id 0).
pub const NULL_ID: u32 = 0;
/// The pseudo allocation whose offsets are function indices.
pub const FUNC_ID: u32 = 1;
/// How many freed ids wait before one is reused.
pub const QUARANTINE: usize = 1 << 20;

/// Largest single allocation.
pub const MAX_ALLOC: u64 = 1 << 31;

/// Build a pointer word.
#[inline]
pub fn ptr_word(id: u32, offset: u32) -> u64 {
    ((id as u64) << 32) | offset as u64
}

/// Address space of an allocation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Space {
    Host,
    /// The simulated accelerator's memory (OpenACC's separate device memory, §1.3).
    Device,
}

/// What an allocation is, for messages and for `free`'s checks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AllocKind {
    /// Reserved ids (null, functions).
    Reserved,
    /// A global variable (`GlobalId` index).
    Global(u32),
    /// A string literal (`StrId` index); read-only.
    StringLiteral(u32),
    /// A memory local of one call of a function (function index, local index).
    Local(u32, u32),
    /// A `malloc`-family block.
    Heap,
    /// A variable-length array (function index, local index).
    Vla(u32, u32),
    /// The variadic arguments of one call (function index).
    VaArgs(u32),
    /// An object of the C library shim (`stdout`, `argv`, `errno`, ...).
    Runtime(&'static str),
}

/// Where an allocation's bytes live.
#[derive(Debug, Clone)]
enum Store {
    /// Host memory: plain bytes; empty once freed.
    Bytes(Vec<u8>),
    /// Read-only bytes, shareable with device threads.
    Frozen(Arc<[u8]>),
    /// Device memory: `ceil(size / 8)` little-endian words, shared with the threads running gangs.
    Shared(Arc<[AtomicU64]>),
    /// In a device thread's view: host memory, which the device cannot address; with a copy
    /// of its bytes when the view was made for an observer (the GUI shows host copies while a
    /// kernel runs), which only [`Memory::inspect_bytes`] reads.
    Remote(Option<Arc<[u8]>>),
}

impl Store {
    /// Host bytes readable in place: plain or frozen host memory.
    #[inline]
    fn host_bytes(&self) -> Option<&[u8]> {
        match self {
            Store::Bytes(b) => Some(b),
            Store::Frozen(b) => Some(b),
            Store::Shared(_) | Store::Remote(_) => None,
        }
    }
}

#[derive(Debug)]
pub struct Allocation {
    /// The bytes.
    store: Store,
    /// Size at allocation time (kept after free, for messages).
    pub size: u64,
    pub kind: AllocKind,
    pub space: Space,
    pub read_only: bool,
    pub live: bool,
    /// Where it was made (malloc call, function entry, declaration).
    pub origin: Loc,
    /// Where it was freed.
    pub freed_at: Option<Loc>,
}

impl Allocation {
    /// An empty, dead allocation (for messages about missing ones).
    pub const fn placeholder() -> Allocation {
        Allocation {
            store: Store::Bytes(Vec::new()),
            size: 0,
            kind: AllocKind::Reserved,
            space: Space::Host,
            read_only: true,
            live: false,
            origin: Loc {
                file: crate::diag::FileId(0),
                line: 0,
                col: 0,
            },
            freed_at: None,
        }
    }
}

/// Why an access failed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FaultKind {
    Null,
    OutOfBounds,
    /// An access before the start of the allocation (`id`); `before` bytes before it.
    Underflow,
    UseAfterFree,
    ReadOnly,
    FunctionPointer,
    /// No allocation has this id (a forged pointer).
    Wild,
    InvalidFree,
    DoubleFree,
    MemoryLimit,
    TooLarge,
    /// Device code touched host memory (a device thread's view has no host allocations).
    HostMemory,
}

/// A failed memory operation; turned into a diagnostic by the interpreter.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MemFault {
    pub kind: FaultKind,
    /// The allocation concerned, when there is one.
    pub alloc: Option<AllocId>,
    pub ptr: u64,
    pub size: u64,
    pub write: bool,
}

/// The allocation table.
#[derive(Debug)]
pub struct Memory {
    allocs: Vec<Allocation>,
    /// Freed recyclable ids, oldest first.
    quarantine: std::collections::VecDeque<u32>,
    live_bytes: u64,
    limit: u64,
    /// In an inspected device view: the host copies of globals whose id names their device copy.
    inspect_host: std::collections::HashMap<u32, Arc<[u8]>>,
}

impl Memory {
    /// Empty memory with the reserved ids in place; `limit` caps the live bytes.
    pub fn new(limit: u64) -> Self {
        let reserved = |_| Allocation {
            store: Store::Bytes(Vec::new()),
            size: 0,
            kind: AllocKind::Reserved,
            space: Space::Host,
            read_only: true,
            live: false,
            origin: Loc::default(),
            freed_at: None,
        };
        Memory {
            allocs: (0..2).map(reserved).collect(),
            quarantine: Default::default(),
            live_bytes: 0,
            limit,
            inspect_host: Default::default(),
        }
    }

    pub fn live_bytes(&self) -> u64 {
        self.live_bytes
    }

    /// The id the next allocation will get.
    pub fn next_id(&self) -> u32 {
        self.allocs.len() as u32
    }

    pub fn allocation(&self, id: AllocId) -> Option<&Allocation> {
        self.allocs.get(id.0 as usize)
    }

    /// Allocate `size` zeroed bytes; returns the pointer word of its first byte.
    pub fn alloc(
        &mut self,
        size: u64,
        kind: AllocKind,
        space: Space,
        origin: Loc,
    ) -> Result<u64, MemFault> {
        let fault = |kind| MemFault {
            kind,
            alloc: None,
            ptr: 0,
            size,
            write: false,
        };
        if self.live_bytes.saturating_add(size) > self.limit {
            return Err(fault(FaultKind::MemoryLimit));
        }
        if size > MAX_ALLOC {
            return Err(fault(FaultKind::TooLarge));
        }
        let store = match space {
            Space::Host => Store::Bytes(vec![0; size as usize]),
            Space::Device => Store::Shared((0..size.div_ceil(8)).map(|_| AtomicU64::new(0)).collect()),
        };
        let fresh = Allocation {
            store,
            size,
            kind,
            space,
            read_only: false,
            live: true,
            origin,
            freed_at: None,
        };
        self.live_bytes += size;
        if self.quarantine.len() > QUARANTINE {
            if let Some(id) = self.quarantine.pop_front() {
                self.allocs[id as usize] = fresh;
                return Ok(ptr_word(id, 0));
            }
        }
        let id = u32::try_from(self.allocs.len()).map_err(|_| fault(FaultKind::MemoryLimit))?;
        if id == u32::MAX {
            self.live_bytes -= size;
            return Err(fault(FaultKind::MemoryLimit));
        }
        self.allocs.push(fresh);
        Ok(ptr_word(id, 0))
    }

    /// Allocate and fill with `bytes`.
    pub fn alloc_init(
        &mut self,
        bytes: &[u8],
        kind: AllocKind,
        read_only: bool,
        origin: Loc,
    ) -> Result<u64, MemFault> {
        let p = self.alloc(bytes.len() as u64, kind, Space::Host, origin)?;
        let a = &mut self.allocs[(p >> 32) as usize];
        a.store = if read_only { Store::Frozen(bytes.into()) } else { Store::Bytes(bytes.to_vec()) };
        a.read_only = read_only;
        Ok(p)
    }

    /// Make an allocation read-only (after its initial contents are written).
    pub fn set_read_only(&mut self, ptr: u64) {
        if let Some(a) = self.allocs.get_mut((ptr >> 32) as usize) {
            a.read_only = true;
            if let Store::Bytes(b) = &mut a.store {
                a.store = Store::Frozen(std::mem::take(b).into());
            }
        }
    }

    /// `free(ptr)` semantics for heap blocks: null is a no-op; anything but the start of a live
    /// heap block is an error.
    pub fn free_heap(&mut self, ptr: u64, at: Loc) -> Result<(), MemFault> {
        if ptr == 0 {
            return Ok(());
        }
        let id = (ptr >> 32) as u32;
        let fault = |kind, alloc| MemFault {
            kind,
            alloc,
            ptr,
            size: 0,
            write: true,
        };
        let Some(a) = self.allocs.get(id as usize) else {
            return Err(fault(FaultKind::InvalidFree, None));
        };
        if a.kind != AllocKind::Heap || ptr as u32 != 0 {
            return Err(fault(FaultKind::InvalidFree, Some(AllocId(id))));
        }
        if !a.live {
            return Err(fault(FaultKind::DoubleFree, Some(AllocId(id))));
        }
        self.release(AllocId(id), at);
        Ok(())
    }

    /// End the lifetime of an allocation (frames, VLAs, heap blocks).
    pub fn release(&mut self, id: AllocId, at: Loc) {
        if let Some(a) = self.allocs.get_mut(id.0 as usize) {
            if a.live {
                a.live = false;
                a.freed_at = Some(at);
                self.live_bytes -= a.size;
                a.store = Store::Bytes(Vec::new());
                if matches!(
                    a.kind,
                    AllocKind::Heap
                        | AllocKind::Local(..)
                        | AllocKind::Vla(..)
                        | AllocKind::VaArgs(_)
                ) {
                    self.quarantine.push_back(id.0);
                }
            }
        }
    }

    /// Describe why an access of `size` bytes at `ptr` fails (the slow path of every check).
    #[cold]
    pub fn fault(&self, ptr: u64, size: u64, write: bool) -> MemFault {
        let id = (ptr >> 32) as u32;
        let off = ptr as u32;
        let mk = |kind, alloc: Option<u32>| MemFault {
            kind,
            alloc: alloc.map(AllocId),
            ptr,
            size,
            write,
        };
        if off >= 1 << 31 && id != u32::MAX {
            if let Some(next) = self.allocs.get(id as usize + 1) {
                if next.live && next.kind != AllocKind::Reserved {
                    return mk(FaultKind::Underflow, Some(id + 1));
                }
                if !next.live && next.kind != AllocKind::Reserved {
                    return mk(FaultKind::UseAfterFree, Some(id + 1));
                }
            }
        }
        if id == NULL_ID {
            return mk(FaultKind::Null, None);
        }
        if id == FUNC_ID {
            return mk(FaultKind::FunctionPointer, None);
        }
        let Some(a) = self.allocs.get(id as usize) else {
            return mk(FaultKind::Wild, None);
        };
        if !a.live {
            return mk(FaultKind::UseAfterFree, Some(id));
        }
        if matches!(a.store, Store::Remote(_)) {
            return mk(FaultKind::HostMemory, Some(id));
        }
        if write && a.read_only && (off as u64).saturating_add(size) <= a.size {
            return mk(FaultKind::ReadOnly, Some(id));
        }
        mk(FaultKind::OutOfBounds, Some(id))
    }

    /// The bytes `[ptr, ptr+len)` for reading (borrowed from host memory, copied from device
    /// memory).
    #[inline]
    pub fn read_bytes(&self, ptr: u64, len: u64) -> Result<Cow<'_, [u8]>, MemFault> {
        let off = ptr as u32 as usize;
        if let Some(a) = self.allocs.get((ptr >> 32) as usize) {
            if let Some(end) = off.checked_add(len as usize) {
                if let Some(s) = a.store.host_bytes().and_then(|b| b.get(off..end)) {
                    return Ok(Cow::Borrowed(s));
                }
                if let Store::Shared(w) = &a.store {
                    if end as u64 <= a.size {
                        let mut out = vec![0; len as usize];
                        shared_read(w, off, &mut out);
                        return Ok(Cow::Owned(out));
                    }
                }
            }
        }
        Err(self.fault(ptr, len, false))
    }

    /// Write `data` at `ptr`.
    pub fn write_bytes(&mut self, ptr: u64, data: &[u8]) -> Result<(), MemFault> {
        let off = ptr as u32 as usize;
        let len = data.len();
        if let Some(a) = self.allocs.get_mut((ptr >> 32) as usize) {
            if !a.read_only && off.checked_add(len).is_some_and(|e| e as u64 <= a.size) {
                match &mut a.store {
                    Store::Bytes(b) if off + len <= b.len() => {
                        b[off..off + len].copy_from_slice(data);
                        return Ok(());
                    }
                    Store::Shared(w) => {
                        shared_write(w, off, data);
                        return Ok(());
                    }
                    _ => {}
                }
            }
        }
        Err(self.fault(ptr, len as u64, true))
    }

    /// Check that `[ptr, ptr+len)` may be written, without writing.
    pub fn check_writable(&self, ptr: u64, len: u64) -> Result<(), MemFault> {
        let off = ptr as u32 as u64;
        match self.allocs.get((ptr >> 32) as usize) {
            Some(a) if !a.read_only && a.live && off.saturating_add(len) <= a.size => match a.store {
                Store::Bytes(_) | Store::Shared(_) => Ok(()),
                _ => Err(self.fault(ptr, len, true)),
            },
            _ => Err(self.fault(ptr, len, true)),
        }
    }

    /// Check that `[ptr, ptr+len)` may be read, without reading (or copying device words).
    pub fn check_readable(&self, ptr: u64, len: u64) -> Result<(), MemFault> {
        let off = ptr as u32 as u64;
        match self.allocs.get((ptr >> 32) as usize) {
            Some(a) if a.live && off.saturating_add(len) <= a.size => match &a.store {
                Store::Bytes(_) | Store::Frozen(_) | Store::Shared(_) => Ok(()),
                Store::Remote(_) => Err(self.fault(ptr, len, false)),
            },
            _ => Err(self.fault(ptr, len, false)),
        }
    }

    /// `memmove`: copy `len` bytes from `src` to `dst` (overlap allowed).
    ///
    /// Between two allocations the bytes go straight from one store to the other (host to host,
    /// host to device, device to host: the transfers of a data construct, §2.6), with no copy of
    /// the whole range in between: a transfer of an array costs no memory beyond its two copies.
    pub fn copy(&mut self, dst: u64, src: u64, len: u64) -> Result<(), MemFault> {
        if len == 0 {
            return Ok(());
        }
        self.check_readable(src, len)?;
        self.check_writable(dst, len)?;
        let (si, di) = ((src >> 32) as usize, (dst >> 32) as usize);
        let (s, d, n) = (src as u32 as usize, dst as u32 as usize, len as usize);
        if si == di {
            if let Store::Bytes(a) = &mut self.allocs[di].store {
                a.copy_within(s..s + n, d);
                return Ok(());
            }
            // Device memory moved within one allocation (device code's own `memmove`): the
            // ranges may overlap, so the source is read whole first.
            let tmp = self.read_bytes(src, len)?.into_owned();
            return self.write_bytes(dst, &tmp);
        }
        let (from, to) = if si < di {
            let (lo, hi) = self.allocs.split_at_mut(di);
            (&lo[si].store, &mut hi[0].store)
        } else {
            let (lo, hi) = self.allocs.split_at_mut(si);
            (&hi[0].store, &mut lo[di].store)
        };
        let done = match (from, to) {
            (Store::Shared(w), Store::Bytes(b)) => b.get_mut(d..d + n).map(|out| shared_read(w, s, out)),
            (Store::Shared(ws), Store::Shared(wd)) => {
                let mut buf = [0u8; CHUNK];
                for (at, k) in chunks(n) {
                    shared_read(ws, s + at, &mut buf[..k]);
                    shared_write(wd, d + at, &buf[..k]);
                }
                Some(())
            }
            (from, to) => from.host_bytes().and_then(|h| h.get(s..s + n)).and_then(|h| match to {
                Store::Bytes(b) => b.get_mut(d..d + n).map(|out| out.copy_from_slice(h)),
                Store::Shared(w) => {
                    shared_write(w, d, h);
                    Some(())
                }
                _ => None,
            }),
        };
        done.ok_or_else(|| self.fault(dst, len, true))
    }

    pub fn fill(&mut self, ptr: u64, byte: u8, len: u64) -> Result<(), MemFault> {
        self.check_writable(ptr, len)?;
        let off = ptr as u32 as usize;
        match &mut self.allocs[(ptr >> 32) as usize].store {
            Store::Bytes(b) => b[off..off + len as usize].fill(byte),
            Store::Shared(w) => {
                let buf = [byte; CHUNK];
                for (at, k) in chunks(len as usize) {
                    shared_write(w, off + at, &buf[..k]);
                }
            }
            _ => return Err(self.fault(ptr, len, true)),
        }
        Ok(())
    }

    /// The NUL-terminated string at `ptr` without its NUL; with `max`, at most that many bytes
    /// (and no terminator needed).
    pub fn read_c_string(&self, ptr: u64, max: Option<usize>) -> Result<Vec<u8>, MemFault> {
        let off = ptr as u32 as usize;
        let a = match self.allocs.get((ptr >> 32) as usize) {
            Some(a) if a.live && off as u64 <= a.size => a,
            _ => return Err(self.fault(ptr, 1, false)),
        };
        let limit = max.unwrap_or(usize::MAX);
        let rest: Cow<'_, [u8]> = match &a.store {
            Store::Bytes(b) => Cow::Borrowed(&b[off..]),
            Store::Frozen(b) => Cow::Borrowed(&b[off..]),
            Store::Shared(w) => {
                // Device memory is read a chunk at a time up to the terminator (or the limit), not
                // to the end of the allocation: a short string in a large array costs little.
                let end = (a.size as usize - off).min(limit);
                let mut out = Vec::new();
                let mut buf = [0u8; CHUNK];
                for (at, k) in chunks(end) {
                    shared_read(w, off + at, &mut buf[..k]);
                    out.extend_from_slice(&buf[..k]);
                    if buf[..k].contains(&0) {
                        break;
                    }
                }
                if out.len() == end && end < limit && !out.contains(&0) {
                    // No terminator before the end of the allocation: fault where it would be.
                    return Err(self.fault(ptr.wrapping_add(end as u64), 1, false));
                }
                Cow::Owned(out)
            }
            Store::Remote(_) => return Err(self.fault(ptr, 1, false)),
        };
        match rest.iter().take(limit).position(|&b| b == 0) {
            Some(n) => Ok(rest[..n].to_vec()),
            None if rest.len() >= limit => Ok(rest[..limit].to_vec()),
            None => Err(self.fault(ptr.wrapping_add(rest.len() as u64), 1, false)),
        }
    }

    /// The memory a device thread works in: the same device allocations (shared, so its stores
    /// are the device's stores) and read-only host data; no other host memory. Allocations the
    /// thread makes (its frames) are its own and die with the view.
    ///
    /// `globals` names global variables that have a device copy (`declare`, or mapped by a
    /// construct): `(host id, device id)`. Device code that names such a global directly (a
    /// `routine` using a declared global, §2.13) works on the device copy, which mirrors the
    /// host variable's offsets.
    ///
    /// With `inspect`, host allocations keep a read-only copy for [`Memory::inspect_bytes`].
    pub fn device_view(&self, globals: &[(u32, u32)], inspect: bool) -> Memory {
        let mut allocs: Vec<Allocation> = self
            .allocs
            .iter()
            .map(|a| Allocation {
                store: match &a.store {
                    Store::Bytes(_) if !a.live || a.kind == AllocKind::Reserved => Store::Bytes(Vec::new()),
                    Store::Bytes(b) if inspect => Store::Remote(Some(b.as_slice().into())),
                    Store::Bytes(_) => Store::Remote(None),
                    Store::Remote(b) => Store::Remote(b.clone()),
                    Store::Frozen(b) => Store::Frozen(b.clone()),
                    Store::Shared(w) => Store::Shared(w.clone()),
                },
                size: a.size,
                kind: a.kind,
                space: a.space,
                read_only: a.read_only,
                live: a.live,
                origin: a.origin,
                freed_at: a.freed_at,
            })
            .collect();
        let mut inspect_host = std::collections::HashMap::new();
        for &(host, dev) in globals {
            let store = match self.allocs.get(dev as usize).map(|d| &d.store) {
                Some(Store::Shared(w)) => Store::Shared(w.clone()),
                _ => continue,
            };
            let size = self.allocs[dev as usize].size;
            if let Some(a) = allocs.get_mut(host as usize) {
                if let Store::Remote(Some(copy)) = &a.store {
                    inspect_host.insert(host, copy.clone());
                }
                a.store = store;
                a.size = size;
                a.read_only = false;
            }
        }
        Memory { allocs, quarantine: Default::default(), live_bytes: self.live_bytes, limit: self.limit, inspect_host }
    }
}

impl Memory {
    /// The bytes `[ptr, ptr+len)` for a debugger's eyes: any live allocation, including the host
    /// copies a device thread's view keeps for inspection.
    pub fn inspect_bytes(&self, ptr: u64, len: u64) -> Option<Vec<u8>> {
        let a = self.allocs.get((ptr >> 32) as usize)?;
        let off = ptr as u32 as usize;
        let end = off.checked_add(len as usize)?;
        if let Some(host) = self.inspect_host.get(&((ptr >> 32) as u32)) {
            return host.get(off..end).map(<[u8]>::to_vec);
        }
        if !a.live || end as u64 > a.size {
            return None;
        }
        match &a.store {
            Store::Bytes(b) => b.get(off..end).map(<[u8]>::to_vec),
            Store::Frozen(b) | Store::Remote(Some(b)) => b.get(off..end).map(<[u8]>::to_vec),
            Store::Shared(w) => {
                let mut out = vec![0; len as usize];
                shared_read(w, off, &mut out);
                Some(out)
            }
            Store::Remote(None) => None,
        }
    }
}

/// Bytes that [`Memory::copy`] between device allocations and [`Memory::fill`] of device memory
/// stage at a time (on the stack).
const CHUNK: usize = 4096;

/// `(start, length)` of the pieces of at most [`CHUNK`] bytes that cover `n` bytes, in order.
fn chunks(n: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..n).step_by(CHUNK).map(move |at| (at, (n - at).min(CHUNK)))
}

/// Read `out.len()` bytes at byte offset `off` of shared words.
fn shared_read(w: &[AtomicU64], off: usize, out: &mut [u8]) {
    let mut i = 0;
    while i < out.len() {
        let at = off + i;
        let word = w[at / 8].load(Relaxed).to_le_bytes();
        let from = at % 8;
        let n = (8 - from).min(out.len() - i);
        out[i..i + n].copy_from_slice(&word[from..from + n]);
        i += n;
    }
}

/// Write `data` at byte offset `off` of shared words: whole words are stored, partial ones are
/// merged with a compare-and-swap so that concurrent writes to the other bytes of the word (by
/// other gangs, to other elements) are kept.
fn shared_write(w: &[AtomicU64], off: usize, data: &[u8]) {
    let mut i = 0;
    while i < data.len() {
        let at = off + i;
        let from = at % 8;
        let n = (8 - from).min(data.len() - i);
        let cell = &w[at / 8];
        if n == 8 {
            let mut b = [0u8; 8];
            b.copy_from_slice(&data[i..i + 8]);
            cell.store(u64::from_le_bytes(b), Relaxed);
        } else {
            let mut bytes = [0u8; 8];
            bytes[from..from + n].copy_from_slice(&data[i..i + n]);
            let mask = if n == 8 { u64::MAX } else { ((1u64 << (n * 8)) - 1) << (from * 8) };
            let value = u64::from_le_bytes(bytes);
            let _ = cell.fetch_update(Relaxed, Relaxed, |old| Some((old & !mask) | value));
        }
        i += n;
    }
}

/// Load a little-endian value of `N <= 8` bytes at byte offset `off` of shared words.
#[inline(always)]
fn shared_load<const N: usize>(w: &[AtomicU64], off: usize) -> Option<[u8; N]> {
    let from = off % 8;
    if from + N <= 8 {
        let word = w.get(off / 8)?.load(Relaxed);
        let v = word >> (from * 8);
        let mut out = [0u8; N];
        out.copy_from_slice(&v.to_le_bytes()[..N]);
        Some(out)
    } else {
        w.get((off + N - 1) / 8)?;
        let mut out = [0u8; N];
        shared_read(w, off, &mut out);
        Some(out)
    }
}

/// Store a little-endian value of `N <= 8` bytes at byte offset `off` of shared words.
#[inline(always)]
fn shared_store<const N: usize>(w: &[AtomicU64], off: usize, v: [u8; N]) -> Option<()> {
    w.get((off + N - 1) / 8)?;
    if N == 8 && off.is_multiple_of(8) {
        let mut b = [0u8; 8];
        b.copy_from_slice(&v[..]);
        w[off / 8].store(u64::from_le_bytes(b), Relaxed);
    } else {
        shared_write(w, off, &v);
    }
    Some(())
}

/// A little-endian value of `N <= 8` bytes as a zero-extended word.
#[inline(always)]
fn le_word<const N: usize>(b: [u8; N]) -> u64 {
    let mut w = [0u8; 8];
    w[..N].copy_from_slice(&b);
    u64::from_le_bytes(w)
}

/// Runs of accesses: `count` values of `N` bytes at `ptr`, `ptr + step`, `ptr + 2*step`, … (the
/// loads and the store of a vectorised loop, `compile/vector.rs`). Each succeeds exactly where
/// every one of the single accesses (`load_*`, `store_*`) would, and does what they would do;
/// where one of them would fault it does nothing and answers `false`, so that the caller makes the
/// accesses one by one and the fault is reported at the access that makes it.
impl Memory {
    /// The allocation and first byte offset of a run, when every access of it succeeds.
    fn run_bounds(&self, ptr: u64, step: i64, count: usize, n: usize, write: bool) -> Option<(usize, i64)> {
        let id = (ptr >> 32) as usize;
        let a = self.allocs.get(id)?;
        let limit = match &a.store {
            Store::Bytes(b) if !write || !a.read_only => b.len() as u64,
            Store::Frozen(b) if !write => b.len() as u64,
            Store::Shared(_) => a.size,
            _ => return None,
        };
        let first = ptr as u32 as i64;
        let last = first.checked_add(step.checked_mul((count as i64).checked_sub(1)?)?)?;
        // Offsets below 2^31 never carry into the allocation bits of the pointer word.
        let (lo, hi) = (first.min(last), first.max(last));
        (lo >= 0 && hi.checked_add(n as i64)? <= limit.min(MAX_ALLOC) as i64).then_some((id, first))
    }

    /// Load `out.len()` values of `N` bytes (zero-extended) at `ptr + i*step`.
    pub fn load_run<const N: usize>(&self, ptr: u64, step: i64, out: &mut [u64]) -> bool {
        let Some((id, first)) = self.run_bounds(ptr, step, out.len(), N, false) else {
            return false;
        };
        let store = &self.allocs[id].store;
        let mut off = first;
        if let Some(b) = store.host_bytes() {
            for o in out.iter_mut() {
                let at = off as usize;
                let mut v = [0u8; N];
                v.copy_from_slice(&b[at..at + N]);
                *o = le_word(v);
                off += step;
            }
            return true;
        }
        let Store::Shared(w) = store else {
            return false;
        };
        if N == 8 && first % 8 == 0 && step > 0 && step % 8 == 0 {
            // Whole aligned words, ascending: the common run of a `double` array.
            let words = w.get(first as usize / 8..).unwrap_or(&[]).iter().step_by(step as usize / 8);
            let mut filled = 0;
            for (o, x) in out.iter_mut().zip(words) {
                *o = x.load(Relaxed);
                filled += 1;
            }
            return filled == out.len();
        }
        for o in out.iter_mut() {
            match shared_load::<N>(w, off as usize) {
                Some(v) => *o = le_word(v),
                None => return false,
            }
            off += step;
        }
        true
    }

    /// Store the low `N` bytes of each of `vals` at `ptr + i*step`, in order.
    pub fn store_run<const N: usize>(&mut self, ptr: u64, step: i64, vals: &[u64]) -> bool {
        let Some((id, first)) = self.run_bounds(ptr, step, vals.len(), N, true) else {
            return false;
        };
        let mut off = first;
        match &mut self.allocs[id].store {
            Store::Bytes(b) => {
                for v in vals {
                    let at = off as usize;
                    b[at..at + N].copy_from_slice(&v.to_le_bytes()[..N]);
                    off += step;
                }
            }
            Store::Shared(w) if N == 8 && first % 8 == 0 && step > 0 && step % 8 == 0 => {
                let words = w.get(first as usize / 8..).unwrap_or(&[]).iter().step_by(step as usize / 8);
                let mut stored = 0;
                for (x, v) in words.zip(vals) {
                    x.store(*v, Relaxed);
                    stored += 1;
                }
                if stored != vals.len() {
                    return false;
                }
            }
            Store::Shared(w) => {
                for v in vals {
                    let mut bytes = [0u8; N];
                    bytes.copy_from_slice(&v.to_le_bytes()[..N]);
                    if shared_store::<N>(w, off as usize, bytes).is_none() {
                        return false;
                    }
                    off += step;
                }
            }
            _ => return false,
        }
        true
    }
}

macro_rules! access {
    ($load:ident, $store:ident, $t:ty, $n:expr) => {
        impl Memory {
            #[inline(always)]
            pub fn $load(&self, ptr: u64) -> Result<$t, MemFault> {
                let off = ptr as u32 as usize;
                if let Some(a) = self.allocs.get((ptr >> 32) as usize) {
                    match &a.store {
                        Store::Bytes(b) => {
                            if let Some(b) = b.get(off..off + $n) {
                                let mut arr = [0u8; $n];
                                arr.copy_from_slice(b);
                                return Ok(<$t>::from_le_bytes(arr));
                            }
                        }
                        Store::Shared(w) if (off + $n) as u64 <= a.size => {
                            if let Some(arr) = shared_load::<$n>(w, off) {
                                return Ok(<$t>::from_le_bytes(arr));
                            }
                        }
                        Store::Frozen(b) => {
                            if let Some(b) = b.get(off..off + $n) {
                                let mut arr = [0u8; $n];
                                arr.copy_from_slice(b);
                                return Ok(<$t>::from_le_bytes(arr));
                            }
                        }
                        _ => {}
                    }
                }
                Err(self.fault(ptr, $n, false))
            }
            #[inline]
            pub fn $store(&mut self, ptr: u64, v: $t) -> Result<(), MemFault> {
                let off = ptr as u32 as usize;
                if let Some(a) = self.allocs.get_mut((ptr >> 32) as usize) {
                    match &mut a.store {
                        Store::Bytes(b) if !a.read_only => {
                            if let Some(b) = b.get_mut(off..off + $n) {
                                b.copy_from_slice(&v.to_le_bytes());
                                return Ok(());
                            }
                        }
                        Store::Shared(w) if (off + $n) as u64 <= a.size && shared_store::<$n>(w, off, v.to_le_bytes()).is_some() => {
                            return Ok(());
                        }
                        _ => {}
                    }
                }
                Err(self.fault(ptr, $n, true))
            }
        }
    };
}

access!(load_u8, store_u8, u8, 1);
access!(load_u16, store_u16, u16, 2);
access!(load_u32, store_u32, u32, 4);
access!(load_u64, store_u64, u64, 8);
access!(load_f32, store_f32, f32, 4);
access!(load_f64, store_f64, f64, 8);

#[cfg(test)]
mod tests {
    use super::*;

    fn alloc(m: &mut Memory, size: u64, space: Space) -> u64 {
        m.alloc(size, AllocKind::Heap, space, Loc::default()).unwrap()
    }

    fn pattern(len: usize, seed: u8) -> Vec<u8> {
        (0..len).map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed)).collect()
    }

    /// `memmove` between every pair of host and device stores, at unaligned offsets and over
    /// more than one staging chunk, gives the bytes a byte-by-byte copy gives.
    #[test]
    fn copy_between_stores_moves_exactly_the_range() {
        let len = 3 * CHUNK + 13;
        for from in [Space::Host, Space::Device] {
            for to in [Space::Host, Space::Device] {
                let mut m = Memory::new(1 << 30);
                let src = alloc(&mut m, len as u64 + 16, from);
                let dst = alloc(&mut m, len as u64 + 16, to);
                let before = pattern(len + 16, 7);
                let data = pattern(len + 16, 99);
                m.write_bytes(src, &data).unwrap();
                m.write_bytes(dst, &before).unwrap();
                m.copy(dst + 5, src + 3, len as u64).unwrap();
                let got = m.read_bytes(dst, len as u64 + 16).unwrap().into_owned();
                let mut want = before.clone();
                want[5..5 + len].copy_from_slice(&data[3..3 + len]);
                assert_eq!(got, want, "{from:?} -> {to:?}");
            }
        }
    }

    /// Overlapping moves inside one allocation are `memmove`s on both sides (C11 7.24.2.2).
    #[test]
    fn copy_within_one_allocation_allows_overlap() {
        for space in [Space::Host, Space::Device] {
            let mut m = Memory::new(1 << 30);
            let p = alloc(&mut m, 64, space);
            let data = pattern(64, 1);
            m.write_bytes(p, &data).unwrap();
            m.copy(p + 3, p, 40).unwrap();
            let mut want = data.clone();
            want.copy_within(0..40, 3);
            assert_eq!(m.read_bytes(p, 64).unwrap().into_owned(), want, "{space:?}");
        }
    }

    #[test]
    fn copy_faults_name_the_side_that_fails() {
        let mut m = Memory::new(1 << 30);
        let host = alloc(&mut m, 16, Space::Host);
        let dev = alloc(&mut m, 16, Space::Device);
        let past_source = m.copy(host, dev + 8, 9).unwrap_err();
        assert_eq!((past_source.kind, past_source.write), (FaultKind::OutOfBounds, false));
        let past_target = m.copy(dev + 8, host, 9).unwrap_err();
        assert_eq!((past_target.kind, past_target.write), (FaultKind::OutOfBounds, true));
        let lit = m.alloc_init(b"abc\0", AllocKind::StringLiteral(0), true, Loc::default()).unwrap();
        assert_eq!(m.copy(lit, host, 4).unwrap_err().kind, FaultKind::ReadOnly);
        m.copy(dev, lit, 4).unwrap();
        assert_eq!(m.read_bytes(dev, 4).unwrap().into_owned(), b"abc\0");
        m.free_heap(host, Loc::default()).unwrap();
        assert_eq!(m.copy(dev, host, 1).unwrap_err().kind, FaultKind::UseAfterFree);
        let live = alloc(&mut m, 16, Space::Host);
        let mut view = m.device_view(&[], false);
        assert_eq!(view.copy(dev, live, 1).unwrap_err().kind, FaultKind::HostMemory);
    }

    /// A string in device memory reads as in host memory: up to its NUL, or `max` bytes, or a
    /// fault one past the end of the allocation.
    #[test]
    fn c_strings_read_alike_from_host_and_device_memory() {
        let len = 2 * CHUNK + 5;
        for space in [Space::Host, Space::Device] {
            let mut m = Memory::new(1 << 30);
            let p = alloc(&mut m, len as u64, space);
            m.fill(p, b'x', len as u64).unwrap();
            m.store_u8(p + CHUNK as u64 + 3, 0).unwrap();
            let s = m.read_c_string(p + 2, None).unwrap();
            assert_eq!(s.len(), CHUNK + 1, "{space:?}");
            assert_eq!(m.read_c_string(p, Some(7)).unwrap(), b"xxxxxxx", "{space:?}");
            assert_eq!(m.read_c_string(p + len as u64, Some(7)).unwrap_err().ptr, p + len as u64);
            let past = m.read_c_string(p + CHUNK as u64 + 4, None).unwrap_err();
            assert_eq!((past.kind, past.ptr), (FaultKind::OutOfBounds, p + len as u64), "{space:?}");
            assert_eq!(m.read_c_string(p + CHUNK as u64 + 4, Some(CHUNK + 1)).unwrap().len(), CHUNK + 1);
            assert_eq!(m.read_c_string(p + CHUNK as u64 + 4, Some(CHUNK + 2)).unwrap_err().kind, FaultKind::OutOfBounds);
        }
    }

    #[test]
    fn fill_of_device_memory_sets_only_the_range() {
        let mut m = Memory::new(1 << 30);
        let len = CHUNK + 9;
        let dev = alloc(&mut m, len as u64 + 8, Space::Device);
        m.fill(dev + 3, 0xab, len as u64).unwrap();
        let got = m.read_bytes(dev, len as u64 + 8).unwrap().into_owned();
        let mut want = vec![0; len + 8];
        want[3..3 + len].fill(0xab);
        assert_eq!(got, want);
    }
}
