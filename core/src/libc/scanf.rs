//! The scanf-family conversion engine (C11 §7.21.6.2, as glibc 2.36 does it in the C locale).
//!
//! [`scan`] reads from an [`Input`] (one byte of look-ahead, as a stream gives: glibc pushes
//! back at most one character) under a format, and returns what to store through each pointer
//! argument, in order, and the function's result: the number of assigned conversions, or EOF
//! (-1) when the input ended before the first conversion. Numbers are collected the way glibc
//! collects them (the longest prefix that can still become a number, within the field width) and
//! converted with [`super::strconv`]'s `strtoll`/`strtoull`/`strtod`, so values and overflow
//! behaviour are strtol's.
//!
//! Supported: whitespace and ordinary characters in the format, `%%`, assignment suppression
//! `*`, field widths, the length modifiers `hh h l ll L j z t q`, and the conversions
//! `d i o u x X p e f g a E F G A s c [ n`. Not supported (a [`ScanError`]): `%ls`/`%lc`/`%l[`
//! (wide characters), `%m`, positional arguments (`%1$d`).

use super::strconv;

/// Where scanf reads from.
pub trait Input {
    /// The next byte, without consuming it (`None` at the end of the input).
    fn peek(&mut self) -> Option<u8>;
    /// Consume the byte `peek` returned.
    fn bump(&mut self);
}

/// A byte slice as an [`Input`] (`sscanf`).
pub struct SliceInput<'a> {
    pub bytes: &'a [u8],
    pub pos: usize,
}

impl Input for SliceInput<'_> {
    fn peek(&mut self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }
    fn bump(&mut self) {
        self.pos += 1;
    }
}

/// The size of a floating-point object a conversion stores into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FloatSize {
    F32,
    F64,
    LongDouble,
}

/// One store through the next pointer argument.
#[derive(Debug, Clone, PartialEq)]
pub enum Store {
    /// An integer of `size` bytes (1, 2, 4 or 8), truncated to it.
    Int { value: u64, size: u8 },
    Float { value: f64, size: FloatSize },
    /// Characters, with a terminating NUL for `%s` and `%[` (`nul`), none for `%c`.
    Bytes { bytes: Vec<u8>, nul: bool },
}

/// What a scanf call did.
#[derive(Debug, Clone, PartialEq)]
pub struct Scanned {
    /// The stores, one per assigning conversion (and `%n`), in argument order.
    pub stores: Vec<Store>,
    /// The function's result: assigned conversions, or -1 (EOF) for an input failure before the
    /// first conversion.
    pub result: i32,
}

/// A format accsim does not support (the run stops with this message).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScanError(pub String);

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// Counts what is consumed (for `%n`) and stops at a field width.
struct Reader<'a> {
    input: &'a mut dyn Input,
    consumed: u64,
}

impl Reader<'_> {
    fn peek(&mut self) -> Option<u8> {
        self.input.peek()
    }
    fn bump(&mut self) {
        self.input.bump();
        self.consumed += 1;
    }
    fn skip_space(&mut self) {
        while self.peek().is_some_and(is_space) {
            self.bump();
        }
    }
    /// Take the next byte into `out` when `ok` accepts it and the width allows.
    fn take_if(&mut self, out: &mut Vec<u8>, width: usize, ok: impl Fn(u8) -> bool) -> bool {
        if out.len() >= width {
            return false;
        }
        match self.peek() {
            Some(c) if ok(c) => {
                out.push(c);
                self.bump();
                true
            }
            _ => false,
        }
    }
}

fn int_size(length: &[u8]) -> u8 {
    match length {
        b"hh" => 1,
        b"h" => 2,
        b"" => 4,
        _ => 8,
    }
}

fn digit_in(c: u8, base: u32) -> bool {
    (c as char).is_digit(base)
}

/// Collect an integer's text for `base` (0: as `%i`, prefix decides); `None` when no digit came.
fn collect_int(r: &mut Reader<'_>, width: usize, base: u32) -> Option<(Vec<u8>, u32)> {
    let mut text = Vec::new();
    r.take_if(&mut text, width, |c| c == b'+' || c == b'-');
    let mut base = base;
    let mut digits = 0;
    if (base == 0 || base == 16) && r.take_if(&mut text, width, |c| c == b'0') {
        digits += 1;
        if r.take_if(&mut text, width, |c| c == b'x' || c == b'X') {
            base = 16;
            // "0x" alone converts as 0 (strtol takes the "0").
        } else if base == 0 {
            base = 8;
        }
    }
    if base == 0 {
        base = 10;
    }
    while r.take_if(&mut text, width, |c| digit_in(c, base)) {
        digits += 1;
    }
    (digits > 0).then_some((text, base))
}

/// Collect a floating-point number's text (decimal, hexadecimal, `inf`, `nan`).
fn collect_float(r: &mut Reader<'_>, width: usize) -> Option<Vec<u8>> {
    let mut text = Vec::new();
    r.take_if(&mut text, width, |c| c == b'+' || c == b'-');
    // inf, infinity, nan (any case).
    if r.peek().is_some_and(|c| matches!(c.to_ascii_lowercase(), b'i' | b'n')) {
        let word: &[u8] = if r.peek().is_some_and(|c| c.eq_ignore_ascii_case(&b'i')) { b"infinity" } else { b"nan" };
        let mut matched = 0;
        while matched < word.len() && r.take_if(&mut text, width, |c| c.to_ascii_lowercase() == word[matched]) {
            matched += 1;
        }
        return (matched == 3 || matched == word.len()).then_some(text);
    }
    let mut digits = 0;
    let mut hex = false;
    if r.take_if(&mut text, width, |c| c == b'0') {
        digits += 1;
        hex = r.take_if(&mut text, width, |c| c == b'x' || c == b'X');
    }
    let base = if hex { 16 } else { 10 };
    while r.take_if(&mut text, width, |c| digit_in(c, base)) {
        digits += 1;
    }
    if r.take_if(&mut text, width, |c| c == b'.') {
        while r.take_if(&mut text, width, |c| digit_in(c, base)) {
            digits += 1;
        }
    }
    if digits == 0 {
        return None;
    }
    let exp = if hex { [b'p', b'P'] } else { [b'e', b'E'] };
    if r.take_if(&mut text, width, |c| exp.contains(&c)) {
        r.take_if(&mut text, width, |c| c == b'+' || c == b'-');
        while r.take_if(&mut text, width, |c| c.is_ascii_digit()) {}
    }
    Some(text)
}

/// A `%[` scan set: the bytes it accepts, and where the format goes on after it.
fn scan_set(fmt: &[u8], mut i: usize) -> Result<([bool; 256], usize), ScanError> {
    let mut set = [false; 256];
    let negate = fmt.get(i) == Some(&b'^');
    if negate {
        i += 1;
    }
    let start = i;
    loop {
        let Some(&c) = fmt.get(i) else {
            return Err(ScanError("a `%[` conversion without its closing `]`".into()));
        };
        if c == b']' && i > start {
            i += 1;
            break;
        }
        if fmt.get(i + 1) == Some(&b'-') && fmt.get(i + 2).is_some_and(|&e| e != b']') && i > start {
            let end = fmt[i + 2];
            for b in c.min(end)..=c.max(end) {
                set[b as usize] = true;
            }
            i += 3;
        } else {
            set[c as usize] = true;
            i += 1;
        }
    }
    if negate {
        for b in set.iter_mut() {
            *b = !*b;
        }
    }
    Ok((set, i))
}

/// Run `fmt` against `input` (see the module documentation).
pub fn scan(fmt: &[u8], input: &mut dyn Input) -> Result<Scanned, ScanError> {
    let mut r = Reader { input, consumed: 0 };
    let mut stores = Vec::new();
    let mut assigned = 0i32;
    // Whether a conversion was attempted (an input failure after it returns the count).
    let mut converted = false;
    let mut i = 0;
    let eof = |converted: bool, assigned: i32, stores: Vec<Store>| Ok(Scanned { stores, result: if converted { assigned } else { -1 } });
    while i < fmt.len() {
        let c = fmt[i];
        if is_space(c) {
            r.skip_space();
            i += 1;
            continue;
        }
        if c != b'%' {
            match r.peek() {
                None => return eof(converted, assigned, stores),
                Some(x) if x == c => r.bump(),
                Some(_) => break,
            }
            i += 1;
            continue;
        }
        i += 1;
        let suppress = fmt.get(i) == Some(&b'*');
        if suppress {
            i += 1;
        }
        let mut width = 0usize;
        while let Some(d) = fmt.get(i).filter(|d| d.is_ascii_digit()) {
            width = width.saturating_mul(10).saturating_add((d - b'0') as usize);
            i += 1;
        }
        if fmt.get(i) == Some(&b'$') {
            return Err(ScanError("positional arguments (`%1$d`) in a scanf format".into()));
        }
        let length_start = i;
        while fmt.get(i).is_some_and(|c| b"hlLjztq".contains(c)) {
            i += 1;
        }
        let length = &fmt[length_start..i];
        let Some(&conv) = fmt.get(i) else {
            return Err(ScanError("a scanf format that ends inside a conversion".into()));
        };
        i += 1;
        let field = if width == 0 { usize::MAX } else { width };
        match conv {
            b'%' => {
                r.skip_space();
                match r.peek() {
                    None => return eof(converted, assigned, stores),
                    Some(b'%') => r.bump(),
                    Some(_) => break,
                }
            }
            b'n' => {
                if !suppress {
                    stores.push(Store::Int { value: r.consumed, size: int_size(length) });
                }
            }
            b'd' | b'i' | b'o' | b'u' | b'x' | b'X' | b'p' => {
                r.skip_space();
                if r.peek().is_none() {
                    return eof(converted, assigned, stores);
                }
                converted = true;
                let base = match conv {
                    b'd' | b'u' => 10,
                    b'i' => 0,
                    b'o' => 8,
                    _ => 16,
                };
                let Some((text, base)) = collect_int(&mut r, field, base) else { break };
                if !suppress {
                    let value = if conv == b'd' || conv == b'i' { strconv::strtoll(&text, base as i32).value as u64 } else { strconv::strtoull(&text, base as i32).value };
                    let size = if conv == b'p' { 8 } else { int_size(length) };
                    stores.push(Store::Int { value, size });
                    assigned += 1;
                }
            }
            b'e' | b'f' | b'g' | b'a' | b'E' | b'F' | b'G' | b'A' => {
                r.skip_space();
                if r.peek().is_none() {
                    return eof(converted, assigned, stores);
                }
                converted = true;
                let Some(text) = collect_float(&mut r, field) else { break };
                let parsed = strconv::strtod(&text);
                if parsed.consumed != text.len() {
                    // "1e" or "0x": glibc consumed the characters and the match fails.
                    break;
                }
                if !suppress {
                    let size = match length {
                        b"l" => FloatSize::F64,
                        b"L" | b"ll" | b"q" => FloatSize::LongDouble,
                        _ => FloatSize::F32,
                    };
                    let value = if size == FloatSize::F32 { strconv::strtof(&text).value as f64 } else { parsed.value };
                    stores.push(Store::Float { value, size });
                    assigned += 1;
                }
            }
            b's' | b'c' | b'[' => {
                if !length.is_empty() {
                    return Err(ScanError(format!("`%{}{}` (wide characters) in a scanf format", String::from_utf8_lossy(length), conv as char)));
                }
                let (accept, next): ([bool; 256], usize) = match conv {
                    b'[' => scan_set(fmt, i)?,
                    b's' => {
                        let mut set = [true; 256];
                        for b in 0..=255u8 {
                            set[b as usize] = !is_space(b);
                        }
                        (set, i)
                    }
                    _ => ([true; 256], i),
                };
                i = next;
                if conv == b's' {
                    r.skip_space();
                }
                if r.peek().is_none() {
                    return eof(converted, assigned, stores);
                }
                converted = true;
                let field = if conv == b'c' && width == 0 { 1 } else { field };
                let mut bytes = Vec::new();
                while r.take_if(&mut bytes, field, |c| accept[c as usize]) {}
                if bytes.is_empty() {
                    break;
                }
                if !suppress {
                    stores.push(Store::Bytes { bytes, nul: conv != b'c' });
                    assigned += 1;
                }
            }
            other => return Err(ScanError(format!("the conversion `%{}` in a scanf format", other as char))),
        }
    }
    Ok(Scanned { stores, result: assigned })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sscanf(input: &str, fmt: &str) -> Scanned {
        let mut inp = SliceInput { bytes: input.as_bytes(), pos: 0 };
        scan(fmt.as_bytes(), &mut inp).expect("supported format")
    }

    fn int(value: i64, size: u8) -> Store {
        Store::Int { value: value as u64, size }
    }

    #[test]
    fn integers_and_widths() {
        let s = sscanf("  42 -7 0x1f 017 12345", "%d %i %x %o %3d");
        assert_eq!(s.result, 5);
        assert_eq!(s.stores, vec![int(42, 4), int(-7, 4), int(31, 4), int(15, 4), int(123, 4)]);
        let s = sscanf("0x10 010 10", "%i %i %i");
        assert_eq!(s.stores, vec![int(16, 4), int(8, 4), int(10, 4)]);
        let s = sscanf("5 6", "%ld %hhd");
        assert_eq!(s.stores, vec![int(5, 8), int(6, 1)]);
    }

    #[test]
    fn floats() {
        let s = sscanf("3.5 -1e3 inf 2.", "%lf %f %lf %Lf");
        assert_eq!(s.result, 4);
        assert_eq!(
            s.stores,
            vec![
                Store::Float { value: 3.5, size: FloatSize::F64 },
                Store::Float { value: -1000.0, size: FloatSize::F32 },
                Store::Float { value: f64::INFINITY, size: FloatSize::F64 },
                Store::Float { value: 2.0, size: FloatSize::LongDouble },
            ]
        );
    }

    #[test]
    fn strings_chars_sets_and_counts() {
        let s = sscanf("P5\n# c\n640 480", "%2s %[^\n]%n %c");
        assert_eq!(s.result, 3);
        assert_eq!(
            s.stores,
            vec![
                Store::Bytes { bytes: b"P5".to_vec(), nul: true },
                Store::Bytes { bytes: b"# c".to_vec(), nul: true },
                int(6, 4),
                Store::Bytes { bytes: b"6".to_vec(), nul: false },
            ]
        );
    }

    #[test]
    fn failures_and_end_of_input() {
        assert_eq!(sscanf("", "%d").result, -1);
        assert_eq!(sscanf("   ", "%d").result, -1);
        assert_eq!(sscanf("abc", "%d").result, 0);
        assert_eq!(sscanf("1 x", "%d %d").result, 1);
        assert_eq!(sscanf("1", "%d %d").result, 1);
        assert_eq!(sscanf("7,8", "%d,%d").result, 2);
        assert_eq!(sscanf("7;8", "%d,%d").result, 1);
        assert_eq!(sscanf("x 5", "%*s %d").stores, vec![int(5, 4)]);
        assert_eq!(sscanf("50%", "%d%%").result, 1);
    }

    #[test]
    fn unsupported_formats_are_errors() {
        let mut inp = SliceInput { bytes: b"x", pos: 0 };
        assert!(scan(b"%ls", &mut inp).is_err());
        assert!(scan(b"%1$d", &mut inp).is_err());
        assert!(scan(b"%[abc", &mut inp).is_err());
    }
}
