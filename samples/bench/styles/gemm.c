/* gemm (PolyBench style): C = alpha * A * B + beta * C.
 *
 * Benchmark suite of issue 15: static global arrays passed to a kernel function whose parameters
 * carry the extents (`double C[NI][NJ]`), mapped whole by a data region, the i-k-j loop order of
 * PolyBench. -DN=... sets every side.
 */
#include <stdio.h>

#ifndef N
#define N 880
#endif
#define NI N
#define NJ N
#define NK N

static double A[NI][NK], B[NK][NJ], C[NI][NJ];

static void init_array(int ni, int nj, int nk, double *alpha, double *beta,
                       double C[NI][NJ], double A[NI][NK], double B[NK][NJ])
{
    *alpha = 1.5;
    *beta = 1.2;
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++)
            C[i][j] = (double)((i * j + 1) % ni) / ni;
    for (int i = 0; i < ni; i++)
        for (int k = 0; k < nk; k++)
            A[i][k] = (double)(i * (k + 1) % nk) / nk;
    for (int k = 0; k < nk; k++)
        for (int j = 0; j < nj; j++)
            B[k][j] = (double)(k * (j + 2) % nj) / nj;
}

static void kernel_gemm(int ni, int nj, int nk, double alpha, double beta,
                        double C[NI][NJ], double A[NI][NK], double B[NK][NJ])
{
#pragma acc data copyin(A, B) copy(C)
    {
#pragma acc parallel loop
        for (int i = 0; i < ni; i++) {
            for (int j = 0; j < nj; j++)
                C[i][j] *= beta;
            for (int k = 0; k < nk; k++)
                for (int j = 0; j < nj; j++)
                    C[i][j] += alpha * A[i][k] * B[k][j];
        }
    }
}

int main(void)
{
    double alpha, beta;
    init_array(NI, NJ, NK, &alpha, &beta, C, A, B);
    kernel_gemm(NI, NJ, NK, alpha, beta, C, A, B);
    double sum = 0.0;
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++)
            sum += C[i][j] * (double)((i + j) % 7 + 1);
    printf("gemm n=%d checksum=%.12e c[1][2]=%.12e\n", N, sum, C[1][2]);
    return 0;
}
