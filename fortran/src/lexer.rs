//! Tokens of one logical statement. Fortran keywords are not reserved: the parser decides from
//! context, so names stay names here. Everything is lower-cased except character literals.

#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    Name(String),
    /// Integer literal digits and optional kind (`5_8`).
    Int(String, Option<String>),
    /// Real literal as written (lower case) — the kind is decided by the parser.
    Real(String),
    Str(String),
    /// `.and.`, `.true.`, … without the dots.
    Dot(String),
    /// Punctuation and operators: `** == /= <= >= < > // => :: ( ) , = + - * / % : (/ /) [ ]`.
    P(&'static str),
}

#[derive(Debug, Clone)]
pub struct Token {
    pub tok: Tok,
    /// 0-based byte column in the statement text.
    pub col: usize,
}

const PUNCT: [&str; 24] =
    ["**", "==", "/=", "<=", ">=", "//", "=>", "::", "(/", "/)", "<", ">", "(", ")", ",", "=", "+", "-", "*", "/", "%", ":", "[", "]"];

const DOT_OPS: [&str; 13] = ["and", "or", "not", "eqv", "neqv", "eq", "ne", "lt", "le", "gt", "ge", "true", "false"];

/// A dot operator starting at `s[i]` (which is `.`), as (name, length including both dots).
fn dot_op(s: &[u8], i: usize) -> Option<(String, usize)> {
    let mut j = i + 1;
    while j < s.len() && s[j].is_ascii_alphabetic() {
        j += 1;
    }
    if j < s.len() && s[j] == b'.' && j > i + 1 {
        let w = String::from_utf8_lossy(&s[i + 1..j]).to_ascii_lowercase();
        if DOT_OPS.contains(&w.as_str()) {
            return Some((w, j + 1 - i));
        }
    }
    None
}

/// Tokenize; an error gives the column and a message.
pub fn tokenize(text: &str) -> Result<Vec<Token>, (usize, String)> {
    let s = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        if c == b' ' || c == b'\t' {
            i += 1;
            continue;
        }
        let col = i;
        if c == b'\'' || c == b'"' {
            let mut v = Vec::new();
            i += 1;
            loop {
                if i >= s.len() {
                    return Err((col, "unterminated character literal".into()));
                }
                if s[i] == c {
                    if i + 1 < s.len() && s[i + 1] == c {
                        v.push(c);
                        i += 2;
                        continue;
                    }
                    i += 1;
                    break;
                }
                v.push(s[i]);
                i += 1;
            }
            out.push(Token { tok: Tok::Str(String::from_utf8_lossy(&v).into_owned()), col });
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let mut j = i;
            while j < s.len() && (s[j].is_ascii_alphanumeric() || s[j] == b'_') {
                j += 1;
            }
            out.push(Token { tok: Tok::Name(text[i..j].to_ascii_lowercase()), col });
            i = j;
            continue;
        }
        if c.is_ascii_digit() || (c == b'.' && i + 1 < s.len() && s[i + 1].is_ascii_digit()) {
            let mut j = i;
            while j < s.len() && s[j].is_ascii_digit() {
                j += 1;
            }
            let mut real = false;
            if j < s.len() && s[j] == b'.' && dot_op(s, j).is_none() {
                real = true;
                j += 1;
                while j < s.len() && s[j].is_ascii_digit() {
                    j += 1;
                }
            }
            if j < s.len() && matches!(s[j], b'e' | b'E' | b'd' | b'D') {
                let mut k = j + 1;
                if k < s.len() && (s[k] == b'+' || s[k] == b'-') {
                    k += 1;
                }
                if k < s.len() && s[k].is_ascii_digit() {
                    while k < s.len() && s[k].is_ascii_digit() {
                        k += 1;
                    }
                    real = true;
                    j = k;
                }
            }
            let body = text[i..j].to_ascii_lowercase();
            let mut kind = None;
            if j + 1 < s.len() && s[j] == b'_' && (s[j + 1].is_ascii_alphanumeric()) {
                let mut k = j + 1;
                while k < s.len() && (s[k].is_ascii_alphanumeric() || s[k] == b'_') {
                    k += 1;
                }
                kind = Some(text[j + 1..k].to_ascii_lowercase());
                j = k;
            }
            let tok = if real {
                Tok::Real(match kind {
                    Some(k) => format!("{body}_{k}"),
                    None => body,
                })
            } else {
                Tok::Int(body, kind)
            };
            out.push(Token { tok, col });
            i = j;
            continue;
        }
        if c == b'.' {
            if let Some((w, len)) = dot_op(s, i) {
                out.push(Token { tok: Tok::Dot(w), col });
                i += len;
                continue;
            }
        }
        if let Some(p) = PUNCT.iter().find(|p| text[i..].starts_with(**p)) {
            // `(/` only opens an array constructor when not `(/)`-ambiguous with division: a `(`
            // directly followed by `/` is always a constructor in the subset accsim reads.
            out.push(Token { tok: Tok::P(p), col });
            i += p.len();
            continue;
        }
        return Err((col, format!("unexpected character `{}`", text[i..].chars().next().unwrap_or('?'))));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_dot_operators() {
        let t = tokenize("if (1.eq.2 .and. x>=1.5d0) y = 3_8 ** 2.e1").unwrap();
        let toks: Vec<Tok> = t.into_iter().map(|t| t.tok).collect();
        assert_eq!(toks[2], Tok::Int("1".into(), None));
        assert_eq!(toks[3], Tok::Dot("eq".into()));
        assert_eq!(toks[8], Tok::Real("1.5d0".into()));
        assert_eq!(toks[12], Tok::Int("3".into(), Some("8".into())));
        assert_eq!(toks[14], Tok::Real("2.e1".into()));
    }
}
