// Issue 12 item 14: a `private(tmp[0:M])` scratch row per gang (§2.5.9) is passed to the kernel as
// a pointer per gang that aims into the gang's own block. Each GPU thread now keeps its own copy
// of such a pointer (no value flows between threads through it); the copy must start as the
// gang's pointer, not uninitialised as a fresh private scalar would (the V&V suite's
// parallel_private.c failed with a launch failure on the GPU).
#include <stdio.h>
#include <stdlib.h>

#define N 40
#define M 64

int main(void)
{
    int i, j;
    double *a = malloc(N * M * sizeof *a);
    double *out = malloc(N * sizeof *out);
    double *tmp = malloc(M * sizeof *tmp);
    for (i = 0; i < N * M; i++)
        a[i] = (double)(i % 17) / 4.0;
#pragma acc data copyin(a[0:N*M]) copyout(out[0:N])
#pragma acc parallel num_gangs(4) num_workers(2) vector_length(32) private(tmp[0:M])
    {
#pragma acc loop gang
        for (i = 0; i < N; i++) {
#pragma acc loop worker vector
            for (j = 0; j < M; j++)
                tmp[j] = a[i * M + j] * 2.0;
            double s = 0.0;
            for (j = 0; j < M; j++)
                s += tmp[j] * (double)(j % 3);
            out[i] = s;
        }
    }
    double t = 0.0;
    for (i = 0; i < N; i++)
        t += out[i] * (double)(i + 1);
    printf("private scratch rows: %.3f\n", t);
    free(a);
    free(out);
    free(tmp);
    return 0;
}
