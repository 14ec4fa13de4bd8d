// Issue 12 item 14: `emit-cuda` refused PolyBench-style kernels whose loop counters are declared
// once (`int i, j;`) and used by several loops of one compute region: `i` counted a sequential
// loop in gang-redundant code and a vector loop, so the emitter kept it in block-shared memory and
// then could not store to it in the sequential loop's `for` clauses. No value flows between the
// two uses (the counter of a partitioned loop is private to its thread, §2.6.1; the sequential
// loop sets `i` before reading it), so each GPU thread keeps its own `i`.
// Shapes of covariance (column means, then centring) and syrk (triangular, a sequential loop
// inside a vector loop), mapped with explicit subarrays.
#include <stdio.h>

#define N 48
#define M 40

static double data[N][M], mean[M], symmat[M][M];

void kernel_covariance(int m, int n, double float_n, double data[N][M], double symmat[M][M], double mean[M])
{
    int i, j, j1, j2;
#pragma acc data copy(data[0:N][0:M]) create(mean[0:M]) copyout(symmat[0:M][0:M])
    {
#pragma acc parallel loop gang vector_length(32)
        for (j = 0; j < m; j++) {
            mean[j] = 0.0;
            for (i = 0; i < n; i++)
                mean[j] += data[i][j];
            mean[j] /= float_n;
#pragma acc loop vector
            for (i = 0; i < n; i++)
                data[i][j] -= mean[j];
        }
#pragma acc parallel loop gang vector_length(32)
        for (j1 = 0; j1 < m; j1++) {
#pragma acc loop vector
            for (j2 = j1; j2 < m; j2++) {
                double s = 0.0;
                for (i = 0; i < n; i++)
                    s += data[i][j1] * data[i][j2];
                symmat[j1][j2] = s;
                symmat[j2][j1] = s;
            }
        }
    }
}

void kernel_syrk(int n, int m, double alpha, double beta, double C[M][M], double A[M][N])
{
    int i, j, k;
#pragma acc data copyin(A[0:M][0:N]) copy(C[0:M][0:M])
#pragma acc kernels
#pragma acc loop gang
    for (i = 0; i < n; i++) {
        for (k = 0; k < i; k++)
            C[i][k] *= beta;
#pragma acc loop vector
        for (j = 0; j <= i; j++) {
            double t = 0.0;
            for (k = 0; k < m; k++)
                t += A[i][k] * A[j][k];
            C[i][j] = beta * C[i][j] + alpha * t;
        }
    }
}

static double A[M][N], C[M][M];

int main(void)
{
    int i, j;
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            data[i][j] = (double)((i * j + 3 * i + j) % 17) / 4.0;
    kernel_covariance(M, N, (double)N, data, symmat, mean);
    double s = 0.0;
    for (i = 0; i < M; i++)
        for (j = 0; j < M; j++)
            s += symmat[i][j] * (double)(i + 2 * j + 1);
    printf("covariance: %.6f\n", s);

    for (i = 0; i < M; i++) {
        for (j = 0; j < N; j++)
            A[i][j] = (double)((i + 2 * j) % 9) / 8.0;
        for (j = 0; j < M; j++)
            C[i][j] = (double)((i * j) % 5) / 2.0;
    }
    kernel_syrk(M, N, 1.5, 0.5, C, A);
    s = 0.0;
    for (i = 0; i < M; i++)
        for (j = 0; j < M; j++)
            s += C[i][j] * (double)(j + 1);
    printf("syrk: %.6f\n", s);
    return 0;
}
