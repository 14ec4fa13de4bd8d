// Issue 12, errors runtimes catch: `acc_map_data` of zero bytes. A zero-length mapping maps
// nothing a data clause could find (§3.2.25: it maps "preallocated device data to the specified
// host data"); here acc_malloc(0) also returned NULL. libgomp stops ("is a bad map").
// expect-exit: 3
// expect-stderr: error[bad-argument]
// expect-stderr: acc_map_data_zero_length.c:18:5
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

int main(int argc, char **argv) {
    int n = argc - 1; /* no arguments: an empty problem */
    double *h = malloc(16 + n * sizeof *h);
    double *d = acc_malloc(n * sizeof *d);
    for (int i = 0; i < n; i++)
        h[i] = i;
    /* an empty problem still maps: the program should skip the device work when n == 0 */
    acc_map_data(h, d, n * sizeof *h); /* expect: bad-argument */
#pragma acc parallel loop present(h[0:n])
    for (int i = 0; i < n; i++)
        h[i] *= 2;
    acc_unmap_data(h);
    acc_free(d);
    printf("done with %d elements\n", n);
    free(h);
    return 0;
}
