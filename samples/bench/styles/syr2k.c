/* syr2k (PolyBench style): C = alpha (A B^T + B A^T) + beta C on the lower triangle.
 *
 * Benchmark suite of issue 15: the syrk shape with two inputs, heap arrays through
 * `double (*)[M]` pointers and a `kernels loop`. -DN=... sets the side (M = N).
 */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 480
#endif
#define M N

int main(void)
{
    double (*A)[M] = malloc(sizeof(double[N][M]));
    double (*B)[M] = malloc(sizeof(double[N][M]));
    double (*C)[N] = malloc(sizeof(double[N][N]));
    if (!A || !B || !C) {
        fprintf(stderr, "syr2k: out of memory\n");
        return 1;
    }
    const double alpha = 1.5, beta = 1.2;
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < M; j++) {
            A[i][j] = (double)((i * j + 1) % N) / N;
            B[i][j] = (double)((i * j + 2) % M) / M;
        }
        for (int j = 0; j < N; j++)
            C[i][j] = (double)((i * j + 3) % N) / M;
    }
#pragma acc kernels loop independent copy(C[0:N]) copyin(A[0:N], B[0:N])
    for (int i = 0; i < N; i++) {
        for (int j = 0; j <= i; j++)
            C[i][j] *= beta;
        for (int k = 0; k < M; k++)
            for (int j = 0; j <= i; j++)
                C[i][j] += A[j][k] * alpha * B[i][k] + B[j][k] * alpha * A[i][k];
    }
    double sum = 0.0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j <= i; j++)
            sum += C[i][j];
    printf("syr2k n=%d checksum=%.12e c[%d][3]=%.12e\n", N, sum, N - 1, C[N - 1][3]);
    free(A);
    free(B);
    free(C);
    return 0;
}
