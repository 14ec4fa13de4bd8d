//! What native code reaches at run time: the call context ([`Ctx`]), the table of host
//! allocations it reads and writes in place ([`Span`]), and the `extern "C"` helpers it calls for
//! everything else (checked slow-path accesses, calls into the interpreter and the C library shim,
//! traps, fuel).
//!
//! Memory semantics are the interpreter's: a pointer is the word `(alloc_id << 32) | offset`. The
//! fast path of a load or store looks the id up in the span table and reads or writes the bytes in
//! place when `offset + size` is within the allocation; everything else (a freed block, device
//! memory, a read-only object written, a forged or null pointer) takes the slow path, which is the
//! interpreter's own checked access ([`Machine::load_kind`]) and so faults with the same
//! diagnostic at the same source location.

use std::cell::RefCell;

use accsim_core::diag::{Diagnostic, Loc};
use accsim_core::exec::memory::{advice, HostSpan, Memory};
use accsim_core::exec::value::Kind;
use accsim_core::exec::{arith_trap, check, libc_shim, ArithFault, Machine, Trap};

/// One entry of the span table, read by native code: see [`accsim_core::exec::memory::HostSpan`].
/// `readable`/`writable` are 0 where the access must take the slow path. 16 bytes: an
/// allocation is at most 2^31 bytes (`memory::MAX_ALLOC`), so its limits fit 32 bits (native
/// code reads them with `uload32`), and a program of many small allocations keeps a table half
/// the size. Stored as two words ([`Span::words`]: the address, then `readable` in the low half
/// and `writable` in the high half of the second, little-endian as x86 reads them), so that a
/// table is made of zero pages the system gives untouched ([`sync_table`]).
#[derive(Copy, Clone, Default)]
pub struct Span {
    pub addr: u64,
    pub readable: u32,
    pub writable: u32,
}

impl Span {
    /// The entry as native code reads it.
    pub fn words(self) -> [u64; 2] {
        [self.addr, self.readable as u64 | (self.writable as u64) << 32]
    }
}

/// Byte size of a [`Span`] (native code indexes the table with `id << SPAN_SHIFT`).
pub const SPAN_SHIFT: i64 = 4;
/// Offsets in a [`Span`] of the limits native code reads.
pub const SPAN_READABLE: i32 = 8;
pub const SPAN_WRITABLE: i32 = 12;

/// The context of one entry into native code (one [`accsim_core::exec::native::NativeCode::call`]);
/// native functions called from there share it. `#[repr(C)]`: native code reads the fields at the
/// offsets below.
#[repr(C)]
pub struct Ctx {
    /// The span table's first entry and its length (refreshed after every helper that may
    /// allocate or free).
    pub table: *const [u64; 2],
    pub table_len: u64,
    /// Non-zero once a trap is recorded in `trap`: native code returns at once.
    pub trapped: u64,
    /// Fuel left (`Machine::fuel` while native code runs). Native code keeps it in a variable,
    /// passes it to the functions it calls and gets it back from them, and stores it here
    /// before each helper that reads it, after a trap and when it returns to the entry's
    /// trampoline (`Translator::fuel`).
    pub fuel: u64,
    /// The C call depth (`Machine::depth` while native code runs): the entered function's at
    /// the entry; native code passes each callee its depth and stores its own here before the
    /// helpers that read it (`Translator::depth`).
    pub depth: u64,
    /// The location index of the call site of the native call being made (stored by the caller
    /// when the callee allocates a frame, read by [`jit_frame_enter`]); `u64::MAX`: the call
    /// that entered native code, at `entry_loc`.
    pub call_loc: u64,
    /// Non-zero when no other thread touches the machine's memory during the entry
    /// ([`Machine::runs_alone`]): an `atomic` update is then a plain read-modify-write
    /// (`translate/atomic.rs`).
    pub alone: u64,
    /// The result of the last cold helper called through its stub (the `preserve_all`
    /// convention returns nothing; `crate::cold`).
    pub cold_result: u64,
    /// The machine (valid for the whole entry; see [`Ctx::machine`]).
    pub machine: *mut (),
    /// Where each call site, access and operation is in the source, by the index native code
    /// passes to helpers.
    /// By function id (`locs_len` of them), set when the function is translated.
    pub locs: *const std::sync::OnceLock<Vec<Loc>>,
    pub locs_len: usize,
    /// The function names, by function id (for the stack-overflow message).
    pub names: *const String,
    pub names_len: usize,
    pub trap: Option<Trap>,
    /// The call site of the interpreter's call that entered native code.
    pub entry_loc: Loc,
    /// The atomic lock while native code runs an `atomic` statement (declared before
    /// `atomic_lock`: dropped before the mutex it borrows).
    pub atomic: Option<AtomicHeld>,
    /// The run's atomic lock ([`Machine::native_atomic_lock`]), fetched at the entry's first
    /// `atomic` statement and kept for the others.
    pub atomic_lock: Option<std::sync::Arc<std::sync::Mutex<()>>>,
    /// The thread's span table of the machine's memory, set by [`sync_table`]: the native heap
    /// routines find it here rather than through the thread-local [`TABLES`] and its borrow
    /// ([`in_step`]; issue 15: calltree's 2 million heap routines).
    own_table: *mut Table,
    /// The last location index of a call of the `malloc` family ([`MAKES`]) and of `free`
    /// ([`FREES`]) and its location ([`Ctx::heap_loc`]): a heap routine called in a loop or a
    /// recursion asks for the same one each time, also where blocks are made and freed in turn
    /// (issue 15: calltree's 2 million `malloc` and `free` calls paid 22 instructions each for
    /// the table walk).
    last_loc: [std::cell::Cell<(u64, Loc)>; 2],
    /// What makes the checked versions of loops on first need ([`jit_outline_code`]).
    outliner: Outliner,
}

/// The engine's maker of checked versions of loops (`Engine::outline_code`, [`crate::outline`]),
/// with the lifetime of the engine erased: `make(engine, slot)` gives the address of slot
/// `slot`'s code, made now if it has none, or 0 when it cannot be made. The engine outlives
/// every entry into its code.
#[derive(Clone, Copy)]
pub struct Outliner {
    pub engine: *const (),
    pub make: unsafe fn(*const (), u32) -> u64,
}

/// [`Ctx::last_loc`]'s entry of the `malloc` family's calls.
const MAKES: usize = 0;
/// [`Ctx::last_loc`]'s entry of `free`'s calls.
const FREES: usize = 1;

pub const OFF_TABLE: i32 = 0;
pub const OFF_TABLE_LEN: i32 = 8;
pub const OFF_TRAPPED: i32 = 16;
pub const OFF_FUEL: i32 = 24;
pub const OFF_DEPTH: i32 = 32;
pub const OFF_CALL_LOC: i32 = 40;
pub const OFF_ALONE: i32 = 48;
pub const OFF_COLD_RESULT: i32 = 56;

// The offsets native code reads are the fields' (`#[repr(C)]`).
const _: () = {
    use std::mem::offset_of;
    assert!(offset_of!(Ctx, table) == OFF_TABLE as usize);
    assert!(offset_of!(Ctx, table_len) == OFF_TABLE_LEN as usize);
    assert!(offset_of!(Ctx, trapped) == OFF_TRAPPED as usize);
    assert!(offset_of!(Ctx, fuel) == OFF_FUEL as usize);
    assert!(offset_of!(Ctx, depth) == OFF_DEPTH as usize);
    assert!(offset_of!(Ctx, call_loc) == OFF_CALL_LOC as usize);
    assert!(offset_of!(Ctx, alone) == OFF_ALONE as usize);
    assert!(offset_of!(Ctx, cold_result) == OFF_COLD_RESULT as usize);
};

impl Ctx {
    /// The machine this entry runs on.
    ///
    /// # Safety
    /// `self.machine` is the `&mut Machine` the entry was given, alive and not otherwise borrowed
    /// while native code runs (the entry holds that borrow for its whole duration).
    unsafe fn machine<'a>(&mut self) -> &'a mut Machine<'a> {
        // SAFETY: see the function's contract; the lifetime is the entry's.
        unsafe { &mut *(self.machine as *mut Machine<'a>) }
    }

    /// The location of index `idx`: the function id in the high 32 bits, the index among that
    /// function's locations in the low ones (translate.rs's `Translator::loc`).
    fn loc(&self, idx: u64) -> Loc {
        self.find_loc(idx).unwrap_or_default()
    }

    /// [`Ctx::loc`] for a heap routine of kind `routine` ([`MAKES`], [`FREES`]): its last
    /// call's location when the index is the same, else the tables', remembered when found (a
    /// table is set once, when its function is translated, before its code runs).
    #[inline]
    fn heap_loc(&self, idx: u64, routine: usize) -> Loc {
        let last = &self.last_loc[routine];
        match last.get() {
            (i, at) if i == idx => at,
            _ => match self.find_loc(idx) {
                Some(at) => {
                    last.set((idx, at));
                    at
                }
                None => Loc::default(),
            },
        }
    }

    /// The location of index `idx` in the engine's tables, if there is one.
    fn find_loc(&self, idx: u64) -> Option<Loc> {
        let (fid, k) = ((idx >> 32) as usize, idx & 0xffff_ffff);
        if fid >= self.locs_len {
            return None;
        }
        // SAFETY: `locs` points at `locs_len` tables owned by the engine, which outlives every
        // entry into its code; `fid` is checked above.
        let table = unsafe { &*self.locs.add(fid) };
        table.get().and_then(|t| t.get(k as usize)).copied()
    }

    fn name(&self, fid: u64) -> String {
        if (fid as usize) < self.names_len {
            // SAFETY: as for `locs`: the engine's names, alive during the entry; index checked.
            unsafe { (*self.names.add(fid as usize)).clone() }
        } else {
            String::new()
        }
    }

    fn set_trap(&mut self, t: Trap) {
        if self.trap.is_none() {
            self.trap = Some(t);
        }
        self.trapped = 1;
    }

    /// Copy the native copies of fuel and depth back into the machine (before the interpreter
    /// runs), and the machine's back after.
    fn sync_into_machine(&mut self, m: &mut Machine) {
        m.set_fuel_left(self.fuel);
        m.set_call_depth(self.depth as usize);
    }
    fn sync_from_machine(&mut self, m: &Machine) {
        // Native code traps when a unit of fuel leaves none: a machine with none left (out of
        // steps, or its output pipe closed during the call) stops at the next unit, as the
        // interpreter stops at its next step.
        self.fuel = m.fuel_left().max(1);
    }
}

thread_local! {
    /// The span tables of the memories the current thread runs native code on: kept across
    /// entries and brought up to date from the memory's change log ([`sync_table`]).
    static TABLES: RefCell<Tables> = RefCell::new(Tables::default());
}

/// A thread's span tables: the host memory's and a device view's apart, so that a launch whose
/// gangs run on the interpreter thread (one device thread) does not make the host's table be
/// rebuilt over every id when the host goes on (lending the table to the views moves no host
/// bytes: `Memory::take_back`).
#[derive(Default)]
struct Tables {
    host: Table,
    view: Table,
    /// The change log's buffer between syncs ([`accsim_core::exec::memory::Memory::take_changes`]).
    recycled: Vec<u32>,
}

#[derive(Default)]
struct Table {
    /// The address of the `Memory` the table describes (a new run or view rebuilds it).
    owner: usize,
    /// By id, [`Span::words`].
    spans: Vec<[u64; 2]>,
    /// The ids whose entry was made non-zero since the table was last cleared (an id may be
    /// listed twice): clearing zeroes these entries alone. A device view's table lists device
    /// blocks only, a few entries among every id of the program.
    written: Vec<u32>,
    /// More entries were set than `written` keeps (a host table of many heap blocks): clearing
    /// zeroes every entry.
    dense: bool,
}

impl Table {
    /// Set entry `id` (present) to `words`, remembering a non-zero entry. Always inlined: each
    /// heap routine sets an entry, and a call of its own was 8 instructions of calltree's
    /// `malloc` and `free` (the compiler's choice moved with unrelated code of this crate).
    #[inline(always)]
    fn set(&mut self, id: usize, words: [u64; 2]) {
        if !self.dense && words != [0; 2] && self.spans[id] == [0; 2] {
            self.note_written(id);
        }
        self.spans[id] = words;
    }

    /// Grow (zero entries) or cut the table to `len` entries, grown as the allocation table
    /// grows (huge pages when large). With no memory to grow it (a process under `ulimit -v`)
    /// it stays as it is: native code finds no entry for the ids past its end and takes the
    /// checked slow path for their accesses, which the machine's memory serves.
    fn resize_to(&mut self, len: usize) {
        let more = len.saturating_sub(self.spans.len());
        if advice::reserve_advised(&mut self.spans, more) {
            self.spans.resize(len, [0; 2]);
        }
    }

    /// Entry `id` is made non-zero: listed for [`Table::clear`], or the table becomes dense.
    fn note_written(&mut self, id: usize) {
        // The list is worth keeping while it is short against the table; past that, a clear
        // writes all entries, and the list would only cost memory (issue 15: calltree's host
        // table listed its 262,143 heap blocks, 1 MiB).
        if self.written.len() >= (self.spans.len() / 16).max(1024) || self.written.try_reserve(1).is_err() {
            self.dense = true;
            self.written = Vec::new();
        } else {
            self.written.push(id as u32);
        }
    }

    /// Set entry `id` of a table of `len` entries (growing or cutting it to `len` first; the
    /// id just made, one past the end, is pushed).
    #[inline(always)]
    fn put(&mut self, id: usize, words: [u64; 2], len: usize) {
        if self.spans.len() != len {
            if id == self.spans.len() && len == id + 1 {
                if !advice::reserve_advised(&mut self.spans, 1) {
                    // No memory to grow: the id has no entry ([`Table::resize_to`]).
                    return;
                }
                // The id just made: its entry pushed as set.
                if !self.dense && words != [0; 2] {
                    self.note_written(id);
                }
                self.spans.push(words);
                return;
            }
            self.resize_to(len);
        }
        if id < self.spans.len() {
            self.set(id, words);
        }
        self.bound_list();
    }

    /// Keep the list of set ids within the table: ids set, cleared and set again are listed
    /// again.
    fn bound_list(&mut self) {
        if !self.dense && self.written.len() > self.spans.len() {
            self.written.clear();
            let spans = &self.spans;
            self.written.extend((0..spans.len() as u32).filter(|&id| spans[id as usize] != [0; 2]));
        }
    }

    /// All `len` entries zero again, writing only the entries that were set (issue 15: a
    /// device thread makes one table per fork of a launch, four per thread; zeroing all
    /// entries of a program with 262,000 freed heap blocks touched 4 MiB per device thread).
    fn clear(&mut self, len: usize) {
        if self.dense {
            self.spans.fill([0; 2]);
            self.dense = false;
        }
        for &id in &self.written {
            if let Some(e) = self.spans.get_mut(id as usize) {
                *e = [0; 2];
            }
        }
        self.written.clear();
        self.spans.resize(len, [0; 2]);
    }
}

impl From<HostSpan> for Span {
    /// Where a block's bytes are ([`Memory::host_span`]) as native code reads it.
    #[inline]
    fn from(s: HostSpan) -> Span {
        // A limit past 32 bits (never made: see `Span`) would read as a smaller one, whose
        // accesses past it take the checked slow path.
        let limit = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
        Span {
            addr: s.addr as u64,
            readable: limit(s.readable),
            writable: limit(s.writable),
        }
    }
}

/// The span of allocation `id` of `mem` as native code reads it.
#[inline]
fn span_of(mem: &mut Memory, id: u32) -> Span {
    mem.host_span(id).into()
}

/// Bring the thread's span table of `m`'s memory up to date and point `ctx` at it.
///
/// One change since the last sync on this table's memory (the block a heap routine made or
/// freed, a frame) sets its entry alone, without taking the log's buffer; a first sync, `all`,
/// several ids or none take the general path ([`sync_changes`]), kept out of line so that the
/// one-change path, run after every native `malloc` and `free`, saves no registers it does not
/// use (issue 15: calltree's 2 million heap routines paid 172 instructions each for the sync).
pub fn sync_table(ctx: &mut Ctx, m: &mut Machine) {
    TABLES.with(|cell| {
        let mut tables = cell.borrow_mut();
        let tables = &mut *tables;
        let mem = m.memory_mut();
        let owner = mem as *const Memory as usize;
        let t = if mem.is_device_view() { &mut tables.view } else { &mut tables.host };
        let one = if t.owner == owner { mem.take_one_change() } else { None };
        match one {
            Some(id) => {
                let len = mem.table_len();
                if t.spans.len() != len {
                    t.resize_to(len);
                }
                if (id as usize) < t.spans.len() {
                    t.set(id as usize, span_of(mem, id).words());
                }
                t.bound_list();
            }
            None => sync_changes(mem, tables),
        }
        let view = mem.is_device_view();
        let t = if view { &tables.view } else { &tables.host };
        ctx.table = t.spans.as_ptr();
        ctx.table_len = t.spans.len() as u64;
        // Derived from the cell's own pointer, not from the borrow (which ends here), so that it
        // stays valid for the thread's life: the table never moves within `Tables`.
        let cell = cell.as_ptr();
        // SAFETY: `cell` points at this thread's `Tables`, alive as long as the thread; only the
        // field's address is taken (no reference is made).
        ctx.own_table = unsafe {
            if view {
                std::ptr::addr_of_mut!((*cell).view)
            } else {
                std::ptr::addr_of_mut!((*cell).host)
            }
        };
    });
}

/// Run a heap routine `f` of a memory that the thread's table is in step with
/// ([`Memory::in_step`]: it took every change so far), giving it the table to set the one entry
/// the routine changes, and point `ctx` at the table after; `None` (nothing run) otherwise: the
/// caller runs the routine and [`sync_table`]. Issue 15: calltree's 2 million heap routines paid
/// 140 instructions each for the log's round trip and the generic sync.
///
/// The table is the one [`sync_table`] left in `ctx` (`Ctx::own_table`), the thread's table of
/// this memory as long as its owner is this memory.
#[inline(always)]
fn in_step<R>(ctx: &mut Ctx, m: &mut Machine, f: impl FnOnce(&mut Machine, &mut Table) -> R) -> Option<R> {
    // SAFETY: `own_table` is null or points into this thread's `TABLES` (set by `sync_table` on
    // this thread: a `Ctx` does not leave the thread that entered native code), which lives as
    // long as the thread. No borrow of `TABLES` is held while native code runs (its helpers
    // borrow it themselves), and `f`, a heap routine of the memory, does not touch it, so this
    // is the only reference to the table while it lives.
    let t = unsafe { ctx.own_table.as_mut() }?;
    let mem = m.memory_mut();
    if t.owner != mem as *const Memory as usize || !mem.in_step() {
        return None;
    }
    let r = f(m, t);
    ctx.table = t.spans.as_ptr();
    ctx.table_len = t.spans.len() as u64;
    Some(r)
}

/// A span table of `len` zero entries from zero pages (as `vec!` of zeros makes it: `calloc`),
/// or `None` when the system gives no more memory.
fn zeroed_spans(len: usize) -> Option<Vec<[u64; 2]>> {
    bytemuck::allocation::try_zeroed_vec(len).ok()
}

/// [`sync_table`]'s general path: every change the log holds, or the whole table.
#[inline(never)]
fn sync_changes(mem: &mut Memory, tables: &mut Tables) {
    let owner = mem as *const Memory as usize;
    let len = mem.table_len();
    let t = if mem.is_device_view() { &mut tables.view } else { &mut tables.host };
    let recycled = std::mem::take(&mut tables.recycled);
    let changes = mem.take_changes(recycled);
    if changes.all || t.owner != owner {
        // A fresh table of zero pages (`vec!` of zeros is `calloc`), written only where
        // an allocation is in place: the freed ids of a program of many short-lived
        // blocks, and in a device view the host's (most of its ids), cost no memory.
        t.owner = owner;
        if t.spans.capacity() >= len {
            // Cleared in place, where it was written (a fresh block would be new memory).
            t.clear(len);
        } else {
            // With no memory for it (`ulimit -v`), no table: every access takes the checked
            // slow path ([`Table::resize_to`]).
            t.spans = zeroed_spans(len).unwrap_or_default();
            t.written.clear();
            t.dense = false;
        }
        // A device view names the few ids it can address; a host memory may address any.
        let view_ids: Option<Vec<u32>> = mem.span_ids().map(Iterator::collect);
        let mut fill = |id: u32| {
            let s = span_of(mem, id);
            if (s.readable != 0 || s.addr != 0) && (id as usize) < t.spans.len() {
                t.set(id as usize, s.words());
            }
        };
        match view_ids {
            Some(ids) => ids.into_iter().for_each(&mut fill),
            None => (0..len as u32).for_each(&mut fill),
        }
    } else {
        // A table that shrank (a memory's ids are never dropped; kept for safety) is cut.
        t.resize_to(len);
        for &id in &changes.ids {
            if (id as usize) < t.spans.len() {
                t.set(id as usize, span_of(mem, id).words());
            }
        }
        t.bound_list();
    }
    tables.recycled = changes.ids;
}

/// The kinds native code passes to [`jit_load`] and [`jit_store`], by code.
pub const KINDS: [Kind; 13] = [
    Kind::Bool,
    Kind::I8,
    Kind::U8,
    Kind::I16,
    Kind::U16,
    Kind::I32,
    Kind::U32,
    Kind::I64,
    Kind::U64,
    Kind::F32,
    Kind::F64,
    Kind::Ptr,
    Kind::LongDouble,
];

/// The code of `k` in [`KINDS`].
pub fn kind_code(k: Kind) -> Option<i64> {
    KINDS.iter().position(|&x| x == k).map(|i| i as i64)
}

/// The checked load of a scalar (the slow path of native loads): the interpreter's access, and
/// its fault at `loc`. Under `accsim check` the access is reported to the checkers, as the
/// checking interpreter reports it (the allocations they follow take this path:
/// `accsim_core::exec::observed_host`).
pub extern "C" fn jit_load(ctx: *mut Ctx, ptr: u64, kind: u64, loc: u64) -> u64 {
    // SAFETY: native code passes the context of its entry, valid and exclusively its own.
    checked_load(unsafe { &mut *ctx }, ptr, kind, loc)
}

/// [`jit_load`] on the entry's context.
fn checked_load(ctx: &mut Ctx, ptr: u64, kind: u64, loc: u64) -> u64 {
    // SAFETY: the entry's machine (see `Ctx::machine`).
    let m = unsafe { ctx.machine() };
    let k = KINDS.get(kind as usize).copied().unwrap_or(Kind::U64);
    let at = ctx.loc(loc);
    check::before_access(m, ptr, k.bytes(), false, false, at);
    match m.load_kind(k, ptr) {
        Ok(v) => {
            check::access(m, ptr, k.bytes(), false, false, at);
            v
        }
        Err(f) => {
            let t = m.fault(f, at);
            ctx.set_trap(t);
            0
        }
    }
}

/// The checked store of a scalar (the slow path of native stores).
pub extern "C" fn jit_store(ctx: *mut Ctx, ptr: u64, value: u64, kind: u64, loc: u64) {
    // SAFETY: as in `jit_load`.
    checked_store(unsafe { &mut *ctx }, ptr, value, kind, loc)
}

/// [`jit_store`] on the entry's context.
fn checked_store(ctx: &mut Ctx, ptr: u64, value: u64, kind: u64, loc: u64) {
    // SAFETY: the entry's machine.
    let m = unsafe { ctx.machine() };
    let k = KINDS.get(kind as usize).copied().unwrap_or(Kind::U64);
    let at = ctx.loc(loc);
    check::before_access(m, ptr, k.bytes(), true, false, at);
    match m.store_kind(k, ptr, value) {
        Ok(()) => check::access(m, ptr, k.bytes(), true, false, at),
        Err(f) => {
            let t = m.fault(f, at);
            ctx.set_trap(t);
        }
    }
}

/// Call the function or C library routine that the pointer word `fptr` names (a function not
/// compiled to native code runs in the interpreter), with `nargs` argument words at `args`.
pub extern "C" fn jit_call(
    ctx: *mut Ctx,
    fptr: u64,
    args: *const u64,
    nargs: u64,
    loc: u64,
) -> u64 {
    // SAFETY: as in `jit_load`.
    let ctx = unsafe { &mut *ctx };
    // SAFETY: native code passes a stack array of `nargs` words (or a dangling pointer with 0).
    let args: &[u64] = if nargs == 0 {
        &[]
    } else {
        unsafe { std::slice::from_raw_parts(args, nargs as usize) }
    };
    // SAFETY: the entry's machine.
    let m = unsafe { ctx.machine() };
    ctx.sync_into_machine(m);
    let r = m.call_pointer(fptr, args, ctx.loc(loc));
    ctx.sync_from_machine(m);
    sync_table(ctx, m);
    match r {
        Ok(v) => v,
        Err(t) => {
            ctx.set_trap(t);
            0
        }
    }
}

/// `malloc(size)` called by native code: the shim's ([`libc_shim::heap_malloc`]), then the
/// span table brought up to date; a fault (`--max-memory`) traps at `loc`.
pub extern "C" fn jit_malloc(ctx: *mut Ctx, size: u64, loc: u64) -> u64 {
    // SAFETY: as in `jit_load`.
    let ctx = unsafe { &mut *ctx };
    // SAFETY: the entry's machine.
    let m = unsafe { ctx.machine() };
    let at = ctx.heap_loc(loc, MAKES);
    heap_made(ctx, m, |m| libc_shim::heap_malloc_in_step(m, size, at), |m| libc_shim::heap_malloc(m, size, at))
}

/// `calloc(n, size)` called by native code ([`libc_shim::heap_calloc`]).
pub extern "C" fn jit_calloc(ctx: *mut Ctx, n: u64, size: u64, loc: u64) -> u64 {
    // SAFETY: as in `jit_load`.
    let ctx = unsafe { &mut *ctx };
    // SAFETY: the entry's machine.
    let m = unsafe { ctx.machine() };
    let at = ctx.heap_loc(loc, MAKES);
    heap_made(ctx, m, |m| libc_shim::heap_calloc_in_step(m, n, size, at), |m| libc_shim::heap_calloc(m, n, size, at))
}

/// A heap block made by native code: by `in_step_make` when the thread's table is in step,
/// setting the new block's entry from its span (none for null, an overflowing `calloc`'s),
/// else by `make` and the generic sync.
#[inline(always)]
fn heap_made(
    ctx: &mut Ctx,
    m: &mut Machine,
    in_step_make: impl FnOnce(&mut Machine) -> Result<(u64, HostSpan), Trap>,
    make: impl FnOnce(&mut Machine) -> Result<u64, Trap>,
) -> u64 {
    let made = in_step(ctx, m, |m, t| {
        let r = in_step_make(m);
        if let Ok((p, span)) = r {
            if p != 0 {
                t.put((p >> 32) as usize, Span::from(span).words(), m.memory_mut().table_len());
            }
        }
        r.map(|(p, _)| p)
    });
    let sync = made.is_none();
    let r = made.unwrap_or_else(|| make(m));
    heap_done(ctx, m, r, sync)
}

/// `free(ptr)` called by native code ([`libc_shim::heap_free`]); a double or invalid free
/// traps at `loc`.
pub extern "C" fn jit_free(ctx: *mut Ctx, ptr: u64, loc: u64) {
    // SAFETY: as in `jit_load`.
    let ctx = unsafe { &mut *ctx };
    // SAFETY: the entry's machine.
    let m = unsafe { ctx.machine() };
    let at = ctx.heap_loc(loc, FREES);
    let freed = in_step(ctx, m, |m, t| {
        let r = libc_shim::heap_free_in_step(m, ptr, at);
        if r.is_ok() && ptr != 0 {
            // The freed block's entry is all zero: its accesses take the checked path.
            t.put((ptr >> 32) as usize, [0; 2], m.memory_mut().table_len());
        }
        r.map(|()| 0)
    });
    let sync = freed.is_none();
    let r = freed.unwrap_or_else(|| libc_shim::heap_free(m, ptr, at).map(|()| 0));
    heap_done(ctx, m, r, sync);
}

/// After a heap routine: the span table up to date (when the routine did not set its entry
/// itself: `sync`), the result, or the trap recorded.
#[inline(always)]
fn heap_done(ctx: &mut Ctx, m: &mut Machine, r: Result<u64, Trap>, sync: bool) -> u64 {
    if sync {
        sync_table(ctx, m);
    }
    match r {
        Ok(p) => p,
        Err(t) => {
            ctx.set_trap(t);
            0
        }
    }
}

/// Allocate the frame of compiled function `fid` (its memory locals; the interpreter's prologue,
/// [`Machine::native_frame_enter`]): the `nargs` argument words at `args` are copied into its
/// memory parameters and the `nptrs` addresses written to `ptrs`. Returns the mark to give
/// [`jit_frame_leave`]; a failed allocation traps at the call site.
pub extern "C" fn jit_frame_enter(
    ctx: *mut Ctx,
    fid: u64,
    args: *const u64,
    nargs: u64,
    ptrs: *mut u64,
    nptrs: u64,
) -> u64 {
    // SAFETY: as in `jit_load`.
    let ctx = unsafe { &mut *ctx };
    // SAFETY: native code passes a stack array of `nargs` words (or a dangling pointer with 0).
    let args: &[u64] = if nargs == 0 {
        &[]
    } else {
        unsafe { std::slice::from_raw_parts(args, nargs as usize) }
    };
    // SAFETY: native code passes a stack array of `nptrs` words of its own, not otherwise
    // referenced during the call (or a dangling pointer with 0).
    let ptrs: &mut [u64] = if nptrs == 0 {
        &mut []
    } else {
        unsafe { std::slice::from_raw_parts_mut(ptrs, nptrs as usize) }
    };
    let loc = if ctx.call_loc == u64::MAX {
        ctx.entry_loc
    } else {
        ctx.loc(ctx.call_loc)
    };
    ctx.call_loc = u64::MAX;
    // SAFETY: the entry's machine.
    let m = unsafe { ctx.machine() };
    let (mark, r) = m.native_frame_enter(fid as u32, args, ptrs, loc);
    sync_table(ctx, m);
    if let Err(t) = r {
        ctx.set_trap(t);
    }
    mark as u64
}

/// Free the frame [`jit_frame_enter`] allocated (`mark` is what it returned), as the
/// interpreter's call does when the function returns.
pub extern "C" fn jit_frame_leave(ctx: *mut Ctx, fid: u64, mark: u64) {
    // SAFETY: as in `jit_load`.
    let ctx = unsafe { &mut *ctx };
    // SAFETY: the entry's machine.
    let m = unsafe { ctx.machine() };
    m.native_frame_leave(fid as u32, mark as usize);
    sync_table(ctx, m);
}

/// Zero `size` bytes at `ptr` (the part of an aggregate its initializer leaves out), the
/// interpreter's checked fill, faulting at `loc`.
pub extern "C" fn jit_fill(ctx: *mut Ctx, ptr: u64, size: u64, loc: u64) {
    // SAFETY: as in `jit_load`.
    let ctx = unsafe { &mut *ctx };
    // SAFETY: the entry's machine.
    let m = unsafe { ctx.machine() };
    let at = ctx.loc(loc);
    check::before_access(m, ptr, size, true, false, at);
    match m.memory_mut().fill(ptr, 0, size) {
        Ok(()) => check::access(m, ptr, size, true, false, at),
        Err(f) => {
            let t = m.fault(f, at);
            ctx.set_trap(t);
        }
    }
}

/// Run the entry (`exit` 0) or exit part of OpenACC statement `site` of function `fid` in the
/// interpreter ([`Machine::native_run_site`]) with the `n` locals at `locals`, two words each: the
/// local's word (a register local's value, a memory local's address), then its id. Those are the
/// locals the statement may read or write (`site_locals.rs`); register locals get their values
/// back in their first word.
///
/// After them come three words for each of the `promoted` memory locals that native code keeps
/// in a variable (`promote.rs`): the value, the local's frame address, then the local's id
/// shifted left by 8 over its kind code ([`kind_code`]). Each value is stored at its address
/// before the statement runs, where the statement sees it, and read back after (a `copy` or
/// `update host` may write it), as checked stores and loads at location `loc` (the function's:
/// a frame local is in bounds while its function runs). Done here rather than in native code:
/// one call instead of a checked store and load per local and statement (issue 15's compile
/// time: they were most of a `main`'s accesses).
pub extern "C" fn jit_run_site(ctx: *mut Ctx, fid: u64, site: u64, exit: u64, locals: *mut u64, n: u64, promoted: u64, loc: u64) {
    // SAFETY: as in `jit_load`.
    let ctx = unsafe { &mut *ctx };
    let named = n as usize;
    let words = 2usize.saturating_mul(named).saturating_add(3usize.saturating_mul(promoted as usize));
    // SAFETY: native code passes a stack array of `2 * n + 3 * promoted` words of its own (or a
    // dangling pointer with 0), not otherwise referenced during the call.
    let all: &mut [u64] = if words == 0 {
        &mut []
    } else {
        unsafe { std::slice::from_raw_parts_mut(locals, words) }
    };
    let (locals, homes) = all.split_at_mut((2 * named).min(words));
    for triple in homes.chunks_exact(3) {
        checked_store(ctx, triple[1], triple[0], triple[2] & 0xff, loc);
        if ctx.trapped != 0 {
            return;
        }
    }
    // SAFETY: the entry's machine.
    let m = unsafe { ctx.machine() };
    ctx.sync_into_machine(m);
    let r = m.native_run_site(fid as u32, site as usize, exit != 0, locals);
    ctx.sync_from_machine(m);
    sync_table(ctx, m);
    if let Err(t) = r {
        ctx.set_trap(t);
        return;
    }
    for triple in homes.chunks_exact_mut(3) {
        triple[0] = checked_load(ctx, triple[1], triple[2] & 0xff, loc);
        if ctx.trapped != 0 {
            return;
        }
    }
}

/// The code of the checked version of slot `slot` ([`crate::outline`]), made now if it has
/// none; 0 with a trap when it cannot be made (its loop's function was translated, so this is
/// an accsim bug, reported as one).
pub extern "C" fn jit_outline_code(ctx: *mut Ctx, slot: u64) -> u64 {
    // SAFETY: as in `jit_load`.
    let ctx = unsafe { &mut *ctx };
    let o = ctx.outliner;
    // SAFETY: `o` is the entry's engine's maker, and the engine outlives the entry
    // ([`Outliner`]).
    let code = unsafe { (o.make)(o.engine, slot as u32) };
    if code == 0 {
        let at = ctx.entry_loc;
        ctx.set_trap(Trap::error(Diagnostic::internal("the native code of a loop's checked version could not be generated", Some(at))));
    }
    code
}

/// Make sure `need` units of fuel are at hand in the context, drawing them from the launch's
/// step pool ([`Machine::native_reserve_fuel`]): 1 when they are, 0 when not.
pub extern "C" fn jit_reserve_fuel(ctx: *mut Ctx, need: u64) -> u64 {
    // SAFETY: as in `jit_load`.
    let ctx = unsafe { &mut *ctx };
    // SAFETY: the entry's machine.
    let m = unsafe { ctx.machine() };
    m.set_fuel_left(ctx.fuel);
    // Native code keeps one unit beyond what it takes (a unit that leaves none traps).
    let ok = m.native_reserve_fuel(need.saturating_add(1));
    ctx.fuel = m.fuel_left();
    ok as u64
}

/// The run's atomic lock, held by native code running an `atomic` statement
/// ([`jit_atomic_enter`]); released by [`jit_atomic_exit`], or when the entry ends (a trap in
/// the statement).
pub struct AtomicHeld {
    _guard: std::sync::MutexGuard<'static, ()>,
}

/// Take the run's atomic lock ([`Machine::native_atomic_lock`]) for the `atomic` statement
/// native code runs next.
pub extern "C" fn jit_atomic_enter(ctx: *mut Ctx) {
    // SAFETY: as in `jit_load`.
    let ctx = unsafe { &mut *ctx };
    let lock = match &ctx.atomic_lock {
        Some(lock) => std::sync::Arc::as_ptr(lock),
        None => {
            // SAFETY: the entry's machine.
            let m = unsafe { ctx.machine() };
            std::sync::Arc::as_ptr(ctx.atomic_lock.insert(m.native_atomic_lock()))
        }
    };
    // SAFETY: `lock` points at the mutex inside the allocation of the `Arc` in
    // `ctx.atomic_lock`, which stays there (never replaced once set) until the context is
    // dropped, after `ctx.atomic` and the guard in it (field order).
    let lock: &'static std::sync::Mutex<()> = unsafe { &*lock };
    let guard = lock.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    ctx.atomic = Some(AtomicHeld { _guard: guard });
}

/// Release the lock [`jit_atomic_enter`] took.
pub extern "C" fn jit_atomic_exit(ctx: *mut Ctx) {
    // SAFETY: as in `jit_load`.
    let ctx = unsafe { &mut *ctx };
    ctx.atomic = None;
}

/// The word update of an `atomic` statement (`exec::atomic`, §2.12): `step`
/// ([`accsim_core::exec::atomic::Step::encode`]) applied to `x` at `ptr` with operand `y`, the
/// interpreter's own update; returns `x`'s old value when `want_old` is non-zero, else its new
/// one. A fault traps at `loc` as the interpreter's update does. No atomic statement of this
/// thread runs around it: native atomic statements call nothing but math routines
/// (`loops::atomic_in_native`), so the interpreter's `nested-atomic` check has nothing to find.
pub extern "C" fn jit_atomic_update(ctx: *mut Ctx, ptr: u64, step: u64, y: u64, want_old: u64, loc: u64) -> u64 {
    use accsim_core::exec::atomic::{update, Step, UpdateFault};
    // SAFETY: as in `jit_load`.
    let ctx = unsafe { &mut *ctx };
    // SAFETY: the entry's machine.
    let m = unsafe { ctx.machine() };
    let Some(step) = Step::decode(step) else {
        ctx.set_trap(Trap::error(Diagnostic::internal("native code passed an unknown atomic step", Some(ctx.loc(loc)))));
        return 0;
    };
    match update(m, step, ptr, y, false) {
        Ok((old, new)) => {
            if want_old != 0 {
                old
            } else {
                new
            }
        }
        Err(UpdateFault::Memory(f)) => {
            let t = m.fault(f, ctx.loc(loc));
            ctx.set_trap(t);
            0
        }
        Err(UpdateFault::Arith(f)) => {
            let t = arith_trap(f, ctx.loc(loc));
            ctx.set_trap(t);
            0
        }
    }
}

/// Integer division by zero (`what` 0) or `INT_MIN / -1` (`what` 1) at `loc`.
pub extern "C" fn jit_arith_trap(ctx: *mut Ctx, what: u64, loc: u64) {
    // SAFETY: as in `jit_load`.
    let ctx = unsafe { &mut *ctx };
    let f = if what == 0 {
        ArithFault::DivZero
    } else {
        ArithFault::Overflow
    };
    let t = arith_trap(f, ctx.loc(loc));
    ctx.set_trap(t);
}

/// Fuel ran out at `loc`: a refill, or the trap of a limit (`--max-steps`, `--max-time`).
pub extern "C" fn jit_out_of_fuel(ctx: *mut Ctx, loc: u64) {
    // SAFETY: as in `jit_load`.
    let ctx = unsafe { &mut *ctx };
    // SAFETY: the entry's machine.
    let m = unsafe { ctx.machine() };
    // A refill, a chunk of the step pool, or the trap of a limit (`Machine::refill`).
    let at = ctx.loc(loc);
    match m.refill(at) {
        Ok(fuel) => ctx.fuel = fuel,
        Err(t) => ctx.set_trap(t),
    }
}

/// A native call nested [`MAX_CALL_DEPTH`] deep: the interpreter's stack-overflow limit.
pub extern "C" fn jit_stack_overflow(ctx: *mut Ctx, fid: u64, loc: u64) {
    // SAFETY: as in `jit_load`.
    let ctx = unsafe { &mut *ctx };
    let t = Trap::limit(Diagnostic::error(
        "stack overflow",
        format!(
            "stack overflow: calls nested {} deep when calling `{}`",
            ctx.depth,
            ctx.name(fid)
        ),
        ctx.loc(loc),
    )
    .with_help(format!(
        "accsim allows {} nested calls and a 1 GiB interpreter stack; no flag raises them",
        accsim_core::exec::MAX_CALL_DEPTH
    )));
    ctx.set_trap(t);
}

/// The interpreter's conversion `from` → `to` (codes of [`KINDS`]) of a word: float to integer
/// conversions, which native code leaves to the same function to keep x86's `cvttsd2si` results.
pub extern "C" fn jit_cast(v: u64, from: u64, to: u64) -> u64 {
    let k = |c: u64| KINDS.get(c as usize).copied().unwrap_or(Kind::U64);
    accsim_core::exec::value::apply(accsim_core::exec::value::cast_fn(k(from), k(to)), v)
}

/// Call a one-argument `double` routine of the C library shim (the same Rust function the
/// interpreter calls), given as its address.
pub extern "C" fn jit_math1(f: u64, x: f64) -> f64 {
    // SAFETY: native code passes the address of a `fn(f64) -> f64` taken from the shim's binding
    // when the function was compiled (`Shim::Math1`).
    let f: fn(f64) -> f64 = unsafe { std::mem::transmute::<usize, fn(f64) -> f64>(f as usize) };
    f(x)
}

/// Two-argument `double` routines (`pow`, `fmax`, …).
pub extern "C" fn jit_math2(f: u64, x: f64, y: f64) -> f64 {
    // SAFETY: as in `jit_math1`, a `fn(f64, f64) -> f64` (`Shim::Math2`).
    let f: fn(f64, f64) -> f64 =
        unsafe { std::mem::transmute::<usize, fn(f64, f64) -> f64>(f as usize) };
    f(x, y)
}

/// One-argument `float` routines.
pub extern "C" fn jit_math1f(f: u64, x: f32) -> f32 {
    // SAFETY: as in `jit_math1`, a `fn(f32) -> f32` (`Shim::Math1F`).
    let f: fn(f32) -> f32 = unsafe { std::mem::transmute::<usize, fn(f32) -> f32>(f as usize) };
    f(x)
}

/// Two-argument `float` routines.
pub extern "C" fn jit_math2f(f: u64, x: f32, y: f32) -> f32 {
    // SAFETY: as in `jit_math1`, a `fn(f32, f32) -> f32` (`Shim::Math2F`).
    let f: fn(f32, f32) -> f32 =
        unsafe { std::mem::transmute::<usize, fn(f32, f32) -> f32>(f as usize) };
    f(x, y)
}

/// The context of an entry into native code from the interpreter, on `m` (`loc`: where the
/// interpreter entered).
fn entry_context(m: &mut Machine, locs: &[std::sync::OnceLock<Vec<Loc>>], names: &[String], loc: Loc, outliner: Outliner) -> Result<Ctx, Trap> {
    if m.fuel_left() == 0 {
        // No fuel at hand: a device thread's fork before its first draw from the launch's step
        // pool (`Machine::device_fork`), or a run at its limit. The interpreter refuels at its
        // next step; so does native code, here: its first unit would otherwise wrap to a fuel
        // without end (a kernel on a fork ran past `--max-steps`).
        let fuel = m.refill(loc)?;
        m.set_fuel_left(fuel);
    }
    let mut ctx = Ctx {
        table: std::ptr::null(),
        table_len: 0,
        trapped: 0,
        fuel: m.fuel_left(),
        depth: m.call_depth() as u64,
        call_loc: u64::MAX,
        alone: m.runs_alone() as u64,
        cold_result: 0,
        machine: m as *mut Machine as *mut (),
        locs: locs.as_ptr(),
        locs_len: locs.len(),
        names: names.as_ptr(),
        names_len: names.len(),
        trap: None,
        entry_loc: loc,
        atomic: None,
        atomic_lock: None,
        own_table: std::ptr::null_mut(),
        // No index is `u64::MAX` (its function id is past the tables).
        last_loc: std::array::from_fn(|_| std::cell::Cell::new((u64::MAX, Loc::default()))),
        outliner,
    };
    sync_table(&mut ctx, m);
    Ok(ctx)
}

/// The entry: run the native function `code` (it has `nparams` parameters) through its
/// trampoline `entry` on `m` with `args`.
pub fn enter(
    m: &mut Machine,
    entry: *const u8,
    code: *const u8,
    args: &[u64],
    nparams: usize,
    locs: &[std::sync::OnceLock<Vec<Loc>>],
    names: &[String],
    loc: Loc,
    outliner: Outliner,
) -> Result<u64, Trap> {
    let mut ctx = entry_context(m, locs, names, loc, outliner)?;
    let entry_depth = m.call_depth();
    let c: *mut Ctx = &mut ctx;
    // SAFETY: `entry` is the trampoline for functions of `nparams` parameters of the engine's
    // module, finalized, with the signature `extern "C" fn(*mut Ctx, *const u64, *const u8) ->
    // u64` (`entry_signature`); it reads as many argument words as the function has parameters,
    // which the interpreter's call path passes (a call with fewer arguments is padded below),
    // and calls `code`, the finalized code of a function of `nparams` parameters of the same
    // module. The module lives as long as the engine, which the caller holds.
    let f: extern "C" fn(*mut Ctx, *const u64, *const u8) -> u64 = unsafe { std::mem::transmute(entry) };
    let mut words = args.to_vec();
    words.resize(nparams.max(args.len()), 0);
    let v = f(c, words.as_ptr(), code);
    m.set_fuel_left(ctx.fuel);
    m.set_call_depth(entry_depth);
    match ctx.trap.take() {
        Some(t) => Err(t),
        None => Ok(v),
    }
}

/// The entry into a loop's code ([`crate::loop_entry`]): run `code` (of
/// [`crate::outline::signature`], in the C convention) on `m` with the loop's frame
/// `frame`, at the depth of the function the interpreter runs; `loc` is the loop's. Returns how
/// the loop left ([`crate::outline::ENDED`] or [`crate::outline::RETURNED`]), or its trap.
pub fn enter_loop(m: &mut Machine, code: *const u8, frame: &mut [u64], locs: &[std::sync::OnceLock<Vec<Loc>>], names: &[String], loc: Loc, outliner: Outliner) -> Result<u64, Trap> {
    let mut ctx = entry_context(m, locs, names, loc, outliner)?;
    let entry_depth = m.call_depth();
    let c: *mut Ctx = &mut ctx;
    // SAFETY: `code` is the finalized code of a loop entry of the engine's module, whose
    // signature is `(ctx, fuel, depth, frame)` with every parameter a 64-bit word and no result,
    // in the platform's C convention (`outline::signature`, made only where that convention
    // is Cranelift's System V, `enter::c_compatible`): this function type. It reads and writes
    // the frame's words (one per local of the loop's frame and one for a returned word, which
    // `frame` holds) and leaves the fuel and how it left in the context. The module lives as
    // long as the engine, which the caller holds.
    let f: extern "C" fn(*mut Ctx, u64, u64, *mut u64) = unsafe { std::mem::transmute(code) };
    f(c, ctx.fuel, ctx.depth, frame.as_mut_ptr());
    m.set_fuel_left(ctx.fuel);
    m.set_call_depth(entry_depth);
    match ctx.trap.take() {
        Some(t) => Err(t),
        None => Ok(ctx.cold_result),
    }
}
