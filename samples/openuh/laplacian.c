/* laplacian.c — OpenUH benchmark 5 of 6: 3-D 7-point Laplacian smoothing (small size).
 *
 * From Tian et al. (seeds/002, §5.2: Laplacian 128x128x128; Table 3's 126 innermost iterations
 * show the update covers the interior 1..n-2 of each dimension). Here 64^3, 3 steps (-DN= -DITERS=).
 *   w1[k][j][i] = alpha * w0[k][j][i] + beta * (sum of the six face neighbours)
 * Storage is i-fastest and the innermost loop runs over i, so the vector lanes go on the innermost
 * loop: the paper's Map3_1 (gang / gang vector / vector). OpenACC 2.0 does not allow a gang loop
 * inside a gang loop (§2.7.2), so the spec-conforming equivalent used here is
 * `loop gang` (k) / `loop worker` (j) / `loop vector` (i) in a region with explicit
 * num_workers and vector_length (§2.5.7, §2.5.8).
 * alpha = 1/4, beta = 1/8: exact arithmetic.
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
    const double alpha = 0.25, beta = 0.125;
    double *w0 = malloc(total * sizeof *w0);
    double *w1 = malloc(total * sizeof *w1);
    if (!w0 || !w1) return 1;
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                double v = (double)((i + 2 * j + 3 * k) % 8);
                w0[IDX(k, j, i)] = v;
                w1[IDX(k, j, i)] = v;
            }

    double *in = w0, *out = w1;
#pragma acc data copy(w0[0:total], w1[0:total])
    for (int t = 0; t < ITERS; t++) {
#pragma acc parallel num_workers(4) vector_length(32) present(in[0:total], out[0:total])
        {
#pragma acc loop gang
            for (int k = 1; k < n - 1; k++) {
#pragma acc loop worker
                for (int j = 1; j < n - 1; j++) {
#pragma acc loop vector
                    for (int i = 1; i < n - 1; i++)
                        out[IDX(k, j, i)] = alpha * in[IDX(k, j, i)] +
                            beta * (in[IDX(k, j, i + 1)] + in[IDX(k, j, i - 1)] +
                                    in[IDX(k, j + 1, i)] + in[IDX(k, j - 1, i)] +
                                    in[IDX(k + 1, j, i)] + in[IDX(k - 1, j, i)]);
                }
            }
        }
        double *tmp = in;
        in = out;
        out = tmp;
    }

    double sum = 0.0;
    for (size_t x = 0; x < total; x++) sum += in[x];
    printf("laplacian %d^3, %d steps: w[1][1][1] = %.6f, w[%d][%d][%d] = %.6f\n", n, ITERS,
           in[IDX(1, 1, 1)], n / 2, n / 2, n / 2, in[IDX(n / 2, n / 2, n / 2)]);
    printf("checksum = %.6f\n", sum);
    free(w0);
    free(w1);
    return 0;
}
