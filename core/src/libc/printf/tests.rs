use super::*;
use crate::libc::gcc::{c_string_literal, run_c_program};
use std::collections::VecDeque;

/// One variadic argument of a test call, with the C type the generated program passes.
#[derive(Debug, Clone, PartialEq)]
enum Arg {
    /// `int`
    Int(i32),
    /// `long long`
    Long(i64),
    /// `unsigned long long`
    ULong(u64),
    Double(f64),
    LongDouble(f64),
    /// `char *`, NULL for `None`
    Str(Option<Vec<u8>>),
    /// `void *`
    Ptr(u64),
}

impl Arg {
    fn c_expr(&self) -> String {
        match self {
            Arg::Int(v) if *v == i32::MIN => "(-2147483647 - 1)".into(),
            Arg::Int(v) => format!("({v})"),
            Arg::Long(v) if *v == i64::MIN => "(-9223372036854775807LL - 1)".into(),
            Arg::Long(v) => format!("({v}LL)"),
            Arg::ULong(v) => format!("({v}ULL)"),
            Arg::Double(v) => format!("d({:#x}ULL)", v.to_bits()),
            Arg::LongDouble(v) => format!("(long double)d({:#x}ULL)", v.to_bits()),
            Arg::Str(None) => "(char *)0".into(),
            Arg::Str(Some(s)) => c_string_literal(s),
            Arg::Ptr(p) => format!("(void *){p}ULL"),
        }
    }
}

/// [`PrintfArgs`] over a list of test arguments; strings live at fake addresses.
struct TestArgs {
    args: VecDeque<Arg>,
    consumed: usize,
    strings: Vec<Vec<u8>>,
    stored: Vec<(u64, i64, u8)>,
}

const STRING_BASE: u64 = 0x1000_0000;

impl TestArgs {
    fn new(args: &[Arg]) -> Self {
        TestArgs {
            args: args.iter().cloned().collect(),
            consumed: 0,
            strings: Vec::new(),
            stored: Vec::new(),
        }
    }

    fn pop(&mut self) -> Result<Arg, PrintfError> {
        self.consumed += 1;
        self.args.pop_front().ok_or(PrintfError::MissingArgument {
            index: self.consumed - 1,
        })
    }
}

impl PrintfArgs for TestArgs {
    fn next_word(&mut self) -> Result<u64, PrintfError> {
        match self.pop()? {
            Arg::Int(v) => Ok(v as i64 as u64),
            Arg::Long(v) => Ok(v as u64),
            Arg::ULong(v) | Arg::Ptr(v) => Ok(v),
            Arg::Str(None) => Ok(0),
            Arg::Str(Some(s)) => {
                self.strings.push(s);
                Ok(STRING_BASE + (self.strings.len() as u64 - 1) * 0x1000)
            }
            other => panic!("the engine asked for an integer but the argument is {other:?}"),
        }
    }
    fn next_double(&mut self) -> Result<f64, PrintfError> {
        match self.pop()? {
            Arg::Double(v) => Ok(v),
            other => panic!("the engine asked for a double but the argument is {other:?}"),
        }
    }
    fn next_long_double(&mut self) -> Result<f64, PrintfError> {
        match self.pop()? {
            Arg::LongDouble(v) => Ok(v),
            other => panic!("the engine asked for a long double but the argument is {other:?}"),
        }
    }
    fn read_c_string(&mut self, ptr: u64, max: Option<usize>) -> Result<Vec<u8>, PrintfError> {
        let index = ptr.checked_sub(STRING_BASE).map(|o| (o / 0x1000) as usize);
        let s = index
            .and_then(|i| self.strings.get(i))
            .ok_or(PrintfError::InvalidPointer {
                ptr,
                conversion: 's',
            })?;
        Ok(s[..max.map_or(s.len(), |m| m.min(s.len()))].to_vec())
    }
    fn store_count(&mut self, ptr: u64, count: i64, size_bytes: u8) -> Result<(), PrintfError> {
        self.stored.push((ptr, count, size_bytes));
        Ok(())
    }
}

fn sprintf(fmt: &str, args: &[Arg]) -> Result<String, PrintfError> {
    let mut out = Vec::new();
    format(fmt.as_bytes(), &mut TestArgs::new(args), &mut out)?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}

fn ok(fmt: &str, args: &[Arg]) -> String {
    sprintf(fmt, args).unwrap_or_else(|e| panic!("{fmt:?} failed: {e}"))
}

// ----- literal expectations ----------------------------------------------------------------

#[test]
fn integers() {
    assert_eq!(
        ok(
            "%d|%5d|%-5d|%05d|%+d|% d",
            &[
                Arg::Int(42),
                Arg::Int(-42),
                Arg::Int(7),
                Arg::Int(-7),
                Arg::Int(3),
                Arg::Int(3)
            ]
        ),
        "42|  -42|7    |-0007|+3| 3"
    );
    assert_eq!(
        ok(
            "%.0d|%+.0d|%.3d|%08.3d",
            &[Arg::Int(0), Arg::Int(0), Arg::Int(5), Arg::Int(-5)]
        ),
        "|+|005|    -005"
    );
    assert_eq!(
        ok("%d %d", &[Arg::Int(i32::MIN), Arg::Int(i32::MAX)]),
        "-2147483648 2147483647"
    );
    assert_eq!(
        ok("%lld %llu", &[Arg::Long(i64::MIN), Arg::ULong(u64::MAX)]),
        "-9223372036854775808 18446744073709551615"
    );
    assert_eq!(
        ok(
            "%hhd %hhu %hd %hu",
            &[Arg::Int(300), Arg::Int(-1), Arg::Int(70000), Arg::Int(-1)]
        ),
        "44 255 4464 65535"
    );
    assert_eq!(ok("%u", &[Arg::Int(-1)]), "4294967295");
    assert_eq!(
        ok(
            "%#x|%#X|%#o|%#x|%#o|%#.3o|%#5.0o",
            &[
                Arg::Int(255),
                Arg::Int(255),
                Arg::Int(8),
                Arg::Int(0),
                Arg::Int(0),
                Arg::Int(8),
                Arg::Int(0)
            ]
        ),
        "0xff|0XFF|010|0|0|010|    0"
    );
    assert_eq!(
        ok("%#010x|%-#10x|", &[Arg::Int(255), Arg::Int(255)]),
        "0x000000ff|0xff      |"
    );
    assert_eq!(
        ok("%b|%#b|%#B", &[Arg::Int(5), Arg::Int(5), Arg::Int(5)]),
        "101|0b101|0B101"
    );
    assert_eq!(
        ok(
            "%'d|%Ld|%qd|%zd|%jd|%td",
            &[
                Arg::Int(1234567),
                Arg::Long(1 << 40),
                Arg::Long(-1),
                Arg::Long(-2),
                Arg::Long(-3),
                Arg::Long(-4)
            ]
        ),
        "1234567|1099511627776|-1|-2|-3|-4"
    );
}

#[test]
fn strings_chars_pointers() {
    let s = |t: &str| Arg::Str(Some(t.as_bytes().to_vec()));
    assert_eq!(
        ok(
            "[%s][%.3s][%10s][%-10s][%05s]",
            &[s("hi"), s("hello"), s("hi"), s("hi"), s("ab")]
        ),
        "[hi][hel][        hi][hi        ][   ab]"
    );
    assert_eq!(
        ok(
            "[%s][%.5s][%.6s][%8s]",
            &[
                Arg::Str(None),
                Arg::Str(None),
                Arg::Str(None),
                Arg::Str(None)
            ]
        ),
        "[(null)][][(null)][  (null)]"
    );
    assert_eq!(
        ok(
            "[%c][%3c][%-3c]",
            &[Arg::Int(65), Arg::Int(66 + 256), Arg::Int(67)]
        ),
        "[A][  B][C  ]"
    );
    assert_eq!(
        ok(
            "[%p][%p][%10p][%-10p][%+p][%.8p][%010p]",
            &[
                Arg::Ptr(0x1234),
                Arg::Ptr(0),
                Arg::Ptr(0),
                Arg::Ptr(0xab),
                Arg::Ptr(1),
                Arg::Ptr(0x12),
                Arg::Ptr(0x12)
            ]
        ),
        "[0x1234][(nil)][     (nil)][0xab      ][+0x1][0x00000012][0x00000012]"
    );
    assert_eq!(ok("%lc", &[Arg::Int(65)]), "A");
    let mut out = Vec::new();
    let err = format(b"[%lc]", &mut TestArgs::new(&[Arg::Int(233)]), &mut out).unwrap_err();
    assert_eq!(err, PrintfError::UnencodableWideChar(233));
    assert_eq!(out, b"[");
}

#[test]
fn floats() {
    let d = Arg::Double;
    assert_eq!(
        ok(
            "%f|%.0f|%.0f|%.0f|%.0f",
            &[d(1.5), d(0.5), d(1.5), d(2.5), d(3.5)]
        ),
        "1.500000|0|2|2|4"
    );
    assert_eq!(ok("%.30f", &[d(0.1)]), "0.100000000000000005551115123126");
    let big = ok("%f", &[d(1e300)]);
    assert_eq!(big.len(), 301 + 7);
    assert!(
        big.starts_with("1000000000000000052504760255204420248704468581108159154915854115"),
        "{big}"
    );
    assert!(big.ends_with("5459400540160.000000"), "{big}");
    assert_eq!(
        ok(
            "%e|%E|%.0e|%#.0e|%e",
            &[d(12345.678), d(0.000123), d(5.0), d(1.0), d(0.0)]
        ),
        "1.234568e+04|1.230000E-04|5e+00|1.e+00|0.000000e+00"
    );
    assert_eq!(ok("%e", &[d(1e300)]), "1.000000e+300");
    assert_eq!(
        ok(
            "%g|%g|%g|%g|%g|%.3g|%#g|%G",
            &[
                d(100000.0),
                d(1000000.0),
                d(0.0001),
                d(0.00001),
                d(0.0),
                d(9.9999),
                d(1.0),
                d(1e-10)
            ]
        ),
        "100000|1e+06|0.0001|1e-05|0|10|1.00000|1E-10"
    );
    assert_eq!(
        ok(
            "%#.2g|%#.2g|%#.3g|%#.3g",
            &[d(99.5), d(999.96), d(999.96), d(99.96)]
        ),
        "1.e+02|1.0e+03|1.e+03|100."
    );
    assert_eq!(
        ok("%.0g|%.1g|%.2g|%g", &[d(123.0), d(0.15), d(2.5), d(-0.0)]),
        "1e+02|0.1|2.5|-0"
    );
    assert_eq!(
        ok(
            "%f|%F|%e|%G|%5.1f|%-6f|%+f|% f|%010f",
            &[
                d(f64::INFINITY),
                d(f64::INFINITY),
                d(f64::NEG_INFINITY),
                d(f64::NAN),
                d(f64::NAN),
                d(f64::INFINITY),
                d(f64::INFINITY),
                d(f64::NAN),
                d(f64::NEG_INFINITY)
            ]
        ),
        "inf|INF|-inf|NAN|  nan|inf   |+inf| nan|      -inf"
    );
    assert_eq!(ok("%f", &[d(-f64::NAN)]), "-nan");
    assert_eq!(
        ok(
            "%08.2f|%-8.2f|%+.1e|%#.0f",
            &[d(-3.14259), d(3.14259), d(3.14259), d(3.0)]
        ),
        "-0003.14|3.14    |+3.1e+00|3."
    );
}

#[test]
fn hex_floats() {
    let d = Arg::Double;
    assert_eq!(
        ok(
            "%a|%a|%a|%A|%a|%a",
            &[d(3.0), d(1.0), d(0.0), d(-0.5), d(5e-324), d(0.1)]
        ),
        "0x1.8p+1|0x1p+0|0x0p+0|-0X1P-1|0x0.0000000000001p-1022|0x1.999999999999ap-4"
    );
    assert_eq!(
        ok(
            "%.0a|%.0a|%.1a|%.3a|%#a|%010a",
            &[d(1.5), d(2.5), d(1.96875), d(1.0), d(1.0), d(1.0)]
        ),
        "0x2p+0|0x1p+1|0x2.0p+0|0x1.000p+0|0x1.p+0|0x00001p+0"
    );
    let ld = Arg::LongDouble;
    assert_eq!(
        ok(
            "%La|%La|%La|%.0La",
            &[ld(1.0), ld(0.1), ld(5e-324), ld(1.9375)]
        ),
        "0x8p-3|0xc.cccccccccccdp-7|0x8p-1077|0x1p+1"
    );
}

#[test]
fn star_and_positional() {
    let i = Arg::Int;
    assert_eq!(
        ok(
            "[%*d][%-*d][%*d][%.*f][%.*f]",
            &[
                i(5),
                i(1),
                i(5),
                i(1),
                i(-5),
                i(1),
                i(2),
                Arg::Double(1.0),
                i(-1),
                Arg::Double(1.0)
            ]
        ),
        "[    1][1    ][1    ][1.00][1.000000]"
    );
    assert_eq!(
        ok("[%2$d %1$d][%1$*2$d]", &[i(7), i(9)]),
        "[9 7][        7]"
    );
    assert_eq!(
        ok(
            "%2$s %1$.*3$f",
            &[Arg::Double(3.14259), Arg::Str(Some(b"pi".to_vec())), i(2)]
        ),
        "pi 3.14"
    );
    // glibc: unnumbered specifications in a positional format count from the first argument.
    assert_eq!(ok("[%1$d %d]", &[i(7), i(9)]), "[7 7]");
}

#[test]
fn count_and_percent() {
    let mut args = TestArgs::new(&[Arg::Ptr(0x100), Arg::Ptr(0x200), Arg::Ptr(0x300)]);
    let mut out = Vec::new();
    format(b"abc%n%hhn%5%%lln", &mut args, &mut out).unwrap();
    assert_eq!(out, b"abc%");
    assert_eq!(
        args.stored,
        vec![(0x100, 3, 4), (0x200, 3, 1), (0x300, 4, 8)]
    );
}

#[test]
fn unknown_and_malformed() {
    assert_eq!(
        ok("[%y][%5y][%-5.3y][%+ #0'12.*ly][%hhy][%.]", &[Arg::Int(3)]),
        "[%y][%5y][%-5.3y][%#'+012.3y][%y][%.0]"
    );
    for (fmt, prefix) in [
        ("abc%", "abc"),
        ("abc%5", "abc"),
        ("%.*", ""),
        ("%*", ""),
        ("%.", ""),
        ("%-", ""),
        ("x%hh", "x"),
    ] {
        let mut out = Vec::new();
        let err = format(
            fmt.as_bytes(),
            &mut TestArgs::new(&[Arg::Int(1), Arg::Int(2)]),
            &mut out,
        );
        assert_eq!(err, Err(PrintfError::IncompleteSpecification), "{fmt:?}");
        assert_eq!(out, prefix.as_bytes(), "{fmt:?}");
    }
    assert_eq!(
        sprintf("%99999999999d", &[Arg::Int(1)]),
        Err(PrintfError::FieldOverflow)
    );
    assert_eq!(
        sprintf("%2147483647d", &[Arg::Int(1)]),
        Err(PrintfError::FieldOverflow)
    );
    assert_eq!(
        sprintf("%999999999d", &[Arg::Int(1)]),
        Err(PrintfError::FieldTooWide {
            requested: 999_999_999
        })
    );
    assert_eq!(
        sprintf("%.999999999f", &[Arg::Double(1.0)]),
        Err(PrintfError::FieldTooWide {
            requested: 999_999_999
        })
    );
    assert_eq!(
        sprintf("%*d", &[Arg::Int(i32::MIN), Arg::Int(1)]),
        Err(PrintfError::FieldOverflow)
    );
    assert_eq!(
        sprintf("%d %d", &[Arg::Int(1)]),
        Err(PrintfError::MissingArgument { index: 1 })
    );
    assert_eq!(
        sprintf("%s", &[Arg::Ptr(8)]),
        Err(PrintfError::InvalidPointer {
            ptr: 8,
            conversion: 's'
        })
    );
    assert_eq!(
        sprintf("%m", &[]),
        Err(PrintfError::Unsupported("m".into()))
    );
    assert_eq!(ok("%1000d", &[Arg::Int(1)]).len(), 1000);
    // No panics on any short garbage.
    let alphabet = b"%-+ #0'*.$1239hlLqjztdiuoxXcspnfeEgGaAy";
    for a in alphabet {
        for b in alphabet {
            for c in alphabet {
                let fmt = [b'%', *a, *b, *c];
                let mut out = Vec::new();
                let args = [Arg::Int(1), Arg::Int(2), Arg::Int(3), Arg::Int(4)];
                // Kind mismatches panic in TestArgs, so only check formats without float or string conversions.
                if fmt.iter().any(|c| b"feEgGaAsn".contains(c)) {
                    continue;
                }
                let _ = format(&fmt, &mut TestArgs::new(&args), &mut out);
            }
        }
    }
}

/// Arguments of every kind on demand, for feeding arbitrary formats.
struct AnyArgs;

impl PrintfArgs for AnyArgs {
    fn next_word(&mut self) -> Result<u64, PrintfError> {
        Ok(0x1234)
    }
    fn next_double(&mut self) -> Result<f64, PrintfError> {
        Ok(-1.5e-300)
    }
    fn next_long_double(&mut self) -> Result<f64, PrintfError> {
        Ok(f64::MAX)
    }
    fn read_c_string(&mut self, _ptr: u64, max: Option<usize>) -> Result<Vec<u8>, PrintfError> {
        Ok(b"text"[..max.unwrap_or(4).min(4)].to_vec())
    }
    fn store_count(&mut self, _ptr: u64, _count: i64, _size_bytes: u8) -> Result<(), PrintfError> {
        Ok(())
    }
}

#[test]
fn arbitrary_formats_do_not_panic() {
    let alphabet = b"%%%-+ #0'I*.$123456789hlLqjztZdiuoxXbBcCsSpnmfFeEgGaAy\0";
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..50_000 {
        let len = (next() % 14) as usize;
        let fmt: Vec<u8> = (0..len)
            .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
            .collect();
        let mut out = Vec::new();
        let _ = format(&fmt, &mut AnyArgs, &mut out);
        assert!(
            out.len() <= 64 * MAX_FIELD_BYTES,
            "{:?}",
            String::from_utf8_lossy(&fmt)
        );
    }
    // Positional indices far beyond the arguments read every argument in between, like glibc.
    let mut out = Vec::new();
    assert!(format(b"%100$d", &mut AnyArgs, &mut out).is_ok());
    assert_eq!(
        format(b"%2147483647$d", &mut AnyArgs, &mut out),
        Err(PrintfError::PositionTooLarge {
            position: 2_147_483_647
        })
    );
    assert_eq!(
        format(b"%1$*4097$d", &mut AnyArgs, &mut out),
        Err(PrintfError::PositionTooLarge { position: 4097 })
    );
    assert_eq!(
        format(b"%.2147483647f", &mut AnyArgs, &mut out),
        Err(PrintfError::FieldTooWide {
            requested: 2_147_483_647
        })
    );
}

// ----- differential test against glibc -----------------------------------------------------

fn differential_cases() -> Vec<(String, Vec<Arg>)> {
    let mut cases: Vec<(String, Vec<Arg>)> = Vec::new();
    let flags = [
        "", "-", "+", " ", "#", "0", "-0", "+0", " 0", "#0", "-#", "+ ", "'", "-+#0 ",
    ];
    let widths = ["", "1", "7", "23"];
    let int_precisions = ["", ".", ".0", ".1", ".4", ".21"];
    for f in flags {
        for w in widths {
            for p in int_precisions {
                for conv in ["d", "u", "o", "x", "X"] {
                    for v in [0, 1, -1, 255, i32::MIN] {
                        cases.push((format!("[%{f}{w}{p}{conv}]"), vec![Arg::Int(v)]));
                    }
                }
                cases.push((format!("[%{f}{w}{p}lld]"), vec![Arg::Long(i64::MIN)]));
                cases.push((format!("[%{f}{w}{p}llx]"), vec![Arg::ULong(u64::MAX)]));
                cases.push((format!("[%{f}{w}{p}p]"), vec![Arg::Ptr(0x7ffd_1234)]));
                cases.push((format!("[%{f}{w}{p}p]"), vec![Arg::Ptr(0)]));
                cases.push((
                    format!("[%{f}{w}{p}s]"),
                    vec![Arg::Str(Some(b"hello".to_vec()))],
                ));
                cases.push((format!("[%{f}{w}{p}s]"), vec![Arg::Str(None)]));
                cases.push((format!("[%{f}{w}{p}c]"), vec![Arg::Int(b'z' as i32)]));
                cases.push((format!("[%{f}{w}{p}%]"), vec![]));
                cases.push((format!("[%{f}{w}{p}y]"), vec![]));
            }
        }
    }
    let lengths: [(&str, &[i64]); 10] = [
        ("hh", &[0, 127, 128, 300, -129]),
        ("h", &[32767, 32768, 70000, -32769]),
        ("", &[2147483647, -2147483648]),
        ("l", &[i64::MAX, i64::MIN, -1]),
        ("ll", &[i64::MAX, i64::MIN, 1234567890123]),
        ("L", &[-5]),
        ("q", &[-6]),
        ("j", &[i64::MIN]),
        ("z", &[-1]),
        ("t", &[-7]),
    ];
    for (len, values) in lengths {
        for conv in ["d", "i", "u", "o", "x", "X"] {
            for &v in values {
                let arg = if matches!(len, "hh" | "h" | "") {
                    Arg::Int(v as i32)
                } else {
                    Arg::Long(v)
                };
                cases.push((
                    format!("%{len}{conv} %#{len}{conv} %+12.9{len}{conv}"),
                    vec![arg.clone(), arg.clone(), arg],
                ));
            }
        }
    }

    let specials = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        1.5,
        2.5,
        3.5,
        -2.5,
        0.1,
        0.2,
        0.3,
        1.0 / 3.0,
        9.9999,
        9.5,
        99.5,
        0.05,
        0.15,
        0.25,
        0.35,
        100000.0,
        999999.5,
        1e6,
        123456789.0,
        1e-4,
        1e-5,
        0.000123456,
        1e15,
        1e16,
        1e17,
        1e21,
        1e22,
        1e23,
        9007199254740993.0,
        1e300,
        -1e300,
        f64::MAX,
        f64::MIN_POSITIVE,
        5e-324,
        1e-310,
        f64::from_bits(0x000f_ffff_ffff_ffff),
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        -f64::NAN,
        std::f64::consts::PI,
        -std::f64::consts::E,
        1.0625,
        0.9999999,
        0.99999999999,
        4.35,
        1e-300,
        255.0 / 256.0,
        1.999999999999999,
        65536.0,
    ];
    let float_precisions = ["", ".", ".0", ".1", ".2", ".3", ".6", ".13", ".17", ".40"];
    for conv in ["f", "F", "e", "E", "g", "G", "a", "A"] {
        for &v in &specials {
            for p in float_precisions {
                cases.push((
                    format!("[%{p}{conv}|%#{p}{conv}|%+{p}L{conv}]"),
                    vec![Arg::Double(v), Arg::Double(v), Arg::LongDouble(v)],
                ));
            }
            cases.push((format!("[%.300{conv}]"), vec![Arg::Double(v)]));
        }
        for f in flags {
            for w in widths {
                for p in ["", ".0", ".3"] {
                    for v in [0.0, -1.5, 1234.5678, 1e-7, f64::INFINITY, f64::NAN] {
                        cases.push((format!("[%{f}{w}{p}{conv}]"), vec![Arg::Double(v)]));
                    }
                }
            }
        }
    }

    // Star widths and precisions, positional arguments, text around conversions.
    for w in [-12, -1, 0, 3, 15] {
        for p in [-3, 0, 2, 8] {
            cases.push((
                "[%*.*d]".to_string(),
                vec![Arg::Int(w), Arg::Int(p), Arg::Int(-42)],
            ));
            cases.push((
                "[%0*.*f]".to_string(),
                vec![Arg::Int(w), Arg::Int(p), Arg::Double(-2.75)],
            ));
            cases.push((
                "[%-*.*s]".to_string(),
                vec![
                    Arg::Int(w),
                    Arg::Int(p),
                    Arg::Str(Some(b"abcdefghij".to_vec())),
                ],
            ));
            cases.push((
                "[%2$*1$.*3$e]".to_string(),
                vec![Arg::Int(w), Arg::Double(6.02e23), Arg::Int(p)],
            ));
        }
    }
    cases.push((
        "x=%3$s y=%1$d z=%2$g".into(),
        vec![
            Arg::Int(5),
            Arg::Double(0.25),
            Arg::Str(Some(b"s".to_vec())),
        ],
    ));
    cases.push(("%1$d %1$x %1$o %d".into(), vec![Arg::Int(100)]));
    cases.push((
        "%5$d".into(),
        vec![
            Arg::Int(1),
            Arg::Int(2),
            Arg::Int(3),
            Arg::Int(4),
            Arg::Int(5),
        ],
    ));
    // Random bit patterns: every exponent range, subnormals, NaN payloads.
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    for _ in 0..3000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let v = f64::from_bits(state);
        let fixed = if v.abs() < 1e25 { "|%.20f|%#.0f" } else { "" };
        cases.push((format!("[%.17g|%g|%#.3g|%.3e|%a|%.2a|%La{fixed}]"), {
            let mut args = vec![Arg::Double(v); 6];
            args.push(Arg::LongDouble(v));
            if !fixed.is_empty() {
                args.push(Arg::Double(v));
                args.push(Arg::Double(v));
            }
            args
        }));
    }
    cases.push((
        "[%c][%c][%5c]".into(),
        vec![Arg::Int(255), Arg::Int(-1), Arg::Int(0x141)],
    ));
    cases.push((
        "100%% done %c%c".into(),
        vec![Arg::Int(b'o' as i32), Arg::Int(b'k' as i32)],
    ));
    cases.push(("[%Id][%I5.2f]".into(), vec![Arg::Int(5), Arg::Double(2.0)]));
    cases.push(("[%hy][%lly][%0$d]".into(), vec![Arg::Int(5)]));
    cases.push((
        "[%llf][%lf][%Lg]".into(),
        vec![
            Arg::LongDouble(2.5),
            Arg::Double(3.5),
            Arg::LongDouble(1e100),
        ],
    ));
    cases
}

#[test]
fn differential_against_glibc() {
    let cases = differential_cases();
    let mut program = String::from(
        "#include <stdio.h>\n#include <string.h>\n\
         static double d(unsigned long long bits) { double x; memcpy(&x, &bits, sizeof x); return x; }\n\
         int main(void) {\n",
    );
    for (fmt, args) in &cases {
        let mut call = format!("  printf({}", c_string_literal(fmt.as_bytes()));
        for arg in args {
            call.push_str(", ");
            call.push_str(&arg.c_expr());
        }
        call.push_str("); putchar('\\n');\n");
        program.push_str(&call);
    }
    program.push_str("  return 0;\n}\n");
    let Some(expected) = run_c_program("printf", &program) else {
        return;
    };
    let expected: Vec<&[u8]> = expected.split(|&b| b == b'\n').collect();
    assert_eq!(
        expected.len(),
        cases.len() + 1,
        "the C program printed an unexpected number of lines"
    );

    let mut failures = Vec::new();
    for ((fmt, args), want) in cases.iter().zip(&expected) {
        let mut got = Vec::new();
        let result = format(fmt.as_bytes(), &mut TestArgs::new(args), &mut got);
        if result.is_err() || got != *want {
            failures.push(format!(
                "printf({fmt:?}, {args:?})\n   glibc: {:?}\n  accsim: {:?} {result:?}",
                String::from_utf8_lossy(want),
                String::from_utf8_lossy(&got)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} printf calls differ from glibc:\n{}",
        failures.len(),
        cases.len(),
        failures
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
