//! The PGI Accelerator programming model 1.3 (seeds/004, "PGI Accelerator Programming Model for
//! Fortran & C", November 2010): its directives parsed and translated into the OpenACC 2.0
//! directives a user porting the program would write, which the 2.0 engine then runs.
//!
//! | 1.3 (section) | 2.0 |
//! |---|---|
//! | `region` (§2.3.1) | `kernels` |
//! | `data region` (§2.3.2) | `data` |
//! | `region for` / `region do` (§2.5) | `kernels loop` |
//! | `for` / `do` (§2.4) | `loop` |
//! | `copy`, `copyin`, `copyout`, `deviceptr` (§2.3.3) | the same clauses |
//! | subarray `a[lower:upper]`, bounds included (§2.3.3) | `a[lower:upper-lower+1]` ([`subarrays_to_20`]) |
//! | `local` (§2.3.3.4, §2.6.4) | `create` |
//! | `update device(…)`, `update host(…)` on a region (§2.3.4) | an `update` directive before / after the construct |
//! | `parallel[(w)]` (§2.4.1.2) | `gang[(w)]` |
//! | `vector[(w)]` (§2.4.1.4) | `vector[(w)]` |
//! | `seq[(w)]` (§2.4.1.3) | `seq` (a strip loop of a parallel or vector loop: dropped) |
//! | `host[(w)]` (§2.4.1.1) | the loop on the host, its region split around it ([`host_split_directives`]) |
//! | `independent`, `private` (§2.4.2, §2.4.5) | the same clauses |
//! | `kernel` (§2.4.3) | `loop`, its inner loops sequential (a loop directive inside is an error) |
//! | `unroll(n)`, `shortloop`, `cache(…)` (§2.4.1.5, §2.4.4, §2.4.6) | hints: no clause (a note says so) |
//! | `mirror(list)` on a Fortran data region (§2.3.3.6) | `enter data create` / `exit data delete` where the array is allocated / deallocated (the Fortran front-end writes them) |
//! | declarative `copy(…)` … (§2.6) | `declare` with the same clauses (`local` → `create`, `device resident` → `device_resident`, `reflected` → `present`) |
//! | `device present(…)` (§2.7.2) | `declare present(…)` |
//! | `function(name) reflected(…)` after a prototype (§2.6) | nothing (the function's own directive maps the arrays) |
//! | `update host(…) device(…) [async]` (§2.7.1) | `update` |
//! | `wait[(h)]` (§2.7.3) | `wait[(h)]` |
//! | `if`, `async[(h)]` (§2.3.1.1, §2.3.1.2) | `if`, `async[(h)]` |
//!
//! **async handles.** A 1.3 handle is an `int` variable that starts at zero or appeared in an
//! `async` clause; `wait(h)` waits for the latest activity that named it. Translating `async(h)` to
//! 2.0's `async(h)` (the variable's value names the queue) keeps that: activities naming the same
//! variable go to the same queue and `wait(h)` waits for it; a handle that never appeared in an
//! `async` clause names a queue with nothing on it. 1.3 runs all asynchronous activities in one
//! auxiliary thread, in order; 2.0 queues with different handles may run in any order relative to
//! each other, which only a program that depends on the order of two unsynchronised activities can
//! observe (a race in either model).
//!
//! **Beyond one directive.** Two rules need the statement a directive is on, which the front-end
//! has: a `host` loop of a compute region runs on the host, the region split there into a `data`
//! construct holding two (or more) `kernels` constructs with `update`s around the loop
//! ([`host_split_directives`], [`host_loop_updates`]); a block, loop without directive or `if`
//! of the region around host loops (a time-step loop) runs on the host too, the statements
//! beside the host loops in `kernels` constructs of their own; and no loop inside a `kernel`
//! loop may carry a loop mapping directive ([`Translation::kernel_loop`]).
//!
//! **Limits.** A `host` loop inside a loop with a loop directive or a `switch` of its region is
//! an error (what surrounds it cannot run on the accelerator while it runs on the host); width
//! arguments of `seq` and `host` (strip-mining) have no 2.0 spelling and are dropped. Macros in
//! directive text are expanded by the front-end ([`crate::frontend`]'s `directive_macros`). The
//! language only changes the
//! loop keyword and the Fortran-only forms (`mirror`, `end region`), so a Fortran front-end uses
//! the same table.

use std::ops::Range;

/// The base language of the directive text (§2.1: the C and Fortran forms differ in the loop
/// keyword, `end` directives and the Fortran-only `mirror` clause). Fortran directive text comes
/// from accsim's Fortran front-end, which writes the clause arguments in C: its subarrays are
/// already 2.0's `[start:length]` (not 1.3's `[lower:upper]`), and a compute region's arrays
/// behind pointers that no clause names come as `present_or_copy(a[0:size])` (the extent only
/// the front-end knows: 1.3 §2.3.1's implicit analysis for them).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Lang {
    C,
    Fortran,
}

impl Lang {
    /// A clause list with 2.0 subarrays ([`subarrays_to_20`] for C; the Fortran front-end's
    /// text has them already).
    fn subarrays(self, list: &str) -> String {
        match self {
            Lang::C => subarrays_to_20(list),
            Lang::Fortran => list.to_string(),
        }
    }

    fn loop_word(self) -> &'static str {
        match self {
            Lang::C => "for",
            Lang::Fortran => "do",
        }
    }
}

/// A 1.3 directive that is not valid: the message, the part of the directive text it is about,
/// and help.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pgi13Error {
    pub message: String,
    pub span: Range<usize>,
    pub help: Option<String>,
}

impl Pgi13Error {
    fn new(message: impl Into<String>, span: Range<usize>) -> Self {
        Pgi13Error { message: message.into(), span, help: None }
    }
    fn help(mut self, h: impl Into<String>) -> Self {
        self.help = Some(h.into());
        self
    }
}

/// The OpenACC 2.0 form of one 1.3 directive.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Translation {
    /// Standalone 2.0 directives run just before the construct (`update device` clauses).
    pub before: Vec<String>,
    /// The 2.0 directive itself; `None` when the 1.3 directive has no run-time effect.
    pub main: Option<String>,
    /// Standalone 2.0 directives run just after the construct (`update host` clauses).
    pub after: Vec<String>,
    /// What the translation left out or changed, for `accsim info` (hints with no 2.0 spelling).
    pub notes: Vec<String>,
    /// For a compute region (§2.3.1, §2.5): the variables its data clauses name. The front-end's
    /// implicit data analysis decides the others' clauses and appends them to `main`.
    pub implicit_data: Option<Vec<String>>,
    /// A loop directive with `host[(width)]` and no parallel schedule (§2.4.1.1): the loop runs
    /// sequentially on the host. A front-end that sees it as a statement of a compute region's
    /// block splits the region there ([`host_split_directives`]).
    pub host_loop: bool,
    /// A loop directive with the `kernel` clause (§2.4.3): its body is the kernel's body, and
    /// no loop inside it may carry a loop mapping directive (the front-end checks the nest).
    pub kernel_loop: bool,
}

impl Translation {
    /// The whole 2.0 equivalent, as a user would write it (`update …; kernels …; update …`).
    pub fn describe(&self, pragma: &str) -> String {
        let mut parts: Vec<String> = self.before.iter().map(|d| format!("{pragma} {d}")).collect();
        match &self.main {
            Some(m) => parts.push(format!("{pragma} {m}")),
            None => parts.push("nothing (no run-time effect)".into()),
        }
        parts.extend(self.after.iter().map(|d| format!("{pragma} {d} (after the construct)")));
        parts.join("; ")
    }
}

/// What [`translate`] made of a directive text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A 1.3 directive and its 2.0 equivalent.
    Pgi13(Translation),
    /// Not a 1.3 directive name, but one of OpenACC 2.0 (`kernels`, `parallel`, `loop`, `data`
    /// without `region`, `enter data` …): left to the 2.0 parser (the PGI compilers that took 1.3
    /// also took 2.0).
    OpenAcc20,
}

/// One lexical item of a directive: a word, or a parenthesised argument (its inside, and the
/// span of the whole `( … )`).
#[derive(Debug, Clone)]
enum Item<'a> {
    Word(&'a str, Range<usize>),
    Args(&'a str, Range<usize>),
}

fn lex(src: &str) -> Result<Vec<Item<'_>>, Pgi13Error> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() || c == b',' {
            i += 1;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Item::Word(&src[s..i], s..i));
        } else if c == b'(' {
            let s = i;
            let mut depth = 0usize;
            let mut quote: Option<u8> = None;
            while i < b.len() {
                let ch = b[i];
                match quote {
                    Some(_) if ch == b'\\' => i += 1,
                    Some(q) if ch == q => quote = None,
                    Some(_) => {}
                    None if ch == b'"' || ch == b'\'' => quote = Some(ch),
                    None if ch == b'(' => depth += 1,
                    None if ch == b')' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    None => {}
                }
                i += 1;
            }
            if i >= b.len() {
                return Err(Pgi13Error::new("unbalanced `(` in directive", s..b.len()));
            }
            out.push(Item::Args(src[s + 1..i].trim(), s..i + 1));
            i += 1;
        } else {
            let ch = src[i..].chars().next().unwrap_or('?');
            return Err(Pgi13Error::new(format!("unexpected `{ch}` in directive"), i..i + ch.len_utf8()));
        }
    }
    Ok(out)
}

/// The directive names of 1.3 (§2.3–§2.7), for messages.
const DIRECTIVES: &str = "region, data region, region for, for, update, device present, wait, function(name) and the declarative clauses";

/// The clauses of each 1.3 directive.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Form {
    Region,
    DataRegion,
    RegionLoop,
    Loop,
    Declarative,
}

impl Form {
    fn name(self, lang: Lang) -> String {
        match self {
            Form::Region => "region".into(),
            Form::DataRegion => "data region".into(),
            Form::RegionLoop => format!("region {}", lang.loop_word()),
            Form::Loop => lang.loop_word().into(),
            Form::Declarative => "declarative data".into(),
        }
    }
    fn section(self) -> &'static str {
        match self {
            Form::Region => "§2.3.1",
            Form::DataRegion => "§2.3.2",
            Form::RegionLoop => "§2.5",
            Form::Loop => "§2.4",
            Form::Declarative => "§2.6",
        }
    }
    fn has_region_clauses(self) -> bool {
        matches!(self, Form::Region | Form::RegionLoop)
    }
    fn has_loop_clauses(self) -> bool {
        matches!(self, Form::Loop | Form::RegionLoop)
    }
    fn clause_list(self) -> &'static str {
        match self {
            Form::Region => "if, async, copy, copyin, copyout, local, deviceptr, update device, update host",
            Form::DataRegion => "copy, copyin, copyout, local, deviceptr, mirror (Fortran), update device, update host",
            Form::RegionLoop => "the clauses of region and of the loop directive",
            Form::Loop => "host, parallel, seq, vector, unroll, independent, kernel, shortloop, private, cache",
            Form::Declarative => "copy, copyin, copyout, local, deviceptr, device resident, mirror (Fortran), reflected",
        }
    }
}

/// Does a 1.3 directive with this text own the statement (loop, block) that follows it?
pub fn owns_statement(text: &str) -> bool {
    let mut words = text.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').filter(|w| !w.is_empty());
    matches!((words.next(), words.next()), (Some("region" | "for" | "do"), _) | (Some("data"), Some("region")))
}

/// Does this text begin like a 1.3 directive (one 2.0 does not have)? Used to explain a 2.0
/// parse error; `translate` decides what the directive is.
pub fn looks_like_pgi13(text: &str) -> bool {
    let mut words = text.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').filter(|w| !w.is_empty());
    matches!(
        (words.next(), words.next()),
        (Some("region" | "for" | "do" | "local" | "reflected" | "mirror" | "function" | "copy" | "copyin" | "copyout" | "deviceptr"), _)
            | (Some("data"), Some("region"))
            | (Some("device"), Some("present" | "resident"))
    )
}

/// Translate one directive text (after `#pragma acc` / `!$acc`).
pub fn translate(src: &str, lang: Lang) -> Result<Outcome, Pgi13Error> {
    let items = lex(src)?;
    let word = |k: usize| match items.get(k) {
        Some(Item::Word(w, _)) => Some(*w),
        _ => None,
    };
    let Some(Item::Word(first, first_span)) = items.first() else {
        return Err(Pgi13Error::new("empty directive", 0..src.len()).help(format!("PGI Accelerator 1.3 directives: {DIRECTIVES}")));
    };
    let loop_word = lang.loop_word();
    let (form, rest) = match (*first, word(1)) {
        ("region", Some(w)) if w == loop_word => (Form::RegionLoop, 2),
        ("region", _) => (Form::Region, 1),
        ("data", Some("region")) => (Form::DataRegion, 2),
        (w, _) if w == loop_word => (Form::Loop, 1),
        ("end", _) if lang == Lang::Fortran => return end_directive(&items),
        ("update", _) => return update_directive(&items[1..], src, lang).map(Outcome::Pgi13),
        ("wait", _) => return wait_directive(&items[1..], src).map(Outcome::Pgi13),
        ("device", Some("present")) => {
            let list = single_list(&items[2..], "device present", src)?;
            return Ok(Outcome::Pgi13(Translation { main: Some(format!("declare present({list})")), ..Default::default() }));
        }
        ("function", _) => return function_directive(&items[1..], src, lang),
        ("copy" | "copyin" | "copyout" | "local" | "deviceptr" | "mirror" | "reflected", _) | ("device", Some("resident")) => {
            (Form::Declarative, 0)
        }
        ("kernels" | "parallel" | "loop" | "data" | "host_data" | "enter" | "exit" | "cache" | "declare" | "routine" | "atomic", _) => {
            return Ok(Outcome::OpenAcc20)
        }
        (other, _) => {
            return Err(Pgi13Error::new(format!("`{other}` is not a PGI Accelerator 1.3 directive"), first_span.clone())
                .help(format!("PGI Accelerator 1.3 directives: {DIRECTIVES}")))
        }
    };
    clauses(form, &items[rest..], src, lang).map(Outcome::Pgi13)
}

/// A clause's argument list, required.
fn required_args<'a>(items: &[Item<'a>], k: usize, name: &str, at: Range<usize>) -> Result<&'a str, Pgi13Error> {
    match items.get(k) {
        Some(Item::Args("", span)) => Err(Pgi13Error::new(format!("`{name}` needs a list in its parentheses"), span.clone())),
        Some(Item::Args(a, _)) => Ok(a),
        _ => Err(Pgi13Error::new(format!("`{name}` needs an argument in parentheses"), at)),
    }
}

fn optional_args<'a>(items: &[Item<'a>], k: usize) -> Option<&'a str> {
    match items.get(k) {
        Some(Item::Args(a, _)) => Some(a),
        _ => None,
    }
}

/// The loop scheduling clauses (§2.4.1), in order, with their widths.
#[derive(Default)]
struct Schedule<'a> {
    parallel: Option<Option<&'a str>>,
    vector: Option<Option<&'a str>>,
    seq: Option<Option<&'a str>>,
    host: Option<Option<&'a str>>,
    /// (clause, has width, span) for the §2.4.1 width restriction.
    given: Vec<(&'static str, bool, Range<usize>)>,
}

fn clauses(form: Form, items: &[Item<'_>], src: &str, lang: Lang) -> Result<Translation, Pgi13Error> {
    let mut t = Translation::default();
    let mut data: Vec<String> = Vec::new();
    let mut named: Vec<String> = Vec::new();
    let mut region: Vec<String> = Vec::new();
    let mut loop_clauses: Vec<String> = Vec::new();
    let mut sched = Schedule::default();
    let mut updates: Vec<(bool, String)> = Vec::new();
    let mut cond: Option<&str> = None;
    let mut async_arg: Option<Option<&str>> = None;
    let mut if_span: Option<Range<usize>> = None;
    let mut k = 0;
    let not_here = |name: &str, span: Range<usize>| {
        Pgi13Error::new(format!("`{name}` is not a clause of the 1.3 `{}` directive ({})", form.name(lang), form.section()), span)
            .help(format!("its clauses are: {}", form.clause_list()))
    };
    while k < items.len() {
        let (name, span) = match &items[k] {
            Item::Word(w, s) => (*w, s.clone()),
            Item::Args(_, s) => return Err(Pgi13Error::new("a clause name must come before `(`", s.clone())),
        };
        k += 1;
        let data_clause = |n: &str| match n {
            "copy" => Some("copy"),
            "copyin" => Some("copyin"),
            "copyout" => Some("copyout"),
            "local" => Some("create"),
            "deviceptr" => Some("deviceptr"),
            _ => None,
        };
        match name {
            n if data_clause(n).is_some() && form != Form::Loop => {
                let list = required_args(items, k, n, span.clone())?;
                k += 1;
                if form == Form::Declarative && list.contains('[') {
                    return Err(Pgi13Error::new("subarrays are not allowed in declarative data clauses (§2.6)", span.start..span.end + list.len() + 2));
                }
                data.push(format!("{}({})", data_clause(n).unwrap_or(n), lang.subarrays(list)));
                named.extend(list_names(list));
            }
            "present_or_copy" if lang == Lang::Fortran && form.has_region_clauses() => {
                let list = required_args(items, k, name, span.clone())?;
                k += 1;
                data.push(format!("present_or_copy({list})"));
                named.extend(list_names(list));
            }
            "mirror" if matches!(form, Form::DataRegion | Form::Declarative) => {
                if lang == Lang::C {
                    return Err(Pgi13Error::new("`mirror` is valid only in Fortran (§2.3.3, §2.6)", span)
                        .help("in C, name the array in a `copy`, `copyin`, `copyout` or `local` clause"));
                }
                // §2.3.3.6: the device copy follows the host array's allocation state. The
                // Fortran front-end, which sees the `allocate` and `deallocate` statements,
                // writes the 2.0 directives that do it; the data construct maps nothing.
                let list = required_args(items, k, name, span.clone())?;
                k += 1;
                if form == Form::Declarative {
                    t.notes.push(format!("`mirror({list})`: 2.0 has no allocation-state mirroring; the device copy is created for the implicit region (§2.6.7)"));
                    data.push(format!("create({list})"));
                } else {
                    t.notes.push(format!(
                        "`mirror({list})`: the device copy follows the array's allocation state (§2.3.3.6): `enter data create` at region entry if it is allocated and after each `allocate` in the region, `exit data delete` before each `deallocate` and at region exit if it is still allocated"
                    ));
                }
            }
            "reflected" if form == Form::Declarative => {
                let list = required_args(items, k, name, span.clone())?;
                k += 1;
                data.push(format!("present({list})"));
            }
            "device" if form == Form::Declarative && matches!(items.get(k), Some(Item::Word("resident", _))) => {
                k += 1;
                let list = required_args(items, k, "device resident", span.clone())?;
                k += 1;
                data.push(format!("device_resident({list})"));
            }
            "update" if matches!(form, Form::Region | Form::RegionLoop | Form::DataRegion) => {
                let to_device = match items.get(k) {
                    Some(Item::Word("device", _)) => true,
                    Some(Item::Word("host", _)) => false,
                    _ => {
                        return Err(Pgi13Error::new("`update` on a region is `update device(list)` or `update host(list)` (§2.3.4)", span));
                    }
                };
                k += 1;
                let list = required_args(items, k, if to_device { "update device" } else { "update host" }, span.clone())?;
                k += 1;
                updates.push((to_device, lang.subarrays(list)));
            }
            "if" if form.has_region_clauses() => {
                if let Some(first) = &if_span {
                    return Err(Pgi13Error::new(format!("at most one `if` clause may appear ({}, restrictions); the first is at column {}", form.section(), first.start + 1), span));
                }
                cond = Some(required_args(items, k, "if", span.clone())?);
                k += 1;
                if_span = Some(span);
            }
            "async" if form.has_region_clauses() => {
                let handle = optional_args(items, k);
                if handle.is_some() {
                    k += 1;
                }
                async_arg = Some(handle);
            }
            "parallel" | "vector" | "seq" | "host" if form.has_loop_clauses() => {
                let width = optional_args(items, k);
                if width.is_some() {
                    k += 1;
                }
                let slot = match name {
                    "parallel" => &mut sched.parallel,
                    "vector" => &mut sched.vector,
                    "seq" => &mut sched.seq,
                    _ => &mut sched.host,
                };
                if slot.is_some() {
                    return Err(Pgi13Error::new(format!("`{name}` appears twice on one loop"), span));
                }
                *slot = Some(width);
                let static_name = match name {
                    "parallel" => "parallel",
                    "vector" => "vector",
                    "seq" => "seq",
                    _ => "host",
                };
                sched.given.push((static_name, width.is_some(), span));
            }
            "unroll" if form.has_loop_clauses() => {
                let factor = match items.get(k) {
                    Some(Item::Args(a, _)) => *a,
                    _ => return Err(Pgi13Error::new("an `unroll` clause must specify an unroll factor (§2.4.1.5)", span)),
                };
                k += 1;
                match parse_positive_constant(factor) {
                    Some(n) => t.notes.push(format!("`unroll({n})`: a code-generation hint with no 2.0 clause; iterations run as they would unrolled")),
                    None => {
                        return Err(Pgi13Error::new(format!("the unroll factor `{factor}` must be a compile-time positive constant integer (§2.4.1.5)"), span))
                    }
                }
            }
            "independent" if form.has_loop_clauses() => loop_clauses.push("independent".into()),
            "kernel" if form.has_loop_clauses() => {
                t.kernel_loop = true;
                t.notes.push("`kernel`: the loop body is the kernel body and the loops inside it run sequentially (§2.4.3); 2.0 writes `loop seq` on those loops".into());
            }
            "shortloop" if form.has_loop_clauses() => {
                t.notes.push("`shortloop`: a hint that the trip count is small (§2.4.4); no 2.0 clause".into());
            }
            "cache" if form.has_loop_clauses() => {
                let list = required_args(items, k, name, span.clone())?;
                k += 1;
                t.notes.push(format!("`cache({list})`: a hint (§2.4.6); 2.0 writes `#pragma acc cache({list})` at the top of the loop body"));
            }
            "private" if form.has_loop_clauses() => {
                let list = required_args(items, k, name, span.clone())?;
                k += 1;
                loop_clauses.push(format!("private({})", lang.subarrays(list)));
            }
            _ => return Err(not_here(name, span)),
        }
    }
    if let Some(c) = cond {
        region.push(format!("if({c})"));
    }
    match async_arg {
        Some(Some(h)) => region.push(format!("async({h})")),
        Some(None) => region.push("async".into()),
        None => {}
    }
    if form.has_loop_clauses() {
        schedule_clauses(&sched, &mut loop_clauses, &mut t.notes)?;
        t.host_loop = form == Form::Loop && sched.host.is_some() && sched.parallel.is_none() && sched.vector.is_none();
    }
    let keyword = match form {
        Form::Region => "kernels",
        Form::DataRegion => "data",
        Form::RegionLoop => "kernels loop",
        Form::Loop => "loop",
        Form::Declarative => "declare",
    };
    let mut main = vec![keyword.to_string()];
    main.extend(data);
    main.extend(region.iter().cloned());
    main.extend(loop_clauses);
    if form == Form::Declarative && main.len() == 1 {
        return Err(Pgi13Error::new("a declarative data directive needs at least one clause (§2.6)", 0..src.len()));
    }
    t.main = Some(main.join(" "));
    if form.has_region_clauses() {
        t.implicit_data = Some(named);
    }
    if let Some(join) = issue_order_join(&async_arg) {
        t.before.push(join);
        t.notes.push(ISSUE_ORDER_NOTE.into());
    }
    // §2.3.4: `update device` before the region begins, `update host` after it completes; they
    // follow the region's `if` and `async` (the same activity on the same handle).
    for (to_device, list) in updates {
        let mut u = vec![format!("update {}({list})", if to_device { "device" } else { "host" })];
        u.extend(region.iter().cloned());
        if to_device {
            t.before.push(u.join(" "));
        } else {
            t.after.push(u.join(" "));
        }
    }
    Ok(t)
}

/// The OpenACC 2.0 directives of a 1.3 compute region split at its `host` loops (§2.4.1.1: a
/// `host` loop runs sequentially on the host processor, so the device parts around it are
/// separate kernels and the data they share moves at the split), from the region's 2.0 text
/// (`kernels copy(a) if(c) async(h)`, implicit data clauses included):
/// - `data` with the region's data clauses (and its `if`): the data lives for the whole region,
///   as 1.3 §2.3.1 says it does;
/// - `kernels` with the region's `if` and `async`, for each device part;
/// - around each host loop, [`HostLoopUpdates`]: `update host` of the device copies the loop
///   uses before it, `update device` of those it writes after it (after a `wait` for an
///   `async` region's kernels: the host reads what they computed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostSplit {
    pub data: String,
    pub kernels: String,
    /// The region's `if(…)` clause, which the updates take too.
    pub cond: Option<String>,
    /// The region's `async[(h)]` clause.
    pub async_clause: Option<String>,
}

pub fn host_split_directives(region_20: &str) -> HostSplit {
    const DATA: &[&str] = &["copy", "copyin", "copyout", "create", "present", "deviceptr", "present_or_copy", "present_or_copyin", "present_or_copyout", "present_or_create", "pcopy", "pcopyin", "pcopyout", "pcreate"];
    let items = lex(region_20).unwrap_or_default();
    let mut data = vec!["data".to_string()];
    let mut cond = None;
    let mut async_clause = None;
    let mut k = 0;
    while k < items.len() {
        let Item::Word(w, _) = &items[k] else {
            k += 1;
            continue;
        };
        let args = match items.get(k + 1) {
            Some(Item::Args(a, _)) => {
                k += 1;
                Some(*a)
            }
            _ => None,
        };
        k += 1;
        match (*w, args) {
            (w, Some(a)) if DATA.contains(&w) => data.push(format!("{w}({a})")),
            ("if", Some(c)) => cond = Some(format!("if({c})")),
            ("async", Some(h)) => async_clause = Some(format!("async({h})")),
            ("async", None) => async_clause = Some("async".into()),
            _ => {}
        }
    }
    if let Some(c) = &cond {
        data.push(c.clone());
    }
    let kernels: Vec<&str> = std::iter::once("kernels").chain(cond.as_deref()).chain(async_clause.as_deref()).collect();
    HostSplit { data: data.join(" "), kernels: kernels.join(" "), cond, async_clause }
}

/// The standalone directives around one host loop of a split region ([`HostSplit`]): before it,
/// the wait for an `async` region's kernels and `update host` of `to_host`; after it, `update
/// device` of `to_device` (lists of 2.0 clause items, `a` or `p[0:n]`).
pub fn host_loop_updates(split: &HostSplit, to_host: &[String], to_device: &[String]) -> (Vec<String>, Vec<String>) {
    let cond = split.cond.as_deref().map(|c| format!(" {c}")).unwrap_or_default();
    let mut before = Vec::new();
    if let Some(a) = &split.async_clause {
        before.push(a.replacen("async", "wait", 1));
    }
    if !to_host.is_empty() {
        before.push(format!("update host({}){cond}", to_host.join(", ")));
    }
    let after = if to_device.is_empty() { Vec::new() } else { vec![format!("update device({}){cond}", to_device.join(", "))] };
    (before, after)
}

/// The items of an OpenACC 2.0 directive's data clauses with their variable names
/// (`data copyin(a[0:n], b)` → (`a`, `a[0:n]`), (`b`, `b`)).
pub fn data_clause_items(text_20: &str) -> Vec<(String, String)> {
    let Ok(items) = lex(text_20) else { return Vec::new() };
    let mut out = Vec::new();
    for pair in items.windows(2) {
        if let [Item::Word(w, _), Item::Args(list, _)] = pair {
            if DATA_CLAUSES_20.contains(w) {
                for item in split_list(list) {
                    if let Some(name) = list_names(item).into_iter().next() {
                        out.push((name, item.to_string()));
                    }
                }
            }
        }
    }
    out
}

/// A clause list's items (split at the commas outside brackets).
fn split_list(list: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in list.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(list[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(list[start..].trim());
    out.retain(|s| !s.is_empty());
    out
}

const DATA_CLAUSES_20: &[&str] = &[
    "copy", "copyin", "copyout", "create", "present", "deviceptr", "device_resident", "link", "pcopy", "pcopyin", "pcopyout",
    "pcreate", "present_or_copy", "present_or_copyin", "present_or_copyout", "present_or_create",
];

/// A 1.3 list with its subarrays in 2.0's form. 1.3 writes a range as `[lower:upper]`, both
/// bounds included, a missing lower bound being 0 and a missing upper bound the declared one
/// (§2.3.3: "arr[2:high][low:100]"; "if either the lower or upper bounds are missing, the declared
/// or allocated bounds of the array, if known, are used"); 2.0 writes `[start:length]` (2.0
/// §2.6: `[lower:]` runs to the end of a declared dimension).
pub fn subarrays_to_20(list: &str) -> String {
    let mut out = String::with_capacity(list.len());
    let mut rest = list;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        let inner_start = open + 1;
        let mut depth = 1;
        let mut close = None;
        let mut colon = None;
        for (i, c) in rest[inner_start..].char_indices() {
            match c {
                '[' | '(' => depth += 1,
                ']' | ')' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(inner_start + i);
                        break;
                    }
                }
                ':' if depth == 1 && colon.is_none() => colon = Some(inner_start + i),
                _ => {}
            }
        }
        let Some(close) = close else {
            out.push_str(&rest[open..]);
            return out;
        };
        match colon {
            Some(colon) => {
                let lower = rest[inner_start..colon].trim();
                let upper = rest[colon + 1..close].trim();
                let start = if lower.is_empty() { "0" } else { lower };
                if upper.is_empty() {
                    out.push_str(&format!("[{start}:]"));
                } else {
                    out.push_str(&format!("[{start}:{}]", range_length(start, upper)));
                }
            }
            None => out.push_str(&rest[open..=close]),
        }
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

/// `upper - lower + 1`, written simply where it can be (`[0:n-1]` → `n`, `[0:99]` → `100`).
fn range_length(lower: &str, upper: &str) -> String {
    let simple = |e: &str| e.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if let (Ok(l), Ok(u)) = (lower.parse::<i64>(), upper.parse::<i64>()) {
        return (u - l + 1).to_string();
    }
    if lower == "0" {
        if let Some(n) = upper.strip_suffix("-1").or_else(|| upper.strip_suffix("- 1")) {
            return n.trim().to_string();
        }
        return if simple(upper) { format!("{upper}+1") } else { format!("({upper})+1") };
    }
    let wrap = |e: &str| if simple(e) { e.to_string() } else { format!("({e})") };
    format!("{}-{}+1", wrap(upper), wrap(lower))
}

/// The variables an OpenACC 2.0 directive's data clauses name (`data copyin(a[0:n]) create(t)`
/// → `a`, `t`): what a 1.3 region inside it finds with a visible device copy.
pub fn data_clause_names(text_20: &str) -> Vec<String> {
    let Ok(items) = lex(text_20) else { return Vec::new() };
    let mut names = Vec::new();
    for pair in items.windows(2) {
        if let [Item::Word(w, _), Item::Args(list, _)] = pair {
            if DATA_CLAUSES_20.contains(w) {
                names.extend(list_names(list));
            }
        }
    }
    names
}

/// The variable names of a clause's list (`a[0:n], s.x, b` → `a`, `s`, `b`).
fn list_names(list: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut depth = 0i32;
    let mut item_start = true;
    let mut chars = list.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' if depth == 0 => item_start = true,
            c if item_start && (c.is_ascii_alphabetic() || c == '_') && depth == 0 => {
                let mut end = i + c.len_utf8();
                while let Some(&(j, d)) = chars.peek() {
                    if d.is_ascii_alphanumeric() || d == '_' {
                        end = j + d.len_utf8();
                        chars.next();
                    } else {
                        break;
                    }
                }
                names.push(list[i..end].to_string());
                item_start = false;
            }
            _ => {}
        }
    }
    names
}

/// §2.4.1: the scheduling clauses as 2.0 loop clauses.
fn schedule_clauses(s: &Schedule<'_>, out: &mut Vec<String>, notes: &mut Vec<String>) -> Result<(), Pgi13Error> {
    // "If two or more loop scheduling clauses (excepting the unroll clause) appear on a single
    // loop mapping directive, all but one must have a width argument."
    let without: Vec<&(&str, bool, Range<usize>)> = s.given.iter().filter(|(_, w, _)| !w).collect();
    if s.given.len() >= 2 && without.len() >= 2 {
        let (name, _, span) = without[1];
        return Err(Pgi13Error::new(
            format!("`{name}` and `{}` both lack a width: when a loop has two or more scheduling clauses, all but one must have a width argument (§2.4.1)", without[0].0),
            span.clone(),
        ));
    }
    let parallel_level = s.parallel.is_some() || s.vector.is_some();
    if let Some(w) = s.parallel {
        out.push(match w {
            Some(w) => format!("gang({w})"),
            None => "gang".into(),
        });
    }
    if let Some(w) = s.vector {
        out.push(match w {
            Some(w) => format!("vector({w})"),
            None => "vector".into(),
        });
    }
    for (name, w) in [("seq", s.seq), ("host", s.host)] {
        let Some(w) = w else { continue };
        if parallel_level {
            notes.push(format!("`{name}{}`: a strip loop around the parallel one (§2.4.1); it changes no result, and 2.0 has no spelling for it", w.map(|w| format!("({w})")).unwrap_or_default()));
        } else {
            if !out.iter().any(|c| c == "seq") {
                out.push("seq".into());
            }
            if name == "host" {
                notes.push("`host`: 1.3 runs this loop sequentially on the host processor (§2.4.1.1): as a statement of a region's block, the region is split there (the loop runs on the host between two compute constructs); nested deeper, accsim runs it sequentially in the kernel, with the same results".into());
            } else if let Some(w) = w {
                notes.push(format!("`seq({w})`: the strip-mining width changes no result and has no 2.0 spelling"));
            }
        }
    }
    Ok(())
}

fn parse_positive_constant(s: &str) -> Option<u64> {
    let t = s.trim().trim_end_matches(['u', 'U', 'l', 'L']);
    let v = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) { u64::from_str_radix(h, 16).ok()? } else { t.parse().ok()? };
    (v > 0).then_some(v)
}

/// `update host(list) device(list) [async[(handle)]]` (§2.7.1).
fn update_directive(items: &[Item<'_>], src: &str, lang: Lang) -> Result<Translation, Pgi13Error> {
    let mut clauses = vec!["update".to_string()];
    let mut k = 0;
    let mut any = false;
    let mut async_arg: Option<Option<&str>> = None;
    while k < items.len() {
        let (name, span) = match &items[k] {
            Item::Word(w, s) => (*w, s.clone()),
            Item::Args(_, s) => return Err(Pgi13Error::new("a clause name must come before `(`", s.clone())),
        };
        k += 1;
        match name {
            "host" | "device" => {
                let list = required_args(items, k, name, span)?;
                k += 1;
                clauses.push(format!("{name}({})", lang.subarrays(list)));
                any = true;
            }
            "async" => match optional_args(items, k) {
                Some(h) => {
                    k += 1;
                    clauses.push(format!("async({h})"));
                    async_arg = Some(Some(h));
                }
                None => {
                    clauses.push("async".into());
                    async_arg = Some(None);
                }
            },
            "if" => {
                let c = required_args(items, k, name, span)?;
                k += 1;
                clauses.push(format!("if({c})"));
            }
            other => {
                return Err(Pgi13Error::new(format!("`{other}` is not a clause of the 1.3 `update` directive (§2.7.1)"), span)
                    .help("its clauses are: host(list), device(list), async[(handle)]"))
            }
        }
    }
    if !any {
        return Err(Pgi13Error::new("`update` needs a `host(list)` or `device(list)` clause (§2.7.1)", 0..src.len()));
    }
    let mut t = Translation { main: Some(clauses.join(" ")), ..Default::default() };
    if let Some(join) = issue_order_join(&async_arg) {
        t.before.push(join);
        t.notes.push(ISSUE_ORDER_NOTE.into());
    }
    Ok(t)
}

/// 1.3 §2.3.1.2, §2.7.1.1: "Two asynchronous activities will be processed by the auxiliary
/// thread in the order in which the host process encounters them", whatever their handles; 2.0
/// orders only one queue's work. The 2.0 equivalent: before each asynchronous activity, its
/// queue waits for every other queue's earlier work (`wait async(h)`, §2.13.3), the host going
/// on, so that all activities run in issue order as 1.3's one auxiliary thread runs them.
fn issue_order_join(async_arg: &Option<Option<&str>>) -> Option<String> {
    match async_arg {
        Some(Some(h)) => Some(format!("wait async({h})")),
        Some(None) => Some("wait async".into()),
        None => None,
    }
}

const ISSUE_ORDER_NOTE: &str = "`wait async(…)` first: 1.3 runs all asynchronous activities in the order the host encounters them, whatever their handles (§2.3.1.2); 2.0 orders one queue's only";

/// `wait[(handle)]` (§2.7.3).
fn wait_directive(items: &[Item<'_>], _src: &str) -> Result<Translation, Pgi13Error> {
    match items {
        [] => Ok(Translation { main: Some("wait".into()), ..Default::default() }),
        [Item::Args(h, _)] if !h.is_empty() => Ok(Translation { main: Some(format!("wait({h})")), ..Default::default() }),
        [Item::Args(_, s), ..] | [Item::Word(_, s), ..] => {
            Err(Pgi13Error::new("the 1.3 `wait` directive takes one handle: `wait(handle)` or `wait` (§2.7.3)", s.clone()))
        }
    }
}

/// The one `( list )` of `device present(list)`.
fn single_list<'a>(items: &[Item<'a>], what: &str, src: &str) -> Result<&'a str, Pgi13Error> {
    match items {
        [Item::Args(l, _)] if !l.is_empty() => Ok(l),
        _ => Err(Pgi13Error::new(format!("`{what}` takes one list: `{what}(list)` (§2.7.2)"), 0..src.len())),
    }
}

/// `function(name) declclause…` after a prototype (§2.6): it exposes `reflected` to callers; the
/// function's own declarative directive maps the arrays, so it has no run-time effect here.
fn function_directive(items: &[Item<'_>], src: &str, lang: Lang) -> Result<Outcome, Pgi13Error> {
    let Some(Item::Args(name, span)) = items.first() else {
        return Err(Pgi13Error::new("`function` needs the function's name: `function(name) reflected(list)` (§2.6)", 0..src.len()));
    };
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(Pgi13Error::new(format!("`{name}` is not a function name"), span.clone()));
    }
    let decl = clauses(Form::Declarative, &items[1..], src, lang)?;
    let mut t = Translation { main: None, ..Default::default() };
    t.notes.push(format!(
        "`function({name})` after a prototype tells callers of `{name}` what it expects (§2.6); it has no run-time effect (2.0: `{}` inside `{name}`)",
        decl.main.unwrap_or_default()
    ));
    Ok(Outcome::Pgi13(t))
}

/// Fortran's `end region`, `end data region` (§2.3.1, §2.3.2).
fn end_directive(items: &[Item<'_>]) -> Result<Outcome, Pgi13Error> {
    let words: Vec<&str> = items.iter().filter_map(|i| if let Item::Word(w, _) = i { Some(*w) } else { None }).collect();
    let main = match words.as_slice() {
        ["end", "region"] => "end kernels",
        ["end", "data", "region"] => "end data",
        ["end", "region", "do"] => "end kernels loop",
        _ => return Ok(Outcome::OpenAcc20),
    };
    Ok(Outcome::Pgi13(Translation { main: Some(main.into()), ..Default::default() }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tr(s: &str) -> Translation {
        match translate(s, Lang::C) {
            Ok(Outcome::Pgi13(t)) => t,
            other => panic!("{s}: {other:?}"),
        }
    }

    fn err(s: &str) -> String {
        match translate(s, Lang::C) {
            Err(e) => e.message,
            other => panic!("{s}: expected an error, got {other:?}"),
        }
    }

    #[test]
    fn regions_become_kernels_and_data() {
        let t = tr("region copyin(a[0:n-1]) local(tmp), copyout(b) if(n > 100) async(h)");
        assert_eq!(t.main.as_deref(), Some("kernels copyin(a[0:n]) create(tmp) copyout(b) if(n > 100) async(h)"));
        let t = tr("data region copy(x) update device(y) update host(z)");
        assert_eq!(t.main.as_deref(), Some("data copy(x)"));
        assert_eq!(t.before, vec!["update device(y)".to_string()]);
        assert_eq!(t.after, vec!["update host(z)".to_string()]);
        assert_eq!(t.implicit_data, None);
        assert_eq!(tr("region copy(a[0:n], s.x) copyin(b)").implicit_data, Some(vec!["a".to_string(), "s".to_string(), "b".to_string()]));
        let t = tr("region for parallel, vector(256) copy(a)");
        assert_eq!(t.main.as_deref(), Some("kernels loop copy(a) gang vector(256)"));
    }

    #[test]
    fn subarrays_name_their_upper_bound() {
        assert_eq!(subarrays_to_20("a[0:n-1], b"), "a[0:n], b");
        assert_eq!(subarrays_to_20("arr[2:high][low:100]"), "arr[2:high-2+1][low:100-low+1]");
        assert_eq!(subarrays_to_20("a[:99]"), "a[0:100]");
        assert_eq!(subarrays_to_20("a[1:]"), "a[1:]");
        assert_eq!(subarrays_to_20("a[i+1:2*n]"), "a[i+1:(2*n)-(i+1)+1]");
        assert_eq!(subarrays_to_20("a[i], m[k[0]:k[1]]"), "a[i], m[k[0]:(k[1])-(k[0])+1]");
        assert_eq!(tr("update host(a[1:n-2])").main.as_deref(), Some("update host(a[1:(n-2)-1+1])"));
    }

    #[test]
    fn host_loops_split_their_region() {
        let t = tr("for host");
        assert!(t.host_loop && !t.kernel_loop);
        assert_eq!(t.main.as_deref(), Some("loop seq"));
        assert!(!tr("for host(16), parallel").host_loop);
        assert!(tr("for kernel").kernel_loop);
        let split = host_split_directives("kernels copy(a[0:n]) copyin(b) if(n > 4) async(h) copy(c)");
        assert_eq!(split.data, "data copy(a[0:n]) copyin(b) copy(c) if(n > 4)");
        assert_eq!(split.kernels, "kernels if(n > 4) async(h)");
        let (before, after) = host_loop_updates(&split, &["a[0:n]".to_string()], &["c".to_string()]);
        assert_eq!(before, vec!["wait(h)".to_string(), "update host(a[0:n]) if(n > 4)".to_string()]);
        assert_eq!(after, vec!["update device(c) if(n > 4)".to_string()]);
        let split = host_split_directives("kernels");
        assert_eq!((split.data.as_str(), split.kernels.as_str()), ("data", "kernels"));
        assert_eq!(host_loop_updates(&split, &[], &[]), (Vec::new(), Vec::new()));
        assert_eq!(
            data_clause_items("kernels copy(a[0:n], s.x) if(c) copyin(b)"),
            vec![("a".to_string(), "a[0:n]".to_string()), ("s".to_string(), "s.x".to_string()), ("b".to_string(), "b".to_string())]
        );
    }

    #[test]
    fn data_clause_names_of_a_directive() {
        assert_eq!(data_clause_names("data copyin(a[0:n], b) create(t) if(x)"), vec!["a", "b", "t"]);
        assert_eq!(data_clause_names("declare present(a)"), vec!["a"]);
    }

    #[test]
    fn loop_schedules() {
        assert_eq!(tr("for parallel(16) vector").main.as_deref(), Some("loop gang(16) vector"));
        assert_eq!(tr("for seq").main.as_deref(), Some("loop seq"));
        let t = tr("for host(16), parallel");
        assert_eq!(t.main.as_deref(), Some("loop gang"));
        assert_eq!(t.notes.len(), 1);
        let t = tr("for independent unroll(4) shortloop kernel private(t) cache(a)");
        assert_eq!(t.main.as_deref(), Some("loop independent private(t)"));
        assert_eq!(t.notes.len(), 4);
        assert!(err("for parallel vector").contains("all but one must have a width"));
        assert!(err("for unroll").contains("unroll factor"));
        assert!(err("for unroll(n)").contains("compile-time positive constant"));
        assert!(err("for copyin(a)").contains("not a clause of the 1.3 `for` directive"));
    }

    #[test]
    fn executable_and_declarative() {
        assert_eq!(tr("update host(a[0:n-1]) async(h)").main.as_deref(), Some("update host(a[0:n]) async(h)"));
        assert_eq!(tr("wait(h)").main.as_deref(), Some("wait(h)"));
        assert_eq!(tr("wait").main.as_deref(), Some("wait"));
        assert_eq!(tr("device present(a, b)").main.as_deref(), Some("declare present(a, b)"));
        assert_eq!(tr("copyin(a), local(b)").main.as_deref(), Some("declare copyin(a) create(b)"));
        assert_eq!(tr("reflected(a)").main.as_deref(), Some("declare present(a)"));
        assert_eq!(tr("device resident(r)").main.as_deref(), Some("declare device_resident(r)"));
        let t = tr("function(smooth) reflected(a, b)");
        assert_eq!(t.main, None);
        assert!(err("copyin(a[0:4])").contains("subarrays are not allowed"));
        assert!(err("data region mirror(a)").contains("only in Fortran"));
        assert!(err("region vector").contains("not a clause of the 1.3 `region`"));
        assert!(err("region if(a) if(b)").contains("at most one `if`"));
        assert!(err("frobnicate").contains("not a PGI Accelerator 1.3 directive"));
        assert!(err("region copy(a").contains("unbalanced"));
    }

    #[test]
    fn two_point_zero_passes_through_and_fortran_forms() {
        assert_eq!(translate("kernels loop", Lang::C), Ok(Outcome::OpenAcc20));
        assert_eq!(translate("data copy(a)", Lang::C), Ok(Outcome::OpenAcc20));
        let Ok(Outcome::Pgi13(t)) = translate("region do parallel", Lang::Fortran) else { panic!() };
        assert_eq!(t.main.as_deref(), Some("kernels loop gang"));
        let Ok(Outcome::Pgi13(t)) = translate("region copy(a[0:n]) present_or_copy(b[0:m]) update host(c[2:4])", Lang::Fortran) else { panic!() };
        assert_eq!(t.main.as_deref(), Some("kernels copy(a[0:n]) present_or_copy(b[0:m])"), "Fortran text has 2.0 subarrays already");
        assert_eq!(t.after, vec!["update host(c[2:4])".to_string()]);
        let Ok(Outcome::Pgi13(t)) = translate("data region mirror(w) copyin(x[0:k])", Lang::Fortran) else { panic!() };
        assert_eq!(t.main.as_deref(), Some("data copyin(x[0:k])"), "the Fortran front-end writes mirror's enter/exit data");
        assert!(t.notes.iter().any(|n| n.contains("follows the array's allocation state")));
        let Ok(Outcome::Pgi13(t)) = translate("update device(x[1:3])", Lang::Fortran) else { panic!() };
        assert_eq!(t.main.as_deref(), Some("update device(x[1:3])"));
        assert!(translate("region present_or_copy(b)", Lang::C).is_err());
        let Ok(Outcome::Pgi13(t)) = translate("end data region", Lang::Fortran) else { panic!() };
        assert_eq!(t.main.as_deref(), Some("end data"));
        assert!(owns_statement("region for parallel") && owns_statement("data region copy(a)") && !owns_statement("update host(a)"));
        assert!(looks_like_pgi13("region") && looks_like_pgi13("device present(a)") && !looks_like_pgi13("kernels"));
    }
}
