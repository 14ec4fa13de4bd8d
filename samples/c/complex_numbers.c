// Exercises: C99 _Complex with complex.h: I, creal, cimag, cabs, conj,
// arithmetic (+ - * /), complex from real, and a small complex iteration.
#include <stdio.h>
#include <complex.h>

static double complex square(double complex z) { return z * z; }

int main(void) {
    double complex z1 = 1.0 + 2.0 * I;
    double complex z2 = 3.0 - 1.0 * I;
    printf("z1 = %.3f%+.3fi\n", creal(z1), cimag(z1));
    printf("z2 = %.3f%+.3fi\n", creal(z2), cimag(z2));
    double complex s = z1 + z2, d = z1 - z2, m = z1 * z2, q = z1 / z2;
    printf("sum  %.6f %+.6f\n", creal(s), cimag(s));
    printf("diff %.6f %+.6f\n", creal(d), cimag(d));
    printf("prod %.6f %+.6f\n", creal(m), cimag(m));
    printf("quot %.6f %+.6f\n", creal(q), cimag(q));
    printf("|z1| = %.17g\n", cabs(z1));
    printf("|3+4i| = %.17g\n", cabs(3.0 + 4.0 * I));
    double complex cz = conj(z1);
    printf("conj(z1) = %.1f %+.1f\n", creal(cz), cimag(cz));
    double complex i2 = I * I;
    printf("I*I = %.1f %+.1f\n", creal(i2), cimag(i2));
    double complex r = 5.0;
    printf("from real: %.1f %+.1f\n", creal(r), cimag(r));
    double complex sq = square(z1);
    printf("square(z1) = %.1f %+.1f\n", creal(sq), cimag(sq));
    float complex fz = 0.5f + 0.25f * I;
    fz = fz * fz;
    printf("float complex squared: %.9g %+.9g sizeof=%zu\n", crealf(fz), cimagf(fz), sizeof fz);
    printf("sizeof(double complex)=%zu\n", sizeof(double complex));
    /* iterate z = z^2 + c for a point inside and one outside the Mandelbrot set */
    double complex cs[2] = {-0.5 + 0.5 * I, 0.5 + 0.5 * I};
    for (int k = 0; k < 2; k++) {
        double complex z = 0;
        int it;
        for (it = 0; it < 50 && cabs(z) <= 2.0; it++) z = z * z + cs[k];
        printf("c=%.2f%+.2fi escaped after %d (|z|=%.6f)\n", creal(cs[k]), cimag(cs[k]), it, cabs(z));
    }
    double complex acc = 1.0;
    for (int k = 0; k < 8; k++) {
        acc *= (1.0 + 1.0 * I);
        printf("(1+i)^%d = %.1f %+.1f\n", k + 1, creal(acc), cimag(acc));
    }
    _Complex double w = __builtin_complex(2.0, -3.0);
    printf("creal %.1f cimag %.1f\n", creal(w), cimag(w));
    printf("z1 == z1: %d, z1 != z2: %d\n", z1 == z1, z1 != z2);
    return 0;
}
