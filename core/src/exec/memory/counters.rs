//! Atomic counters that each device thread counts in a table of its own (issue 15: a histogram's
//! `#pragma acc atomic update` of `hist[bin]++`, 16 threads `lock xadd`-ing 256 shared bins).
//!
//! **The rule (§2.12).** An `atomic update` makes each update of `x` indivisible; nothing orders
//! the updates of one location by different threads, and a program may read `x` only after the
//! construct (or through another atomic access, which the proof below excludes). When the only
//! accesses of a block in a kernel are integer counter updates `p[e] += c` / `p[e]++` /
//! `p[e]--` (the launch proof of `kernel::footprint::atomics`, the one `accsim check` uses:
//! no other site, atomic or not, may touch the block), the block's final contents are its
//! contents before the launch plus, element by element, the sum of all updates, wrapping in the
//! element's width — the same for every order of the updates, because integer `+` modulo
//! `2^bits` is commutative and associative. So a device thread may add its updates into a zeroed
//! table of its own ([`Memory::count_privately`]) and add the table into the block when its
//! gangs are done ([`Memory::add_private_counts`]); no thread can tell, since nothing in the
//! construct reads the block. The sums are those of any serial order, bit for bit.
//!
//! Only unobserved launches count this way (`simulator::SimDevice`): the checkers, the GUI and
//! `--coherence weak` see every access on the interpreter's path, one gang after another.

use super::{shared_load, shared_store, zeroed_words, Memory, Store, Words};

/// A device block whose counter updates a device view counts in a table of its own.
#[derive(Debug)]
pub(super) struct PrivateCounts {
    /// The block's allocation id (in the lent table).
    pub(super) id: u32,
    /// The view's table, as long as the block, zeros before the gangs run.
    pub(super) table: Store,
    /// The block's own words.
    block: Words,
    /// The counters' size in bytes (1, 2, 4 or 8), and the offset of the first one from the
    /// block's start (below `size`).
    size: usize,
    align: usize,
}

impl Memory {
    /// In a device view ([`Memory::device_view`]): count the updates of device block `id`
    /// (integer counters of `size` bytes, the first at offset `align`) in a zeroed table of this
    /// view's own from now on, until [`Memory::add_private_counts`]. `false` (nothing changed)
    /// when `id` is not device memory of the lent table or `size` is no integer size.
    pub fn count_privately(&mut self, id: u32, size: u64, align: u64) -> bool {
        if !self.is_device_view() || !matches!(size, 1 | 2 | 4 | 8) || align >= size {
            return false;
        }
        let Some(Store::Shared(block)) = self.base.get(id as usize).map(|a| &a.store) else {
            return false;
        };
        if self.counts.iter().any(|c| c.id == id) {
            return true;
        }
        let Some(table) = zeroed_words(block.len()) else {
            return false;
        };
        self.counts.push(PrivateCounts { id, table: Store::Shared(table), block: block.clone(), size: size as usize, align: align as usize });
        true
    }

    /// Whether this view counts some block's updates in a table of its own.
    #[inline(always)]
    pub(super) fn counts_privately(&self) -> bool {
        !self.counts.is_empty()
    }

    /// The store this view uses for lent device block `id`: its own table when it counts the
    /// block privately.
    #[inline]
    pub(super) fn private_table(&self, id: usize) -> Option<&Store> {
        self.counts.iter().find(|c| c.id as usize == id).map(|c| &c.table)
    }

    /// Add the counts of this view's tables into their blocks, counter by counter, wrapping in
    /// the counter's width, and stop counting privately. Called once the view's gangs are done,
    /// on the launching thread (no other thread touches the blocks then).
    pub fn add_private_counts(&mut self) {
        for c in std::mem::take(&mut self.counts) {
            let Store::Shared(table) = &c.table else { continue };
            match c.size {
                1 => add_counts::<1>(table, &c.block, c.align),
                2 => add_counts::<2>(table, &c.block, c.align),
                4 => add_counts::<4>(table, &c.block, c.align),
                _ => add_counts::<8>(table, &c.block, c.align),
            }
        }
    }
}

/// `block[k] += table[k]` for the counters of `N` bytes from byte `align` on, wrapping.
fn add_counts<const N: usize>(table: &[std::sync::atomic::AtomicU64], block: &[std::sync::atomic::AtomicU64], align: usize) {
    let bytes = table.len().min(block.len()) * 8;
    let mask = if N == 8 { u64::MAX } else { (1u64 << (8 * N)) - 1 };
    let word = |b: [u8; N]| {
        let mut w = [0u8; 8];
        w[..N].copy_from_slice(&b);
        u64::from_le_bytes(w)
    };
    let mut off = align;
    while off + N <= bytes {
        // Most counters of a large table are untouched by one thread: whole zero words skip.
        if off.is_multiple_of(8) && off + 8 <= bytes && table[off / 8].load(std::sync::atomic::Ordering::Relaxed) == 0 {
            off += 8;
            continue;
        }
        if let (Some(add), Some(old)) = (shared_load::<N>(table, off), shared_load::<N>(block, off)) {
            let add = word(add);
            if add != 0 {
                let sum = word(old).wrapping_add(add) & mask;
                let mut out = [0u8; N];
                out.copy_from_slice(&sum.to_le_bytes()[..N]);
                let _ = shared_store::<N>(block, off, out);
            }
        }
        off += N;
    }
}

#[cfg(test)]
mod tests {
    use super::super::{AllocKind, Memory, Space};
    use crate::diag::Loc;

    /// A view counting an `int` block privately: its updates land in its own table, the block
    /// is unchanged until they are added, and the sums wrap in 32 bits.
    #[test]
    fn private_counts_add_into_the_block_wrapping() {
        let mut host = Memory::new(1 << 20);
        let block = host.alloc(16, AllocKind::Heap, Space::Device, Loc::default()).unwrap();
        host.store_u32(block, u32::MAX).unwrap();
        host.store_u32(block + 8, 7).unwrap();
        let id = (block >> 32) as u32;
        let mut views: Vec<Memory> = (0..2).map(|_| host.device_view(&[], false)).collect();
        for v in &mut views {
            assert!(v.count_privately(id, 4, 0));
            assert_eq!(v.load_u32(block).unwrap(), 0, "a private table starts at zero");
            v.store_u32(block, 2).unwrap();
            v.store_u32(block + 8, 1).unwrap();
        }
        for v in &mut views {
            v.add_private_counts();
            assert!(!v.counts_privately());
        }
        drop(views);
        host.take_back();
        assert_eq!(host.load_u32(block).unwrap(), 3, "u32::MAX + 2 + 2 wraps to 3");
        assert_eq!(host.load_u32(block + 4).unwrap(), 0, "bytes no update touched");
        assert_eq!(host.load_u32(block + 8).unwrap(), 9);
    }

    /// Only device memory of the lent table, in a view, with an integer size, counts privately.
    #[test]
    fn only_lent_device_blocks_count_privately() {
        let mut host = Memory::new(1 << 20);
        let dev = host.alloc(8, AllocKind::Heap, Space::Device, Loc::default()).unwrap();
        let on_host = host.alloc(8, AllocKind::Heap, Space::Host, Loc::default()).unwrap();
        assert!(!host.count_privately((dev >> 32) as u32, 8, 0), "not a view");
        let mut v = host.device_view(&[], false);
        assert!(!v.count_privately((on_host >> 32) as u32, 8, 0));
        assert!(!v.count_privately((dev >> 32) as u32, 3, 0));
        assert!(v.count_privately((dev >> 32) as u32, 8, 0));
    }
}
