//! The one place where the interpreter's C library shim meets the pure C library pieces
//! ([`crate::libc`]: formatting, glibc's `random`, number parsing, ctype).

use crate::libc as pure;

pub use pure::printf::{PrintfArgs, PrintfError};

/// `errno` values the adapters report.
pub const ERANGE: u32 = 34;
pub const EINVAL: u32 = 22;

/// Format like glibc's printf, appending to `out`.
pub fn format(fmt: &[u8], args: &mut dyn PrintfArgs, out: &mut Vec<u8>) -> Result<(), PrintfError> {
    pure::printf::format(fmt, args, out)
}

/// The errno glibc's printf sets when it fails with `e` and returns -1; `None` when glibc would
/// not detect the error (then it is the program's bug or accsim's limit, and the run stops).
pub fn printf_errno(e: &PrintfError) -> Option<u32> {
    e.glibc_errno().map(|v| v as u32)
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

/// `strtol`/`strtoll`: (value, bytes consumed (0: no conversion), errno).
pub fn strtol(s: &[u8], base: i32) -> (i64, usize, Option<u32>) {
    if base != 0 && !(2..=36).contains(&base) {
        return (0, 0, Some(EINVAL));
    }
    let p = pure::strconv::strtoll(s, base);
    (p.value, p.consumed, p.errno.map(errno))
}

/// `strtoul`/`strtoull`: (value, bytes consumed, errno).
pub fn strtoul(s: &[u8], base: i32) -> (u64, usize, Option<u32>) {
    if base != 0 && !(2..=36).contains(&base) {
        return (0, 0, Some(EINVAL));
    }
    let p = pure::strconv::strtoull(s, base);
    (p.value, p.consumed, p.errno.map(errno))
}

/// `strtod`: (value, bytes consumed, errno).
pub fn strtod(s: &[u8]) -> (f64, usize, Option<u32>) {
    let p = pure::strconv::strtod(s);
    (p.value, p.consumed, p.errno.map(errno))
}

/// `strtof`: (value, bytes consumed, errno).
pub fn strtof(s: &[u8]) -> (f32, usize, Option<u32>) {
    let p = pure::strconv::strtof(s);
    (p.value, p.consumed, p.errno.map(errno))
}

/// glibc's C-locale `__ctype_b` entry of `c` (-128..=255).
pub fn ctype_bits(c: i32) -> u16 {
    pure::ctype::class_bits(c) as u16
}

/// C-locale `toupper`/`tolower` of `c` (-128..=255; other values unchanged).
pub fn toupper(c: i32) -> i32 {
    pure::ctype::toupper(c)
}
pub fn tolower(c: i32) -> i32 {
    pure::ctype::tolower(c)
}

fn errno(e: pure::strconv::Errno) -> u32 {
    match e {
        pure::strconv::Errno::Overflow | pure::strconv::Errno::Underflow => ERANGE,
        pure::strconv::Errno::InvalidBase => EINVAL,
    }
}
