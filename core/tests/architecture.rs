//! Issue 13, "the execution model explicit in the IR": rules about the source tree that keep it
//! so, checked by reading the sources.
//! - `core/src/ir` imports nothing from `kernel` or `exec`: analysis results live in the side
//!   table `ir::valid::ProgramInfo`, not in the IR.
//! - No code finds a variable by its name text where an id exists: partitioned loops are
//!   `StmtKind::Partition` nodes (not loops over locals named `__worker`/`__lane`), the kernel's
//!   launch parameters are `KernelParams` (not `LocalId(2)`/`LocalId(3)`), and clause variables
//!   are found by their `VarRoot` (not by splitting the clause text), and the locals the
//!   outliner and the scheduler make are told apart by `ir::LocalRole` (not by a `__` or `&`
//!   prefix of their names), temporaries by `LocalRole::Temporary` (not by a `<` prefix), and
//!   the C library's inline functions by `ir::FunctionOrigin` (not by a `__` prefix): the names
//!   are for display only. [`no_code_tests_the_text_of_a_name`] checks every crate after the
//!   front-ends, with an allow-list whose every entry says why.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every `.rs` file under `dir`, recursively.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The code of a line: what comes before a `//` comment.
fn code(line: &str) -> &str {
    line.split("//").next().unwrap_or("")
}

#[test]
fn ir_imports_nothing_from_kernel_or_exec() {
    let files = sources(&root().join("core/src/ir"));
    assert!(files.len() >= 6, "core/src/ir has its modules");
    let mut bad = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).expect("readable source");
        for (i, line) in text.lines().enumerate() {
            let c = code(line);
            if ["crate::kernel", "crate::exec", "crate::lower", "crate::frontend"].iter().any(|m| c.contains(m)) {
                bad.push(format!("{}:{}: {}", f.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(bad.is_empty(), "the IR depends on a pass:\n{}", bad.join("\n"));
}

#[test]
fn no_variable_is_found_by_its_name_text() {
    let mut bad = Vec::new();
    for dir in ["core/src", "cuda-backend/src"] {
        for f in sources(&root().join(dir)) {
            let text = std::fs::read_to_string(&f).expect("readable source");
            let rel = f.strip_prefix(root()).unwrap_or(&f).display().to_string();
            for (i, line) in text.lines().enumerate() {
                let c = code(line);
                // The scheduler names the thread-index locals it makes (for listings and the
                // GUI); nothing may recognise them by that name.
                let names_thread_local = (c.contains("\"__worker\"") || c.contains("\"__lane\"")) && !c.contains("long_temp(");
                // The kernel's launch parameters are `KernelParams`, defined once in ir/acc.rs.
                let magic_param = (c.contains("LocalId(2)") || c.contains("LocalId(3)")) && !rel.ends_with("ir/acc.rs");
                // A clause variable's text is for messages; its variable is its `root`. (The
                // front-ends split source text: that is parsing.)
                let front_end = ["core/src/frontend/", "core/src/directive/", "core/src/dialect/", "core/src/lower/"].iter().any(|d| rel.starts_with(d));
                // (A message's text, `text.split('`')`, is no clause's `.text`.)
                let splits_clause_text = c.contains(".split(") && c.contains(".text") && !front_end;
                if names_thread_local || magic_param || splits_clause_text {
                    bad.push(format!("{rel}:{}: {}", i + 1, line.trim()));
                }
            }
        }
    }
    assert!(bad.is_empty(), "variables found by their name text:\n{}", bad.join("\n"));
}

/// A name-based lookup of a variable the execution model made: comparing a name with a `"__…"`
/// literal or prefix, or with the `&` of a capture's address. Making a local with such a name
/// (`long_temp("__k")`, `schedule_var(…)`, `launch_param(…)`) and writing text (`format!`) are
/// display, not lookups.
fn looks_up_by_name(c: &str) -> bool {
    let made_here = ["long_temp(", "schedule_var(", "launch_param(", "format!("].iter().any(|k| c.contains(k));
    let compares_generated_name = ["starts_with(\"__", "ends_with(\"__", "== \"__", "!= \"__", "starts_with('&')", "starts_with(\"&\")"].iter().any(|k| c.contains(k));
    let names_schedule_local = ["\"__chunk_start\"", "\"__thread\"", "\"__round\"", "\"__gang\"", "\"__num_workers\""].iter().any(|k| c.contains(k));
    c.contains("local_named(") || compares_generated_name || (names_schedule_local && !made_here)
}

/// The consumers of the IR (the interpreter's compiler and runtime, the kernel passes after
/// outlining, the CUDA emitter, the native-code engine, the checkers, the command, the GUI) tell
/// the execution model's locals apart by their `LocalRole`, never by their names.
#[test]
fn no_consumer_recognises_a_generated_local_by_its_name() {
    let dirs = ["core/src/exec", "core/src/kernel", "cuda-backend/src", "jit/src", "simulator/src", "gui/src"];
    let mut bad = Vec::new();
    for dir in dirs {
        let files = sources(&root().join(dir));
        assert!(!files.is_empty(), "{dir} has sources");
        for f in files {
            let text = std::fs::read_to_string(&f).expect("readable source");
            let rel = f.strip_prefix(root()).unwrap_or(&f).display().to_string();
            for (i, line) in text.lines().enumerate() {
                if looks_up_by_name(code(line)) {
                    bad.push(format!("{rel}:{}: {}", i + 1, line.trim()));
                }
            }
        }
    }
    assert!(bad.is_empty(), "generated locals recognised by their name text (use `Local::role`):\n{}", bad.join("\n"));
}

/// The rule above finds what it looks for: a line of each forbidden kind is caught.
#[test]
fn the_name_rule_catches_each_kind() {
    let caught = |c: &str| {
        ((c.contains("\"__worker\"") || c.contains("\"__lane\"")) && !c.contains("long_temp("))
            || c.contains("LocalId(2)")
            || (c.contains(".split(") && c.contains(".text"))
    };
    assert!(caught(r#"if local_named(func, l, "__worker") {"#));
    assert!(caught("let nw = b.get(LocalId(2));"));
    assert!(caught("let name = v.text.split(['[', '.']).next();"));
    assert!(!caught(r#"let w = b.long_temp("__worker");"#));
    assert!(!caught("let subject = |text: &str| text.split('`').nth(1);"));
    assert_eq!(code("let x = 1; // v.text.split("), "let x = 1; ");
    assert!(looks_up_by_name(r#"for_init_local(s).is_some_and(|l| local_named(func, l, "__chunk_start"))"#));
    assert!(looks_up_by_name(r#"if name.starts_with("__") || func.params.contains(&l) {"#));
    assert!(looks_up_by_name(r#"fx.control_slots.keys().any(|n| n.starts_with("__ctl_w_"))"#));
    assert!(looks_up_by_name(r#"matches!(&v.kind, ExprKind::Local(t) if func.locals[t].name == "__thread")"#));
    assert!(looks_up_by_name("self.locals.get(l).is_some_and(|x| x.name.starts_with('&'))"));
    assert!(!looks_up_by_name(r#"let cstart = b.schedule_var("__chunk_start", ScheduleVar::ChunkStart);"#));
    assert!(!looks_up_by_name(r#"let n = format!("__ctl_w_{}", sanitize(&t));"#));
    assert!(!looks_up_by_name(r#"(false, false) => "__syncthreads()","#));
}

/// A line that tests the text of a name: a text method (`starts_with`, `contains`, …) or a
/// comparison with a literal applied to something called `name`, or a generated display name
/// (`"<temp>"`) spelled out.
fn tests_name_text(c: &str) -> bool {
    const TESTS: [&str; 8] = ["starts_with(", "ends_with(", "contains(", "strip_prefix(", "strip_suffix(", "trim_start_matches(", "trim_end_matches(", "trim_matches("];
    let method = ["name.", "name().", "names."].iter().any(|n| TESTS.iter().any(|t| c.contains(&format!("{n}{t}"))));
    let compared = ["name == \"", "name != \"", "name.as_str() {"].iter().any(|k| c.contains(k));
    // A prefix that generated names have (`__k`, `<temp>`, `&x`, the C library's `__bswap_32`),
    // whatever the receiver is called.
    let generated_prefix = ["starts_with('<')", "starts_with('&')", "starts_with('_')", "starts_with(\"__", "starts_with(['"].iter().any(|k| c.contains(k));
    let display_name = ["\"<temp>\"", "\"<private>\"", "\"<addr>\"", "\"<vla size>\"", "\"<compound literal>\"", "\"<bit-field"].iter().any(|k| c.contains(k));
    method || compared || generated_prefix || display_name
}

/// The lines of code after the front-ends that test a name's text, each with why that is no
/// lookup of a variable (or of a program's function) by its name: (file, text of the line,
/// reason). An entry that matches no line fails the test too, so the list stays exact.
const NAME_TEXT_ALLOWED: &[(&str, &str, &str)] = &[
    // Externs are linked by name (C11 §6.2.2, external linkage): the C library and the OpenACC
    // runtime routines (§3) are functions the program calls by name, not variables.
    ("core/src/exec/openacc/library.rs", "e.name.starts_with(\"acc_\")", "an extern: the OpenACC runtime routines (§3) are linked by name"),
    ("core/src/exec/compile.rs", "x.name.starts_with(\"acc_\")", "an extern: the OpenACC runtime routines (§3) are linked by name"),
    ("core/src/exec/cray_debug.rs", "e.name.starts_with(\"cray_acc_\")", "an extern: CCE's debug routines are linked by name"),
    ("core/src/exec/libc_shim.rs", "name.strip_suffix('l')", "the C library binds an extern by its name (linking): `sinl` is `sin`'s long double twin"),
    ("core/src/exec/libc_shim.rs", "name.strip_suffix('f')", "the C library binds an extern by its name (linking): `cabsf`"),
    ("core/src/exec/libc_shim.rs", "name.strip_prefix(\"__builtin_\")", "the C library binds an extern by its name (linking): gcc's builtins"),
    ("core/src/exec/libc_shim.rs", "name.contains(&b'=')", "an environment variable's name (setenv, POSIX), not a program variable"),
    ("cuda-backend/src/barrier.rs", "x.name != \"memcpy\"", "an extern: the C library's memcpy, linked by name"),
    ("jit/src/translate/calls.rs", "self.min_max(name == \"fmax\"", "an extern: the C library's fmax, linked by name"),
    ("jit/src/translate/calls.rs", "self.min_max(name == \"fmaxf\"", "an extern: the C library's fmaxf, linked by name"),
    // The entry point is `main` by name (C11 §5.1.2.2.1).
    ("core/src/exec/tests.rs", "f.name == \"main\"", "the program's entry point is called `main` (C11 §5.1.2.2.1)"),
    ("jit/src/tests.rs", "f.name == \"poly\"", "a unit test finds the routine of its own test program by the name it wrote"),
    // Display wording: making or printing a name, deciding nothing.
    ("core/src/kernel/schedule.rs", "b.temp(\"<private>\"", "makes the private copy's display name (its role is `LocalRole::Temporary`)"),
    ("core/src/kernel/depend.rs", "x.name.trim_start_matches('&')", "a message names the variable whose address a capture is"),
    ("core/src/kernel/schedule.rs", "x.name.trim_start_matches('&')", "a message names the variable whose address a capture is"),
    ("cuda-backend/src/emit/text.rs", "let base = match l.name.as_str() {", "the CUDA identifier made of a local's display name"),
    ("cuda-backend/src/emit/text.rs", "\"<private>\" => \"priv\"", "the CUDA identifier made of a local's display name"),
    ("cuda-backend/src/emit/text.rs", "\"<temp>\" => \"tmp\"", "the CUDA identifier made of a local's display name"),
    ("cuda-backend/src/emit/text.rs", "\"<addr>\" => \"addr\"", "the CUDA identifier made of a local's display name"),
    ("simulator/src/check/mod.rs", "!n.starts_with('_')", "display: a name with a leading underscore is reserved to the implementation (C11 §7.1.3), no name the reader wrote (the Fortran translation's `_f…` temporaries): the finding says \"a local variable\""),
    // Tools and tests: names of command-line choices and of what the GUI shows.
    ("simulator/src/bin/fuzz.rs", "name == \"directive_parser\"", "a fuzz target's name (command line)"),
    ("gui/src/ui_tests.rs", "m.name.starts_with(\"cube\")", "a test of what the memory panel shows"),
    ("gui/src/ui_tests.rs", "v.name == \"k\"", "a test of what the variables panel shows"),
    ("gui/src/snapshot_tests.rs", "names.contains(&bound)", "a test of what the memory panel shows"),
    ("gui/src/engine.rs", "m.name.strip_prefix(&root)", "display: the first element a Fortran array's mapped section shows, read from the entry's label"),
];

/// No code after the front-ends finds a variable, or a function of the program, by its name's
/// text: every crate is read (the front-ends, `core/src/{frontend,directive,lower,dialect}` and
/// the Fortran crate, resolve names: that is their job), and each line that tests a name's text
/// must be in [`NAME_TEXT_ALLOWED`] with its reason.
#[test]
fn no_code_tests_the_text_of_a_name() {
    let front_ends = ["core/src/frontend/", "core/src/directive/", "core/src/lower/", "core/src/dialect/"];
    let mut bad = Vec::new();
    let mut used = vec![false; NAME_TEXT_ALLOWED.len()];
    for dir in ["core/src", "simulator/src", "gui/src", "cuda-backend/src", "jit/src"] {
        let files = sources(&root().join(dir));
        assert!(!files.is_empty(), "{dir} has sources");
        for f in files {
            let rel = f.strip_prefix(root()).unwrap_or(&f).display().to_string();
            if front_ends.iter().any(|d| rel.starts_with(d)) {
                continue;
            }
            let text = std::fs::read_to_string(&f).expect("readable source");
            for (i, line) in text.lines().enumerate() {
                let c = code(line);
                if !tests_name_text(c) {
                    continue;
                }
                match NAME_TEXT_ALLOWED.iter().position(|(file, fragment, _)| rel == *file && c.contains(fragment)) {
                    Some(k) => used[k] = true,
                    None => bad.push(format!("{rel}:{}: {}", i + 1, line.trim())),
                }
            }
        }
    }
    let stale: Vec<String> = NAME_TEXT_ALLOWED.iter().zip(&used).filter(|(_, u)| !**u).map(|((f, t, _), _)| format!("{f}: {t}")).collect();
    assert!(bad.is_empty(), "code that tests a name's text (find the variable by its id, its `LocalRole` or the function's `FunctionOrigin`; or add the line to NAME_TEXT_ALLOWED with why it is display or linking):\n{}", bad.join("\n"));
    assert!(stale.is_empty(), "NAME_TEXT_ALLOWED entries that match no line any more:\n{}", stale.join("\n"));
}

/// The rule above catches the lookups issue 13 removed.
#[test]
fn the_name_text_rule_catches_each_kind() {
    assert!(tests_name_text(r#"for f in rows.into_iter().filter(|f| !f.name.starts_with("__")) {"#));
    assert!(tests_name_text(r#"let name = names.get(l).filter(|n| !n.starts_with(['_', '<', '&'])).filter(|_| local.name.starts_with('<'));"#));
    assert!(tests_name_text(r#"Holds::Variable { name, .. } if name.contains(' ') => name.clone(),"#));
    assert!(tests_name_text(r#"if f.name == "main" {"#));
    assert!(tests_name_text(r#"match l.name.as_str() {"#));
    assert!(tests_name_text(r#"self.new_local("<temp>", ty, Storage::Memory, loc)"#));
    assert!(tests_name_text(r#".filter(|(n, _)| !n.starts_with('<'))"#));
    assert!(!tests_name_text(r#"let f = p.functions.get(k.func.0 as usize).map(|f| f.name.as_str()).unwrap_or("?");"#));
    assert!(!tests_name_text(r#"if local.role == LocalRole::Temporary {"#));
}

/// One gang model for every device (issue 13): what each gang gets for a capture (`GangCopy::of`)
/// and a reduction's identity and combine (§2.5.11's table) are `core/src/exec/gang.rs`, which the
/// sequential device applies to the interpreter's memory (`launch_gangs`, through which SimDevice
/// runs its gangs too) and CudaDevice to the byte images of its gang buffers. No device module
/// has a table of its own.
#[test]
fn every_device_uses_the_one_gang_model() {
    let read = |rel: &str| std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let sequential = read("core/src/exec/device.rs");
    for used in ["GangCopy::of(", "gang::write_identity(", "gang::combine_into(", "pub fn launch_gangs("] {
        assert!(sequential.contains(used), "the sequential device uses `{used}`");
    }
    let sim = read("simulator/src/sim_device.rs");
    for used in ["launch_gangs(cx,", "SequentialDevice.launch("] {
        assert!(sim.contains(used), "SimDevice runs its gangs through `{used}`");
    }
    let cuda = read("cuda-backend/src/device.rs");
    for used in ["use accsim_core::exec::gang::{self, GangCopy};", "GangCopy::of(", "gang::identity_bytes(", "gang::combine_bytes("] {
        assert!(cuda.contains(used), "CudaDevice uses `{used}`");
    }
    // No device keeps its own identities or combines: no match on a reduction operator.
    let devices = ["core/src/exec/device.rs", "core/src/exec/openacc.rs", "core/src/exec/openacc/library.rs", "simulator/src/sim_device.rs", "cuda-backend/src/device.rs"];
    let own: Vec<String> = devices
        .iter()
        .flat_map(|rel| read(rel).lines().enumerate().filter(|(_, l)| code(l).contains("ReductionOp::")).map(|(i, l)| format!("{rel}:{}: {}", i + 1, l.trim())).collect::<Vec<_>>())
        .collect();
    assert!(own.is_empty(), "a device with reduction rules of its own (use exec/gang.rs):\n{}", own.join("\n"));
}

/// Every observer reads the one event stream (issue 13): `accsim run`'s `--notify`, `--time` and
/// `--trace` and `check`'s JSON figures are `events::Timeline` records; `check`'s findings come
/// from the `CheckRun` subscriber; the GUI runs the program once per (re)start, with a
/// `Timeline` (its queue panel) and the checkers (`SharedCheckRun`) subscribed to that very run,
/// and reads its findings and the coherence colours from them — no second run. (The GUI's
/// behaviour: `gui/src/ui_tests.rs`, `checker_findings_select_sites_and_threads` finds no race
/// before the stepped run reaches the kernel.)
#[test]
fn every_observer_reads_the_one_stream() {
    let read = |rel: &str| std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let code_of = |text: &str| text.lines().map(code).collect::<Vec<_>>().join("\n");
    // The only subscribers there are: the timeline, the checkers, CRAY_ACC_DEBUG's commentary.
    let mut subscribers = Vec::new();
    for dir in ["core/src", "simulator/src", "gui/src", "cuda-backend/src", "jit/src"] {
        for f in sources(&root().join(dir)) {
            for line in code_of(&std::fs::read_to_string(&f).expect("readable source")).lines() {
                if let Some(at) = line.find("Subscriber for ") {
                    subscribers.push(line[at + "Subscriber for ".len()..].split([' ', '<', '{']).next().unwrap_or("").to_string());
                }
            }
        }
    }
    subscribers.sort();
    assert_eq!(subscribers, ["CheckRun", "CrayDebug", "SharedCheckRun", "Timeline"], "the stream's subscribers");
    let main = code_of(&read("simulator/src/main.rs"));
    assert!(main.contains("events::Timeline(") && main.contains("events::time_summary(&recorded") && main.contains("chrome_trace(&recorded"), "--notify/--time/--trace read the timeline's records");
    let gui = code_of(&read("gui/src/engine.rs"));
    assert_eq!(gui.matches(".run(").count(), 1, "the GUI runs the program in one place: the stepped run");
    for reads in ["Box::new(SharedCheckRun(check))", "Box::new(Timeline(", "run.coherence.newest(", "checker_findings("] {
        assert!(gui.contains(reads), "the GUI's stepped run: `{reads}`");
    }
}
