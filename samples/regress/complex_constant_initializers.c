// Issue 14 (found by the front-end fuzzer's neighbourhood): arithmetic constant expressions of
// complex type (C11 6.6p3, 6.6p7: `1.0 + 2.0*I` is one) initialize objects with static storage
// duration, as gcc accepts; accsim rejected them ("not a compile-time constant") because complex
// `+ - * /`, negation and conversions between complex types were not folded. Globals, arrays,
// struct members and static locals of float and double complex, read by a kernel.
#include <complex.h>
#include <stdio.h>

double _Complex g = 1.0 + 2.0 * I;
float _Complex h = 3.0f - I;
double _Complex q = (1.0 + 1.0 * I) / (2.0 - 2.0 * I);
double _Complex roots[3] = {1.0, -0.5 + 0.866025 * I, -(0.5 + 0.866025 * I)};
struct wave { int n; double _Complex amp; float _Complex phase; } w = {2, 0.5 * I + 0.25, (float _Complex)(2.0 * I)};
double re_of_h = (double)(3.0f - I);

int main(void) {
    static float _Complex scale = 2.0f * (1.0f + I) * (1.0f - I);
    double re = 0.0, im = 0.0;
#pragma acc parallel loop copyin(roots) reduction(+:re, im)
    for (int i = 0; i < 3; i++) {
        double _Complex z = roots[i] * g;
        re += creal(z);
        im += cimag(z);
    }
    printf("g = %g%+gi, h = %g%+gi, q = %g%+gi\n", creal(g), cimag(g), crealf(h), cimagf(h), creal(q), cimag(q));
    printf("w = %d, %g%+gi, %g%+gi; re(h) = %g\n", w.n, creal(w.amp), cimag(w.amp), crealf(w.phase), cimagf(w.phase), re_of_h);
    printf("scale = %g%+gi\n", crealf(scale), cimagf(scale));
    printf("sum of roots * g = %.6f%+.6fi\n", re, im);
    return 0;
}
