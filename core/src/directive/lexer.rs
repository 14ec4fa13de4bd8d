//! Tokens of a directive's text: C identifiers, pp-numbers, string and character literals and
//! punctuators (§2.1: the rest of the line follows the C conventions for pragmas).
//!
//! Whitespace, comments and `\` line continuations separate tokens and are dropped. The lexer
//! only needs to be precise enough to find clause names, matching brackets and top-level commas
//! and colons; the expressions themselves are re-parsed as C by the lowering.

use std::ops::Range;

use super::ast::DirectiveError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TokenKind {
    Ident,
    Number,
    Str,
    Char,
    Punct(&'static str),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Token {
    pub kind: TokenKind,
    pub span: Range<usize>,
}

impl Token {
    pub fn is_punct(&self, p: &str) -> bool {
        matches!(self.kind, TokenKind::Punct(q) if q == p)
    }
}

/// Longest first, so that maximal munch is a first match.
const PUNCTUATORS: &[&str] = &[
    "...", "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "*=",
    "/=", "%=", "+=", "-=", "&=", "^=", "|=", "##", "[", "]", "(", ")", "{", "}", ".", "&", "*",
    "+", "-", "~", "!", "/", "%", "<", ">", "^", "|", "?", ":", ";", "=", ",", "#",
];

pub(crate) fn tokenize(src: &str) -> Result<Vec<Token>, DirectiveError> {
    let bytes = src.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'\\' {
            i = skip_continuation(bytes, i).ok_or_else(|| {
                DirectiveError::new("stray `\\` in directive", i..i + 1)
                    .with_help("a `\\` may only end a line, to continue the directive on the next")
            })?;
        } else if bytes[i..].starts_with(b"/*") {
            let end = src[i + 2..]
                .find("*/")
                .ok_or_else(|| DirectiveError::new("unterminated comment", i..i + 2))?;
            i += 2 + end + 2;
        } else if bytes[i..].starts_with(b"//") {
            i = src[i..].find('\n').map_or(bytes.len(), |n| i + n);
        } else if c.is_ascii_alphabetic() || c == b'_' || c == b'$' {
            let start = i;
            while i < bytes.len() && is_ident_continue(bytes[i]) {
                i += 1;
            }
            tokens.push(Token {
                kind: TokenKind::Ident,
                span: start..i,
            });
        } else if c.is_ascii_digit()
            || (c == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            let start = i;
            i += 1;
            // A pp-number (C11 6.4.8): digits, letters, `_`, `.`, and a sign after an exponent.
            while i < bytes.len() {
                let d = bytes[i];
                let exponent_sign =
                    (d == b'+' || d == b'-') && matches!(bytes[i - 1], b'e' | b'E' | b'p' | b'P');
                if !(exponent_sign || is_ident_continue(d) || d == b'.') {
                    break;
                }
                i += 1;
            }
            tokens.push(Token {
                kind: TokenKind::Number,
                span: start..i,
            });
        } else if c == b'"' || c == b'\'' {
            let start = i;
            i = skip_literal(bytes, i).ok_or_else(|| {
                let what = if c == b'"' { "string" } else { "character" };
                DirectiveError::new(format!("unterminated {what} literal"), start..bytes.len())
            })?;
            let kind = if c == b'"' {
                TokenKind::Str
            } else {
                TokenKind::Char
            };
            tokens.push(Token {
                kind,
                span: start..i,
            });
        } else if let Some(p) = PUNCTUATORS
            .iter()
            .find(|p| bytes[i..].starts_with(p.as_bytes()))
        {
            tokens.push(Token {
                kind: TokenKind::Punct(p),
                span: i..i + p.len(),
            });
            i += p.len();
        } else {
            let ch = src[i..].chars().next().unwrap_or('?');
            return Err(DirectiveError::new(
                format!("unexpected character `{ch}` in directive"),
                i..i + ch.len_utf8(),
            ));
        }
    }
    Ok(tokens)
}

fn is_ident_continue(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

/// `i` is at a `\`; returns the index after `\` [spaces] newline, or None if no newline follows.
fn skip_continuation(bytes: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    while j < bytes.len() && (bytes[j] == b' ' || bytes[j] == b'\t' || bytes[j] == b'\r') {
        j += 1;
    }
    (bytes.get(j) == Some(&b'\n')).then_some(j + 1)
}

/// `i` is at the opening quote; returns the index after the closing one.
fn skip_literal(bytes: &[u8], i: usize) -> Option<usize> {
    let quote = bytes[i];
    let mut j = i + 1;
    while j < bytes.len() {
        match bytes[j] {
            b'\\' => j += 2,
            b'\n' => return None,
            b if b == quote => return Some(j + 1),
            _ => j += 1,
        }
    }
    None
}

/// The source text of `span` with each line continuation replaced by a space.
pub(crate) fn source_text(src: &str, span: Range<usize>) -> String {
    let Some(text) = src.get(span) else {
        return String::new();
    };
    if !text.contains('\\') {
        return text.to_string();
    }
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut copied = 0;
    let mut in_literal: Option<u8> = None;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\\' {
            if let Some(next) = skip_continuation(bytes, i) {
                out.push_str(&text[copied..i]);
                out.push(' ');
                i = next;
                copied = i;
                continue;
            }
            if in_literal.is_some() {
                i += 1; // skip the escaped character's first byte
            }
        } else if let Some(q) = in_literal {
            if b == q {
                in_literal = None;
            }
        } else if b == b'"' || b == b'\'' {
            in_literal = Some(b);
        }
        i += 1;
    }
    out.push_str(text.get(copied..).unwrap_or(""));
    out
}
