//! The cold fields of the allocation table (issue 15): what an allocation was made as
//! ([`AllocKind`]), where it was made and where it was freed, for messages and for `free`'s checks.
//!
//! A table entry holds the 32-bit index of its [`Provenance`] instead of the three fields (48 of
//! its former 96 bytes). Distinct provenances are few: one per allocating site (a `malloc` call, a
//! declaration, a global, a runtime object) and one per pair of an allocating and a freeing site,
//! so a program that builds 262,143 heap nodes with one `malloc` call and frees them with one
//! `free` call has two, while its table has 262,143 entries (calltree's 6,400 page faults of the
//! table, and most of its memory beyond its data, came from the entry size). Everything an entry
//! said is still there: a use after free still names the allocating and the freeing site.
//!
//! Provenances are interned once for the process: one table for every memory, the host's and its
//! device views' alike, so an entry of a table lent to the views (`Memory::device_view`) means the
//! same in each view. Each thread keeps the indices it has already seen in a table of its own, so
//! making and freeing an allocation takes no lock once its sites are known; only a site's first
//! allocation on a thread, and messages, lock the shared table. The index of a provenance depends
//! on the order threads first meet sites, so nothing observable depends on it (allocation ids do
//! not: they stay deterministic).

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Mutex, OnceLock, PoisonError};

use super::AllocKind;
use crate::diag::{FileId, Loc};

/// What an allocation is, where it was made and where it was freed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Provenance {
    pub kind: AllocKind,
    /// Where it was made (malloc call, function entry, declaration).
    pub origin: Loc,
    /// Where it was freed.
    pub freed_at: Option<Loc>,
}

/// The index of the reserved ids' provenance (null, functions, placeholders): always 0.
pub(super) const RESERVED: u32 = 0;

/// The provenance of [`RESERVED`].
const RESERVED_PROVENANCE: Provenance = Provenance {
    kind: AllocKind::Reserved,
    origin: Loc {
        file: FileId(0),
        line: 0,
        col: 0,
    },
    freed_at: None,
};

/// The process's provenances: index to provenance and back.
struct Interned {
    index: HashMap<Provenance, u32, Fast>,
    all: Vec<Provenance>,
}

fn interned() -> &'static Mutex<Interned> {
    static TABLE: OnceLock<Mutex<Interned>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut index = HashMap::default();
        index.insert(RESERVED_PROVENANCE, RESERVED);
        Mutex::new(Interned { index, all: vec![RESERVED_PROVENANCE] })
    })
}

/// The indices this thread has met: by provenance, and by (made, freeing site) for frees; and a
/// copy of a prefix of the process's table, so that reading a provenance (the checker asks for
/// the kind of an allocation at accesses) takes no lock either.
#[derive(Default)]
struct Seen {
    made: HashMap<Provenance, u32, Fast>,
    freed: HashMap<(u32, Loc), u32, Fast>,
    all: Vec<Provenance>,
}

thread_local! {
    static SEEN: RefCell<Seen> = RefCell::new(Seen::default());
    /// The last provenance interned on this thread, and the last freed one: a program making or
    /// freeing many blocks at one site (a loop, a recursion) finds its index here, with no hash.
    static LAST_MADE: Cell<(Provenance, u32)> = const { Cell::new((RESERVED_PROVENANCE, RESERVED)) };
    static LAST_FREED: Cell<Option<(u32, Loc, u32)>> = const { Cell::new(None) };
}

/// The index of `p` (the same for equal provenances, in every thread).
pub(super) fn intern(p: Provenance) -> u32 {
    let (last, i) = LAST_MADE.get();
    if last == p {
        return i;
    }
    let i = SEEN.with(|seen| {
        if let Some(&i) = seen.borrow().made.get(&p) {
            return i;
        }
        let i = intern_shared(p);
        seen.borrow_mut().made.insert(p, i);
        i
    });
    LAST_MADE.set((p, i));
    i
}

/// The index of provenance `made` freed at `at`.
pub(super) fn freed(made: u32, at: Loc) -> u32 {
    if let Some((last, last_at, i)) = LAST_FREED.get() {
        if (last, last_at) == (made, at) {
            return i;
        }
    }
    let i = SEEN.with(|seen| {
        if let Some(&i) = seen.borrow().freed.get(&(made, at)) {
            return i;
        }
        let i = intern_shared(Provenance { freed_at: Some(at), ..get(made) });
        seen.borrow_mut().freed.insert((made, at), i);
        i
    });
    LAST_FREED.set(Some((made, at, i)));
    i
}

/// The provenance of index `i` (the reserved one for an index never given out).
pub(super) fn get(i: u32) -> Provenance {
    SEEN.with(|seen| {
        if let Some(&p) = seen.borrow().all.get(i as usize) {
            return p;
        }
        // Indices are given out in order and never change: the process's table extends the copy.
        let table = interned().lock().unwrap_or_else(PoisonError::into_inner);
        let mut seen = seen.borrow_mut();
        let have = seen.all.len();
        seen.all.extend_from_slice(table.all.get(have..).unwrap_or(&[]));
        seen.all.get(i as usize).copied().unwrap_or(RESERVED_PROVENANCE)
    })
}

fn intern_shared(p: Provenance) -> u32 {
    let mut table = interned().lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(&i) = table.index.get(&p) {
        return i;
    }
    // Provenances are bounded by the program's sites (and pairs of them), far below 2^32; were
    // they not, the entry would read as reserved in messages (its checks do not use it).
    let Ok(i) = u32::try_from(table.all.len()) else {
        return RESERVED;
    };
    table.all.push(p);
    table.index.insert(p, i);
    i
}

/// A fast hash of small keys (a few words; not exposed to input that could choose collisions in
/// numbers that matter: the keys are the program's own sites).
type Fast = BuildHasherDefault<WordHasher>;

#[derive(Default)]
struct WordHasher(u64);

impl WordHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }
    fn write_u8(&mut self, n: u8) {
        self.add(n as u64);
    }
    fn write_u32(&mut self, n: u32) {
        self.add(n as u64);
    }
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: u32) -> Loc {
        Loc { file: FileId(0), line, col: 1 }
    }

    #[test]
    fn equal_provenances_share_an_index_in_every_thread() {
        let made = Provenance { kind: AllocKind::Heap, origin: at(7001), freed_at: None };
        let here = intern(made);
        let there = std::thread::spawn(move || intern(made)).join().expect("thread");
        assert_eq!(here, there);
        assert_ne!(here, intern(Provenance { origin: at(7002), ..made }));
        assert_eq!(get(here), made);
        assert_eq!(intern(RESERVED_PROVENANCE), RESERVED);
    }

    #[test]
    fn a_freed_allocation_keeps_its_origin_and_gains_its_freeing_site() {
        let made = intern(Provenance { kind: AllocKind::Local(3, 4), origin: at(7101), freed_at: None });
        let freed_here = freed(made, at(7102));
        let freed_there = std::thread::spawn(move || freed(made, at(7102))).join().expect("thread");
        assert_eq!(freed_here, freed_there);
        assert_eq!(
            get(freed_here),
            Provenance { kind: AllocKind::Local(3, 4), origin: at(7101), freed_at: Some(at(7102)) }
        );
        assert_ne!(freed(made, at(7103)), freed_here);
        assert_eq!(get(u32::MAX), RESERVED_PROVENANCE);
    }
}
