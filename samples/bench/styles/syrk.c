/* syrk (PolyBench style): C = alpha A A^T + beta C on the lower triangle.
 *
 * Benchmark suite of issue 15: a triangular iteration space (`j <= i`) in a `parallel loop`
 * whose inner loops are sequential, static arrays passed as extent-carrying parameters.
 * -DN=... sets the side (A is N x M with M = N).
 */
#include <stdio.h>

#ifndef N
#define N 760
#endif
#define M N

static double A[N][M], C[N][N];

static void kernel_syrk(int n, int m, double alpha, double beta, double C[N][N], double A[N][M])
{
#pragma acc parallel loop copy(C[0:n][0:n]) copyin(A[0:n][0:m])
    for (int i = 0; i < n; i++) {
        for (int j = 0; j <= i; j++)
            C[i][j] *= beta;
        for (int k = 0; k < m; k++)
            for (int j = 0; j <= i; j++)
                C[i][j] += alpha * A[i][k] * A[j][k];
    }
}

int main(void)
{
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < M; j++)
            A[i][j] = (double)((i * j + 1) % N) / N;
        for (int j = 0; j < N; j++)
            C[i][j] = (double)((i * j + 2) % M) / M;
    }
    kernel_syrk(N, M, 1.5, 1.2, C, A);
    double sum = 0.0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j <= i; j++)
            sum += C[i][j];
    printf("syrk n=%d checksum=%.12e c[%d][1]=%.12e\n", N, sum, N - 1, C[N - 1][1]);
    return 0;
}
