// §2.5.4 and §2.13.1: a kernels region with async(q) is enqueued on the queue of async-value q;
// acc_wait(q) (§3.2.8) waits for it before `update host` copies the result back.
#include <stdio.h>
#include <openacc.h>
#define N 100
int main(void) {
    static int v[N];
    int q = 3;
#pragma acc data create(v)
    {
#pragma acc kernels async(q)
        for (int i = 0; i < N; i++) v[i] = i * i;
        acc_wait(q);
#pragma acc update host(v)
    }
    printf("v[9] = %d, v[99] = %d\n", v[9], v[99]);
    return 0;
}
