// Issue 12 item 14: `emit-cuda` stopped with "does not support this reduction combine (no thread
// copy found)" when a worker loop and the vector loop inside it both reduce into the same
// variable (§2.7.11: each loop's reduction combines its threads' copies into the copy of the
// enclosing level). The worker's copy, into which its lanes combine, is a per-worker shared slot;
// the workers' combine now reads it there. Shapes of atax / gemver row sums with the
// `reduction` clause at every level, as PolyBench/ACC writes them.
#include <stdio.h>

#define N 96

static double A[N][N], x[N], y[N];

int main(void)
{
    int i, j, k;
    double total = 0.0, checksum = 0.0;
    for (i = 0; i < N; i++) {
        x[i] = (double)(i % 7) / 7.0;
        for (j = 0; j < N; j++)
            A[i][j] = (double)((i + 2 * j) % 11) * 0.5;
    }
#pragma acc data copyin(A[0:N][0:N], x[0:N]) copyout(y[0:N])
    {
#pragma acc parallel num_gangs(6) num_workers(4) vector_length(32)
        {
#pragma acc loop gang reduction(+:total)
            for (i = 0; i < N; i++) {
#pragma acc loop worker reduction(+:total)
                for (j = 0; j < N; j++) {
#pragma acc loop vector reduction(+:total)
                    for (k = 0; k < N; k++)
                        total += A[j][k] * x[k] * (double)(i % 3);
                }
            }
        }
#pragma acc parallel loop gang num_workers(2) vector_length(64) reduction(+:checksum)
        for (i = 0; i < N; i++) {
            double tmp = 0.0;
#pragma acc loop worker vector reduction(+:tmp)
            for (j = 0; j < N; j++)
                tmp += A[i][j] * x[j];
            y[i] = tmp;
            checksum += tmp;
        }
    }
    double s = 0.0;
    for (i = 0; i < N; i++)
        s += y[i] * (double)(i + 1);
    printf("total = %.3f, checksum = %.3f, y = %.3f\n", total, checksum, s);
    return 0;
}
