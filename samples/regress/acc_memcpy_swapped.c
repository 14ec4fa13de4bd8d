// Issue 12, errors runtimes catch: `acc_memcpy_to_device` with its arguments swapped. The
// destination "must be a device address, such as would be returned from acc_malloc or
// acc_deviceptr" (§3.2.30) and the source is local (host) memory; the routine copies between
// the two memories, never within one (a host-to-host copy, possibly overlapping, is no
// transfer at all).
// expect-exit: 3
// expect-stderr: error[bad-argument]
// expect-stderr: acc_memcpy_swapped.c:21:5
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

int main(void) {
    int n = 256;
    double *h = malloc(n * sizeof *h);
    for (int i = 0; i < n; i++)
        h[i] = i;
    double *d = acc_malloc(n * sizeof *d);
    double total = 0;
    /* memcpy's order is (dest, src); this is (src, dest) */
    acc_memcpy_to_device(h, d, n * sizeof *h); /* expect: bad-argument */
#pragma acc parallel loop deviceptr(d) reduction(+:total)
    for (int i = 0; i < n; i++)
        total += d[i];
    printf("total = %g\n", total);
    acc_free(d);
    free(h);
    return 0;
}
