#ifndef _FUZZ_MATH_H
#define _FUZZ_MATH_H
#define M_PI 3.14159265358979323846
#define HUGE_VAL (__builtin_huge_val())
#define INFINITY (__builtin_inff())
#define NAN (__builtin_nanf(""))
#define isnan(x) __builtin_isnan(x)
#define isinf(x) __builtin_isinf_sign(x)
#define FUZZ_MATH1(name) extern double name(double); extern float name##f(float);
FUZZ_MATH1(sqrt) FUZZ_MATH1(fabs) FUZZ_MATH1(sin) FUZZ_MATH1(cos) FUZZ_MATH1(tan) FUZZ_MATH1(exp)
FUZZ_MATH1(log) FUZZ_MATH1(log10) FUZZ_MATH1(floor) FUZZ_MATH1(ceil) FUZZ_MATH1(round) FUZZ_MATH1(trunc)
FUZZ_MATH1(asin) FUZZ_MATH1(acos) FUZZ_MATH1(atan) FUZZ_MATH1(sinh) FUZZ_MATH1(cosh) FUZZ_MATH1(tanh)
FUZZ_MATH1(cbrt) FUZZ_MATH1(erf) FUZZ_MATH1(log2) FUZZ_MATH1(exp2)
#define FUZZ_MATH2(name) extern double name(double, double); extern float name##f(float, float);
FUZZ_MATH2(pow) FUZZ_MATH2(fmax) FUZZ_MATH2(fmin) FUZZ_MATH2(fmod) FUZZ_MATH2(atan2) FUZZ_MATH2(hypot)
#endif
