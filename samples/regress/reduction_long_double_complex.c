// Issue 13 (gang model): a reduction on complex variables of every element type, `+` and `*`
// (§2.5.11: the reduction operators on complex types). Each gang's partial starts at the identity
// and the partials are combined into the variable after the region. A `long double _Complex` is
// two 16-byte parts: the CUDA device combined its imaginary part at offset 8 (inside the real part)
// and printed 0 for it.
#include <complex.h>
#include <stdio.h>

#define N 64

int main(void) {
    float _Complex fs = 0.0f, fp = 1.0f;
    double _Complex ds = 0.0, dp = 1.0;
    long double _Complex ls = 0.0L, lp = 1.0L;
    long double _Complex lz[N];
    for (int i = 0; i < N; i++)
        lz[i] = (i % 4) + 0.5L * (i % 3) * I;

#pragma acc parallel loop num_gangs(4) reduction(+:fs) reduction(+:ds) reduction(+:ls) copyin(lz)
    for (int i = 0; i < N; i++) {
        fs += (float _Complex)lz[i];
        ds += (double _Complex)lz[i];
        ls += lz[i];
    }

#pragma acc parallel loop num_gangs(4) reduction(*:fp) reduction(*:dp) reduction(*:lp)
    for (int i = 0; i < 8; i++) {
        fp *= 1.0f + 0.25f * I;
        dp *= 1.0 + 0.25 * I;
        lp *= 1.0L + 0.25L * I;
    }

    printf("float  sum %.4f %+.4fi  product %.6f %+.6fi\n", crealf(fs), cimagf(fs), crealf(fp), cimagf(fp));
    printf("double sum %.4f %+.4fi  product %.6f %+.6fi\n", creal(ds), cimag(ds), creal(dp), cimag(dp));
    printf("long   sum %.4Lf %+.4Lfi  product %.6Lf %+.6Lfi\n", creall(ls), cimagl(ls), creall(lp), cimagl(lp));
    return 0;
}
