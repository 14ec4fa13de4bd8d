// Issue 12 item 10 (waits): acc_wait_async(1, 2) orders queue 2 after queue 1, not the host
// (§3.2.9: it "enqueues a wait operation on one async queue"). Refilling the host buffer while
// its upload may still be queued is an async race; `check` missed it because acc_wait_async
// counted as a host wait.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

#define N 4096

int main(void) {
    float *buf = malloc(N * sizeof *buf), *out = malloc(N * sizeof *out);
    for (int i = 0; i < N; i++)
        buf[i] = 1;
#pragma acc data create(buf[0:N]) copyout(out[0:N])
    {
#pragma acc update device(buf[0:N]) async(1)
        acc_wait_async(1, 2);
#pragma acc parallel loop present(buf[0:N], out[0:N]) async(2)
        for (int i = 0; i < N; i++)
            out[i] = 2 * buf[i];
        /* next batch: the host must wait for queue 1 (acc_wait(1)) before this */
        for (int i = 0; i < N; i++)
            buf[i] = 5; /* expect: async-race */
        acc_wait(2);
    }
    printf("out[0] = %g\n", out[0]);
    free(buf);
    free(out);
    return 0;
}
