//! The present table (OpenACC 2.0 §2.6, §3.2): which host ranges have a device copy, where it is,
//! and how long it lives.
//!
//! Each entry maps a contiguous host range (inside one host allocation) to a device range of the
//! same length and carries two reference counts: the *structured* count (data constructs and
//! compute constructs that mapped it, released at the construct's end) and the *dynamic* count
//! (`enter data`, `acc_copyin`… released by `exit data`, `acc_delete`…). The device copy is freed
//! when both reach zero (the OpenACC 2.5 reference-count model, which 2.0's present-or behaviour
//! follows; `--strict-2.0` refuses to map present data with copy/copyin/copyout/create and lets
//! the present-or forms take no reference instead, see `exec::openacc::map`).
//!
//! Lookups classify a host range as absent, fully present (inside one entry) or partially present
//! (overlapping entries without being inside one), which §2.6.4 makes a runtime error.

use std::collections::BTreeMap;
use std::ops::Range;

use crate::diag::Loc;

/// The lifetime kinds of §2.6.1 (data lifetimes).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DataLifetime {
    Structured,
    Dynamic,
}

/// One mapping: `host` (pointer words, one allocation) ↔ `device_start`.
#[derive(Clone, Debug)]
pub struct PresentEntry {
    pub host: Range<u64>,
    pub device_start: u64,
    pub structured: u32,
    pub dynamic: u32,
    /// The variable as written in the clause that created the mapping (`a[0:n]`).
    pub name: String,
    /// The variable it maps (`a`), for findings.
    pub var: String,
    /// Where the mapping was created.
    pub created_at: Loc,
    /// Mapped with `acc_map_data` (the device memory is the program's; never freed by the table).
    pub user_mapped: bool,
}

impl PresentEntry {
    pub fn len(&self) -> u64 {
        self.host.end - self.host.start
    }
    pub fn is_empty(&self) -> bool {
        self.host.is_empty()
    }
    /// The device address of host address `h` (which must be inside the entry).
    pub fn to_device(&self, h: u64) -> u64 {
        self.device_start + (h - self.host.start)
    }
    pub fn count(&self, kind: DataLifetime) -> u32 {
        match kind {
            DataLifetime::Structured => self.structured,
            DataLifetime::Dynamic => self.dynamic,
        }
    }
    /// The bytes this entry costs in the table, counted against `--max-memory` while it is
    /// there: a program doing `enter data create(p[0:1])` on a fresh block in a loop held
    /// 3.5 times its limit, most of it entries, before the limit stopped it.
    pub fn bookkeeping(&self) -> u64 {
        ENTRY_BYTES + (self.name.len() + self.var.len()) as u64
    }
}

/// An entry's bytes besides its names: the entry, its key and its share of the tree's nodes.
const ENTRY_BYTES: u64 = 256;

/// The result of looking a host range up.
#[derive(Debug, PartialEq, Eq)]
pub enum Presence {
    Absent,
    /// Inside the entry starting at this host address.
    Present(u64),
    /// Overlaps the entry starting at this host address without being inside it.
    Partial(u64),
}

/// The present table of one device.
///
/// A clone shares the entries until one side changes them (copy on write): every device thread
/// of a launch gets a copy of the host's table (`AccState::for_device_thread`), and copying the
/// entries, names and all, for each of a launch's 64 device threads was a quarter of the
/// launching thread's work on small kernels (issue 15); the host changes its table only when no
/// device thread holds a copy.
#[derive(Debug, Default, Clone)]
pub struct PresentTable {
    /// Keyed by host start address.
    entries: std::sync::Arc<BTreeMap<u64, PresentEntry>>,
}

impl PresentTable {
    pub fn new() -> Self {
        Self::default()
    }

    /// Classify `range` (a zero-length range counts as a single byte, as a pointer would).
    pub fn lookup(&self, range: Range<u64>) -> Presence {
        let end = range.end.max(range.start + 1);
        // The entry starting at or before `range.start`.
        if let Some((&s, e)) = self.entries.range(..=range.start).next_back() {
            if e.host.end > range.start {
                return if end <= e.host.end || (range.is_empty() && e.host.contains(&range.start)) {
                    Presence::Present(s)
                } else {
                    Presence::Partial(s)
                };
            }
        }
        // An entry starting inside the range.
        if let Some((&s, _)) = self.entries.range(range.start..end).next() {
            return Presence::Partial(s);
        }
        Presence::Absent
    }

    /// The entry containing host address `h`, if any.
    pub fn containing(&self, h: u64) -> Option<&PresentEntry> {
        let (_, e) = self.entries.range(..=h).next_back()?;
        e.host.contains(&h).then_some(e)
    }

    /// The entry containing the device address `d`, if any (for `acc_hostptr`).
    pub fn containing_device(&self, d: u64) -> Option<&PresentEntry> {
        self.entries.values().find(|e| d >= e.device_start && d < e.device_start + e.len())
    }

    pub fn get(&self, host_start: u64) -> Option<&PresentEntry> {
        self.entries.get(&host_start)
    }

    pub fn get_mut(&mut self, host_start: u64) -> Option<&mut PresentEntry> {
        std::sync::Arc::make_mut(&mut self.entries).get_mut(&host_start)
    }

    pub fn insert(&mut self, e: PresentEntry) {
        std::sync::Arc::make_mut(&mut self.entries).insert(e.host.start, e);
    }

    pub fn remove(&mut self, host_start: u64) -> Option<PresentEntry> {
        std::sync::Arc::make_mut(&mut self.entries).remove(&host_start)
    }

    /// Every entry, in host address order.
    pub fn entries(&self) -> impl Iterator<Item = &PresentEntry> {
        self.entries.values()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(start: u64, len: u64) -> PresentEntry {
        PresentEntry {
            host: start..start + len,
            device_start: 1000 + start,
            structured: 1,
            dynamic: 0,
            name: "a".into(),
            var: "a".into(),
            created_at: Loc::default(),
            user_mapped: false,
        }
    }

    /// §2.6.4: a range inside a mapping is present; one that overlaps it only partly is an error.
    #[test]
    fn lookup_classifies_ranges() {
        let mut t = PresentTable::new();
        t.insert(entry(100, 50));
        assert_eq!(t.lookup(100..150), Presence::Present(100));
        assert_eq!(t.lookup(110..120), Presence::Present(100));
        assert_eq!(t.lookup(140..160), Presence::Partial(100));
        assert_eq!(t.lookup(90..110), Presence::Partial(100));
        assert_eq!(t.lookup(150..160), Presence::Absent);
        assert_eq!(t.lookup(0..100), Presence::Absent);
        assert_eq!(t.lookup(120..120), Presence::Present(100));
        assert_eq!(t.containing(149).map(|e| e.to_device(149)), Some(1149));
        assert!(t.containing(150).is_none());
        assert_eq!(t.containing_device(1120).map(|e| e.host.start), Some(100));
    }
}
