/* mvt (PolyBench style): x1 += A y1, x2 += A^T y2, repeated REPS times.
 *
 * Benchmark suite of issue 15: a kernel function taking C99 variable-length array parameters
 * (`double A[n][n]`), `parallel loop` over each product with the inner sum written straight into
 * the output element. -DN=... sets the side, -DREPS=... the repetitions.
 */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 2000
#endif
#ifndef REPS
#define REPS 12
#endif

static void kernel_mvt(int n, double x1[n], double x2[n], double y1[n], double y2[n],
                       double A[n][n])
{
#pragma acc parallel loop present(A[0:n][0:n], x1[0:n], y1[0:n])
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            x1[i] = x1[i] + A[i][j] * y1[j];
#pragma acc parallel loop present(A[0:n][0:n], x2[0:n], y2[0:n])
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            x2[i] = x2[i] + A[j][i] * y2[j];
}

int main(void)
{
    int n = N;
    double (*A)[n] = malloc(sizeof(double) * n * n);
    double *x1 = malloc(sizeof(double) * n), *x2 = malloc(sizeof(double) * n);
    double *y1 = malloc(sizeof(double) * n), *y2 = malloc(sizeof(double) * n);
    if (!A || !x1 || !x2 || !y1 || !y2) {
        fprintf(stderr, "mvt: out of memory\n");
        return 1;
    }
    for (int i = 0; i < n; i++) {
        x1[i] = (double)(i % n) / n;
        x2[i] = (double)((i + 1) % n) / n;
        y1[i] = (double)((i + 3) % n) / n;
        y2[i] = (double)((i + 4) % n) / n;
        for (int j = 0; j < n; j++)
            A[i][j] = (double)(i * j % n) / n;
    }
#pragma acc data copyin(A[0:n][0:n], y1[0:n], y2[0:n]) copy(x1[0:n], x2[0:n])
    for (int r = 0; r < REPS; r++)
        kernel_mvt(n, x1, x2, y1, y2, A);
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += x1[i] - 0.5 * x2[i];
    printf("mvt n=%d reps=%d checksum=%.12e x1[7]=%.12e\n", n, REPS, sum, x1[7]);
    free(A);
    free(x1);
    free(x2);
    free(y1);
    free(y2);
    return 0;
}
