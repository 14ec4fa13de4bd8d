//! Large transfers between host and device memory in pieces that may run on several threads at
//! once ([`Memory::copy_in_pieces`]): the device's own pool copies them (the simulator's
//! `SimDevice`), so that moving a 32 MiB array, and making the pages of its fresh copy, takes
//! the cores that run its gangs.
//!
//! The bytes are those [`Memory::copy`] moves: each piece copies its own range, device words
//! whole or merged with a compare-and-swap at the pieces' edges ([`super::shared_write`]), so
//! the result does not depend on the order or the threads of the pieces.

use std::sync::Mutex;

use super::{shared_read, shared_write, MemFault, Memory, Store};

/// Bytes of one piece: 256 pages, large enough that a piece's work dwarfs handing it out.
pub const TRANSFER_PIECE: usize = 1 << 20;

/// Runs `piece(i)` for every `i` in `0..pieces`, in any order, on any threads.
pub type ForEachPiece<'a> = &'a dyn Fn(usize, &(dyn Fn(usize) + Sync));

impl Memory {
    /// [`Memory::copy`] of `len` bytes from `src` to `dst`, in pieces of [`TRANSFER_PIECE`] that
    /// `for_each` runs, when one side is host memory and the other device memory; any other copy
    /// (or one of a single piece) is [`Memory::copy`] itself.
    pub fn copy_in_pieces(&mut self, dst: u64, src: u64, len: u64, for_each: ForEachPiece<'_>) -> Result<(), MemFault> {
        let n = len as usize;
        let pieces = n.div_ceil(TRANSFER_PIECE);
        let (si, di) = ((src >> 32) as usize, (dst >> 32) as usize);
        if pieces < 2 || si == di {
            return self.copy(dst, src, len);
        }
        self.check_readable(src, len)?;
        self.check_writable(dst, len)?;
        let (s, d) = (src as u32 as usize, dst as u32 as usize);
        let words = match (self.get(si).map(|(_, st)| st), self.get(di).map(|(_, st)| st)) {
            // Host to device: both stores are read through shared borrows.
            (Some(Store::Bytes(h)), Some(Store::Shared(w))) => {
                let (from, to) = (&h[s..s + n], &w[..]);
                for_each(pieces, &|i| {
                    let at = i * TRANSFER_PIECE;
                    shared_write(to, d + at, &from[at..n.min(at + TRANSFER_PIECE)]);
                });
                return Ok(());
            }
            (Some(Store::Shared(w)), Some(Store::Bytes(_))) => w.clone(),
            _ => return self.copy(dst, src, len),
        };
        // Device to host: each piece of the host bytes is lent to one piece's thread.
        let Some(Store::Bytes(host)) = self.own_mut(di).map(|a| &mut a.store) else {
            return self.copy(dst, src, len);
        };
        let out: Vec<Mutex<&mut [u8]>> = host[d..d + n].chunks_mut(TRANSFER_PIECE).map(Mutex::new).collect();
        for_each(pieces, &|i| {
            let mut piece = out[i].lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            shared_read(&words, s + i * TRANSFER_PIECE, &mut piece);
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Loc;
    use crate::exec::memory::{AllocKind, Space};

    /// Pieces run in reverse order, as another thread might: the bytes are `copy`'s.
    #[test]
    fn pieces_in_any_order_move_the_bytes_copy_moves() {
        let reverse: ForEachPiece<'_> = &|pieces, piece| (0..pieces).rev().for_each(piece);
        let mut m = Memory::new(u64::MAX);
        let len = 3 * TRANSFER_PIECE as u64 + 13;
        let host = m.alloc(len + 8, AllocKind::Heap, Space::Host, Loc::default()).expect("host block");
        let bytes: Vec<u8> = (0..len + 8).map(|i| (i * 31 % 251) as u8).collect();
        m.write_bytes(host, &bytes).expect("fill host");
        // Unaligned device offsets: the pieces' edges fall inside words.
        let dev = m.alloc(len + 16, AllocKind::Runtime("device copy"), Space::Device, Loc::default()).expect("device block");
        m.copy_in_pieces(dev + 5, host + 3, len, reverse).expect("upload");
        let mut expect = Memory::new(u64::MAX);
        let (h2, d2) = (expect.alloc(len + 8, AllocKind::Heap, Space::Host, Loc::default()).expect("host"), expect.alloc(len + 16, AllocKind::Runtime("device copy"), Space::Device, Loc::default()).expect("device"));
        expect.write_bytes(h2, &bytes).expect("fill");
        expect.copy(d2 + 5, h2 + 3, len).expect("copy");
        assert_eq!(m.read_bytes(dev, len + 16).expect("read").into_owned(), expect.read_bytes(d2, len + 16).expect("read").into_owned());
        // And back, into a fresh host block at another offset.
        let back = m.alloc(len + 8, AllocKind::Heap, Space::Host, Loc::default()).expect("host block");
        m.copy_in_pieces(back + 1, dev + 5, len, reverse).expect("download");
        assert_eq!(m.read_bytes(back + 1, len).expect("read").into_owned(), bytes[3..3 + len as usize].to_vec());
        assert_eq!(m.read_bytes(back, 1).expect("read")[0], 0);
    }
}
