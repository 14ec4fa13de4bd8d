//! Text helpers of the emitter: the C library functions with a device version, C literals and
//! names, parenthesisation. Part of [`crate::emit`].

use super::*;

/// C library functions with a CUDA device version of the same name and meaning.
pub(super) const DEVICE_LIBC: &[&str] = &[
    "printf", "malloc", "free", "memcpy", "memset", "abs", "labs", "llabs", "sqrt", "sqrtf", "cbrt", "cbrtf", "fabs", "fabsf", "exp", "expf", "exp2", "exp2f", "log",
    "logf", "log2", "log2f", "log10", "log10f", "pow", "powf", "sin", "sinf", "cos", "cosf", "tan", "tanf", "asin", "asinf", "acos", "acosf", "atan", "atanf",
    "atan2", "atan2f", "sinh", "sinhf", "cosh", "coshf", "tanh", "tanhf", "floor", "floorf", "ceil", "ceilf", "round", "roundf", "trunc", "truncf", "fmod",
    "fmodf", "fmin", "fminf", "fmax", "fmaxf", "hypot", "hypotf", "erf", "erff", "fma", "fmaf", "copysign", "copysignf",
];

/// `<complex.h>` functions on float/double _Complex, defined by the prelude piece `complex_lib`.
pub(super) const COMPLEX_LIB: &[&str] = &["creal", "crealf", "cimag", "cimagf", "conj", "conjf", "cabs", "cabsf"];

/// `e` without the parentheses around the whole of it (`(x = y)` → `x = y`).
pub(super) fn strip_parens(e: &str) -> &str {
    let b = e.as_bytes();
    if b.first() != Some(&b'(') || b.last() != Some(&b')') {
        return e;
    }
    // The first parenthesis must close at the end, outside character and string literals.
    let mut depth = 0i32;
    let mut quote: Option<u8> = None;
    let mut escaped = false;
    for (i, &c) in b.iter().enumerate() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == b'\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            b'"' | b'\'' => quote = Some(c),
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 && i + 1 != b.len() {
                    return e;
                }
            }
            _ => {}
        }
    }
    &e[1..e.len() - 1]
}

/// Statements on one line, for a statement expression (line comments become block comments).
pub(super) fn one_line(text: &str) -> String {
    let parts: Vec<String> = text
        .lines()
        .map(|l| {
            let l = l.trim();
            // The emitter's own comments: whole lines, or after an opening brace.
            let at = if l.starts_with("// ") { Some(0) } else { l.find("{ // ").map(|i| i + 2) };
            match at {
                Some(i) => format!("{}/* {} */", &l[..i], l[i + 3..].replace("*/", "* /")),
                None => l.to_string(),
            }
        })
        .collect();
    parts.join(" ")
}

pub(super) fn binop(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::Rem => "%",
        BinOp::Shl => "<<",
        BinOp::Shr => ">>",
        BinOp::BitAnd => "&",
        BinOp::BitOr => "|",
        BinOp::BitXor => "^",
        BinOp::Eq => "==",
        BinOp::Ne => "!=",
        BinOp::Lt => "<",
        BinOp::Le => "<=",
        BinOp::Gt => ">",
        BinOp::Ge => ">=",
    }
}

pub(super) fn join(base: &str, declarator: &str) -> String {
    if declarator.is_empty() { base.to_string() } else { format!("{base} {declarator}") }
}

pub(super) fn float_lit(f: f64, ty: &Type) -> String {
    let single = matches!(ty, Type::Float(FloatKind::F32));
    if f.is_nan() {
        return if single { "__int_as_float(0x7fc00000)".into() } else { "__longlong_as_double(0x7ff8000000000000LL)".into() };
    }
    if f.is_infinite() {
        let neg = if f < 0.0 { "-" } else { "" };
        return if single { format!("{neg}__int_as_float(0x7f800000)") } else { format!("{neg}__longlong_as_double(0x7ff0000000000000LL)") };
    }
    let s = if single { format!("{:?}", f as f32) } else { format!("{f:?}") };
    let s = if s.contains(['.', 'e', 'E']) { s } else { format!("{s}.0") };
    let s = if single { format!("{s}f") } else { s };
    if f < 0.0 || (f == 0.0 && f.is_sign_negative()) { format!("({s})") } else { s }
}

pub(super) fn c_string(bytes: &[u8]) -> String {
    let bytes = bytes.strip_suffix(&[0]).unwrap_or(bytes);
    let mut s = String::from("\"");
    for &b in bytes {
        match b {
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            b'\n' => s.push_str("\\n"),
            b'\t' => s.push_str("\\t"),
            b'?' => s.push_str("\\?"),
            0x20..=0x7e => s.push(b as char),
            _ => {
                let _ = write!(s, "\\{b:03o}");
            }
        }
    }
    s.push('"');
    s
}

/// A member name that is not a C++ keyword (C allows `class`, `new`, `this`… as names).
pub(super) fn member_name(name: &str) -> String {
    const CXX: &[&str] = &[
        "bool", "catch", "class", "delete", "explicit", "export", "false", "friend", "mutable", "namespace", "new", "operator", "private", "protected", "public",
        "template", "this", "throw", "true", "try", "typeid", "typename", "using", "virtual", "nullptr", "decltype", "constexpr", "noexcept", "char16_t", "char32_t",
    ];
    let n = sanitize(name);
    if CXX.contains(&n.as_str()) { format!("{n}_") } else { n }
}

pub(super) fn sanitize(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect()
}

/// A unique C name for a local: a kernel function's launch parameters (its first four
/// parameters, `KernelParams::FIXED`) keep theirs, others get their index.
pub(super) fn local_name(l: &Local, id: LocalId) -> String {
    if l.role == LocalRole::LaunchParam && id.0 < 4 {
        return l.name.clone();
    }
    let base = match l.name.as_str() {
        n if l.role == LocalRole::CaptureAddress => format!("{}_addr", sanitize(n.trim_start_matches('&'))),
        "<private>" => "priv".into(),
        "<temp>" => "tmp".into(),
        "<addr>" => "addr".into(),
        n => sanitize(n.trim_matches(['<', '>'])),
    };
    let base = base.trim_start_matches('_');
    // `_0` would become `0_6`: names start with a letter.
    let base = if base.is_empty() || base.starts_with(|c: char| c.is_ascii_digit()) { format!("v{base}") } else { base.to_string() };
    format!("{base}_{}", id.0)
}
