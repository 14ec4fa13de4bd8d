// Issue 12 item 9: in a kernels region the argument of `gang`, `worker` and `vector` on a loop
// is the number of gangs, the number of workers and the vector length of that loop's kernel
// (§2.7.2-§2.7.4; each kernel of a kernels region has its own shape, §2.5.2). `--notify` shows
// each launch's shape.
// accsim-flags: --notify
// expect-stderr: kernel=main$acc24 num_gangs=16 num_workers=1 vector_length=64
// expect-stderr: kernel=main$acc24_1 num_gangs=4 num_workers=2 vector_length=32
// expect-stderr: kernel=main$acc37 num_gangs=10 num_workers=1 vector_length=128
// expect-stderr: kernel=main$acc41 num_gangs=32 num_workers=1 vector_length=32
#include <stdio.h>
#include <stdlib.h>

#define N 1000
#define M 50

int main(void) {
    float *x = malloc(N * sizeof *x);
    float *y = malloc(N * sizeof *y);
    float grid[M][M];
    int rows = 10;
    if (!x || !y) return 1;
    for (int i = 0; i < N; i++) x[i] = (float)i;

#pragma acc kernels copyin(x[0:N]) copyout(y[0:N], grid)
    {
#pragma acc loop gang(16) vector(64)
        for (int i = 0; i < N; i++) y[i] = 2.0f * x[i];
        /* a nest: gang count on the outer loop, workers and lanes on the inner ones */
#pragma acc loop gang(num:4)
        for (int i = 0; i < M; i++) {
#pragma acc loop worker(num:2) vector(length:32)
            for (int j = 0; j < M; j++) grid[i][j] = (float)(i + j);
        }
    }

    /* the combined construct, the gang count from a variable */
#pragma acc kernels loop gang(rows) vector(128) copy(y[0:N])
    for (int i = 0; i < N; i++) y[i] += 1.0f;

    /* no arguments: the implementation's shape, one gang per 32 iterations (§2.5.6) */
#pragma acc kernels loop copy(y[0:N])
    for (int i = 0; i < N; i++) y[i] *= 0.5f;

    printf("y[999] = %.1f, grid[49][49] = %.1f\n", y[999], grid[M - 1][M - 1]);
    free(x);
    free(y);
    return 0;
}
