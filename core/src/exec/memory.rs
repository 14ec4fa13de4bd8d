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
//! Each allocation carries a [`Space`]. Only [`Space::Host`] exists now; the device simulator adds
//! its own space and reuses this API. Limits: an allocation is at most 2^31 bytes; at most 2^32
//! allocations are made in one run; the total of live bytes is capped by `limit`.

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

#[derive(Debug)]
pub struct Allocation {
    /// The bytes; empty once freed.
    bytes: Vec<u8>,
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
            bytes: Vec::new(),
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
}

impl Memory {
    /// Empty memory with the reserved ids in place; `limit` caps the live bytes.
    pub fn new(limit: u64) -> Self {
        let reserved = |_| Allocation {
            bytes: Vec::new(),
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
        let fresh = Allocation {
            bytes: vec![0; size as usize],
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
        a.bytes.copy_from_slice(bytes);
        a.read_only = read_only;
        Ok(p)
    }

    /// Make an allocation read-only (after its initial contents are written).
    pub fn set_read_only(&mut self, ptr: u64) {
        if let Some(a) = self.allocs.get_mut((ptr >> 32) as usize) {
            a.read_only = true;
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
                a.bytes = Vec::new();
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
        if write && a.read_only && (off as u64).saturating_add(size) <= a.size {
            return mk(FaultKind::ReadOnly, Some(id));
        }
        mk(FaultKind::OutOfBounds, Some(id))
    }

    /// The bytes `[ptr, ptr+len)` for reading.
    #[inline]
    pub fn read_bytes(&self, ptr: u64, len: u64) -> Result<&[u8], MemFault> {
        let off = ptr as u32 as usize;
        if let Some(a) = self.allocs.get((ptr >> 32) as usize) {
            if let Some(end) = off.checked_add(len as usize) {
                if let Some(s) = a.bytes.get(off..end) {
                    return Ok(s);
                }
            }
        }
        Err(self.fault(ptr, len, false))
    }

    /// The bytes `[ptr, ptr+len)` for writing.
    #[inline]
    pub fn bytes_mut(&mut self, ptr: u64, len: u64) -> Result<&mut [u8], MemFault> {
        let off = ptr as u32 as usize;
        let ok = match self.allocs.get((ptr >> 32) as usize) {
            Some(a) => {
                !a.read_only
                    && off
                        .checked_add(len as usize)
                        .is_some_and(|e| e <= a.bytes.len())
            }
            None => false,
        };
        if !ok {
            return Err(self.fault(ptr, len, true));
        }
        Ok(&mut self.allocs[(ptr >> 32) as usize].bytes[off..off + len as usize])
    }

    pub fn write_bytes(&mut self, ptr: u64, data: &[u8]) -> Result<(), MemFault> {
        self.bytes_mut(ptr, data.len() as u64)?
            .copy_from_slice(data);
        Ok(())
    }

    /// `memmove`: copy `len` bytes from `src` to `dst` (overlap allowed).
    pub fn copy(&mut self, dst: u64, src: u64, len: u64) -> Result<(), MemFault> {
        if len == 0 {
            return Ok(());
        }
        self.read_bytes(src, len)?;
        self.bytes_mut(dst, len)?;
        if dst >> 32 == src >> 32 {
            let a = &mut self.allocs[(dst >> 32) as usize].bytes;
            let s = src as u32 as usize;
            a.copy_within(s..s + len as usize, dst as u32 as usize);
        } else {
            let tmp = self.read_bytes(src, len)?.to_vec();
            self.write_bytes(dst, &tmp)?;
        }
        Ok(())
    }

    pub fn fill(&mut self, ptr: u64, byte: u8, len: u64) -> Result<(), MemFault> {
        self.bytes_mut(ptr, len)?.fill(byte);
        Ok(())
    }

    /// The NUL-terminated string at `ptr` without its NUL; with `max`, at most that many bytes
    /// (and no terminator needed).
    pub fn read_c_string(&self, ptr: u64, max: Option<usize>) -> Result<Vec<u8>, MemFault> {
        let off = ptr as u32 as usize;
        let a = match self.allocs.get((ptr >> 32) as usize) {
            Some(a) if a.live && off <= a.bytes.len() => a,
            _ => return Err(self.fault(ptr, 1, false)),
        };
        let rest = &a.bytes[off..];
        let limit = max.unwrap_or(usize::MAX);
        match rest.iter().take(limit).position(|&b| b == 0) {
            Some(n) => Ok(rest[..n].to_vec()),
            None if rest.len() >= limit => Ok(rest[..limit].to_vec()),
            None => Err(self.fault(ptr.wrapping_add(rest.len() as u64), 1, false)),
        }
    }
}

macro_rules! access {
    ($load:ident, $store:ident, $t:ty, $n:expr) => {
        impl Memory {
            #[inline(always)]
            pub fn $load(&self, ptr: u64) -> Result<$t, MemFault> {
                let off = ptr as u32 as usize;
                if let Some(a) = self.allocs.get((ptr >> 32) as usize) {
                    if let Some(b) = a.bytes.get(off..off + $n) {
                        let mut arr = [0u8; $n];
                        arr.copy_from_slice(b);
                        return Ok(<$t>::from_le_bytes(arr));
                    }
                }
                Err(self.fault(ptr, $n, false))
            }
            #[inline]
            pub fn $store(&mut self, ptr: u64, v: $t) -> Result<(), MemFault> {
                let off = ptr as u32 as usize;
                if let Some(a) = self.allocs.get_mut((ptr >> 32) as usize) {
                    if !a.read_only {
                        if let Some(b) = a.bytes.get_mut(off..off + $n) {
                            b.copy_from_slice(&v.to_le_bytes());
                            return Ok(());
                        }
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
