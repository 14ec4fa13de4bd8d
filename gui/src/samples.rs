//! Finding the sample programs for the Samples menu.
//!
//! Samples live in the repository's `samples/` folder. The GUI looks for it in the current
//! directory and its ancestors, then next to the executable and in its ancestors (so
//! `target/debug/accsim-gui` finds the repository's samples), and lists every `*.c` below the
//! first `samples/` folder found, sorted by path.

use std::path::{Path, PathBuf};

/// The first `samples/` directory found from the current directory or the executable.
pub fn find_samples_dir() -> Option<PathBuf> {
    let mut starts = Vec::new();
    if let Ok(cwd) = std::env::current_dir() {
        starts.push(cwd);
    }
    if let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(Path::to_path_buf))
    {
        starts.push(dir);
    }
    starts
        .iter()
        .flat_map(|start| start.ancestors())
        .map(|dir| dir.join("samples"))
        .find(|dir| dir.is_dir())
}

/// Every `*.c` file under `dir`, recursively, sorted by path. Unreadable folders are skipped.
pub fn list_c_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            match entry.file_type() {
                Ok(t) if t.is_dir() => pending.push(path),
                Ok(_) if path.extension().is_some_and(|e| e == "c") => found.push(path),
                _ => {}
            }
        }
    }
    found.sort();
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_c_files_recursively_and_sorted() {
        let root = std::env::temp_dir().join(format!("accsim-gui-samples-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("c/deeper")).unwrap();
        std::fs::create_dir_all(root.join("acc")).unwrap();
        for f in [
            "c/hello.c",
            "c/deeper/b.c",
            "acc/saxpy.c",
            "acc/notes.txt",
            "c/hello.h",
        ] {
            std::fs::write(root.join(f), "int main(void) { return 0; }\n").unwrap();
        }
        let listed: Vec<_> = list_c_files(&root)
            .into_iter()
            .map(|p| {
                p.strip_prefix(&root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        assert_eq!(listed, vec!["acc/saxpy.c", "c/deeper/b.c", "c/hello.c"]);
        std::fs::remove_dir_all(&root).unwrap();
    }

    /// `cargo test` runs in `gui/`; the repository's `samples/` is found in an ancestor.
    #[test]
    fn finds_the_repository_samples() {
        let dir = find_samples_dir().expect("samples/ found from gui/");
        assert!(list_c_files(&dir).contains(&dir.join("c").join("hello.c")));
    }

    #[test]
    fn missing_dir_lists_nothing() {
        assert!(list_c_files(Path::new("/nonexistent/accsim/samples")).is_empty());
    }
}
