//! Diagnostics: source locations, the three classes of message (a bug in the program, something
//! accsim does not support, an internal error), and rendering with codespan-reporting.

use std::fmt;
use std::sync::Arc;

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term;

/// Index of a file in a [`SourceMap`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FileId(pub u32);

/// A position in an original source file (1-based line and column). `line == 0` means unknown.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Loc {
    pub file: FileId,
    pub line: u32,
    pub col: u32,
}

/// The original files a program came from (as the preprocessor's line markers name them).
#[derive(Debug, Default, Clone)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

#[derive(Debug, Clone)]
pub struct SourceFile {
    pub name: String,
    /// The file's text, when it could be read (for snippets).
    pub text: Option<Arc<str>>,
    /// For a Fortran file: what the program calls the variables of its C translation, so that
    /// messages name Fortran expressions ([`SourceMap::localized`]).
    pub fortran: Option<Arc<accsim_fortran::names::FortranNames>>,
}

impl SourceMap {
    pub fn new() -> Self {
        Self::default()
    }

    /// The id of `name`, adding it the first time without its text: a name from a line marker
    /// or a message, which a program chooses freely (`#line 1 "/etc/passwd"`), so nothing is read
    /// from disk for it (issue 14). Messages at it carry `name:line`, without a snippet.
    pub fn file_id(&mut self, name: &str) -> FileId {
        if let Some(id) = self.find(name) {
            return id;
        }
        self.files.push(SourceFile { name: name.to_string(), text: None, fortran: None });
        FileId(self.files.len() as u32 - 1)
    }

    /// The id of `name`, a file the program is made of (a file named on the command line, or
    /// one the preprocessor read), with its text read from disk for snippets the first time.
    pub fn read_file_id(&mut self, name: &str) -> FileId {
        let id = self.file_id(name);
        if let Some(f) = self.files.get_mut(id.0 as usize).filter(|f| f.text.is_none()) {
            f.text = std::fs::read(name).ok().map(|b| Arc::from(String::from_utf8_lossy(&b).as_ref()));
        }
        id
    }

    /// The id of `name` when it is in the map.
    pub fn find(&self, name: &str) -> Option<FileId> {
        self.files.iter().position(|f| f.name == name).map(|i| FileId(i as u32))
    }

    pub fn file(&self, id: FileId) -> Option<&SourceFile> {
        self.files.get(id.0 as usize)
    }

    pub fn name(&self, id: FileId) -> &str {
        self.file(id).map(|f| f.name.as_str()).unwrap_or("<unknown>")
    }

    /// `file:line:col` for messages.
    pub fn describe(&self, loc: Loc) -> String {
        if loc.line == 0 {
            return self.name(loc.file).to_string();
        }
        format!("{}:{}:{}", self.name(loc.file), loc.line, loc.col.max(1))
    }

    /// Attach the Fortran side table of a translated file (see [`SourceMap::localized`]).
    pub fn set_fortran_names(&mut self, id: FileId, names: accsim_fortran::names::FortranNames) {
        if let Some(f) = self.files.get_mut(id.0 as usize) {
            f.fortran = Some(Arc::new(names));
        }
    }

    /// `d` in the words of its source language. For a diagnostic at a Fortran file (issue 16):
    /// its `code` spans in Fortran (`a(10)` for `a[9]`, `a(1:n)` for the translated subarray,
    /// `!$acc update self(a)` for `#pragma acc update host(a)`), and its columns at what it names
    /// on the Fortran line (the translation's columns are those of the C text). Other diagnostics
    /// are returned unchanged.
    pub fn localized(&self, d: &Diagnostic) -> Diagnostic {
        let fortran = |loc: Option<Loc>| loc.and_then(|l| self.file(l.file)?.fortran.clone());
        let Some(names) = fortran(d.primary).or_else(|| d.related.iter().find_map(|(l, _)| fortran(Some(*l)))) else { return d.clone() };
        let line = d.primary.map_or(0, |l| l.line);
        let mut out = d.clone();
        out.message = names.render(&d.message, line);
        // What a message names first: the column a location points at.
        let subject = accsim_fortran::names::FortranNames::subject;
        let fix_col = |loc: Loc, subject: Option<String>| -> Loc {
            if self.file(loc.file).is_some_and(|f| f.fortran.is_some()) {
                if let Some(t) = self.line_text(loc) {
                    return Loc { col: accsim_fortran::names::FortranNames::column(t, subject.as_deref()), ..loc };
                }
            }
            loc
        };
        let headline_subject = subject(&out.message);
        out.primary = d.primary.map(|l| fix_col(l, headline_subject.clone()));
        out.related = d
            .related
            .iter()
            .map(|(l, m)| {
                // A note without a code span points at the statement (a directive, an assignment).
                let m = names.render(m, l.line);
                (fix_col(*l, subject(&m)), m)
            })
            .collect();
        out.notes = d.notes.iter().map(|n| names.render(n, line)).collect();
        out.help = d.help.as_ref().map(|h| names.render(h, line));
        out
    }

    /// The text of line `loc.line`, if known.
    pub fn line_text(&self, loc: Loc) -> Option<&str> {
        let text = self.file(loc.file)?.text.as_deref()?;
        text.lines().nth(loc.line.checked_sub(1)? as usize)
    }

    /// Byte range in the original file for a location (the rest of the token is not known, so the
    /// range covers `len` bytes, clamped to the line).
    fn byte_range(&self, loc: Loc, len: usize) -> Option<std::ops::Range<usize>> {
        let text = self.file(loc.file)?.text.as_deref()?;
        let mut start = 0usize;
        for (i, line) in text.split_inclusive('\n').enumerate() {
            if i + 1 == loc.line as usize {
                let body = line.trim_end_matches(['\n', '\r']).len();
                let col = (loc.col.max(1) as usize - 1).min(body);
                let end = (col + len.max(1)).min(body.max(col + 1));
                return Some(start + col..start + end.min(line.len()));
            }
            start += line.len();
        }
        None
    }
}

/// What kind of message this is. The wording of each class is fixed (STYLE.md "Errors are data").
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Class {
    /// A bug in the program (compile error, runtime fault).
    Program,
    /// Something accsim does not support (never a bug in the program).
    Unsupported,
    /// A bug in accsim.
    Internal,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
    Note,
}

/// One diagnostic: a message at a primary location, with related locations and notes.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub class: Class,
    pub severity: Severity,
    /// A short kind word (`syntax`, `out-of-bounds`, …) that tests and tools can match on.
    pub kind: &'static str,
    pub message: String,
    pub primary: Option<Loc>,
    /// Width of the primary span in bytes, when known.
    pub primary_len: usize,
    pub related: Vec<(Loc, String)>,
    pub notes: Vec<String>,
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn error(kind: &'static str, message: impl Into<String>, loc: Loc) -> Self {
        Diagnostic {
            class: Class::Program,
            severity: Severity::Error,
            kind,
            message: message.into(),
            primary: Some(loc),
            primary_len: 1,
            related: Vec::new(),
            notes: Vec::new(),
            help: None,
        }
    }

    pub fn unsupported(message: impl Into<String>, loc: Loc) -> Self {
        Diagnostic { class: Class::Unsupported, kind: "unsupported", ..Self::error("unsupported", message, loc) }
    }

    pub fn internal(message: impl Into<String>, loc: Option<Loc>) -> Self {
        Diagnostic {
            class: Class::Internal,
            kind: "internal",
            primary: loc,
            ..Self::error("internal", message, Loc::default())
        }
    }

    pub fn with_len(mut self, len: usize) -> Self {
        self.primary_len = len;
        self
    }
    pub fn with_related(mut self, loc: Loc, msg: impl Into<String>) -> Self {
        self.related.push((loc, msg.into()));
        self
    }
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// The headline as rendered: the class decides the wording.
    pub fn headline(&self) -> String {
        match self.class {
            Class::Program => self.message.clone(),
            Class::Unsupported => format!("not supported by accsim: {}", self.message),
            Class::Internal => format!("internal error in accsim (please report it): {}", self.message),
        }
    }

    /// Render like rustc: `error[kind]: message`, `--> file:line:col`, snippet, notes, help.
    pub fn render(&self, map: &SourceMap, color: bool) -> String {
        let localized = map.localized(self);
        let this = &localized;
        let mut files = SimpleFiles::new();
        let mut ids = std::collections::HashMap::new();
        let mut label_for = |loc: Loc, len: usize, primary: bool, msg: &str| -> Option<Label<usize>> {
            let range = map.byte_range(loc, len)?;
            let text = map.file(loc.file)?.text.clone()?;
            let id = *ids
                .entry(loc.file)
                .or_insert_with(|| files.add(map.name(loc.file).to_string(), text.to_string()));
            let l = if primary { Label::primary(id, range) } else { Label::secondary(id, range) };
            Some(l.with_message(msg))
        };
        let mut labels = Vec::new();
        let mut notes = Vec::new();
        if let Some(loc) = this.primary {
            match label_for(loc, this.primary_len, true, "") {
                Some(l) => labels.push(l),
                None => notes.push(format!("at {}", map.describe(loc))),
            }
        }
        for (loc, msg) in &this.related {
            match label_for(*loc, 1, false, msg) {
                Some(l) => labels.push(l),
                None => notes.push(format!("{}: {msg}", map.describe(*loc))),
            }
        }
        notes.extend(this.notes.iter().cloned());
        if let Some(h) = &this.help {
            notes.push(format!("help: {h}"));
        }
        let cs = match this.severity {
            Severity::Error => CsDiagnostic::error(),
            Severity::Warning => CsDiagnostic::warning(),
            Severity::Note => CsDiagnostic::note(),
        }
        .with_code(this.kind)
        .with_message(this.headline())
        .with_labels(labels)
        .with_notes(notes);
        let _ = color; // plain text for now; terminals get the same layout
        let config = term::Config::default();
        term::emit_into_string(&config, &files, &cs)
            .unwrap_or_else(|_| format!("error[{}]: {}\n", this.kind, this.headline()))
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.headline())
    }
}

/// Several diagnostics (a compile may report more than one error).
#[derive(Debug, Clone, Default)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    pub fn render(&self, map: &SourceMap, color: bool) -> String {
        self.0.iter().map(|d| d.render(map, color)).collect()
    }
}
