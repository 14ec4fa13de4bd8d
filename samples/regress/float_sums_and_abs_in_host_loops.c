// Issue 16 (item 1, the native engine's host code): float sums carried around a loop nest stay
// exact when the nest's cold paths (checked accesses, fuel checks) call helpers that keep every
// register, and `fabs`/`fabsf`/`sqrtf` done inline in float registers give the C library's bits
// (C11 7.12.7.2, 7.12.7.5: fabs clears the sign, NaN payloads kept; sqrt of -0 is -0). The
// sums are over a grid read through a pointer, as jacobi's checksum loop; special values (NaN
// with a payload, -0, infinities, subnormals) go through the math calls.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long bits(double d) {
    unsigned long long u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static unsigned fbits(float f) {
    unsigned u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static double from_bits(unsigned long long u) {
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

int main(void) {
    int n = 300;
    double *a = malloc(sizeof(double) * n * n), *b = malloc(sizeof(double) * n * n);
    float *f = malloc(sizeof(float) * n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            a[i * n + j] = (double)((i * 37 + j * 91) % 101) / 101.0 - 0.25;
            b[i * n + j] = (double)((i * 11 + j * 7) % 13) / 13.0;
        }
    for (int i = 0; i < n; i++)
        f[i] = (float)(i % 17) * 0.5f - 4.0f;
    // Sums and sums of absolute differences carried around the nest (several calls after it).
    double s = 0.0, d = 0.0;
    float fs = 0.0f;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            s = s + a[i * n + j];
            d = d + fabs(a[i * n + j] - b[i * n + j]);
        }
        fs = fs + fabsf(f[i]) + sqrtf(fabsf(f[i]));
    }
    printf("n=%d ", n);
    printf("s=%.17g ", s);
    printf("d=%.17g ", d);
    printf("fs=%.9g\n", fs);
    // Special values through fabs, fabsf and sqrtf, by their bits.
    double special[7];
    special[0] = from_bits(0x7ff4000000000123ull);  /* signalling NaN with a payload */
    special[1] = from_bits(0xfff8000000000456ull);  /* negative quiet NaN with a payload */
    special[2] = -0.0;
    special[3] = -INFINITY;
    special[4] = -4.9406564584124654e-324;         /* the least negative subnormal */
    special[5] = -1.5;
    special[6] = 2.25;
    for (int k = 0; k < 7; k++) {
        double x = special[k];
        float y = (float)x;
        printf("%d: fabs %016llx fabsf %08x", k, bits(fabs(x)), fbits(fabsf(y)));
        if (!(y < 0.0f))
            printf(" sqrtf %08x", fbits(sqrtf(y)));
        printf("\n");
    }
    free(a);
    free(b);
    free(f);
    return 0;
}
