/* laplacian.c — GPU benchmark: the OpenUH Laplacian (seeds/002 §5.2; small version in
 * samples/openuh/laplacian.c) at a size that fills a GPU, for `--loop-map map3_*`.
 *
 *   w1[k][j][i] = alpha * w0[k][j][i] + beta * (six face neighbours)   on the interior.
 *
 * k, j, i are `gang` / `worker` / `vector` (spec-conforming; §2.7.2 forbids a gang loop in a
 * gang loop), one perfect nest: every Map3 mapping of `accsim run --device cuda --loop-map`
 * applies. Storage is i-fastest. Sizes: -DN= (default 512: 2 GiB of doubles), -DITERS=,
 * -DGANGS= -DWORKERS= -DVL=. With -DBENCH_TIMING the time per sweep goes to stderr.
 * Bytes counted per sweep: 16 per interior point (one read, one write).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef N
#define N 512L
#endif
#ifndef ITERS
#define ITERS 10
#endif
#ifndef GANGS
#define GANGS 65536
#endif
#ifndef WORKERS
#define WORKERS 4
#endif
#ifndef VL
#define VL 128
#endif

#define IDX(k, j, i) (((k) * n + (j)) * n + (i))

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(void) {
    long n = N;
    long total = n * n * n;
    const double alpha = 0.25, beta = 0.125;
    double *w0 = malloc(total * sizeof(double));
    double *w1 = malloc(total * sizeof(double));
    if (!w0 || !w1) return 1;
    double sum = 0.0;
    #pragma acc data create(w0[0:total], w1[0:total])
    {
        #pragma acc parallel loop gang vector num_gangs(GANGS) vector_length(VL) present(w0[0:total], w1[0:total])
        for (long x = 0; x < total; x++) {
            double v = (double)(x % 8);
            w0[x] = v;
            w1[x] = v;
        }
        double *in = w0, *out = w1;
        double t0 = now();
        for (int t = 0; t < ITERS; t++) {
            #pragma acc parallel num_gangs(GANGS) num_workers(WORKERS) vector_length(VL) present(in[0:total], out[0:total])
            {
                #pragma acc loop gang
                for (long k = 1; k < n - 1; k++) {
                    #pragma acc loop worker
                    for (long j = 1; j < n - 1; j++) {
                        #pragma acc loop vector
                        for (long i = 1; i < n - 1; i++)
                            out[IDX(k, j, i)] = alpha * in[IDX(k, j, i)] +
                                beta * (in[IDX(k, j, i + 1)] + in[IDX(k, j, i - 1)] + in[IDX(k, j + 1, i)] +
                                        in[IDX(k, j - 1, i)] + in[IDX(k + 1, j, i)] + in[IDX(k - 1, j, i)]);
                    }
                }
            }
            double *tmp = in;
            in = out;
            out = tmp;
        }
        double t1 = now();
        #pragma acc parallel loop gang vector num_gangs(GANGS) vector_length(VL) present(in[0:total]) reduction(+:sum)
        for (long x = 0; x < total; x++)
            sum += in[x];
#ifdef BENCH_TIMING
        double bytes = 16.0 * (double)(n - 2) * (double)(n - 2) * (double)(n - 2) * ITERS;
        fprintf(stderr, "laplacian N=%ld ITERS=%d: %.3f ms per sweep, %.1f GB/s\n", n, ITERS, 1e3 * (t1 - t0) / ITERS, bytes / (t1 - t0) / 1e9);
#else
        (void)t0;
        (void)t1;
#endif
    }
    printf("laplacian: sum = %.10e\n", sum);
    free(w0);
    free(w1);
    return 0;
}
