// Issue 12 item 10 (waits): acc_wait_async(q, r) and `wait(q) async(r)` make queue r wait for
// queue q, and the host goes on (§3.2.9, §2.13.3). Here uploads run on queue 1 and the
// computation and download on queue 2, ordered after the uploads by acc_wait_async, so the
// host waits only for queue 2 before reading: no race. The waits were host waits, which hid
// the host's own races with queue 1 (wait_async_host_not_ordered.c).
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

#define N 4096
#define CHUNKS 4

int main(void) {
    float *in = malloc(N * sizeof *in), *out = malloc(N * sizeof *out);
    for (int i = 0; i < N; i++)
        in[i] = i % 17;
    int len = N / CHUNKS;
#pragma acc data create(in[0:N], out[0:N])
    {
        for (int c = 0; c < CHUNKS; c++) {
            int lo = c * len;
#pragma acc update device(in[lo:len]) async(1)
            acc_wait_async(1, 2);
#pragma acc parallel loop present(in[0:N], out[0:N]) async(2)
            for (int i = lo; i < lo + len; i++)
                out[i] = 3 * in[i] + 1;
        }
        /* the same with the directive: queue 3 copies back after queue 2's kernels */
#pragma acc wait(2) async(3)
#pragma acc update self(out[0:N]) async(3)
        acc_wait(3);
    }
    double sum = 0;
    for (int i = 0; i < N; i++)
        sum += out[i];
    printf("sum = %.0f\n", sum);
    free(in);
    free(out);
    return 0;
}
