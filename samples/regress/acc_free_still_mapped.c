// Issue 12, errors runtimes catch: `acc_free` of device memory that `acc_map_data` still maps
// to host data (§3.2.16, §3.2.25). The mapping must end (acc_unmap_data) before the memory is
// freed; libgomp refuses ("refusing to free device memory space ... that is still mapped").
// expect-exit: 3
// expect-stderr: error[still-mapped]
// expect-stderr: acc_free_still_mapped.c:26:5
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

#define N 1024

int main(void) {
    double *x = malloc(N * sizeof *x);
    for (int i = 0; i < N; i++)
        x[i] = i;
    double *dx = acc_malloc(N * sizeof *dx);
    acc_map_data(x, dx, N * sizeof *x);
    acc_update_device(x, N * sizeof *x);
#pragma acc parallel loop present(x[0:N])
    for (int i = 0; i < N; i++)
        x[i] *= 2;
    acc_update_self(x, N * sizeof *x);

    /* wrong order: the memory is freed while x is still mapped to it */
    acc_free(dx); /* expect: still-mapped */
    acc_unmap_data(x);
    printf("x[N-1] = %g\n", x[N - 1]);
    free(x);
    return 0;
}
