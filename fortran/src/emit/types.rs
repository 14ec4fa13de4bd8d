//! Fortran types and their C representation, variables and their storage, and the constant folding
//! that kinds, parameters and array bounds need.

use std::collections::HashMap;

use crate::ast::{Dim, Expr, TypeSpec};

/// An intrinsic type with its kind (Fortran 2003 §4.4): gfortran's kinds are byte sizes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    Int(u8),
    Real(u8),
    Complex(u8),
    Logical,
    Char,
    /// A derived type (Fortran 2003 §4.5): its C struct type, `struct _fty_NAME` ([`derived_c_type`]).
    Derived(&'static str),
}

/// The C type of derived type `name`: a struct tag in the translator's reserved `_f` prefix, so
/// it meets no name of the program. Interned (each distinct name is allocated once per process),
/// so that [`Ty`] stays `Copy`.
pub fn derived_c_type(name: &str) -> &'static str {
    static NAMES: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());
    let c = format!("struct _fty_{name}");
    let mut names = NAMES.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(found) = names.iter().find(|n| **n == c) {
        return found;
    }
    let leaked: &'static str = Box::leak(c.into_boxed_str());
    names.push(leaked);
    leaked
}

/// A derived type's components, in order: each a [`Var`] whose `cname` is the C member name and
/// whose shape, if any, is of constant size.
#[derive(Debug, Clone)]
pub struct DerivedType {
    pub name: String,
    pub components: Vec<(String, Var)>,
    /// The C struct definition (compared when a definition is met again).
    pub c_definition: String,
    /// Each component's default (Fortran 2003 §4.5.3.4) as C initializer text.
    pub defaults: Vec<Option<String>>,
    /// The braced C initializer of a whole value when any component (or nested one) has a
    /// default (`emit/derived.rs`).
    pub default_init: Option<String>,
}

impl Ty {
    /// The C type that holds one value.
    pub fn c(self) -> &'static str {
        match self {
            Ty::Int(1) => "signed char",
            Ty::Int(2) => "short",
            Ty::Int(8) => "long",
            Ty::Int(_) => "int",
            Ty::Real(8) => "double",
            Ty::Real(_) => "float",
            Ty::Complex(8) => "double _Complex",
            Ty::Complex(_) => "float _Complex",
            Ty::Logical => "int",
            Ty::Char => "char",
            Ty::Derived(c) => c,
        }
    }
    pub fn is_numeric(self) -> bool {
        matches!(self, Ty::Int(_) | Ty::Real(_) | Ty::Complex(_))
    }
    pub fn name(self) -> String {
        match self {
            Ty::Int(k) => format!("integer({k})"),
            Ty::Real(k) => format!("real({k})"),
            Ty::Complex(k) => format!("complex({k})"),
            Ty::Logical => "logical".into(),
            Ty::Char => "character".into(),
            Ty::Derived(c) => format!("type({})", c.strip_prefix("struct _fty_").unwrap_or(c)),
        }
    }
    /// The type of a binary numeric operation (Fortran 2003 §7.1.4.2 Table 7.3): the wider of
    /// integer < real < complex, and of the kinds.
    pub fn common(a: Ty, b: Ty) -> Ty {
        let rank = |t: Ty| match t {
            Ty::Int(k) => (0, k),
            Ty::Real(k) => (1, k),
            Ty::Complex(k) => (2, k),
            _ => (0, 4),
        };
        let (ra, ka) = rank(a);
        let (rb, kb) = rank(b);
        let k = if ra == rb { ka.max(kb) } else if ra > rb { ka } else { kb };
        match ra.max(rb) {
            0 => Ty::Int(k),
            1 => Ty::Real(k),
            _ => Ty::Complex(k),
        }
    }
}

/// Where an array's elements live and how big it is. Bounds and extents are C expressions
/// (constants, or the names of the `long` variables holding them).
#[derive(Debug, Clone)]
pub struct Shape {
    pub lbs: Vec<String>,
    pub exts: Vec<String>,
    /// A C array of constant size (`float a[200]`); otherwise a pointer with bound variables.
    pub fixed: bool,
    /// An assumed-shape dummy (`a(:)`): its extents are passed with it.
    pub assumed_shape: bool,
    /// An assumed-size dummy (`a(*)`): the last extent is unknown.
    pub assumed_size: bool,
}

impl Shape {
    pub fn rank(&self) -> usize {
        self.exts.len()
    }
    /// The number of elements, as a C expression.
    pub fn total(&self) -> String {
        self.exts.iter().map(|e| format!("({e})")).collect::<Vec<_>>().join(" * ")
    }
    /// Upper bound of dimension `k`.
    pub fn ub(&self, k: usize) -> String {
        simplify(&format!("{} + {} - 1", self.lbs[k], self.exts[k]))
    }
}

/// Fold `a + b - 1` forms where both are integers.
pub fn simplify(s: &str) -> String {
    let parts: Vec<&str> = s.split(' ').collect();
    if parts.len() == 5 {
        if let (Ok(a), Ok(b), Ok(c)) = (parts[0].parse::<i64>(), parts[2].parse::<i64>(), parts[4].parse::<i64>()) {
            let v = match (parts[1], parts[3]) {
                ("+", "-") => a + b - c,
                ("-", "+") => a - b + c,
                _ => return s.to_string(),
            };
            return v.to_string();
        }
    }
    s.to_string()
}

#[derive(Debug, Clone)]
pub struct Var {
    pub ty: Ty,
    /// Length of a character variable.
    pub char_len: i64,
    /// Name in the C translation.
    pub cname: String,
    pub shape: Option<Shape>,
    /// A named constant: its value as a C expression.
    pub param: Option<String>,
    /// A named integer constant's value.
    pub int_value: Option<i64>,
    /// Position among the procedure's dummy arguments.
    pub dummy: Option<usize>,
    pub intent: Option<String>,
    pub allocatable: bool,
    /// A pointer (Fortran 2003 §5.1.2.11): a scalar is a C pointer to its target; an array has
    /// the allocatable layout (element pointer and bound variables) and takes its target's
    /// address and bounds at `=>`.
    pub pointer: bool,
    /// A C global (module variable, main-program variable seen by contained procedures, saved local).
    pub global: bool,
    pub line: u32,
}

impl Var {
    /// The length of a character variable as C text: its constant length, or for an
    /// assumed-length dummy (`character(len=*)`, Fortran 2003 §5.1.1.5, `char_len` < 0) the
    /// length its caller passes, the hidden argument `NAME_len`.
    pub fn len_c(&self) -> String {
        if self.char_len < 0 {
            format!("{}_len", self.cname)
        } else {
            self.char_len.to_string()
        }
    }
    pub fn rank(&self) -> usize {
        self.shape.as_ref().map(Shape::rank).unwrap_or(0)
    }
    /// Whether the elements are reached through a pointer (not a C array).
    pub fn pointer_based(&self) -> bool {
        self.shape.as_ref().is_some_and(|s| !s.fixed)
    }
}

/// Names that C or accsim's runtime header give a meaning to: a Fortran name equal to one, or to
/// a name the C library declarations declare, gets a trailing underscore in the C translation.
pub const C_RESERVED: [&str; 75] = [
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern", "float",
    "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return", "short", "signed", "sizeof",
    "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while", "main", "exit", "abs",
    "y0", "y1", "yn", "j0", "j1", "jn", "gamma", "time", "index", "div", "log", "exp", "sin", "cos", "tan", "sqrt",
    "pow", "floor", "ceil", "round", "rand", "random", "remove", "signal", "free", "malloc", "printf", "puts",
    "putchar", "stdin", "stdout", "stderr", "errno", "NULL", "EOF", "fabs", "fmod", "bool",
];

/// Whether `name` is an identifier of the C library declarations a translation starts with
/// (`crate::LIBC`: `sinh`, `clock`, `FILE`, …).
fn declared_by_libc(name: &str) -> bool {
    static NAMES: std::sync::OnceLock<std::collections::HashSet<String>> = std::sync::OnceLock::new();
    NAMES
        .get_or_init(|| {
            let text = crate::runtime::library_declarations();
            text.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').filter(|w| w.starts_with(|c: char| c.is_ascii_alphabetic())).map(str::to_string).collect()
        })
        .contains(name)
}

pub fn c_name(name: &str) -> String {
    if C_RESERVED.contains(&name) || declared_by_libc(name) || name.starts_with("_f") {
        format!("{name}_")
    } else {
        name.to_string()
    }
}

/// Integer constant folding over named constants (`n = 10`, `dp = kind(1.0d0)`,
/// `selected_real_kind(15)`), for kinds, lengths and array bounds.
pub fn fold_int(e: &Expr, consts: &dyn Fn(&str) -> Option<i64>) -> Option<i64> {
    Some(match e {
        Expr::Int(d, _) => d.parse().ok()?,
        Expr::Name(n) => consts(n)?,
        Expr::Paren(x) => fold_int(x, consts)?,
        Expr::Unary("-", x) => -fold_int(x, consts)?,
        Expr::Binary(op, a, b) => {
            let (a, b) = (fold_int(a, consts)?, fold_int(b, consts)?);
            match *op {
                "+" => a.checked_add(b)?,
                "-" => a.checked_sub(b)?,
                "*" => a.checked_mul(b)?,
                "/" => a.checked_div(b)?,
                "**" => a.checked_pow(u32::try_from(b).ok()?)?,
                _ => return None,
            }
        }
        Expr::Apply(f, args) => {
            let first = match args.first() {
                Some(crate::ast::Arg::Value(v)) | Some(crate::ast::Arg::Keyword(_, v)) => v,
                _ => return None,
            };
            match f.as_str() {
                "kind" => match first {
                    Expr::Real(r) => literal_real_kind(r)? as i64,
                    Expr::Int(_, None) => 4,
                    Expr::Int(_, Some(k)) => k.parse().ok().or_else(|| consts(k))?,
                    Expr::Logical(_) => 4,
                    _ => return None,
                },
                "selected_real_kind" => {
                    let p = fold_int(first, consts)?;
                    if p <= 6 {
                        4
                    } else if p <= 15 {
                        8
                    } else {
                        return None;
                    }
                }
                "selected_int_kind" => {
                    let r = fold_int(first, consts)?;
                    match r {
                        ..=2 => 1,
                        3..=4 => 2,
                        5..=9 => 4,
                        10..=18 => 8,
                        _ => return None,
                    }
                }
                // `mod(a, p)`: a - int(a/p)*p (§13.7.79), the remainder of truncating division.
                "mod" => {
                    let p = match args.get(1) {
                        Some(crate::ast::Arg::Value(v)) => fold_int(v, consts)?,
                        _ => return None,
                    };
                    fold_int(first, consts)?.checked_rem(p)?
                }
                "max" | "min" => {
                    let mut vals = Vec::new();
                    for a in args {
                        if let crate::ast::Arg::Value(v) = a {
                            vals.push(fold_int(v, consts)?);
                        }
                    }
                    if f == "max" {
                        *vals.iter().max()?
                    } else {
                        *vals.iter().min()?
                    }
                }
                _ => return None,
            }
        }
        _ => return None,
    })
}

/// The kind of a real literal: `1.0` 4, `1.0d0` 8, `1.0_8` 8 (a named kind is looked up by the caller).
pub fn literal_real_kind(r: &str) -> Option<u8> {
    if let Some((_, k)) = r.split_once('_') {
        return k.parse().ok();
    }
    Some(if r.contains('d') { 8 } else { 4 })
}

/// The type a declaration's type spec names.
pub fn type_of_spec(spec: &TypeSpec, consts: &dyn Fn(&str) -> Option<i64>) -> Result<Ty, String> {
    let kind = match &spec.kind {
        Some(k) => Some(fold_int(k, consts).ok_or_else(|| "the kind must be a constant accsim can evaluate".to_string())?),
        None => None,
    };
    let check = |k: i64, allowed: &[i64], what: &str| -> Result<u8, String> {
        if allowed.contains(&k) {
            Ok(k as u8)
        } else {
            Err(format!("kind {k} of {what} is not supported (gfortran kinds: {allowed:?})"))
        }
    };
    Ok(match spec.base.as_str() {
        "integer" => Ty::Int(check(kind.unwrap_or(4), &[1, 2, 4, 8], "integer")?),
        "real" => Ty::Real(check(kind.unwrap_or(4), &[4, 8], "real")?),
        "doubleprecision" => Ty::Real(8),
        "complex" => Ty::Complex(check(kind.unwrap_or(4), &[4, 8], "complex")?),
        "logical" => {
            check(kind.unwrap_or(4), &[4], "logical")?;
            Ty::Logical
        }
        "character" => Ty::Char,
        other => return Err(format!("type `{other}` is not supported")),
    })
}

/// Implicit typing (Fortran 2003 §5.3): names starting with i–n are default integer, others real.
pub fn implicit_type(name: &str) -> Ty {
    match name.as_bytes().first() {
        Some(b'i'..=b'n') => Ty::Int(4),
        _ => Ty::Real(4),
    }
}

/// Bounds of an array spec as C expressions: `(lbs, exts)`, where `bound` translates one bound.
pub fn dims_to_shape(
    dims: &[Dim],
    cname: &str,
    consts: &dyn Fn(&str) -> Option<i64>,
    bound: &mut dyn FnMut(&Expr) -> Result<String, String>,
) -> Result<(Vec<String>, Vec<String>, bool), String> {
    let mut lbs = Vec::new();
    let mut exts = Vec::new();
    let mut all_const = true;
    for (k, d) in dims.iter().enumerate() {
        match d {
            Dim::Explicit(lo, hi) => {
                let lo_c = lo.as_ref().map(|l| fold_int(l, consts));
                let hi_c = fold_int(hi, consts);
                match (lo_c, hi_c) {
                    (None, Some(h)) => {
                        lbs.push("1".into());
                        exts.push(h.max(0).to_string());
                    }
                    (Some(Some(l)), Some(h)) => {
                        lbs.push(l.to_string());
                        exts.push((h - l + 1).max(0).to_string());
                    }
                    _ => {
                        all_const = false;
                        let l = match lo {
                            Some(l) => bound(l)?,
                            None => "1".into(),
                        };
                        let h = bound(hi)?;
                        lbs.push(l.clone());
                        exts.push(if l == "1" { format!("(long)({h})") } else { format!("(long)({h}) - ({l}) + 1") });
                    }
                }
            }
            Dim::Colon(lo) | Dim::Star(lo) => {
                all_const = false;
                let l = match lo {
                    Some(l) => match fold_int(l, consts) {
                        Some(v) => v.to_string(),
                        None => bound(l)?,
                    },
                    None => "1".into(),
                };
                lbs.push(l);
                exts.push(format!("{cname}_n{}", k + 1));
            }
        }
    }
    Ok((lbs, exts, all_const))
}

pub type Scope = HashMap<String, Var>;

/// The bytes `allocate` and automatic arrays ask `malloc` for: `count` elements of `size` bytes,
/// at least 1 (as libgfortran's allocate), where `count` is a C expression without side effects
/// (bound variables and constants). It is the computation of runtime.h's `_f_allocation_bytes`,
/// written inline: a call from compiled code costs ~70 Cranelift instructions (issue 16).
pub fn allocation_bytes(count: &str, size: &str) -> String {
    format!("(({count}) > 0 ? (unsigned long)({count}) * {size} : 1)")
}
