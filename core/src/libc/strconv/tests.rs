use super::*;
use crate::libc::gcc::{c_string_literal, run_c_program};

fn l(s: &str, base: i32) -> (i64, usize, Option<Errno>) {
    let p = strtol(s.as_bytes(), base);
    (p.value, p.consumed, p.errno)
}

fn ul(s: &str, base: i32) -> (u64, usize, Option<Errno>) {
    let p = strtoul(s.as_bytes(), base);
    (p.value, p.consumed, p.errno)
}

fn d(s: &str) -> (f64, usize, Option<Errno>) {
    let p = strtod(s.as_bytes());
    (p.value, p.consumed, p.errno)
}

#[test]
fn integers() {
    assert_eq!(l("  -42abc", 10), (-42, 5, None));
    assert_eq!(l("0x1F", 0), (31, 4, None));
    assert_eq!(l("0x", 0), (0, 1, None));
    assert_eq!(l(" 0xg", 16), (0, 2, None));
    assert_eq!(l("017", 0), (15, 3, None));
    assert_eq!(l("089", 0), (0, 1, None));
    assert_eq!(l("", 10), (0, 0, None));
    assert_eq!(l("  +", 10), (0, 0, None));
    assert_eq!(l("zZ", 36), (35 * 36 + 35, 2, None));
    assert_eq!(
        l("99999999999999999999x", 10),
        (i64::MAX, 20, Some(Errno::Overflow))
    );
    assert_eq!(l("-9223372036854775808", 10), (i64::MIN, 20, None));
    assert_eq!(
        l("-9223372036854775809", 10),
        (i64::MIN, 20, Some(Errno::Overflow))
    );
    assert_eq!(l("12", 1), (0, 0, Some(Errno::InvalidBase)));
    assert_eq!(l("12", 37), (0, 0, Some(Errno::InvalidBase)));
    assert_eq!(ul("-1", 10), (u64::MAX, 2, None));
    assert_eq!(
        ul("18446744073709551616", 10),
        (u64::MAX, 20, Some(Errno::Overflow))
    );
    assert_eq!(ul("-18446744073709551615", 10), (1, 21, None));
    assert_eq!(atoi(b"2147483648"), i32::MIN);
    assert_eq!(atoi(b"  12ab"), 12);
    assert_eq!(atol(b"-7"), -7);
    assert_eq!(atoll(b"x"), 0);
}

#[test]
fn floats() {
    assert_eq!(d("  1.5e3x"), (1500.0, 7, None));
    assert_eq!(d("1e"), (1.0, 1, None));
    assert_eq!(d("1e+"), (1.0, 1, None));
    assert_eq!(d(".5"), (0.5, 2, None));
    assert_eq!(d("5."), (5.0, 2, None));
    assert_eq!(d("."), (0.0, 0, None));
    assert_eq!(d("-.e1"), (0.0, 0, None));
    assert_eq!(d("0x1.8p3"), (12.0, 7, None));
    assert_eq!(d("0x.8p1"), (1.0, 6, None));
    assert_eq!(d("0x"), (0.0, 1, None));
    assert_eq!(d("0xp1"), (0.0, 1, None));
    assert_eq!(d("0x1p"), (1.0, 3, None));
    assert_eq!(d("-InFiNiTy!"), (f64::NEG_INFINITY, 9, None));
    assert_eq!(d("infinit"), (f64::INFINITY, 3, None));
    assert_eq!(d("1e400"), (f64::INFINITY, 5, Some(Errno::Overflow)));
    assert_eq!(d("-1e400"), (f64::NEG_INFINITY, 6, Some(Errno::Overflow)));
    assert_eq!(d("1e-400"), (0.0, 6, Some(Errno::Underflow)));
    assert_eq!(
        d("4.9406564584124654e-324"),
        (5e-324, 23, Some(Errno::Underflow))
    );
    assert_eq!(d("0x1p-1074"), (5e-324, 9, None));
    assert_eq!(d("0x1p-1075"), (0.0, 9, Some(Errno::Underflow)));
    assert_eq!(d("0x1.8p-1075"), (5e-324, 11, Some(Errno::Underflow)));
    assert_eq!(
        d("0x1.fffffffffffff8p1023"),
        (f64::INFINITY, 23, Some(Errno::Overflow))
    );
    let exact_min_subnormal = format!("{:.1100e}", 5e-324);
    assert_eq!(
        d(&exact_min_subnormal),
        (5e-324, exact_min_subnormal.len(), None)
    );

    let nan = strtod(b"-nan(0x1f)");
    assert!(nan.value.is_nan() && nan.value.is_sign_negative());
    assert_eq!(nan.value.to_bits(), 0xfff8_0000_0000_001f);
    assert_eq!(nan.consumed, 10);
    assert_eq!(strtod(b"nan(").consumed, 3);
    assert_eq!(strtod(b"NAN()").consumed, 5);
    assert_eq!(strtod(b"nan(x!)").consumed, 3);

    // strtof rounds once: the double nearest to this is the f32 halfway point, which would round
    // to even (1.0); the decimal itself is above it.
    let f = strtof(b"1.00000005960464477550");
    assert_eq!(f.value, 1.0 + f32::EPSILON);
    assert_eq!(strtof(b"0x1.000001p0").value, 1.0);
    assert_eq!(strtof(b"3.5e38").errno, Some(Errno::Overflow));
    assert_eq!(atof(b"  -2.5e-1"), -0.25);
}

fn differential_inputs() -> Vec<Vec<u8>> {
    let mut inputs: Vec<Vec<u8>> = [
        "",
        " ",
        "  42",
        "\t\n-17xyz",
        "\x0b\x0c\r 1",
        "+5",
        "-",
        "+",
        "0x",
        "0X1A",
        "0xg",
        "-0x",
        "0x1p3",
        "0",
        "08",
        "012",
        "0b101",
        "  -0",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775808",
        "-9223372036854775809",
        "18446744073709551615",
        "18446744073709551616",
        "-1",
        "-18446744073709551615",
        "-18446744073709551616",
        "99999999999999999999999",
        "zz",
        "ZZ",
        "2147483648",
        "4294967296",
        "-2147483649",
        "1_000",
        "0x7fffffffffffffff",
        "-0x8000000000000000",
        "0xffffffffffffffffff",
        "0x-1",
        "- 1",
        "1.5",
        ".5",
        "5.",
        ".",
        "-.5e-3",
        "1e",
        "1e+",
        "1e-5x",
        "1E5",
        "-0.0",
        "+.e1",
        "inf",
        "-INF",
        "infinity",
        "INFINITYx",
        "infinit",
        "nan",
        "-nan",
        "NaN(123)",
        "nan(0x1f)",
        "nan(abc_1)",
        "nan(",
        "nan()",
        "nan(1",
        "nan(-1)",
        "nan(0xfffffffffffffffff)",
        "0x1.8p3",
        "0x.8p1",
        "0x1p",
        "0x1p+",
        "0x.p1",
        "0xp1",
        "0X1P-2",
        "0x1.fffffffffffff8p0",
        "0x1.fffffffffffff7ffffp0",
        "0x1.fffffffffffff80001p0",
        "0x1p-1074",
        "0x1p-1075",
        "0x1.8p-1075",
        "0x1p-1076",
        "0x1.0000000000001p-1074",
        "0x1p-1022",
        "0x0.fffffffffffffp-1022",
        "0x1.fffffffffffffp-1023",
        "0x1p1023",
        "0x1p1024",
        "0x1.fffffffffffffp1023",
        "0x1.fffffffffffff8p1023",
        "0x1.fffffffffffff7p1023",
        "0x0.0000001p-1040",
        "0x123456789abcdef0123p-40",
        "0x1p99999999999",
        "0x1p-99999999999",
        "1e308",
        "1.8e308",
        "1.7976931348623157e308",
        "1.7976931348623158e308",
        "1.797693134862315807e308",
        "2.2250738585072011e-308",
        "2.2250738585072012e-308",
        "2.2250738585072014e-308",
        "4.9406564584124654e-324",
        "2.4703282292062327e-324",
        "2.4703282292062328e-324",
        "1e-400",
        "-1e-400",
        "5e-324",
        "1e-320",
        "0.1",
        "3.4028235e38",
        "3.4028236e38",
        "3.40282356779733661637539395458142568448e38",
        "1.17549435e-38",
        "1.1754942e-38",
        "1e-45",
        "1.4e-45",
        "7e-46",
        "7.1e-46",
        "0.000000000000000000000000000000001e33",
        "1.00000005960464477550",
        "1.000000059604644775390625",
        "0x1.fffffep127",
        "0x1.ffffffp127",
        "0x1.fffffefffffffp127",
        "0x1p-149",
        "0x1p-150",
        "0x1.000001p-150",
        "0x1p-126",
        "0x1.fffffcp-127",
        "123456789012345678901234567890",
        "1e0000000000000000000000000001",
        "1e-99999999999999999999",
        "1e99999999999999999999",
        "9007199254740993",
        "9007199254740993.0000000000000000000001",
        "0.5e-323",
        "2.5e-324",
        "  +0x1.8P+1junk",
        "0x1.00000000000008p-1075",
        "0x1.00000000000004p-1075",
        "0x1.0000000000001p-1075",
        "0x1p-1075",
        "0x1.000001p-150",
        "0x1.0000008p-150",
        "0x1.0000004p-150",
        "0x1.000002p-150",
        "0x1p-1023",
        "0x1.ffffffffffffe8p-1023",
        "0x1.fffffffffffff8p-1023",
        "0x1.fffffffffffff4p-1023",
        "0x1.fffffep-127",
        "0x1.ffffffp-127",
        "2.2250738585072013e-308",
        "2.225073858507201e-308",
        "1.1754943e-38",
        "1.17549434e-38",
        "0x1.8e3",
        "1.5e3.2",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    inputs.push(format!("1{}", "0".repeat(400)).into_bytes());
    inputs.push(format!("0.{}1", "0".repeat(400)).into_bytes());
    inputs.push(format!("{:.1100e}", 5e-324).into_bytes());
    inputs.push(format!("{:.1100e}", f64::from_bits(0x000f_ffff_ffff_ffff)).into_bytes());
    inputs.push(format!("{:.300e}", f64::from(f32::from_bits(1))).into_bytes());
    inputs.push(format!("{:.300e}", f64::from(f32::from_bits(0x7f_ffff))).into_bytes());
    inputs.push(format!("{:.1100e}0001", 5e-324).into_bytes());
    for hex in [
        "0x1.ffffffffffffe8p-1023",
        "0x1.ffffffffffffe4p-1023",
        "0x1.ffffffffffffd8p-1023",
        "0x1.00000000000008p-1075",
        "0x1.8p-1074",
        "0x1.fffffffffffff8p-1023",
        "0x1.000001p-150",
        "0x1.0000018p-140",
    ] {
        // The exact decimal expansion of the hex value, so the decimal parser meets the same bits.
        inputs.push(exact_decimal(hex).into_bytes());
    }
    inputs
}

/// The exact decimal expansion of a hexadecimal floating constant with at most 64 significant bits.
fn exact_decimal(hex: &str) -> String {
    let body = hex.trim_start_matches("0x");
    let (mantissa, exp) = body.split_once('p').expect("a binary exponent");
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let m = u64::from_str_radix(&format!("{int}{frac}"), 16).expect("hex digits");
    let e: i64 = exp.parse::<i64>().expect("exponent") - 4 * frac.len() as i64;
    assert!(e < 0);
    // m × 2^e = m × 5^-e / 10^-e.
    let mut n = BigUint::from_u64(m);
    n.mul_pow(5, e.unsigned_abs());
    let mut digits = Vec::new();
    while !n.0.is_empty() {
        digits.push(b'0' + n.div_rem_small(10) as u8);
    }
    digits.reverse();
    format!("{}e{}", String::from_utf8(digits).expect("ascii digits"), e)
}

const BASES: [i32; 9] = [0, 2, 8, 10, 16, 36, 1, 37, -1];

fn errno_code(errno: Option<Errno>) -> i32 {
    match errno {
        None => 0,
        Some(Errno::Overflow | Errno::Underflow) => 34,
        Some(Errno::InvalidBase) => 22,
    }
}

#[test]
fn differential_against_glibc() {
    let inputs = differential_inputs();
    let mut program = String::from(
        "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <errno.h>\n\
         static void run(const char *s) {\n  char *end; unsigned long long bits; unsigned fbits;\n",
    );
    for base in BASES {
        program.push_str(&format!(
            "  errno = 0; end = (char *)s; {{ long v = strtol(s, &end, {base}); printf(\"l%ld %d %d \", v, (int)(end - s), errno); }}\n\
             \x20 errno = 0; end = (char *)s; {{ unsigned long v = strtoul(s, &end, {base}); printf(\"u%lu %d %d \", v, (int)(end - s), errno); }}\n"
        ));
    }
    program.push_str(
        "  errno = 0; { double v = strtod(s, &end); memcpy(&bits, &v, 8); printf(\"d%016llx %d %d \", bits, (int)(end - s), errno); }\n\
         \x20 errno = 0; { float v = strtof(s, &end); memcpy(&fbits, &v, 4); printf(\"f%08x %d %d \", fbits, (int)(end - s), errno); }\n\
         \x20 { double v = atof(s); memcpy(&bits, &v, 8); printf(\"a%d %ld %lld %016llx\\n\", atoi(s), atol(s), atoll(s), bits); }\n}\n\
         int main(void) {\n",
    );
    for input in &inputs {
        program.push_str(&format!("  run({});\n", c_string_literal(input)));
    }
    program.push_str("  return 0;\n}\n");
    let Some(expected) = run_c_program("strconv", &program) else {
        return;
    };
    let expected = String::from_utf8_lossy(&expected);
    let expected: Vec<&str> = expected.lines().collect();
    assert_eq!(expected.len(), inputs.len());

    let mut failures = Vec::new();
    for (input, want) in inputs.iter().zip(expected) {
        let mut got = String::new();
        for base in BASES {
            let p = strtol(input, base);
            got.push_str(&format!(
                "l{} {} {} ",
                p.value,
                p.consumed,
                errno_code(p.errno)
            ));
            let p = strtoul(input, base);
            got.push_str(&format!(
                "u{} {} {} ",
                p.value,
                p.consumed,
                errno_code(p.errno)
            ));
        }
        let p = strtod(input);
        got.push_str(&format!(
            "d{:016x} {} {} ",
            p.value.to_bits(),
            p.consumed,
            errno_code(p.errno)
        ));
        let p = strtof(input);
        got.push_str(&format!(
            "f{:08x} {} {} ",
            p.value.to_bits(),
            p.consumed,
            errno_code(p.errno)
        ));
        got.push_str(&format!(
            "a{} {} {} {:016x}",
            atoi(input),
            atol(input),
            atoll(input),
            atof(input).to_bits()
        ));
        if got != want {
            let shown = String::from_utf8_lossy(&input[..input.len().min(60)]).into_owned();
            failures.push(format!(
                "input {shown:?}\n   glibc: {want}\n  accsim: {got}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} inputs parse differently from glibc:\n{}",
        failures.len(),
        inputs.len(),
        failures.join("\n")
    );
}

#[test]
fn long_inputs_stay_fast() {
    // A million significant digits in the subnormal range: the exactness checks are bounded.
    let mut long = String::from("0.");
    long.push_str(&"0".repeat(320));
    long.push_str(&"4".repeat(1_000_000));
    let start = std::time::Instant::now();
    let p = strtod(long.as_bytes());
    assert_eq!(p.consumed, long.len());
    assert_eq!(p.errno, Some(Errno::Underflow));
    assert!(p.value > 0.0 && p.value < f64::MIN_POSITIVE);
    assert!(start.elapsed().as_secs() < 5, "took {:?}", start.elapsed());
    let ints = "9".repeat(1_000_000);
    assert_eq!(strtol(ints.as_bytes(), 10).errno, Some(Errno::Overflow));
}

#[test]
fn arbitrary_inputs_do_not_panic() {
    let alphabet = b"0123456789abcdefxXpPeE+-. \t\ninfINFnaNN()_\xff";
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..50_000 {
        let len = (next() % 24) as usize;
        let input: Vec<u8> = (0..len)
            .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
            .collect();
        let base = (next() % 40) as i32 - 2;
        for consumed in [
            strtol(&input, base).consumed,
            strtoul(&input, base).consumed,
            strtod(&input).consumed,
            strtof(&input).consumed,
        ] {
            assert!(consumed <= input.len());
        }
        let _ = (atoi(&input), atof(&input));
    }
}
