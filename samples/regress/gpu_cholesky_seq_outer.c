// Issue 12 item 14: the PolyBench cholesky shape. One gang walks the columns in order (`loop
// seq`); in gang-redundant code a sequential loop over `j` accumulates the pivot, then a vector
// loop over `j` (the same C89 variable) updates the column below it. `emit-cuda` kept `j` in
// block-shared memory and refused the sequential loop's `for` clauses; the counter of the vector
// loop is private to each thread (§2.6.1) and the sequential loop sets `j` before reading it, so
// `j` is a register of each GPU thread. `x` is computed redundantly by every thread.
#include <math.h>
#include <stdio.h>

#define N 40

static double A[N][N], p[N];

void kernel_cholesky(int n, double p[N], double A[N][N])
{
    int i, j, k;
    double x;
#pragma acc data copy(A[0:N][0:N]) copyout(p[0:N])
#pragma acc parallel num_gangs(1) vector_length(64)
    {
#pragma acc loop seq
        for (i = 0; i < n; ++i) {
            x = A[i][i];
            for (j = 0; j <= i - 1; ++j)
                x = x - A[i][j] * A[i][j];
            p[i] = 1.0 / sqrt(x);
#pragma acc loop vector
            for (j = i + 1; j < n; ++j) {
                double y = A[i][j];
                for (k = 0; k <= i - 1; ++k)
                    y = y - A[j][k] * A[i][k];
                A[j][i] = y * p[i];
            }
        }
    }
}

int main(void)
{
    int i, j;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            A[i][j] = (i == j) ? (double)N + 1.0 : 1.0 / (double)(1 + i + j);
    kernel_cholesky(N, p, A);
    double s = 0.0;
    for (i = 0; i < N; i++) {
        s += p[i];
        for (j = 0; j < i; j++)
            s += A[i][j] * (double)(j + 1);
    }
    printf("cholesky: %.9f\n", s);
    return 0;
}
