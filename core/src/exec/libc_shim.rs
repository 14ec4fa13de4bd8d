//! The C library a program calls: glibc 2.36 behaviour (Debian 12) bound by name at compile time.
//!
//! Functions: stdio output to stdout/stderr (printf family with glibc's formatting, puts, putchar,
//! fputs, fputc, fwrite, fflush), the malloc family (checked: double free and invalid free are
//! errors; a request beyond the memory limit stops the run with a `memory limit` diagnostic),
//! string and memory functions (including `strtok`, `strspn`, `memchr`), number parsing with
//! glibc's `errno`, `div`/`ldiv`, `qsort` (glibc 2.36's merge sort: same comparator calls, same
//! stable order), `bsearch`, `rand`/`random`/`rand_r`, the math library (Rust's f64/f32 methods
//! call the same libm as gcc's code; `cbrt`, whose Rust version differs, `remainder`, `erf` and
//! `erfc` are ported), the comparison and classification macros, a part of `complex.h`, `<ctype.h>` (both
//! the functions and glibc's `__ctype_b_loc` tables the macros index), time functions (real host
//! time), `exit`/`atexit`/`abort`/`__assert_fail`, `getenv`/`setenv` (set variables live in the
//! run, not in accsim's environment), `__errno_location`, and the `__builtin_*` names glibc's
//! headers leave in preprocessed code. The OpenMP runtime routines are in [`super::libc_omp`].
//!
//! Objects: `stdin`, `stdout`, `stderr` (`extern FILE *` globals) are runtime allocations holding
//! pointers to three small "FILE" allocations that the stdio shims recognise; `errno` and the
//! ctype tables are runtime allocations too ([`RUNTIME_OBJECTS`]).
//!
//! Files and input (`fopen` … `fscanf`, `scanf`, reading stdin) are in [`super::libc_file`].
//!
//! Submodules: [`printf`] holds the printf family (arguments, formatting, where a call writes),
//! [`math`] the math library, the classification macros and `complex.h`; this file binds the
//! names and runs the calls ([`call`]).
//!
//! Limits: `tgamma`, `lgamma`, `erff`,
//! `erfcf` are not provided yet (a call reports "not supported"); `clock()` reports wall time
//! since start; `clog`/`csqrt`/`cpow` use the textbook formulas, which can differ from glibc in
//! the last bit.


use super::machine::code::{ef, ExprFn};
use super::libc_bind;
use super::machine::{Machine, Trap};
use super::memory::{ptr_word, AllocId, AllocKind, FaultKind, HostSpan, MemFault, Space};
use super::value::{as_f64, Kind};
use crate::diag::{Diagnostic, Loc};
use crate::ir::{Type, TypeId, TypeTable};

mod math;
mod printf;

use math::{classify, complex_fun, farg, frexp, ldexp, ldexp_f32, math1, math1f, math2, math2f, remainder, ret_f};
use printf::{printf_to, Out};

/// What an extern of the program is bound to.
#[derive(Copy, Clone, Debug)]
pub enum Binding {
    Function(Shim),
    /// A C library object: index into [`RUNTIME_OBJECTS`].
    Object(u32),
    /// Not provided: a use is a link error.
    Unbound,
}

impl Binding {
    pub fn shim(&self) -> Option<Shim> {
        match self {
            Binding::Function(s) => Some(*s),
            _ => None,
        }
    }
}

/// The C library's objects, allocated in this order right after the string literals.
pub const RUNTIME_OBJECTS: [(&str, u64); 13] = [
    ("the stdin stream", 8),
    ("the stdout stream", 8),
    ("the stderr stream", 8),
    ("stdin", 8),
    ("stdout", 8),
    ("stderr", 8),
    ("errno", 4),
    ("the ctype class table", 384 * 2),
    ("the toupper table", 384 * 4),
    ("the tolower table", 384 * 4),
    ("__ctype_b", 8),
    ("__ctype_toupper", 8),
    ("__ctype_tolower", 8),
];
const OBJ_STDIN: u32 = 3;
use super::libc_state::OBJ_ERRNO;
const OBJ_CTYPE_TABLES: u32 = 7;
const OBJ_CTYPE_PTRS: u32 = 10;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Stream {
    Stdin,
    Stdout,
    Stderr,
}

#[derive(Copy, Clone, Debug)]
pub enum Shim {
    /// An OpenACC runtime routine (chapter 3).
    Acc(super::openacc::AccFn),
    /// An OpenMP runtime routine, as on one host thread ([`super::libc_omp`]).
    Omp(super::libc_omp::OmpFn),
    /// A file or input function ([`super::libc_file`]).
    File(super::libc_file::FileFn),
    /// `kernel::routine::LAUNCH_DIM_FN`: the launch a routine runs in ([`Machine::launch_dims`]).
    LaunchDim,
    Printf,
    Fprintf,
    Sprintf,
    Snprintf,
    Vprintf,
    Vfprintf,
    Vsprintf,
    Vsnprintf,
    Puts,
    Putchar,
    Fputs,
    Fputc,
    Fflush,
    Fwrite,
    Malloc,
    Calloc,
    Realloc,
    Free,
    PosixMemalign,
    AlignedAlloc,
    Memcpy,
    Memmove,
    Memset,
    Memcmp,
    Strlen,
    Strnlen,
    Strcpy,
    Strncpy,
    Strcat,
    Strncat,
    Strcmp,
    Strncmp,
    Strchr,
    Strrchr,
    Strstr,
    Strdup,
    Strndup,
    Atoi,
    Atol,
    Atof,
    Strtol,
    Strtoul,
    Strtod,
    Strtof,
    Abs,
    Labs,
    Qsort,
    Bsearch,
    Rand,
    Srand,
    RandR,
    Math1(fn(f64) -> f64),
    Math1F(fn(f32) -> f32),
    Math2(fn(f64, f64) -> f64),
    Math2F(fn(f32, f32) -> f32),
    Fma,
    Fmaf,
    Frexp(bool),
    Ldexp(bool),
    Modf(bool),
    Lround(bool),
    Lrint(bool),
    /// creal, cimag, cabs, carg (element kind F32, F64 or LongDouble: the `f`, plain and `l`
    /// forms of C99 7.3).
    ComplexPart(ComplexFn, Kind),
    /// conj, cexp, clog, csqrt, cpow (element kind as for `ComplexPart`).
    ComplexFun(ComplexFn, Kind),
    Time,
    Clock,
    Gettimeofday,
    ClockGettime,
    ClockGetres,
    Exit,
    Abort,
    AssertFail,
    Getenv,
    Atexit,
    ErrnoLocation,
    Expect,
    HugeVal,
    HugeValF,
    Nan(bool),
    Classify(Classify),
    Bswap(u8),
    Popcount,
    Clz(u8),
    Ctz(u8),
    Ffs,
    Memchr,
    Strspn,
    Strcspn,
    Strpbrk,
    Strtok,
    /// div/ldiv/lldiv with the width of the integers.
    Div(u8),
    Difftime,
    Setenv,
    Unsetenv,
    /// `__ctype_b_loc`, `__ctype_toupper_loc`, `__ctype_tolower_loc` (table index).
    CtypeLoc(u32),
    /// `isalpha` … as functions: the class mask.
    IsClass(u16),
    Toupper,
    Tolower,
    Parity,
    Compare2(Compare2),
    Remainder(bool),
    Nop,
    Unsupported(&'static str),
}

/// The comparison macros of `<math.h>` (quiet on NaN).
#[derive(Copy, Clone, Debug)]
pub enum Compare2 {
    Greater,
    GreaterEqual,
    Less,
    LessEqual,
    LessGreater,
    Unordered,
}

#[derive(Copy, Clone, Debug)]
pub enum ComplexFn {
    Real,
    Imag,
    Abs,
    Arg,
    Conj,
    Exp,
    Log,
    Sqrt,
    Pow,
}

#[derive(Copy, Clone, Debug)]
pub enum Classify {
    IsNan,
    IsInf,
    IsInfSign,
    IsFinite,
    IsNormal,
    SignBit,
    FpClassify,
}

fn shim_named(name: &str) -> Option<Shim> {
    use Shim::*;
    // `long double` computes as double (value.rs), so the `l` math functions are the double ones.
    if let Some(d) = name.strip_suffix('l').filter(|d| math1(d).is_some() || math2(d).is_some()) {
        if let Some(f) = math1(d) {
            return Some(Math1(f));
        }
        if let Some(f) = math2(d) {
            return Some(Math2(f));
        }
    }
    if let Some(f) = super::openacc::runtime_fn(name) {
        return Some(Acc(f));
    }
    if let Some(f) = super::libc_omp::runtime_fn(name) {
        return Some(Omp(f));
    }
    if let Some(f) = super::libc_file::runtime_fn(name) {
        return Some(File(f));
    }
    if name == crate::kernel::routine::LAUNCH_DIM_FN {
        return Some(LaunchDim);
    }
    if let Some(f) = math1(name) {
        return Some(Math1(f));
    }
    if let Some(f) = math1f(name) {
        return Some(Math1F(f));
    }
    if let Some(f) = math2(name) {
        return Some(Math2(f));
    }
    if let Some(f) = math2f(name) {
        return Some(Math2F(f));
    }
    let complex = |n: &str| -> Option<ComplexFn> {
        Some(match n {
            "creal" => ComplexFn::Real,
            "cimag" => ComplexFn::Imag,
            "cabs" => ComplexFn::Abs,
            "carg" => ComplexFn::Arg,
            "conj" => ComplexFn::Conj,
            "cexp" => ComplexFn::Exp,
            "clog" => ComplexFn::Log,
            "csqrt" => ComplexFn::Sqrt,
            "cpow" => ComplexFn::Pow,
            _ => return None,
        })
    };
    let as_complex = |c: ComplexFn, ek: Kind| match c {
        ComplexFn::Real | ComplexFn::Imag | ComplexFn::Abs | ComplexFn::Arg => ComplexPart(c, ek),
        _ => ComplexFun(c, ek),
    };
    if let Some(c) = complex(name) {
        return Some(as_complex(c, Kind::F64));
    }
    if let Some(c) = name.strip_suffix('f').and_then(complex) {
        return Some(as_complex(c, Kind::F32));
    }
    // `long double _Complex`: two 16-byte `long double`s, computed as double (value.rs).
    if let Some(c) = name.strip_suffix('l').and_then(complex) {
        return Some(as_complex(c, Kind::LongDouble));
    }
    Some(match name {
        "printf" => Printf,
        "fprintf" => Fprintf,
        "sprintf" => Sprintf,
        "snprintf" => Snprintf,
        "vprintf" => Vprintf,
        "vfprintf" => Vfprintf,
        "vsprintf" => Vsprintf,
        "vsnprintf" => Vsnprintf,
        "puts" => Puts,
        "putchar" => Putchar,
        "fputs" => Fputs,
        "fputc" | "putc" | "_IO_putc" => Fputc,
        "fflush" => Fflush,
        "fwrite" => Fwrite,
        "malloc" => Malloc,
        "calloc" => Calloc,
        "realloc" => Realloc,
        "free" => Free,
        "posix_memalign" => PosixMemalign,
        "aligned_alloc" | "memalign" => AlignedAlloc,
        "memcpy" => Memcpy,
        "memmove" => Memmove,
        "memset" => Memset,
        "memcmp" => Memcmp,
        "strlen" => Strlen,
        "strnlen" => Strnlen,
        "strcpy" => Strcpy,
        "strncpy" => Strncpy,
        "strcat" => Strcat,
        "strncat" => Strncat,
        "strcmp" => Strcmp,
        "strncmp" => Strncmp,
        "strchr" => Strchr,
        "strrchr" => Strrchr,
        "strstr" => Strstr,
        "strdup" => Strdup,
        "strndup" => Strndup,
        "atoi" => Atoi,
        "atol" | "atoll" => Atol,
        "atof" => Atof,
        "strtol" | "strtoll" => Strtol,
        "strtoul" | "strtoull" => Strtoul,
        "strtod" | "strtold" => Strtod,
        "strtof" => Strtof,
        "abs" => Abs,
        "labs" | "llabs" => Labs,
        "qsort" => Qsort,
        "bsearch" => Bsearch,
        "rand" | "random" => Rand,
        "srand" | "srandom" => Srand,
        "rand_r" => RandR,
        "fma" => Fma,
        "fmaf" => Fmaf,
        "frexp" => Frexp(false),
        "frexpf" => Frexp(true),
        "ldexp" | "scalbn" => Ldexp(false),
        "ldexpf" | "scalbnf" => Ldexp(true),
        "modf" => Modf(false),
        "modff" => Modf(true),
        "lround" | "llround" => Lround(false),
        "lroundf" | "llroundf" => Lround(true),
        "lrint" | "llrint" => Lrint(false),
        "lrintf" | "llrintf" => Lrint(true),
        "time" => Time,
        "clock" => Clock,
        "gettimeofday" => Gettimeofday,
        "clock_gettime" => ClockGettime,
        "clock_getres" => ClockGetres,
        "exit" | "_exit" | "_Exit" => Exit,
        "abort" => Abort,
        "__assert_fail" => AssertFail,
        "getenv" => Getenv,
        "atexit" => Atexit,
        "__errno_location" => ErrnoLocation,
        "__builtin_expect" => Expect,
        "__builtin_huge_val" | "__builtin_inf" | "__builtin_huge_vall" | "__builtin_infl" => {
            HugeVal
        }
        "__builtin_huge_valf" | "__builtin_inff" => HugeValF,
        "__builtin_nan" | "__builtin_nanl" | "nan" => Nan(false),
        "__builtin_nanf" | "nanf" => Nan(true),
        "__builtin_isnan" => Classify(self::Classify::IsNan),
        "__builtin_isinf" => Classify(self::Classify::IsInf),
        "__builtin_isinf_sign" => Classify(self::Classify::IsInfSign),
        "__builtin_isfinite" => Classify(self::Classify::IsFinite),
        "__builtin_isnormal" => Classify(self::Classify::IsNormal),
        "__builtin_signbit" | "__builtin_signbitf" | "__builtin_signbitl" => {
            Classify(self::Classify::SignBit)
        }
        "__builtin_fpclassify" => Classify(self::Classify::FpClassify),
        "__builtin_bswap16" => Bswap(2),
        "__builtin_bswap32" => Bswap(4),
        "__builtin_bswap64" => Bswap(8),
        "__builtin_popcount" | "__builtin_popcountl" | "__builtin_popcountll" => Popcount,
        "__builtin_clz" => Clz(32),
        "__builtin_clzl" | "__builtin_clzll" => Clz(64),
        "__builtin_ctz" => Ctz(32),
        "__builtin_ctzl" | "__builtin_ctzll" => Ctz(64),
        "__builtin_ffs" | "ffs" => Ffs,
        "__builtin_va_end" | "va_end" | "__builtin_prefetch" => Nop,
        "memchr" => Memchr,
        "strspn" => Strspn,
        "strcspn" => Strcspn,
        "strpbrk" => Strpbrk,
        "strtok" => Strtok,
        "div" => Div(4),
        "ldiv" | "lldiv" => Div(8),
        "difftime" => Difftime,
        "setenv" => Setenv,
        "unsetenv" => Unsetenv,
        "__ctype_b_loc" => CtypeLoc(0),
        "__ctype_toupper_loc" => CtypeLoc(1),
        "__ctype_tolower_loc" => CtypeLoc(2),
        "isupper" => IsClass(256),
        "islower" => IsClass(512),
        "isalpha" => IsClass(1024),
        "isdigit" => IsClass(2048),
        "isxdigit" => IsClass(4096),
        "isspace" => IsClass(8192),
        "isprint" => IsClass(16384),
        "isgraph" => IsClass(32768),
        "isblank" => IsClass(1),
        "iscntrl" => IsClass(2),
        "ispunct" => IsClass(4),
        "isalnum" => IsClass(8),
        "toupper" => Toupper,
        "tolower" => Tolower,
        "__builtin_parity" | "__builtin_parityl" | "__builtin_parityll" => Parity,
        "__builtin_isgreater" => Compare2(self::Compare2::Greater),
        "__builtin_isgreaterequal" => Compare2(self::Compare2::GreaterEqual),
        "__builtin_isless" => Compare2(self::Compare2::Less),
        "__builtin_islessequal" => Compare2(self::Compare2::LessEqual),
        "__builtin_islessgreater" => Compare2(self::Compare2::LessGreater),
        "__builtin_isunordered" => Compare2(self::Compare2::Unordered),
        "remainder" | "drem" => Remainder(false),
        "remainderf" | "dremf" => Remainder(true),
        "tgamma" | "lgamma" | "erff" | "erfcf" | "tgammaf" | "lgammaf" => {
            Unsupported("tgamma, lgamma and the float error functions of the math library")
        }
        _ => {
            if let Some(rest) = name.strip_prefix("__builtin_") {
                return shim_named(rest);
            }
            return None;
        }
    })
}

/// Bind an extern declaration of the program by name.
pub fn bind(name: &str, types: &TypeTable, ty: TypeId) -> Binding {
    if matches!(types.get(ty), Type::Function(_)) {
        return shim_named(name)
            .map(Binding::Function)
            .unwrap_or(Binding::Unbound);
    }
    match name {
        "stdin" => Binding::Object(OBJ_STDIN),
        "stdout" => Binding::Object(OBJ_STDIN + 1),
        "stderr" => Binding::Object(OBJ_STDIN + 2),
        _ => Binding::Unbound,
    }
}

pub use super::libc_state::ShimState;

impl ShimState {
    fn stream(&self, fp: u64) -> Option<Stream> {
        [Stream::Stdin, Stream::Stdout, Stream::Stderr]
            .into_iter()
            .enumerate()
            .find_map(|(i, s)| (fp == self.object(i as u32)).then_some(s))
    }
}

/// Allocate the C library's objects (right after the string literals).
pub fn init_runtime(m: &mut Machine) -> Result<(), Trap> {
    let base = m.exe.first_runtime_id();
    m.libc.runtime_base = base;
    for (i, (what, size)) in RUNTIME_OBJECTS.iter().enumerate() {
        let size = *size;
        let p = m
            .mem
            .alloc(size, AllocKind::Runtime(what), Space::Host, Loc::default())
            .map_err(|f| m.fault(f, Loc::default()))?;
        if p >> 32 != (base + i as u32) as u64 {
            return Err(Trap::error(Diagnostic::internal(
                "runtime objects are not where the compiler put them",
                None,
            )));
        }
        if (OBJ_STDIN..OBJ_STDIN + 3).contains(&(i as u32)) {
            let file = ptr_word(base + i as u32 - OBJ_STDIN, 0);
            m.mem
                .store_u64(p, file)
                .map_err(|f| m.fault(f, Loc::default()))?;
        }
    }
    // glibc's ctype tables are indexed by -128..=255; the pointer cells point at entry 0.
    let mut class = Vec::with_capacity(384 * 2);
    let mut upper = Vec::with_capacity(384 * 4);
    let mut lower = Vec::with_capacity(384 * 4);
    for c in -128i32..256 {
        class.extend_from_slice(&libc_bind::ctype_bits(c).to_le_bytes());
        upper.extend_from_slice(&libc_bind::toupper(c).to_le_bytes());
        lower.extend_from_slice(&libc_bind::tolower(c).to_le_bytes());
    }
    let tables = [(class, 2u64), (upper, 4), (lower, 4)];
    for (k, (bytes, elem)) in tables.iter().enumerate() {
        let table = ptr_word(base + OBJ_CTYPE_TABLES + k as u32, 0);
        m.mem
            .write_bytes(table, bytes)
            .map_err(|f| m.fault(f, Loc::default()))?;
        let cell = ptr_word(base + OBJ_CTYPE_PTRS + k as u32, 0);
        m.mem
            .store_u64(cell, table + 128 * elem)
            .map_err(|f| m.fault(f, Loc::default()))?;
    }
    Ok(())
}

/// `argc`, `argv` and `envp` for `main`.
pub fn build_argv(m: &mut Machine, argv: &[String]) -> Result<(u64, u64, u64), Trap> {
    let mut ptrs = Vec::new();
    for a in argv {
        let mut b = a.as_bytes().to_vec();
        b.push(0);
        ptrs.push(
            m.mem
                .alloc_init(
                    &b,
                    AllocKind::Runtime("a command-line argument"),
                    false,
                    Loc::default(),
                )
                .map_err(|f| m.fault(f, Loc::default()))?,
        );
    }
    ptrs.push(0);
    let bytes: Vec<u8> = ptrs.iter().flat_map(|p| p.to_le_bytes()).collect();
    let argv_ptr = m
        .mem
        .alloc_init(&bytes, AllocKind::Runtime("argv"), false, Loc::default())
        .map_err(|f| m.fault(f, Loc::default()))?;
    let envp = m
        .mem
        .alloc_init(&[0; 8], AllocKind::Runtime("envp"), false, Loc::default())
        .map_err(|f| m.fault(f, Loc::default()))?;
    Ok((argv.len() as u64, argv_ptr, envp))
}

/// Run the `atexit` handlers, last registered first.
pub fn run_atexit(m: &mut Machine) -> Result<(), Trap> {
    while let Some(f) = m.libc.atexit.pop() {
        m.call_pointer(f, &[], Loc::default())?;
    }
    Ok(())
}

#[inline(always)]
fn f64b(x: u64) -> f64 {
    f64::from_bits(x)
}
#[inline(always)]
fn f32b(x: u64) -> f32 {
    f32::from_bits(x as u32)
}

/// The closure of a call to a shim. Hot math functions get direct closures.
pub fn compile_call(
    shim: Shim,
    args: Vec<ExprFn>,
    kinds: &[Kind],
    dest: Option<usize>,
    loc: Loc,
) -> ExprFn {
    let mut it = args.into_iter();
    match (shim, kinds.len()) {
        (Shim::Math1(f), 1) => {
            let a = it.next().unwrap_or_else(|| ef(|_| Ok(0)));
            return ef(move |m| Ok(f(f64b(a(m)?)).to_bits()));
        }
        (Shim::Math1F(f), 1) => {
            let a = it.next().unwrap_or_else(|| ef(|_| Ok(0)));
            return ef(move |m| Ok(f(f32b(a(m)?)).to_bits() as u64));
        }
        (Shim::Math2(f), 2) => {
            let (a, b) = (
                it.next().unwrap_or_else(|| ef(|_| Ok(0))),
                it.next().unwrap_or_else(|| ef(|_| Ok(0))),
            );
            return ef(move |m| {
                let y = f64b(b(m)?);
                Ok(f(f64b(a(m)?), y).to_bits())
            });
        }
        (Shim::Compare2(c), 2) => {
            let (ka, kb) = (kinds[0], kinds[1]);
            let (a, b) = (
                it.next().unwrap_or_else(|| ef(|_| Ok(0))),
                it.next().unwrap_or_else(|| ef(|_| Ok(0))),
            );
            return ef(move |m| {
                let y = as_f64(kb, b(m)?);
                let x = as_f64(ka, a(m)?);
                let r = match c {
                    Compare2::Greater => x > y,
                    Compare2::GreaterEqual => x >= y,
                    Compare2::Less => x < y,
                    Compare2::LessEqual => x <= y,
                    Compare2::LessGreater => x.partial_cmp(&y).is_some_and(|o| o.is_ne()),
                    Compare2::Unordered => x.is_nan() || y.is_nan(),
                };
                Ok(r as u64)
            });
        }
        (Shim::Classify(c), n) if n >= 1 => {
            let k = kinds[n - 1];
            let args: Vec<ExprFn> = it.collect();
            return ef(move |m| {
                let v = eval_args(m, &args)?;
                let x = as_f64(k, v.last().copied().unwrap_or(0));
                Ok(classify(c, x, k, &v))
            });
        }
        _ => {}
    }
    let args: Vec<ExprFn> = it.collect();
    ef(move |m| {
        let v = eval_args(m, &args)?;
        let d = dest.map(|slot| m.regs[m.bp + slot]).unwrap_or(0);
        let r = call(m, shim, &v, d, loc)?;
        Ok(if dest.is_some() { d } else { r })
    })
}

/// Evaluate call arguments right to left, as gcc does on x86-64.
fn eval_args(m: &mut Machine, args: &[ExprFn]) -> Result<Vec<u64>, Trap> {
    let mut v = vec![0; args.len()];
    for (i, a) in args.iter().enumerate().rev() {
        v[i] = a(m)?;
    }
    Ok(v)
}

fn arg(args: &[u64], i: usize) -> u64 {
    args.get(i).copied().unwrap_or(0)
}

/// Write to a stream: stdout, stderr, or a file from `fopen` ([`super::libc_file`]); `false`
/// when the stream is not open for writing (stdin, a file opened to read: glibc's EBADF).
fn write_stream(m: &mut Machine, fp: u64, bytes: &[u8], loc: Loc) -> Result<bool, Trap> {
    match m.libc.stream(fp) {
        Some(Stream::Stdout) => m.write_stdout(bytes),
        Some(Stream::Stderr) => m.write_stderr(bytes),
        Some(Stream::Stdin) => {
            set_errno(m, super::libc_file::EBADF);
            return Ok(false);
        }
        None => return super::libc_file::write(m, fp, bytes, loc),
    }
    Ok(true)
}

/// Copy `out` plus a NUL into the buffer at `buf`, at most `cap` bytes in all.
fn store_string(
    m: &mut Machine,
    buf: u64,
    out: &[u8],
    cap: Option<u64>,
    loc: Loc,
) -> Result<(), Trap> {
    let n = match cap {
        Some(0) => return Ok(()),
        Some(c) => (c - 1).min(out.len() as u64) as usize,
        None => out.len(),
    };
    let mut b = out[..n].to_vec();
    b.push(0);
    m.mem.write_bytes(buf, &b).map_err(|f| m.fault(f, loc))
}

fn malloc(m: &mut Machine, size: u64, loc: Loc) -> Result<u64, Trap> {
    m.mem
        .alloc(size, AllocKind::Heap, Space::Host, loc)
        .map_err(|f| m.fault(f, loc))
}

/// `malloc(size)` as [`call`] runs it, for a native-code engine's direct calls (issue 15: a
/// program of many small allocations pays no call dispatch).
pub fn heap_malloc(m: &mut Machine, size: u64, loc: Loc) -> Result<u64, Trap> {
    malloc(m, size, loc)
}

/// [`heap_malloc`] for a native engine whose span table is in step with the memory
/// ([`crate::exec::memory::Memory::malloc_in_step`]): with where the block's bytes are, for the
/// engine to set its entry itself.
#[inline]
pub fn heap_malloc_in_step(m: &mut Machine, size: u64, loc: Loc) -> Result<(u64, HostSpan), Trap> {
    m.mem.malloc_in_step(size, loc).map_err(|f| m.fault(f, loc))
}

/// [`heap_calloc`] as [`heap_malloc_in_step`] (an overflowing size gives null, no block).
#[inline]
pub fn heap_calloc_in_step(m: &mut Machine, n: u64, size: u64, loc: Loc) -> Result<(u64, HostSpan), Trap> {
    match n.checked_mul(size) {
        Some(bytes) => heap_malloc_in_step(m, bytes, loc),
        None => Ok((0, HostSpan::default())),
    }
}

/// [`heap_free`] as [`heap_malloc_in_step`] (the freed block's entry is to be zero).
#[inline]
pub fn heap_free_in_step(m: &mut Machine, ptr: u64, loc: Loc) -> Result<(), Trap> {
    m.mem.free_in_step(ptr, loc).map_err(|f| m.fault(f, loc))
}

/// `calloc(n, size)` as [`call`] runs it (blocks are zeroed; an overflowing size gives null).
pub fn heap_calloc(m: &mut Machine, n: u64, size: u64, loc: Loc) -> Result<u64, Trap> {
    match n.checked_mul(size) {
        Some(bytes) => malloc(m, bytes, loc),
        None => Ok(0),
    }
}

/// `free(ptr)` as [`call`] runs it.
pub fn heap_free(m: &mut Machine, ptr: u64, loc: Loc) -> Result<(), Trap> {
    m.mem.free_heap(ptr, loc).map_err(|f| m.fault(f, loc))
}

fn cstr(m: &Machine, p: u64, loc: Loc) -> Result<Vec<u8>, Trap> {
    m.mem.read_c_string(p, None).map_err(|f| m.fault(f, loc))
}

fn set_errno(m: &mut Machine, v: u32) {
    let p = m.libc.object(OBJ_ERRNO);
    let _ = m.mem.store_u32(p, v);
}

fn sign_i32(x: u64) -> i32 {
    x as i32
}

/// glibc 2.36 `msort_with_tmp`: top-down merge sort, the left half first.
fn msort(
    m: &mut Machine,
    b: u64,
    n: u64,
    s: u64,
    cmp: u64,
    tmp: &mut Vec<u8>,
    loc: Loc,
) -> Result<(), Trap> {
    if n <= 1 {
        return Ok(());
    }
    let n1 = n / 2;
    let n2 = n - n1;
    let b2 = b + n1 * s;
    msort(m, b, n1, s, cmp, tmp, loc)?;
    msort(m, b2, n2, s, cmp, tmp, loc)?;
    tmp.clear();
    let (mut p1, mut p2, mut k1, mut k2) = (b, b2, n1, n2);
    while k1 > 0 && k2 > 0 {
        let c = sign_i32(m.call_pointer(cmp, &[p1, p2], loc)?);
        let src = if c <= 0 {
            let p = p1;
            p1 += s;
            k1 -= 1;
            p
        } else {
            let p = p2;
            p2 += s;
            k2 -= 1;
            p
        };
        let bytes = m.mem.read_bytes(src, s).map_err(|f| m.fault(f, loc))?;
        tmp.extend_from_slice(&bytes);
    }
    if k1 > 0 {
        let bytes = m.mem.read_bytes(p1, k1 * s).map_err(|f| m.fault(f, loc))?;
        tmp.extend_from_slice(&bytes);
    }
    let out = std::mem::take(tmp);
    m.mem.write_bytes(b, &out).map_err(|f| m.fault(f, loc))?;
    *tmp = out;
    Ok(())
}

fn now_since_epoch() -> std::time::Duration {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default()
}

/// Tell the run's checker about the `len` bytes at `addr` that a C library function reads or
/// writes, as one access (`memcpy` into `acc_malloc` memory on the host, a copy of data whose
/// newest value is on the device…).
fn report_bytes(m: &mut Machine, addr: u64, len: u64, write: bool, loc: Loc) {
    if len > 0 {
        super::check::access(m, addr, len, write, false, loc);
    }
}

/// Run a shim with evaluated arguments. `ret` receives record/complex results.
pub fn call(m: &mut Machine, shim: Shim, args: &[u64], ret: u64, loc: Loc) -> Result<u64, Trap> {
    use Shim::*;
    let a = |i| arg(args, i);
    macro_rules! mem {
        ($e:expr) => {
            match $e {
                Ok(v) => v,
                Err(f) => return Err(m.fault(f, loc)),
            }
        };
    }
    Ok(match shim {
        Acc(f) => super::openacc::call_runtime(m, f, args, loc)?,
        Omp(f) => super::libc_omp::call(m, f, args, loc)?,
        File(f) => super::libc_file::call(m, f, args, loc)?,
        LaunchDim => m.launch_dims.get(a(0) as usize).copied().unwrap_or(1),
        Printf => printf_to(
            m,
            Out::Stdout,
            a(0),
            args.get(1..).unwrap_or(&[]),
            None,
            loc,
        )?,
        Fprintf => printf_to(
            m,
            Out::Stream(a(0)),
            a(1),
            args.get(2..).unwrap_or(&[]),
            None,
            loc,
        )?,
        Sprintf => printf_to(
            m,
            Out::Buffer(a(0), None),
            a(1),
            args.get(2..).unwrap_or(&[]),
            None,
            loc,
        )?,
        Snprintf => printf_to(
            m,
            Out::Buffer(a(0), Some(a(1))),
            a(2),
            args.get(3..).unwrap_or(&[]),
            None,
            loc,
        )?,
        Vprintf => printf_to(m, Out::Stdout, a(0), &[], Some(a(1)), loc)?,
        Vfprintf => printf_to(m, Out::Stream(a(0)), a(1), &[], Some(a(2)), loc)?,
        Vsprintf => printf_to(m, Out::Buffer(a(0), None), a(1), &[], Some(a(2)), loc)?,
        Vsnprintf => printf_to(m, Out::Buffer(a(0), Some(a(1))), a(2), &[], Some(a(3)), loc)?,
        Puts => {
            let mut s = cstr(m, a(0), loc)?;
            s.push(b'\n');
            m.write_stdout(&s);
            s.len().min(i32::MAX as usize) as u64
        }
        Putchar => {
            m.write_stdout(&[a(0) as u8]);
            a(0) as u8 as u64
        }
        Fputs => {
            let s = cstr(m, a(0), loc)?;
            if write_stream(m, a(1), &s, loc)? {
                1
            } else {
                u64::MAX
            }
        }
        Fputc => {
            if write_stream(m, a(1), &[a(0) as u8], loc)? {
                a(0) as u8 as u64
            } else {
                u64::MAX
            }
        }
        Fflush => {
            if a(0) == 0 || m.libc.stream(a(0)) == Some(Stream::Stdout) {
                m.flush_stdout();
            }
            if a(0) == 0 || m.libc.stream(a(0)).is_none() {
                super::libc_file::flush(m, a(0), loc)?
            } else {
                0
            }
        }
        Fwrite => {
            let n = a(1).saturating_mul(a(2));
            let bytes = mem!(m.mem.read_bytes(a(0), n)).to_vec();
            if !write_stream(m, a(3), &bytes, loc)? || a(1) == 0 {
                0
            } else {
                a(2)
            }
        }
        Malloc => malloc(m, a(0), loc)?,
        Calloc => heap_calloc(m, a(0), a(1), loc)?,
        Realloc => {
            let (p, n) = (a(0), a(1));
            if p == 0 {
                return malloc(m, n, loc);
            }
            let old = match m.mem.allocation(AllocId((p >> 32) as u32)) {
                Some(al) if al.is_heap() && al.live && p as u32 == 0 => al.size(),
                _ => {
                    let f = m.mem.free_heap(p, loc).err().unwrap_or(MemFault {
                        kind: FaultKind::InvalidFree,
                        alloc: None,
                        ptr: p,
                        size: 0,
                        write: true,
                    });
                    return Err(m.fault(f, loc));
                }
            };
            if n == 0 {
                mem!(m.mem.free_heap(p, loc));
                return Ok(0);
            }
            let q = malloc(m, n, loc)?;
            if q == 0 {
                return Ok(0);
            }
            mem!(m.mem.copy(q, p, old.min(n)));
            mem!(m.mem.free_heap(p, loc));
            q
        }
        Free => {
            heap_free(m, a(0), loc)?;
            0
        }
        PosixMemalign => {
            let p = malloc(m, a(2), loc)?;
            mem!(m.mem.store_u64(a(0), p));
            if p == 0 {
                12
            } else {
                0
            }
        }
        AlignedAlloc => malloc(m, a(1), loc)?,
        Memcpy | Memmove => {
            report_bytes(m, a(1), a(2), false, loc);
            report_bytes(m, a(0), a(2), true, loc);
            mem!(m.mem.copy(a(0), a(1), a(2)));
            a(0)
        }
        Memset => {
            report_bytes(m, a(0), a(2), true, loc);
            mem!(m.mem.fill(a(0), a(1) as u8, a(2)));
            a(0)
        }
        Memcmp => {
            let x = mem!(m.mem.read_bytes(a(0), a(2))).to_vec();
            let y = mem!(m.mem.read_bytes(a(1), a(2)));
            x.iter()
                .zip(y.iter())
                .find(|(p, q)| p != q)
                .map(|(p, q)| (*p as i32 - *q as i32) as i64 as u64)
                .unwrap_or(0)
        }
        Strlen => cstr(m, a(0), loc)?.len() as u64,
        Strnlen => mem!(m.mem.read_c_string(a(0), Some(a(1) as usize))).len() as u64,
        Strcpy => {
            let mut s = cstr(m, a(1), loc)?;
            s.push(0);
            mem!(m.mem.write_bytes(a(0), &s));
            a(0)
        }
        Strncpy => {
            mem!(m.mem.check_writable(a(0), a(2)));
            let n = a(2) as usize;
            let mut s = mem!(m.mem.read_c_string(a(1), Some(n)));
            s.resize(n, 0);
            mem!(m.mem.write_bytes(a(0), &s));
            a(0)
        }
        Strcat | Strncat => {
            let d = cstr(m, a(0), loc)?;
            let mut s = match shim {
                Strncat => mem!(m.mem.read_c_string(a(1), Some(a(2) as usize))),
                _ => cstr(m, a(1), loc)?,
            };
            s.push(0);
            mem!(m.mem.write_bytes(a(0).wrapping_add(d.len() as u64), &s));
            a(0)
        }
        Strcmp | Strncmp => {
            let limit = if let Strncmp = shim {
                Some(a(2) as usize)
            } else {
                None
            };
            let x = mem!(m.mem.read_c_string(a(0), limit));
            let y = mem!(m.mem.read_c_string(a(1), limit));
            let n = x.len().max(y.len());
            (0..n)
                .map(|i| {
                    (
                        x.get(i).copied().unwrap_or(0),
                        y.get(i).copied().unwrap_or(0),
                    )
                })
                .find(|(p, q)| p != q)
                .map(|(p, q)| (p as i32 - q as i32) as i64 as u64)
                .unwrap_or(0)
        }
        Strchr | Strrchr => {
            let mut s = cstr(m, a(0), loc)?;
            s.push(0);
            let c = a(1) as u8;
            let pos = if let Strchr = shim {
                s.iter().position(|&b| b == c)
            } else {
                s.iter().rposition(|&b| b == c)
            };
            pos.map(|i| a(0).wrapping_add(i as u64)).unwrap_or(0)
        }
        Strstr => {
            let h = cstr(m, a(0), loc)?;
            let n = cstr(m, a(1), loc)?;
            if n.is_empty() {
                a(0)
            } else {
                h.windows(n.len())
                    .position(|w| w == n.as_slice())
                    .map(|i| a(0) + i as u64)
                    .unwrap_or(0)
            }
        }
        Strdup | Strndup => {
            let mut s = match shim {
                Strndup => mem!(m.mem.read_c_string(a(0), Some(a(1) as usize))),
                _ => cstr(m, a(0), loc)?,
            };
            s.push(0);
            let p = malloc(m, s.len() as u64, loc)?;
            mem!(m.mem.write_bytes(p, &s));
            p
        }
        Atoi => {
            let s = cstr(m, a(0), loc)?;
            libc_bind::strtol(&s, 10).0 as i32 as i64 as u64
        }
        Atol => {
            let s = cstr(m, a(0), loc)?;
            libc_bind::strtol(&s, 10).0 as u64
        }
        Atof => {
            let s = cstr(m, a(0), loc)?;
            libc_bind::strtod(&s).0.to_bits()
        }
        Strtol | Strtoul | Strtod | Strtof => {
            let s = cstr(m, a(0), loc)?;
            let base = a(2) as i32;
            let (v, n, errno) = match shim {
                Strtol => {
                    let (v, n, e) = libc_bind::strtol(&s, base);
                    (v as u64, n, e)
                }
                Strtoul => libc_bind::strtoul(&s, base),
                Strtod => {
                    let (v, n, e) = libc_bind::strtod(&s);
                    (v.to_bits(), n, e)
                }
                _ => {
                    let (v, n, e) = libc_bind::strtof(&s);
                    (v.to_bits() as u64, n, e)
                }
            };
            if let Some(e) = errno {
                set_errno(m, e);
            }
            if a(1) != 0 {
                mem!(m.mem.store_u64(a(1), a(0).wrapping_add(n as u64)));
            }
            v
        }
        Abs => (a(0) as i32).wrapping_abs() as i64 as u64,
        Labs => (a(0) as i64).wrapping_abs() as u64,
        Qsort => {
            let (base, n, s, cmp) = (a(0), a(1), a(2), a(3));
            if n > 1 && s > 0 {
                mem!(m.mem.read_bytes(base, n.saturating_mul(s)));
                let mut tmp = Vec::new();
                msort(m, base, n, s, cmp, &mut tmp, loc)?;
            }
            0
        }
        Bsearch => {
            let (key, base, n, s, cmp) = (a(0), a(1), a(2), a(3), a(4));
            let (mut l, mut u) = (0u64, n);
            while l < u {
                let idx = (l + u) / 2;
                let p = base.wrapping_add(idx.wrapping_mul(s));
                let c = sign_i32(m.call_pointer(cmp, &[key, p], loc)?);
                if c < 0 {
                    u = idx;
                } else if c > 0 {
                    l = idx + 1;
                } else {
                    return Ok(p);
                }
            }
            0
        }
        Rand => m.libc.random.next_int() as u64,
        Srand => {
            m.libc.random = libc_bind::Random::new(a(0) as u32);
            0
        }
        RandR => {
            let mut next = mem!(m.mem.load_u32(a(0)));
            let mut step = || {
                next = next.wrapping_mul(1103515245).wrapping_add(12345);
                next / 65536
            };
            let mut result = step() % 2048;
            result = (result << 10) ^ (step() % 1024);
            result = (result << 10) ^ (step() % 1024);
            mem!(m.mem.store_u32(a(0), next));
            result as u64
        }
        Math1(f) => f(f64b(a(0))).to_bits(),
        Math1F(f) => f(f32b(a(0))).to_bits() as u64,
        Math2(f) => f(f64b(a(0)), f64b(a(1))).to_bits(),
        Math2F(f) => f(f32b(a(0)), f32b(a(1))).to_bits() as u64,
        Fma => f64b(a(0)).mul_add(f64b(a(1)), f64b(a(2))).to_bits(),
        Fmaf => f32b(a(0)).mul_add(f32b(a(1)), f32b(a(2))).to_bits() as u64,
        Frexp(single) => {
            let x = farg(single, a(0));
            let (mant, e) = frexp(x);
            mem!(m.mem.store_u32(a(1), e as u32));
            ret_f(single, mant)
        }
        Ldexp(single) => {
            let x = farg(single, a(0));
            let e = a(1) as i32;
            if single {
                ldexp_f32(f32b(a(0)), e).to_bits() as u64
            } else {
                ldexp(x, e).to_bits()
            }
        }
        Modf(single) => {
            let x = farg(single, a(0));
            let ip = if x.is_infinite() { x } else { x.trunc() };
            let frac = if x.is_infinite() {
                0.0f64.copysign(x)
            } else {
                (x - ip).copysign(x)
            };
            if single {
                mem!(m.mem.store_u32(a(1), (ip as f32).to_bits()));
            } else {
                mem!(m.mem.store_u64(a(1), ip.to_bits()));
            }
            ret_f(single, frac)
        }
        Lround(single) => super::value::cvtt64(farg(single, a(0)).round()) as u64,
        Lrint(single) => super::value::cvtt64(farg(single, a(0)).round_ties_even()) as u64,
        ComplexPart(c, ek) => {
            let (re, im) = mem!(m.load_complex(ek, a(0)));
            let r = match c {
                ComplexFn::Real => re,
                ComplexFn::Imag => im,
                ComplexFn::Abs => re.hypot(im),
                _ => im.atan2(re),
            };
            ret_f(ek == Kind::F32, r)
        }
        ComplexFun(c, ek) => {
            let (re, im) = mem!(m.load_complex(ek, a(0)));
            let w = if let ComplexFn::Pow = c {
                mem!(m.load_complex(ek, a(1)))
            } else {
                (0.0, 0.0)
            };
            let (r, i) = complex_fun(c, re, im, w);
            mem!(m.store_complex(ek, ret, r, i));
            ret
        }
        Time => {
            let t = now_since_epoch().as_secs();
            if a(0) != 0 {
                mem!(m.mem.store_u64(a(0), t));
            }
            t
        }
        Clock => m.libc.start.elapsed().as_micros() as u64,
        Gettimeofday => {
            let d = now_since_epoch();
            if a(0) != 0 {
                mem!(m.mem.store_u64(a(0), d.as_secs()));
                mem!(m
                    .mem
                    .store_u64(a(0).wrapping_add(8), d.subsec_micros() as u64));
            }
            0
        }
        ClockGettime => {
            let d = if a(0) == 0 {
                now_since_epoch()
            } else {
                m.libc.start.elapsed()
            };
            mem!(m.mem.store_u64(a(1), d.as_secs()));
            mem!(m
                .mem
                .store_u64(a(1).wrapping_add(8), d.subsec_nanos() as u64));
            0
        }
        ClockGetres => {
            if a(1) != 0 {
                mem!(m.mem.store_u64(a(1), 0));
                mem!(m.mem.store_u64(a(1).wrapping_add(8), 1));
            }
            0
        }
        Exit => return Err(Trap::exit(a(0) as i32)),
        Abort => return Err(Trap::abort()),
        AssertFail => {
            let expr = cstr(m, a(0), loc)?;
            let file = cstr(m, a(1), loc)?;
            let func = cstr(m, a(3), loc)?;
            let mut msg = Vec::new();
            msg.extend_from_slice(m.libc.argv0.as_bytes());
            msg.extend_from_slice(b": ");
            msg.extend_from_slice(&file);
            msg.extend_from_slice(format!(":{}: ", a(2) as u32).as_bytes());
            msg.extend_from_slice(&func);
            msg.extend_from_slice(b": Assertion `");
            msg.extend_from_slice(&expr);
            msg.extend_from_slice(b"' failed.\n");
            m.write_stderr(&msg);
            return Err(Trap::abort());
        }
        Getenv => {
            let name = cstr(m, a(0), loc)?;
            if let Some(&p) = m.libc.env.get(&name) {
                return Ok(p);
            }
            let value = m.libc.initial_env(&name);
            match value {
                None => 0,
                Some(v) => {
                    let mut b = v;
                    b.push(0);
                    let p = mem!(m.mem.alloc_init(
                        &b,
                        AllocKind::Runtime("an environment variable"),
                        false,
                        loc
                    ));
                    m.libc.env.insert(name, p);
                    p
                }
            }
        }
        Atexit => {
            m.libc.atexit.push(a(0));
            0
        }
        ErrnoLocation => m.libc.object(OBJ_ERRNO),
        Expect => a(0),
        HugeVal => f64::INFINITY.to_bits(),
        HugeValF => f32::INFINITY.to_bits() as u64,
        Nan(single) => ret_f(single, f64::NAN),
        Classify(c) => classify(c, f64b(a(0)), Kind::F64, args),
        Bswap(2) => (a(0) as u16).swap_bytes() as u64,
        Bswap(4) => (a(0) as u32).swap_bytes() as u64,
        Bswap(_) => a(0).swap_bytes(),
        Popcount => a(0).count_ones() as u64,
        Clz(32) => (a(0) as u32).leading_zeros() as u64,
        Clz(_) => a(0).leading_zeros() as u64,
        Ctz(32) => (a(0) as u32).trailing_zeros() as u64,
        Ctz(_) => a(0).trailing_zeros() as u64,
        Ffs => {
            let x = a(0) as u32;
            if x == 0 {
                0
            } else {
                x.trailing_zeros() as u64 + 1
            }
        }
        Memchr => {
            let c = a(1) as u8;
            let mut i = 0u64;
            loop {
                if i >= a(2) {
                    break 0;
                }
                let p = a(0).wrapping_add(i);
                if mem!(m.mem.load_u8(p)) == c {
                    break p;
                }
                i += 1;
            }
        }
        Strspn | Strcspn => {
            let s = cstr(m, a(0), loc)?;
            let set = cstr(m, a(1), loc)?;
            let accept = matches!(shim, Strspn);
            s.iter().take_while(|c| set.contains(c) == accept).count() as u64
        }
        Strpbrk => {
            let s = cstr(m, a(0), loc)?;
            let set = cstr(m, a(1), loc)?;
            s.iter()
                .position(|c| set.contains(c))
                .map(|i| a(0) + i as u64)
                .unwrap_or(0)
        }
        Strtok => {
            let start = if a(0) != 0 { a(0) } else { m.libc.strtok_next };
            if start == 0 {
                return Ok(0);
            }
            let s = cstr(m, start, loc)?;
            let set = cstr(m, a(1), loc)?;
            let skip = s.iter().take_while(|c| set.contains(c)).count();
            if skip == s.len() {
                m.libc.strtok_next = 0;
                return Ok(0);
            }
            let tok = start + skip as u64;
            let len = s[skip..].iter().take_while(|c| !set.contains(c)).count();
            if skip + len == s.len() {
                m.libc.strtok_next = 0;
            } else {
                let end = tok + len as u64;
                mem!(m.mem.store_u8(end, 0));
                m.libc.strtok_next = end + 1;
            }
            tok
        }
        Div(width) => {
            let (x, y) = (a(0) as i64, a(1) as i64);
            let (x, y) = if width == 4 {
                (x as i32 as i64, y as i32 as i64)
            } else {
                (x, y)
            };
            let min = if width == 4 {
                i32::MIN as i64
            } else {
                i64::MIN
            };
            if y == 0 {
                return Err(super::machine::arith_trap(
                    super::machine::ArithFault::DivZero,
                    loc,
                ));
            }
            if x == min && y == -1 {
                return Err(super::machine::arith_trap(
                    super::machine::ArithFault::Overflow,
                    loc,
                ));
            }
            let (q, r) = (x / y, x % y);
            let k = if width == 4 { Kind::U32 } else { Kind::U64 };
            mem!(m.store_kind(k, ret, q as u64));
            mem!(m.store_kind(k, ret.wrapping_add(width as u64), r as u64));
            ret
        }
        Difftime => ((a(0) as i64).wrapping_sub(a(1) as i64) as f64).to_bits(),
        Setenv | Unsetenv => {
            let name = cstr(m, a(0), loc)?;
            if name.is_empty() || name.contains(&b'=') {
                set_errno(m, libc_bind::EINVAL);
                return Ok(u64::MAX);
            }
            if let Setenv = shim {
                let exists = m.libc.env.contains_key(&name) || m.libc.initial_env(&name).is_some();
                if exists && a(2) == 0 {
                    return Ok(0);
                }
                let mut v = cstr(m, a(1), loc)?;
                v.push(0);
                let p = mem!(m.mem.alloc_init(
                    &v,
                    AllocKind::Runtime("an environment variable"),
                    false,
                    loc
                ));
                m.libc.env.insert(name, p);
            } else {
                m.libc.env.insert(name, 0);
            }
            0
        }
        CtypeLoc(k) => m.libc.object(OBJ_CTYPE_PTRS + k),
        IsClass(mask) => {
            let c = a(0) as i32;
            if (-128..256).contains(&c) {
                (libc_bind::ctype_bits(c) & mask) as u64
            } else {
                0
            }
        }
        Toupper | Tolower => {
            let c = a(0) as i32;
            let r = if !(-128..256).contains(&c) {
                c
            } else if let Toupper = shim {
                libc_bind::toupper(c)
            } else {
                libc_bind::tolower(c)
            };
            r as i64 as u64
        }
        Parity => (a(0).count_ones() & 1) as u64,
        Compare2(c) => {
            let (x, y) = (f64b(a(0)), f64b(a(1)));
            let r = match c {
                self::Compare2::Greater => x > y,
                self::Compare2::GreaterEqual => x >= y,
                self::Compare2::Less => x < y,
                self::Compare2::LessEqual => x <= y,
                self::Compare2::LessGreater => x.partial_cmp(&y).is_some_and(|o| o.is_ne()),
                self::Compare2::Unordered => x.is_nan() || y.is_nan(),
            };
            r as u64
        }
        Remainder(single) => {
            if single {
                (remainder(f32b(a(0)) as f64, f32b(a(1)) as f64) as f32).to_bits() as u64
            } else {
                remainder(f64b(a(0)), f64b(a(1))).to_bits()
            }
        }
        Nop => 0,
        Unsupported(what) => {
            return Err(Trap::error(Diagnostic::unsupported(what.to_string(), loc)))
        }
    })
}
