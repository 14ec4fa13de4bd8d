/* saxpy on the device at a size that fills a GPU: y = 2x + y over N floats, REPS times, inside one
 * data region (the arrays are made and initialised on the device, so only the kernels are timed).
 * Prints a checksum on stdout; with -DBENCH_TIMING, the time and bandwidth of the sweeps on stderr
 * (3 x 4 bytes moved per element: read x, read y, write y).
 *
 *   accsim run --device cuda -DBENCH_TIMING samples/bench/gpu/saxpy.c
 *   accsim validate -DN=4096 -DREPS=2 samples/bench/gpu/saxpy.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef N
#define N (1L << 28)
#endif
#ifndef REPS
#define REPS 20
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
    float *x = malloc(n * sizeof(float));
    float *y = malloc(n * sizeof(float));
    if (!x || !y) return 1;
    double sum = 0.0;
    #pragma acc data create(x[0:n], y[0:n])
    {
        #pragma acc parallel loop gang vector num_gangs(GANGS) vector_length(VL) present(x[0:n], y[0:n])
        for (long i = 0; i < n; i++) {
            x[i] = (float)(i % 1000);
            y[i] = 1.0f;
        }
        double t0 = now();
        for (int r = 0; r < REPS; r++) {
            #pragma acc parallel loop gang vector num_gangs(GANGS) vector_length(VL) present(x[0:n], y[0:n])
            for (long i = 0; i < n; i++)
                y[i] = 2.0f * x[i] + y[i];
        }
        double t1 = now();
        #pragma acc parallel loop gang vector num_gangs(GANGS) vector_length(VL) present(y[0:n]) reduction(+:sum)
        for (long i = 0; i < n; i++)
            sum += y[i];
        #pragma acc update host(y[0:16])
#ifdef BENCH_TIMING
        double bytes = 12.0 * (double)n * REPS;
        fprintf(stderr, "saxpy N=%ld REPS=%d: %.3f ms per sweep, %.1f GB/s\n", n, REPS, 1e3 * (t1 - t0) / REPS, bytes / (t1 - t0) / 1e9);
#else
        (void)t0;
        (void)t1;
#endif
    }
    printf("saxpy: y[7] = %.1f, sum = %.6e\n", y[7], sum);
    free(x);
    free(y);
    return 0;
}
