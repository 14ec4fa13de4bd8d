/* gaussblur.c — OpenUH benchmark 3 of 6: 5x5 Gaussian blur of a 2-D image (small size).
 *
 * From Tian et al. (seeds/002, §5.1: Gaussblur 1024x1024; Table 2's 1020 outer iterations show
 * the 5x5 stencil updates rows 2..n-3). Here 64x64, 3 passes (-DN=... -DITERS=...).
 * The weights are the binomial (1 4 6 4 1) outer product divided by 256: by symmetry only six
 * distinct weights, s0 (centre) .. s8 (the four far corners), as in the kernel the paper measured.
 * Two images alternate as input and output; both stay on the device for all passes (`data`,
 * §2.6.3), the loops find them with `present` after the host swaps its two pointers.
 * Loop mapping: the paper's Map2_1 — `loop gang` over rows, `loop vector` along a row.
 * All weights are k/256 and the pixels start as integers, so the arithmetic is exact.
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

int main(void) {
    int n = N;
    const double s0 = 36.0 / 256, s1 = 24.0 / 256, s2 = 16.0 / 256;   /* centre, edge, diagonal */
    const double s4 = 6.0 / 256, s5 = 4.0 / 256, s8 = 1.0 / 256;      /* distance 2, knight, far */
    double *img = malloc((size_t)n * n * sizeof *img);
    double *out = malloc((size_t)n * n * sizeof *out);
    if (!img || !out) return 1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double v = (double)((i * 13 + j * 7) % 32);
            if ((i / 8 + j / 8) % 2 == 0) v += 128.0;    /* checkerboard of 8x8 squares */
            img[i * n + j] = v;
            out[i * n + j] = v;                           /* borders are copied unchanged */
        }

    double *in = img, *res = out;
#pragma acc data copy(img[0:n*n], out[0:n*n])
    for (int it = 0; it < ITERS; it++) {
#pragma acc parallel loop gang present(in[0:n*n], res[0:n*n])
        for (int i = 2; i < n - 2; i++) {
#pragma acc loop vector
            for (int j = 2; j < n - 2; j++) {
                const double *w = &in[i * n + j];
                res[i * n + j] =
                    s0 * w[0] +
                    s1 * (w[-1] + w[1] + w[-n] + w[n]) +
                    s2 * (w[-n - 1] + w[-n + 1] + w[n - 1] + w[n + 1]) +
                    s4 * (w[-2] + w[2] + w[-2 * n] + w[2 * n]) +
                    s5 * (w[-2 * n - 1] + w[-2 * n + 1] + w[2 * n - 1] + w[2 * n + 1] +
                          w[-n - 2] + w[-n + 2] + w[n - 2] + w[n + 2]) +
                    s8 * (w[-2 * n - 2] + w[-2 * n + 2] + w[2 * n - 2] + w[2 * n + 2]);
            }
        }
        double *t = in;
        in = res;
        res = t;
    }

    /* `in` is the last result */
    double sum = 0.0;
    for (int i = 0; i < n * n; i++) sum += in[i];
    printf("gaussblur %dx%d, %d passes: p[2][2] = %.6f, p[%d][%d] = %.6f\n", n, n, ITERS,
           in[2 * n + 2], n / 2, n / 2 + 3, in[(n / 2) * n + n / 2 + 3]);
    printf("checksum = %.6f\n", sum);
    free(img);
    free(out);
    return 0;
}
