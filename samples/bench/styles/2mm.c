/* 2mm (PolyBench style): D = alpha * A * B * C + beta * D, through tmp = alpha * A * B.
 *
 * Benchmark suite of issue 15: heap matrices through `double (*)[N]` pointers, one kernels region
 * with two loop nests, `collapse(2)` on each and a sequential inner dot product. -DN=... sets
 * every side.
 */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 560
#endif

static void kernel_2mm(int n, double alpha, double beta, double tmp[N][N], double A[N][N],
                       double B[N][N], double C[N][N], double D[N][N])
{
#pragma acc data copyin(A[0:n][0:n], B[0:n][0:n], C[0:n][0:n]) create(tmp[0:n][0:n]) \
    copy(D[0:n][0:n])
    {
#pragma acc kernels
        {
#pragma acc loop independent collapse(2)
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++) {
                    double t = 0.0;
                    for (int k = 0; k < n; k++)
                        t += alpha * A[i][k] * B[k][j];
                    tmp[i][j] = t;
                }
#pragma acc loop independent collapse(2)
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++) {
                    double d = D[i][j] * beta;
                    for (int k = 0; k < n; k++)
                        d += tmp[i][k] * C[k][j];
                    D[i][j] = d;
                }
        }
    }
}

int main(void)
{
    double (*A)[N] = malloc(sizeof(double[N][N]));
    double (*B)[N] = malloc(sizeof(double[N][N]));
    double (*C)[N] = malloc(sizeof(double[N][N]));
    double (*D)[N] = malloc(sizeof(double[N][N]));
    double (*tmp)[N] = malloc(sizeof(double[N][N]));
    if (!A || !B || !C || !D || !tmp) {
        fprintf(stderr, "2mm: out of memory\n");
        return 1;
    }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            A[i][j] = (double)((i * j + 1) % N) / N;
            B[i][j] = (double)(i * (j + 1) % N) / N;
            C[i][j] = (double)((i * (j + 3) + 1) % N) / N;
            D[i][j] = (double)(i * (j + 2) % N) / N;
        }
    kernel_2mm(N, 1.5, 1.2, tmp, A, B, C, D);
    double sum = 0.0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            sum += D[i][j];
    printf("2mm n=%d checksum=%.12e d[3][5]=%.12e\n", N, sum, D[3][5]);
    free(A);
    free(B);
    free(C);
    free(D);
    free(tmp);
    return 0;
}
