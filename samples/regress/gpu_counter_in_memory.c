// Issue 12 item 14: a C89 counter that lives in memory (here because a `kernels` region maps it:
// §2.5.2 treats a scalar there as `copy`) is a per-gang firstprivate copy in the `parallel`
// region (§2.5.1), which the kernel reaches through a pointer. `emit-cuda` refused its `for`
// clauses inside the vector loop (a store to memory the block shares); and one copy per gang
// would let the lanes of the vector loop overwrite each other's counter on the GPU. No value
// flows between threads through it, so each thread keeps its own copy. The shape of PolyBench's
// correlation (a kernels loop, then a triangular `parallel loop` with a sequential inner loop).
#include <stdio.h>
#define N 24
#define M 20
static double data[N][M], symmat[M][M], stddev[M];
int main(void)
{
    int i, j1, j2;
    for (i = 0; i < N; i++)
        for (j1 = 0; j1 < M; j1++)
            data[i][j1] = (double)((i * j1 + i) % 11) / M;
#pragma acc data copyin(data[0:N][0:M]) create(stddev[0:M]) copyout(symmat[0:M][0:M])
    {
#pragma acc kernels
        for (i = 0; i < M; i++)
            stddev[i] = 1.0 + (double)i / M;
#pragma acc parallel loop gang vector_length(32)
        for (j1 = 0; j1 < M; j1++)
#pragma acc loop vector
            for (j2 = j1; j2 < M; j2++) {
                double s = 0.0;
                for (i = 0; i < N; i++)
                    s += data[i][j1] * data[i][j2];
                symmat[j1][j2] = s / (stddev[j1] * stddev[j2]);
                symmat[j2][j1] = symmat[j1][j2];
            }
    }
    double t = 0.0;
    for (i = 0; i < M; i++)
        for (j1 = 0; j1 < M; j1++)
            t += symmat[i][j1] * (i + 1);
    printf("correlation: %.6f\n", t);
    return 0;
}
