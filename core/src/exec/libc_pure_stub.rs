//! Local stand-ins for the pure C library pieces that live in `crate::libc` (printf formatting,
//! glibc's `random`, string-to-number conversions), with the API the interpreter binds to through
//! [`super::libc_bind`]. **Delete this file at merge** and point `libc_bind` at `crate::libc`.
//!
//! These are simplified: printf handles the common conversions (`d i u o x X c s p f F e E g G %
//! n`, flags, width, precision, length modifiers) but not positional arguments or `%a`.

pub mod printf {
    use thiserror::Error;

    #[derive(Debug, Clone, PartialEq, Eq, Error)]
    pub enum PrintfError {
        #[error("the format string ends inside a conversion specification")]
        IncompleteSpecification,
        #[error("printf: argument {index} is missing")]
        MissingArgument { index: usize },
        #[error("printf: %{conversion} was given the invalid pointer {ptr:#x}")]
        InvalidPointer { ptr: u64, conversion: char },
        #[error("accsim does not support the printf conversion %{0}")]
        Unsupported(String),
    }

    pub trait PrintfArgs {
        fn next_word(&mut self) -> Result<u64, PrintfError>;
        fn next_double(&mut self) -> Result<f64, PrintfError>;
        fn next_long_double(&mut self) -> Result<f64, PrintfError>;
        fn read_c_string(&mut self, ptr: u64, max: Option<usize>) -> Result<Vec<u8>, PrintfError>;
        fn store_count(&mut self, ptr: u64, count: i64, size_bytes: u8) -> Result<(), PrintfError>;
    }

    fn exp_form(x: f64, prec: usize, upper: bool) -> String {
        let s = format!("{:.*e}", prec, x);
        let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
        let e: i32 = exp.parse().unwrap_or(0);
        let sign = if e < 0 { '-' } else { '+' };
        let r = format!("{mant}e{sign}{:02}", e.abs());
        if upper {
            r.to_uppercase()
        } else {
            r
        }
    }

    fn strip_zeros(s: String) -> String {
        if !s.contains('.') {
            return s;
        }
        let (m, e) = match s.find(['e', 'E']) {
            Some(i) => (s[..i].to_string(), s[i..].to_string()),
            None => (s.clone(), String::new()),
        };
        let m = m.trim_end_matches('0').trim_end_matches('.').to_string();
        m + &e
    }

    fn float(x: f64, conv: u8, prec: Option<usize>, alt: bool) -> String {
        let upper = conv.is_ascii_uppercase();
        if !x.is_finite() {
            let s = if x.is_nan() { "nan" } else { "inf" };
            return if upper {
                s.to_uppercase()
            } else {
                s.to_string()
            };
        }
        let p = prec.unwrap_or(6);
        match conv.to_ascii_lowercase() {
            b'f' => format!("{:.*}", p, x.abs()),
            b'e' => exp_form(x.abs(), p, upper),
            _ => {
                let p = if p == 0 { 1 } else { p };
                let e = if x == 0.0 {
                    0
                } else {
                    let s = exp_form(x.abs(), p - 1, false);
                    s.split_once('e')
                        .and_then(|(_, e)| e.parse::<i32>().ok())
                        .unwrap_or(0)
                };
                let s = if e < -4 || e >= p as i32 {
                    exp_form(x.abs(), p - 1, upper)
                } else {
                    format!("{:.*}", (p as i32 - 1 - e).max(0) as usize, x.abs())
                };
                if alt {
                    s
                } else {
                    strip_zeros(s)
                }
            }
        }
    }

    pub fn format(
        fmt: &[u8],
        args: &mut dyn PrintfArgs,
        out: &mut Vec<u8>,
    ) -> Result<(), PrintfError> {
        let start = out.len();
        let mut i = 0;
        while i < fmt.len() {
            let c = fmt[i];
            i += 1;
            if c != b'%' {
                out.push(c);
                continue;
            }
            let (mut left, mut plus, mut space, mut alt, mut zero) =
                (false, false, false, false, false);
            while let Some(&f) = fmt.get(i) {
                match f {
                    b'-' => left = true,
                    b'+' => plus = true,
                    b' ' => space = true,
                    b'#' => alt = true,
                    b'0' => zero = true,
                    _ => break,
                }
                i += 1;
            }
            let mut width = 0usize;
            if fmt.get(i) == Some(&b'*') {
                i += 1;
                let w = args.next_word()? as i32;
                if w < 0 {
                    left = true;
                }
                width = w.unsigned_abs() as usize;
            } else {
                while let Some(d) = fmt.get(i).filter(|d| d.is_ascii_digit()) {
                    width = width * 10 + (d - b'0') as usize;
                    i += 1;
                }
            }
            let mut prec = None;
            if fmt.get(i) == Some(&b'.') {
                i += 1;
                if fmt.get(i) == Some(&b'*') {
                    i += 1;
                    let p = args.next_word()? as i32;
                    prec = (p >= 0).then_some(p as usize);
                } else {
                    let mut p = 0;
                    while let Some(d) = fmt.get(i).filter(|d| d.is_ascii_digit()) {
                        p = p * 10 + (d - b'0') as usize;
                        i += 1;
                    }
                    prec = Some(p);
                }
            }
            let mut size = 4u8;
            let mut long_double = false;
            while let Some(&l) = fmt.get(i) {
                match l {
                    b'h' => size = if size == 2 { 1 } else { 2 },
                    b'l' | b'j' | b'z' | b't' | b'q' => size = 8,
                    b'L' => long_double = true,
                    _ => break,
                }
                i += 1;
            }
            let Some(&conv) = fmt.get(i) else {
                return Err(PrintfError::IncompleteSpecification);
            };
            i += 1;
            let mut sign = String::new();
            let body: Vec<u8> = match conv {
                b'%' => {
                    out.push(b'%');
                    continue;
                }
                b'd' | b'i' => {
                    let w = args.next_word()?;
                    let v: i64 = match size {
                        1 => w as i8 as i64,
                        2 => w as i16 as i64,
                        4 => w as i32 as i64,
                        _ => w as i64,
                    };
                    if v < 0 {
                        sign = "-".into();
                    } else if plus {
                        sign = "+".into();
                    } else if space {
                        sign = " ".into();
                    }
                    let mut d = v.unsigned_abs().to_string();
                    if let Some(p) = prec {
                        if p == 0 && v == 0 {
                            d.clear();
                        }
                        while d.len() < p {
                            d.insert(0, '0');
                        }
                    }
                    d.into_bytes()
                }
                b'u' | b'x' | b'X' | b'o' | b'p' => {
                    let w = args.next_word()?;
                    let v: u64 = match (conv, size) {
                        (b'p', _) => w,
                        (_, 1) => w as u8 as u64,
                        (_, 2) => w as u16 as u64,
                        (_, 4) => w as u32 as u64,
                        _ => w,
                    };
                    if conv == b'p' && v == 0 {
                        b"(nil)".to_vec()
                    } else {
                        let mut d = match conv {
                            b'u' => v.to_string(),
                            b'o' => format!("{v:o}"),
                            b'X' => format!("{v:X}"),
                            _ => format!("{v:x}"),
                        };
                        if let Some(p) = prec {
                            if p == 0 && v == 0 {
                                d.clear();
                            }
                            while d.len() < p {
                                d.insert(0, '0');
                            }
                        }
                        if (alt && v != 0 && (conv == b'x' || conv == b'X')) || conv == b'p' {
                            sign = if conv == b'X' {
                                "0X".into()
                            } else {
                                "0x".into()
                            };
                        }
                        if alt && conv == b'o' && !d.starts_with('0') {
                            d.insert(0, '0');
                        }
                        d.into_bytes()
                    }
                }
                b'c' => vec![args.next_word()? as u8],
                b's' => {
                    let p = args.next_word()?;
                    if p == 0 {
                        if prec.is_none_or(|p| p >= 6) {
                            b"(null)".to_vec()
                        } else {
                            Vec::new()
                        }
                    } else {
                        args.read_c_string(p, prec)?
                    }
                }
                b'f' | b'F' | b'e' | b'E' | b'g' | b'G' => {
                    let x = if long_double {
                        args.next_long_double()?
                    } else {
                        args.next_double()?
                    };
                    if x.is_sign_negative() && !x.is_nan() {
                        sign = "-".into();
                    } else if plus {
                        sign = "+".into();
                    } else if space {
                        sign = " ".into();
                    }
                    if !x.is_finite() {
                        zero = false;
                    }
                    float(x, conv, prec, alt).into_bytes()
                }
                b'n' => {
                    let p = args.next_word()?;
                    args.store_count(p, (out.len() - start) as i64, size)?;
                    continue;
                }
                other => return Err(PrintfError::Unsupported((other as char).to_string())),
            };
            let len = sign.len() + body.len();
            let pad = width.saturating_sub(len);
            let numeric = !matches!(conv, b's' | b'c');
            let zero_ok = zero
                && !left
                && numeric
                && (prec.is_none() || matches!(conv, b'f' | b'F' | b'e' | b'E' | b'g' | b'G'));
            if !left && !zero_ok {
                out.extend(std::iter::repeat_n(b' ', pad));
            }
            out.extend_from_slice(sign.as_bytes());
            if zero_ok {
                out.extend(std::iter::repeat_n(b'0', pad));
            }
            out.extend_from_slice(&body);
            if left {
                out.extend(std::iter::repeat_n(b' ', pad));
            }
        }
        Ok(())
    }
}

#[allow(clippy::should_implement_trait)]
pub mod rand {
    /// glibc's `random_r` with the default TYPE_3 state (degree 31, separation 3).
    #[derive(Clone, Debug)]
    pub struct GlibcRandom {
        r: [u32; 34],
        f: usize,
        b: usize,
    }

    impl GlibcRandom {
        pub fn new(seed: u32) -> Self {
            let seed = if seed == 0 { 1 } else { seed };
            let mut s = [0i32; 31];
            s[0] = seed as i32;
            for i in 1..31 {
                let word = s[i - 1] as i64;
                let hi = word / 127773;
                let lo = word % 127773;
                let mut w = 16807 * lo - 2836 * hi;
                if w < 0 {
                    w += 2147483647;
                }
                s[i] = w as i32;
            }
            let mut r = [0u32; 34];
            for i in 0..31 {
                r[i] = s[i] as u32;
            }
            let mut g = GlibcRandom { r, f: 3, b: 0 };
            // Positions as in glibc: fptr = &state[3], rptr = &state[0].
            for _ in 0..310 {
                g.next();
            }
            g
        }

        pub fn next(&mut self) -> i32 {
            let n = 31;
            self.r[self.f] = self.r[self.f].wrapping_add(self.r[self.b]);
            let result = (self.r[self.f] >> 1) as i32;
            self.f = (self.f + 1) % n;
            self.b = (self.b + 1) % n;
            result
        }
    }
}

pub mod strconv {
    fn skip_space(s: &[u8]) -> usize {
        s.iter()
            .take_while(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c))
            .count()
    }

    /// `strtoul`-style parse: (magnitude, negative, bytes consumed (0 = none), overflowed).
    fn parse_int(s: &[u8], base: u32) -> (u64, bool, usize, bool) {
        let mut i = skip_space(s);
        let mut neg = false;
        if let Some(&c) = s.get(i) {
            if c == b'-' || c == b'+' {
                neg = c == b'-';
                i += 1;
            }
        }
        let mut base = base;
        let has_hex = s.get(i) == Some(&b'0')
            && matches!(s.get(i + 1), Some(b'x' | b'X'))
            && s.get(i + 2).is_some_and(|c| c.is_ascii_hexdigit());
        if (base == 0 || base == 16) && has_hex {
            i += 2;
            base = 16;
        } else if base == 0 {
            base = if s.get(i) == Some(&b'0') { 8 } else { 10 };
        }
        let start = i;
        let mut v: u64 = 0;
        let mut over = false;
        while let Some(d) = s
            .get(i)
            .and_then(|c| (*c as char).to_digit(36))
            .filter(|d| *d < base)
        {
            match v
                .checked_mul(base as u64)
                .and_then(|x| x.checked_add(d as u64))
            {
                Some(x) => v = x,
                None => over = true,
            }
            i += 1;
        }
        if i == start {
            return (0, false, 0, false);
        }
        (v, neg, i, over)
    }

    /// `strtol`/`strtoll`: (value, consumed, out of range).
    pub fn strtol(s: &[u8], base: u32) -> (i64, usize, bool) {
        let (v, neg, n, over) = parse_int(s, base);
        if neg {
            if over || v > 1 << 63 {
                (i64::MIN, n, true)
            } else {
                ((v as i64).wrapping_neg(), n, false)
            }
        } else if over || v > i64::MAX as u64 {
            (i64::MAX, n, true)
        } else {
            (v as i64, n, false)
        }
    }

    /// `strtoul`/`strtoull`: (value, consumed, out of range).
    pub fn strtoul(s: &[u8], base: u32) -> (u64, usize, bool) {
        let (v, neg, n, over) = parse_int(s, base);
        if over {
            (u64::MAX, n, true)
        } else {
            (if neg { v.wrapping_neg() } else { v }, n, false)
        }
    }

    /// `strtod`: (value, consumed). Decimal, `inf`, `infinity`, `nan`.
    pub fn strtod(s: &[u8]) -> (f64, usize) {
        let start = skip_space(s);
        let mut i = start;
        if matches!(s.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let lower: Vec<u8> = s[i..]
            .iter()
            .take(8)
            .map(|c| c.to_ascii_lowercase())
            .collect();
        let neg = s.get(start) == Some(&b'-');
        if lower.starts_with(b"infinity") {
            return (
                if neg {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                },
                i + 8,
            );
        }
        if lower.starts_with(b"inf") {
            return (
                if neg {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                },
                i + 3,
            );
        }
        if lower.starts_with(b"nan") {
            return (if neg { -f64::NAN } else { f64::NAN }, i + 3);
        }
        let digits_start = i;
        let mut nd = 0;
        while s.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
            nd += 1;
        }
        if s.get(i) == Some(&b'.') {
            i += 1;
            while s.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
                nd += 1;
            }
        }
        if nd == 0 {
            return (0.0, 0);
        }
        if matches!(s.get(i), Some(b'e' | b'E')) {
            let mut j = i + 1;
            if matches!(s.get(j), Some(b'+' | b'-')) {
                j += 1;
            }
            if s.get(j).is_some_and(u8::is_ascii_digit) {
                while s.get(j).is_some_and(u8::is_ascii_digit) {
                    j += 1;
                }
                i = j;
            }
        }
        let text = String::from_utf8_lossy(&s[digits_start..i]).into_owned();
        let text = if text.starts_with('.') {
            format!("0{text}")
        } else {
            text
        };
        let v: f64 = text.parse().unwrap_or(0.0);
        (if neg { -v } else { v }, i)
    }

    pub fn strtof(s: &[u8]) -> (f32, usize) {
        let (v, n) = strtod(s);
        (v as f32, n)
    }
}

pub mod ctype {
    /// glibc's C-locale classification bits (`_ISupper` … `_ISalnum`) of `c` (-128..=255).
    pub fn class_bits(c: i32) -> i32 {
        let Ok(b) = u8::try_from(c) else { return 0 };
        if b >= 128 {
            return 0;
        }
        let ch = b as char;
        let mut v = 0;
        let mut set = |cond: bool, bit: i32| {
            if cond {
                v |= bit;
            }
        };
        set(ch.is_ascii_uppercase(), 256);
        set(ch.is_ascii_lowercase(), 512);
        set(ch.is_ascii_alphabetic(), 1024);
        set(ch.is_ascii_digit(), 2048);
        set(ch.is_ascii_hexdigit(), 4096);
        set(
            matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r'),
            8192,
        );
        set((0x20..0x7f).contains(&b), 16384);
        set((0x21..0x7f).contains(&b), 32768);
        set(b == b' ' || b == b'\t', 1);
        set(b < 0x20 || b == 0x7f, 2);
        set(ch.is_ascii_punctuation(), 4);
        set(ch.is_ascii_alphanumeric(), 8);
        v
    }
    pub fn toupper(c: i32) -> i32 {
        if (b'a' as i32..=b'z' as i32).contains(&c) {
            c - 32
        } else {
            c
        }
    }
    pub fn tolower(c: i32) -> i32 {
        if (b'A' as i32..=b'Z' as i32).contains(&c) {
            c + 32
        } else {
            c
        }
    }
}
