//! Formats known when the program is translated: a `print`/`write` whose format is a character
//! literal and whose items are scalars has its format control (Fortran 2003 §10.3, format
//! control interaction with an input/output list) carried out here, so the C writes each edit
//! directly (`_ffc_*` in runtime.h) and the runtime's format interpreter (`_ff_advance`, the
//! biggest routine of the runtime) is not part of the translation (issue 16: parsing, lowering and
//! interpreting it was most of the cost of a program's one formatted `print`).
//!
//! [`compile`] follows runtime.h's `_ff_begin`, `_ff_advance` and `_ff_end` step by step (the
//! same scanning of blanks and commas, repeat counts, groups, reversion, `X`, `/`, `:`, `P` and
//! unknown characters), so both paths write the same bytes. Where the runtime would stop the
//! program (an item whose type its descriptor does not edit) or would not finish (reversion with
//! no data edit descriptor), [`compile`] gives `None` and the statement keeps the runtime path.

/// One step of a compiled formatted output statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormatOp {
    /// A character string edit descriptor's text (written after the pending `X` blanks).
    Text(Vec<u8>),
    /// `nX`: `n` more blanks, written only if something is written after them.
    Blanks(i32),
    /// `/` or the end of the format with items left: a new record.
    Newline,
    /// The next item, edited by this data edit descriptor.
    Edit(Edit),
}

/// A data edit descriptor as the runtime holds it (`_ff_desc`, `_ff_hasw`, `_ff_w`, `_ff_d`,
/// `_ff_e`): `d` and `e` are -1 where the descriptor has none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edit {
    pub letter: u8,
    /// `S` of `ES`, else 0.
    pub second: u8,
    pub has_w: bool,
    pub w: i32,
    pub d: i32,
    pub e: i32,
}

/// The type of an output item, which decides the descriptors that may edit it (runtime.h's
/// `_ff_int`, `_ff_real`, `_ff_log`, `_ff_str`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemKind {
    Integer,
    Real,
    Logical,
    Character,
}

impl ItemKind {
    fn edits(self, letter: u8) -> bool {
        match self {
            ItemKind::Integer => matches!(letter, b'I' | b'G'),
            ItemKind::Real => matches!(letter, b'F' | b'E' | b'D' | b'G'),
            ItemKind::Logical => matches!(letter, b'L' | b'G'),
            ItemKind::Character => matches!(letter, b'A' | b'G'),
        }
    }
}

/// The runtime's format control state (`_ff_pos`, `_ff_rep`, `_ff_depth`, …).
struct Control<'f> {
    fmt: &'f [u8],
    pos: usize,
    revert: usize,
    rep: i32,
    depth: usize,
    group_pos: [usize; 16],
    group_rep: [i32; 16],
    edit: Edit,
    ops: Vec<FormatOp>,
    /// Steps taken, against a format that reverts without a data edit descriptor.
    steps: usize,
}

/// More steps than any format of a program needs for its list: the runtime would loop.
const MAX_STEPS: usize = 100_000;

impl Control<'_> {
    fn at(&self, i: usize) -> Option<u8> {
        self.fmt.get(i).copied()
    }

    /// `_ff_peek`: skip blanks and commas; the character there.
    fn peek(&mut self) -> Option<u8> {
        while matches!(self.at(self.pos), Some(b' ' | b',')) {
            self.pos += 1;
        }
        self.at(self.pos)
    }

    /// `_ff_number`: the digits at the position, if any (0 without).
    fn number(&mut self) -> (bool, i32) {
        let mut n: i32 = 0;
        let mut any = false;
        while let Some(c @ b'0'..=b'9') = self.at(self.pos) {
            n = n.wrapping_mul(10).wrapping_add(i32::from(c - b'0'));
            self.pos += 1;
            any = true;
        }
        (any, n)
    }

    /// `_ff_advance(final)`: `Some(true)` when a data edit descriptor is ready; `None` when the
    /// format would not end.
    fn advance(&mut self, last: bool) -> Option<bool> {
        if self.rep > 0 {
            return Some(!last);
        }
        loop {
            self.steps += 1;
            if self.steps > MAX_STEPS {
                return None;
            }
            let Some(c) = self.peek() else { return Some(false) };
            if c == b')' {
                self.pos += 1;
                if self.depth > 0 {
                    let d = self.depth - 1;
                    self.group_rep[d] -= 1;
                    if self.group_rep[d] > 0 {
                        self.pos = self.group_pos[d];
                    } else {
                        self.depth -= 1;
                    }
                    continue;
                }
                if last {
                    return Some(false);
                }
                self.ops.push(FormatOp::Newline);
                self.pos = self.revert;
                self.depth = 0;
                continue;
            }
            if c == b'\'' || c == b'"' {
                self.pos += 1;
                let mut text = Vec::new();
                while let Some(x) = self.at(self.pos) {
                    if x == c {
                        if self.at(self.pos + 1) == Some(c) {
                            text.push(c);
                            self.pos += 2;
                            continue;
                        }
                        self.pos += 1;
                        break;
                    }
                    text.push(x);
                    self.pos += 1;
                }
                self.ops.push(FormatOp::Text(text));
                continue;
            }
            if c == b'/' {
                self.pos += 1;
                self.ops.push(FormatOp::Newline);
                continue;
            }
            if c == b':' {
                self.pos += 1;
                if last {
                    return Some(false);
                }
                continue;
            }
            let item_start = self.pos;
            let (has_n, n) = self.number();
            let n = if has_n { n } else { 1 };
            let c = self.peek().map(|c| c.to_ascii_uppercase());
            match c {
                Some(b'(') => {
                    self.pos += 1;
                    if self.depth < 16 {
                        self.group_pos[self.depth] = self.pos;
                        self.group_rep[self.depth] = n;
                        self.depth += 1;
                    }
                    if self.depth == 1 {
                        self.revert = item_start;
                    }
                }
                Some(b'X') => {
                    self.pos += 1;
                    self.ops.push(FormatOp::Blanks(n));
                }
                Some(b'P') => self.pos += 1,
                Some(letter @ (b'I' | b'F' | b'E' | b'D' | b'A' | b'L' | b'G')) => {
                    if last {
                        return Some(false);
                    }
                    self.pos += 1;
                    let mut second = 0;
                    if letter == b'E' && self.at(self.pos).map(|c| c.to_ascii_uppercase()) == Some(b'S') {
                        second = b'S';
                        self.pos += 1;
                    }
                    let (has_w, w) = self.number();
                    let mut d = -1;
                    let mut e = -1;
                    if self.at(self.pos) == Some(b'.') {
                        self.pos += 1;
                        d = self.number().1;
                    }
                    if self.at(self.pos).map(|c| c.to_ascii_uppercase()) == Some(b'E') && letter != b'A' {
                        self.pos += 1;
                        e = self.number().1;
                    }
                    self.edit = Edit { letter, second, has_w, w, d, e };
                    self.rep = n;
                    return Some(true);
                }
                // An unknown descriptor (or the end of the text): skip one character.
                _ => self.pos += 1,
            }
        }
    }
}

/// The steps of a formatted output statement with format `fmt` and items of the kinds `items`,
/// ending with `_ff_end`'s (`advance`) or `_ff_end_noadvance`'s scan; `None` where the runtime
/// path must stay (see the module's comment). A record's final new line is not among the steps.
pub fn compile(fmt: &str, items: &[ItemKind]) -> Option<Vec<FormatOp>> {
    let fmt = fmt.as_bytes();
    let mut k = Control { fmt, pos: 0, revert: 0, rep: 0, depth: 0, group_pos: [0; 16], group_rep: [0; 16], edit: Edit { letter: 0, second: 0, has_w: false, w: 0, d: -1, e: -1 }, ops: Vec::new(), steps: 0 };
    // `_ff_begin`: blanks, then the opening parenthesis.
    while k.at(k.pos) == Some(b' ') {
        k.pos += 1;
    }
    if k.at(k.pos) == Some(b'(') {
        k.pos += 1;
    }
    k.revert = k.pos;
    for item in items {
        // An item with no data edit descriptor is evaluated and not written (`_ff_int`
        // returns): the runtime path keeps that.
        if !k.advance(false)? {
            return None;
        }
        k.rep -= 1;
        if !item.edits(k.edit.letter) {
            return None;
        }
        k.ops.push(FormatOp::Edit(k.edit));
    }
    k.advance(true)?;
    Some(k.ops)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(letter: u8, w: i32, d: i32) -> FormatOp {
        FormatOp::Edit(Edit { letter, second: 0, has_w: w >= 0, w: w.max(0), d, e: -1 })
    }

    #[test]
    fn items_take_the_descriptors_in_order() {
        let ops = compile("(a, i0, 2x, es19.12)", &[ItemKind::Character, ItemKind::Integer, ItemKind::Real]).expect("compiles");
        assert_eq!(ops[0], edit(b'A', -1, -1));
        assert_eq!(ops[1], edit(b'I', 0, -1));
        assert_eq!(ops[2], FormatOp::Blanks(2));
        assert_eq!(ops[3], FormatOp::Edit(Edit { letter: b'E', second: b'S', has_w: true, w: 19, d: 12, e: -1 }));
        assert_eq!(ops.len(), 4);
    }

    #[test]
    fn literals_after_the_last_item_are_written_up_to_a_data_descriptor() {
        let ops = compile("('x=', f6.2, ' m', ' and ', i3)", &[ItemKind::Real]).expect("compiles");
        assert_eq!(ops, vec![FormatOp::Text(b"x=".to_vec()), edit(b'F', 6, 2), FormatOp::Text(b" m".to_vec()), FormatOp::Text(b" and ".to_vec())]);
        // `:` ends the record when no item is left.
        let ops = compile("(i2, :, ' tail')", &[ItemKind::Integer]).expect("compiles");
        assert_eq!(ops, vec![edit(b'I', 2, -1)]);
    }

    #[test]
    fn repeat_counts_groups_and_reversion() {
        let ops = compile("(2(i2, 'x'))", &[ItemKind::Integer; 3]).expect("compiles");
        let t = || FormatOp::Text(b"x".to_vec());
        assert_eq!(ops, vec![edit(b'I', 2, -1), t(), edit(b'I', 2, -1), t(), FormatOp::Newline, edit(b'I', 2, -1), t()]);
        let ops = compile("(3f5.1)", &[ItemKind::Real; 4]).expect("compiles");
        assert_eq!(ops, vec![edit(b'F', 5, 1), edit(b'F', 5, 1), edit(b'F', 5, 1), FormatOp::Newline, edit(b'F', 5, 1)]);
    }

    #[test]
    fn the_runtime_path_stays_where_the_runtime_stops_or_loops() {
        assert_eq!(compile("(i5)", &[ItemKind::Real]), None, "a real under I: the runtime's error");
        assert_eq!(compile("('no data')", &[ItemKind::Integer]), None, "reversion without a data descriptor");
    }
}
