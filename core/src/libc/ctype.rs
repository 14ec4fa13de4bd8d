//! `<ctype.h>` in the C locale, returning exactly what glibc returns.
//!
//! glibc's classification macros index the `__ctype_b` table and mask one bit, so a true result
//! is that bit's value (`isalpha('a') == 1024`, `isdigit('7') == 2048`), not 1; programs that
//! print the result see it. The masks below are glibc's on little-endian machines.
//!
//! The table covers -128..=255 (so `EOF` and signed `char` values work); bytes 128..=255 and
//! their signed aliases belong to no class in the C locale. Other arguments are undefined
//! behaviour in C; here they belong to no class and map to themselves.

/// glibc's `_IS*` bit masks (`<ctype.h>`, little-endian layout).
pub mod mask {
    pub const UPPER: i32 = 256;
    pub const LOWER: i32 = 512;
    pub const ALPHA: i32 = 1024;
    pub const DIGIT: i32 = 2048;
    pub const XDIGIT: i32 = 4096;
    pub const SPACE: i32 = 8192;
    pub const PRINT: i32 = 16384;
    pub const GRAPH: i32 = 32768;
    pub const BLANK: i32 = 1;
    pub const CNTRL: i32 = 2;
    pub const PUNCT: i32 = 4;
    pub const ALNUM: i32 = 8;
}

/// The `__ctype_b` entry of `c` in the C locale: the OR of its classes' masks.
pub fn class_bits(c: i32) -> i32 {
    use mask::*;
    let Ok(byte) = u8::try_from(c) else { return 0 };
    let mut bits = 0;
    if byte.is_ascii_uppercase() {
        bits |= UPPER | ALPHA | ALNUM;
    }
    if byte.is_ascii_lowercase() {
        bits |= LOWER | ALPHA | ALNUM;
    }
    if byte.is_ascii_digit() {
        bits |= DIGIT | ALNUM;
    }
    if byte.is_ascii_hexdigit() {
        bits |= XDIGIT;
    }
    if matches!(byte, b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' ') {
        bits |= SPACE;
    }
    if matches!(byte, b'\t' | b' ') {
        bits |= BLANK;
    }
    if byte < 0x20 || byte == 0x7f {
        bits |= CNTRL;
    }
    if (0x20..0x7f).contains(&byte) {
        bits |= PRINT;
    }
    if (0x21..0x7f).contains(&byte) {
        bits |= GRAPH;
    }
    if byte.is_ascii_punctuation() {
        bits |= PUNCT;
    }
    bits
}

macro_rules! classifier {
    ($($name:ident => $mask:ident),* $(,)?) => {$(
        #[doc = concat!("glibc's `", stringify!($name), "`: `mask::", stringify!($mask), "` if `c` is in the class, else 0.")]
        pub fn $name(c: i32) -> i32 {
            class_bits(c) & mask::$mask
        }
    )*};
}

classifier! {
    isupper => UPPER,
    islower => LOWER,
    isalpha => ALPHA,
    isdigit => DIGIT,
    isxdigit => XDIGIT,
    isspace => SPACE,
    isprint => PRINT,
    isgraph => GRAPH,
    isblank => BLANK,
    iscntrl => CNTRL,
    ispunct => PUNCT,
    isalnum => ALNUM,
}

/// glibc's `toupper` in the C locale: `a`..=`z` map to upper case, and (as glibc's table does)
/// signed `char` values -128..=-2 map to their unsigned byte 128..=254.
pub fn toupper(c: i32) -> i32 {
    if (i32::from(b'a')..=i32::from(b'z')).contains(&c) {
        c - 32
    } else {
        unsigned_alias(c)
    }
}

/// glibc's `tolower` in the C locale: `A`..=`Z` map to lower case, -128..=-2 to 128..=254.
pub fn tolower(c: i32) -> i32 {
    if (i32::from(b'A')..=i32::from(b'Z')).contains(&c) {
        c + 32
    } else {
        unsigned_alias(c)
    }
}

/// glibc's case tables map a negative signed `char` (but not `EOF`) to its unsigned byte.
fn unsigned_alias(c: i32) -> i32 {
    if (-128..=-2).contains(&c) {
        c + 256
    } else {
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::libc::gcc::run_c_program;

    const ALL: [(&str, fn(i32) -> i32); 14] = [
        ("isalpha", isalpha),
        ("isdigit", isdigit),
        ("isspace", isspace),
        ("isupper", isupper),
        ("islower", islower),
        ("isalnum", isalnum),
        ("ispunct", ispunct),
        ("isprint", isprint),
        ("isgraph", isgraph),
        ("iscntrl", iscntrl),
        ("isxdigit", isxdigit),
        ("isblank", isblank),
        ("toupper", toupper),
        ("tolower", tolower),
    ];

    #[test]
    fn glibc_values() {
        assert_eq!(isalpha(i32::from(b'a')), 1024);
        assert_eq!(isdigit(i32::from(b'7')), 2048);
        assert_eq!(isspace(i32::from(b'\n')), 8192);
        assert_eq!(isupper(i32::from(b'a')), 0);
        assert_eq!(isxdigit(i32::from(b'F')), 4096);
        assert_eq!(ispunct(i32::from(b'_')), 4);
        assert_eq!(isalnum(-1), 0);
        assert_eq!(isprint(200), 0);
        assert_eq!(toupper(i32::from(b'q')), i32::from(b'Q'));
        assert_eq!(tolower(-1), -1);
        assert_eq!(toupper(1000), 1000);
        assert_eq!(toupper(-128), 128);
    }

    #[test]
    fn differential_against_glibc() {
        let mut program = String::from("#include <stdio.h>\n#include <ctype.h>\nint main(void) {\n  for (int c = -128; c < 256; c++) {\n    printf(\"%d\", c);\n");
        for (name, _) in ALL {
            program.push_str(&format!("    printf(\" %d\", {name}(c));\n"));
        }
        program.push_str("    printf(\"\\n\");\n  }\n  return 0;\n}\n");
        let Some(expected) = run_c_program("ctype", &program) else {
            return;
        };
        let mut ours = String::new();
        for c in -128..256 {
            ours.push_str(&c.to_string());
            for (_, f) in ALL {
                ours.push_str(&format!(" {}", f(c)));
            }
            ours.push('\n');
        }
        let expected = String::from_utf8_lossy(&expected);
        assert_eq!(expected.lines().count(), ours.lines().count());
        for (want, got) in expected.lines().zip(ours.lines()) {
            assert_eq!(
                want,
                got,
                "ctype results (c, then {:?}) differ from glibc",
                ALL.map(|(name, _)| name)
            );
        }
    }
}
