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
const SLAB_BYTES: usize = 64 << 10;

/// Where a block's bytes are: slab `slab`, from byte `off`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Slot {
    slab: u32,
    off: u32,
}

/// The slabs of one memory.
#[derive(Debug, Default)]
pub(super) struct Slabs {
    /// By slab number (never reused): its bytes, `None` once all its slots were freed.
    blocks: Vec<Option<Box<[u8]>>>,
    /// By slab number: its slots in use, and its slots in the free list of its class.
    live: Vec<u32>,
    listed: Vec<u32>,
    /// By class: the slab being filled and its next free offset.
    filling: [Option<Slot>; CLASSES],
    /// By class: freed slots, the most recently freed last (reused first: still in cache).
    free: [Vec<Slot>; CLASSES],
    /// By class: entries of `free` whose slab is gone (skipped, then swept out).
    stale: [usize; CLASSES],
}

/// The class of a block of `size` bytes (1 to [`MAX_SLOTTED`]) and its slot size.
#[inline]
fn class(size: usize) -> (usize, usize) {
    let c = size.max(1).div_ceil(GRAIN) - 1;
    (c, (c + 1) * GRAIN)
}

impl Slabs {
    /// A zeroed slot for a block of `size` bytes (1 to [`MAX_SLOTTED`]).
    #[inline]
    pub(super) fn alloc(&mut self, size: usize) -> Slot {
        let (c, slot) = class(size);
        while let Some(s) = self.free[c].pop() {
            let n = s.slab as usize;
            if let Some(bytes) = self.blocks[n].as_mut() {
                self.listed[n] -= 1;
                self.live[n] += 1;
                bytes[s.off as usize..s.off as usize + slot].fill(0);
                return s;
            }
            self.stale[c] -= 1;
        }
        let s = match self.filling[c] {
            Some(s) if s.off as usize + slot <= SLAB_BYTES => s,
            _ => {
                self.blocks.push(Some(vec![0; SLAB_BYTES].into_boxed_slice()));
                self.live.push(0);
                self.listed.push(0);
                Slot { slab: (self.blocks.len() - 1) as u32, off: 0 }
            }
        };
        self.filling[c] = Some(Slot { off: s.off + slot as u32, ..s });
        self.live[s.slab as usize] += 1;
        s
    }

    /// Free the slot of a block of `size` bytes: listed for reuse, or its slab given back with
    /// the last one (unless the slab is still being filled).
    #[inline]
    pub(super) fn free(&mut self, s: Slot, size: usize) {
        let (c, _) = class(size);
        let n = s.slab as usize;
        self.live[n] -= 1;
        if self.live[n] == 0 && self.filling[c].is_none_or(|f| f.slab != s.slab) {
            self.blocks[n] = None;
            self.stale[c] += self.listed[n] as usize;
            self.listed[n] = 0;
            // Swept once half the list is stale: each entry is swept at most once.
            if self.stale[c] > self.free[c].len() / 2 {
                let blocks = &self.blocks;
                self.free[c].retain(|f| blocks[f.slab as usize].is_some());
                self.stale[c] = 0;
            }
            return;
        }
        self.listed[n] += 1;
        self.free[c].push(s);
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
        let blocks: Vec<Slot> = (0..10_000).map(|_| s.alloc(24)).collect();
        for (i, &b) in blocks.iter().enumerate() {
            assert_eq!(s.bytes(b, 24), &[0; 24]);
            s.bytes_mut(b, 24).fill(i as u8);
        }
        for (i, &b) in blocks.iter().enumerate() {
            assert!(s.bytes(b, 24).iter().all(|&x| x == i as u8));
        }
        let made = s.blocks.len();
        // Free all but every 3000th (2,048 slots a slab): the slab of blocks 6,144 to 8,191
        // holds none of those and goes back.
        for &b in blocks.iter().enumerate().filter(|(i, _)| i % 3000 != 0).map(|(_, b)| b) {
            s.free(b, 24);
        }
        assert!(s.blocks.iter().filter(|b| b.is_some()).count() < made);
        for (i, &b) in blocks.iter().enumerate().filter(|(i, _)| i % 3000 == 0) {
            assert!(s.bytes(b, 24).iter().all(|&x| x == i as u8), "kept block {i}");
        }
        let again = s.alloc(20);
        assert_eq!(s.bytes(again, 20), &[0; 20]);
        // `stale` counts exactly the listed slots of slabs given back.
        let c = class(24).0;
        assert_eq!(s.free[c].iter().filter(|f| s.blocks[f.slab as usize].is_none()).count(), s.stale[c]);
        assert!(s.stale[c] > 0);
        // Other classes are apart.
        let big = s.alloc(MAX_SLOTTED);
        s.bytes_mut(big, MAX_SLOTTED).fill(7);
        assert_eq!(s.bytes(again, 20), &[0; 20]);
    }
}
