// Issue 12, openacc.h: programs written for OpenACC 1.0 call acc_async_wait(int) and
// acc_async_wait_all(void), which OpenACC 2.0 renamed acc_wait and acc_wait_all (§1.7 of the
// 2.0 document lists the change) and which gcc's and nvc's openacc.h still declare. The 2.0
// document reuses acc_async_wait for the two-argument form (§3.2.9), so accsim's header
// declares both names without a prototype: both forms compile and wait.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

#define N 2048

int main(void) {
    float *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    for (int i = 0; i < N; i++) {
        x[i] = i;
        y[i] = 1;
    }
#pragma acc data copyin(x[0:N]) copy(y[0:N])
    {
#pragma acc parallel loop async(1)
        for (int i = 0; i < N; i++)
            y[i] += 2 * x[i];
        acc_async_wait(1);
#pragma acc parallel loop async(2)
        for (int i = 0; i < N; i++)
            y[i] *= 0.5f;
#pragma acc update host(y[0:N]) async(2)
        acc_async_wait_all();
        printf("y[N-1] = %g (queue 2 idle: %d)\n", y[N - 1], acc_async_test(2) != 0);
    }
    free(x);
    free(y);
    return 0;
}
