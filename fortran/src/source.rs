//! Source form: turns free-form (and fixed-form) Fortran text into logical statements, one per
//! statement, with the line it starts on. Comments go, `&` continuations are joined, `;` splits
//! statements, and `!$acc` directive lines (with their own `!$acc&` continuations) become
//! directive statements (OpenACC 2.0 §2.1: in free form the sentinel is `!$acc`; in fixed form
//! `!$acc`, `c$acc` or `*$acc` in columns 1-5, continuation by a non-blank, non-zero column 6).

/// One logical statement.
#[derive(Debug, Clone, PartialEq)]
pub struct Logical {
    /// 1-based line of the statement's first physical line.
    pub line: u32,
    /// The statement text (comments removed, continuations joined), or the directive text after
    /// the sentinel.
    pub text: String,
    /// `true` for an `!$acc` directive.
    pub directive: bool,
    /// A numeric statement label (`10 continue`), when present.
    pub label: Option<u32>,
}

/// Where `!` starts a comment in `line` (outside character literals), if anywhere.
fn comment_start(line: &str, quote: &mut Option<char>) -> Option<usize> {
    for (i, c) in line.char_indices() {
        match *quote {
            Some(q) if c == q => *quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => *quote = Some(c),
            None if c == '!' => return Some(i),
            None => {}
        }
    }
    None
}

/// The text after an OpenACC sentinel at the start of `line` (`!$acc`, case-insensitive), if any.
fn acc_sentinel(line: &str) -> Option<&str> {
    let t = line.trim_start();
    if t.len() >= 5 && t[..5].eq_ignore_ascii_case("!$acc") {
        let rest = &t[5..];
        if rest.is_empty() || rest.starts_with([' ', '\t', '&']) {
            return Some(rest);
        }
    }
    None
}

/// Split a statement line at top-level `;` (outside character literals).
fn split_semicolons(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    for c in text.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None if c == ';' => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            None => {}
        }
        cur.push(c);
    }
    out.push(cur);
    out
}

/// Split off a leading statement label (`100 continue`).
fn take_label(text: &str) -> (Option<u32>, String) {
    let t = text.trim_start();
    let digits: String = t.chars().take_while(|c| c.is_ascii_digit()).collect();
    if !digits.is_empty() && digits.len() <= 5 && t[digits.len()..].starts_with([' ', '\t']) {
        return (digits.parse().ok(), t[digits.len()..].trim().to_string());
    }
    (None, t.trim().to_string())
}

fn push_statement(out: &mut Vec<Logical>, line: u32, text: &str) {
    for part in split_semicolons(text) {
        let (label, text) = take_label(&part);
        if !text.is_empty() || label.is_some() {
            out.push(Logical { line, text, directive: false, label });
        }
    }
}

/// Logical statements of free-form source.
pub fn free_form(src: &str) -> Vec<Logical> {
    let mut out = Vec::new();
    let lines: Vec<&str> = src.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let start = i as u32 + 1;
        if let Some(rest) = acc_sentinel(lines[i]) {
            // A directive: its continuation lines also start with the sentinel.
            let mut text = String::new();
            let mut cur = rest.to_string();
            loop {
                let mut q = None;
                if let Some(c) = comment_start(&cur, &mut q) {
                    cur.truncate(c);
                }
                let t = cur.trim();
                let t = t.strip_prefix('&').unwrap_or(t);
                if let Some(body) = t.strip_suffix('&') {
                    text.push_str(body.trim());
                    text.push(' ');
                    i += 1;
                    match lines.get(i).and_then(|l| acc_sentinel(l)) {
                        Some(next) => cur = next.to_string(),
                        None => break,
                    }
                } else {
                    text.push_str(t);
                    i += 1;
                    break;
                }
            }
            out.push(Logical { line: start, text: text.trim().to_string(), directive: true, label: None });
            continue;
        }
        let mut text = String::new();
        let mut quote: Option<char> = None;
        let mut first = true;
        loop {
            let raw = lines[i];
            let mut body = raw;
            if !first {
                let t = body.trim_start();
                if let Some(r) = t.strip_prefix('&') {
                    body = r;
                } else if quote.is_none() {
                    body = t;
                }
            }
            // `!$` conditional compilation lines other than `!$acc` are comments here.
            let was_in_quote = quote;
            let cut = comment_start(body, &mut quote);
            let mut piece = match cut {
                Some(c) => &body[..c],
                None => body,
            };
            let _ = was_in_quote;
            let trimmed = piece.trim_end();
            if let Some(p) = trimmed.strip_suffix('&') {
                piece = p;
                text.push_str(piece);
                i += 1;
                first = false;
                // Skip blank and comment-only lines inside a continuation.
                while i < lines.len() {
                    let t = lines[i].trim_start();
                    if t.is_empty() || (t.starts_with('!') && acc_sentinel(t).is_none()) {
                        i += 1;
                    } else {
                        break;
                    }
                }
                if i >= lines.len() {
                    break;
                }
                continue;
            }
            text.push_str(piece);
            i += 1;
            break;
        }
        push_statement(&mut out, start, &text);
    }
    out
}

/// Logical statements of fixed-form source (columns 1-5 label, 6 continuation, 7-72 statement).
pub fn fixed_form(src: &str) -> Vec<Logical> {
    let mut out: Vec<Logical> = Vec::new();
    // Whether the last pushed statement may be continued (a directive or a statement).
    let mut open: Option<bool> = None;
    for (idx, raw) in src.lines().enumerate() {
        let line_no = idx as u32 + 1;
        let line: String = raw.chars().take(72).collect();
        let first = line.chars().next().unwrap_or(' ');
        let lower = line.to_ascii_lowercase();
        if lower.len() >= 5 && matches!(&lower[..1], "!" | "c" | "*") && &lower[1..5] == "$acc" {
            let col6 = line.chars().nth(5).unwrap_or(' ');
            let rest: String = line.chars().skip(6).collect();
            let mut q = None;
            let rest = match comment_start(&rest, &mut q) {
                Some(c) => rest[..c].to_string(),
                None => rest,
            };
            if col6 != ' ' && col6 != '0' && open == Some(true) {
                if let Some(last) = out.last_mut() {
                    last.text.push(' ');
                    last.text.push_str(rest.trim());
                }
            } else {
                out.push(Logical { line: line_no, text: rest.trim().to_string(), directive: true, label: None });
                open = Some(true);
            }
            continue;
        }
        if matches!(first, 'c' | 'C' | '*' | '!') || line.trim().is_empty() {
            continue;
        }
        if line.trim_start().starts_with('!') {
            continue;
        }
        let label_field: String = line.chars().take(5).collect();
        let col6 = line.chars().nth(5).unwrap_or(' ');
        let body: String = line.chars().skip(6).collect();
        let mut q = None;
        let body = match comment_start(&body, &mut q) {
            Some(c) => body[..c].to_string(),
            None => body,
        };
        if col6 != ' ' && col6 != '0' && open == Some(false) {
            if let Some(last) = out.last_mut() {
                last.text.push_str(body.trim_end());
            }
            continue;
        }
        let label = label_field.trim().parse::<u32>().ok();
        let before = out.len();
        push_statement(&mut out, line_no, body.trim());
        if let (Some(l), Some(first_new)) = (label, out.get_mut(before)) {
            first_new.label = Some(l);
        }
        open = Some(false);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_form_joins_continuations_and_drops_comments() {
        let src = "x = 1 + & ! c\n   & 2\n! only a comment\ny = 'a!b' ; z = 3\n!$acc parallel loop &\n!$acc& copy(a)\n";
        let l = free_form(src);
        assert_eq!(l.len(), 4);
        // Continuation joins keep the blanks on both sides of the `&`s (as in `x = 1 +  2`).
        assert_eq!(l[0].text, "x = 1 +  2");
        assert_eq!(l[1].text, "y = 'a!b'");
        assert_eq!((l[2].text.as_str(), l[2].line), ("z = 3", 4));
        assert_eq!((l[3].text.as_str(), l[3].directive, l[3].line), ("parallel loop  copy(a)", true, 5));
    }

    #[test]
    fn fixed_form_reads_columns() {
        let src = "c comment\n      x = 1 +\n     &    2\n   10 continue\nc$acc parallel\n";
        let l = fixed_form(src);
        assert_eq!(l[0].text, "x = 1 +    2");
        assert_eq!((l[1].label, l[1].text.as_str()), (Some(10), "continue"));
        assert!(l[2].directive);
    }
}
