/* jacobi-2d (PolyBench style): TSTEPS sweeps of the five-point average, A to B and back.
 *
 * Benchmark suite of issue 15: global 2-D arrays, two `parallel loop collapse(2)` nests per time
 * step inside one data region. -DN=... sets the side, -DTSTEPS=... the time steps.
 */
#include <stdio.h>

#ifndef N
#define N 1000
#endif
#ifndef TSTEPS
#define TSTEPS 150
#endif

static double A[N][N], B[N][N];

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            A[i][j] = ((double)i * (j + 2) + 2) / N;
            B[i][j] = ((double)i * (j + 3) + 3) / N;
        }
#pragma acc data copy(A, B)
    for (int t = 0; t < TSTEPS; t++) {
#pragma acc parallel loop collapse(2)
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][1 + j] + A[1 + i][j] + A[i - 1][j]);
#pragma acc parallel loop collapse(2)
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][1 + j] + B[1 + i][j] + B[i - 1][j]);
    }
    double sum = 0.0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            sum += A[i][j];
    printf("jacobi-2d n=%d steps=%d checksum=%.12e a[5][7]=%.12e\n", N, TSTEPS, sum, A[5][7]);
    return 0;
}
