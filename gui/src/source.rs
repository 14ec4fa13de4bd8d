//! A C source file as the GUI shows it: its lines, and which of them carry an OpenACC directive.
//!
//! Detection is textual, on the file as written (before preprocessing), because the source panel
//! shows the file as written: a line is a directive line when it is `#pragma acc …` (spaces
//! allowed around `#`, spec §2.1) or contains `_Pragma("acc …")`, and the lines a directive
//! continues onto with a trailing backslash belong to it. A directive hidden behind a macro is
//! not coloured; the front-end, not this module, is the authority on what is a directive.

use std::path::{Path, PathBuf};

/// One line of a source file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceLine {
    /// The line's text, without its line terminator.
    pub text: String,
    /// The line is part of a `#pragma acc` directive (its first line or a continuation).
    pub is_directive: bool,
}

/// A loaded C source file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    pub path: PathBuf,
    /// Line `n` (1-based, as editors and diagnostics count) is `lines[n - 1]`.
    pub lines: Vec<SourceLine>,
}

/// Why a file could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
}

impl SourceFile {
    /// Reads `path`. Bytes that are not UTF-8 are shown as U+FFFD rather than refused.
    pub fn open(path: &Path) -> Result<Self, OpenError> {
        let bytes = std::fs::read(path).map_err(|source| OpenError::Read {
            path: path.to_owned(),
            source,
        })?;
        Ok(Self::from_text(
            path.to_owned(),
            &String::from_utf8_lossy(&bytes),
        ))
    }

    /// Splits `text` into lines (`\n` or `\r\n`) and marks the directive lines.
    pub fn from_text(path: PathBuf, text: &str) -> Self {
        let mut lines = Vec::new();
        let mut continues_directive = false;
        for raw in text.lines() {
            let is_directive = continues_directive || is_directive_start(raw);
            continues_directive = is_directive && raw.trim_end().ends_with('\\');
            lines.push(SourceLine {
                text: raw.to_owned(),
                is_directive,
            });
        }
        Self { path, lines }
    }

    /// 1-based numbers of the directive lines, in order.
    pub fn directive_line_numbers(&self) -> impl Iterator<Item = usize> + '_ {
        self.lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l.is_directive)
            .map(|(i, _)| i + 1)
    }
}

/// Does `line` begin an OpenACC directive: `# pragma acc` or `_Pragma("acc`?
pub fn is_directive_start(line: &str) -> bool {
    if let Some(rest) = line.trim_start().strip_prefix('#') {
        if let Some(rest) = rest.trim_start().strip_prefix("pragma") {
            if rest.starts_with(|c: char| c.is_ascii_whitespace()) {
                return starts_with_word(rest.trim_start(), "acc");
            }
        }
        return false;
    }
    line.match_indices("_Pragma").any(|(i, m)| {
        let rest = line[i + m.len()..].trim_start();
        rest.strip_prefix('(')
            .map(str::trim_start)
            .and_then(|r| r.strip_prefix('"'))
            .is_some_and(|r| starts_with_word(r.trim_start(), "acc"))
    })
}

/// `s` starts with `word` followed by a non-identifier character or the end.
fn starts_with_word(s: &str, word: &str) -> bool {
    s.strip_prefix(word)
        .is_some_and(|rest| !rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directive_starts() {
        assert!(is_directive_start("#pragma acc parallel loop"));
        assert!(is_directive_start("  #  pragma   acc kernels"));
        assert!(is_directive_start("#pragma acc"));
        assert!(is_directive_start("\t#pragma\tacc data copy(a[0:n])"));
        assert!(is_directive_start("_Pragma(\"acc parallel\") for (;;) ;"));
        assert!(is_directive_start("x; _Pragma ( \"acc loop\" )"));
        assert!(!is_directive_start("#pragma omp parallel for"));
        assert!(!is_directive_start("#pragma accel"));
        assert!(!is_directive_start("#pragmaacc"));
        assert!(!is_directive_start("#include <openacc.h>"));
        assert!(!is_directive_start("// #pragma acc in a comment"));
        assert!(!is_directive_start("int pragma_acc = 0;"));
        assert!(!is_directive_start("_Pragma(\"omp parallel\")"));
    }

    #[test]
    fn lines_and_continuations() {
        let text =
            "int main(void) {\r\n#pragma acc parallel loop \\\n    copy(a[0:n])\nfor (;;) ;\n}\n";
        let file = SourceFile::from_text(PathBuf::from("t.c"), text);
        assert_eq!(file.lines.len(), 5);
        assert_eq!(file.lines[0].text, "int main(void) {");
        assert_eq!(file.lines[2].text, "    copy(a[0:n])");
        assert_eq!(
            file.directive_line_numbers().collect::<Vec<_>>(),
            vec![2, 3]
        );
    }

    #[test]
    fn open_missing_file_is_an_error() {
        let err = SourceFile::open(Path::new("/nonexistent/accsim/x.c")).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("cannot read /nonexistent/accsim/x.c: "),
            "{err}"
        );
    }
}
