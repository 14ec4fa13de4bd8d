/* Jacobi sweeps on the device at a size that fills a GPU: an N x N grid of doubles, ITERS sweeps
 * of the 5-point average (rows over gangs, columns over vector lanes; -DJACOBI_COLLAPSE: one
 * `collapse(2) gang vector` loop), the host swapping the grid pointers between sweeps, all inside one data
 * region (grids made and initialised on the device, so only the sweeps are timed). Prints a
 * checksum on stdout; with -DBENCH_TIMING, the time and bandwidth of the sweeps on stderr (2 x 8
 * bytes per interior point: each point read once and written once, as a cache-perfect sweep does).
 *
 *   accsim run --device cuda -DBENCH_TIMING samples/bench/gpu/jacobi.c
 *   accsim validate -DN=128 -DITERS=4 samples/bench/gpu/jacobi.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef N
#define N 8192L
#endif
#ifndef ITERS
#define ITERS 20
#endif
#ifndef GANGS
#define GANGS 8192
#endif
#ifndef VL
#define VL 256
#endif

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(void) {
    long n = N;
    double *a = malloc(n * n * sizeof(double));
    double *b = malloc(n * n * sizeof(double));
    if (!a || !b) return 1;
    double sum = 0.0;
    #pragma acc data create(a[0:n*n], b[0:n*n])
    {
        #pragma acc parallel loop gang vector num_gangs(GANGS) vector_length(VL) present(a[0:n*n], b[0:n*n])
        for (long k = 0; k < n * n; k++) {
            long i = k / n, j = k % n;
            double v = (i == 0 || j == 0 || i == n - 1 || j == n - 1) ? 1.0 : 0.0;
            a[k] = v;
            b[k] = v;
        }
        double t0 = now();
        for (int it = 0; it < ITERS; it++) {
#ifdef JACOBI_COLLAPSE
            #pragma acc parallel loop collapse(2) gang vector num_gangs(GANGS) vector_length(VL) present(a[0:n*n], b[0:n*n])
            for (long i = 1; i < n - 1; i++)
                for (long j = 1; j < n - 1; j++)
                    b[i * n + j] = 0.25 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] + a[i * n + j + 1]);
#else
            #pragma acc parallel loop gang num_gangs(GANGS) vector_length(VL) present(a[0:n*n], b[0:n*n])
            for (long i = 1; i < n - 1; i++) {
                #pragma acc loop vector
                for (long j = 1; j < n - 1; j++)
                    b[i * n + j] = 0.25 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] + a[i * n + j + 1]);
            }
#endif
            double *t = a;
            a = b;
            b = t;
        }
        double t1 = now();
        #pragma acc parallel loop gang vector num_gangs(GANGS) vector_length(VL) present(a[0:n*n]) reduction(+:sum)
        for (long k = 0; k < n * n; k++)
            sum += a[k];
#ifdef BENCH_TIMING
        double bytes = 16.0 * (double)(n - 2) * (double)(n - 2) * ITERS;
        fprintf(stderr, "jacobi N=%ld ITERS=%d: %.3f ms per sweep, %.1f GB/s\n", n, ITERS, 1e3 * (t1 - t0) / ITERS, bytes / (t1 - t0) / 1e9);
#else
        (void)t0;
        (void)t1;
#endif
    }
    printf("jacobi: sum = %.10e\n", sum);
    free(a);
    free(b);
    return 0;
}
