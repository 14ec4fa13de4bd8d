//! Small heap blocks in slabs (issue 15: "on a 16-core machine, gang-parallel programs faster
//! than gcc -O2 serial").
//!
//! A program's `malloc` of a few dozen bytes (a list or tree node) was one block of the process
//! allocator each: glibc's `malloc` and `free` of it cost about 400 instructions a node, with a
//! merge of freed neighbours at every free (`heap::merge_freed_blocks_at_once`), a third of
//! calltree's serial host time for its 1,048,575 nodes. Here the bytes of a host heap block of
//! at most [`MAX_SLOTTED`] bytes are a slot of a 64 KiB slab of slots of one size class
//! (multiples of 16 bytes); a freed slot waits in its class's list for the next block of that
//! class, and a slab whose slots are all free goes back to the process allocator.
//!
//! Only where the bytes live changes: each block keeps its own allocation id, size, bounds,
//! provenance and quarantine, so every access is checked against the block's own size as before
//! (a slot's padding past the size is never addressable), and use after free and double free are
//! found by the id as before (a freed slot's bytes are not the dangling pointer's: its id is dead).

/// The largest block put in a slab.
pub(super) const MAX_SLOTTED: usize = 256;
/// Slot sizes are multiples of this (the process allocator's alignment).
const GRAIN: usize = 16;
const CLASSES: usize = MAX_SLOTTED / GRAIN;
/// A class's first slab; each next one as large as all those the class holds, up to
/// [`LARGEST_SLAB`]: a class of many blocks takes its pages from a few large blocks, which are
/// offered huge pages ([`super::advice`]: at least [`super::advice::LARGE_BLOCK`] bytes; issue 15:
/// calltree's 2^20 tree nodes faulted 8,192 pages of 64 KiB slabs one 4 KiB page at a time).
const FIRST_SLAB: usize = 64 << 10;
const LARGEST_SLAB: usize = 8 << 20;

/// Where a block's bytes are: slab `slab`, from byte `off`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Slot {
    slab: u32,
    off: u32,
}

/// What a slab's slots are doing.
#[derive(Copy, Clone, Debug, Default)]
struct Slab {
    /// The bytes of its slots, and where they end in its block (they start at the block's
    /// `skip`: [`super::advice::aligned_host_bytes`]; slot offsets count from the block's start).
    len: u32,
    end: u32,
    /// Slots in use.
    live: u32,
    /// The offset plus one of its most recently freed slot (0: none), the head of a list threaded
    /// through its freed slots: each holds the next one's offset plus one in its first 4 bytes
    /// (a freed slot's bytes are nobody's: its block's id is dead, and it is zeroed when reused).
    freed: u32,
}

/// The slabs of one memory.
#[derive(Debug, Default)]
pub(super) struct Slabs {
    /// By slab number (never reused): its bytes, `None` once all its slots were freed.
    blocks: Vec<Option<Box<[u8]>>>,
    /// By slab number: its slots.
    slabs: Vec<Slab>,
    /// By class: the slab being filled and its next free offset.
    filling: [Option<Slot>; CLASSES],
    /// By class: the slabs with freed slots, each once, the most recent last (reused first:
    /// still in cache); it may hold slabs given back since (`stale` of them: skipped, then swept
    /// out).
    partial: [Vec<u32>; CLASSES],
    stale: [usize; CLASSES],
    /// By class: the bytes of its slabs not given back.
    held: [usize; CLASSES],
}

/// The class of a block of `size` bytes (1 to [`MAX_SLOTTED`]) and its slot size.
#[inline]
fn class(size: usize) -> (usize, usize) {
    let c = size.max(1).div_ceil(GRAIN) - 1;
    (c, (c + 1) * GRAIN)
}

impl Slabs {
    /// A zeroed slot for a block of `size` bytes (1 to [`MAX_SLOTTED`]); `None` when a new slab
    /// is wanted and the system gives no more memory.
    #[inline(always)]
    pub(super) fn alloc(&mut self, size: usize) -> Option<Slot> {
        let (c, slot) = class(size);
        if let Some(s) = self.reuse(c, slot) {
            return Some(s);
        }
        let s = match self.filling[c] {
            Some(s) if s.off as usize + slot <= self.slabs[s.slab as usize].end as usize => s,
            _ => self.new_slab(c)?,
        };
        self.filling[c] = Some(Slot { off: s.off + slot as u32, ..s });
        self.slabs[s.slab as usize].live += 1;
        Some(s)
    }

    /// A freed slot of class `c` (of `slot` bytes), zeroed, if there is one.
    #[inline(always)]
    fn reuse(&mut self, c: usize, slot: usize) -> Option<Slot> {
        while let Some(&n) = self.partial[c].last() {
            let (n, head) = (n as usize, self.slabs[n as usize].freed);
            let Some(bytes) = self.blocks[n].as_deref_mut() else {
                // Given back since it was listed.
                self.partial[c].pop();
                self.stale[c] -= 1;
                continue;
            };
            if head == 0 {
                self.partial[c].pop();
                continue;
            }
            let off = head as usize - 1;
            let s = &mut bytes[off..off + slot];
            let next = u32::from_le_bytes([s[0], s[1], s[2], s[3]]);
            s.fill(0);
            let slab = &mut self.slabs[n];
            slab.freed = next;
            slab.live += 1;
            if next == 0 {
                self.partial[c].pop();
            }
            return Some(Slot { slab: n as u32, off: off as u32 });
        }
        None
    }

    /// A fresh slab for class `c` (zero pages, lazily: `calloc`), its first slot; `None` when the
    /// system gives no more memory.
    #[cold]
    fn new_slab(&mut self, c: usize) -> Option<Slot> {
        let len = self.held[c].next_power_of_two().clamp(FIRST_SLAB, LARGEST_SLAB);
        let (bytes, skip) = super::advice::aligned_host_bytes(len)?;
        if self.blocks.try_reserve(1).is_err() || self.slabs.try_reserve(1).is_err() {
            return None;
        }
        self.held[c] += len;
        self.blocks.push(Some(bytes));
        self.slabs.push(Slab {
            len: len as u32,
            end: (skip + len) as u32,
            ..Slab::default()
        });
        Some(Slot { slab: (self.blocks.len() - 1) as u32, off: skip as u32 })
    }

    /// Free the slot of a block of `size` bytes: listed in its slab for reuse, or its slab given
    /// back with the last one (unless it is a small slab still being filled).
    #[inline(always)]
    pub(super) fn free(&mut self, s: Slot, size: usize) {
        let (c, _) = class(size);
        let n = s.slab as usize;
        let slab = &mut self.slabs[n];
        slab.live -= 1;
        // The slab being filled stays while it is small (a block made and freed over and over
        // makes no slab each time); a large one goes back too, and the class starts small again.
        if slab.live == 0 && (self.filling[c].is_none_or(|f| f.slab != s.slab) || slab.len as usize > FIRST_SLAB) {
            if self.filling[c].is_some_and(|f| f.slab == s.slab) {
                self.filling[c] = None;
            }
            if slab.freed != 0 {
                slab.freed = 0;
                self.stale[c] += 1;
                // Swept once half the list is stale: each entry is swept at most once.
                if self.stale[c] > self.partial[c].len() / 2 {
                    let blocks = &self.blocks;
                    self.partial[c].retain(|&f| f != s.slab && blocks[f as usize].is_some());
                    self.stale[c] = 0;
                }
            }
            if self.blocks[n].take().is_some() {
                self.held[c] -= slab.len as usize;
            }
            return;
        }
        if let Some(bytes) = self.blocks[n].as_deref_mut() {
            let at = s.off as usize;
            bytes[at..at + 4].copy_from_slice(&slab.freed.to_le_bytes());
            if slab.freed == 0 {
                self.partial[c].push(s.slab);
            }
            slab.freed = s.off + 1;
        }
    }

    /// The `size` bytes of a live slot.
    #[inline]
    pub(super) fn bytes(&self, s: Slot, size: usize) -> &[u8] {
        let at = s.off as usize;
        self.blocks.get(s.slab as usize).and_then(Option::as_deref).and_then(|b| b.get(at..at + size)).unwrap_or(&[])
    }

    /// The `size` bytes of a live slot, for writing.
    #[inline]
    pub(super) fn bytes_mut(&mut self, s: Slot, size: usize) -> &mut [u8] {
        let at = s.off as usize;
        self.blocks.get_mut(s.slab as usize).and_then(Option::as_deref_mut).and_then(|b| b.get_mut(at..at + size)).unwrap_or(&mut [])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Slots of a class never overlap while live, come back zeroed, and a slab whose slots are
    /// all freed is given back (its stale list entries swept), while the others keep their bytes.
    #[test]
    fn slots_are_disjoint_zeroed_and_slabs_go_back() {
        let mut s = Slabs::default();
        let blocks: Vec<Slot> = (0..10_000).map(|_| s.alloc(24).expect("memory for the slab")).collect();
        for (i, &b) in blocks.iter().enumerate() {
            assert_eq!(s.bytes(b, 24), &[0; 24]);
            s.bytes_mut(b, 24).fill(i as u8);
        }
        for (i, &b) in blocks.iter().enumerate() {
            assert!(s.bytes(b, 24).iter().all(|&x| x == i as u8));
        }
        let made = s.blocks.len();
        // Free all but every 5000th (slabs of 64 KiB, 64 KiB and 128 KiB: 2,048, 2,048 and
        // 4,096 slots): the second slab, blocks 2,048 to 4,095, holds none of those and goes back.
        for &b in blocks.iter().enumerate().filter(|(i, _)| i % 5000 != 0).map(|(_, b)| b) {
            s.free(b, 24);
        }
        assert!(s.blocks.iter().filter(|b| b.is_some()).count() < made);
        for (i, &b) in blocks.iter().enumerate().filter(|(i, _)| i % 5000 == 0) {
            assert!(s.bytes(b, 24).iter().all(|&x| x == i as u8), "kept block {i}");
        }
        let again = s.alloc(20).expect("memory for the slab");
        assert_eq!(s.bytes(again, 20), &[0; 20]);
        // `stale` counts exactly the listed slabs given back.
        let c = class(24).0;
        assert_eq!(s.partial[c].iter().filter(|&&f| s.blocks[f as usize].is_none()).count(), s.stale[c]);
        // Other classes are apart.
        let big = s.alloc(MAX_SLOTTED).expect("memory for the slab");
        s.bytes_mut(big, MAX_SLOTTED).fill(7);
        assert_eq!(s.bytes(again, 20), &[0; 20]);
    }

    /// Blocks of mixed sizes made and freed in a scrambled order: a reused slot comes back
    /// zeroed, and no live block's bytes change while others are made, freed and written (the
    /// lists threaded through freed slots never reach a live one).
    #[test]
    fn freed_slots_are_reused_without_touching_live_blocks() {
        let mut s = Slabs::default();
        let mut live: Vec<(Slot, usize, u8)> = Vec::new();
        let mut seed = 12345u32;
        let mut next = move || {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            seed >> 8
        };
        for round in 0..60_000u32 {
            if live.is_empty() || next() % 5 < 3 {
                let size = 1 + next() as usize % MAX_SLOTTED;
                let b = s.alloc(size).expect("memory for the slab");
                assert!(s.bytes(b, size).iter().all(|&x| x == 0), "round {round}: slot not zeroed");
                let mark = (round % 251) as u8 + 1;
                s.bytes_mut(b, size).fill(mark);
                live.push((b, size, mark));
            } else {
                let (b, size, mark) = live.swap_remove(next() as usize % live.len());
                assert!(s.bytes(b, size).iter().all(|&x| x == mark), "round {round}: live block changed");
                s.free(b, size);
            }
        }
        for &(b, size, mark) in &live {
            assert!(s.bytes(b, size).iter().all(|&x| x == mark));
        }
        for (b, size, _) in live {
            s.free(b, size);
        }
        for c in 0..CLASSES {
            assert_eq!(s.partial[c].iter().filter(|&&f| s.blocks[f as usize].is_none()).count(), s.stale[c]);
        }
    }

    /// A class of many blocks takes them from large slabs, and once all are freed every slab
    /// goes back, the large one being filled too: the class starts again with a small slab.
    #[test]
    fn large_slabs_all_go_back_when_their_blocks_are_freed() {
        let mut s = Slabs::default();
        let blocks: Vec<Slot> = (0..300_000).map(|_| s.alloc(24).expect("memory for the slab")).collect();
        let c = class(24).0;
        assert!(s.slabs.iter().any(|b| b.len as usize == LARGEST_SLAB));
        for b in blocks.into_iter().rev() {
            s.free(b, 24);
        }
        assert!(s.blocks.iter().all(Option::is_none));
        assert_eq!((s.held[c], s.filling[c]), (0, None));
        let again = s.alloc(24).expect("memory for the slab");
        assert_eq!(s.slabs[again.slab as usize].len as usize, FIRST_SLAB);
        assert_eq!(s.bytes(again, 24), &[0; 24]);
    }
}
