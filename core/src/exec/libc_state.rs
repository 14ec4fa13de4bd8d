//! The C library's state in one run ([`ShimState`]: `atexit` handlers, `rand`'s generator,
//! `getenv`'s environment, `strtok`'s position, the open files), held by the machine; the shim functions that
//! use it are in [`super::libc_shim`].

use std::collections::HashMap;
use std::time::Instant;

use super::libc_bind;
use super::memory::ptr_word;

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
    pub files: std::sync::Arc<std::sync::Mutex<super::libc_file::FileTable>>,
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
            files: super::libc_file::FileTable::new(Default::default(), None),
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
        self.object(super::libc_shim::OBJ_ERRNO)
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
