/* 06_reductions.c — every reduction operator of the OpenACC table, on int, float and double.
 *
 * Teaches: `reduction(op:var)` (§2.5.11 on parallel, §2.7.11 on loop) gives each gang / thread a
 * private copy of var initialised for op (+ 0, * 1, max least, min largest, & ~0, | 0, ^ 0, && 1,
 * || 0), and at the end combines the private copies with op *and with the original value of var*:
 * that is why isum starts at 10 and iprod at 3 and both starting values show in the results.
 * Several reduction clauses may be on one loop. & | ^ need integer operands; && and || accept
 * floating variables (the result is 0 or 1 converted to the variable's type); + also works on
 * `double _Complex` (§2.5.11: "int, float, double, complex").
 * Floating-point reductions combine partial results in an unspecified order, so in general they
 * differ in the last bits from a sequential sum. The data here are small multiples of powers of
 * two, so every partial sum is exact and all orders print the same digits.
 *
 * Expected output: gcc-derived (see README.md).
 */
#include <complex.h>
#include <limits.h>
#include <stdio.h>

#define N 1000

static int iv[N], ifac[N], ibits[N];
static float fv[N], ffac[N];
static double dv[N], dfac[N];

int main(void) {
    for (int i = 0; i < N; i++) {
        int v = (i * 37) % 1001 - 500;
        iv[i] = v == 0 ? 7 : v;                        /* in [-500, 500], never 0 */
        ifac[i] = i % 125 == 0 ? 2 : 1;                /* eight 2s */
        ibits[i] = ~(1 << (i % 24)) & 0x7fffffff;      /* clears one of bits 0..23 */
        fv[i] = 0.25f * (float)iv[i];
        ffac[i] = i % 100 == 0 ? 2.0f : (i % 300 == 7 ? 0.5f : 1.0f);
        dv[i] = iv[i] / 8.0;
        dfac[i] = i % 100 == 0 ? 1.5 : 1.0;
    }

    /* int: all nine operators */
    int isum = 10, iprod = 3, imax = INT_MIN, imin = INT_MAX;
    int iand = ~0, ior = 0x40000000, ixor = 0, iland = 1, ilor = 0;
#pragma acc parallel loop copyin(iv, ifac, ibits) \
    reduction(+:isum) reduction(*:iprod) reduction(max:imax) reduction(min:imin) \
    reduction(&:iand) reduction(|:ior) reduction(^:ixor) reduction(&&:iland) reduction(||:ilor)
    for (int i = 0; i < N; i++) {
        isum += iv[i];
        iprod *= ifac[i];
        imax = iv[i] > imax ? iv[i] : imax;
        imin = iv[i] < imin ? iv[i] : imin;
        iand &= ibits[i];
        ior |= 1 << (i % 20);
        ixor ^= (int)(((unsigned)i * 2654435761u >> 16) & 0xffffu);
        iland = iland && iv[i];
        ilor = ilor || iv[i] == 123;
    }
    printf("int    +: %d  *: %d  max: %d  min: %d\n", isum, iprod, imax, imin);
    printf("int    &: %#010x  |: %#010x  ^: %#010x  &&: %d  ||: %d\n",
           (unsigned)iand, (unsigned)ior, (unsigned)ixor, iland, ilor);

    /* float: the operators defined on floating types */
    float fsum = 0.5f, fprod = 1.0f, fmaxv = -1.0e30f, fminv = 1.0e30f, fland = 1.0f, flor = 0.0f;
#pragma acc parallel loop copyin(fv, ffac) \
    reduction(+:fsum) reduction(*:fprod) reduction(max:fmaxv) reduction(min:fminv) \
    reduction(&&:fland) reduction(||:flor)
    for (int i = 0; i < N; i++) {
        fsum += fv[i];
        fprod *= ffac[i];
        fmaxv = fv[i] > fmaxv ? fv[i] : fmaxv;
        fminv = fv[i] < fminv ? fv[i] : fminv;
        fland = fland && fv[i];
        flor = flor || fv[i] > 124.0f;
    }
    printf("float  +: %.6f  *: %.6f  max: %.6f  min: %.6f  &&: %.6f  ||: %.6f\n",
           fsum, fprod, fmaxv, fminv, fland, flor);

    double dsum = 0.0, dprod = 1.0, dmaxv = -1.0e300, dminv = 1.0e300, dland = 1.0, dlor = 0.0;
#pragma acc parallel loop copyin(dv, dfac) \
    reduction(+:dsum) reduction(*:dprod) reduction(max:dmaxv) reduction(min:dminv) \
    reduction(&&:dland) reduction(||:dlor)
    for (int i = 0; i < N; i++) {
        dsum += dv[i];
        dprod *= dfac[i];
        dmaxv = dv[i] > dmaxv ? dv[i] : dmaxv;
        dminv = dv[i] < dminv ? dv[i] : dminv;
        dland = dland && dv[i] < 62.0;
        dlor = dlor || dv[i] == 1000.0;
    }
    printf("double +: %.6f  *: %.6f  max: %.6f  min: %.6f  &&: %.6f  ||: %.6f\n",
           dsum, dprod, dmaxv, dminv, dland, dlor);

    /* complex: + */
    double _Complex z = 1.0 + 1.0 * I;
#pragma acc parallel loop reduction(+:z)
    for (int i = 0; i < N; i++)
        z += (i % 4) * 0.5 + (i % 3) * 0.25 * I;
    printf("complex +: %.6f%+.6fi\n", creal(z), cimag(z));
    return 0;
}
