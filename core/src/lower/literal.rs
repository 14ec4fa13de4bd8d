//! Constants and string literals: C11 6.4.4 (integer, floating, character constants) and 6.4.5
//! (string literals), lowered to IR constants of their types.

use lang_c::ast;
use lang_c::span::{Node, Span};

use super::expr::mk;
use super::{LResult, Lowerer};
use crate::diag::Loc;
use crate::ir::*;

impl<'a> Lowerer<'a> {
    pub(super) fn constant(&mut self, c: &'a Node<ast::Constant>, loc: Loc) -> LResult<Expr> {
        match &c.node {
            ast::Constant::Integer(i) => {
                let digits: String = i.number.chars().filter(|c| *c != '\'').collect();
                let radix = match i.base {
                    ast::IntegerBase::Decimal => 10,
                    ast::IntegerBase::Octal => 8,
                    ast::IntegerBase::Hexadecimal => 16,
                    ast::IntegerBase::Binary => 2,
                };
                let Ok(v) = u64::from_str_radix(&digits, radix).or_else(|e| if digits.is_empty() { Ok(0) } else { Err(e) }) else {
                    return self.error("constant", "integer constant is too large for any integer type", c.span);
                };
                let decimal = radix == 10;
                let s = &i.suffix;
                // C11 6.4.4.1p5: the first type that can represent the value.
                let candidates: &[IntType] = match (s.size, s.unsigned, decimal) {
                    (ast::IntegerSize::Int, false, true) => &[IntType::INT, IntType::LONG],
                    (ast::IntegerSize::Int, false, false) => &[IntType::INT, IntType::UINT, IntType::LONG, IntType::ULONG],
                    (ast::IntegerSize::Int, true, _) => &[IntType::UINT, IntType::ULONG],
                    (_, false, true) => &[IntType::LONG],
                    (_, false, false) => &[IntType::LONG, IntType::ULONG],
                    (_, true, _) => &[IntType::ULONG],
                };
                let it = candidates
                    .iter()
                    .copied()
                    .find(|t| {
                        let max = if t.signed { (1u64 << (t.bits() - 1)) - 1 } else if t.bytes == 8 { u64::MAX } else { (1u64 << t.bits()) - 1 };
                        v <= max
                    })
                    .unwrap_or(IntType::ULONG); // gcc: an integer constant too large for long is unsigned long, with a warning
                let ty = self.prog.types.intern(Type::Int(it));
                let e = mk(ExprKind::Int(v), ty, loc);
                if s.imaginary {
                    return Ok(self.imaginary(e, FloatKind::F64, loc));
                }
                Ok(e)
            }
            ast::Constant::Float(f) => {
                let k = match f.suffix.format {
                    ast::FloatFormat::Float => FloatKind::F32,
                    ast::FloatFormat::Double => FloatKind::F64,
                    ast::FloatFormat::LongDouble => FloatKind::LongDouble,
                    ast::FloatFormat::TS18661Format(_) => FloatKind::F64,
                };
                let text = &f.number;
                let v = match f.base {
                    ast::FloatBase::Decimal => {
                        if k == FloatKind::F32 {
                            text.parse::<f32>().map(|x| x as f64).ok()
                        } else {
                            text.parse::<f64>().ok()
                        }
                    }
                    ast::FloatBase::Hexadecimal => parse_hex_float(text, k == FloatKind::F32),
                };
                let Some(v) = v else { return self.error("constant", format!("malformed floating constant `{text}`"), c.span) };
                let ty = self.prog.types.intern(Type::Float(k));
                let e = mk(ExprKind::Float(v), ty, loc);
                if f.suffix.imaginary {
                    return Ok(self.imaginary(e, k, loc));
                }
                Ok(e)
            }
            ast::Constant::Character(s) => {
                let int = self.t_int();
                let inner = s.strip_prefix('\'').and_then(|x| x.strip_suffix('\''));
                let Some(inner) = inner else {
                    if s.starts_with(['L', 'u', 'U']) {
                        return self.unsupported("wide character constants", c.span);
                    }
                    return self.error("constant", "malformed character constant", c.span);
                };
                let bytes = match unescape(inner) {
                    Ok(b) => b,
                    Err(m) => return self.error("constant", m, c.span),
                };
                // Multi-character constants: gcc packs big-endian into an int.
                let mut v: i64 = 0;
                for (i, b) in bytes.iter().enumerate() {
                    if i == 0 && bytes.len() == 1 {
                        v = *b as i8 as i64; // char is signed
                    } else {
                        v = (v << 8) | *b as i64;
                    }
                }
                Ok(mk(ExprKind::Int(v as i32 as i64 as u64), int, loc))
            }
        }
    }

    fn imaginary(&mut self, e: Expr, k: FloatKind, loc: Loc) -> Expr {
        let ft = self.prog.types.intern(Type::Float(k));
        let ct = self.prog.types.intern(Type::Complex(k));
        let im = self.convert(e, ft);
        let re = mk(ExprKind::Float(0.0), ft, loc);
        let dst = self.temp_local(ct, loc);
        mk(ExprKind::ComplexMake { re: Box::new(re), im: Box::new(im), dst }, ct, loc)
    }

    /// A string literal of any kind: its element type (`char`; `int` for `L"…"` and `U"…"`,
    /// `unsigned short` for `u"…"`) and its bytes, terminating NUL included.
    pub fn string_literal(&mut self, parts: &[String], span: Span) -> LResult<(IntType, Vec<u8>)> {
        let wide = parts.iter().find_map(|p| {
            let prefix = &p[..p.find('"').unwrap_or(0)];
            match prefix {
                "L" => Some(IntType::INT),
                "U" => Some(IntType::UINT),
                "u" => Some(IntType::USHORT),
                _ => None,
            }
        });
        let Some(elem) = wide else { return Ok((IntType::CHAR, self.string_bytes(parts, span)?)) };
        let mut text = Vec::new();
        for p in parts {
            let start = p.find('"').map(|i| i + 1).unwrap_or(0);
            let inner = p.get(start..p.len().saturating_sub(1)).unwrap_or("");
            match unescape(inner) {
                Ok(b) => text.extend(b),
                Err(m) => return self.error("constant", m, span),
            }
        }
        let decoded = String::from_utf8_lossy(&text);
        let mut out = Vec::new();
        if elem.bytes == 2 {
            for u in decoded.encode_utf16().chain(std::iter::once(0)) {
                out.extend(u.to_le_bytes());
            }
        } else {
            for c in decoded.chars().map(|c| c as u32).chain(std::iter::once(0)) {
                out.extend(c.to_le_bytes());
            }
        }
        Ok((elem, out))
    }

    /// The bytes of a (possibly concatenated) string literal, with the terminating NUL.
    pub fn string_bytes(&mut self, parts: &[String], span: Span) -> LResult<Vec<u8>> {
        let mut out = Vec::new();
        for p in parts {
            let Some(inner) = p.strip_prefix('"').and_then(|x| x.strip_suffix('"')) else {
                let inner = p.strip_prefix("u8\"").and_then(|x| x.strip_suffix('"'));
                match inner {
                    Some(i) => match unescape(i) {
                        Ok(b) => {
                            out.extend(b);
                            continue;
                        }
                        Err(m) => return self.error("constant", m, span),
                    },
                    None => return self.unsupported("wide string literals", span),
                }
            };
            match unescape(inner) {
                Ok(b) => out.extend(b),
                Err(m) => return self.error("constant", m, span),
            }
        }
        out.push(0);
        Ok(out)
    }
}

/// C escape sequences (C11 6.4.4.4) in the text between quotes.
fn unescape(s: &str) -> Result<Vec<u8>, String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        i += 1;
        let Some(&c) = b.get(i) else { return Err("a string ends with a lone backslash".into()) };
        i += 1;
        match c {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            b'a' => out.push(7),
            b'b' => out.push(8),
            b'f' => out.push(12),
            b'v' => out.push(11),
            b'e' | b'E' => out.push(27),
            b'\\' | b'\'' | b'"' | b'?' => out.push(c),
            b'0'..=b'7' => {
                let mut v = (c - b'0') as u32;
                for _ in 0..2 {
                    match b.get(i) {
                        Some(d @ b'0'..=b'7') => {
                            v = v * 8 + (d - b'0') as u32;
                            i += 1;
                        }
                        _ => break,
                    }
                }
                out.push(v as u8);
            }
            b'x' => {
                let mut v: u32 = 0;
                let start = i;
                while let Some(d) = b.get(i).and_then(|d| (*d as char).to_digit(16)) {
                    v = v.wrapping_mul(16).wrapping_add(d);
                    i += 1;
                }
                if i == start {
                    return Err("`\\x` used with no following hex digits".into());
                }
                out.push(v as u8);
            }
            b'u' | b'U' => return Err("universal character names are not supported".into()),
            other => out.push(other), // gcc: unknown escape, warning, the character itself
        }
    }
    Ok(out)
}

/// The value of a C hexadecimal floating constant like `0x1.8p3` (suffix removed; prefix
/// included or not): the value `strtod`/`strtof` give its text, which is what C11 6.4.4.2p3-5
/// asks (the exact value rounded to the type in the current rounding mode; subnormals too).
/// `None` when the text is not all one subject sequence.
fn parse_hex_float(text: &str, to_f32: bool) -> Option<f64> {
    use crate::libc::strconv::{strtod, strtof};
    let body = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")).unwrap_or(text);
    let subject = format!("0x{body}");
    let whole = |consumed: usize| consumed == subject.len() && body.contains(['p', 'P']);
    if to_f32 {
        let p = strtof(subject.as_bytes());
        whole(p.consumed).then_some(f64::from(p.value))
    } else {
        let p = strtod(subject.as_bytes());
        whole(p.consumed).then_some(p.value)
    }
}
