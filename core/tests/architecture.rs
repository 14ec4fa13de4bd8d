//! Issue 13, "the execution model explicit in the IR": rules about the source tree that keep it
//! so, checked by reading the sources.
//! - `core/src/ir` imports nothing from `kernel` or `exec`: analysis results live in the side
//!   table `ir::valid::ProgramInfo`, not in the IR.
//! - No code finds a variable by its name text where an id exists: partitioned loops are
//!   `StmtKind::Partition` nodes (not loops over locals named `__worker`/`__lane`), the kernel's
//!   launch parameters are `KernelParams` (not `LocalId(2)`/`LocalId(3)`), and clause variables
//!   are found by their `VarRoot` (not by splitting the clause text), and the locals the
//!   outliner and the scheduler make are told apart by `ir::LocalRole` (not by a `__` or `&`
//!   prefix of their names): the names are for display only.

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
/// outlining, the CUDA emitter, the checkers, the GUI) tell the execution model's locals apart by
/// their `LocalRole`, never by their names.
#[test]
fn no_consumer_recognises_a_generated_local_by_its_name() {
    // The function names of system headers' inline functions (`__isnan`…) in `accsim info`'s
    // engine report are functions, not variables: simulator/src/main.rs is not a consumer here.
    let dirs = ["core/src/exec", "core/src/kernel", "cuda-backend/src", "simulator/src/check", "gui/src"];
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
