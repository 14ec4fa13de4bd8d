//! The printf family of the C library shims ([`super`]): the arguments (call words or a
//! `va_list`), glibc's formatting ([`crate::exec::libc_bind`]) and where a call writes.

use super::{set_errno, store_string, write_stream};
use crate::diag::{Diagnostic, Loc};
use crate::exec::libc_bind::{self, PrintfArgs, PrintfError};
use crate::exec::machine::{Machine, Trap};
use crate::exec::memory::MemFault;
use crate::exec::value::Kind;

/// printf arguments: call words or a `va_list` area.
struct Args<'a, 'e> {
    m: &'a mut Machine<'e>,
    words: &'a [u64],
    /// Reading from a `va_list`: the address of the next word.
    va: Option<u64>,
    next: usize,
    fault: Option<MemFault>,
}

impl Args<'_, '_> {
    fn word(&mut self) -> Result<u64, PrintfError> {
        let i = self.next;
        self.next += 1;
        match self.va {
            None => self
                .words
                .get(i)
                .copied()
                .ok_or(PrintfError::MissingArgument { index: i + 1 }),
            Some(p) => self
                .m
                .mem
                .load_u64(p.wrapping_add(8 * i as u64))
                .map_err(|f| {
                    self.fault = Some(f);
                    PrintfError::MissingArgument { index: i + 1 }
                }),
        }
    }
}

impl PrintfArgs for Args<'_, '_> {
    fn next_word(&mut self) -> Result<u64, PrintfError> {
        self.word()
    }
    fn next_double(&mut self) -> Result<f64, PrintfError> {
        self.word().map(f64::from_bits)
    }
    fn next_long_double(&mut self) -> Result<f64, PrintfError> {
        self.word().map(f64::from_bits)
    }
    fn read_c_string(&mut self, ptr: u64, max: Option<usize>) -> Result<Vec<u8>, PrintfError> {
        self.m.mem.read_c_string(ptr, max).map_err(|f| {
            self.fault = Some(f);
            PrintfError::InvalidPointer {
                ptr,
                conversion: 's',
            }
        })
    }
    fn store_count(&mut self, ptr: u64, count: i64, size_bytes: u8) -> Result<(), PrintfError> {
        let k = match size_bytes {
            1 => Kind::U8,
            2 => Kind::U16,
            4 => Kind::U32,
            _ => Kind::U64,
        };
        self.m.store_kind(k, ptr, count as u64).map_err(|f| {
            self.fault = Some(f);
            PrintfError::InvalidPointer {
                ptr,
                conversion: 'n',
            }
        })
    }
}

/// Format `fmt` with `words` (or the `va_list` at `va_list_addr`). `Ok(Err(partial))`: glibc
/// detects the error, writes `partial` and returns -1 (errno is set).
fn format(
    m: &mut Machine,
    fmt_ptr: u64,
    words: &[u64],
    va_list_addr: Option<u64>,
    loc: Loc,
) -> Result<Result<Vec<u8>, Vec<u8>>, Trap> {
    let fmt = m
        .mem
        .read_c_string(fmt_ptr, None)
        .map_err(|f| m.fault(f, loc))?;
    let va = match va_list_addr {
        Some(ap) => Some(m.mem.load_u64(ap).map_err(|f| m.fault(f, loc))?),
        None => None,
    };
    let mut out = Vec::new();
    let mut args = Args {
        m,
        words,
        va,
        next: 0,
        fault: None,
    };
    let r = libc_bind::format(&fmt, &mut args, &mut out);
    let fault = args.fault;
    match r {
        Ok(()) => Ok(Ok(out)),
        Err(e) if fault.is_none() && libc_bind::printf_errno(&e).is_some() => {
            let errno = libc_bind::printf_errno(&e).unwrap_or(0);
            set_errno(m, errno);
            Ok(Err(out))
        }
        Err(e) => Err(match fault {
            Some(f) => m.fault(f, loc),
            None => match e {
                PrintfError::Unsupported(_) => {
                    Trap::error(Diagnostic::unsupported(e.to_string(), loc))
                }
                _ => Trap::error(Diagnostic::error("printf", e.to_string(), loc)),
            },
        }),
    }
}

/// Where a printf-family call writes.
pub(super) enum Out {
    Stdout,
    Stream(u64),
    /// A buffer and, for the `n` variants, its size.
    Buffer(u64, Option<u64>),
}

/// A printf-family call: format, write, and return glibc's result (bytes, or -1).
pub(super) fn printf_to(
    m: &mut Machine,
    out: Out,
    fmt: u64,
    words: &[u64],
    va: Option<u64>,
    loc: Loc,
) -> Result<u64, Trap> {
    let (bytes, failed) = match format(m, fmt, words, va, loc)? {
        Ok(b) => (b, false),
        Err(b) => (b, true),
    };
    match out {
        Out::Stdout => m.write_stdout(&bytes),
        Out::Stream(fp) => {
            if !write_stream(m, fp, &bytes, loc)? {
                return Ok(u64::MAX);
            }
        }
        Out::Buffer(buf, cap) => {
            if !failed {
                store_string(m, buf, &bytes, cap, loc)?;
            }
        }
    }
    Ok(if failed {
        u64::MAX
    } else {
        bytes.len().min(i32::MAX as usize) as u64
    })
}
