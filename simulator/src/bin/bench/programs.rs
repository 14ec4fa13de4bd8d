//! The benchmark programs of `samples/bench/`: which files, their sizes and their data.
//!
//! Two groups: the three kernels of issues 2–4, each in a plain (`plain/`) and an OpenACC (`acc/`)
//! version, and the suite of issue 15 (`styles/`): OpenACC programs in the shapes people write
//! (the Laplace lab as taught, PolyBench-style kernels, a blur with one-dimensional index
//! arithmetic, an `atomic` histogram, a tree of function calls), which no engine was tuned for.

/// A directory of benchmark programs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Suite {
    Plain,
    Acc,
    /// Issue 15: programs in the styles people write.
    Styles,
    /// Issue 16: OpenACC Fortran twins of `acc/` (`.F90`), against `gfortran -O2`.
    Fortran,
}

impl Suite {
    pub fn dir(self) -> &'static str {
        match self {
            Suite::Plain => "plain",
            Suite::Acc => "acc",
            Suite::Styles => "styles",
            Suite::Fortran => "fortran",
        }
    }

    /// The source file suffix of its programs (`.F90`: preprocessed, for the `-DN=` sizes).
    pub fn extension(self) -> &'static str {
        match self {
            Suite::Fortran => "F90",
            _ => "c",
        }
    }
}

/// One benchmark computation: a file name (without `.c`) in its suite's directory.
pub struct Kernel {
    pub name: &'static str,
    /// The grid or matrix side at `--size full` (the program's own default for `N`).
    pub full_n: u64,
    /// The side passed as `-DN=` at `--size small`.
    pub small_n: u64,
    /// Other macros passed at `--size small` (`NAME=VALUE`), for sizes besides `N`.
    pub small_extra: &'static [&'static str],
    /// Bytes of the arrays the program allocates for side `n`.
    pub data_bytes: fn(u64) -> u64,
}

pub const KERNELS: &[Kernel] = &[
    Kernel {
        name: "jacobi",
        full_n: 1024,
        small_n: 128,
        small_extra: &[],
        data_bytes: jacobi_bytes,
    },
    Kernel {
        name: "matmul",
        full_n: 512,
        small_n: 64,
        small_extra: &[],
        data_bytes: matmul_bytes,
    },
    Kernel {
        name: "blur",
        full_n: 2048,
        small_n: 128,
        small_extra: &[],
        data_bytes: blur_bytes,
    },
];

impl Kernel {
    /// The macros of `--size small`: `N=small_n`, then the kernel's other sizes.
    pub fn small_defines(&self) -> Vec<String> {
        std::iter::once(format!("N={}", self.small_n))
            .chain(self.small_extra.iter().map(|d| d.to_string()))
            .collect()
    }
}

/// Two grids of doubles.
pub fn jacobi_bytes(n: u64) -> u64 {
    2 * n * n * 8
}

/// A, B and C, doubles.
pub fn matmul_bytes(n: u64) -> u64 {
    3 * n * n * 8
}

/// Input and output images of floats, and the 25 weights.
pub fn blur_bytes(n: u64) -> u64 {
    2 * n * n * 4 + 25 * 4
}
/// Issue 16's Fortran suite, `samples/bench/fortran/`: the Jacobi and matrix product of `acc/`,
/// then Fortran in the shapes of issue 15's `styles` (the laplace lab, a stencil in a procedure
/// with assumed-shape dummies, an array-syntax vector update).
pub const FORTRAN: &[Kernel] = &[
    Kernel {
        name: "jacobi",
        full_n: 1024,
        small_n: 128,
        small_extra: &[],
        data_bytes: jacobi_bytes,
    },
    Kernel {
        name: "matmul",
        full_n: 512,
        small_n: 64,
        small_extra: &[],
        data_bytes: matmul_bytes,
    },
    styles("laplace", 1024, 48, |n| 2 * n * n * 8),
    styles("stencil", 1000, 48, |n| 2 * n * n * 8),
    styles("daxpy", 4_000_000, 20_000, |n| 2 * n * 8),
];

/// Issue 15's suite, `samples/bench/styles/`: sizes at which `gcc -O2` takes 0.1–1 s (since
/// session 13 at least 0.15 s on the 16-core GPU host, where seven programs took 0.05–0.09 s).
pub const STYLES: &[Kernel] = &[
    styles("laplace", 1024, 48, |n| 2 * n * n * 8),
    styles("gemm", 880, 48, |n| 3 * n * n * 8),
    styles("2mm", 560, 48, |n| 5 * n * n * 8),
    styles("atax", 2000, 48, |n| n * n * 8 + 3 * n * 8),
    styles("bicg", 2000, 48, |n| n * n * 8 + 4 * n * 8),
    styles("mvt", 2000, 48, |n| n * n * 8 + 4 * n * 8),
    styles("gesummv", 1600, 48, |n| 2 * n * n * 8 + 2 * n * 8),
    styles("syrk", 760, 48, |n| 2 * n * n * 8),
    styles("syr2k", 480, 48, |n| 3 * n * n * 8),
    styles("jacobi2d", 1000, 48, |n| 2 * n * n * 8),
    styles("fdtd2d", 1000, 48, |n| 3 * n * n * 8),
    styles("conv2d", 2048, 48, |n| 2 * n * n * 8),
    styles("conv3d", 144, 16, |n| 2 * n * n * n * 8),
    // n samples of n / 2 variables, the (n / 2)² result, means and deviations.
    styles("correlation", 1000, 48, |n| {
        n * (n / 2) * 8 + (n / 2) * (n / 2) * 8 + 2 * (n / 2) * 8
    }),
    styles("blur", 1536, 48, |n| 2 * n * n * 4 + 25 * 4),
    styles("histogram", 4_000_000, 20_000, |n| n * 4 + 256 * 8),
    // The output array and the 2^20 - 1 tree nodes of 24 bytes (DEPTH 19); the small size's
    // tree has 2^13 - 1.
    Kernel {
        name: "calltree",
        full_n: 4_000_000,
        small_n: 20_000,
        small_extra: &["DEPTH=12"],
        data_bytes: |n| n * 8 + ((1 << 20) - 1) * 24,
    },
];

const fn styles(
    name: &'static str,
    full_n: u64,
    small_n: u64,
    data_bytes: fn(u64) -> u64,
) -> Kernel {
    Kernel {
        name,
        full_n,
        small_n,
        small_extra: &[],
        data_bytes,
    }
}

/// One benchmark program: `samples/bench/<suite>/<kernel>.c`.
#[derive(Clone, Copy)]
pub struct Program {
    pub suite: Suite,
    pub kernel: &'static Kernel,
}

impl Program {
    /// Every program: plain ones, OpenACC ones, issue 15's suite, then the Fortran ones.
    pub fn all() -> impl Iterator<Item = Program> {
        [Suite::Plain, Suite::Acc]
            .into_iter()
            .flat_map(|suite| KERNELS.iter().map(move |kernel| Program { suite, kernel }))
            .chain(STYLES.iter().map(|kernel| Program {
                suite: Suite::Styles,
                kernel,
            }))
            .chain(FORTRAN.iter().map(|kernel| Program {
                suite: Suite::Fortran,
                kernel,
            }))
    }

    /// `plain/jacobi`, …
    pub fn label(self) -> String {
        format!("{}/{}", self.suite.dir(), self.kernel.name)
    }
}

/// Every program name, for `--only`'s error message.
pub fn names() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = KERNELS.iter().chain(STYLES).chain(FORTRAN).map(|k| k.name).collect();
    v.sort_unstable();
    v.dedup();
    v
}
