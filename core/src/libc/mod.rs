//! The C library a program calls: pure pieces (formatting, conversions, glibc's `rand`) live here;
//! the interpreter binds them to program memory.
