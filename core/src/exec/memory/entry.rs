//! One entry of the allocation table ([`Allocation`]) and what the table's own work needs to
//! know of its kind ([`Class`]); the cold fields are interned ([`super::provenance`]).

use super::provenance::{self, Provenance};
use super::{AllocKind, Space, Store};
use crate::diag::Loc;

/// One entry of the allocation table: 40 bytes (it was 96: calltree's 262,143 heap nodes made
/// 6,400 of its 16,600 page faults in the table, issue 15). Sizes and offsets are 32-bit (an
/// allocation is at most [`super::MAX_ALLOC`] bytes); what it was made as, where, and where it was
/// freed are one index of an interned [`Provenance`] ([`super::provenance`]), with the few facts the
/// table's own work needs kept in [`Class`].
#[derive(Debug, Clone)]
pub struct Allocation {
    /// The bytes.
    pub(super) store: Store,
    /// Size at allocation time (kept after free, for messages).
    pub(super) size: u32,
    /// The first addressable byte offset: 0, except for the device copy of part of an array
    /// (`copy(a[10:50])`), whose block mirrors the array's offsets from the part's start, so
    /// that an access below the part is out of bounds as one past its end is (§2.6.5: only the
    /// subarray's elements are mapped). See [`super::Memory::set_lower_bound`].
    pub(super) lo: u32,
    /// Index of its [`Provenance`].
    pub(super) provenance: u32,
    pub space: Space,
    pub read_only: bool,
    pub live: bool,
    pub(super) class: Class,
}

/// What the table itself needs to know of an allocation's [`AllocKind`] (without looking up its
/// provenance): `free`'s check, the id queues, the span rules.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Class {
    Reserved,
    Heap,
    /// A gang's copy ([`AllocKind::is_gang_private`]).
    GangCopy,
    /// A frame local, VLA or variadic arguments: its id is recycled after the quarantine.
    Frame,
    Other,
}

impl Class {
    #[inline(always)]
    pub(super) fn of(kind: AllocKind) -> Class {
        match kind {
            AllocKind::Reserved => Class::Reserved,
            AllocKind::Heap => Class::Heap,
            _ if kind.is_gang_private() => Class::GangCopy,
            AllocKind::Local(..) | AllocKind::Vla(..) | AllocKind::VaArgs(_) => Class::Frame,
            _ => Class::Other,
        }
    }
}

const _: () = assert!(std::mem::size_of::<Allocation>() <= 40);

impl Allocation {
    /// An empty, dead allocation (for messages about missing ones; its store addresses nothing).
    pub const fn placeholder() -> Allocation {
        Allocation {
            store: Store::Remote(None),
            size: 0,
            lo: 0,
            provenance: provenance::RESERVED,
            space: Space::Host,
            read_only: true,
            live: false,
            class: Class::Reserved,
        }
    }

    /// Size at allocation time (kept after free, for messages).
    #[inline(always)]
    pub fn size(&self) -> u64 {
        self.size as u64
    }

    /// The first addressable byte offset (see the field).
    #[inline(always)]
    pub fn lo(&self) -> u64 {
        self.lo as u64
    }

    /// What it is, where it was made and where it was freed.
    pub fn provenance(&self) -> Provenance {
        provenance::get(self.provenance)
    }

    /// What it is.
    pub fn kind(&self) -> AllocKind {
        match self.class {
            Class::Reserved => AllocKind::Reserved,
            Class::Heap => AllocKind::Heap,
            _ => self.provenance().kind,
        }
    }

    /// Where it was made (malloc call, function entry, declaration).
    pub fn origin(&self) -> Loc {
        self.provenance().origin
    }

    /// Where it was freed.
    pub fn freed_at(&self) -> Option<Loc> {
        self.provenance().freed_at
    }

    /// A `malloc`-family block.
    #[inline]
    pub fn is_heap(&self) -> bool {
        self.class == Class::Heap
    }

    /// A gang's own copy ([`AllocKind::is_gang_private`]).
    #[inline]
    pub fn is_gang_private(&self) -> bool {
        self.class == Class::GangCopy
    }
}
