//! The C library's state in one run ([`ShimState`]: `atexit` handlers, `rand`'s generator,
//! `getenv`'s environment, `strtok`'s position, the open files), held by the machine; the shim functions that
//! use it are in [`super::libc_shim`].

use std::collections::{HashMap, HashSet};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::libc::scanf::Input;

use super::libc_bind;
use super::memory::ptr_word;

/// The index of `errno` among the C library's runtime objects (`libc_shim::RUNTIME_OBJECTS`).
pub(crate) const OBJ_ERRNO: u32 = 6;

/// The C library's state in one run.
#[derive(Clone)]
pub struct ShimState {
    pub(crate) argv0: String,
    pub(crate) random: libc_bind::Random,
    pub(crate) atexit: Vec<u64>,
    pub(crate) start: Instant,
    /// Id of the first runtime object.
    pub(crate) runtime_base: u32,
    /// `getenv` results and `setenv` values (a 0 entry: unset by the program).
    pub(crate) env: HashMap<Vec<u8>, u64>,
    /// The environment the program sees: `None`, accsim's own; `Some`, only these variables
    /// (`--sandbox`, with the ones `--env NAME` passes; issue 14: `getenv` leaked a grader's
    /// secrets).
    pub environment: Option<std::collections::BTreeMap<String, String>>,
    pub(crate) strtok_next: u64,
    /// The run's open files and stdin ([`super::libc_file`]), shared with device threads.
    pub files: Arc<Mutex<FileTable>>,
    /// The `strerror` message of each errno value asked for (one string each).
    strerror: HashMap<u32, u64>,
}

impl ShimState {
    pub fn new(argv0: String) -> Self {
        ShimState {
            argv0,
            random: libc_bind::Random::new(1),
            atexit: Vec::new(),
            start: Instant::now(),
            runtime_base: 0,
            env: HashMap::new(),
            environment: None,
            strtok_next: 0,
            files: FileTable::new(Default::default(), None),
            strerror: HashMap::new(),
        }
    }

    /// The `FILE *` of stdin.
    pub(crate) fn stdin_file(&self) -> u64 {
        // The stdin stream: the first of the runtime objects (`RUNTIME_OBJECTS`).
        self.object(0)
    }
    /// Where `errno` is.
    pub(crate) fn errno_ptr(&self) -> u64 {
        self.object(OBJ_ERRNO)
    }
    pub(crate) fn strerror_string(&self, e: u32) -> Option<u64> {
        self.strerror.get(&e).copied()
    }
    pub(crate) fn keep_strerror_string(&mut self, e: u32, p: u64) {
        self.strerror.insert(e, p);
    }

    /// The value of environment variable `name` the program starts with.
    pub(crate) fn initial_env(&self, name: &[u8]) -> Option<Vec<u8>> {
        let name = std::str::from_utf8(name).ok()?;
        match &self.environment {
            None => std::env::var_os(name).map(|v| v.into_encoded_bytes()),
            Some(granted) => granted.get(name).map(|v| v.as_bytes().to_vec()),
        }
    }
    pub(crate) fn object(&self, i: u32) -> u64 {
        ptr_word(self.runtime_base + i, 0)
    }
}

// ---------------------------------------------------------------- files ([`super::libc_file`])

/// What files a run may open (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileAccess {
    /// Every file the user may open (accsim without `--sandbox`).
    pub unrestricted: bool,
    /// `--allow-read` paths (files or directories).
    pub read: Vec<PathBuf>,
    /// `--allow-write` paths (files or directories).
    pub write: Vec<PathBuf>,
}

impl FileAccess {
    /// The grants resolved (links followed); a grant that does not exist grants nothing.
    fn resolved(&self) -> FileAccess {
        let canon = |v: &[PathBuf]| v.iter().filter_map(|p| p.canonicalize().ok()).collect();
        FileAccess { unrestricted: self.unrestricted, read: canon(&self.read), write: canon(&self.write) }
    }
    /// Every file the user may open (`accsim run` without `--sandbox`).
    pub fn unrestricted() -> FileAccess {
        FileAccess { unrestricted: true, ..FileAccess::default() }
    }

    /// Only the files and directories granted (`--allow-read`, `--allow-write`).
    pub fn granted(read: Vec<PathBuf>, write: Vec<PathBuf>) -> FileAccess {
        FileAccess { unrestricted: false, read, write }
    }

    pub(crate) fn allows(grants: &[PathBuf], path: &Path) -> bool {
        grants.iter().any(|g| path.starts_with(g))
    }
}

/// One open stream's state.
pub(crate) struct OpenFile {
    /// The resolved path written back to (none for stdin).
    pub(crate) path: Option<PathBuf>,
    pub(crate) data: Vec<u8>,
    pub(crate) pos: usize,
    /// Bytes of `data` dropped from the front (stdin keeps only what is not read yet).
    pub(crate) dropped: u64,
    pub(crate) read: bool,
    pub(crate) write: bool,
    pub(crate) append: bool,
    pub(crate) eof: bool,
    pub(crate) error: bool,
    /// `data[..flushed]` is on disk; `dirty_from` is the first byte changed since.
    pub(crate) flushed: usize,
    pub(crate) dirty_from: usize,
    /// Bytes counted against `--max-memory` for the contents held.
    pub(crate) charged: u64,
    /// Where more input comes from (stdin), read a chunk at a time.
    pub(crate) source: Option<Box<dyn Read + Send>>,
    /// Bytes `ungetc` pushed back that are not in `data` before `pos`, the last one read first.
    pub(crate) pushback: Vec<u8>,
    /// Whether anything was read yet (glibc's `ftell` counts pushed-back bytes only then).
    pub(crate) was_read: bool,
    /// `remove`d while open: what is written stays in memory, as it would stay in the unlinked
    /// file, and is not written back to its path.
    pub(crate) unlinked: bool,
}

impl OpenFile {
    /// A stream over `data` (nothing pushed back, nothing read yet).
    pub(crate) fn new(path: Option<std::path::PathBuf>, data: Vec<u8>, source: Option<Box<dyn Read + Send>>) -> OpenFile {
        OpenFile {
            path,
            data,
            pos: 0,
            dropped: 0,
            read: true,
            write: false,
            append: false,
            eof: false,
            error: false,
            flushed: 0,
            dirty_from: usize::MAX,
            charged: 0,
            source,
            pushback: Vec::new(),
            was_read: false,
            unlinked: false,
        }
    }

    /// The position `ftell` tells (glibc's): the bytes before the next one read, less the bytes
    /// pushed back once anything was read (so it can be negative).
    pub(crate) fn told(&self) -> i64 {
        let back = if self.was_read { self.pushback.len() as i64 } else { 0 };
        (self.dropped + self.pos as u64) as i64 - back
    }

    pub(crate) fn fill(&mut self) -> bool {
        let Some(src) = &mut self.source else { return false };
        if self.pos > 1 << 16 {
            // What was read is not needed again (stdin cannot seek).
            self.data.drain(..self.pos);
            self.dropped += self.pos as u64;
            self.pos = 0;
        }
        let mut chunk = [0u8; 1 << 16];
        match src.read(&mut chunk) {
            Ok(0) | Err(_) => {
                self.source = None;
                false
            }
            Ok(n) => {
                self.data.extend_from_slice(&chunk[..n]);
                true
            }
        }
    }
}

impl Input for OpenFile {
    fn peek(&mut self) -> Option<u8> {
        self.was_read = true;
        if let Some(&c) = self.pushback.last() {
            return Some(c);
        }
        if self.pos >= self.data.len() && !self.fill() {
            self.eof = true;
            return None;
        }
        self.data.get(self.pos).copied()
    }
    fn bump(&mut self) {
        if self.pushback.pop().is_none() {
            self.pos += 1;
        }
    }
}

/// The files of one run (shared by the machine and its device threads).
pub struct FileTable {
    pub(crate) access: FileAccess,
    pub(crate) open: HashMap<u64, OpenFile>,
    pub(crate) closed: HashSet<u64>,
    /// Bytes written to files in all (counted against `--max-memory`).
    pub(crate) written: u64,
    /// The program's stdin, until it is first read.
    pub(crate) stdin_source: Option<Box<dyn Read + Send>>,
}

impl FileTable {
    /// The table of a run: what it may open and where its stdin comes from.
    pub fn new(access: FileAccess, stdin: Option<Box<dyn Read + Send>>) -> Arc<Mutex<FileTable>> {
        Arc::new(Mutex::new(FileTable { access: access.resolved(), open: HashMap::new(), closed: HashSet::new(), written: 0, stdin_source: stdin }))
    }
}

impl std::fmt::Debug for FileTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "FileTable({} open)", self.open.len())
    }
}
