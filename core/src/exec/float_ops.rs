//! Float `+ - * /` as x86 computes them, NaN payloads included (issue 15: both engines give
//! the same results bit for bit). Every float binary operation of the interpreter (the operation
//! table of `arith.rs`, the multiply-accumulate superinstructions, reduction combines) and the
//! front end's constant folding go through here. It names no other module of `exec`.

/// The rule and the four operations for one float type: `$rule(r, x, y)` is x86's NaN rule for
/// a float binary operation `x op y` computed as `r` (SSE `addsd`/`subsd`/`mulsd`/`divsd` and
/// their single-precision and packed forms, which the native-code engine emits with `x` as the
/// first operand): when `r` is NaN, it is `x` quieted if `x` is a NaN, else `y` quieted if `y` is
/// a NaN, else the default NaN (sign set, quiet bit only). Issue 15 asks both engines for the
/// same NaN payloads; Rust leaves which operand's payload survives to LLVM, which may commute
/// `x + y` or `x * y`, so every float binary operation of the interpreter goes through here. The
/// test costs one `is_nan` on the computed result.
macro_rules! x86_float_ops {
    ($f:ty, $quiet:expr, $default_nan:expr, $rule:ident, $pick:ident, $add:ident, $sub:ident, $mul:ident, $div:ident) => {
        #[inline(always)]
        fn $rule(r: $f, x: $f, y: $f) -> $f {
            if r.is_nan() {
                $pick(x, y)
            } else {
                r
            }
        }

        #[cold]
        fn $pick(x: $f, y: $f) -> $f {
            <$f>::from_bits(if x.is_nan() {
                x.to_bits() | $quiet
            } else if y.is_nan() {
                y.to_bits() | $quiet
            } else {
                $default_nan
            })
        }

        // The four operations under the rule (`x` is the first operand).
        #[inline(always)]
        pub(crate) fn $add(x: $f, y: $f) -> $f {
            $rule(x + y, x, y)
        }
        #[inline(always)]
        pub(crate) fn $sub(x: $f, y: $f) -> $f {
            $rule(x - y, x, y)
        }
        #[inline(always)]
        pub(crate) fn $mul(x: $f, y: $f) -> $f {
            $rule(x * y, x, y)
        }
        #[inline(always)]
        pub(crate) fn $div(x: $f, y: $f) -> $f {
            $rule(x / y, x, y)
        }
    };
}

x86_float_ops!(f64, 1u64 << 51, 0xfff8_0000_0000_0000u64, nan_rule64, nan_pick64, add64, sub64, mul64, div64);
x86_float_ops!(f32, 1u32 << 22, 0xffc0_0000u32, nan_rule32, nan_pick32, add32, sub32, mul32, div32);

#[cfg(test)]
mod tests {
    use crate::exec::float_ops as fl;

    fn f64_of(bits: u64) -> f64 {
        f64::from_bits(bits)
    }
    fn f32_of(bits: u32) -> f32 {
        f32::from_bits(bits)
    }

    /// x86's rule (issue 15): the first NaN operand quieted, else the second, else the default
    /// NaN; whichever order the compiler of this crate chose for the operation.
    #[test]
    fn nan_results_follow_the_x86_rule_first_operand_first() {
        let (p, q, s) = (f64_of(0x7ff8_0000_0000_0001), f64_of(0xfff8_0000_0000_0002), f64_of(0x7ff0_0000_0000_0003));
        for op in [fl::add64, fl::sub64, fl::mul64, fl::div64] {
            assert_eq!(op(p, q).to_bits(), 0x7ff8_0000_0000_0001);
            assert_eq!(op(q, p).to_bits(), 0xfff8_0000_0000_0002);
            assert_eq!(op(s, q).to_bits(), 0x7ff8_0000_0000_0003, "a signalling NaN is quieted");
            assert_eq!(op(1.5, s).to_bits(), 0x7ff8_0000_0000_0003);
        }
        assert_eq!(fl::sub64(f64::INFINITY, f64::INFINITY).to_bits(), 0xfff8_0000_0000_0000);
        assert_eq!(fl::div64(0.0, 0.0).to_bits(), 0xfff8_0000_0000_0000);
        assert_eq!(fl::add64(2.0, 4.0), 6.0);

        let (fp, fq, fs) = (f32_of(0x7fc0_0001), f32_of(0xffc0_0002), f32_of(0x7f80_0003));
        for op in [fl::add32, fl::sub32, fl::mul32, fl::div32] {
            assert_eq!(op(fp, fq).to_bits(), 0x7fc0_0001);
            assert_eq!(op(fq, fp).to_bits(), 0xffc0_0002);
            assert_eq!(op(fs, fq).to_bits(), 0x7fc0_0003);
            assert_eq!(op(1.5, fs).to_bits(), 0x7fc0_0003);
        }
        assert_eq!(fl::mul32(0.0, f32::INFINITY).to_bits(), 0xffc0_0000);
        assert_eq!(fl::div32(6.0, 4.0), 1.5);
    }
}
