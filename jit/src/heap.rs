//! The process heap between the front end and the run (issue 15: "`check` ≤ 3× the program's
//! data in memory").
//!
//! The front end frees its syntax trees once the program is lowered; with glibc's allocator
//! the freed blocks lie below the lowered program and stay resident, holes in the heap that
//! only small allocations of the run may fill again (a program's arrays are mapped afresh).
//! For a program that includes `<math.h>`, the trees of the header's declarations are about
//! 2.5 MB of the peak. No safe call gives memory back from the middle of the heap, so
//! [`release_free_memory`] asks glibc to (`malloc_trim`), once, before the run.
//!
//! It sits in this crate because it is a foreign call (the workspace allows `unsafe` only here
//! and in cuda-backend); on other C libraries it does nothing.

/// Return the heap's free pages to the system: every whole page inside a free block of every
/// malloc arena (glibc's `malloc_trim(0)`; the memory stays available to later allocations,
/// which fault its pages in again). Costs well under a millisecond after a small program's
/// front end.
pub fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            fn malloc_trim(pad: usize) -> std::ffi::c_int;
        }
        // SAFETY: `malloc_trim` has no preconditions: it takes each arena's lock, consolidates
        // its free blocks and `madvise`s their whole pages away; no memory in use is touched and
        // no pointer is invalidated. Its result (whether memory was released) is not needed.
        unsafe {
            malloc_trim(0);
        }
    }
}

/// From now on, a freed small block joins its free neighbours at once instead of waiting in a
/// fast list for a block of its size (glibc's `mallopt(M_MXFAST, 0)`: no fast bins).
///
/// Why (issue 15, serial costs): glibc keeps freed blocks of up to 128 bytes unmerged, and the
/// next request of 1 KiB or more (or a `malloc_trim`) merges every one of them first, in one
/// pass. A program that frees a large linked structure and then allocates an array, or maps one
/// to the device, paid that pass at once: calltree frees a tree of 1,048,575 nodes (24-byte
/// blocks), and the device copy of its `copyout` array, the next large allocation, waited
/// 20 ms of CPU for the merge (most of its unexplained transfer time). Merging at each free
/// costs less work in all (callgrind, calltree: +48 M instructions in the frees, −75 M in the
/// merge), spread over the frees, where the freed neighbours are still in cache; a block freed
/// and soon allocated again of the same size is still served by glibc's per-thread cache (7
/// blocks a size) as before. Where the C library is not glibc, nothing changes.
pub fn merge_freed_blocks_at_once() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        const M_MXFAST: std::ffi::c_int = 1;
        extern "C" {
            fn mallopt(param: std::ffi::c_int, value: std::ffi::c_int) -> std::ffi::c_int;
        }
        // SAFETY: `mallopt` has no preconditions: it takes the main arena's lock, merges the
        // blocks now in fast bins (as `malloc_trim` does) and sets the fast-bin limit; no block
        // in use is touched and no pointer is invalidated. Its result (whether the option was
        // accepted) is not needed: refused, the allocator behaves as before.
        unsafe {
            mallopt(M_MXFAST, 0);
        }
    }
}

/// Ask for huge pages (2 MiB) under the block of `len` bytes at `addr`: Linux
/// `madvise(MADV_HUGEPAGE)` on the whole huge pages inside it, so that first writes fault
/// 2 MiB at a time instead of 4 KiB (issue 15: a program's large arrays and their device
/// copies; installed as `accsim_core::exec::memory::advice`'s large-block advice). Where the
/// system has no transparent huge pages, or refuses, nothing changes.
pub fn advise_huge_pages(addr: usize, len: usize) {
    #[cfg(target_os = "linux")]
    {
        const HUGE_PAGE: usize = 2 << 20;
        const MADV_HUGEPAGE: std::ffi::c_int = 14;
        extern "C" {
            fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: std::ffi::c_int) -> std::ffi::c_int;
        }
        let start = addr.next_multiple_of(HUGE_PAGE);
        let end = addr.saturating_add(len) / HUGE_PAGE * HUGE_PAGE;
        if end > start {
            // SAFETY: `[start, end)` lies inside the caller's live block `[addr, addr + len)`
            // and starts on a page boundary, as `madvise` requires. `MADV_HUGEPAGE` only tells
            // the kernel how to back the range's pages: no byte of it (or of memory outside it)
            // changes, no mapping is added or removed, and no pointer is invalidated. A failure
            // (no transparent huge pages) leaves the range as it was; its result is not needed.
            unsafe {
                madvise(start as *mut std::ffi::c_void, end - start, MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (addr, len);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With fast bins off, blocks freed in bulk and a large zeroed block made next behave as
    /// before: the large block reads zero and every small block kept its bytes until freed.
    #[test]
    fn merging_freed_blocks_at_once_keeps_blocks_intact() {
        merge_freed_blocks_at_once();
        let nodes: Vec<Box<[u64; 3]>> = (0..100_000u64).map(|i| Box::new([i, i * 3, !i])).collect();
        assert!(nodes.iter().enumerate().all(|(i, n)| **n == [i as u64, i as u64 * 3, !(i as u64)]));
        drop(nodes);
        let large = vec![0u64; 1 << 20];
        assert!(large.iter().all(|&w| w == 0));
        release_free_memory();
        let again: Vec<Box<u32>> = (0..1000).map(Box::new).collect();
        assert_eq!(again.iter().map(|b| **b).sum::<u32>(), 999 * 1000 / 2);
    }
}
