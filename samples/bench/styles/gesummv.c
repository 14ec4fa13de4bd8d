/* gesummv (PolyBench style): y = alpha A x + beta B x, repeated REPS times.
 *
 * Benchmark suite of issue 15: two heap matrices through `double (*)[N]`, one `parallel loop`
 * with two private accumulators in the inner loop, x updated from y between repetitions.
 * -DN=... sets the side, -DREPS=... the repetitions.
 */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 1600
#endif
#ifndef REPS
#define REPS 48
#endif

int main(void)
{
    double (*A)[N] = malloc(sizeof(double[N][N]));
    double (*B)[N] = malloc(sizeof(double[N][N]));
    double *x = malloc(sizeof(double) * N), *y = malloc(sizeof(double) * N);
    if (!A || !B || !x || !y) {
        fprintf(stderr, "gesummv: out of memory\n");
        return 1;
    }
    const double alpha = 1.5, beta = 1.2;
    for (int i = 0; i < N; i++) {
        x[i] = (double)(i % N) / N;
        for (int j = 0; j < N; j++) {
            A[i][j] = (double)((i * j + 1) % N) / N;
            B[i][j] = (double)((i * j + 2) % N) / N;
        }
    }
#pragma acc data copyin(A[0:N], B[0:N]) copy(x[0:N]) create(y[0:N])
    for (int r = 0; r < REPS; r++) {
#pragma acc parallel loop
        for (int i = 0; i < N; i++) {
            double tmp = 0.0, yi = 0.0;
            for (int j = 0; j < N; j++) {
                tmp += A[i][j] * x[j];
                yi += B[i][j] * x[j];
            }
            y[i] = alpha * tmp + beta * yi;
        }
#pragma acc parallel loop
        for (int i = 0; i < N; i++)
            x[i] = y[i] / (1.0 + y[i]);
    }
    double sum = 0.0;
    for (int i = 0; i < N; i++)
        sum += x[i];
    printf("gesummv n=%d reps=%d checksum=%.12e x[9]=%.12e\n", N, REPS, sum, x[9]);
    free(A);
    free(B);
    free(x);
    free(y);
    return 0;
}
