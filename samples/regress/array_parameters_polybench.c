// Issue 12 item 7: PolyBench/ACC's style — kernels take their arrays as parameters declared
// with array extents (`double C[NI][NJ]`, adjusted to `double (*)[NJ]`, C11 6.7.6.3) and map
// them whole: `#pragma acc data copyin(A, B) copy(C)`. The PGI/NVIDIA compilers, which the suite
// was written for, map the declared extent (`C[0:NI]`); accsim does too by default, with a
// portability note (OpenACC 2.0 maps the pointer parameter itself, as gcc does; --strict-2.0).
// Variants: two- and one-dimensional parameters, heap and static arrays passed, parallel and
// kernels, C89 declarations in the kernels.
#include <stdio.h>
#include <stdlib.h>

#define NI 20
#define NJ 24
#define NK 16

static void kernel_gemm(int ni, int nj, int nk, double alpha, double beta,
                        double C[NI][NJ], double A[NI][NK], double B[NK][NJ])
{
    int i, j, k;
#pragma acc data copyin(A, B) copy(C)
    {
#pragma acc parallel loop collapse(2) private(k)
        for (i = 0; i < ni; i++)
            for (j = 0; j < nj; j++) {
                double acc = C[i][j] * beta;
                for (k = 0; k < nk; k++)
                    acc += alpha * A[i][k] * B[k][j];
                C[i][j] = acc;
            }
    }
}

static void kernel_atax(int m, int n, double A[NI][NJ], double x[NJ], double y[NJ], double tmp[NI])
{
#pragma acc data copyin(A, x) copyout(tmp) copy(y)
    {
#pragma acc kernels
        {
#pragma acc loop independent
            for (int i = 0; i < m; i++) {
                double t = 0.0;
                for (int j = 0; j < n; j++)
                    t += A[i][j] * x[j];
                tmp[i] = t;
            }
#pragma acc loop independent
            for (int j = 0; j < n; j++) {
                double s = y[j];
                for (int i = 0; i < m; i++)
                    s += A[i][j] * tmp[i];
                y[j] = s;
            }
        }
    }
}

static double Cs[NI][NJ];

int main(void)
{
    double (*A)[NK] = malloc(sizeof(double[NI][NK]));
    double (*B)[NJ] = malloc(sizeof(double[NK][NJ]));
    double (*M)[NJ] = malloc(sizeof(double[NI][NJ]));
    double x[NJ], y[NJ], tmp[NI];
    double sum = 0.0;
    int i, j;

    for (i = 0; i < NI; i++)
        for (j = 0; j < NK; j++)
            A[i][j] = (double)((i * j + 1) % NI) / NI;
    for (i = 0; i < NK; i++)
        for (j = 0; j < NJ; j++)
            B[i][j] = (double)((i * (j + 1)) % NJ) / NJ;
    for (i = 0; i < NI; i++)
        for (j = 0; j < NJ; j++) {
            Cs[i][j] = (double)((i * (j + 2)) % NK) / NK;
            M[i][j] = (double)(i + j) / NJ;
        }
    for (j = 0; j < NJ; j++) {
        x[j] = 1.0 + j / (double)NJ;
        y[j] = 0.5;
    }

    kernel_gemm(NI, NJ, NK, 1.5, 1.2, Cs, A, B);
    kernel_atax(NI, NJ, M, x, y, tmp);

    for (i = 0; i < NI; i++)
        for (j = 0; j < NJ; j++)
            sum += Cs[i][j];
    printf("gemm: C[0][0] = %.6f, C[NI-1][NJ-1] = %.6f, sum = %.6f\n", Cs[0][0], Cs[NI - 1][NJ - 1], sum);
    sum = 0.0;
    for (j = 0; j < NJ; j++)
        sum += y[j];
    printf("atax: tmp[0] = %.6f, y[NJ-1] = %.6f, sum(y) = %.6f\n", tmp[0], y[NJ - 1], sum);
    free(A);
    free(B);
    free(M);
    return 0;
}
