//! Number parsing from `<stdlib.h>` (`strtol` and friends, `atoi`, `strtod`, `strtof`, `atof`)
//! on byte slices, as glibc 2.36 does it in the C locale on LP64 (`long` is 64 bits).
//!
//! Each function returns a [`Parsed`]: the value, how many bytes the conversion consumed (what
//! `*endptr - nptr` would be; 0 when nothing was converted) and the `errno` it sets. Parsing stops
//! at the first byte that cannot continue the number, so a NUL terminator needs no special care.
//!
//! Integers follow C11 7.22.1.4 with glibc's details: leading `isspace`, an optional sign, the
//! `0x`/`0X` prefix for bases 0 and 16 (a `0x` with no hex digit after it converts just the `0`),
//! base 0 choosing 8 after a leading `0`; on overflow the result saturates and `errno` is ERANGE;
//! the unsigned functions negate in unsigned arithmetic (`strtoul("-1")` is `ULONG_MAX`).
//!
//! Floating point follows C11 7.22.1.3: decimal and hexadecimal forms, `inf`/`infinity`/`nan`/
//! `nan(n-char-sequence)` in any case (the sequence, when it is a number `strtoull` reads whole,
//! becomes the NaN payload as in glibc). Results are correctly rounded to nearest, ties to even,
//! directly to the target type (`strtof` does not round through `double`). ERANGE is reported for
//! overflow (result ±HUGE_VAL) and for underflow, which glibc signals when the result is subnormal
//! or zero and inexact.

/// The `errno` a conversion sets, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Errno {
    /// ERANGE: the value is too large for the type (the result saturates, or is ±HUGE_VAL).
    Overflow,
    /// ERANGE: a floating-point result is tiny (subnormal or zero) and inexact.
    Underflow,
    /// EINVAL: the base is neither 0 nor in 2..=36; nothing is parsed.
    InvalidBase,
}

/// The outcome of a conversion.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Parsed<T> {
    pub value: T,
    /// Bytes consumed from the start of the input: `endptr - nptr`. 0 when nothing was converted.
    pub consumed: usize,
    pub errno: Option<Errno>,
}

/// C's `isspace` in the C locale.
fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

fn skip_space(s: &[u8]) -> usize {
    s.iter().take_while(|&&c| is_space(c)).count()
}

/// An optional sign at `pos`: (negative, bytes used).
fn sign_at(s: &[u8], pos: usize) -> (bool, usize) {
    match s.get(pos) {
        Some(b'-') => (true, 1),
        Some(b'+') => (false, 1),
        _ => (false, 0),
    }
}

fn digit_value(c: u8) -> Option<u32> {
    char::from(c).to_digit(36)
}

// ---------------------------------------------------------------------------------------------
// Integers

/// The shared body of the `strto*l` family: the magnitude as a `u64` (saturated on overflow).
struct RawInteger {
    negative: bool,
    magnitude: u64,
    overflow: bool,
    consumed: usize,
}

fn parse_integer(s: &[u8], base: i32) -> Result<RawInteger, Errno> {
    if base < 0 || base == 1 || base > 36 {
        return Err(Errno::InvalidBase);
    }
    let mut base = base as u32;
    let mut pos = skip_space(s);
    let (negative, sign_len) = sign_at(s, pos);
    pos += sign_len;

    if s.get(pos) == Some(&b'0') {
        if (base == 0 || base == 16) && matches!(s.get(pos + 1), Some(b'x' | b'X')) {
            pos += 2;
            base = 16;
        } else if base == 0 {
            base = 8;
        }
    } else if base == 0 {
        base = 10;
    }

    let digits_start = pos;
    let mut magnitude: u64 = 0;
    let mut overflow = false;
    while let Some(d) = s
        .get(pos)
        .and_then(|&c| digit_value(c))
        .filter(|&d| d < base)
    {
        match magnitude
            .checked_mul(u64::from(base))
            .and_then(|m| m.checked_add(u64::from(d)))
        {
            Some(m) => magnitude = m,
            None => overflow = true,
        }
        pos += 1;
    }
    if pos == digits_start {
        // No digits. glibc points `endptr` at the `x` of a bare `0x`, i.e. converts the `0`.
        let consumed = if digits_start >= 2
            && matches!(s[digits_start - 1], b'x' | b'X')
            && s[digits_start - 2] == b'0'
        {
            digits_start - 1
        } else {
            0
        };
        return Ok(RawInteger {
            negative: false,
            magnitude: 0,
            overflow: false,
            consumed,
        });
    }
    if overflow {
        magnitude = u64::MAX;
    }
    Ok(RawInteger {
        negative,
        magnitude,
        overflow,
        consumed: pos,
    })
}

/// `strtol` (and `strtoll`: `long` and `long long` are both 64-bit).
pub fn strtol(s: &[u8], base: i32) -> Parsed<i64> {
    let raw = match parse_integer(s, base) {
        Ok(raw) => raw,
        Err(errno) => {
            return Parsed {
                value: 0,
                consumed: 0,
                errno: Some(errno),
            }
        }
    };
    let limit = if raw.negative {
        i64::MIN.unsigned_abs()
    } else {
        i64::MAX as u64
    };
    if raw.overflow || raw.magnitude > limit {
        let value = if raw.negative { i64::MIN } else { i64::MAX };
        return Parsed {
            value,
            consumed: raw.consumed,
            errno: Some(Errno::Overflow),
        };
    }
    let value = if raw.negative {
        (raw.magnitude as i64).wrapping_neg()
    } else {
        raw.magnitude as i64
    };
    Parsed {
        value,
        consumed: raw.consumed,
        errno: None,
    }
}

/// `strtoul` (and `strtoull`). A negative number is negated in unsigned arithmetic.
pub fn strtoul(s: &[u8], base: i32) -> Parsed<u64> {
    let raw = match parse_integer(s, base) {
        Ok(raw) => raw,
        Err(errno) => {
            return Parsed {
                value: 0,
                consumed: 0,
                errno: Some(errno),
            }
        }
    };
    if raw.overflow {
        return Parsed {
            value: u64::MAX,
            consumed: raw.consumed,
            errno: Some(Errno::Overflow),
        };
    }
    let value = if raw.negative {
        raw.magnitude.wrapping_neg()
    } else {
        raw.magnitude
    };
    Parsed {
        value,
        consumed: raw.consumed,
        errno: None,
    }
}

/// `strtoll`: the same as [`strtol`] on LP64.
pub fn strtoll(s: &[u8], base: i32) -> Parsed<i64> {
    strtol(s, base)
}

/// `strtoull`: the same as [`strtoul`] on LP64.
pub fn strtoull(s: &[u8], base: i32) -> Parsed<u64> {
    strtoul(s, base)
}

/// `atoi`: glibc's `(int) strtol(s, NULL, 10)`, so out-of-range values wrap rather than saturate
/// at `int`'s limits (they saturate at `long`'s first).
pub fn atoi(s: &[u8]) -> i32 {
    strtol(s, 10).value as i32
}

/// `atol`: `strtol(s, NULL, 10)`.
pub fn atol(s: &[u8]) -> i64 {
    strtol(s, 10).value
}

/// `atoll`: `strtoll(s, NULL, 10)`.
pub fn atoll(s: &[u8]) -> i64 {
    strtol(s, 10).value
}

// ---------------------------------------------------------------------------------------------
// Floating point

/// An IEEE binary format the float parser can produce.
trait BinaryFloat: Copy + std::str::FromStr + std::ops::Neg<Output = Self> {
    /// Significand bits including the implicit one (53 or 24).
    const PRECISION: u32;
    /// Exponent of the smallest normal number (-1022 or -126).
    const MIN_EXP: i64;
    /// Exponent of the largest finite number (1023 or 127).
    const MAX_EXP: i64;
    const INFINITY: Self;
    const ZERO: Self;
    fn from_bits_u64(bits: u64) -> Self;
    fn is_infinite(self) -> bool;
    fn is_zero(self) -> bool;
    /// Whether |self| is the smallest normal number.
    fn is_smallest_normal(self) -> bool;
    /// The significand of a subnormal value as an integer (value = it * 2^(MIN_EXP - PRECISION + 1)),
    /// `None` for normal numbers.
    fn subnormal_significand(self) -> Option<u64>;
    /// A quiet NaN with this payload in the bits below the quiet bit.
    fn nan_with_payload(payload: u64) -> Self;
}

impl BinaryFloat for f64 {
    const PRECISION: u32 = 53;
    const MIN_EXP: i64 = -1022;
    const MAX_EXP: i64 = 1023;
    const INFINITY: Self = f64::INFINITY;
    const ZERO: Self = 0.0;
    fn from_bits_u64(bits: u64) -> Self {
        f64::from_bits(bits)
    }
    fn is_infinite(self) -> bool {
        f64::is_infinite(self)
    }
    fn is_zero(self) -> bool {
        self == 0.0
    }
    fn is_smallest_normal(self) -> bool {
        self.abs() == f64::MIN_POSITIVE
    }
    fn subnormal_significand(self) -> Option<u64> {
        (self.is_subnormal()).then(|| self.abs().to_bits())
    }
    fn nan_with_payload(payload: u64) -> Self {
        f64::from_bits(0x7ff8_0000_0000_0000 | (payload & ((1 << 51) - 1)))
    }
}

impl BinaryFloat for f32 {
    const PRECISION: u32 = 24;
    const MIN_EXP: i64 = -126;
    const MAX_EXP: i64 = 127;
    const INFINITY: Self = f32::INFINITY;
    const ZERO: Self = 0.0;
    fn from_bits_u64(bits: u64) -> Self {
        f32::from_bits(bits as u32)
    }
    fn is_infinite(self) -> bool {
        f32::is_infinite(self)
    }
    fn is_zero(self) -> bool {
        self == 0.0
    }
    fn is_smallest_normal(self) -> bool {
        self.abs() == f32::MIN_POSITIVE
    }
    fn subnormal_significand(self) -> Option<u64> {
        (self.is_subnormal()).then(|| u64::from(self.abs().to_bits()))
    }
    fn nan_with_payload(payload: u64) -> Self {
        f32::from_bits(0x7fc0_0000 | (payload & ((1 << 22) - 1)) as u32)
    }
}

/// `strtod`.
pub fn strtod(s: &[u8]) -> Parsed<f64> {
    parse_float(s)
}

/// `strtof`, rounded directly to `float`.
pub fn strtof(s: &[u8]) -> Parsed<f32> {
    parse_float(s)
}

/// `atof`: `strtod(s, NULL)`.
pub fn atof(s: &[u8]) -> f64 {
    strtod(s).value
}

fn starts_with_ignore_case(s: &[u8], word: &[u8]) -> bool {
    s.len() >= word.len() && s[..word.len()].eq_ignore_ascii_case(word)
}

fn parse_float<F: BinaryFloat>(s: &[u8]) -> Parsed<F> {
    let mut pos = skip_space(s);
    let (negative, sign_len) = sign_at(s, pos);
    pos += sign_len;
    let rest = &s[pos..];
    let signed = |v: F| if negative { -v } else { v };

    if starts_with_ignore_case(rest, b"inf") {
        let len = if starts_with_ignore_case(rest, b"infinity") {
            8
        } else {
            3
        };
        return Parsed {
            value: signed(F::INFINITY),
            consumed: pos + len,
            errno: None,
        };
    }
    if starts_with_ignore_case(rest, b"nan") {
        let (len, payload) = nan_suffix(&rest[3..]);
        let value = F::nan_with_payload(payload.map_or(0, |p| p.value));
        // glibc parses the payload with strtoull and leaves its ERANGE in errno.
        let errno = payload.and_then(|p| p.errno);
        return Parsed {
            value: signed(value),
            consumed: pos + 3 + len,
            errno,
        };
    }
    if rest.len() >= 2 && rest[0] == b'0' && matches!(rest[1], b'x' | b'X') {
        if let Some((value, len, errno)) = parse_hex_float::<F>(&rest[2..]) {
            return Parsed {
                value: signed(value),
                consumed: pos + 2 + len,
                errno,
            };
        }
        // `0x` without hex digits: the `0` alone is the subject sequence.
        return Parsed {
            value: signed(F::ZERO),
            consumed: pos + 1,
            errno: None,
        };
    }
    match parse_decimal_float::<F>(rest) {
        Some((value, len, errno)) => Parsed {
            value: signed(value),
            consumed: pos + len,
            errno,
        },
        None => Parsed {
            value: F::ZERO,
            consumed: 0,
            errno: None,
        },
    }
}

/// After `nan`: the length of a `(n-char-sequence)` if one follows, and the payload glibc
/// derives from it (`strtoull(seq, &end, 0)` consuming the whole sequence).
fn nan_suffix(s: &[u8]) -> (usize, Option<Parsed<u64>>) {
    if s.first() != Some(&b'(') {
        return (0, None);
    }
    let body_len = s[1..]
        .iter()
        .take_while(|&&c| c.is_ascii_alphanumeric() || c == b'_')
        .count();
    if s.get(1 + body_len) != Some(&b')') {
        return (0, None);
    }
    let body = &s[1..1 + body_len];
    let parsed = strtoull(body, 0);
    let payload = (parsed.consumed == body.len()).then_some(parsed);
    (body_len + 2, payload)
}

/// The length of a run of digits of `radix` at the start of `s`.
fn digit_run(s: &[u8], radix: u32) -> usize {
    s.iter()
        .take_while(|&&c| char::from(c).is_digit(radix))
        .count()
}

/// The length of an exponent part (`e`/`p`, sign, at least one decimal digit) at the start of
/// `s`, and its value saturated to ±10^9, or `None` if there is none.
fn exponent_part(s: &[u8], marker: u8) -> Option<(usize, i64)> {
    if !s.first().is_some_and(|c| c.eq_ignore_ascii_case(&marker)) {
        return None;
    }
    let (negative, sign_len) = sign_at(s, 1);
    let digits = &s[1 + sign_len..];
    let n = digit_run(digits, 10);
    if n == 0 {
        return None;
    }
    let magnitude = digits[..n].iter().fold(0i64, |acc, &c| {
        (acc * 10 + i64::from(c - b'0')).min(1_000_000_000)
    });
    Some((
        1 + sign_len + n,
        if negative { -magnitude } else { magnitude },
    ))
}

/// A decimal subject sequence at the start of `s`: value, length and errno; `None` if there is
/// no digit.
fn parse_decimal_float<F: BinaryFloat>(s: &[u8]) -> Option<(F, usize, Option<Errno>)> {
    let int_len = digit_run(s, 10);
    let mut len = int_len;
    let mut frac_len = 0;
    if s.get(len) == Some(&b'.') {
        frac_len = digit_run(&s[len + 1..], 10);
        if int_len + frac_len > 0 {
            len += 1 + frac_len;
        }
    }
    if int_len + frac_len == 0 {
        return None;
    }
    let mut exponent = 0;
    if let Some((exp_len, exp)) = exponent_part(&s[len..], b'e') {
        len += exp_len;
        exponent = exp;
    }
    // The subject sequence is ASCII and in a syntax Rust's correctly rounded parser accepts.
    let text = std::str::from_utf8(&s[..len]).ok()?;
    let value: F = text.parse().ok()?;

    let all_digits = s[..int_len]
        .iter()
        .chain(s.get(int_len + 1..int_len + 1 + frac_len).unwrap_or(&[]));
    let decimal = SignificantDigits::new(all_digits.map(|c| c - b'0'), exponent - frac_len as i64);
    let tiny_region = value.subnormal_significand().is_some() || value.is_smallest_normal();
    if tiny_region && !decimal.truncated {
        // A decimal that is exactly a binary fraction can hit glibc's subnormal rounding quirk.
        if let Some((significand, sticky, binary_exponent)) =
            dyadic_decimal(&decimal.digits, decimal.exponent)
        {
            let (value, errno) =
                round_binary::<F>(significand, sticky, binary_exponent, Subject::Decimal);
            return Some((value, len, errno));
        }
    }
    let errno = if value.is_infinite() {
        Some(Errno::Overflow)
    } else if value.is_zero() && !decimal.digits.is_empty() {
        Some(Errno::Underflow)
    } else if let Some(significand) = value.subnormal_significand() {
        let binary_exponent = F::MIN_EXP - i64::from(F::PRECISION) + 1;
        let exact = decimal
            .compare_with_binary(significand, binary_exponent)
            .is_eq();
        (!exact).then_some(Errno::Underflow)
    } else if value.is_smallest_normal() {
        // Tininess is detected after rounding to full precision with an unbounded exponent (x86):
        // tiny unless the exact value reaches the midpoint between 2^MIN_EXP and the largest
        // full-precision number below it.
        let precision = i64::from(F::PRECISION);
        let midpoint = (1u64 << (precision + 1)) - 1;
        let below = decimal.compare_with_binary(midpoint, F::MIN_EXP - precision - 1);
        below.is_lt().then_some(Errno::Underflow)
    } else {
        None
    };
    Some((value, len, errno))
}

/// A decimal significand without leading or trailing zeros: value = digits × 10^exponent, plus
/// a nonzero tail when `truncated`.
struct SignificantDigits {
    digits: Vec<u8>,
    exponent: i64,
    truncated: bool,
}

/// More significant digits than any binary number that matters in the subnormal range has
/// (the exact expansions there have at most 1075 + 64 or so), so cutting here keeps every
/// comparison exact while bounding the big-integer work.
const MAX_SIGNIFICANT_DIGITS: usize = 1200;

impl SignificantDigits {
    fn new(digits: impl Iterator<Item = u8>, exponent: i64) -> Self {
        let mut digits: Vec<u8> = digits.skip_while(|&d| d == 0).collect();
        let mut exponent = exponent;
        while digits.last() == Some(&0) {
            digits.pop();
            exponent += 1;
        }
        let mut truncated = false;
        if digits.len() > MAX_SIGNIFICANT_DIGITS {
            // The tail is nonzero: it ends in a nonzero digit.
            exponent += (digits.len() - MAX_SIGNIFICANT_DIGITS) as i64;
            digits.truncate(MAX_SIGNIFICANT_DIGITS);
            truncated = true;
        }
        SignificantDigits {
            digits,
            exponent,
            truncated,
        }
    }

    /// Compare with significand × 2^bin_exp (`bin_exp` < 0).
    fn compare_with_binary(&self, significand: u64, bin_exp: i64) -> std::cmp::Ordering {
        // The other number has fewer significant digits than were kept, so when the kept prefix
        // equals it the tail decides.
        let ordering = compare_decimal_binary(&self.digits, self.exponent, significand, bin_exp);
        if ordering.is_eq() && self.truncated {
            std::cmp::Ordering::Greater
        } else {
            ordering
        }
    }
}

/// Compare digits × 10^dec_exp with significand × 2^bin_exp exactly (`bin_exp` < 0).
fn compare_decimal_binary(
    digits: &[u8],
    dec_exp: i64,
    significand: u64,
    bin_exp: i64,
) -> std::cmp::Ordering {
    let mut left = BigUint::from_decimal(digits);
    let mut right = BigUint::from_u64(significand);
    // Move every factor to the side where its exponent is positive.
    if dec_exp >= 0 {
        left.mul_pow(10, dec_exp as u64);
    } else {
        right.mul_pow(10, dec_exp.unsigned_abs());
    }
    left.mul_pow(2, bin_exp.unsigned_abs());
    left.cmp(&right)
}

/// A hexadecimal subject sequence after the `0x`: value, length (after `0x`) and errno; `None`
/// if no hex digit follows.
fn parse_hex_float<F: BinaryFloat>(s: &[u8]) -> Option<(F, usize, Option<Errno>)> {
    let int_len = digit_run(s, 16);
    let mut len = int_len;
    let mut frac_len = 0;
    if s.get(len) == Some(&b'.') {
        frac_len = digit_run(&s[len + 1..], 16);
        if int_len + frac_len > 0 {
            len += 1 + frac_len;
        }
    }
    if int_len + frac_len == 0 {
        return None;
    }
    let mut exponent = 0;
    if let Some((exp_len, exp)) = exponent_part(&s[len..], b'p') {
        len += exp_len;
        exponent = exp;
    }

    // Keep the first 15 significant hex digits (60 bits); the rest only matter as a sticky bit.
    let mut significand: u64 = 0;
    let mut kept = 0;
    let mut sticky = false;
    let mut binary_exponent = exponent;
    let hex_digits = s[..int_len].iter().map(|c| (c, false)).chain(
        s[int_len..len]
            .iter()
            .skip(1)
            .take(frac_len)
            .map(|c| (c, true)),
    );
    for (&c, is_fraction) in hex_digits {
        let d = u64::from(char::from(c).to_digit(16).unwrap_or(0));
        if significand == 0 && d == 0 {
            if is_fraction {
                binary_exponent -= 4;
            }
            continue;
        }
        if kept < 15 {
            significand = significand << 4 | d;
            kept += 1;
            if is_fraction {
                binary_exponent -= 4;
            }
        } else {
            sticky |= d != 0;
            if !is_fraction {
                binary_exponent += 4;
            }
        }
    }
    let (value, errno) =
        round_binary::<F>(significand, sticky, binary_exponent, Subject::Hexadecimal);
    Some((value, len, errno))
}

/// Round significand × 2^exponent (plus a sticky nonzero tail below it) to `F` the way glibc
/// 2.36's `round_and_return` does: to nearest, ties to even, with tininess detected after
/// rounding, and with its quirk for subnormal results: the bit right after the `PRECISION`-bit
/// mantissa is forgotten once the mantissa is shifted into subnormal position, so it counts
/// neither for rounding nor for ERANGE (0x1.ffffffffffffe8p-1023 is "exact"). When the whole
/// mantissa is shifted out (results below the smallest subnormal), only hexadecimal input is
/// affected (0x1.000001p-150f rounds to 0); glibc's decimal path gets that case right. Later
/// glibc versions fixed both.
fn round_binary<F: BinaryFloat>(
    significand: u64,
    sticky: bool,
    exponent: i64,
    subject: Subject,
) -> (F, Option<Errno>) {
    if significand == 0 {
        return (F::ZERO, None);
    }
    let precision = i64::from(F::PRECISION);
    let bit_len = i64::from(64 - significand.leading_zeros());
    let mut lead = exponent + bit_len - 1;
    if lead > F::MAX_EXP {
        return (F::INFINITY, Some(Errno::Overflow));
    }
    // The top PRECISION bits (mantissa), the next bit (round) and whether anything follows.
    let wide = u128::from(significand) << 64;
    let low = (bit_len + 64 - precision) as u32;
    let mut mantissa = (wide >> low) as u64;
    let round = (wide >> (low - 1)) & 1 == 1;
    let rest = sticky || wide & ((1u128 << (low - 1)) - 1) != 0;
    let all_ones = (1u64 << precision) - 1;

    if lead >= F::MIN_EXP {
        if round && (rest || mantissa & 1 == 1) {
            mantissa += 1;
            if mantissa >> precision != 0 {
                mantissa >>= 1;
                lead += 1;
            }
        }
        if lead > F::MAX_EXP {
            return (F::INFINITY, Some(Errno::Overflow));
        }
        let biased = (lead - F::MIN_EXP + 1) as u64;
        let bits = (biased << (precision - 1)) | (mantissa & (all_ones >> 1));
        return (F::from_bits_u64(bits), None);
    }

    let shift = F::MIN_EXP - lead;
    if shift > precision {
        return (F::ZERO, Some(Errno::Underflow));
    }
    let shift = shift as u32;
    let (kept, half, below) = if shift == F::PRECISION {
        let forgotten_round = round && subject == Subject::Decimal;
        (
            0,
            true,
            mantissa & (all_ones >> 1) != 0 || rest || forgotten_round,
        )
    } else {
        let below_half = mantissa & ((1u64 << (shift - 1)) - 1);
        (
            mantissa >> shift,
            (mantissa >> (shift - 1)) & 1 == 1,
            below_half != 0 || rest,
        )
    };
    // After rounding to full precision, a value just below 2^MIN_EXP may reach it: not tiny.
    let tiny = !(shift == 1 && mantissa == all_ones && round);
    let round_up = half && (below || kept & 1 == 1);
    // A subnormal is stored as its significand; a carry into 2^MIN_EXP lands in the exponent field.
    let value = F::from_bits_u64(kept + u64::from(round_up));
    (value, (tiny && (half || below)).then_some(Errno::Underflow))
}

/// Which syntax a floating-point subject sequence used; glibc rounds them slightly differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Subject {
    Decimal,
    Hexadecimal,
}

/// digits × 10^dec_exp as significand × 2^exponent (top 64 bits, sticky tail) when that value
/// is a dyadic rational, i.e. when its binary expansion ends.
fn dyadic_decimal(digits: &[u8], dec_exp: i64) -> Option<(u64, bool, i64)> {
    let mut n = BigUint::from_decimal(digits);
    let mut exponent = 0;
    if dec_exp >= 0 {
        n.mul_pow(10, dec_exp as u64);
    } else {
        // d / 10^k = (d / 5^k) × 2^-k, dyadic iff 5^k divides d.
        let k = dec_exp.unsigned_abs();
        for _ in 0..k {
            if n.div_rem_small(5) != 0 {
                return None;
            }
        }
        exponent = -(k as i64);
    }
    let (top, sticky, shift) = n.top_u64();
    Some((top, sticky, exponent + shift))
}

/// Just enough of an unsigned big integer for exactness checks: little-endian 32-bit limbs.
#[derive(Debug, Clone, PartialEq, Eq)]
struct BigUint(Vec<u32>);

impl Ord for BigUint {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        // Limbs are trimmed, so the longer number is the larger.
        self.0
            .len()
            .cmp(&other.0.len())
            .then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }
}

impl PartialOrd for BigUint {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl BigUint {
    fn from_u64(v: u64) -> Self {
        let mut n = BigUint(vec![v as u32, (v >> 32) as u32]);
        n.trim();
        n
    }

    fn from_decimal(digits: &[u8]) -> Self {
        let mut n = BigUint(Vec::new());
        for &d in digits {
            n.mul_add(10, u32::from(d));
        }
        n
    }

    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    fn mul_add(&mut self, factor: u32, addend: u32) {
        let mut carry = u64::from(addend);
        for limb in &mut self.0 {
            let t = u64::from(*limb) * u64::from(factor) + carry;
            *limb = t as u32;
            carry = t >> 32;
        }
        if carry != 0 {
            self.0.push(carry as u32);
        }
        self.trim();
    }

    /// Divide by a small divisor in place, returning the remainder.
    fn div_rem_small(&mut self, divisor: u32) -> u32 {
        let mut rem = 0u64;
        for limb in self.0.iter_mut().rev() {
            let cur = (rem << 32) | u64::from(*limb);
            *limb = (cur / u64::from(divisor)) as u32;
            rem = cur % u64::from(divisor);
        }
        self.trim();
        rem as u32
    }

    /// The top 64 bits (or all of a smaller number), whether any bit below them is set, and the
    /// shift: self = top × 2^shift + (the sticky tail).
    fn top_u64(&self) -> (u64, bool, i64) {
        let limbs = self.0.len();
        if limbs <= 2 {
            let low = self.0.first().copied().unwrap_or(0);
            let high = self.0.get(1).copied().unwrap_or(0);
            return ((u64::from(high) << 32) | u64::from(low), false, 0);
        }
        let wide = (u128::from(self.0[limbs - 1]) << 64)
            | (u128::from(self.0[limbs - 2]) << 32)
            | u128::from(self.0[limbs - 3]);
        let bits = 128 - wide.leading_zeros();
        let drop = bits.saturating_sub(64);
        let top = (wide >> drop) as u64;
        let sticky =
            wide & ((1u128 << drop) - 1) != 0 || self.0[..limbs - 3].iter().any(|&l| l != 0);
        (top, sticky, i64::from(drop) + 32 * (limbs as i64 - 3))
    }

    /// Multiply by base^exp for a small base.
    fn mul_pow(&mut self, base: u32, mut exp: u64) {
        if self.0.is_empty() {
            return;
        }
        if base == 2 {
            let limbs = (exp / 32) as usize;
            let bits = (exp % 32) as u32;
            if bits != 0 {
                self.mul_add(1 << bits, 0);
            }
            self.0.splice(0..0, std::iter::repeat_n(0, limbs));
            return;
        }
        // The largest power of `base` that fits in a u32, applied in chunks.
        let (mut chunk, mut chunk_exp) = (base, 1);
        while let Some(next) = chunk.checked_mul(base) {
            chunk = next;
            chunk_exp += 1;
        }
        while exp >= chunk_exp {
            self.mul_add(chunk, 0);
            exp -= chunk_exp;
        }
        if exp > 0 {
            self.mul_add(base.pow(exp as u32), 0);
        }
    }
}

#[cfg(test)]
mod tests;
