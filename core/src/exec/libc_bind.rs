//! The one place where the interpreter's C library shim meets the pure C library pieces
//! (formatting, glibc's `random`, number parsing). At merge, replace the `pure` import with
//! `crate::libc` and adjust these adapters to its final names; nothing else changes.

use super::libc_pure_stub as pure;

pub use pure::printf::{PrintfArgs, PrintfError};

/// Format like glibc's printf, appending to `out`.
pub fn format(fmt: &[u8], args: &mut dyn PrintfArgs, out: &mut Vec<u8>) -> Result<(), PrintfError> {
    pure::printf::format(fmt, args, out)
}

/// glibc's `random()` generator (also behind `rand()`).
#[derive(Clone, Debug)]
pub struct Random(pure::rand::GlibcRandom);

impl Random {
    pub fn new(seed: u32) -> Self {
        Random(pure::rand::GlibcRandom::new(seed))
    }
    pub fn next_int(&mut self) -> i32 {
        self.0.next()
    }
}

/// `strtol`/`strtoll`: (value, bytes consumed (0: no conversion), out of range).
pub fn strtol(s: &[u8], base: u32) -> (i64, usize, bool) {
    pure::strconv::strtol(s, base)
}

/// `strtoul`/`strtoull`: (value, bytes consumed, out of range).
pub fn strtoul(s: &[u8], base: u32) -> (u64, usize, bool) {
    pure::strconv::strtoul(s, base)
}

/// `strtod`: (value, bytes consumed).
pub fn strtod(s: &[u8]) -> (f64, usize) {
    pure::strconv::strtod(s)
}

/// `strtof`: (value, bytes consumed).
pub fn strtof(s: &[u8]) -> (f32, usize) {
    pure::strconv::strtof(s)
}
