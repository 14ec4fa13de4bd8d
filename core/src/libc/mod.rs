//! The C library a program calls: pure pieces (formatting, conversions, glibc's `rand`) live here;
//! the interpreter binds them to program memory.
//!
//! Every function here reproduces glibc 2.36 on x86-64 Linux in the C locale byte for byte, and
//! the tests check that differentially against the system's gcc and glibc where they exist.
//!
//! - [`printf`]: the printf-family formatting engine.
//! - [`rand`]: `rand`, `srand`, `random`, `srandom`, `rand_r`.
//! - [`scanf`]: the scanf-family conversion engine.
//! - [`strconv`]: `strtol` and friends, `atoi`, `strtod`, `strtof`, `atof`.
//! - [`ctype`]: `isalpha` and friends, `toupper`, `tolower`.
//! - [`complex`]: arithmetic on complex values, as gcc's code and libgcc's helpers do it.

pub mod complex;
pub mod ctype;
pub mod printf;
pub mod rand;
pub mod scanf;
pub mod strconv;

#[cfg(test)]
mod gcc;
