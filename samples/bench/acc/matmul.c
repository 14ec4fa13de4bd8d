/* Matrix product C = A * B of N x N doubles, OpenACC.
 *
 * Benchmark (issue 3): N = 512. The outer loop is `parallel loop gang`; for each (i, j) the inner
 * product is a `loop vector reduction(+:sum)`. -DMATMUL_COLLAPSE selects the other usual shape:
 * `parallel loop collapse(2) gang vector` over (i, j) with a sequential inner loop.
 * The entries of A and B are small integers, so every product and partial sum is exact and the
 * reduction order cannot change the result: plain/matmul.c prints the same line.
 * Sizes: -DN=... . -DBENCH_TIMING prints the product time on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#ifdef BENCH_TIMING
#include <time.h>
#endif

#ifndef N
#define N 512
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
    double *c = malloc(sizeof(double) * (size_t)n * (size_t)n);
    if (a == NULL || b == NULL || c == NULL) {
        fprintf(stderr, "matmul: out of memory\n");
        return 1;
    }

    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            a[i * n + j] = (double)((i + 2 * j) % 7 - 3);
            b[i * n + j] = (double)((3 * i + j) % 5 - 2);
        }
    }

#ifdef BENCH_TIMING
    double t0 = now_seconds();
#endif
#pragma acc data copyin(a[0:n*n], b[0:n*n]) copyout(c[0:n*n])
    {
#ifdef MATMUL_COLLAPSE
#pragma acc parallel loop collapse(2) gang vector present(a[0:n*n], b[0:n*n], c[0:n*n])
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                double sum = 0.0;
#pragma acc loop seq
                for (int k = 0; k < n; k++)
                    sum += a[i * n + k] * b[k * n + j];
                c[i * n + j] = sum;
            }
        }
#else
#pragma acc parallel loop gang present(a[0:n*n], b[0:n*n], c[0:n*n])
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                double sum = 0.0;
#pragma acc loop vector reduction(+:sum)
                for (int k = 0; k < n; k++)
                    sum += a[i * n + k] * b[k * n + j];
                c[i * n + j] = sum;
            }
        }
#endif
    }
#ifdef BENCH_TIMING
    fprintf(stderr, "matmul: %dx%dx%d in %.6f s\n", n, n, n, now_seconds() - t0);
#endif

    /* Every term is an integer below 2^53, so these sums are exact in any order. */
    double sum = 0.0, weighted = 0.0, squares = 0.0;
    for (int i = 0; i < n * n; i++) {
        sum += c[i];
        weighted += c[i] * (double)(i % 3 + 1);
        squares += c[i] * c[i];
    }
    printf("matmul n=%d sum=%.1f weighted=%.1f squares=%.1f c[0]=%.1f c[last]=%.1f\n", n, sum,
           weighted, squares, c[0], c[n * n - 1]);

    free(a);
    free(b);
    free(c);
    return 0;
}
