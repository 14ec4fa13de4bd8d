/* 12_async_pipeline.c — overlap transfers and compute with activity queues.
 *
 * Teaches: `async(1 + k % 2)` on a compute construct, update or enter/exit data (§2.13.1) puts the
 * operation on activity queue q and lets the host continue at once. Operations on one queue run
 * in order; operations on different queues may run in any order relative to each other, so block
 * b's upload, compute and download go on one queue and alternate blocks on two queues overlap.
 * The host may touch data only after waiting for the queue that uses it:
 *   `#pragma acc wait(q)`      host waits for queue q (§2.13.3); `#pragma acc wait` waits for all;
 *   `#pragma acc wait(1) async(2)` makes queue 2 wait for queue 1 without blocking the host;
 *   `wait(1, 2)` clause on a construct: it starts only after queues 1 and 2 are done (§2.13.2);
 *   acc_wait(q), acc_async_test(q) (§3.2.8, §3.2.6): the same as routines.
 * A missing wait is a race between the host and a queue; accsim's scheduler can run queues late
 * on purpose to expose it.
 *
 * Expected output: gcc-derived (see README.md).
 */
#include <openacc.h>
#include <stdio.h>
#include <stdlib.h>

#define NBLOCKS 8

int main(void) {
    int n = 4096, bs = n / NBLOCKS;
    double *a = malloc(n * sizeof *a);
    double *b = malloc(n * sizeof *b);
    double *c = malloc(n * sizeof *c);
    if (!a || !b || !c) return 1;
    for (int i = 0; i < n; i++) a[i] = (double)(i % 64);

#pragma acc data create(a[0:n], b[0:n], c[0:n])
    {
        /* Pipeline: block k on queue 1 + k % 2 */
        for (int k = 0; k < NBLOCKS; k++) {
            int lo = k * bs;
#pragma acc update device(a[lo:bs]) async(1 + k % 2)
#pragma acc parallel loop present(a[0:n], b[0:n]) async(1 + k % 2)
            for (int i = lo; i < lo + bs; i++)
                b[i] = 3.0 * a[i] + 1.0;
#pragma acc update host(b[lo:bs]) async(1 + k % 2)
        }
#pragma acc wait
        double bsum = 0.0;
        for (int i = 0; i < n; i++) bsum += b[i];
        printf("pipeline: b[5] = %.6f, b[%d] = %.6f, sum(b) = %.6f\n", b[5], n - 1, b[n - 1], bsum);

        /* Queue 2 waits for queue 1, the host does not: c needs b's new values. */
#pragma acc parallel loop present(b[0:n]) async(1)
        for (int i = 0; i < n; i++)
            b[i] = b[i] - 1.0;
#pragma acc wait(1) async(2)
#pragma acc parallel loop present(b[0:n], c[0:n]) async(2)
        for (int i = 0; i < n; i++)
            c[i] = b[i] / 3.0;

        /* A region on queue 3 that starts when queues 1 and 2 are done. */
#pragma acc parallel loop present(a[0:n], c[0:n]) async(3) wait(1, 2)
        for (int i = 0; i < n; i++)
            c[i] = c[i] + a[i];
#pragma acc update host(c[0:n]) async(3)

        acc_wait(3);
        printf("after acc_wait(3): acc_async_test(3) != 0 is %s\n", acc_async_test(3) ? "true" : "false");
    }

    double csum = 0.0;
    int bad = 0;
    for (int i = 0; i < n; i++) {
        csum += c[i];
        if (c[i] != 2.0 * a[i]) bad++;
    }
    printf("chain: c[7] = %.6f, sum(c) = %.6f, mismatches = %d\n", c[7], csum, bad);
    free(a);
    free(b);
    free(c);
    return bad != 0;
}
