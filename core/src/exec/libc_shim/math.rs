//! The math library of the C library shims ([`super`]): the `<math.h>` functions bound by name
//! (Rust's f64/f32 methods call the same libm as gcc's code), the ports of glibc 2.36's `cbrt`
//! and `remainder`, `frexp`/`ldexp`, the classification macros and the part of `<complex.h>`
//! the shims provide.

use super::{f32b, f64b, Classify, ComplexFn};
use crate::exec::libc_erf;
use crate::exec::value::Kind;

pub(super) fn math1(name: &str) -> Option<fn(f64) -> f64> {
    Some(match name {
        "sqrt" => f64::sqrt,
        "cbrt" => glibc_cbrt,
        "exp" => f64::exp,
        "exp2" => f64::exp2,
        "expm1" => f64::exp_m1,
        "log" => f64::ln,
        "log2" => f64::log2,
        "log10" => f64::log10,
        "log1p" => f64::ln_1p,
        "sin" => f64::sin,
        "cos" => f64::cos,
        "tan" => f64::tan,
        "asin" => f64::asin,
        "acos" => f64::acos,
        "atan" => f64::atan,
        "sinh" => f64::sinh,
        "cosh" => f64::cosh,
        "tanh" => f64::tanh,
        "asinh" => f64::asinh,
        "acosh" => f64::acosh,
        "atanh" => f64::atanh,
        "fabs" => f64::abs,
        "floor" => f64::floor,
        "ceil" => f64::ceil,
        "round" => f64::round,
        "trunc" => f64::trunc,
        "rint" | "nearbyint" => f64::round_ties_even,
        "erf" => libc_erf::erf,
        "erfc" => libc_erf::erfc,
        _ => return None,
    })
}

pub(super) fn math1f(name: &str) -> Option<fn(f32) -> f32> {
    Some(match name {
        "sqrtf" => f32::sqrt,
        "cbrtf" => f32::cbrt,
        "expf" => f32::exp,
        "exp2f" => f32::exp2,
        "expm1f" => f32::exp_m1,
        "logf" => f32::ln,
        "log2f" => f32::log2,
        "log10f" => f32::log10,
        "log1pf" => f32::ln_1p,
        "sinf" => f32::sin,
        "cosf" => f32::cos,
        "tanf" => f32::tan,
        "asinf" => f32::asin,
        "acosf" => f32::acos,
        "atanf" => f32::atan,
        "sinhf" => f32::sinh,
        "coshf" => f32::cosh,
        "tanhf" => f32::tanh,
        "asinhf" => f32::asinh,
        "acoshf" => f32::acosh,
        "atanhf" => f32::atanh,
        "fabsf" => f32::abs,
        "floorf" => f32::floor,
        "ceilf" => f32::ceil,
        "roundf" => f32::round,
        "truncf" => f32::trunc,
        "rintf" | "nearbyintf" => f32::round_ties_even,
        _ => return None,
    })
}

fn fmin(a: f64, b: f64) -> f64 {
    a.min(b)
}
fn fmax(a: f64, b: f64) -> f64 {
    a.max(b)
}
fn fmod(a: f64, b: f64) -> f64 {
    a % b
}
fn fdim(a: f64, b: f64) -> f64 {
    if a > b {
        a - b
    } else if a.is_nan() || b.is_nan() {
        a + b
    } else {
        0.0
    }
}
fn fminf(a: f32, b: f32) -> f32 {
    a.min(b)
}
fn fmaxf(a: f32, b: f32) -> f32 {
    a.max(b)
}
fn fmodf(a: f32, b: f32) -> f32 {
    a % b
}

pub(super) fn math2(name: &str) -> Option<fn(f64, f64) -> f64> {
    Some(match name {
        "pow" => f64::powf,
        "atan2" => f64::atan2,
        "fmod" => fmod,
        "fmin" => fmin,
        "fmax" => fmax,
        "fdim" => fdim,
        "hypot" => f64::hypot,
        "copysign" => f64::copysign,
        _ => return None,
    })
}

pub(super) fn math2f(name: &str) -> Option<fn(f32, f32) -> f32> {
    Some(match name {
        "powf" => f32::powf,
        "atan2f" => f32::atan2,
        "fmodf" => fmodf,
        "fminf" => fminf,
        "fmaxf" => fmaxf,
        "hypotf" => f32::hypot,
        "copysignf" => f32::copysign,
        _ => return None,
    })
}

pub(super) fn classify(c: Classify, x: f64, k: Kind, v: &[u64]) -> u64 {
    let r: i64 = match c {
        Classify::IsNan => x.is_nan() as i64,
        Classify::IsInf => x.is_infinite() as i64,
        Classify::IsInfSign => {
            if x.is_infinite() {
                if x < 0.0 {
                    -1
                } else {
                    1
                }
            } else {
                0
            }
        }
        Classify::IsFinite => x.is_finite() as i64,
        Classify::IsNormal => {
            if k == Kind::F32 {
                (x as f32).is_normal() as i64
            } else {
                x.is_normal() as i64
            }
        }
        Classify::SignBit => x.is_sign_negative() as i64,
        Classify::FpClassify => {
            let cat = if k == Kind::F32 {
                (x as f32).classify()
            } else {
                x.classify()
            };
            let i = match cat {
                std::num::FpCategory::Nan => 0,
                std::num::FpCategory::Infinite => 1,
                std::num::FpCategory::Normal => 2,
                std::num::FpCategory::Subnormal => 3,
                std::num::FpCategory::Zero => 4,
            };
            v.get(i).copied().unwrap_or(0) as i64
        }
    };
    r as u64
}

pub(super) fn ret_f(single: bool, x: f64) -> u64 {
    if single {
        (x as f32).to_bits() as u64
    } else {
        x.to_bits()
    }
}

pub(super) fn farg(single: bool, w: u64) -> f64 {
    if single {
        f32b(w) as f64
    } else {
        f64b(w)
    }
}

pub(super) fn complex_fun(c: ComplexFn, re: f64, im: f64, w: (f64, f64)) -> (f64, f64) {
    match c {
        ComplexFn::Conj => (re, -im),
        ComplexFn::Exp => {
            let e = re.exp();
            (e * im.cos(), e * im.sin())
        }
        ComplexFn::Log => (re.hypot(im).ln(), im.atan2(re)),
        ComplexFn::Sqrt => {
            if re == 0.0 && im == 0.0 {
                return (0.0, im);
            }
            let d = re.hypot(im);
            if re > 0.0 {
                let r = (0.5 * (d + re)).sqrt();
                (r, 0.5 * (im / r))
            } else {
                let s = (0.5 * (d - re)).sqrt();
                ((0.5 * (im / s)).abs(), s.copysign(im))
            }
        }
        ComplexFn::Pow => {
            let (lr, li) = complex_fun(ComplexFn::Log, re, im, (0.0, 0.0));
            let (a, b) = w;
            complex_fun(ComplexFn::Exp, a * lr - b * li, a * li + b * lr, (0.0, 0.0))
        }
        _ => (re, im),
    }
}

/// glibc 2.36's `cbrt` (sysdeps/ieee754/dbl-64/s_cbrt.c): a polynomial start and one rational
/// iteration; not correctly rounded, so Rust's `cbrt` differs from it in the last bit.
#[allow(clippy::excessive_precision)] // glibc's constants, as written in its source
fn glibc_cbrt(x: f64) -> f64 {
    #[allow(clippy::excessive_precision)]
    const CBRT2: f64 = 1.259_921_049_894_873_164_8;
    #[allow(clippy::excessive_precision)]
    const SQR_CBRT2: f64 = 1.587_401_051_968_199_474_8;
    const FACTOR: [f64; 5] = [1.0 / SQR_CBRT2, 1.0 / CBRT2, 1.0, CBRT2, SQR_CBRT2];
    let (xm, xe) = frexp(x.abs());
    if x == 0.0 || !x.is_finite() {
        return x + x;
    }
    #[allow(clippy::excessive_precision)]
    let u = 0.354_895_765_043_919_860
        + (1.508_191_937_815_848_96
            + (-2.114_994_941_673_712_87
                + (2.446_931_225_635_344_30
                    + (-1.834_692_774_836_130_86
                        + (0.784_932_344_976_639_262 - 0.145_263_899_385_486_377 * xm) * xm)
                        * xm)
                    * xm)
                * xm)
            * xm;
    let t2 = u * u * u;
    let ym = u * (t2 + 2.0 * xm) / (2.0 * t2 + xm) * FACTOR[(2 + xe % 3) as usize];
    ldexp(if x > 0.0 { ym } else { -ym }, xe / 3)
}

/// IEEE `remainder` (fdlibm's exact method): `x - n*y` with `n` the nearest integer to `x/y`.
pub(super) fn remainder(x: f64, y: f64) -> f64 {
    if y == 0.0 || x.is_infinite() || x.is_nan() || y.is_nan() {
        // glibc's `(x * y) / (x * y)`: the x86 default NaN (sign set) unless an operand is NaN.
        let (p, q) = (x * y, x * y);
        return p / q;
    }
    let p = y.abs();
    let neg = x.is_sign_negative();
    let mut r = if p <= f64::MAX / 2.0 { x % (p + p) } else { x };
    r = r.abs();
    if p < 2.0 * f64::MIN_POSITIVE {
        if r + r > p {
            r -= p;
            if r + r >= p {
                r -= p;
            }
        }
    } else {
        let half = 0.5 * p;
        if r > half {
            r -= p;
            if r >= half {
                r -= p;
            }
        }
    }
    if neg {
        -r
    } else {
        r
    }
}

/// `frexp`: mantissa in [0.5, 1) and exponent.
pub(super) fn frexp(x: f64) -> (f64, i32) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    if exp == 0 {
        let (m, e) = frexp(x * 2f64.powi(64));
        return (m, e - 64);
    }
    let m = f64::from_bits((bits & !(0x7ff << 52)) | (1022 << 52));
    (m, exp - 1022)
}

pub(super) fn ldexp(x: f64, e: i32) -> f64 {
    // Scale in steps so that intermediate powers stay finite; each step is exact except the
    // last, which rounds once (as scalbn does) unless the result is subnormal.
    let mut x = x;
    let mut e = e.clamp(-2200, 2200);
    while e > 1000 {
        x *= 2f64.powi(1000);
        e -= 1000;
    }
    while e < -1000 {
        x *= 2f64.powi(-1000);
        e += 1000;
    }
    x * 2f64.powi(e)
}

pub(super) fn ldexp_f32(x: f32, e: i32) -> f32 {
    ldexp(x as f64, e) as f32
}
