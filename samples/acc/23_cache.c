/* 23_cache.c — hint which array elements each iteration reuses: the cache directive.
 *
 * Teaches: `#pragma acc cache(list)` at the top of a loop body (§2.8) asks the implementation to
 * keep the listed elements or subarrays in the fastest memory (on a GPU, shared memory) for that
 * iteration. A subarray's start may be the loop index plus or minus a constant or loop invariant,
 * its length must be a constant: `in[i-1:3]` is the window a 3-point stencil reads. It is only a
 * hint: it never changes results, so this program prints the same with or without it.
 *
 * Expected output: gcc-derived (see README.md).
 */
#include <stdio.h>

#define N 4096
#define R 8
#define C 64

static double in[N], out[N];
static double img[R][C], smooth[R][C];

int main(void) {
    for (int i = 0; i < N; i++) in[i] = (double)((i * 5) % 32);
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++) img[r][c] = (double)((r * 3 + c) % 10);

    /* 1-D: the three-element window of each interior iteration (the window must stay inside
       the array, so the loop skips the two ends, which keep their input values) */
    out[0] = in[0];
    out[N - 1] = in[N - 1];
#pragma acc parallel loop gang vector copyin(in) copy(out)
    for (int i = 1; i < N - 1; i++) {
#pragma acc cache(in[i-1:3])
        out[i] = 0.25 * in[i - 1] + 0.5 * in[i] + 0.25 * in[i + 1];
    }

    /* 2-D: each gang caches the whole row it smooths (start: loop invariant, length constant) */
#pragma acc parallel loop gang copyin(img) copyout(smooth)
    for (int r = 0; r < R; r++) {
#pragma acc cache(img[r][0:C])
#pragma acc loop vector
        for (int c = 0; c < C; c++) {
            double left = img[r][c > 0 ? c - 1 : c], right = img[r][c < C - 1 ? c + 1 : c];
            smooth[r][c] = 0.5 * img[r][c] + 0.25 * (left + right);
        }
    }

    double s1 = 0.0, s2 = 0.0;
    for (int i = 0; i < N; i++) s1 += out[i];
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++) s2 += smooth[r][c];
    printf("out[1] = %.6f, sum(out) = %.6f\n", out[1], s1);
    printf("smooth[3][0] = %.6f, sum(smooth) = %.6f\n", smooth[3][0], s2);
    return 0;
}
