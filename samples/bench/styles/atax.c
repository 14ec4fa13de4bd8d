/* atax (PolyBench style): y = A^T (A x), repeated REPS times with x nudged between repetitions.
 *
 * Benchmark suite of issue 15: a heap matrix in a flat array indexed `A[i * n + j]`, two
 * `parallel loop`s in one data region (the second walks A by columns), a scalar accumulator in a
 * sequential inner loop. -DN=... sets the side, -DREPS=... the repetitions.
 */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 2000
#endif
#ifndef REPS
#define REPS 12
#endif

int main(void)
{
    const int n = N;
    double *A = malloc(sizeof(double) * n * n);
    double *x = malloc(sizeof(double) * n);
    double *y = malloc(sizeof(double) * n);
    double *tmp = malloc(sizeof(double) * n);
    if (!A || !x || !y || !tmp) {
        fprintf(stderr, "atax: out of memory\n");
        return 1;
    }
    for (int i = 0; i < n; i++) {
        x[i] = 1.0 + (double)i / n;
        for (int j = 0; j < n; j++)
            A[i * n + j] = (double)((i + j) % n) / (5.0 * n);
    }
    double total = 0.0;
#pragma acc data copyin(A[0:n*n]) copy(x[0:n]) create(y[0:n], tmp[0:n])
    for (int r = 0; r < REPS; r++) {
#pragma acc parallel loop
        for (int i = 0; i < n; i++) {
            double t = 0.0;
            for (int j = 0; j < n; j++)
                t += A[i * n + j] * x[j];
            tmp[i] = t;
        }
#pragma acc parallel loop
        for (int j = 0; j < n; j++) {
            double s = 0.0;
            for (int i = 0; i < n; i++)
                s += A[i * n + j] * tmp[i];
            y[j] = s;
        }
#pragma acc parallel loop
        for (int j = 0; j < n; j++)
            x[j] = 0.5 * x[j] + 1.0e-4 * y[j];
#pragma acc update host(y[0:n])
        total += y[r % n];
    }
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += y[i] + x[i];
    printf("atax n=%d reps=%d checksum=%.12e total=%.12e\n", n, REPS, sum, total);
    free(A);
    free(x);
    free(y);
    free(tmp);
    return 0;
}
