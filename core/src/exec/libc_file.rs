//! File and input I/O of the C library (issue 14): `fopen`, `fclose`, `fread`, `fwrite`, `fgets`,
//! `fputs`, `fprintf`, `fscanf`, `fgetc`, `fputc`, `feof`, `ferror`, `clearerr`, `fseek`, `ftell`,
//! `rewind`, `fflush`, `ungetc`, `freopen`, `remove`, `rename`, reading `stdin` (`scanf`,
//! `getchar`, `fgets(…, stdin)` …), `sscanf`, `perror` and `strerror`, with glibc 2.36's results
//! and `errno` values.
//!
//! **Which files.** A program may open only what [`FileAccess`] grants: without `--sandbox`
//! every file the user may open (as a compiled program could); under `--sandbox` only the paths
//! `--allow-read PATH` / `--allow-write PATH` name (a directory grants everything below it).
//! The path is resolved first — relative to the working directory, symbolic links and `..`
//! followed (a new file: its directory) — and the resolved path is checked and opened, so a link
//! cannot lead outside a grant. A refused `fopen` returns NULL with `errno` EACCES, as the
//! kernel refuses a file without permission (`perror` prints "Permission denied"). Only regular
//! files open (a device, FIFO or socket is EACCES too: nothing can block or grow without end),
//! at most [`MAX_OPEN_FILES`] at a time (then EMFILE). `remove` and `rename` change only what
//! `--allow-write` grants under `--sandbox` (for `rename`, both names); the last component of
//! their paths is not followed (they act on a link, not its target), as the system calls do.
//!
//! **How.** An open file's contents are held in memory: read when it is opened (`r`, `r+`,
//! `a`, `a+`), written back by `fflush`, `fclose` and a normal exit (`exit`, returning from
//! `main`), as glibc's buffers are (a run stopped by an error or `abort` loses what was not
//! flushed, as the real program would). The contents held count against `--max-memory` while the
//! file is open, and every byte written to a file counts for the rest of the run: that caps the
//! output a program can leave on disk. `stdin` is read as the program asks, a chunk at a time.
//!
//! `ungetc` pushes back any number of bytes (glibc's backup area): the one just read only moves
//! the position back, another is read before the file's bytes, and `ftell` counts each, as glibc's
//! does. `freopen` reopens a file from `fopen` or `stdin` under the same `FILE *`; redirecting
//! `stdout` or `stderr` to a file is not supported (a runtime error naming the call).
//!
//! Not provided (link errors naming the call): `tmpfile`, `fileno`, `setvbuf`, wide-character
//! I/O; `system`, `popen`, the `exec*` family and sockets stay link errors too.

use std::path::{Path, PathBuf};

use super::machine::{Machine, Trap};
use super::memory::{AllocId, AllocKind, Space};
use super::value::Kind;
use crate::diag::{Diagnostic, Loc};
use crate::libc::scanf::{self, FloatSize, Input, SliceInput, Store};

pub use super::libc_state::{FileAccess, FileTable};
use super::libc_state::OpenFile;

/// Most files open at once (glibc: the descriptor limit, 1024 by default).
pub const MAX_OPEN_FILES: usize = 1024;

/// glibc's `errno` values used here.
pub const ENOENT: u32 = 2;
pub const EIO: u32 = 5;
pub const EBADF: u32 = 9;
pub const EACCES: u32 = 13;
pub const EEXIST: u32 = 17;
pub const ENOTDIR: u32 = 20;
pub const EISDIR: u32 = 21;
pub const EINVAL: u32 = 22;
pub const EMFILE: u32 = 24;
pub const ESPIPE: u32 = 29;

/// glibc's message for an `errno` value (`strerror`, `perror`).
pub fn strerror_text(e: u32) -> String {
    match e {
        0 => "Success".into(),
        1 => "Operation not permitted".into(),
        ENOENT => "No such file or directory".into(),
        EIO => "Input/output error".into(),
        16 => "Device or resource busy".into(),
        18 => "Invalid cross-device link".into(),
        EBADF => "Bad file descriptor".into(),
        12 => "Cannot allocate memory".into(),
        EACCES => "Permission denied".into(),
        EEXIST => "File exists".into(),
        ENOTDIR => "Not a directory".into(),
        EISDIR => "Is a directory".into(),
        EINVAL => "Invalid argument".into(),
        EMFILE => "Too many open files".into(),
        27 => "File too large".into(),
        28 => "No space left on device".into(),
        ESPIPE => "Illegal seek".into(),
        30 => "Read-only file system".into(),
        33 => "Numerical argument out of domain".into(),
        34 => "Numerical result out of range".into(),
        36 => "File name too long".into(),
        39 => "Directory not empty".into(),
        40 => "Too many levels of symbolic links".into(),
        _ => format!("Unknown error {e}"),
    }
}

/// The file functions, bound by name ([`runtime_fn`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FileFn {
    Fopen,
    Fclose,
    Fread,
    Fgets,
    Fgetc,
    Getchar,
    Fscanf,
    Scanf,
    Sscanf,
    Feof,
    Ferror,
    Clearerr,
    Fseek,
    Ftell,
    Rewind,
    Perror,
    Strerror,
    Ungetc,
    Freopen,
    Remove,
    Rename,
}

/// The file function `name` names.
pub fn runtime_fn(name: &str) -> Option<FileFn> {
    use FileFn::*;
    Some(match name {
        "fopen" | "fopen64" => Fopen,
        "fclose" => Fclose,
        "fread" | "fread_unlocked" => Fread,
        "fgets" | "fgets_unlocked" => Fgets,
        "fgetc" | "getc" | "_IO_getc" | "getc_unlocked" | "fgetc_unlocked" => Fgetc,
        "getchar" | "getchar_unlocked" => Getchar,
        "fscanf" | "__isoc99_fscanf" | "__isoc23_fscanf" => Fscanf,
        "scanf" | "__isoc99_scanf" | "__isoc23_scanf" => Scanf,
        "sscanf" | "__isoc99_sscanf" | "__isoc23_sscanf" => Sscanf,
        "feof" | "feof_unlocked" => Feof,
        "ferror" | "ferror_unlocked" => Ferror,
        "clearerr" | "clearerr_unlocked" => Clearerr,
        "fseek" | "fseeko" | "fseeko64" => Fseek,
        "ftell" | "ftello" | "ftello64" => Ftell,
        "rewind" => Rewind,
        "perror" => Perror,
        "strerror" => Strerror,
        "ungetc" => Ungetc,
        "freopen" | "freopen64" => Freopen,
        "remove" => Remove,
        "rename" => Rename,
        _ => return None,
    })
}

const EOF: u64 = u64::MAX;

fn arg(args: &[u64], i: usize) -> u64 {
    args.get(i).copied().unwrap_or(0)
}

fn cstr(m: &Machine, p: u64, loc: Loc) -> Result<Vec<u8>, Trap> {
    m.mem.read_c_string(p, None).map_err(|f| m.fault(f, loc))
}

/// Run with the run's file table locked. A poisoned lock (a device thread panicked holding it)
/// still holds consistent data: every change is made before anything can panic.
fn with_table<R>(m: &Machine, f: impl FnOnce(&mut FileTable) -> R) -> R {
    let table = m.libc.files.clone();
    let mut guard = match table.lock() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    };
    f(&mut guard)
}

/// The stream `fp` names: stdin (opened on first use) or a file from `fopen`; an error for a
/// closed or unknown `FILE *` (glibc would crash or corrupt its heap).
fn stream_key(m: &mut Machine, fp: u64, loc: Loc) -> Result<u64, Trap> {
    let stdin = m.libc.stdin_file();
    let known = with_table(m, |t| {
        if fp == stdin && !t.open.contains_key(&fp) {
            let source = t.stdin_source.take().unwrap_or_else(|| Box::new(std::io::empty()));
            t.open.insert(fp, OpenFile::new(None, Vec::new(), Some(source)));
        }
        if t.open.contains_key(&fp) {
            Ok(())
        } else if t.closed.contains(&fp) {
            Err("a FILE used after `fclose`")
        } else if fp == 0 {
            Err("a null FILE pointer")
        } else {
            Err("a pointer that is not a FILE from `fopen` or a standard stream")
        }
    });
    known.map(|()| fp).map_err(|what| Trap::error(Diagnostic::error("file", format!("{what} passed to a stdio function"), loc)))
}

/// Whether `fp` is a stream this module handles (a file from `fopen`, or a closed one).
pub fn is_file(m: &Machine, fp: u64) -> bool {
    with_table(m, |t| t.open.contains_key(&fp) || t.closed.contains(&fp))
}

/// Write `bytes` to the file `fp` (`fputs`, `fputc`, `fwrite`, `fprintf` …): `false` when the
/// stream is not open for writing (glibc sets its error flag; `errno` EBADF).
pub fn write(m: &mut Machine, fp: u64, bytes: &[u8], loc: Loc) -> Result<bool, Trap> {
    let fp = stream_key(m, fp, loc)?;
    let writable = with_table(m, |t| match t.open.get_mut(&fp) {
        Some(f) if f.write => true,
        Some(f) => {
            f.error = true;
            false
        }
        None => false,
    });
    if !writable {
        set_errno(m, EBADF);
        return Ok(false);
    }
    let len = bytes.len() as u64;
    if !m.mem.charge(len) {
        return Err(m.memory_limit(format!("{len} more bytes written to files (output written to files counts against --max-memory)"), loc));
    }
    with_table(m, |t| {
        t.written += len;
        let Some(f) = t.open.get_mut(&fp) else { return };
        // A write discards what `ungetc` pushed back (C11 7.21.7.10p2 needs a seek in between).
        f.pushback.clear();
        if f.append {
            f.pos = f.data.len();
        }
        let end = f.pos + bytes.len();
        if f.data.len() < end {
            f.data.resize(end, 0);
        }
        f.data[f.pos..end].copy_from_slice(bytes);
        f.dirty_from = f.dirty_from.min(f.pos);
        f.pos = end;
    });
    Ok(true)
}

/// Write a file's unwritten changes to disk.
fn flush_file(f: &mut OpenFile) -> bool {
    let Some(path) = f.path.as_ref().filter(|_| !f.unlinked) else { return true };
    if !f.write || (f.dirty_from >= f.data.len() && f.flushed == f.data.len()) {
        return true;
    }
    use std::io::Write;
    let written = if f.dirty_from >= f.flushed {
        std::fs::OpenOptions::new().append(true).open(path).and_then(|mut file| file.write_all(&f.data[f.flushed..]))
    } else {
        std::fs::write(path, &f.data)
    };
    f.flushed = f.data.len();
    f.dirty_from = usize::MAX;
    if written.is_err() {
        f.error = true;
    }
    written.is_ok()
}

/// `fflush(fp)` for a file; `fflush(NULL)` flushes them all.
pub fn flush(m: &mut Machine, fp: u64, loc: Loc) -> Result<u64, Trap> {
    if fp == 0 {
        with_table(m, |t| t.open.values_mut().for_each(|f| {
            flush_file(f);
        }));
        return Ok(0);
    }
    let fp = stream_key(m, fp, loc)?;
    Ok(if with_table(m, |t| t.open.get_mut(&fp).is_none_or(flush_file)) { 0 } else { EOF })
}

/// A normal exit: every open file is flushed, as glibc's `exit` does.
pub fn flush_all(m: &mut Machine) {
    with_table(m, |t| t.open.values_mut().for_each(|f| {
        flush_file(f);
    }));
}

fn set_errno(m: &mut Machine, e: u32) {
    let p = m.libc.errno_ptr();
    let _ = m.mem.store_u32(p, e);
}

fn errno(m: &Machine) -> u32 {
    m.mem.load_u32(m.libc.errno_ptr()).unwrap_or(0)
}

/// The OS's `errno` for an I/O error.
fn os_errno(e: &std::io::Error) -> u32 {
    e.raw_os_error().map_or(EACCES, |c| c as u32)
}

/// `path` made absolute against the working directory, `.` and `..` taken lexically.
fn lexical_absolute(path: &Path) -> PathBuf {
    let full = std::env::current_dir().map(|d| d.join(path)).unwrap_or_else(|_| path.to_path_buf());
    let mut out = PathBuf::new();
    for c in full.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// `fopen(path, mode)`: the new FILE, or an errno.
fn open(m: &mut Machine, path: &[u8], mode: &[u8], loc: Loc) -> Result<Result<u64, u32>, Trap> {
    let file = match open_stream(m, path, mode, loc)? {
        Ok(f) => f,
        Err(e) => return Ok(Err(e)),
    };
    let handle = match m.mem.alloc(8, AllocKind::Runtime("a FILE from fopen"), Space::Host, loc) {
        Ok(p) => p,
        Err(f) => {
            m.mem.uncharge(file.charged);
            return Err(m.fault(f, loc));
        }
    };
    with_table(m, |t| t.open.insert(handle, file));
    Ok(Ok(handle))
}

/// The stream `fopen(path, mode)` opens (its contents counted against `--max-memory`), or an
/// errno: the rules of the module documentation.
fn open_stream(m: &mut Machine, path: &[u8], mode: &[u8], loc: Loc) -> Result<Result<OpenFile, u32>, Trap> {
    // The mode: r, w or a, then any of `+`, `b`, `x`, `e`, `m`, `c` (glibc).
    let Some(&kind) = mode.first().filter(|k| b"rwa".contains(k)) else { return Ok(Err(EINVAL)) };
    let plus = mode[1..].contains(&b'+');
    let exclusive = kind == b'w' && mode[1..].contains(&b'x');
    let (read, write) = (kind == b'r' || plus, kind != b'r' || plus);
    let name = String::from_utf8_lossy(path).into_owned();
    if name.is_empty() {
        return Ok(Err(ENOENT));
    }
    // Resolve: the file itself when it exists, else its directory (a new file).
    let given = Path::new(&name);
    let resolved = match given.canonicalize() {
        Ok(p) => Ok(p),
        Err(e) if kind != b'r' => {
            let parent = given.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
            match (parent.canonicalize(), given.file_name()) {
                (Ok(dir), Some(file)) => Ok(dir.join(file)),
                (Err(e), _) => Err(os_errno(&e)),
                (_, None) => Err(os_errno(&e)),
            }
        }
        Err(e) => Err(os_errno(&e)),
    };
    let (granted, open_now) = with_table(m, |t| {
        let a = &t.access;
        // A path that cannot be resolved is judged by its lexical form, so that a refused
        // place does not tell a missing file from a present one.
        let path = resolved.clone().unwrap_or_else(|_| lexical_absolute(given));
        let granted = a.unrestricted || ((!read || FileAccess::allows(&a.read, &path)) && (!write || FileAccess::allows(&a.write, &path)));
        (granted, t.open.len())
    });
    if !granted {
        return Ok(Err(EACCES));
    }
    let resolved = match resolved {
        Ok(p) => p,
        Err(e) => return Ok(Err(e)),
    };
    if open_now >= MAX_OPEN_FILES {
        return Ok(Err(EMFILE));
    }
    match std::fs::metadata(&resolved) {
        Ok(md) if md.is_dir() => return Ok(Err(EISDIR)),
        Ok(md) if !md.is_file() => return Ok(Err(EACCES)),
        Ok(_) if exclusive => return Ok(Err(EEXIST)),
        Ok(_) => {}
        Err(e) if kind == b'r' => return Ok(Err(os_errno(&e))),
        Err(_) => {}
    }
    // Open as glibc does: `w` truncates (and creates), `a` creates; then read what is there.
    let opened = match kind {
        b'w' => std::fs::File::create(&resolved).map(|_| Vec::new()),
        b'a' => std::fs::OpenOptions::new().append(true).create(true).open(&resolved).and_then(|_| std::fs::read(&resolved)),
        _ => {
            if write {
                // r+: the file must be writable too.
                if let Err(e) = std::fs::OpenOptions::new().write(true).open(&resolved) {
                    return Ok(Err(os_errno(&e)));
                }
            }
            std::fs::read(&resolved)
        }
    };
    let data = match opened {
        Ok(d) => d,
        Err(e) => return Ok(Err(os_errno(&e))),
    };
    let size = data.len() as u64;
    if !m.mem.charge(size) {
        return Err(m.memory_limit(format!("the {size} bytes of `{name}`, opened with fopen (an open file's contents count against --max-memory)"), loc));
    }
    let pos = if kind == b'a' { data.len() } else { 0 };
    let flushed = data.len();
    let mut file = OpenFile::new(Some(resolved), data, None);
    (file.pos, file.read, file.write, file.append, file.flushed, file.charged) = (pos, read, write, kind == b'a', flushed, size);
    Ok(Ok(file))
}

/// `path` as `remove` and `rename` name it: its directory resolved (links and `..` followed),
/// its last component not (they act on a link itself); with the errno when it cannot be
/// resolved (then the path is the lexical one, which the grants judge, so that a refused place
/// does not tell a missing directory from a present one).
fn resolve_entry(path: &[u8]) -> (PathBuf, Option<u32>) {
    let name = String::from_utf8_lossy(path).into_owned();
    let given = Path::new(&name);
    if name.is_empty() {
        return (PathBuf::new(), Some(ENOENT));
    }
    let resolved = match given.file_name() {
        // `..`, `/`, `dir/.`: the directory itself.
        None => given.canonicalize(),
        Some(file) => given.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new(".")).canonicalize().map(|dir| dir.join(file)),
    };
    match resolved {
        Ok(p) => (p, None),
        Err(e) => (lexical_absolute(given), Some(os_errno(&e))),
    }
}

/// Whether the run may change the directory entry `path` (`remove`, `rename`).
fn may_change(m: &Machine, path: &Path) -> bool {
    with_table(m, |t| t.access.unrestricted || FileAccess::allows(&t.access.write, path))
}

/// 0, or -1 with `errno` set.
fn status(m: &mut Machine, r: Result<(), u32>) -> u64 {
    match r {
        Ok(()) => 0,
        Err(e) => {
            set_errno(m, e);
            EOF
        }
    }
}

/// `remove(path)` (C11 7.21.4.1, glibc): a file is unlinked; a directory removed when empty
/// (glibc tries `unlink` first, so `errno` is EISDIR even then). 0, or -1 and `errno`.
fn remove(m: &mut Machine, path: &[u8]) -> u64 {
    let (p, unresolved) = resolve_entry(path);
    if !may_change(m, &p) {
        return status(m, Err(EACCES));
    }
    if let Some(e) = unresolved {
        return status(m, Err(e));
    }
    let removed = match std::fs::symlink_metadata(&p) {
        Ok(md) if md.is_dir() => std::fs::remove_dir(&p).map(|()| set_errno(m, EISDIR)),
        _ => std::fs::remove_file(&p).map(|()| {
            // Open streams on it keep their bytes, but no longer write them back.
            with_table(m, |t| t.open.values_mut().filter(|f| f.path.as_deref() == Some(p.as_path())).for_each(|f| f.unlinked = true));
        }),
    };
    status(m, removed.map_err(|e| os_errno(&e)))
}

/// `rename(old, new)` (C11 7.21.4.2, POSIX `rename(2)`): both names must be granted for writing
/// under `--sandbox`. 0, or -1 and `errno`. Open streams on `old` write back to `new`, as their
/// descriptors would follow the file.
fn rename(m: &mut Machine, old: &[u8], new: &[u8]) -> u64 {
    let ((from, from_err), (to, to_err)) = (resolve_entry(old), resolve_entry(new));
    if !may_change(m, &from) || !may_change(m, &to) {
        return status(m, Err(EACCES));
    }
    if let Some(e) = from_err.or(to_err) {
        return status(m, Err(e));
    }
    if let Err(e) = std::fs::rename(&from, &to) {
        return status(m, Err(os_errno(&e)));
    }
    with_table(m, |t| t.open.values_mut().filter(|f| f.path.as_deref() == Some(from.as_path())).for_each(|f| f.path = Some(to.clone())));
    0
}

/// `ungetc(c, fp)`: push `c` back (see the module documentation); EOF pushes nothing.
fn unget(m: &mut Machine, c: u64, fp: u64, loc: Loc) -> Result<u64, Trap> {
    if c as u32 as i32 == -1 {
        return Ok(EOF);
    }
    if fp == m.libc.object(1) || fp == m.libc.object(2) {
        // glibc pushes back onto an output stream too; nothing ever reads it.
        return Ok(c & 0xff);
    }
    let fp = stream_key(m, fp, loc)?;
    let byte = c as u8;
    Ok(with_table(m, |t| {
        let Some(f) = t.open.get_mut(&fp) else { return EOF };
        if f.pushback.is_empty() && f.pos > 0 && f.data.get(f.pos - 1) == Some(&byte) {
            f.pos -= 1;
        } else {
            f.pushback.push(byte);
        }
        f.eof = false;
        byte as u64
    }))
}

/// `freopen(path, mode, fp)`: close `fp` (flushed) and open `path` (or `fp`'s own file when
/// `path` is NULL) under the same `FILE *`; on failure `fp` stays closed (glibc) and the result
/// is NULL with `errno`. `fp` is a file from `fopen` or `stdin`.
fn reopen(m: &mut Machine, path: u64, mode: u64, fp: u64, loc: Loc) -> Result<u64, Trap> {
    if fp == m.libc.object(1) || fp == m.libc.object(2) {
        return Err(Trap::error(Diagnostic::unsupported("freopen of stdout or stderr (redirecting the program's output to a file)", loc)));
    }
    let fp = stream_key(m, fp, loc)?;
    let mode = cstr(m, mode, loc)?;
    let path = if path == 0 {
        match with_table(m, |t| t.open.get(&fp).and_then(|f| f.path.clone())) {
            Some(p) => p.into_os_string().into_encoded_bytes(),
            None => return Err(Trap::error(Diagnostic::unsupported("freopen(NULL, mode, stdin)", loc))),
        }
    } else {
        cstr(m, path, loc)?
    };
    // Close what is open now (flushing it), keeping the FILE object.
    let stdin = fp == m.libc.stdin_file();
    if let Some(mut old) = with_table(m, |t| t.open.remove(&fp)) {
        flush_file(&mut old);
        m.mem.uncharge(old.charged);
    }
    match open_stream(m, &path, &mode, loc)? {
        Ok(file) => {
            with_table(m, |t| t.open.insert(fp, file));
            Ok(fp)
        }
        Err(e) => {
            if !stdin {
                with_table(m, |t| t.closed.insert(fp));
                m.mem.release(AllocId((fp >> 32) as u32), loc);
            }
            set_errno(m, e);
            Ok(0)
        }
    }
}

/// Read up to `n` bytes from the stream (fewer at its end, which sets its EOF flag).
fn read_bytes(m: &mut Machine, fp: u64, n: usize, until_newline: bool) -> Option<Vec<u8>> {
    with_table(m, |t| {
        let f = t.open.get_mut(&fp)?;
        if !f.read {
            f.error = true;
            return None;
        }
        let mut out = Vec::new();
        while out.len() < n {
            let Some(c) = f.peek() else { break };
            f.bump();
            out.push(c);
            if until_newline && c == b'\n' {
                break;
            }
        }
        Some(out)
    })
}

/// Store scanf's results through the pointer arguments `ptrs`.
fn store_scanned(m: &mut Machine, stores: Vec<Store>, ptrs: &[u64], loc: Loc) -> Result<(), Trap> {
    for (i, s) in stores.into_iter().enumerate() {
        let Some(&p) = ptrs.get(i) else {
            return Err(Trap::error(Diagnostic::error("scanf", format!("the scanf format has more conversions than the {} pointer arguments given", ptrs.len()), loc)));
        };
        let stored = match s {
            Store::Int { value, size: 1 } => m.mem.store_u8(p, value as u8),
            Store::Int { value, size: 2 } => m.mem.store_u16(p, value as u16),
            Store::Int { value, size: 4 } => m.mem.store_u32(p, value as u32),
            Store::Int { value, .. } => m.mem.store_u64(p, value),
            Store::Float { value, size: FloatSize::F32 } => m.mem.store_u32(p, (value as f32).to_bits()),
            Store::Float { value, size: FloatSize::F64 } => m.mem.store_u64(p, value.to_bits()),
            Store::Float { value, size: FloatSize::LongDouble } => m.mem.store_kind(Kind::LongDouble, p, value.to_bits()),
            Store::Bytes { mut bytes, nul } => {
                if nul {
                    bytes.push(0);
                }
                m.mem.write_bytes(p, &bytes)
            }
        };
        stored.map_err(|f| m.fault(f, loc))?;
    }
    Ok(())
}

fn scan_error(e: scanf::ScanError, loc: Loc) -> Trap {
    Trap::error(Diagnostic::unsupported(e.0, loc))
}

/// A file function on stdout or stderr: `fclose` flushes (0), the flags are clear, a read
/// fails (EOF, EBADF) and so does a seek (ESPIPE, as on a terminal or pipe).
fn std_output(m: &mut Machine, f: FileFn, stdout: bool) -> u64 {
    match f {
        FileFn::Fclose => {
            if stdout {
                m.flush_stdout();
            }
            0
        }
        FileFn::Feof | FileFn::Ferror | FileFn::Clearerr | FileFn::Rewind => 0,
        FileFn::Fseek | FileFn::Ftell => {
            set_errno(m, ESPIPE);
            EOF
        }
        FileFn::Fread | FileFn::Fgets => {
            set_errno(m, EBADF);
            0
        }
        _ => {
            set_errno(m, EBADF);
            EOF
        }
    }
}

/// Run a file function.
pub fn call(m: &mut Machine, f: FileFn, args: &[u64], loc: Loc) -> Result<u64, Trap> {
    use FileFn::*;
    let a = |i| arg(args, i);
    if matches!(f, Fclose | Feof | Ferror | Clearerr | Fseek | Ftell | Rewind | Fgetc | Fread | Fgets | Fscanf) {
        // stdout and stderr (the FILE argument's position differs: fread's is last).
        let fp = match f {
            Fread => a(3),
            Fgets => a(2),
            _ => a(0),
        };
        if fp == m.libc.object(1) || fp == m.libc.object(2) {
            return Ok(std_output(m, f, fp == m.libc.object(1)));
        }
    }
    Ok(match f {
        Fopen => {
            let (path, mode) = (cstr(m, a(0), loc)?, cstr(m, a(1), loc)?);
            match open(m, &path, &mode, loc)? {
                Ok(fp) => fp,
                Err(e) => {
                    set_errno(m, e);
                    0
                }
            }
        }
        Fclose => {
            let fp = stream_key(m, a(0), loc)?;
            if fp == m.libc.stdin_file() {
                return Ok(0);
            }
            let closed = with_table(m, |t| {
                let mut file = t.open.remove(&fp)?;
                t.closed.insert(fp);
                let ok = flush_file(&mut file) && !file.error;
                Some((ok, file.charged))
            });
            let Some((ok, charged)) = closed else { return Ok(EOF) };
            m.mem.uncharge(charged);
            m.mem.release(AllocId((fp >> 32) as u32), loc);
            if ok {
                0
            } else {
                EOF
            }
        }
        Fread => {
            let (buf, size, n) = (a(0), a(1), a(2));
            let fp = stream_key(m, a(3), loc)?;
            let want = size.saturating_mul(n);
            if want == 0 {
                return Ok(0);
            }
            m.mem.check_writable(buf, want).map_err(|f| m.fault(f, loc))?;
            let bytes = read_bytes(m, fp, want.min(usize::MAX as u64) as usize, false).unwrap_or_default();
            m.mem.write_bytes(buf, &bytes).map_err(|f| m.fault(f, loc))?;
            if !bytes.is_empty() {
                super::check::access(m, buf, bytes.len() as u64, true, false, loc);
            }
            bytes.len() as u64 / size
        }
        Fgets => {
            let (buf, n) = (a(0), a(1) as i32);
            let fp = stream_key(m, a(2), loc)?;
            if n <= 0 {
                set_errno(m, EINVAL);
                return Ok(0);
            }
            m.mem.check_writable(buf, n as u64).map_err(|f| m.fault(f, loc))?;
            let mut line = read_bytes(m, fp, n as usize - 1, true).unwrap_or_default();
            if line.is_empty() && n > 1 {
                return Ok(0);
            }
            line.push(0);
            m.mem.write_bytes(buf, &line).map_err(|f| m.fault(f, loc))?;
            buf
        }
        Fgetc | Getchar => {
            let fp = if f == Getchar { m.libc.stdin_file() } else { a(0) };
            let fp = stream_key(m, fp, loc)?;
            match read_bytes(m, fp, 1, false).unwrap_or_default().first() {
                Some(&c) => c as u64,
                None => EOF,
            }
        }
        Fscanf | Scanf => {
            let (fp, fmt, ptrs) = if f == Scanf { (m.libc.stdin_file(), a(0), args.get(1..).unwrap_or(&[])) } else { (a(0), a(1), args.get(2..).unwrap_or(&[])) };
            let fp = stream_key(m, fp, loc)?;
            let fmt = cstr(m, fmt, loc)?;
            let scanned = with_table(m, |t| match t.open.get_mut(&fp) {
                Some(file) if file.read => Some(scanf::scan(&fmt, file)),
                Some(file) => {
                    file.error = true;
                    None
                }
                None => None,
            });
            match scanned {
                None => EOF,
                Some(s) => {
                    let s = s.map_err(|e| scan_error(e, loc))?;
                    store_scanned(m, s.stores, ptrs, loc)?;
                    s.result as i64 as u64
                }
            }
        }
        Sscanf => {
            let (text, fmt) = (cstr(m, a(0), loc)?, cstr(m, a(1), loc)?);
            let s = scanf::scan(&fmt, &mut SliceInput { bytes: &text, pos: 0 }).map_err(|e| scan_error(e, loc))?;
            store_scanned(m, s.stores, args.get(2..).unwrap_or(&[]), loc)?;
            s.result as i64 as u64
        }
        Feof | Ferror | Clearerr => {
            let fp = stream_key(m, a(0), loc)?;
            with_table(m, |t| {
                let file = t.open.get_mut(&fp)?;
                Some(match f {
                    Feof => file.eof as u64,
                    Ferror => file.error as u64,
                    _ => {
                        file.eof = false;
                        file.error = false;
                        0
                    }
                })
            })
            .unwrap_or(0)
        }
        Fseek | Rewind => {
            let fp = stream_key(m, a(0), loc)?;
            let (offset, whence) = if f == Rewind { (0, 0) } else { (a(1) as i64, a(2) as i32) };
            let r = with_table(m, |t| {
                let file = t.open.get_mut(&fp).ok_or(EBADF)?;
                if file.path.is_none() {
                    return Err(ESPIPE);
                }
                let base = match whence {
                    0 => 0,
                    // From the position ftell tells: before the bytes pushed back.
                    1 => file.told() - file.dropped as i64,
                    2 => file.data.len() as i64,
                    _ => return Err(EINVAL),
                };
                let to = base.checked_add(offset).filter(|&p| p >= 0).ok_or(EINVAL)?;
                // Seeking far past the end and writing fills the gap with zeros in memory.
                if to as u64 > (1u64 << 40) {
                    return Err(EINVAL);
                }
                file.pos = to as usize;
                file.pushback.clear();
                file.eof = false;
                if f == Rewind {
                    file.error = false;
                }
                Ok(())
            });
            match (r, f) {
                (_, Rewind) => 0,
                (Ok(()), _) => 0,
                (Err(e), _) => {
                    set_errno(m, e);
                    EOF
                }
            }
        }
        Ftell => {
            let fp = stream_key(m, a(0), loc)?;
            match with_table(m, |t| t.open.get(&fp).map(|file| (file.path.is_some(), file.told()))) {
                // glibc's ftell takes a position of -1 (two bytes pushed back at offset 1) for
                // its error value and sets errno EIO when nothing else set it.
                Some((true, -1)) => {
                    if errno(m) == 0 {
                        set_errno(m, EIO);
                    }
                    EOF
                }
                Some((true, pos)) => pos as u64,
                _ => {
                    set_errno(m, ESPIPE);
                    EOF
                }
            }
        }
        Ungetc => unget(m, a(0), a(1), loc)?,
        Freopen => reopen(m, a(0), a(1), a(2), loc)?,
        Remove => {
            let path = cstr(m, a(0), loc)?;
            remove(m, &path)
        }
        Rename => {
            let (old, new) = (cstr(m, a(0), loc)?, cstr(m, a(1), loc)?);
            rename(m, &old, &new)
        }
        Perror => {
            let e = errno(m);
            let mut msg = if a(0) == 0 { Vec::new() } else { cstr(m, a(0), loc)? };
            if !msg.is_empty() {
                msg.extend_from_slice(b": ");
            }
            msg.extend_from_slice(strerror_text(e).as_bytes());
            msg.push(b'\n');
            m.write_stderr(&msg);
            0
        }
        Strerror => {
            let e = a(0) as u32;
            m.libc.strerror_string(e).map_or_else(
                || {
                    let mut text = strerror_text(e).into_bytes();
                    text.push(0);
                    let p = m.mem.alloc_init(&text, AllocKind::Runtime("a strerror message"), true, loc).map_err(|f| m.fault(f, loc))?;
                    m.libc.keep_strerror_string(e, p);
                    Ok(p)
                },
                Ok,
            )?
        }
    })
}
