//! Advice to the operating system about the pages of large blocks (issue 15: "on a 16-core
//! machine, gang-parallel programs faster than gcc -O2").
//!
//! A program's arrays and their device copies are fresh zero pages ([`super::zeroed_words`],
//! `vec![0; n]`: `calloc`), made one 4 KiB page per fault when first written: a 32 MiB array
//! and its device copy cost 16,384 faults, most of the set-up of a program that copies a few
//! large arrays in and out (measured on the 16-core host: twice gcc -O2's faults). A block of at
//! least [`LARGE_BLOCK`] bytes is offered to the operating system for huge pages (Linux
//! `madvise(MADV_HUGEPAGE)`: 2 MiB per fault) through the advice the program's driver installs
//! ([`set_large_block_advice`]; the call is a foreign one, made by the native-code crate, the
//! only one with `unsafe`; `ACCSIM_HUGE_PAGES=0` leaves it out). Advice changes how pages are backed, never what they hold: the
//! bytes every read sees are those without it, and without advice nothing changes.

use std::sync::OnceLock;

/// The smallest block advised: two huge pages (an advised range starts and ends on a 2 MiB
/// boundary inside the block).
pub const LARGE_BLOCK: usize = 4 << 20;

/// What to call for a large block: its address and length in bytes.
pub type BlockAdvice = fn(usize, usize);

static ADVICE: OnceLock<BlockAdvice> = OnceLock::new();

/// Install the advice given for every block of [`LARGE_BLOCK`] bytes or more allocated from
/// now on (the first call wins).
pub fn set_large_block_advice(advice: BlockAdvice) {
    let _ = ADVICE.set(advice);
}

/// Give the installed advice for the block of `len` bytes at `addr`, when it is large.
pub(super) fn advise(addr: usize, len: usize) {
    if len >= LARGE_BLOCK {
        if let Some(advice) = ADVICE.get() {
            advice(addr, len);
        }
    }
}

/// Device words (`super::zeroed_words`), advised when large.
pub(super) fn advised_words(words: Box<[std::sync::atomic::AtomicU64]>) -> Box<[std::sync::atomic::AtomicU64]> {
    advise(words.as_ptr() as usize, words.len() * 8);
    words
}

/// `n` zero bytes of host memory (zeroed lazily, as `calloc`), advised when large; `None` when
/// the system gives no more (a process under an address-space limit, `ulimit -v`: the program's
/// allocation then fails with the memory-limit diagnostic rather than aborting accsim).
pub(super) fn host_bytes(n: usize) -> Option<Box<[u8]>> {
    let bytes = zeroed_bytes(n)?;
    advise(bytes.as_ptr() as usize, n);
    Some(bytes)
}

/// `n` zero bytes, zeroed lazily (`calloc`), or `None` when the system gives no more.
fn zeroed_bytes(n: usize) -> Option<Box<[u8]>> {
    bytemuck::allocation::try_zeroed_slice_box::<u8>(n).ok()
}

/// The size of a huge page the advice asks for (x86-64 Linux: 2 MiB).
const HUGE_PAGE: usize = 2 << 20;

/// At least `n` zero bytes of host memory from byte `skip` of the returned block (zeroed lazily,
/// as `calloc`): with advice installed and `n` large, `skip` puts them on a huge-page boundary,
/// so that every page of them can be a huge one (a block of the process allocator starts
/// anywhere; advice covers only the whole huge pages inside it, half of a 4 MiB block). The
/// bytes before `skip` and past `skip + n` are never touched: they cost no memory.
/// `None` when the system gives no more ([`host_bytes`]).
pub(super) fn aligned_host_bytes(n: usize) -> Option<(Box<[u8]>, usize)> {
    if n < LARGE_BLOCK || ADVICE.get().is_none() {
        return Some((zeroed_bytes(n)?, 0));
    }
    let bytes = zeroed_bytes(n.checked_add(HUGE_PAGE)?)?;
    let at = bytes.as_ptr() as usize;
    let skip = at.next_multiple_of(HUGE_PAGE) - at;
    advise(at + skip, n);
    Some((bytes, skip))
}

/// Room for `additional` more elements in `v` (a table that grows by one entry per
/// allocation: the allocation table, a span table), as `Vec::reserve` makes it, except that with
/// advice installed a table that outgrows a large block moves into a block 16 times its size,
/// advised before its entries are copied in (issue 15: calltree's 2^20 heap blocks faulted
/// 10,240 pages of a 40 MiB allocation table and 4,096 of a 16 MiB span table one 4 KiB page at a
/// time; growing in place by `realloc`, an advised table is no longer moved by `mremap` but copied
/// into a fresh unadvised block, which made the faults go up). The untouched rest of the block
/// costs no memory; a table copied at 4 MiB holds 64 MiB before its next move.
/// `false` when there is no room to be had (an address-space limit, `ulimit -v`): the caller
/// reports a full memory instead of the process aborting in `push`.
#[inline(always)]
pub fn reserve_advised<T>(v: &mut Vec<T>, additional: usize) -> bool {
    v.capacity() - v.len() >= additional || grow_advised(v, additional)
}

/// [`reserve_advised`] when the vector is full.
#[cold]
#[inline(never)]
fn grow_advised<T>(v: &mut Vec<T>, additional: usize) -> bool {
    let need = v.len().saturating_add(additional);
    let bytes = v.capacity().saturating_mul(std::mem::size_of::<T>());
    if bytes < LARGE_BLOCK || ADVICE.get().is_none() {
        return v.try_reserve(additional).is_ok();
    }
    // Sixteen times the room is address space, not memory, but a process under an address-space
    // limit (`ulimit -v`) may not get it: then the table grows as `Vec` grows it.
    let mut fresh = Vec::new();
    if fresh.try_reserve_exact(need.max(v.capacity().saturating_mul(16))).is_err() {
        return v.try_reserve(additional).is_ok();
    }
    advise(fresh.as_ptr() as usize, fresh.capacity() * std::mem::size_of::<T>());
    fresh.append(v);
    *v = fresh;
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Loc;
    use crate::exec::memory::{AllocKind, Memory, Space};
    use std::sync::Mutex;

    static ADVISED: Mutex<Vec<usize>> = Mutex::new(Vec::new());

    fn record(_addr: usize, len: usize) {
        ADVISED.lock().unwrap_or_else(|p| p.into_inner()).push(len);
    }

    /// A table that cannot grow (here: more room than an address space has; in a process under
    /// `ulimit -v`, a block the system refuses) is reported, not grown by `push`'s abort; a table
    /// with room grows as `Vec::reserve` grows it.
    #[test]
    fn a_table_without_room_is_reported() {
        let mut v: Vec<u64> = vec![1, 2, 3];
        assert!(!reserve_advised(&mut v, usize::MAX / 2));
        assert_eq!(v, [1, 2, 3]);
        assert!(reserve_advised(&mut v, 100));
        assert!(v.capacity() >= 103);
    }

    /// Host and device blocks of `LARGE_BLOCK` bytes or more are advised, smaller ones not, and
    /// an advised block reads as zeros and keeps what is written (other tests of this binary may
    /// advise blocks of their own at the same time: only these sizes are looked for).
    #[test]
    fn large_blocks_are_advised_and_keep_their_bytes() {
        set_large_block_advice(record);
        let mut m = Memory::new(u64::MAX);
        let (big, small) = (LARGE_BLOCK as u64 + 4093, LARGE_BLOCK as u64 - 8);
        let host = m.alloc(big, AllocKind::Heap, Space::Host, Loc::default()).expect("host block");
        let dev = m.alloc(big + 8, AllocKind::Runtime("device copy"), Space::Device, Loc::default()).expect("device block");
        m.alloc(small, AllocKind::Heap, Space::Host, Loc::default()).expect("small block");
        let advised = ADVISED.lock().unwrap_or_else(|p| p.into_inner()).clone();
        assert!(advised.contains(&(big as usize)), "host block advised: {advised:?}");
        assert!(advised.contains(&(big as usize + 8).div_ceil(8).saturating_mul(8)), "device block advised: {advised:?}");
        assert!(!advised.contains(&(small as usize)), "small block not advised: {advised:?}");
        assert!(m.read_bytes(host + big - 16, 16).expect("read").iter().all(|&b| b == 0));
        m.store_u64(dev + big - 8, 0x1122_3344_5566_7788).expect("store");
        assert_eq!(m.load_u64(dev + big - 8).expect("load"), 0x1122_3344_5566_7788);
    }
}
