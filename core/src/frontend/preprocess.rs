//! Running the system C preprocessor and mapping its output back to original files and lines.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::diag::{Diagnostic, FileId, Loc, SourceMap};

/// The project's OpenACC 2.0 header, found before the system one (written to a private include dir).
pub const OPENACC_H: &str = include_str!("../../include/openacc.h");

/// The PGI Accelerator 1.3 runtime header (1.3 §3.1), beside `openacc.h`.
pub const ACCEL_H: &str = include_str!("../../include/accel.h");

/// How to run the preprocessor.
#[derive(Clone, Debug)]
pub struct PreprocessOptions {
    /// The preprocessor command and its fixed arguments (default `cc -E -fopenacc -U_OPENACC -D_OPENACC=201306`).
    pub command: Vec<String>,
    /// `-D`, `-U`, `-I` arguments passed through, in command-line order (e.g. `-DN=10`).
    pub args: Vec<String>,
    /// `--sandbox`: what the preprocessor may read and how much it may make.
    pub sandbox: Option<PreprocessSandbox>,
    /// The directive language (`--dialect`): OpenACC 2.0, PGI Accelerator 1.3, or chosen per file.
    pub dialect: crate::dialect::Dialect,
}

/// The preprocessor under `--sandbox` (issue 14: `#include "/etc/passwd"` was read and echoed,
/// `#include "/dev/zero"` and macro bombs grew without bound).
///
/// - Files may be included only from the directory of the program's file, the `-I`
///   directories (`include_dirs`), accsim's `openacc.h` and the system headers
///   ([`SYSTEM_HEADER_DIRS`]); every file the preprocessor names in its line markers is checked,
///   symbolic links resolved, before the text is used. A file outside is an error naming it, and
///   nothing of its text is shown.
/// - The program's files must be regular files (no `/dev/stdin`), the preprocessor's stdin is
///   empty, its address space and CPU time are capped (`ulimit -v`, `ulimit -t` through `sh`),
///   and its output is cut at [`PreprocessSandbox::max_output`] bytes.
#[derive(Clone, Debug)]
pub struct PreprocessSandbox {
    /// The `-I` directories.
    pub include_dirs: Vec<PathBuf>,
    /// Most bytes of preprocessed text.
    pub max_output: u64,
    /// The preprocessor's address-space cap in KiB (`ulimit -v`).
    pub max_memory_kib: u64,
    /// The preprocessor's CPU-time cap in seconds (`ulimit -t`).
    pub max_cpu_seconds: u64,
}

impl Default for PreprocessSandbox {
    fn default() -> Self {
        PreprocessSandbox { include_dirs: Vec::new(), max_output: 64 << 20, max_memory_kib: 1 << 20, max_cpu_seconds: 10 }
    }
}

/// Where the system headers live (glibc's, gcc's and clang's own, local ones).
pub const SYSTEM_HEADER_DIRS: &[&str] = &["/usr/include", "/usr/lib/gcc", "/usr/local/include", "/usr/lib/clang", "/usr/lib/llvm"];

impl Default for PreprocessOptions {
    fn default() -> Self {
        PreprocessOptions {
            command: ["cc", "-E", "-fopenacc", "-U_OPENACC", "-D_OPENACC=201306"].map(String::from).to_vec(),
            args: Vec::new(),
            sandbox: None,
            dialect: Default::default(),
        }
    }
}

impl PreprocessOptions {
    /// Replace the command (`--cpp "clang -E"`); the `_OPENACC` definition is kept.
    pub fn with_command_line(line: &str) -> Self {
        let mut command: Vec<String> = line.split_whitespace().map(String::from).collect();
        if !command.iter().any(|a| a.starts_with("-D_OPENACC")) {
            command.push("-U_OPENACC".into());
            command.push("-D_OPENACC=201306".into());
        }
        PreprocessOptions { command, args: Vec::new(), sandbox: None, dialect: Default::default() }
    }
}

/// Preprocessed text plus its line map.
pub struct Preprocessed {
    pub text: String,
    pub lines: LineMap,
}

/// For every line of a preprocessed text: the byte offset it starts at and the original place.
#[derive(Debug, Default, Clone)]
pub struct LineMap {
    starts: Vec<usize>,
    origins: Vec<(FileId, u32)>,
    /// The files the preprocessor enters as system headers (flags 1 and 3 of a line marker:
    /// "this indicates the start of a new file" and "the following text comes from a system
    /// header file", GNU cpp manual, "Preprocessor Output"). Flag 3 alone is no mark of the
    /// file: gcc also puts it on a marker back into the program's own file after a macro of a
    /// system header (`stderr`, `NULL`) expanded there.
    system_headers: Vec<FileId>,
}

impl LineMap {
    /// Build the map of `text`, registering file names in `map`. Line-marker lines themselves map to
    /// the place they name. Only `main_file`'s text is read (for snippets): the other names come
    /// from line markers, which the program can write itself (see [`LineMap::build_reading`]).
    pub fn build(text: &str, map: &mut SourceMap, main_file: &str) -> LineMap {
        Self::build_reading(text, map, main_file, &|_| false)
    }

    /// [`LineMap::build`], reading the text of the files named in line markers for which `read`
    /// holds: the files the preprocessor read ([`FilesRead`]). A marker names a file the program
    /// chose (`#line 1 "/etc/passwd"`, or a marker written in the source, which `cc -E` passes on
    /// as it is), so a name alone is never a reason to read a file (issue 14).
    pub fn build_reading(text: &str, map: &mut SourceMap, main_file: &str, read: &dyn Fn(&str) -> bool) -> LineMap {
        let mut starts = Vec::new();
        let mut origins = Vec::new();
        let mut system_headers = Vec::new();
        let mut file = map.read_file_id(main_file);
        let mut line: u32 = 1;
        let mut offset = 0;
        for raw in text.split_inclusive('\n') {
            starts.push(offset);
            offset += raw.len();
            if let Some((n, name, flags)) = parse_line_marker_flags(raw) {
                file = match map.find(&name) {
                    Some(id) => id,
                    None if read(&name) => map.read_file_id(&name),
                    None => map.file_id(&name),
                };
                line = n;
                origins.push((file, n));
                let entered_as_system = flags.split_whitespace().any(|f| f == "1") && flags.split_whitespace().any(|f| f == "3");
                if entered_as_system && !system_headers.contains(&file) {
                    system_headers.push(file);
                }
                continue;
            }
            origins.push((file, line));
            line += 1;
        }
        LineMap { starts, origins, system_headers }
    }

    /// Whether the preprocessor marked `file` as a system header (the C library's inline
    /// functions are defined in them): the front-end records it as the origin of what is
    /// defined there (`ir::FunctionOrigin`).
    pub fn is_system_header(&self, file: FileId) -> bool {
        self.system_headers.contains(&file)
    }

    /// The same line origins for a text with the same lines but different line lengths (the text
    /// after directive extraction).
    pub fn rebase(&self, text: &str) -> LineMap {
        let mut starts = Vec::with_capacity(self.starts.len());
        let mut offset = 0;
        for raw in text.split_inclusive('\n') {
            starts.push(offset);
            offset += raw.len();
        }
        starts.truncate(self.origins.len());
        LineMap { starts, origins: self.origins.clone(), system_headers: self.system_headers.clone() }
    }

    /// Original location of byte `offset` of `text` (the text this map was built from, or one with
    /// the same line structure).
    pub fn loc(&self, text: &str, offset: usize) -> Loc {
        if self.starts.is_empty() {
            return Loc::default();
        }
        let idx = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let (file, line) = self.origins[idx];
        let start = self.starts[idx];
        let end = offset.min(text.len());
        let col = text.get(start..end).map(|s| s.chars().count()).unwrap_or(0) as u32 + 1;
        Loc { file, line, col }
    }

    /// Original place of line index `i` (0-based) of the preprocessed text.
    pub fn line_origin(&self, i: usize) -> Option<(FileId, u32)> {
        self.origins.get(i).copied()
    }
}

/// `# 12 "file.c" 2` → (12, "file.c").
pub fn parse_line_marker(line: &str) -> Option<(u32, String)> {
    parse_line_marker_flags(line).map(|(n, name, _)| (n, name))
}

/// [`parse_line_marker`] with the flags that follow the file name (`1 3 4`).
fn parse_line_marker_flags(line: &str) -> Option<(u32, String, &str)> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("line").map(str::trim_start).unwrap_or(rest);
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    if digits.is_empty() {
        return None;
    }
    let n: u32 = digits.parse().ok()?;
    let rest = rest[digits.len()..].trim_start();
    let name = rest.strip_prefix('"')?;
    let mut out = String::new();
    let mut chars = name.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some((n, out, chars.as_str().trim())),
            '\\' => out.push(chars.next()?),
            c => out.push(c),
        }
    }
    None
}

/// Write the bundled `openacc.h` and `accel.h` into a directory named by their content's hash (so
/// every run of this accsim shares one, and nothing accumulates in the temporary directory) and
/// return it.
fn openacc_include_dir() -> std::io::Result<PathBuf> {
    // FNV-1a of the header texts: stable across runs and builds.
    let hash = OPENACC_H.bytes().chain(ACCEL_H.bytes()).fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3));
    let dir = std::env::temp_dir().join(format!("accsim-include-{hash:016x}"));
    for (name, content) in [("openacc.h", OPENACC_H), ("accel.h", ACCEL_H)] {
        let file = dir.join(name);
        if std::fs::read_to_string(&file).ok().as_deref() == Some(content) {
            continue;
        }
        std::fs::create_dir_all(&dir)?;
        // Write then rename, so a concurrent run never reads a half-written header.
        let tmp = dir.join(format!("{name}.{}", std::process::id()));
        std::fs::write(&tmp, content)?;
        std::fs::rename(&tmp, &file)?;
    }
    Ok(dir)
}

/// The files the preprocessor read, from the dependency list it writes beside its output
/// (`-MD -MF FILE`, which gcc, clang and cpp write even when an `#error` fails the run): the
/// program's file and every header it included, however the line markers name them.
#[derive(Debug)]
pub struct FilesRead {
    /// As the preprocessor named them.
    names: Vec<String>,
    /// The same, with symbolic links and `..` resolved.
    canonical: std::collections::HashSet<PathBuf>,
}

impl FilesRead {
    fn new(names: Vec<String>) -> FilesRead {
        let canonical = names.iter().filter_map(|n| Path::new(n).canonicalize().ok()).collect();
        FilesRead { names, canonical }
    }

    /// Whether the preprocessor read the file `name` (as a line marker or a message names it).
    pub fn contains(&self, name: &str) -> bool {
        self.names.iter().any(|n| n == name) || Path::new(name).canonicalize().is_ok_and(|c| self.canonical.contains(&c))
    }
}

/// A temporary file of this process, removed when dropped.
struct ScratchFile(PathBuf);

impl ScratchFile {
    fn new(stem: &str, extension: &str) -> ScratchFile {
        static SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let seq = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        ScratchFile(std::env::temp_dir().join(format!("accsim-{stem}-{}-{seq}.{extension}", std::process::id())))
    }
}

impl Drop for ScratchFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The preprocessor's dependency list.
struct DependencyFile(ScratchFile);

impl DependencyFile {
    /// The arguments that make the preprocessor write it (the rule's target is `accsim`).
    fn args(&self) -> [String; 5] {
        ["-MD".into(), "-MF".into(), self.0 .0.display().to_string(), "-MT".into(), DEPENDENCY_TARGET.into()]
    }

    /// The files it lists; `None` when the preprocessor wrote none.
    fn read(&self) -> Option<FilesRead> {
        let text = std::fs::read_to_string(&self.0 .0).ok()?;
        Some(FilesRead::new(parse_dependency_rule(&text)?))
    }
}

/// The target named in the dependency rule the preprocessor writes.
const DEPENDENCY_TARGET: &str = "accsim";

/// The prerequisites of a make rule `accsim: a.c /usr/include/stdio.h \` as the preprocessor
/// writes it: separated by blanks and escaped newlines, with `\ ` for a space, `\#` for `#`
/// and `$$` for `$` in a name.
fn parse_dependency_rule(text: &str) -> Option<Vec<String>> {
    let rest = text.trim_start().strip_prefix(DEPENDENCY_TARGET)?.trim_start().strip_prefix(':')?;
    let (mut names, mut name) = (Vec::new(), String::new());
    let mut chars = rest.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek().is_some_and(|&n| n == ' ' || n == '#' || n == '\\') => name.push(chars.next().unwrap_or(c)),
            '\\' if chars.peek() == Some(&'\n') => {
                chars.next();
                names.extend((!name.is_empty()).then(|| std::mem::take(&mut name)));
            }
            '$' if chars.peek() == Some(&'$') => {
                chars.next();
                name.push('$');
            }
            c if c.is_whitespace() => names.extend((!name.is_empty()).then(|| std::mem::take(&mut name))),
            c => name.push(c),
        }
    }
    names.extend((!name.is_empty()).then_some(name));
    Some(names)
}

/// Run the preprocessor on `path`.
///
/// Only files the preprocessor read ([`FilesRead`]) have their text in `map` for snippets; a
/// name from a `#line` directive or from a marker the program wrote is a name only (issue 14).
/// Under `--sandbox` every file it read must lie in an allowed directory ([`PreprocessSandbox`]).
pub fn preprocess(path: &str, opts: &PreprocessOptions, map: &mut SourceMap) -> Result<Preprocessed, Diagnostic> {
    let file = map.read_file_id(path);
    let whole = Loc { file, line: 0, col: 0 };
    if std::fs::metadata(path).is_err() {
        return Err(Diagnostic::error("io", format!("cannot read `{path}`: no such file"), whole));
    }
    let inc = openacc_include_dir()
        .map_err(|e| Diagnostic::internal(format!("cannot write the bundled openacc.h: {e}"), None))?;
    let (prog, fixed) = opts
        .command
        .split_first()
        .ok_or_else(|| Diagnostic::error("preprocessor", "empty preprocessor command", whole))?;
    if opts.sandbox.is_some() && !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return Err(Diagnostic::error("sandbox", format!("`{path}` is not a regular file (--sandbox)"), whole));
    }
    let mut cmd = preprocessor_command(prog, opts.sandbox.as_ref());
    let dependencies = DependencyFile(ScratchFile::new("deps", "d"));
    cmd.args(fixed).arg(format!("-I{}", inc.display())).args(&opts.args).args(dependencies.args()).arg(path);
    let max_output = opts.sandbox.as_ref().map_or(u64::MAX, |sb| sb.max_output);
    let out = run_capped(cmd, max_output)
        .map_err(|e| Diagnostic::error("preprocessor", format!("cannot run the preprocessor `{prog}`: {e}"), whole))?;
    let files_read = dependencies.read();
    let read = |name: &str| name == path || files_read.as_ref().is_some_and(|f| f.contains(name));
    let Some(out) = out else {
        return Err(Diagnostic::error("sandbox", format!("the preprocessed text of `{path}` is longer than {max_output} bytes (--sandbox)"), whole));
    };
    if !out.status.success() {
        if opts.sandbox.is_some() {
            // Nothing the preprocessor read is shown: its messages quote the files.
            return Err(Diagnostic::error("sandbox", format!("the preprocessor failed on `{path}` (--sandbox hides its messages)"), whole)
                .with_note(format!("status {}; a memory ({} KiB) or CPU ({} s) cap may have been reached", out.status, opts.sandbox.as_ref().map_or(0, |s| s.max_memory_kib), opts.sandbox.as_ref().map_or(0, |s| s.max_cpu_seconds))));
        }
        let stderr = String::from_utf8_lossy(&out.stderr);
        // Point at the first `file:line:` the preprocessor names, if any.
        let loc = first_cpp_location(&stderr, map, &read).unwrap_or(whole);
        let first = stderr.lines().find(|l| l.contains("error")).unwrap_or("preprocessing failed").trim().to_string();
        let msg = first.split_once("error: ").map(|(_, m)| m.to_string()).unwrap_or(first);
        return Err(Diagnostic::error("preprocessor", msg, loc).with_note(without_source_quotes(&stderr)));
    }
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    if let Some(sb) = &opts.sandbox {
        // The files it read; without its list (a preprocessor that ignores `-MD`), every file a
        // line marker names, which also refuses a `#line` naming a file outside.
        let names: Vec<String> = match &files_read {
            Some(f) => f.names.clone(),
            None => text.lines().filter(|l| l.starts_with('#')).filter_map(|l| parse_line_marker(l).map(|m| m.1)).collect(),
        };
        check_included_files(&names, path, sb, &inc, whole)?;
    }
    let expanded = if super::directive_macros::may_need_expansion(&text, &opts.command) {
        expand_directive_macros(&text, path, opts, &inc, max_output)
    } else {
        None
    };
    let text = expanded.unwrap_or(text);
    let lines = LineMap::build_reading(&text, map, path, &read);
    Ok(Preprocessed { text, lines })
}

/// The command that runs the preprocessor `prog`; under `--sandbox` through `sh`, which caps
/// its memory and CPU time first ([`PreprocessSandbox`]).
fn preprocessor_command(prog: &str, sandbox: Option<&PreprocessSandbox>) -> Command {
    match sandbox {
        None => Command::new(prog),
        Some(sb) => {
            let mut c = Command::new("sh");
            c.arg("-c").arg(format!("ulimit -v {} && ulimit -t {} && exec \"$0\" \"$@\"", sb.max_memory_kib, sb.max_cpu_seconds)).arg(prog);
            c
        }
    }
}

/// Macros in the `#pragma acc` lines the preprocessor left as written, expanded at each
/// pragma's point ([`super::directive_macros`]): the file preprocessed again with `-dD` and
/// without `-fopenacc`, then the directives through the preprocessor with the macros of their
/// point. `None`: nothing to expand, or a run failed (the text stays as it is).
fn expand_directive_macros(first_run: &str, path: &str, opts: &PreprocessOptions, inc: &Path, max_output: u64) -> Option<String> {
    let (prog, fixed) = opts.command.split_first()?;
    let fixed: Vec<&String> = fixed.iter().filter(|a| *a != "-fopenacc").collect();
    // `-dD` writes every definition beside the text.
    let cap = max_output.saturating_mul(4);
    let mut cmd = preprocessor_command(prog, opts.sandbox.as_ref());
    cmd.args(&fixed).arg(format!("-I{}", inc.display())).args(&opts.args).arg("-dD").arg(path);
    let out = run_capped(cmd, cap).ok()??;
    if !out.status.success() {
        return None;
    }
    let defines_run = String::from_utf8_lossy(&out.stdout);
    let input = ScratchFile::new("directive-macros", "c");
    super::directive_macros::expand_directives(first_run, &defines_run, &mut |text| {
        std::fs::write(&input.0, text).ok()?;
        let mut cmd = preprocessor_command(prog, opts.sandbox.as_ref());
        cmd.args(&fixed).args(["-P", "-w"]).arg(&input.0);
        let out = run_capped(cmd, cap).ok()??;
        out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
    })
}

/// The process groups of the preprocessors running now (each is the group of its own leader),
/// for [`kill_running_preprocessors`].
static RUNNING: std::sync::Mutex<Vec<u32>> = std::sync::Mutex::new(Vec::new());

/// A running preprocessor's process group, taken off [`RUNNING`] when it ends.
struct Registered(u32);

impl Registered {
    fn new(pid: u32) -> Registered {
        if let Ok(mut r) = RUNNING.lock() {
            r.push(pid);
        }
        Registered(pid)
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        if let Ok(mut r) = RUNNING.lock() {
            r.retain(|&p| p != self.0);
        }
    }
}

/// Kill every preprocessor running now, with the processes it started (`cc -E` runs `cc1`):
/// what the `--max-time` watchdog does before it ends accsim (issue 14: a preprocessor left
/// running on an endless input outlived accsim). Each runs in a process group of its own, which
/// is sent SIGKILL (through `kill(1)`: this crate has no `unsafe`).
pub fn kill_running_preprocessors() {
    let groups = RUNNING.lock().map(|r| r.clone()).unwrap_or_default();
    for pgid in groups {
        let _ = Command::new("kill").args(["-KILL", "--", &format!("-{pgid}")]).stdout(Stdio::null()).stderr(Stdio::null()).status();
    }
}

/// Run `cmd` with an empty stdin, keeping at most `max_output` bytes of its stdout: `None`
/// (and the child killed) when it makes more. The child leads a process group of its own, so
/// that [`kill_running_preprocessors`] reaches the processes it starts.
fn run_capped(mut cmd: Command, max_output: u64) -> std::io::Result<Option<std::process::Output>> {
    use std::os::unix::process::CommandExt;
    let mut child = cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).process_group(0).spawn()?;
    let _registered = Registered::new(child.id());
    // stderr is drained on its own thread so that a chatty preprocessor cannot block.
    let stderr = child.stderr.take().map(|mut e| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = (&mut e).take(1 << 20).read_to_end(&mut buf);
            buf
        })
    });
    let mut stdout = Vec::new();
    if let Some(out) = child.stdout.take() {
        out.take(max_output.saturating_add(1)).read_to_end(&mut stdout)?;
    }
    if stdout.len() as u64 > max_output {
        let _ = child.kill();
        let _ = child.wait();
        return Ok(None);
    }
    let status = child.wait()?;
    let stderr = stderr.and_then(|h| h.join().ok()).unwrap_or_default();
    Ok(Some(std::process::Output { status, stdout, stderr }))
}

/// Under `--sandbox`, every file the preprocessor read (`names`) lies in an allowed directory
/// (see [`PreprocessSandbox`]).
fn check_included_files(names: &[String], path: &str, sb: &PreprocessSandbox, openacc_dir: &Path, whole: Loc) -> Result<(), Diagnostic> {
    let program_dir = Path::new(path).parent().map(|p| if p.as_os_str().is_empty() { Path::new(".") } else { p }).unwrap_or(Path::new("."));
    let allowed: Vec<PathBuf> = std::iter::once(program_dir.to_path_buf())
        .chain(sb.include_dirs.iter().cloned())
        .chain(std::iter::once(openacc_dir.to_path_buf()))
        .chain(SYSTEM_HEADER_DIRS.iter().map(PathBuf::from))
        .filter_map(|d| d.canonicalize().ok())
        .collect();
    let mut seen = std::collections::HashSet::new();
    for name in names {
        if name.starts_with('<') || !seen.insert(name) {
            continue;
        }
        let real = Path::new(name).canonicalize().unwrap_or_else(|_| PathBuf::from(name));
        if !allowed.iter().any(|d| real.starts_with(d)) {
            return Err(Diagnostic::error(
                "sandbox",
                format!("`{name}` is included from outside the program's directory, the -I directories and the system headers (--sandbox)"),
                whole,
            )
            .with_help("copy the header next to the program or name its directory with -I"));
        }
    }
    Ok(())
}

/// The preprocessor's messages without the source lines it quotes under them (`    1 | text`,
/// `      |  ^~~`): it quotes the file a `#line` names too, which it did not include (issue 14);
/// the diagnostic shows its own snippet of the files the preprocessor read.
fn without_source_quotes(stderr: &str) -> String {
    let quote = |l: &str| {
        let t = l.trim_start();
        let t = t.trim_start_matches(|c: char| c.is_ascii_digit()).trim_start();
        l.starts_with(' ') && (t == "|" || t.starts_with("| "))
    };
    stderr.lines().filter(|l| !quote(l)).collect::<Vec<_>>().join("\n").trim().to_string()
}

/// The first `file:line:col` of the preprocessor's messages; the file's text is read only when
/// the preprocessor read it (`read`): its messages name `#line` names too.
fn first_cpp_location(stderr: &str, map: &mut SourceMap, read: &dyn Fn(&str) -> bool) -> Option<Loc> {
    for l in stderr.lines() {
        let mut parts = l.splitn(4, ':');
        let (f, line, col) = (parts.next()?, parts.next()?, parts.next()?);
        if let (Ok(line), Ok(col)) = (line.trim().parse::<u32>(), col.trim().parse::<u32>()) {
            let file = if read(f) { map.read_file_id(f) } else { map.file_id(f) };
            return Some(Loc { file, line, col });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_markers_parse() {
        assert_eq!(parse_line_marker("# 12 \"a.c\" 2\n"), Some((12, "a.c".to_string())));
        assert_eq!(parse_line_marker("#line 3 \"x y.c\""), Some((3, "x y.c".to_string())));
        assert_eq!(parse_line_marker("#pragma acc loop"), None);
        assert_eq!(parse_line_marker_flags("# 1 \"/usr/include/stdio.h\" 1 3 4\n"), Some((1, "/usr/include/stdio.h".to_string(), "1 3 4")));
    }

    #[test]
    fn dependency_rules_parse() {
        let rule = "accsim: a\\ b.c /usr/include/stdio.h \\\n /x/c\\#1.h d$$e.h\n";
        assert_eq!(parse_dependency_rule(rule), Some(["a b.c", "/usr/include/stdio.h", "/x/c#1.h", "d$e.h"].map(String::from).to_vec()));
        assert_eq!(parse_dependency_rule("other: a.c\n"), None);
    }

    /// Only the main file and files `read` accepts get their text; a `#line` name or a marker
    /// the program wrote is a name only (issue 14).
    #[test]
    fn line_map_reads_only_files_the_preprocessor_read() {
        let dir = std::env::temp_dir().join(format!("accsim-linemap-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (main, header, secret) = (dir.join("m.c"), dir.join("h.h"), dir.join("secret.txt"));
        for (p, t) in [(&main, "int x;\n"), (&header, "int y;\n"), (&secret, "SECRET\n")] {
            std::fs::write(p, t).unwrap();
        }
        let (m, h, s) = (main.display().to_string(), header.display().to_string(), secret.display().to_string());
        let text = format!("# 1 \"{m}\"\nint x;\n# 1 \"{h}\" 1\nint y;\n# 2 \"{m}\" 2\n# 1 \"{s}\"\nint z;\n# 1 \"{s}\" 1\n");
        let mut map = SourceMap::new();
        LineMap::build_reading(&text, &mut map, &m, &|n| n == h);
        let text_of = |name: &str| map.find(name).and_then(|id| map.file(id)).and_then(|f| f.text.as_deref().map(str::to_string));
        assert_eq!(text_of(&m).as_deref(), Some("int x;\n"));
        assert_eq!(text_of(&h).as_deref(), Some("int y;\n"));
        assert!(map.find(&s).is_some());
        assert_eq!(text_of(&s), None);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn preprocessor_notes_lose_their_quoted_source() {
        let stderr = "x.c:1:2: error: #error boom\n    1 | root:x:0:0\n      |  ^~~~~\nIn file included from a.c:2:\n";
        assert_eq!(without_source_quotes(stderr), "x.c:1:2: error: #error boom\nIn file included from a.c:2:");
    }

    #[test]
    fn line_map_follows_markers() {
        let text = "# 1 \"a.c\"\nint x;\n# 10 \"b.h\" 1\nint y;\nint z;\n";
        let mut map = SourceMap::new();
        let lm = LineMap::build(text, &mut map, "a.c");
        let off_y = text.find("int y").unwrap();
        let loc = lm.loc(text, off_y + 4);
        assert_eq!(map.name(loc.file), "b.h");
        assert_eq!((loc.line, loc.col), (10, 5));
        let off_z = text.find("int z").unwrap();
        assert_eq!(lm.loc(text, off_z).line, 11);
        assert_eq!(lm.loc(text, text.find("int x").unwrap()).line, 1);
        assert!(!lm.is_system_header(loc.file), "no flag 3: not a system header");
        let text = "# 1 \"a.c\"\n# 1 \"/usr/include/stdlib.h\" 1 3 4\nint y;\n# 2 \"a.c\" 2\nint x;\n";
        let lm = LineMap::build(text, &mut map, "a.c");
        let (y, x) = (lm.loc(text, text.find("int y").unwrap()), lm.loc(text, text.find("int x").unwrap()));
        assert!(lm.is_system_header(y.file) && !lm.is_system_header(x.file));
        // gcc -E after `fprintf(stderr, …)`: flag 3 on a marker into the program's file.
        let text = "# 1 \"a.c\"\n# 1 \"/usr/include/stdio.h\" 1 3 4\nint y;\n# 2 \"a.c\" 2\nint f(void)\n# 3 \"a.c\" 3 4\n{ return 0; }\n# 3 \"a.c\"\n";
        let lm = LineMap::build(text, &mut map, "a.c");
        let f = lm.loc(text, text.find("int f").unwrap());
        assert!(!lm.is_system_header(f.file), "a system macro expanded in the program's file");
    }
}
