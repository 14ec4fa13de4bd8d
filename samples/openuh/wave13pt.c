/* wave13pt.c — OpenUH benchmark 6 of 6: 13-point 3-D wave equation stencil (small size).
 *
 * From Tian et al. (seeds/002, §5.2: Wave13pt 128x128x128; Table 3's 124 innermost iterations
 * show the update covers 2..n-3, the reach of a distance-2 stencil). Here 64^3, 3 time steps
 * (-DN= -DITERS=). Three time levels rotate:
 *   w2 = m0*w1 - w0 + m1*(6 neighbours at distance 1) + m2*(6 neighbours at distance 2)
 * Storage is i-fastest, the innermost loop is i. Mapping: the k and j loops are collapsed and
 * spread over gangs (`loop gang collapse(2)`, §2.7.1), the i loop over vector lanes — the 2-D
 * gang / 1-D vector arrangement of the paper's Map3_2, in OpenACC 2.0 terms. All three levels stay
 * on the device (`data`, §2.6.3); the host rotates its three pointers and `present` finds them.
 * m0 = 3/2, m1 = 1/16, m2 = -1/32: exact arithmetic.
 *
 * Expected output: gcc-derived (see ../acc/README.md).
 */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 64
#endif
#ifndef ITERS
#define ITERS 3
#endif

#define IDX(k, j, i) ((size_t)(k) * n * n + (size_t)(j) * n + (i))

int main(void) {
    int n = N;
    size_t total = (size_t)n * n * n;
    const double m0 = 1.5, m1 = 0.0625, m2 = -0.03125;
    double *wa = malloc(total * sizeof *wa);
    double *wb = malloc(total * sizeof *wb);
    double *wc = malloc(total * sizeof *wc);
    if (!wa || !wb || !wc) return 1;
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                double v = (double)((i * i + j + 2 * k) % 8);
                wa[IDX(k, j, i)] = v;           /* previous time level */
                wb[IDX(k, j, i)] = v + 1.0;     /* current time level */
                wc[IDX(k, j, i)] = 0.0;         /* next: boundary stays 0 */
            }

    double *w0 = wa, *w1 = wb, *w2 = wc;
#pragma acc data copy(wa[0:total], wb[0:total], wc[0:total])
    for (int t = 0; t < ITERS; t++) {
#pragma acc parallel loop gang collapse(2) vector_length(64) present(w0[0:total], w1[0:total], w2[0:total])
        for (int k = 2; k < n - 2; k++)
            for (int j = 2; j < n - 2; j++) {
#pragma acc loop vector
                for (int i = 2; i < n - 2; i++)
                    w2[IDX(k, j, i)] = m0 * w1[IDX(k, j, i)] - w0[IDX(k, j, i)] +
                        m1 * (w1[IDX(k, j, i + 1)] + w1[IDX(k, j, i - 1)] +
                              w1[IDX(k, j + 1, i)] + w1[IDX(k, j - 1, i)] +
                              w1[IDX(k + 1, j, i)] + w1[IDX(k - 1, j, i)]) +
                        m2 * (w1[IDX(k, j, i + 2)] + w1[IDX(k, j, i - 2)] +
                              w1[IDX(k, j + 2, i)] + w1[IDX(k, j - 2, i)] +
                              w1[IDX(k + 2, j, i)] + w1[IDX(k - 2, j, i)]);
            }
        double *tmp = w0;
        w0 = w1;
        w1 = w2;
        w2 = tmp;
    }

    /* w1 is the newest level */
    double sum = 0.0;
    for (size_t x = 0; x < total; x++) sum += w1[x];
    printf("wave13pt %d^3, %d steps: w[2][2][2] = %.6f, w[%d][%d][%d] = %.6f\n", n, ITERS,
           w1[IDX(2, 2, 2)], n / 2, n / 2, n / 2, w1[IDX(n / 2, n / 2, n / 2)]);
    printf("checksum = %.6f\n", sum);
    free(wa);
    free(wb);
    free(wc);
    return 0;
}
