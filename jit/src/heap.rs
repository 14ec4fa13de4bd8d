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
