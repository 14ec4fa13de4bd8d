//! The formatting engine of the printf family, byte-exact with glibc 2.36 on x86-64 Linux in the
//! C locale.
//!
//! [`format()`] walks a format string and pulls the variadic arguments through [`PrintfArgs`], so
//! the interpreter decides how arguments and program memory are reached; this module only turns
//! values into bytes.
//!
//! What it implements (C11 7.21.6.1 plus the glibc extensions programs meet):
//! - flags `-+ #0` and `'`/`I` (no-ops in the C locale), width and precision as numbers or `*`
//!   (negative `*` width means `-`, negative `*` precision means none);
//! - positional arguments `%2$d`, `%1$*2$d`; as in glibc, unnumbered specifications mixed in take
//!   arguments from the first one on;
//! - length modifiers `hh h l ll L q j z Z t` and conversions `d i u o x X b B c s p n % f F e E
//!   g G a A`. `%Lf` and friends (and glibc's `%llf`) read a long double, which accsim models as
//!   an `f64`; `%La` prints it the way glibc prints an x87 80-bit value (`0x8p-3` for 1.0) since
//!   every `f64` is exactly representable there.
//! - an unknown conversion prints itself back the way glibc's `printf_unknown` does (`%-5.3y`);
//!   length modifiers are not echoed.
//!
//! Floating-point output is exact: decimal conversions use the correctly rounded (round half to
//! even on the exact binary value) digit generation of Rust's `core::fmt`, as glibc does in the
//! default rounding mode (`%.30f` of 0.1 and `%f` of 1e300 print every exact digit). glibc's
//! `%#g` quirk is kept: when rounding carries into a new digit it switches to `%e` with the
//! decimals of the `%f` style it had chosen (`%#.2g` of 99.5 is `1.e+02`).
//!
//! Errors: where glibc's printf returns -1 (a format ending inside a specification, a width
//! overflowing `int`, `%lc` of a non-ASCII character in the C locale), the error says which
//! errno ([`PrintfError::glibc_errno`]) and `out` holds what glibc would have written before it
//! stopped. The other errors are the program's bugs (missing arguments, bad pointers, found by
//! the [`PrintfArgs`] implementation) or accsim's limits: `%ls`, `%S` and `%m` are
//! [`PrintfError::Unsupported`], a field wider than [`MAX_FIELD_BYTES`] is refused instead of
//! allocated, and positional arguments stop at [`NL_ARGMAX`].
//!
//! Tests: literal expectations, a no-panic run over random formats, and a differential test
//! that compiles some 25,000 printf calls with gcc and compares glibc's output byte for byte.

use thiserror::Error;

/// The widest single field (width or precision) accsim will materialize.
pub const MAX_FIELD_BYTES: usize = 1 << 24;

/// The largest positional argument number accsim reads (glibc's `NL_ARGMAX`).
pub const NL_ARGMAX: usize = 4096;

/// glibc refuses widths from `INT_MAX - EXTSIZ` on with EOVERFLOW.
const GLIBC_MAX_FIELD: u64 = i32::MAX as u64 - 32;

/// Why a printf call failed. Where glibc fails too, the variant says which errno it sets.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PrintfError {
    /// The format string ends inside a conversion specification (glibc: -1, EINVAL).
    #[error("the format string ends inside a conversion specification")]
    IncompleteSpecification,
    /// A width or precision does not fit in an `int` (glibc: -1, EOVERFLOW).
    #[error("a field width or precision in the format string overflows int")]
    FieldOverflow,
    /// `%lc` of a character the C locale cannot encode (glibc: -1, EILSEQ).
    #[error("wide character {0:#x} cannot be converted in the C locale")]
    UnencodableWideChar(u32),
    /// The program passed fewer arguments than the format string consumes.
    #[error("printf: argument {index} is missing (the format string consumes more arguments than were passed)")]
    MissingArgument { index: usize },
    /// A pointer argument (`%s`, `%n`) does not point to valid memory.
    #[error("printf: %{conversion} was given the invalid pointer {ptr:#x}")]
    InvalidPointer { ptr: u64, conversion: char },
    /// A field this wide would exhaust memory; glibc would print it.
    #[error("accsim does not support printf fields wider than {max} bytes (this one asks for {requested})", max = MAX_FIELD_BYTES)]
    FieldTooWide { requested: usize },
    /// A positional argument beyond `NL_ARGMAX` (glibc's `<limits.h>`: 4096).
    #[error("accsim does not support printf positional arguments beyond %{max}$ (this one is %{position}$)", max = NL_ARGMAX)]
    PositionTooLarge { position: usize },
    /// A conversion accsim does not implement (`%ls`, `%S`, `%m`).
    #[error("accsim does not support the printf conversion %{0}")]
    Unsupported(String),
}

/// Where [`format()`] gets its variadic arguments from. Integer, pointer and floating-point
/// arguments are separate streams, as on x86-64 where they travel in different registers.
///
/// Arguments are requested in order. With positional specifications (`%2$d`), every argument up
/// to the highest number used is requested first, in order and typed by its uses (unused ones
/// as words), as glibc does.
pub trait PrintfArgs {
    /// The next integer or pointer argument as its raw 64-bit register word; the engine truncates
    /// and extends it per the length modifier.
    fn next_word(&mut self) -> Result<u64, PrintfError>;
    /// The next `double` argument (`%f %e %g %a`, also with `l`).
    fn next_double(&mut self) -> Result<f64, PrintfError>;
    /// The next `long double` argument (with `L`, `ll` or `q`); accsim models it as `f64`.
    fn next_long_double(&mut self) -> Result<f64, PrintfError>;
    /// The bytes of the NUL-terminated string at `ptr`, without the NUL; with `max`, read at most
    /// that many bytes (a precision-limited `%s` need not be terminated).
    fn read_c_string(&mut self, ptr: u64, max: Option<usize>) -> Result<Vec<u8>, PrintfError>;
    /// Store the number of bytes written so far (`%n`) into an integer of `size_bytes` bytes.
    fn store_count(&mut self, ptr: u64, count: i64, size_bytes: u8) -> Result<(), PrintfError>;
}

impl PrintfError {
    /// The errno glibc's printf sets when it returns -1 for this reason; `None` for errors glibc
    /// does not detect (they are bugs in the program or accsim limits).
    pub fn glibc_errno(&self) -> Option<i32> {
        const EINVAL: i32 = 22;
        const EOVERFLOW: i32 = 75;
        const EILSEQ: i32 = 84;
        match self {
            PrintfError::IncompleteSpecification => Some(EINVAL),
            PrintfError::FieldOverflow => Some(EOVERFLOW),
            PrintfError::UnencodableWideChar(_) => Some(EILSEQ),
            _ => None,
        }
    }
}

/// Format `fmt` as glibc's `printf` would, appending to `out`. The byte count glibc returns is
/// `out.len()` growth.
pub fn format(fmt: &[u8], args: &mut dyn PrintfArgs, out: &mut Vec<u8>) -> Result<(), PrintfError> {
    let start = out.len();
    let pieces = parse(fmt);
    let mut source = if pieces.iter().any(Piece::is_positional) {
        ArgSource::Positional(read_positional(&pieces, args)?)
    } else {
        ArgSource::Sequential
    };
    for piece in &pieces {
        match piece {
            Piece::Literal(range) => out.extend_from_slice(&fmt[range.clone()]),
            Piece::Incomplete => return Err(PrintfError::IncompleteSpecification),
            Piece::Overflow => return Err(PrintfError::FieldOverflow),
            Piece::Spec(spec) => {
                let spec = resolve(spec, &mut source, args)?;
                convert(&spec, &mut source, args, out, start)?;
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Parsing

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Length {
    None,
    Char,
    Short,
    /// `l`, `z`, `t`, `j`: 64-bit integers, `double`, wide `%lc`.
    Long,
    /// `ll`, `L`, `q`: 64-bit integers, `long double`.
    LongLong,
}

/// Where a width or precision comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Count {
    Literal(u64),
    /// `*` or `*n$`: an `int` argument at this index.
    Arg(usize),
}

#[derive(Debug, Clone, Copy, Default)]
struct Flags {
    left: bool,
    plus: bool,
    space: bool,
    alt: bool,
    zero: bool,
    group: bool,
    i18n: bool,
}

#[derive(Debug, Clone)]
struct RawSpec {
    flags: Flags,
    width: Option<Count>,
    precision: Option<Count>,
    length: Length,
    conversion: u8,
    /// Index of the converted argument, if the conversion takes one.
    arg: Option<usize>,
    positional: bool,
}

#[derive(Debug, Clone)]
enum Piece {
    Literal(std::ops::Range<usize>),
    Spec(RawSpec),
    /// The format string ended inside a specification.
    Incomplete,
    /// A literal width, precision or position overflowed `int`.
    Overflow,
}

impl Piece {
    fn is_positional(&self) -> bool {
        matches!(self, Piece::Spec(spec) if spec.positional)
    }
}

/// glibc's `read_int`: `None` on overflow of `int`.
fn read_int(fmt: &[u8], pos: &mut usize) -> Option<u64> {
    let mut value: u64 = 0;
    let mut overflow = false;
    while let Some(&c) = fmt.get(*pos) {
        if !c.is_ascii_digit() {
            break;
        }
        value = value * 10 + u64::from(c - b'0');
        if value > i32::MAX as u64 {
            overflow = true;
            value = i32::MAX as u64;
        }
        *pos += 1;
    }
    (!overflow).then_some(value)
}

/// `n$` after a `%` or `*`: the zero-based argument index, leaving `pos` after the `$`.
fn read_position(fmt: &[u8], pos: &mut usize) -> Result<Option<usize>, ()> {
    if !fmt.get(*pos).is_some_and(u8::is_ascii_digit) {
        return Ok(None);
    }
    let begin = *pos;
    let n = read_int(fmt, pos).ok_or(())?;
    if n > 0 && fmt.get(*pos) == Some(&b'$') {
        *pos += 1;
        // `n` fits in an int, so the cast cannot truncate.
        Ok(Some(n as usize - 1))
    } else {
        *pos = begin;
        Ok(None)
    }
}

/// Split the format into literal runs and specifications, assigning argument indices the way
/// glibc's `__parse_one_specmb` does: unnumbered `*` and conversions count up from 0.
fn parse(fmt: &[u8]) -> Vec<Piece> {
    let mut pieces = Vec::new();
    let mut pos = 0;
    let mut next_unnumbered = 0usize;
    while pos < fmt.len() {
        let literal_end = fmt[pos..]
            .iter()
            .position(|&c| c == b'%')
            .map_or(fmt.len(), |i| pos + i);
        if literal_end > pos {
            pieces.push(Piece::Literal(pos..literal_end));
        }
        if literal_end >= fmt.len() {
            break;
        }
        pos = literal_end + 1;
        match parse_spec(fmt, &mut pos, &mut next_unnumbered) {
            Ok(spec) => pieces.push(Piece::Spec(spec)),
            Err(piece) => {
                pieces.push(piece);
                break;
            }
        }
    }
    pieces
}

fn parse_spec(fmt: &[u8], pos: &mut usize, next_unnumbered: &mut usize) -> Result<RawSpec, Piece> {
    let mut positional = false;
    let arg_position = read_position(fmt, pos).map_err(|()| Piece::Overflow)?;
    positional |= arg_position.is_some();

    let mut flags = Flags::default();
    while let Some(&c) = fmt.get(*pos) {
        match c {
            b' ' => flags.space = true,
            b'+' => flags.plus = true,
            b'-' => flags.left = true,
            b'#' => flags.alt = true,
            b'0' => flags.zero = true,
            b'\'' => flags.group = true,
            b'I' => flags.i18n = true,
            _ => break,
        }
        *pos += 1;
    }
    if flags.left {
        flags.zero = false;
    }

    let mut star = |pos: &mut usize, positional: &mut bool| -> Result<Count, Piece> {
        *pos += 1;
        match read_position(fmt, pos).map_err(|()| Piece::Overflow)? {
            Some(index) => {
                *positional = true;
                Ok(Count::Arg(index))
            }
            None => {
                *next_unnumbered += 1;
                Ok(Count::Arg(*next_unnumbered - 1))
            }
        }
    };

    let width = match fmt.get(*pos) {
        Some(b'*') => Some(star(pos, &mut positional)?),
        Some(c) if c.is_ascii_digit() => {
            let w = read_int(fmt, pos).ok_or(Piece::Overflow)?;
            Some(Count::Literal(w))
        }
        _ => None,
    };

    let precision = if fmt.get(*pos) == Some(&b'.') {
        *pos += 1;
        match fmt.get(*pos) {
            Some(b'*') => Some(star(pos, &mut positional)?),
            Some(c) if c.is_ascii_digit() => {
                Some(Count::Literal(read_int(fmt, pos).ok_or(Piece::Overflow)?))
            }
            _ => Some(Count::Literal(0)),
        }
    } else {
        None
    };

    let length = match fmt.get(*pos) {
        Some(b'h') if fmt.get(*pos + 1) == Some(&b'h') => {
            *pos += 2;
            Length::Char
        }
        Some(b'h') => {
            *pos += 1;
            Length::Short
        }
        Some(b'l') if fmt.get(*pos + 1) == Some(&b'l') => {
            *pos += 2;
            Length::LongLong
        }
        Some(b'l' | b'z' | b'Z' | b't' | b'j') => {
            *pos += 1;
            Length::Long
        }
        Some(b'L' | b'q') => {
            *pos += 1;
            Length::LongLong
        }
        _ => Length::None,
    };

    let Some(&conversion) = fmt.get(*pos) else {
        return Err(Piece::Incomplete);
    };
    *pos += 1;
    let takes_arg = !matches!(conversion, b'%' | b'm') && conversion_is_known(conversion);
    let arg = match (arg_position, takes_arg) {
        (_, false) => None,
        (Some(index), true) => Some(index),
        (None, true) => {
            *next_unnumbered += 1;
            Some(*next_unnumbered - 1)
        }
    };
    Ok(RawSpec {
        flags,
        width,
        precision,
        length,
        conversion,
        arg,
        positional,
    })
}

fn conversion_is_known(c: u8) -> bool {
    b"diuoxXbBcCsSpnfFeEgGaA%m".contains(&c)
}

// ---------------------------------------------------------------------------------------------
// Arguments

#[derive(Debug, Clone, Copy, PartialEq)]
enum ArgValue {
    Word(u64),
    Double(f64),
    LongDouble(f64),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ArgKind {
    Word,
    Double,
    LongDouble,
}

enum ArgSource {
    /// Arguments are read from [`PrintfArgs`] as the conversions need them.
    Sequential,
    /// A positional format: glibc reads every argument up front, typed by the specifications.
    Positional(Vec<ArgValue>),
}

fn arg_kind(spec: &RawSpec) -> ArgKind {
    match spec.conversion {
        b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => {
            if spec.length == Length::LongLong {
                ArgKind::LongDouble
            } else {
                ArgKind::Double
            }
        }
        _ => ArgKind::Word,
    }
}

fn read_positional(
    pieces: &[Piece],
    args: &mut dyn PrintfArgs,
) -> Result<Vec<ArgValue>, PrintfError> {
    let highest = pieces
        .iter()
        .filter_map(|piece| match piece {
            Piece::Spec(spec) => [spec.width, spec.precision]
                .into_iter()
                .filter_map(|count| match count {
                    Some(Count::Arg(index)) => Some(index),
                    _ => None,
                })
                .chain(spec.arg)
                .max(),
            _ => None,
        })
        .max();
    if let Some(index) = highest.filter(|&index| index >= NL_ARGMAX) {
        return Err(PrintfError::PositionTooLarge {
            position: index + 1,
        });
    }
    let mut kinds: Vec<Option<ArgKind>> = Vec::new();
    let mut note = |index: usize, kind: ArgKind| {
        if kinds.len() <= index {
            kinds.resize(index + 1, None);
        }
        kinds[index].get_or_insert(kind);
    };
    for piece in pieces {
        let Piece::Spec(spec) = piece else { continue };
        for count in [spec.width, spec.precision].into_iter().flatten() {
            if let Count::Arg(index) = count {
                note(index, ArgKind::Word);
            }
        }
        if let Some(index) = spec.arg {
            note(index, arg_kind(spec));
        }
    }
    kinds
        .into_iter()
        .map(|kind| match kind.unwrap_or(ArgKind::Word) {
            ArgKind::Word => args.next_word().map(ArgValue::Word),
            ArgKind::Double => args.next_double().map(ArgValue::Double),
            ArgKind::LongDouble => args.next_long_double().map(ArgValue::LongDouble),
        })
        .collect()
}

fn fetch(
    index: usize,
    kind: ArgKind,
    source: &mut ArgSource,
    args: &mut dyn PrintfArgs,
) -> Result<ArgValue, PrintfError> {
    match source {
        ArgSource::Sequential => match kind {
            ArgKind::Word => args.next_word().map(ArgValue::Word),
            ArgKind::Double => args.next_double().map(ArgValue::Double),
            ArgKind::LongDouble => args.next_long_double().map(ArgValue::LongDouble),
        },
        ArgSource::Positional(values) => values
            .get(index)
            .copied()
            .ok_or(PrintfError::MissingArgument { index }),
    }
}

fn fetch_word(
    index: usize,
    source: &mut ArgSource,
    args: &mut dyn PrintfArgs,
) -> Result<u64, PrintfError> {
    Ok(match fetch(index, ArgKind::Word, source, args)? {
        ArgValue::Word(w) => w,
        ArgValue::Double(d) | ArgValue::LongDouble(d) => d.to_bits(),
    })
}

fn fetch_float(
    spec: &RawSpec,
    source: &mut ArgSource,
    args: &mut dyn PrintfArgs,
) -> Result<f64, PrintfError> {
    let index = spec.arg.unwrap_or(0);
    Ok(match fetch(index, arg_kind(spec), source, args)? {
        ArgValue::Double(d) | ArgValue::LongDouble(d) => d,
        ArgValue::Word(w) => f64::from_bits(w),
    })
}

/// A specification with its width and precision known.
struct Spec<'a> {
    raw: &'a RawSpec,
    flags: Flags,
    width: usize,
    precision: Option<usize>,
}

/// A width (`is_width`) or precision as a size, refusing what glibc or accsim refuse.
fn check_field(n: u64, is_width: bool) -> Result<usize, PrintfError> {
    if is_width && n >= GLIBC_MAX_FIELD {
        return Err(PrintfError::FieldOverflow);
    }
    let n = n as usize;
    if n > MAX_FIELD_BYTES {
        return Err(PrintfError::FieldTooWide { requested: n });
    }
    Ok(n)
}

fn resolve<'a>(
    raw: &'a RawSpec,
    source: &mut ArgSource,
    args: &mut dyn PrintfArgs,
) -> Result<Spec<'a>, PrintfError> {
    let mut flags = raw.flags;
    let width = match raw.width {
        None => 0,
        Some(Count::Literal(w)) => check_field(w, true)?,
        Some(Count::Arg(index)) => {
            let w = fetch_word(index, source, args)? as u32 as i32;
            if w < 0 {
                flags.left = true;
                flags.zero = false;
            }
            check_field(u64::from(w.unsigned_abs()), true)?
        }
    };
    let precision = match raw.precision {
        None => None,
        Some(Count::Literal(p)) => Some(check_field(p, false)?),
        Some(Count::Arg(index)) => {
            let p = fetch_word(index, source, args)? as u32 as i32;
            match u64::try_from(p) {
                Ok(p) => Some(check_field(p, false)?),
                Err(_) => None,
            }
        }
    };
    Ok(Spec {
        raw,
        flags,
        width,
        precision,
    })
}

// ---------------------------------------------------------------------------------------------
// Conversions

fn convert(
    spec: &Spec,
    source: &mut ArgSource,
    args: &mut dyn PrintfArgs,
    out: &mut Vec<u8>,
    start: usize,
) -> Result<(), PrintfError> {
    let raw = spec.raw;
    let arg_index = raw.arg.unwrap_or(0);
    match raw.conversion {
        b'%' => out.push(b'%'),
        b'd' | b'i' => {
            let word = fetch_word(arg_index, source, args)?;
            let value = signed_of_length(word, raw.length);
            let sign: &[u8] = if value < 0 {
                b"-"
            } else if spec.flags.plus {
                b"+"
            } else if spec.flags.space {
                b" "
            } else {
                b""
            };
            integer(spec, sign, value.unsigned_abs(), 10, false, out);
        }
        c @ (b'u' | b'o' | b'x' | b'X' | b'b' | b'B') => {
            let word = fetch_word(arg_index, source, args)?;
            let value = unsigned_of_length(word, raw.length);
            let base = match c {
                b'u' => 10,
                b'o' => 8,
                b'x' | b'X' => 16,
                _ => 2,
            };
            integer(spec, b"", value, base, c == b'X' || c == b'B', out);
        }
        b'p' => {
            let ptr = fetch_word(arg_index, source, args)?;
            if ptr == 0 {
                pad_field(out, b"", b"(nil)", spec.width, spec.flags.left, false);
            } else {
                // glibc formats a non-null pointer as `%#lx`, keeping the `+` and ` ` flags.
                let sign: &[u8] = if spec.flags.plus {
                    b"+"
                } else if spec.flags.space {
                    b" "
                } else {
                    b""
                };
                let mut pointer_spec = Spec {
                    raw,
                    flags: spec.flags,
                    width: spec.width,
                    precision: spec.precision,
                };
                pointer_spec.flags.alt = true;
                integer_with_prefix(&pointer_spec, sign, ptr, 16, false, b"0x", out);
            }
        }
        b'c' | b'C' => {
            let word = fetch_word(arg_index, source, args)?;
            let byte = if raw.conversion == b'C' || raw.length == Length::Long {
                let wide = word as u32;
                if wide > 0x7f {
                    return Err(PrintfError::UnencodableWideChar(wide));
                }
                wide as u8
            } else {
                word as u8
            };
            pad_field(out, b"", &[byte], spec.width, spec.flags.left, false);
        }
        b's' => {
            if raw.length == Length::Long {
                return Err(PrintfError::Unsupported("ls".into()));
            }
            let ptr = fetch_word(arg_index, source, args)?;
            let text = if ptr == 0 {
                match spec.precision {
                    Some(p) if p < 6 => Vec::new(),
                    _ => b"(null)".to_vec(),
                }
            } else {
                let mut text = args.read_c_string(ptr, spec.precision)?;
                if let Some(p) = spec.precision {
                    text.truncate(p);
                }
                text
            };
            pad_field(out, b"", &text, spec.width, spec.flags.left, false);
        }
        b'S' => return Err(PrintfError::Unsupported("S".into())),
        b'm' => return Err(PrintfError::Unsupported("m".into())),
        b'n' => {
            let ptr = fetch_word(arg_index, source, args)?;
            let size = match raw.length {
                Length::Char => 1,
                Length::Short => 2,
                Length::None => 4,
                Length::Long | Length::LongLong => 8,
            };
            let count = i64::try_from(out.len() - start).unwrap_or(i64::MAX);
            args.store_count(ptr, count, size)?;
        }
        b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => {
            let value = fetch_float(raw, source, args)?;
            float(spec, value, out);
        }
        _ => unknown(spec, out),
    }
    Ok(())
}

/// glibc's `printf_unknown`: echo the specification (flags, width, precision, conversion).
fn unknown(spec: &Spec, out: &mut Vec<u8>) {
    let f = spec.flags;
    out.push(b'%');
    if f.alt {
        out.push(b'#');
    }
    if f.group {
        out.push(b'\'');
    }
    if f.plus {
        out.push(b'+');
    } else if f.space {
        out.push(b' ');
    }
    if f.left {
        out.push(b'-');
    }
    if f.zero {
        out.push(b'0');
    }
    if f.i18n {
        out.push(b'I');
    }
    if spec.width != 0 {
        out.extend_from_slice(spec.width.to_string().as_bytes());
    }
    if let Some(p) = spec.precision {
        out.push(b'.');
        out.extend_from_slice(p.to_string().as_bytes());
    }
    out.push(spec.raw.conversion);
}

fn signed_of_length(word: u64, length: Length) -> i64 {
    match length {
        Length::Char => i64::from(word as i8),
        Length::Short => i64::from(word as i16),
        Length::None => i64::from(word as i32),
        Length::Long | Length::LongLong => word as i64,
    }
}

fn unsigned_of_length(word: u64, length: Length) -> u64 {
    match length {
        Length::Char => u64::from(word as u8),
        Length::Short => u64::from(word as u16),
        Length::None => u64::from(word as u32),
        Length::Long | Length::LongLong => word,
    }
}

fn digits(mut value: u64, base: u64, upper: bool) -> Vec<u8> {
    let table: &[u8; 16] = if upper {
        b"0123456789ABCDEF"
    } else {
        b"0123456789abcdef"
    };
    let mut buf = Vec::new();
    loop {
        buf.push(table[(value % base) as usize]);
        value /= base;
        if value == 0 {
            break;
        }
    }
    buf.reverse();
    buf
}

fn integer(spec: &Spec, sign: &[u8], value: u64, base: u64, upper: bool, out: &mut Vec<u8>) {
    let prefix: &[u8] = match (spec.flags.alt, base, upper) {
        (true, 16, false) => b"0x",
        (true, 16, true) => b"0X",
        (true, 2, false) => b"0b",
        (true, 2, true) => b"0B",
        _ => b"",
    };
    integer_with_prefix(spec, sign, value, base, upper, prefix, out);
}

/// An integer conversion: `sign`, then `prefix` (only for a nonzero value), then the digits
/// zero-extended to the precision; the `0` flag counts only without a precision.
fn integer_with_prefix(
    spec: &Spec,
    sign: &[u8],
    value: u64,
    base: u64,
    upper: bool,
    prefix: &[u8],
    out: &mut Vec<u8>,
) {
    let mut body = if spec.precision == Some(0) && value == 0 {
        Vec::new()
    } else {
        digits(value, base, upper)
    };
    if let Some(p) = spec.precision {
        if body.len() < p {
            let mut padded = vec![b'0'; p - body.len()];
            padded.extend_from_slice(&body);
            body = padded;
        }
    }
    if base == 8 && spec.flags.alt && body.first() != Some(&b'0') {
        body.insert(0, b'0');
    }
    let mut head = sign.to_vec();
    if value != 0 {
        head.extend_from_slice(prefix);
    }
    let zero = spec.flags.zero && spec.precision.is_none();
    pad_field(out, &head, &body, spec.width, spec.flags.left, zero);
}

/// Write `head` and `body` in a field of `width`: left-justified, zero-filled between them, or
/// right-justified with spaces.
fn pad_field(out: &mut Vec<u8>, head: &[u8], body: &[u8], width: usize, left: bool, zero: bool) {
    let fill = width.saturating_sub(head.len() + body.len());
    if left {
        out.extend_from_slice(head);
        out.extend_from_slice(body);
        out.resize(out.len() + fill, b' ');
    } else if zero {
        out.extend_from_slice(head);
        out.resize(out.len() + fill, b'0');
        out.extend_from_slice(body);
    } else {
        out.resize(out.len() + fill, b' ');
        out.extend_from_slice(head);
        out.extend_from_slice(body);
    }
}

// ---------------------------------------------------------------------------------------------
// Floating point

fn float(spec: &Spec, value: f64, out: &mut Vec<u8>) {
    let conv = spec.raw.conversion;
    let upper = conv.is_ascii_uppercase();
    let flags = spec.flags;
    let sign: &[u8] = if value.is_sign_negative() {
        b"-"
    } else if flags.plus {
        b"+"
    } else if flags.space {
        b" "
    } else {
        b""
    };
    if !value.is_finite() {
        let text: &[u8] = match (value.is_nan(), upper) {
            (true, false) => b"nan",
            (true, true) => b"NAN",
            (false, false) => b"inf",
            (false, true) => b"INF",
        };
        pad_field(out, sign, text, spec.width, flags.left, false);
        return;
    }
    let magnitude = value.abs();
    let (head, body) = match conv.to_ascii_lowercase() {
        b'f' => (
            sign.to_vec(),
            fixed(magnitude, spec.precision.unwrap_or(6), flags.alt),
        ),
        b'e' => (
            sign.to_vec(),
            exponential(magnitude, spec.precision.unwrap_or(6), flags.alt, upper),
        ),
        b'g' => (
            sign.to_vec(),
            general(magnitude, spec.precision, flags.alt, upper),
        ),
        _ => {
            let mut head = sign.to_vec();
            head.extend_from_slice(if upper { b"0X" } else { b"0x" });
            let long_double = spec.raw.length == Length::LongLong;
            (
                head,
                hex_float(magnitude, spec.precision, flags.alt, upper, long_double),
            )
        }
    };
    pad_field(out, &head, &body, spec.width, flags.left, flags.zero);
}

/// `%f` digits of a non-negative finite value.
fn fixed(value: f64, precision: usize, alt: bool) -> Vec<u8> {
    let mut s = std::format!("{value:.precision$}").into_bytes();
    if alt && precision == 0 {
        s.push(b'.');
    }
    s
}

/// The mantissa digits (with `.` unless the precision is 0) and decimal exponent of `%e`.
fn exponential_parts(value: f64, precision: usize) -> (Vec<u8>, i32) {
    let s = std::format!("{value:.precision$e}");
    match s.split_once('e') {
        Some((mantissa, exp)) => (mantissa.as_bytes().to_vec(), exp.parse().unwrap_or(0)),
        None => (s.into_bytes(), 0),
    }
}

fn push_exponent(out: &mut Vec<u8>, exp: i32, upper: bool) {
    out.push(if upper { b'E' } else { b'e' });
    out.push(if exp < 0 { b'-' } else { b'+' });
    let digits = exp.unsigned_abs().to_string();
    if digits.len() < 2 {
        out.push(b'0');
    }
    out.extend_from_slice(digits.as_bytes());
}

fn exponential(value: f64, precision: usize, alt: bool, upper: bool) -> Vec<u8> {
    let (mut s, exp) = exponential_parts(value, precision);
    if alt && precision == 0 {
        s.push(b'.');
    }
    push_exponent(&mut s, exp, upper);
    s
}

/// `%g`: `%e` style when the exponent X (after rounding to P significant digits) is below -4 or
/// at least P, `%f` style with P-1-X decimals otherwise; trailing zeros go unless `#`.
fn general(value: f64, precision: Option<usize>, alt: bool, upper: bool) -> Vec<u8> {
    let p = match precision {
        None => 6,
        Some(0) => 1,
        Some(p) => p,
    };
    let (mut mantissa, exp) = exponential_parts(value, p - 1);
    let (mut s, exp_suffix) = if exp < -4 || i64::from(exp) >= p as i64 {
        if alt && i64::from(exp) == p as i64 && i64::from(decimal_exponent(value)) == p as i64 - 1 {
            // glibc picks the style from the exponent before rounding; when rounding then carries
            // into a new digit (99.5 at %#.2g) it switches to `%e` but keeps the zero decimals
            // the `%f` style had: `1.e+02`, not C's `1.0e+02`.
            mantissa.truncate(1);
        }
        (mantissa, Some(exp))
    } else {
        let decimals = (p as i64 - 1 - i64::from(exp)) as usize;
        (std::format!("{value:.decimals$}").into_bytes(), None)
    };
    if alt {
        if !s.contains(&b'.') {
            s.push(b'.');
        }
    } else if s.contains(&b'.') {
        while s.last() == Some(&b'0') {
            s.pop();
        }
        if s.last() == Some(&b'.') {
            s.pop();
        }
    }
    if let Some(exp) = exp_suffix {
        push_exponent(&mut s, exp, upper);
    }
    s
}

/// floor(log10(value)) of a positive finite value: the exponent of its shortest representation.
fn decimal_exponent(value: f64) -> i32 {
    let s = std::format!("{value:e}");
    s.split_once('e')
        .and_then(|(_, exp)| exp.parse().ok())
        .unwrap_or(0)
}

/// `%a` after the `0x`: glibc's `printf_fphex`. A double prints a leading `1` (`0` for zero and
/// subnormals, which keep exponent -1022) and 13 fraction digits; an x87 long double prints its
/// 64-bit mantissa as a leading digit 8..f and 15 fraction digits.
fn hex_float(
    value: f64,
    precision: Option<usize>,
    alt: bool,
    upper: bool,
    long_double: bool,
) -> Vec<u8> {
    let bits = value.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i64;
    let fraction = bits & ((1 << 52) - 1);
    let (mut leading, mut frac_digits, mut exponent): (u8, Vec<u8>, i64) = if value == 0.0 {
        (0, vec![0; if long_double { 15 } else { 13 }], 0)
    } else if long_double {
        // Normalize to a 64-bit mantissa with the top bit set: value = m * 2^(e - 63).
        let (m, e) = if biased == 0 {
            let shift = fraction.leading_zeros();
            (fraction << shift, -1011 - i64::from(shift))
        } else {
            (((1u64 << 52) | fraction) << 11, biased - 1023)
        };
        let nibbles: Vec<u8> = (0..15)
            .rev()
            .map(|i| ((m >> (i * 4)) & 0xf) as u8)
            .collect();
        ((m >> 60) as u8, nibbles, e - 3)
    } else {
        let nibbles: Vec<u8> = (0..13)
            .rev()
            .map(|i| ((fraction >> (i * 4)) & 0xf) as u8)
            .collect();
        if biased == 0 {
            (0, nibbles, -1022)
        } else {
            (1, nibbles, biased - 1023)
        }
    };

    match precision {
        None => {
            while frac_digits.last() == Some(&0) {
                frac_digits.pop();
            }
        }
        Some(p) if p < frac_digits.len() => {
            let next = frac_digits[p];
            let rest_nonzero = frac_digits[p + 1..].iter().any(|&d| d != 0);
            let last = if p == 0 { leading } else { frac_digits[p - 1] };
            frac_digits.truncate(p);
            let round_up = next > 8 || (next == 8 && (rest_nonzero || last % 2 == 1));
            if round_up {
                let mut carry = true;
                for d in frac_digits.iter_mut().rev() {
                    if *d == 15 {
                        *d = 0;
                    } else {
                        *d += 1;
                        carry = false;
                        break;
                    }
                }
                if carry {
                    if leading == 15 {
                        leading = 1;
                        exponent += 4;
                    } else {
                        leading += 1;
                    }
                }
            }
        }
        Some(p) => frac_digits.resize(p, 0),
    }

    let table: &[u8; 16] = if upper {
        b"0123456789ABCDEF"
    } else {
        b"0123456789abcdef"
    };
    let mut s = vec![table[leading as usize]];
    if !frac_digits.is_empty() || alt {
        s.push(b'.');
    }
    s.extend(frac_digits.iter().map(|&d| table[d as usize]));
    s.push(if upper { b'P' } else { b'p' });
    s.push(if exponent < 0 { b'-' } else { b'+' });
    s.extend_from_slice(exponent.unsigned_abs().to_string().as_bytes());
    s
}

#[cfg(test)]
mod tests;
