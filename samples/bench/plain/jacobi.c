/* Jacobi relaxation on an N x N grid of doubles, plain C (no directives).
 *
 * Benchmark (issue 2): one sweep over a 1024 x 1024 grid, plus the initialisation and the checksum.
 * Sizes: -DN=... (grid side, at least 3), -DITERS=... (sweeps, default 1).
 * With the same N and ITERS, acc/jacobi.c computes the same values and prints the same line.
 * -DBENCH_TIMING prints the sweep time on stderr; stdout carries only the checksum line.
 */
#include <stdio.h>
#include <stdlib.h>
#ifdef BENCH_TIMING
#include <time.h>
#endif

#ifndef N
#define N 1024
#endif
#ifndef ITERS
#define ITERS 1
#endif

#ifdef BENCH_TIMING
static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
#endif

int main(void)
{
    const int n = N;
    double *a = malloc(sizeof(double) * (size_t)n * (size_t)n);
    double *b = malloc(sizeof(double) * (size_t)n * (size_t)n);
    if (a == NULL || b == NULL) {
        fprintf(stderr, "jacobi: out of memory\n");
        return 1;
    }

    /* Fixed boundary (hot top edge) and a deterministic interior pattern. */
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            double v = (double)((i * 37 + j * 91) % 101) / 101.0;
            if (i == 0)
                v = 1.0;
            a[i * n + j] = v;
            b[i * n + j] = v;
        }
    }

#ifdef BENCH_TIMING
    double t0 = now_seconds();
#endif
    for (int it = 0; it < ITERS; it++) {
        for (int i = 1; i < n - 1; i++) {
            for (int j = 1; j < n - 1; j++) {
                b[i * n + j] = 0.25 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] +
                                       a[i * n + j - 1] + a[i * n + j + 1]);
            }
        }
        double *t = a;
        a = b;
        b = t;
    }
#ifdef BENCH_TIMING
    fprintf(stderr, "jacobi: %d sweeps in %.6f s\n", ITERS, now_seconds() - t0);
#endif

    /* a holds the newest grid, b the one before it. */
    double sum = 0.0, diff = 0.0;
    for (int i = 0; i < n * n; i++) {
        sum += a[i];
        diff += a[i] > b[i] ? a[i] - b[i] : b[i] - a[i];
    }
    printf("jacobi n=%d sweeps=%d sum=%.12e diff=%.12e centre=%.12e\n", n, ITERS, sum, diff,
           a[(n / 2) * n + n / 2]);

    free(a);
    free(b);
    return 0;
}
