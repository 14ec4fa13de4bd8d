//! Device memory as shared little-endian words (see "Sharing with device threads" in
//! [`super`]): byte ranges read and written word by word with relaxed atomics, typed loads and
//! stores of one element, runs of elements at a constant stride, and the words `atomic`
//! constructs update.

use super::*;

/// Bytes that [`Memory::copy`] between device allocations and [`Memory::fill`] of device memory
/// stage at a time (on the stack).
pub(super) const CHUNK: usize = 4096;

/// `(start, length)` of the pieces of at most [`CHUNK`] bytes that cover `n` bytes, in order.
pub(super) fn chunks(n: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..n).step_by(CHUNK).map(move |at| (at, (n - at).min(CHUNK)))
}

/// Read `out.len()` bytes at byte offset `off` of shared words: the words the range covers
/// whole are read as words, the partial ones at its ends byte by byte.
pub(super) fn shared_read(w: &[AtomicU64], off: usize, out: &mut [u8]) {
    let head = ((8 - off % 8) % 8).min(out.len());
    let (first, rest) = out.split_at_mut(head);
    read_partial(w, off, first);
    let whole = rest.len() / 8 * 8;
    let (body, last) = rest.split_at_mut(whole);
    let cells = &w[(off + head) / 8..];
    for (o, cell) in body.chunks_exact_mut(8).zip(cells) {
        o.copy_from_slice(&cell.load(Relaxed).to_le_bytes());
    }
    read_partial(w, off + head + whole, last);
}

/// [`shared_read`] of bytes within one word.
fn read_partial(w: &[AtomicU64], off: usize, out: &mut [u8]) {
    if out.is_empty() {
        return;
    }
    let word = w[off / 8].load(Relaxed).to_le_bytes();
    let from = off % 8;
    out.copy_from_slice(&word[from..from + out.len()]);
}

/// Write `data` at byte offset `off` of shared words: whole words are stored, partial ones (at
/// the ends of the range) merged with a compare-and-swap so that concurrent writes to the other
/// bytes of the word (by other gangs, to other elements) are kept.
pub(super) fn shared_write(w: &[AtomicU64], off: usize, data: &[u8]) {
    let head = ((8 - off % 8) % 8).min(data.len());
    let (first, rest) = data.split_at(head);
    write_partial(w, off, first);
    let whole = rest.len() / 8 * 8;
    let (body, last) = rest.split_at(whole);
    let cells = &w[(off + head) / 8..];
    for (b, cell) in body.chunks_exact(8).zip(cells) {
        cell.store(b.try_into().map(u64::from_le_bytes).unwrap_or(0), Relaxed);
    }
    write_partial(w, off + head + whole, last);
}

/// [`shared_write`] of bytes within one word.
fn write_partial(w: &[AtomicU64], off: usize, data: &[u8]) {
    if data.is_empty() {
        return;
    }
    let from = off % 8;
    let n = data.len();
    let mut bytes = [0u8; 8];
    bytes[from..from + n].copy_from_slice(data);
    let mask = if n == 8 { u64::MAX } else { ((1u64 << (n * 8)) - 1) << (from * 8) };
    let value = u64::from_le_bytes(bytes);
    let _ = w[off / 8].fetch_update(Relaxed, Relaxed, |old| Some((old & !mask) | value));
}

/// Load a little-endian value of `N <= 8` bytes at byte offset `off` of shared words.
#[inline(always)]
pub(super) fn shared_load<const N: usize>(w: &[AtomicU64], off: usize) -> Option<[u8; N]> {
    let from = off % 8;
    if from + N <= 8 {
        let word = w.get(off / 8)?.load(Relaxed);
        let v = word >> (from * 8);
        let mut out = [0u8; N];
        out.copy_from_slice(&v.to_le_bytes()[..N]);
        Some(out)
    } else {
        w.get((off + N - 1) / 8)?;
        let mut out = [0u8; N];
        shared_read(w, off, &mut out);
        Some(out)
    }
}

/// Store a little-endian value of `N <= 8` bytes at byte offset `off` of shared words.
#[inline(always)]
pub(super) fn shared_store<const N: usize>(w: &[AtomicU64], off: usize, v: [u8; N]) -> Option<()> {
    w.get((off + N - 1) / 8)?;
    if N == 8 && off.is_multiple_of(8) {
        let mut b = [0u8; 8];
        b.copy_from_slice(&v[..]);
        w[off / 8].store(u64::from_le_bytes(b), Relaxed);
    } else {
        shared_write(w, off, &v);
    }
    Some(())
}

/// A little-endian value of `N <= 8` bytes as a zero-extended word.
#[inline(always)]
fn le_word<const N: usize>(b: [u8; N]) -> u64 {
    let mut w = [0u8; 8];
    w[..N].copy_from_slice(&b);
    u64::from_le_bytes(w)
}

/// Runs of accesses: `count` values of `N` bytes at `ptr`, `ptr + step`, `ptr + 2*step`, … (the
/// loads and the store of a vectorised loop, `compile/vector.rs`). Each succeeds exactly where
/// every one of the single accesses (`load_*`, `store_*`) would, and does what they would do;
/// where one of them would fault it does nothing and answers `false`, so that the caller makes the
/// accesses one by one and the fault is reported at the access that makes it.
impl Memory {
    /// The allocation and first byte offset of a run, when every access of it succeeds.
    fn run_bounds(&self, ptr: u64, step: i64, count: usize, n: usize, write: bool) -> Option<(usize, i64)> {
        let id = (ptr >> 32) as usize;
        let (a, store) = self.get(id)?;
        let limit = match store {
            Store::Bytes(b) if !write || !a.read_only => b.len() as u64,
            Store::Slab(_) if a.live && (!write || !a.read_only) => a.size(),
            Store::Frozen(b) if !write => b.len() as u64,
            Store::Shared(_) => a.size(),
            _ => return None,
        };
        let first = ptr as u32 as i64;
        let last = first.checked_add(step.checked_mul((count as i64).checked_sub(1)?)?)?;
        // Offsets below 2^31 never carry into the allocation bits of the pointer word.
        let (lo, hi) = (first.min(last), first.max(last));
        (lo >= a.lo() as i64 && hi.checked_add(n as i64)? <= limit.min(MAX_ALLOC) as i64).then_some((id, first))
    }

    /// Load `out.len()` values of `N` bytes (zero-extended) at `ptr + i*step`.
    pub fn load_run<const N: usize>(&self, ptr: u64, step: i64, out: &mut [u64]) -> bool {
        let Some((id, first)) = self.run_bounds(ptr, step, out.len(), N, false) else {
            return false;
        };
        let Some((a, store)) = self.get(id) else {
            return false;
        };
        let mut off = first;
        if let Some(b) = self.host_bytes_of(a, store) {
            for o in out.iter_mut() {
                let at = off as usize;
                let mut v = [0u8; N];
                v.copy_from_slice(&b[at..at + N]);
                *o = le_word(v);
                off += step;
            }
            return true;
        }
        let Store::Shared(w) = store else {
            return false;
        };
        if N == 8 && first % 8 == 0 && step > 0 && step % 8 == 0 {
            // Whole aligned words, ascending: the common run of a `double` array.
            let words = w.get(first as usize / 8..).unwrap_or(&[]).iter().step_by(step as usize / 8);
            let mut filled = 0;
            for (o, x) in out.iter_mut().zip(words) {
                *o = x.load(Relaxed);
                filled += 1;
            }
            return filled == out.len();
        }
        for o in out.iter_mut() {
            match shared_load::<N>(w, off as usize) {
                Some(v) => *o = le_word(v),
                None => return false,
            }
            off += step;
        }
        true
    }

    /// Store the low `N` bytes of each of `vals` at `ptr + i*step`, in order.
    pub fn store_run<const N: usize>(&mut self, ptr: u64, step: i64, vals: &[u64]) -> bool {
        let Some((id, first)) = self.run_bounds(ptr, step, vals.len(), N, true) else {
            return false;
        };
        let mut off = first;
        if let Some(b) = self.own_bytes_mut(id) {
            for v in vals {
                let at = off as usize;
                b[at..at + N].copy_from_slice(&v.to_le_bytes()[..N]);
                off += step;
            }
            return true;
        }
        match self.get(id).map(|(_, st)| st) {
            Some(Store::Shared(w)) if N == 8 && first % 8 == 0 && step > 0 && step % 8 == 0 => {
                let words = w.get(first as usize / 8..).unwrap_or(&[]).iter().step_by(step as usize / 8);
                let mut stored = 0;
                for (x, v) in words.zip(vals) {
                    x.store(*v, Relaxed);
                    stored += 1;
                }
                if stored != vals.len() {
                    return false;
                }
            }
            Some(Store::Shared(w)) => {
                for v in vals {
                    let mut bytes = [0u8; N];
                    bytes.copy_from_slice(&v.to_le_bytes()[..N]);
                    if shared_store::<N>(w, off as usize, bytes).is_none() {
                        return false;
                    }
                    off += step;
                }
            }
            _ => return false,
        }
        true
    }
}

/// A value of `N` bytes at byte offset `off` of store `s` of allocation `a`, when it lies inside.
#[inline(always)]
fn load_at<const N: usize>(slabs: &slabs::Slabs, a: &Allocation, s: &Store, off: usize) -> Option<[u8; N]> {
    let bytes = match s {
        Store::Bytes(b) => b.get(off..off + N)?,
        Store::Slab(b) => slabs.bytes(*b, a.size as usize).get(off..off + N)?,
        Store::Shared(w) if (off + N) as u64 <= a.size() && off as u64 >= a.lo() => return shared_load::<N>(w, off),
        Store::Frozen(b) => b.get(off..off + N)?,
        _ => return None,
    };
    let mut arr = [0u8; N];
    arr.copy_from_slice(bytes);
    Some(arr)
}

/// Store `v` at byte offset `off` of allocation `a` when its store is device memory and the value
/// lies inside; `false` otherwise.
#[inline(always)]
fn store_shared<const N: usize>(s: &Store, (lo, size): (u64, u64), off: usize, v: [u8; N]) -> bool {
    matches!(s, Store::Shared(w) if (off + N) as u64 <= size && off as u64 >= lo && shared_store::<N>(w, off, v).is_some())
}

macro_rules! access {
    ($load:ident, $store:ident, $t:ty, $n:expr) => {
        impl Memory {
            #[inline(always)]
            pub fn $load(&self, ptr: u64) -> Result<$t, MemFault> {
                match self.get((ptr >> 32) as usize).and_then(|(a, s)| load_at::<$n>(&self.slabs, a, s, ptr as u32 as usize)) {
                    Some(arr) => Ok(<$t>::from_le_bytes(arr)),
                    None => Err(self.fault(ptr, $n, false)),
                }
            }
            #[inline]
            pub fn $store(&mut self, ptr: u64, v: $t) -> Result<(), MemFault> {
                let (off, id) = (ptr as u32 as usize, (ptr >> 32) as usize);
                let done = match self.allocs.get_mut(id.wrapping_sub(self.base_len)) {
                    Some(a) => match &mut a.store {
                        Store::Bytes(b) if !a.read_only => b.get_mut(off..off + $n).map(|b| b.copy_from_slice(&v.to_le_bytes())).is_some(),
                        Store::Slab(b) if !a.read_only => self.slabs.bytes_mut(*b, a.size as usize).get_mut(off..off + $n).map(|b| b.copy_from_slice(&v.to_le_bytes())).is_some(),
                        s => store_shared::<$n>(s, (a.lo as u64, a.size as u64), off, v.to_le_bytes()),
                    },
                    // The lent table of a device view: only its device memory can be written.
                    None => self.lent_entry(id).is_some_and(|(a, s)| store_shared::<$n>(s, (a.lo(), a.size()), off, v.to_le_bytes())),
                };
                if done {
                    Ok(())
                } else {
                    Err(self.fault(ptr, $n, true))
                }
            }
        }
    };
}

access!(load_u8, store_u8, u8, 1);
access!(load_u16, store_u16, u16, 2);
access!(load_u32, store_u32, u32, 4);
access!(load_u64, store_u64, u64, 8);
access!(load_f32, store_f32, f32, 4);
access!(load_f64, store_f64, f64, 8);

impl Memory {
    /// The word of device memory that holds the whole scalar of kind `k` at `ptr`, and the bit
    /// position of its first byte in it, for an atomic read-modify-write of the word
    /// ([`super::atomic::update`]); `None` when the access would fault, is not to device memory,
    /// or straddles two words. The checks are a load's and a store's (`load_at`,
    /// `store_shared`: inside the mapped part of the allocation).
    pub fn atomic_word(&self, k: Kind, ptr: u64) -> Option<(&AtomicU64, u32)> {
        let (off, n) = (ptr as u32 as u64, k.bytes());
        let (a, store) = self.get((ptr >> 32) as usize)?;
        let Store::Shared(w) = store else { return None };
        if off < a.lo() || off + n > a.size() || off % 8 + n > 8 {
            return None;
        }
        w.get((off / 8) as usize).map(|cell| (cell, (off % 8 * 8) as u32))
    }

    /// Whether `ptr` points into device memory (shared by the device threads).
    pub fn is_shared(&self, ptr: u64) -> bool {
        matches!(self.get((ptr >> 32) as usize), Some((_, Store::Shared(_))))
    }
}

impl Memory {
    /// Load a scalar of kind `k` as its canonical word (see [`super::value`]: a `long double` is
    /// 16 bytes, the f64 then zeros; a record or complex value is its address).
    #[inline]
    pub fn load_kind(&self, k: Kind, p: u64) -> Result<u64, MemFault> {
        Ok(match k {
            Kind::Bool | Kind::U8 | Kind::I8 => k.from_raw(self.load_u8(p)? as u64),
            Kind::U16 | Kind::I16 => k.from_raw(self.load_u16(p)? as u64),
            Kind::U32 | Kind::F32 | Kind::I32 => k.from_raw(self.load_u32(p)? as u64),
            Kind::I64 | Kind::U64 | Kind::F64 | Kind::Ptr => self.load_u64(p)?,
            Kind::LongDouble => {
                self.read_bytes(p, 16)?;
                self.load_u64(p)?
            }
            Kind::Void | Kind::Aggregate => p,
        })
    }

    /// Store a scalar word of kind `k`.
    #[inline]
    pub fn store_kind(&mut self, k: Kind, p: u64, v: u64) -> Result<(), MemFault> {
        match k {
            Kind::Bool | Kind::U8 | Kind::I8 => self.store_u8(p, v as u8),
            Kind::U16 | Kind::I16 => self.store_u16(p, v as u16),
            Kind::U32 | Kind::I32 | Kind::F32 => self.store_u32(p, v as u32),
            Kind::I64 | Kind::U64 | Kind::F64 | Kind::Ptr => self.store_u64(p, v),
            Kind::LongDouble => {
                let mut b = [0u8; 16];
                b[..8].copy_from_slice(&v.to_le_bytes());
                self.write_bytes(p, &b)
            }
            Kind::Void | Kind::Aggregate => Ok(()),
        }
    }
}
