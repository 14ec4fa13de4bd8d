//! GNU `__attribute__((…))` in the places gcc accepts and lang-c's grammar does not.
//!
//! lang-c parses attributes among declaration specifiers, after declarators and after a struct
//! body, but not in three places gcc (and glibc's and gcc's own headers, `<omp.h>` among them)
//! puts them:
//! - between `struct`/`union`/`enum` and the tag or body: `typedef struct __attribute__((aligned
//!   (8))) omp_depend_t { … } omp_depend_t;`. GCC's manual ("Type Attributes") gives this place
//!   and the one right after the closing brace the same meaning, so the attributes move there
//!   (for a reference without a body, `struct __attribute__((x)) tag *p`, gcc ignores them: they
//!   are dropped);
//! - as a statement: `__attribute__((fallthrough));` ("Statement Attributes"), which has no
//!   effect on the program: dropped;
//! - after a label: `done: __attribute__((unused));` ("Label Attributes"), no effect: dropped.
//!
//! The rewrite keeps every line where it was: dropped text is replaced by spaces (its newlines
//! kept), and moved text loses its newlines, so [`super::LineMap::rebase`] still maps every line
//! to its origin. String and character literals are never touched. [`Moves`] maps an offset of
//! the new text back to where it was written, so diagnostics keep their columns.
//!
//! What the attributes mean is the lowering's business (`lower/attrs.rs`: `aligned` changes
//! struct layout, `packed` and `vector_size` are refused as unsupported, the rest is ignored).

/// An attribute moved after a closing brace: `len` bytes inserted at `at`, written at `from`
/// (offsets in the normalized text; `at` starts with one space).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Move {
    pub at: usize,
    pub len: usize,
    pub from: usize,
    /// The end of the line the insertion is on (set once the text is final).
    pub line_end: usize,
}

/// Where the source of every byte of a normalized text was written, for diagnostics.
#[derive(Clone, Debug, Default)]
pub struct Moves(Vec<Move>);

impl Moves {
    /// The offset whose line and column describe `offset` of the normalized text: a moved
    /// attribute's byte maps to where it was written, and text after an insertion on its line
    /// to where it stood before the insertion.
    pub fn original(&self, offset: usize) -> usize {
        for m in &self.0 {
            if (m.at..m.at + m.len).contains(&offset) {
                return m.from + (offset - m.at).saturating_sub(1);
            }
        }
        let mut shifted = offset;
        for m in &self.0 {
            if (m.at + m.len..m.line_end).contains(&offset) {
                shifted = shifted.saturating_sub(m.len);
            }
        }
        shifted
    }
}

/// The text with every attribute lang-c cannot parse moved or dropped as described above.
pub fn normalize(text: &str) -> String {
    normalize_with_moves(text).0
}

/// [`normalize`], and where the moved attributes came from.
pub fn normalize_with_moves(text: &str) -> (String, Moves) {
    let mut out: Vec<u8> = text.as_bytes().to_vec();
    let mut moves = Vec::new();
    let mut i = 0;
    while i < out.len() {
        match out[i] {
            b'"' | b'\'' => {
                i = skip_literal(&out, i);
                continue;
            }
            c if is_ident_start(c) => {
                let end = ident_end(&out, i);
                let word = &out[i..end];
                let standalone = i == 0 || !is_ident_char(out[i - 1]);
                if standalone && matches!(word, b"struct" | b"union" | b"enum") {
                    move_tag_attributes(&mut out, end, &mut moves);
                } else if standalone && is_attribute_keyword(word) {
                    drop_statement_or_label_attribute(&mut out, i);
                }
                i = end;
                continue;
            }
            _ => i += 1,
        }
    }
    // Only ASCII bytes were moved or blanked, and literals were left whole: still UTF-8.
    let text = String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    for m in &mut moves {
        let after = m.at + m.len;
        m.line_end = text.get(after..).and_then(|rest| rest.find('\n')).map_or(text.len(), |p| after + p);
    }
    (text, Moves(moves))
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn ident_end(s: &[u8], start: usize) -> usize {
    let mut j = start;
    while j < s.len() && is_ident_char(s[j]) {
        j += 1;
    }
    j
}

fn is_attribute_keyword(word: &[u8]) -> bool {
    word == b"__attribute__" || word == b"__attribute"
}

fn skip_space(s: &[u8], mut j: usize) -> usize {
    while j < s.len() && s[j].is_ascii_whitespace() {
        j += 1;
    }
    j
}

/// The index just past the string or character literal starting at `start`.
fn skip_literal(s: &[u8], start: usize) -> usize {
    let quote = s[start];
    let mut j = start + 1;
    while j < s.len() && s[j] != quote && s[j] != b'\n' {
        if s[j] == b'\\' {
            j += 1;
        }
        j += 1;
    }
    (j + 1).min(s.len())
}

/// The index just past the parenthesised group starting at `open` (which must be `(`), or `None`
/// when it is not closed.
fn skip_parens(s: &[u8], open: usize) -> Option<usize> {
    skip_group(s, open, b'(', b')')
}

/// The index just past the `close` that matches the `open_byte` at `open`, skipping string and
/// character literals, or `None` when it is not closed.
fn skip_group(s: &[u8], open: usize, open_byte: u8, close: u8) -> Option<usize> {
    let mut depth = 0usize;
    let mut j = open;
    while j < s.len() {
        match s[j] {
            b'"' | b'\'' => {
                j = skip_literal(s, j);
                continue;
            }
            c if c == open_byte => depth += 1,
            c if c == close => {
                depth -= 1;
                if depth == 0 {
                    return Some(j + 1);
                }
            }
            _ => {}
        }
        j += 1;
    }
    None
}

/// The attribute specifiers (`__attribute__((…))`, one or several) starting at `at`, as the range
/// they span, or `None` when there is none there.
fn attribute_run(s: &[u8], at: usize) -> Option<(usize, usize)> {
    let start = skip_space(s, at);
    let mut end = None;
    let mut j = start;
    loop {
        let k = skip_space(s, j);
        if k >= s.len() || !is_ident_start(s[k]) {
            break;
        }
        let word_end = ident_end(s, k);
        if !is_attribute_keyword(&s[k..word_end]) {
            break;
        }
        let open = skip_space(s, word_end);
        if s.get(open) != Some(&b'(') {
            break;
        }
        let Some(close) = skip_parens(s, open) else { break };
        end = Some(close);
        j = close;
    }
    end.map(|e| (start, e))
}

/// Replace `s[from..to]` by spaces, keeping newlines.
fn blank(s: &mut [u8], from: usize, to: usize) {
    for b in &mut s[from..to] {
        if *b != b'\n' {
            *b = b' ';
        }
    }
}

/// After `struct`/`union`/`enum` (ending at `kw_end`): attributes before the tag or body move
/// after the body's closing brace, or are dropped when there is no body.
fn move_tag_attributes(s: &mut Vec<u8>, kw_end: usize, moves: &mut Vec<Move>) {
    let Some((start, end)) = attribute_run(s, kw_end) else { return };
    let moved: Vec<u8> = s[start..end].iter().map(|&b| if b == b'\n' { b' ' } else { b }).collect();
    blank(s, start, end);
    // The optional tag, then the body.
    let mut j = skip_space(s, end);
    if j < s.len() && is_ident_start(s[j]) {
        j = skip_space(s, ident_end(s, j));
    }
    if s.get(j) != Some(&b'{') {
        return;
    }
    let Some(close) = matching_brace(s, j) else { return };
    let mut insert = Vec::with_capacity(moved.len() + 2);
    insert.push(b' ');
    insert.extend_from_slice(&moved);
    insert.push(b' ');
    let len = insert.len();
    s.splice(close..close, insert);
    // Earlier moves at or after the insertion point (an enclosing struct's, which went after its
    // own brace) shift with the text.
    for m in moves.iter_mut() {
        if m.at >= close {
            m.at += len;
        }
        if m.from >= close {
            m.from += len;
        }
    }
    moves.push(Move { at: close, len, from: start, line_end: 0 });
}

/// The index just past the `}` matching the `{` at `open`.
fn matching_brace(s: &[u8], open: usize) -> Option<usize> {
    skip_group(s, open, b'{', b'}')
}

/// An attribute run at `at` that is a statement (`__attribute__((fallthrough));`) or follows a
/// label (`name: __attribute__((unused))`) is blanked.
fn drop_statement_or_label_attribute(s: &mut [u8], at: usize) {
    let Some((start, end)) = attribute_run(s, at) else { return };
    let before = s[..start].iter().rposition(|b| !b.is_ascii_whitespace()).map(|p| s[p]);
    let after = s.get(skip_space(s, end)).copied();
    let after_label = before == Some(b':') && !preceded_by_conditional_colon(s, start);
    let statement = after == Some(b';') && matches!(before, Some(b';' | b'{' | b'}' | b':')) && is_fallthrough(&s[start..end]);
    if after_label || statement {
        blank(s, start, end);
    }
}

/// Whether the `:` before `start` belongs to a bit-field or a `?:` rather than a label: a label's
/// colon follows an identifier that follows `;`, `{`, `}` or another label (a bit-field's follows
/// a width, and `case X:` is not followed by attributes in gcc's grammar).
fn preceded_by_conditional_colon(s: &[u8], start: usize) -> bool {
    let Some(colon) = s[..start].iter().rposition(|b| !b.is_ascii_whitespace()) else { return true };
    let Some(last) = s[..colon].iter().rposition(|b| !b.is_ascii_whitespace()) else { return true };
    if !is_ident_char(s[last]) {
        return true;
    }
    let mut first = last;
    while first > 0 && is_ident_char(s[first - 1]) {
        first -= 1;
    }
    if !is_ident_start(s[first]) {
        return true;
    }
    let prev = s[..first].iter().rposition(|b| !b.is_ascii_whitespace()).map(|p| s[p]);
    !matches!(prev, None | Some(b';' | b'{' | b'}' | b':'))
}

fn is_fallthrough(attrs: &[u8]) -> bool {
    let text = String::from_utf8_lossy(attrs);
    text.contains("fallthrough") || text.contains("__fallthrough__")
}

#[cfg(test)]
mod tests {
    use super::normalize;

    #[test]
    fn tag_attributes_move_after_the_body() {
        let src = "typedef struct __attribute__((__aligned__ (sizeof (void *)))) omp_depend_t\n{\n  char x[16];\n} omp_depend_t;\n";
        let out = normalize(src);
        assert_eq!(out.lines().count(), src.lines().count());
        assert!(out.starts_with("typedef struct "), "{out}");
        assert!(out.contains("} __attribute__((__aligned__ (sizeof (void *))))  omp_depend_t;"), "{out}");
        assert!(!out.lines().next().unwrap_or("").contains("__attribute__"));
    }

    #[test]
    fn anonymous_union_and_enum_and_reference() {
        let out = normalize("union __attribute__((packed)) { int a; } u; enum __attribute__((packed)) e { A };");
        assert_eq!(out.matches("__attribute__").count(), 2);
        assert!(out.contains("} __attribute__((packed))  u;"), "{out}");
        assert!(out.contains("A } __attribute__((packed)) ;"), "{out}");
        let out = normalize("struct __attribute__((unused)) s *p;");
        assert!(!out.contains("__attribute__"), "{out}");
    }

    #[test]
    fn moved_text_maps_back_to_where_it_was_written() {
        let src = "struct __attribute__((packed)) s { int a; } v;\nint w;";
        let (out, moves) = super::normalize_with_moves(src);
        let moved = out.find("__attribute__").unwrap_or(0);
        assert_eq!(moves.original(moved), src.find("__attribute__").unwrap_or(1));
        let v = out.find(" v;").unwrap_or(0) + 1;
        assert_eq!(moves.original(v), src.find(" v;").unwrap_or(0) + 1);
        let w = out.find("int w").unwrap_or(0);
        assert_eq!(moves.original(w), w);
    }

    #[test]
    fn statement_and_label_attributes_are_dropped() {
        let src = "switch (x) { case 1: x++; __attribute__((fallthrough)); case 2: break; }\nout: __attribute__((unused)); return 0;";
        let out = normalize(src);
        assert!(!out.contains("__attribute__"), "{out}");
        assert_eq!(out.len(), src.len());
    }

    #[test]
    fn declaration_attributes_and_literals_stay() {
        let src = "int x __attribute__((aligned(16))) = 1; const char *s = \"struct __attribute__((x)) t {\"; struct s { int a : 3; } __attribute__((packed));";
        assert_eq!(normalize(src), src);
    }
}
