//! The modules of `core/src/exec` depend on each other without cycles (issue 13): the test
//! fails on any cycle, and when the machine depends on a runtime service above it.
//!
//! A module's dependencies are the sibling modules its code names: `crate::exec::NAME` anywhere,
//! `super::NAME` in `exec/NAME.rs` (`super::super::NAME` one directory down), including the
//! names inside `use super::{…}` groups. A name that `exec/mod.rs` re-exports (`Machine`,
//! `Executable`) is a dependency on the module it comes from; any other item of `exec/mod.rs`
//! (`Observer`, `RunOptions`, …) on `exec` itself, whose own code (not its `mod` and `pub use`
//! lines) is read the same way. Comments are skipped; `tests` modules are not part of the graph.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layering, bottom up: `value`, `memory`, `events`, `memory_model`, `gang`, `cray_debug`,
/// the services' state (`libc_bind`, `libc_state`, `acc_state`); `machine` (the state a program
/// runs on, with the executable form in `machine/code.rs` and the seams it holds: Device,
/// Observer, NativeCode, in `machine/seams.rs`); the runtime services that take the machine
/// (`check`, `inspect`, `native`, `libc_*`, `device`, `openacc`); `compile`; `run`; `exec` (the
/// entry points). The machine must name none of these services (it reaches them through its
/// seams and hooks).
const ABOVE_THE_MACHINE: &[&str] = &["check", "inspect", "native", "libc_shim", "libc_omp", "device", "openacc", "compile", "run", "exec"];

fn exec_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src/exec")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The source without `//` comments (line and doc comments).
fn strip_comments(src: &str) -> String {
    src.lines().map(|l| l.find("//").map_or(l, |i| &l[..i])).collect::<Vec<_>>().join("\n")
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// `path` occurs in `src` as a path's start (not preceded by an identifier character or `:`).
fn mentions(src: &str, path: &str) -> bool {
    src.match_indices(path).any(|(at, _)| !src[..at].chars().next_back().is_some_and(|c| is_ident(c) || c == ':'))
}

/// The names that follow `prefix` in `src` (not preceded by an identifier character or `:`),
/// with the top-level names of a `prefix{a, b::c}` group.
fn names_after(src: &str, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = src[from..].find(prefix) {
        let at = from + i;
        from = at + prefix.len();
        if src[..at].chars().next_back().is_some_and(|c| is_ident(c) || c == ':') {
            continue;
        }
        let rest = &src[from..];
        if let Some(group) = rest.strip_prefix('{') {
            let (mut depth, mut item) = (1, String::new());
            let mut items = Vec::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
                if depth == 0 {
                    break;
                }
                if depth == 1 && c == ',' {
                    items.push(std::mem::take(&mut item));
                } else {
                    item.push(c);
                }
            }
            items.push(item);
            out.extend(items.iter().map(|i| i.trim().chars().take_while(|&c| is_ident(c)).collect::<String>()).filter(|n| !n.is_empty()));
        } else {
            let name: String = rest.chars().take_while(|&c| is_ident(c)).collect();
            if !name.is_empty() {
                out.push(name);
            }
        }
    }
    out
}

/// Module → the sibling modules it depends on.
fn module_graph() -> BTreeMap<String, BTreeSet<String>> {
    let dir = exec_dir();
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    files.sort();
    let top = |p: &Path| -> (String, usize) {
        let rel = p.strip_prefix(&dir).unwrap_or(p);
        let parts: Vec<String> = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
        (parts[0].trim_end_matches(".rs").to_string(), parts.len() - 1)
    };
    let modules: BTreeSet<String> = files.iter().map(|p| top(p).0).filter(|m| m != "mod").collect();
    let root = std::fs::read_to_string(dir.join("mod.rs")).unwrap_or_default();
    // `pub use NAME::{A, B};` in exec/mod.rs: A and B come from NAME.
    let mut reexported: BTreeMap<String, String> = BTreeMap::new();
    for line in strip_comments(&root).lines() {
        if let Some(rest) = line.trim().strip_prefix("pub use ") {
            if let Some((module, names)) = rest.trim_end_matches(';').split_once("::") {
                for n in names.trim_matches(|c| c == '{' || c == '}').split(',') {
                    reexported.insert(n.trim().to_string(), module.to_string());
                }
            }
        }
    }
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for p in &files {
        let (module, depth) = top(p);
        if module == "tests" {
            continue;
        }
        let src = strip_comments(&std::fs::read_to_string(p).unwrap_or_default());
        let (node, refs) = if module == "mod" {
            let code: String = src
                .lines()
                .filter(|l| !["use ", "pub use ", "mod ", "pub mod "].iter().any(|k| l.trim_start().starts_with(k)))
                .collect::<Vec<_>>()
                .join("\n");
            let refs = modules.iter().filter(|m| mentions(&code, &format!("{m}::"))).cloned().collect::<Vec<_>>();
            ("exec".to_string(), refs)
        } else {
            let mut refs = names_after(&src, "crate::exec::");
            refs.extend(names_after(&src, &"super::".repeat(depth + 1)));
            (module, refs)
        };
        for r in refs {
            if r == "self" {
                continue;
            }
            let target = if modules.contains(&r) { r } else { reexported.get(&r).cloned().unwrap_or_else(|| "exec".into()) };
            if target != node {
                graph.entry(node.clone()).or_default().insert(target);
            }
        }
    }
    graph
}

/// A cycle of `graph`, if it has one (as the path of modules around it).
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(n: &str, g: &BTreeMap<String, BTreeSet<String>>, state: &mut BTreeMap<String, u8>, path: &mut Vec<String>) -> Option<Vec<String>> {
        match state.get(n) {
            Some(2) => return None,
            Some(1) => {
                let start = path.iter().position(|p| p == n).unwrap_or(0);
                let mut cycle = path[start..].to_vec();
                cycle.push(n.to_string());
                return Some(cycle);
            }
            _ => {}
        }
        state.insert(n.to_string(), 1);
        path.push(n.to_string());
        for m in g.get(n).into_iter().flatten() {
            if let Some(c) = visit(m, g, state, path) {
                return Some(c);
            }
        }
        path.pop();
        state.insert(n.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    graph.keys().find_map(|n| visit(n, graph, &mut state, &mut Vec::new()))
}

#[test]
fn exec_modules_form_no_cycle() {
    let graph = module_graph();
    assert!(graph.len() > 5, "the exec modules were not found: {graph:?}");
    if let Some(cycle) = find_cycle(&graph) {
        panic!("a module cycle in core/src/exec: {}\nthe graph: {graph:#?}", cycle.join(" -> "));
    }
}

#[test]
fn the_machine_names_no_runtime_service() {
    let graph = module_graph();
    let deps = graph.get("machine").cloned().unwrap_or_default();
    assert!(deps.contains("memory"), "the machine's dependencies were not found: {deps:?}");
    let above: Vec<&String> = deps.iter().filter(|d| ABOVE_THE_MACHINE.contains(&d.as_str())).collect();
    assert!(above.is_empty(), "core/src/exec/machine names services above it: {above:?}");
}

#[test]
fn imports_are_read_from_use_groups_and_paths() {
    let src = "use super::{libc_shim::{self, Binding}, machine::Machine};\nlet x = super::openacc::f();";
    assert_eq!(names_after(src, "super::"), ["libc_shim", "machine", "openacc"]);
    assert_eq!(names_after("use crate::exec::value::Kind; // super::check", "crate::exec::"), ["value"]);
    assert!(find_cycle(&BTreeMap::from([("a".into(), BTreeSet::from(["b".into()])), ("b".into(), BTreeSet::from(["a".into()]))])).is_some());
}
