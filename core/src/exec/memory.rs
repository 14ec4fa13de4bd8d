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
//! **Gang copies reuse their ids at once** (issue 15). The runtime's per-gang copies of a compute
//! construct (`private`, `firstprivate`, `reduction`: §2.5.9–§2.5.11) live exactly as long as
//! one launch and no pointer to them may outlive it (a gang's copy is gone when the construct
//! ends, §2.5.9–§2.5.10: a pointer kept past it is dangling, and dereferencing it is undefined,
//! C11 §6.2.4). Their freed ids wait in a queue of their own ([`Memory`]'s `gang_ids`) and
//! the next copies take them first, in the order they were freed: the launcher makes and frees
//! the copies in gang order, so gang `g`'s copy of a capture gets the same id at every launch
//! of a construct, whatever the threads (deterministic), and the table does not grow with
//! launches × gangs. Before, each launch made `gangs × copies` new ids, recycled only after
//! [`QUARANTINE`] frees: fdtd-2d's 160 launches of 64 gangs grew the table by 51,200 ids,
//! and every device thread of every launch rebuilt its native span table over all of them.
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
//! the other host allocations: an access faults with [`FaultKind::HostMemory`].
//!
//! **Device views share the table.** A launch lends the host memory's table to its device views
//! (one `Arc`, [`Memory::device_view`]) instead of copying it for each: a view's lookup tries
//! its own allocations (ids from the lent table's length up: its frames, its mallocs) and then
//! the lent table, where host bytes count as unaddressable. The host memory takes its table back
//! when the views are gone ([`Memory::take_back`]), so a launch costs no memory in the number of
//! allocations, whatever the number of device threads.

use std::borrow::Cow;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

use super::value::Kind;
use crate::diag::Loc;

pub mod advice;
mod counters;
mod entry;
mod give_back;
mod id_queue;
mod provenance;
mod slabs;
mod transfer;
mod words;
pub use entry::Allocation;
use entry::Class;
pub use give_back::set_give_back;
pub use provenance::Provenance;
pub use transfer::{ForEachPiece, TRANSFER_PIECE};
use words::{chunks, shared_load, shared_read, shared_store, shared_write, CHUNK};

/// Index of an allocation in [`Memory`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AllocId(pub u32);

/// The null allocation (id 0).
pub const NULL_ID: u32 = 0;
/// The pseudo allocation whose offsets are function indices.
pub const FUNC_ID: u32 = 1;
/// How many freed ids wait before one is reused.
pub const QUARANTINE: usize = 1 << 20;
/// What each id of the allocation table costs besides the program's bytes, counted against the
/// `--max-memory` limit with them: its 40-byte entry, its entry in a native span table, a small
/// block's slot rounding. A program leaking 1-byte blocks held 22 GB, and the system killed
/// it, before its live bytes came near the default 8 GiB limit.
pub const BYTES_PER_ID: u64 = 64;

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
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
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

impl AllocKind {
    /// A gang's own copy made by the runtime (private, firstprivate, reduction, §2.5.9–§2.5.11):
    /// no other gang can reach it.
    pub fn is_gang_private(&self) -> bool {
        matches!(self, AllocKind::Runtime(w) if w.starts_with("gang-private"))
    }

    /// A gang's reduction copy (§2.5.11): its threads' partial results are combined into it.
    pub fn is_gang_reduction_copy(&self) -> bool {
        matches!(self, AllocKind::Runtime("gang-private reduction copy"))
    }
}

/// The words of a device allocation, shared by the device threads. A box inside the `Arc` (one
/// more indirection than `Arc<[AtomicU64]>`) because an `Arc` slice cannot be made from zeroed
/// memory without writing every word, and that is what [`zeroed_words`] avoids.
type Words = Arc<Box<[AtomicU64]>>;

/// `n` zero words of device memory, zeroed lazily: the block comes from the system allocator's
/// `alloc_zeroed` (`calloc`), which takes a large block straight from fresh pages of the operating
/// system and does not write them, so a large `create` or `acc_malloc` costs no resident memory
/// or time until it is touched (pages are made on first write; an untouched page reads as zero),
/// while the whole size still counts against `--max-memory` (issue 14). `None` when the system
/// refuses the block.
fn zeroed_words(n: usize) -> Option<Words> {
    bytemuck::allocation::try_zeroed_slice_box::<AtomicU64>(n).ok().map(advice::advised_words).map(Arc::new)
}

/// Where an allocation's bytes live.
#[derive(Debug, Clone)]
enum Store {
    /// Host memory: plain bytes; empty once freed. (A boxed slice, not a `Vec`: the size never
    /// changes, and the table entry is 8 bytes smaller.)
    Bytes(Box<[u8]>),
    /// A small host heap block: the allocation's `size` bytes of a slot of its memory's slabs
    /// ([`slabs`]); host memory like `Bytes` everywhere else.
    Slab(slabs::Slot),
    /// Read-only bytes, shareable with device threads.
    Frozen(Arc<[u8]>),
    /// Device memory: `ceil(size / 8)` little-endian words, shared with the threads running gangs
    /// ([`zeroed_words`]: zeroed lazily).
    Shared(Words),
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
            Store::Slab(_) | Store::Shared(_) | Store::Remote(_) => None,
        }
    }
}

/// Where the bytes of a host allocation of `size` bytes stored in `store` are, for native code
/// ([`Memory::host_span`]; a device store has none here).
#[inline]
fn store_span(slabs: &mut slabs::Slabs, store: &mut Store, size: u32, read_only: bool) -> HostSpan {
    let writable = |len: u64| if read_only { 0 } else { len };
    match store {
        Store::Slab(s) => {
            let len = size as usize;
            let b = slabs.bytes_mut(*s, len);
            if b.len() != len {
                return HostSpan::default();
            }
            HostSpan {
                addr: b.as_mut_ptr() as usize,
                readable: len as u64,
                writable: writable(len as u64),
            }
        }
        Store::Bytes(b) => HostSpan {
            addr: b.as_mut_ptr() as usize,
            readable: b.len() as u64,
            writable: writable(b.len() as u64),
        },
        Store::Frozen(b) => HostSpan {
            addr: b.as_ptr() as usize,
            readable: b.len() as u64,
            writable: 0,
        },
        Store::Shared(_) | Store::Remote(_) => HostSpan::default(),
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

/// What a device view finds where the lent table holds host bytes: memory it cannot address.
static HOST_ONLY: Store = Store::Remote(None);

/// A mapped global's host store, set aside while the table is lent (its id names the device copy
/// in the views), put back by [`Memory::take_back`].
#[derive(Debug)]
struct SetAside {
    id: u32,
    store: Store,
    size: u32,
    read_only: bool,
}

/// The allocation table.
#[derive(Debug)]
pub struct Memory {
    /// This memory's own allocations: ids `base_len..`.
    allocs: Vec<Allocation>,
    /// Ids `0..base_len`: in a device view (and in the host memory while it lends it), the host
    /// memory's table, shared by all the views of a launch and read only; its host bytes are
    /// [`HOST_ONLY`] to the views. Empty otherwise.
    base: Arc<Vec<Allocation>>,
    base_len: usize,
    /// While this (host) memory lends its table to device views: the mapped globals' host stores.
    lent: Option<Vec<SetAside>>,
    /// A view made for an observer: [`Memory::inspect_bytes`] reads the lent host bytes.
    inspect: bool,
    /// Freed recyclable ids, oldest first.
    quarantine: id_queue::IdQueue,
    /// Freed ids of gang copies ([`AllocKind::is_gang_private`]), oldest first: the next gang
    /// copies take them at once (module documentation).
    gang_ids: id_queue::IdQueue,
    live_bytes: u64,
    /// Bytes released since free memory was last given back ([`give_back`]; host memory only).
    released: give_back::Released,
    limit: u64,
    /// In an inspected device view: the host copies of globals whose id names their device copy.
    inspect_host: std::collections::HashMap<u32, Arc<[u8]>>,
    /// For a native-code engine (issue 15; `None` unless [`Memory::track_changes`] was called):
    /// what changed since the last [`Memory::take_changes`].
    changes: Option<Changes>,
    /// The host allocations a checker follows while host code runs as native code
    /// ([`super::observed_host`]): their spans are empty, so native code reports their accesses.
    observed: Option<super::observed_host::Filter>,
    /// In a device view: the lent device blocks whose atomic counter updates it counts in
    /// tables of its own ([`counters`], issue 15). Empty otherwise.
    counts: Vec<counters::PrivateCounts>,
    /// The bytes of this memory's own small heap blocks ([`Store::Slab`]).
    slabs: slabs::Slabs,
    /// The provenance of this memory's last allocation, and of its last one freed (made, freed
    /// at, index): a program making or freeing many blocks at one site finds the index here,
    /// without the thread's tables ([`provenance`]; issue 15: 2 million heap routines).
    last_made: Option<(AllocKind, Loc, u32)>,
    /// The same for the last heap block made (most of a program's allocations: a test of its
    /// site alone).
    last_heap: Option<(Loc, u32)>,
    last_freed: Option<(u32, Loc, u32)>,
    /// In a host memory: the ids it gave a device store ([`Store::Shared`]) since it last lent
    /// its table, and those it held then, some freed or reused since (a superset, made exact
    /// at each [`Memory::lend`]). While it lends, and in a device view, `lent_device_ids` holds
    /// the lent table's exact list ([`Memory::span_ids`]).
    device_ids: Vec<u32>,
    lent_device_ids: Arc<[u32]>,
}

/// What changed in a memory's table since a native-code engine last looked (see
/// [`Memory::take_changes`]): the ids whose store was made, replaced or freed, or `all`.
#[derive(Debug, Default)]
pub struct Changes {
    pub ids: Vec<u32>,
    /// The whole table may have moved (a first look, the followed allocations changed, or a
    /// lent table came back as a copy).
    pub all: bool,
}

/// Where the bytes of one host allocation are, for native code that reads and writes them in
/// place (issue 15): `addr` is the address of byte 0, `readable` and `writable` how many bytes
/// it may read and write there (0 where it must take the checked slow path: freed, device,
/// lent or reserved allocations; `writable` 0 for read-only ones).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct HostSpan {
    pub addr: usize,
    pub readable: u64,
    pub writable: u64,
}

impl Memory {
    /// Empty memory with the reserved ids in place; `limit` caps the live bytes.
    pub fn new(limit: u64) -> Self {
        Memory {
            allocs: (0..2).map(|_| Allocation { store: Store::Bytes(Box::default()), ..Allocation::placeholder() }).collect(),
            base: Default::default(),
            base_len: 0,
            lent: None,
            inspect: false,
            quarantine: Default::default(),
            gang_ids: Default::default(),
            live_bytes: 0,
            released: Default::default(),
            limit,
            inspect_host: Default::default(),
            changes: None,
            observed: None,
            counts: Vec::new(),
            slabs: Default::default(),
            last_made: None,
            last_heap: None,
            last_freed: None,
            device_ids: Vec::new(),
            lent_device_ids: Arc::from([]),
        }
    }

    /// Host bytes readable in place of an allocation and its store as [`Memory::get`] gives
    /// them: plain, frozen or slotted host memory.
    #[inline]
    fn host_bytes_of<'a>(&'a self, a: &Allocation, store: &'a Store) -> Option<&'a [u8]> {
        match store {
            Store::Slab(s) => Some(self.slabs.bytes(*s, a.size as usize)),
            other => other.host_bytes(),
        }
    }

    /// The plain or slotted host bytes of one of this memory's own allocations, for writing
    /// (read-only ones too: callers check `read_only`).
    #[inline]
    fn own_bytes_mut(&mut self, id: usize) -> Option<&mut [u8]> {
        let a = self.allocs.get_mut(id.wrapping_sub(self.base_len))?;
        match &mut a.store {
            Store::Bytes(b) => Some(&mut b[..]),
            Store::Slab(s) => Some(self.slabs.bytes_mut(*s, a.size as usize)),
            _ => None,
        }
    }

    /// Start recording changes to the table for a native-code engine (issue 15).
    pub fn track_changes(&mut self) {
        self.changes.get_or_insert_with(|| Changes {
            ids: Vec::new(),
            all: true,
        });
    }

    /// Give followed host allocations ([`super::observed_host`]) empty spans from now on.
    pub fn follow_observed(&mut self, observed: Arc<super::observed_host::ObservedHost>) {
        self.observed = Some(super::observed_host::Filter::new(observed));
        self.changed_all();
    }

    /// Whether a checker follows some host accesses of this memory ([`Memory::follow_observed`]).
    pub fn follows_observed(&self) -> bool {
        self.observed.is_some()
    }

    /// The changes recorded since the last call (the first call reports `all`; a change of the
    /// followed allocations, all). `recycled` (its contents dropped) becomes the buffer of the
    /// next ones, so that a caller handing back the previous result's `ids` keeps the log from
    /// allocating on every call (native code syncs after every `malloc` it calls).
    pub fn take_changes(&mut self, mut recycled: Vec<u32>) -> Changes {
        if self.observed.as_mut().is_some_and(|o| o.refresh()) {
            self.changed_all();
        }
        recycled.clear();
        match &mut self.changes {
            Some(c) => Changes {
                ids: std::mem::replace(&mut c.ids, recycled),
                all: std::mem::take(&mut c.all),
            },
            None => Changes {
                ids: recycled,
                all: true,
            },
        }
    }

    /// The one change recorded since the last take, taken from the log, when that is all the
    /// log holds (no `all`, no followed allocations): the native engine's sync sets that one
    /// entry, as after a `malloc` or `free` (issue 15: calltree's million heap blocks). `None`
    /// leaves the log as it is, for [`Memory::take_changes`].
    #[inline]
    pub fn take_one_change(&mut self) -> Option<u32> {
        if self.observed.is_some() {
            return None;
        }
        match &mut self.changes {
            Some(c) if !c.all && c.ids.len() == 1 => c.ids.pop(),
            _ => None,
        }
    }

    fn changed(&mut self, id: u32) {
        if let Some(c) = &mut self.changes {
            if !c.all {
                c.ids.push(id);
            }
        }
    }

    fn changed_all(&mut self) {
        if let Some(c) = &mut self.changes {
            c.all = true;
            c.ids.clear();
        }
    }

    /// The number of ids in the table (every id below it can be given to [`Memory::host_span`]).
    #[inline]
    pub fn table_len(&self) -> usize {
        self.base_len + self.allocs.len()
    }

    /// In a device view, the only ids whose [`Memory::host_span`] may be non-zero, in order:
    /// the lent table's device allocations and the view's own. `None` in a host memory (any id
    /// may be). A native engine fills a fresh device thread's table from these (issue 15:
    /// calltree's 1M freed heap ids cost every fork of a launch a walk of the whole table,
    /// 40 MB of entries, and the launch half its speed-up at 16 threads).
    pub fn span_ids(&self) -> Option<impl Iterator<Item = u32> + '_> {
        self.is_device_view().then(|| self.lent_device_ids.iter().copied().chain(self.base_len as u32..self.table_len() as u32))
    }

    /// Whether this (host) memory lends its table to device views now ([`Memory::device_view`],
    /// until [`Memory::take_back`]).
    pub fn is_lent(&self) -> bool {
        self.lent.is_some()
    }

    /// Whether this memory is a device thread's view ([`Memory::device_view`]).
    #[inline]
    pub fn is_device_view(&self) -> bool {
        self.base_len > 0 && self.lent.is_none()
    }

    /// Where allocation `id`'s bytes are (see [`HostSpan`]): all zero unless it is a live
    /// allocation of this memory's own table with host bytes or, in a device view, device
    /// memory (its words, shared with the other device threads; the host cannot address it in
    /// place). The address stays valid until the id is reported by [`Memory::take_changes`].
    pub fn host_span(&mut self, id: u32) -> HostSpan {
        if self.is_device_view() {
            if let Some((a, Store::Shared(w))) = self.get(id as usize) {
                // A device copy of part of an array (`lo` > 0) is checked on the slow path.
                if !a.live || a.lo > 0 {
                    return HostSpan::default();
                }
                let len = a.size().min(w.len() as u64 * 8);
                return HostSpan {
                    addr: w.as_ptr() as usize,
                    readable: len,
                    writable: if a.read_only { 0 } else { len },
                };
            }
        }
        if self.observed.as_ref().is_some_and(|o| o.follows(id)) {
            return HostSpan::default();
        }
        let Some(a) = self.allocs.get_mut((id as usize).wrapping_sub(self.base_len)) else {
            return HostSpan::default();
        };
        if !a.live || a.class == Class::Reserved || a.lo > 0 {
            return HostSpan::default();
        }
        store_span(&mut self.slabs, &mut a.store, a.size, a.read_only)
    }

    pub fn live_bytes(&self) -> u64 {
        self.live_bytes
    }

    /// Count `bytes` held outside program memory (the contents of open files, what was written
    /// to files) against the `--max-memory` limit; `false` (nothing counted) when they do not fit.
    pub fn charge(&mut self, bytes: u64) -> bool {
        match self.live_bytes.checked_add(bytes) {
            Some(live) if live <= self.limit => {
                self.live_bytes = live;
                true
            }
            _ => false,
        }
    }

    /// Stop counting `bytes` [`Memory::charge`] counted.
    pub fn uncharge(&mut self, bytes: u64) {
        self.live_bytes = self.live_bytes.saturating_sub(bytes);
    }

    /// The bytes that may still be allocated before the `--max-memory` limit.
    pub fn headroom(&self) -> u64 {
        self.limit.saturating_sub(self.bookkeeping()).saturating_sub(self.live_bytes)
    }

    /// The `--max-memory` limit.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// The bytes the allocation table's ids cost ([`BYTES_PER_ID`]), counted against the limit.
    pub fn bookkeeping(&self) -> u64 {
        (self.table_len() as u64).saturating_mul(BYTES_PER_ID)
    }

    /// The id the next allocation will get.
    pub fn next_id(&self) -> u32 {
        (self.base_len + self.allocs.len()) as u32
    }

    pub fn allocation(&self, id: AllocId) -> Option<&Allocation> {
        self.get(id.0 as usize).map(|(a, _)| a)
    }

    /// Allocation `id` and its store as this memory sees it: its own allocations first (one
    /// bounds test, the only one outside device views), then the lent table, whose host bytes a
    /// device view cannot address.
    #[inline(always)]
    fn get(&self, id: usize) -> Option<(&Allocation, &Store)> {
        match self.allocs.get(id.wrapping_sub(self.base_len)) {
            Some(a) => Some((a, &a.store)),
            None => self.lent_entry(id),
        }
    }

    /// Allocation `id` of the lent table and its store as a device view sees it: host bytes are
    /// unaddressable ([`HOST_ONLY`]), and a block the view counts privately is its own table
    /// ([`counters`]).
    #[inline(always)]
    fn lent_entry(&self, id: usize) -> Option<(&Allocation, &Store)> {
        self.base.get(id).map(|a| match a.store {
            Store::Bytes(_) | Store::Slab(_) => (a, &HOST_ONLY),
            Store::Shared(_) if self.counts_privately() => (a, self.private_table(id).unwrap_or(&a.store)),
            _ => (a, &a.store),
        })
    }

    /// One of this memory's own allocations (not the lent table's), for changing it.
    #[inline(always)]
    fn own_mut(&mut self, id: usize) -> Option<&mut Allocation> {
        self.allocs.get_mut(id.wrapping_sub(self.base_len))
    }

    /// Allocate `size` zeroed bytes; returns the pointer word of its first byte.
    pub fn alloc(
        &mut self,
        size: u64,
        kind: AllocKind,
        space: Space,
        origin: Loc,
    ) -> Result<u64, MemFault> {
        self.alloc_with_span::<false>(size, kind, space, origin).map(|(p, _)| p)
    }

    /// [`Memory::alloc`], and with `IN_STEP` where the new block's bytes are, as
    /// [`Memory::host_span`] would give them right after (all zero without `IN_STEP`, and where
    /// a checker follows host accesses), with the change not logged: the caller's table, in step
    /// with the log ([`Memory::in_step`]), sets the block's entry from the span itself (issue 15:
    /// a native engine's `malloc`, without the log's round trip and a second lookup of the id).
    #[inline(always)]
    fn alloc_with_span<const IN_STEP: bool>(
        &mut self,
        size: u64,
        kind: AllocKind,
        space: Space,
        origin: Loc,
    ) -> Result<(u64, HostSpan), MemFault> {
        let fault = |kind| MemFault {
            kind,
            alloc: None,
            ptr: 0,
            size,
            write: false,
        };
        if self.live_bytes.saturating_add(size) > self.limit.saturating_sub(self.bookkeeping()) {
            return Err(fault(FaultKind::MemoryLimit));
        }
        if size > MAX_ALLOC {
            return Err(fault(FaultKind::TooLarge));
        }
        // Both zeroed lazily (`calloc`; large ones advised, `advice`): pages cost when touched.
        if !self.is_device_view() {
            self.released.before_alloc(size);
        }
        // Small heap blocks and frame locals (a call's address-taken locals, VLAs) in slabs; a
        // device view's own (its frames) stay apart, as do variadic arguments (`alloc_init`).
        let slotted = matches!(kind, AllocKind::Heap | AllocKind::Local(..) | AllocKind::Vla(..))
            && (1..=slabs::MAX_SLOTTED as u64).contains(&size)
            && !self.is_device_view();
        let mut store = match space {
            // The system may give no more (`ulimit -v`): the allocation fails as at the limit.
            Space::Host if slotted => Store::Slab(self.slabs.alloc(size as usize).ok_or_else(|| fault(FaultKind::MemoryLimit))?),
            Space::Host => Store::Bytes(advice::host_bytes(size as usize).ok_or_else(|| fault(FaultKind::MemoryLimit))?),
            Space::Device => Store::Shared(zeroed_words(size.div_ceil(8) as usize).ok_or_else(|| fault(FaultKind::MemoryLimit))?),
        };
        let span = if IN_STEP && self.observed.is_none() {
            // At most `MAX_ALLOC` (2^31), tested above.
            store_span(&mut self.slabs, &mut store, size as u32, false)
        } else {
            HostSpan::default()
        };
        let fresh = Allocation {
            store,
            // At most `MAX_ALLOC` (2^31), tested above.
            size: size as u32,
            lo: 0,
            provenance: self.made_at(kind, origin),
            space,
            read_only: false,
            live: true,
            class: Class::of(kind),
        };
        self.live_bytes += size;
        let base_len = self.base_len;
        let (reused, waits) = if fresh.class == Class::GangCopy { (&mut self.gang_ids, 0) } else { (&mut self.quarantine, QUARANTINE) };
        if reused.len() > waits {
            if let Some(slot) = reused.front().and_then(|&id| self.allocs.get_mut((id as usize).wrapping_sub(base_len))) {
                *slot = fresh;
                let id = reused.pop_front().unwrap_or_default();
                self.made::<IN_STEP>(id, space);
                return Ok((ptr_word(id, 0), span));
            }
        }
        let id = u32::try_from(self.base_len + self.allocs.len()).map_err(|_| fault(FaultKind::MemoryLimit))?;
        if id == u32::MAX {
            self.live_bytes -= size;
            return Err(fault(FaultKind::MemoryLimit));
        }
        if !advice::reserve_advised(&mut self.allocs, 1) {
            // No room for the table's next entry: the process's address space is capped.
            self.live_bytes -= size;
            return Err(fault(FaultKind::MemoryLimit));
        }
        self.allocs.push(fresh);
        self.made::<IN_STEP>(id, space);
        Ok((ptr_word(id, 0), span))
    }

    /// Note the block just made at `id` in `space`: in the change log (unless the caller's table
    /// sets its entry, `IN_STEP`), and among the device ids ([`Memory::span_ids`]).
    #[inline(always)]
    fn made<const IN_STEP: bool>(&mut self, id: u32, space: Space) {
        if !IN_STEP {
            self.changed(id);
        }
        if space == Space::Device {
            self.device_ids.push(id);
        }
    }

    /// Whether a native engine's table that took every change so far is in step with this
    /// memory: nothing is logged since ([`Memory::take_changes`]), and no checker follows host
    /// accesses. Its heap routines may then go through [`Memory::malloc_in_step`] and
    /// [`Memory::free_in_step`], which log nothing, and set the one entry themselves.
    #[inline]
    pub fn in_step(&self) -> bool {
        self.observed.is_none() && matches!(&self.changes, Some(c) if !c.all && c.ids.is_empty())
    }

    /// `malloc(size)` of a host heap block made at `origin`, for a table [`Memory::in_step`]:
    /// the block's pointer and where its bytes are, its span-table entry to set; nothing logged.
    #[inline]
    pub fn malloc_in_step(&mut self, size: u64, origin: Loc) -> Result<(u64, HostSpan), MemFault> {
        self.alloc_with_span::<true>(size, AllocKind::Heap, Space::Host, origin)
    }

    /// [`Memory::free_heap`] for a table [`Memory::in_step`]: nothing logged; the freed block's
    /// entry is to be set to zero (its accesses take the checked path).
    #[inline]
    pub fn free_in_step(&mut self, ptr: u64, at: Loc) -> Result<(), MemFault> {
        self.free_heap_logged::<false>(ptr, at)
    }

    /// The provenance index of an allocation of `kind` made at `origin`.
    #[inline(always)]
    fn made_at(&mut self, kind: AllocKind, origin: Loc) -> u32 {
        if matches!(kind, AllocKind::Heap) {
            return match self.last_heap {
                Some((o, i)) if o == origin => i,
                _ => {
                    let i = provenance::intern(Provenance { kind, origin, freed_at: None });
                    self.last_heap = Some((origin, i));
                    i
                }
            };
        }
        match self.last_made {
            Some((k, o, i)) if o == origin && k == kind => i,
            _ => {
                let i = provenance::intern(Provenance { kind, origin, freed_at: None });
                self.last_made = Some((kind, origin, i));
                i
            }
        }
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
        let id = (p >> 32) as usize;
        self.changed(id as u32);
        if read_only {
            self.set_store(id, Store::Frozen(bytes.into()));
        } else if bytes.iter().any(|&b| b != 0) {
            self.set_store(id, Store::Bytes(bytes.into()));
        }
        // All zero: `alloc`'s store is zero already, its pages untouched until written
        // (a zero-initialised global array costs no memory before the program writes it).
        if let Some(a) = self.own_mut(id) {
            a.read_only = read_only;
        }
        Ok(p)
    }

    /// Make an allocation read-only (after its initial contents are written).
    pub fn set_read_only(&mut self, ptr: u64) {
        let id = (ptr >> 32) as usize;
        self.changed(id as u32);
        let Some(a) = self.allocs.get_mut(id.wrapping_sub(self.base_len)) else {
            return;
        };
        a.read_only = true;
        let frozen = match &mut a.store {
            Store::Bytes(b) => Store::Frozen(std::mem::take(b).into()),
            Store::Slab(s) => Store::Frozen(self.slabs.bytes(*s, a.size as usize).into()),
            _ => return,
        };
        self.set_store(id, frozen);
    }

    /// Replace the store of this memory's own allocation `id`, giving back the slot it held.
    fn set_store(&mut self, id: usize, store: Store) {
        if let Some(a) = self.allocs.get_mut(id.wrapping_sub(self.base_len)) {
            if let Store::Slab(s) = std::mem::replace(&mut a.store, store) {
                self.slabs.free(s, a.size as usize);
            }
        }
    }

    /// `free(ptr)` semantics for heap blocks: null is a no-op; anything but the start of a live
    /// heap block is an error.
    pub fn free_heap(&mut self, ptr: u64, at: Loc) -> Result<(), MemFault> {
        self.free_heap_logged::<true>(ptr, at)
    }

    /// [`Memory::free_heap`], its change logged with `LOG`.
    #[inline(always)]
    fn free_heap_logged<const LOG: bool>(&mut self, ptr: u64, at: Loc) -> Result<(), MemFault> {
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
        let Some((a, store)) = self.get(id as usize) else {
            return Err(fault(FaultKind::InvalidFree, None));
        };
        if !a.is_heap() || ptr as u32 != 0 {
            return Err(fault(FaultKind::InvalidFree, Some(AllocId(id))));
        }
        if !a.live {
            return Err(fault(FaultKind::DoubleFree, Some(AllocId(id))));
        }
        if matches!(store, Store::Remote(_)) {
            // Device code freeing a host block: host memory it cannot address (§1.3).
            return Err(fault(FaultKind::HostMemory, Some(AllocId(id))));
        }
        // A block of the lent table stays live: only the host memory ends its lifetime.
        self.release_logged::<LOG>(AllocId(id), at);
        Ok(())
    }

    /// Make the bytes of allocation `id` below offset `lo` unaddressable ([`Allocation::lo`]):
    /// the device copy of `a[lo:len]` mirrors `a`'s offsets from the part's start.
    pub fn set_lower_bound(&mut self, id: AllocId, lo: u64) {
        self.changed(id.0);
        if let Some(a) = self.own_mut(id.0 as usize) {
            a.lo = lo.min(a.size()) as u32;
        }
    }

    /// End the lifetime of an allocation (frames, VLAs, heap blocks).
    pub fn release(&mut self, id: AllocId, at: Loc) {
        self.release_logged::<true>(id, at)
    }

    /// [`Memory::release`], its change logged with `LOG`.
    #[inline(always)]
    fn release_logged<const LOG: bool>(&mut self, id: AllocId, at: Loc) {
        // Only this memory's own allocations (a device view cannot end a lent one's lifetime).
        if let Some(a) = self.allocs.get_mut((id.0 as usize).wrapping_sub(self.base_len)) {
            if a.live {
                if LOG {
                    if let Some(c) = &mut self.changes {
                        if !c.all {
                            c.ids.push(id.0);
                        }
                    }
                }
                a.live = false;
                a.provenance = match self.last_freed {
                    Some((made, last_at, i)) if made == a.provenance && last_at == at => i,
                    _ => {
                        let i = provenance::freed(a.provenance, at);
                        self.last_freed = Some((a.provenance, at, i));
                        i
                    }
                };
                self.live_bytes -= a.size();
                self.released.add(a.size());
                if let Store::Slab(s) = a.store {
                    // A slot owns nothing (its bytes are the slabs'): no drop to run.
                    std::mem::forget(std::mem::replace(&mut a.store, Store::Bytes(Box::default())));
                    self.slabs.free(s, a.size as usize);
                } else {
                    a.store = Store::Bytes(Box::default());
                }
                // Gang-private copies are recycled at once: a launch of many gangs makes and
                // frees one per gang, and the table must not grow with the gang count (issue 14)
                // nor with the launches (issue 15; module documentation).
                if a.class == Class::GangCopy {
                    self.gang_ids.push_back(id.0);
                } else if matches!(a.class, Class::Heap | Class::Frame) {
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
            if let Some((next, _)) = self.get(id as usize + 1) {
                if next.live && next.class != Class::Reserved {
                    return mk(FaultKind::Underflow, Some(id + 1));
                }
                if !next.live && next.class != Class::Reserved {
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
        let Some((a, store)) = self.get(id as usize) else {
            return mk(FaultKind::Wild, None);
        };
        if !a.live {
            return mk(FaultKind::UseAfterFree, Some(id));
        }
        if matches!(store, Store::Remote(_)) {
            return mk(FaultKind::HostMemory, Some(id));
        }
        if write && a.read_only && (off as u64).saturating_add(size) <= a.size() {
            return mk(FaultKind::ReadOnly, Some(id));
        }
        mk(FaultKind::OutOfBounds, Some(id))
    }

    /// The bytes `[ptr, ptr+len)` for reading (borrowed from host memory, copied from device
    /// memory).
    #[inline]
    pub fn read_bytes(&self, ptr: u64, len: u64) -> Result<Cow<'_, [u8]>, MemFault> {
        let off = ptr as u32 as usize;
        if let Some((a, store)) = self.get((ptr >> 32) as usize) {
            if let Some(end) = off.checked_add(len as usize) {
                if let Some(s) = self.host_bytes_of(a, store).and_then(|b| b.get(off..end)) {
                    return Ok(Cow::Borrowed(s));
                }
                if let Store::Shared(w) = store {
                    if end as u64 <= a.size() && off as u64 >= a.lo() {
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
        let (off, id) = (ptr as u32 as usize, (ptr >> 32) as usize);
        let len = data.len();
        let fits = |a: &Allocation| !a.read_only && off as u64 >= a.lo() && off.checked_add(len).is_some_and(|e| e as u64 <= a.size());
        if self.own_mut(id).is_some_and(|a| fits(a)) {
            if let Some(b) = self.own_bytes_mut(id).and_then(|b| b.get_mut(off..off + len)) {
                b.copy_from_slice(data);
                return Ok(());
            }
        }
        if let Some((_, Store::Shared(w))) = self.get(id).filter(|(a, _)| fits(a)) {
            shared_write(w, off, data);
            return Ok(());
        }
        Err(self.fault(ptr, len as u64, true))
    }

    /// Check that `[ptr, ptr+len)` may be written, without writing.
    pub fn check_writable(&self, ptr: u64, len: u64) -> Result<(), MemFault> {
        let off = ptr as u32 as u64;
        match self.get((ptr >> 32) as usize) {
            Some((a, Store::Bytes(_) | Store::Slab(_) | Store::Shared(_))) if !a.read_only && a.live && off >= a.lo() && off.saturating_add(len) <= a.size() => Ok(()),
            _ => Err(self.fault(ptr, len, true)),
        }
    }

    /// Check that `[ptr, ptr+len)` may be read, without reading (or copying device words).
    pub fn check_readable(&self, ptr: u64, len: u64) -> Result<(), MemFault> {
        let off = ptr as u32 as u64;
        match self.get((ptr >> 32) as usize) {
            Some((a, store)) if a.live && off >= a.lo() && off.saturating_add(len) <= a.size() => match store {
                Store::Bytes(_) | Store::Slab(_) | Store::Frozen(_) | Store::Shared(_) => Ok(()),
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
            if let Some(a) = self.own_bytes_mut(di) {
                a.copy_within(s..s + n, d);
                return Ok(());
            }
            // Device memory moved within one allocation (device code's own `memmove`): the
            // ranges may overlap, so the source is read whole first.
            let tmp = self.read_bytes(src, len)?.into_owned();
            return self.write_bytes(dst, &tmp);
        }
        // A small block on either side (a slot: the checks above bound `len` by its size, at
        // most `slabs::MAX_SLOTTED`): through a buffer on the stack (a frame's struct argument
        // is copied in at every call).
        let slotted = |id: usize| matches!(self.get(id), Some((_, Store::Slab(_))));
        if slotted(si) || slotted(di) {
            let mut buf = [0u8; slabs::MAX_SLOTTED];
            let Some(tmp) = buf.get_mut(..n) else {
                return Err(self.fault(dst, len, true));
            };
            tmp.copy_from_slice(&self.read_bytes(src, len)?);
            return self.write_bytes(dst, tmp);
        }
        // Two allocations: the target's store is taken out while the source is read (its words
        // shared when it is in the lent table, which only device memory there can be).
        let taken = self.own_mut(di).map(|a| std::mem::replace(&mut a.store, Store::Bytes(Box::default())));
        let Some(mut to) = taken.or_else(|| self.get(di).map(|(_, st)| st.clone())) else {
            return Err(self.fault(dst, len, true));
        };
        let done = match (self.get(si).map_or(&HOST_ONLY, |(_, st)| st), &mut to) {
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
        if let Some(a) = self.own_mut(di) {
            a.store = to;
        }
        done.ok_or_else(|| self.fault(dst, len, true))
    }

    pub fn fill(&mut self, ptr: u64, byte: u8, len: u64) -> Result<(), MemFault> {
        self.check_writable(ptr, len)?;
        let (off, id) = (ptr as u32 as usize, (ptr >> 32) as usize);
        if let Some(b) = self.own_bytes_mut(id) {
            b[off..off + len as usize].fill(byte);
            return Ok(());
        }
        match self.get(id).map(|(_, st)| st) {
            Some(Store::Shared(w)) => {
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
        let (a, store) = match self.get((ptr >> 32) as usize) {
            Some((a, store)) if a.live && off as u64 >= a.lo() && off as u64 <= a.size() => (a, store),
            _ => return Err(self.fault(ptr, 1, false)),
        };
        let limit = max.unwrap_or(usize::MAX);
        let rest: Cow<'_, [u8]> = match store {
            Store::Bytes(b) => Cow::Borrowed(&b[off..]),
            Store::Slab(b) => Cow::Borrowed(&self.slabs.bytes(*b, a.size as usize)[off..]),
            Store::Frozen(b) => Cow::Borrowed(&b[off..]),
            Store::Shared(w) => {
                // Device memory is read a chunk at a time up to the terminator (or the limit), not
                // to the end of the allocation: a short string in a large array costs little.
                let end = (a.size() as usize - off).min(limit);
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
    /// The first view of a launch lends this memory's table to the views (moved behind an `Arc`,
    /// not copied), and this memory cannot be used until [`Memory::take_back`] once the views
    /// are dropped: every view of the launch shares the one table.
    ///
    /// `globals` names global variables that have a device copy (`declare`, or mapped by a
    /// construct): `(host id, device id)`. Device code that names such a global directly (a
    /// `routine` using a declared global, §2.13) works on the device copy, which mirrors the
    /// host variable's offsets: while the table is lent, the global's id names the device copy.
    ///
    /// With `inspect`, [`Memory::inspect_bytes`] of the view reads host allocations too.
    pub fn device_view(&mut self, globals: &[(u32, u32)], inspect: bool) -> Memory {
        if self.base_len == 0 {
            self.lend(globals);
        }
        // A view of a view (device code of a view making one) cannot address the first view's
        // own allocations either: they are its frames, device thread-local.
        let allocs = self.allocs.iter().map(|a| Allocation { store: self.unaddressable(a, inspect), ..a.clone_meta() }).collect();
        let mut inspect_host = std::collections::HashMap::new();
        if inspect {
            inspect_host.extend(self.inspect_host.iter().map(|(&id, b)| (id, b.clone())));
            for s in self.lent.iter().flatten() {
                if let Store::Bytes(b) = &s.store {
                    inspect_host.insert(s.id, b[..].into());
                }
            }
            // Small heap blocks: their bytes are in this memory's slabs, which the view has not.
            for (id, a) in self.base.iter().enumerate() {
                if let (Store::Slab(slot), true) = (&a.store, a.live) {
                    inspect_host.insert(id as u32, self.slabs.bytes(*slot, a.size as usize).into());
                }
            }
        }
        Memory {
            allocs,
            base: self.base.clone(),
            base_len: self.base_len,
            lent: None,
            inspect,
            quarantine: Default::default(),
            gang_ids: Default::default(),
            live_bytes: self.live_bytes,
            released: Default::default(),
            limit: self.limit,
            inspect_host,
            changes: None,
            observed: None,
            counts: Vec::new(),
            slabs: Default::default(),
            last_made: None,
            last_heap: None,
            last_freed: None,
            device_ids: Vec::new(),
            // A view of a view reads the same lent table.
            lent_device_ids: self.lent_device_ids.clone(),
        }
    }

    /// Lend the table to device views: mapped globals' ids name their device copies, and the
    /// table moves behind the `Arc` the views share.
    fn lend(&mut self, globals: &[(u32, u32)]) {
        let mut aside: Vec<SetAside> = Vec::new();
        for &(host, dev) in globals {
            let Some((size, Store::Shared(w))) = self.allocs.get(dev as usize).map(|d| (d.size, &d.store)) else {
                continue;
            };
            let w = Store::Shared(w.clone());
            let Some(a) = self.allocs.get_mut(host as usize) else {
                continue;
            };
            let store = std::mem::replace(&mut a.store, w);
            if !aside.iter().any(|s| s.id == host) {
                aside.push(SetAside { id: host, store, size: a.size, read_only: a.read_only });
            }
            a.size = size;
            a.read_only = false;
        }
        // The ids whose stores are device memory now: all a device view's table can address
        // of the lent one ([`Memory::span_ids`]).
        let mut ids = std::mem::take(&mut self.device_ids);
        ids.extend(aside.iter().map(|s| s.id));
        ids.sort_unstable();
        ids.dedup();
        ids.retain(|&id| self.allocs.get(id as usize).is_some_and(|a| a.live && matches!(a.store, Store::Shared(_))));
        self.lent_device_ids = Arc::from(&ids[..]);
        self.device_ids = ids;
        self.base = Arc::new(std::mem::take(&mut self.allocs));
        self.base_len = self.base.len();
        // The table moves behind the `Arc`, not the bytes of its allocations: only the globals'
        // stores change (a native engine's spans of the others stay right, see `take_back`).
        for s in &aside {
            self.changed(s.id);
        }
        self.lent = Some(aside);
    }

    /// After the device views of a launch are dropped: take the lent table back (and the
    /// globals' host stores). Nothing to do when nothing is lent.
    pub fn take_back(&mut self) {
        let Some(aside) = self.lent.take() else {
            return;
        };
        let base = std::mem::take(&mut self.base);
        // A view still alive (not given back) keeps its own copy; the table is not shared then,
        // and the copy's bytes are elsewhere. Otherwise every allocation's bytes are where they
        // were before the launch (the entries moved, not their stores): only the globals' stores
        // set aside change back, so a native engine's span table is not rebuilt over every id
        // after each launch (issue 15: calltree's 262,144 ids).
        let mut table = Arc::try_unwrap(base).unwrap_or_else(|shared| {
            self.changed_all();
            (*shared).clone()
        });
        table.append(&mut self.allocs);
        self.allocs = table;
        self.base_len = 0;
        self.lent_device_ids = Arc::from([]);
        for s in aside {
            self.changed(s.id);
            if let Some(a) = self.allocs.get_mut(s.id as usize) {
                a.store = s.store;
                a.size = s.size;
                a.read_only = s.read_only;
            }
        }
    }
}

impl Memory {
    /// The store a device view gives allocation `a` of a view it is made from: host bytes are
    /// not addressable (kept for inspection with `inspect`), the rest is shared.
    fn unaddressable(&self, a: &Allocation, inspect: bool) -> Store {
        match &a.store {
            Store::Bytes(_) | Store::Slab(_) if !a.live || a.class == Class::Reserved => Store::Bytes(Box::default()),
            Store::Bytes(_) | Store::Slab(_) if inspect => Store::Remote(self.host_bytes_of(a, &a.store).map(Into::into)),
            Store::Bytes(_) | Store::Slab(_) => Store::Remote(None),
            other => other.clone(),
        }
    }
}

impl Allocation {
    /// Everything but the bytes.
    fn clone_meta(&self) -> Allocation {
        Allocation { store: Store::Bytes(Box::default()), ..*self }
    }
}

impl Memory {
    /// The bytes `[ptr, ptr+len)` for a debugger's eyes: any live allocation, including the host
    /// allocations a device view made for inspection can see.
    pub fn inspect_bytes(&self, ptr: u64, len: u64) -> Option<Vec<u8>> {
        let id = (ptr >> 32) as usize;
        let (a, store) = match self.get(id)? {
            // A lent small heap block's slot is in the host memory's slabs: copied into
            // `inspect_host` when the view was made.
            (a, _) if self.inspect && id < self.base_len && !matches!(a.store, Store::Slab(_)) => (a, &a.store),
            found => found,
        };
        let off = ptr as u32 as usize;
        let end = off.checked_add(len as usize)?;
        if let Some(host) = self.inspect_host.get(&(id as u32)) {
            return host.get(off..end).map(<[u8]>::to_vec);
        }
        if !a.live || end as u64 > a.size() {
            return None;
        }
        match store {
            Store::Bytes(b) => b.get(off..end).map(<[u8]>::to_vec),
            Store::Slab(b) if id >= self.base_len => self.slabs.bytes(*b, a.size as usize).get(off..end).map(<[u8]>::to_vec),
            Store::Slab(_) => None,
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

#[cfg(test)]
mod tests;
