/* 18_if_clause.c — run on the device only when it pays: the if clause.
 *
 * Teaches: `if(cond)` on parallel / kernels (§2.5.3): the compiler makes a device version and a
 * host version of the construct, and cond picks one at run time. On data / enter / exit data
 * (§2.6.3.1, §2.6.4.1) a false cond means no device memory and no transfer; on update (§2.11.1.4)
 * a false cond skips the copy. A region that falls back to the host inside a data region works
 * on the HOST copy, so the device copy must be brought back first and sent again after: the
 * `update ... if(!big)` pair below is exactly that, and it is skipped when the region ran on the
 * device. The function gives the same answers for a small (host) and a large (device) problem.
 *
 * Expected output: gcc-derived (see README.md).
 */
#include <stdio.h>
#include <stdlib.h>

#define THRESHOLD 500

static double process(int n) {
    int big = n >= THRESHOLD;
    double *a = malloc(n * sizeof *a);
    if (!a) return -1.0;
    for (int i = 0; i < n; i++) a[i] = (double)(i % 16);

    /* Small problems never allocate device memory. */
#pragma acc data copy(a[0:n]) if(big)
    {
#pragma acc parallel loop present_or_copy(a[0:n]) if(big)
        for (int i = 0; i < n; i++)
            a[i] = a[i] * 0.5 + 1.0;

        /* Step 2 always runs on the host (say, it calls a host-only library).
           The device copy must come home first, and go back after, but only if it exists. */
#pragma acc update host(a[0:n]) if(big)
        for (int i = 0; i < n; i += 2)
            a[i] = -a[i];
#pragma acc update device(a[0:n]) if(big)

#pragma acc parallel loop present_or_copy(a[0:n]) if(big)
        for (int i = 0; i < n; i++)
            a[i] = a[i] + 0.25;
    }

    double s = 0.0;
    for (int i = 0; i < n; i++) s += a[i];
    printf("n = %4d (%s): a[0] = %.6f, a[1] = %.6f, sum = %.6f\n", n, big ? "device" : "host  ", a[0], a[1], s);
    free(a);
    return s;
}

int main(void) {
    double small = process(100);
    double large = process(4000);
    printf("total = %.6f\n", small + large);
    return 0;
}
