// Issue 12, errors runtimes catch: `acc_unmap_data` of data that `acc_copyin` mapped, not
// `acc_map_data` (§3.2.26: "undefined behavior to call acc_unmap_data with a host address
// unless that host address was mapped to device memory using acc_map_data"; libgomp stops:
// "refusing to unmap block ... that has not been mapped by 'acc_map_data'").
// expect-exit: 3
// expect-stderr: error[not-map-data]
// expect-stderr: acc_unmap_data_of_copyin.c:24:5
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

#define N 1024

int main(void) {
    double *x = malloc(N * sizeof *x);
    for (int i = 0; i < N; i++)
        x[i] = i;
    acc_copyin(x, N * sizeof *x);
#pragma acc parallel loop present(x[0:N])
    for (int i = 0; i < N; i++)
        x[i] += 1;
    acc_update_self(x, N * sizeof *x);
    /* should be acc_delete(x, N * sizeof *x) */
    acc_unmap_data(x); /* expect: not-map-data */
    printf("x[0] = %g\n", x[0]);
    free(x);
    return 0;
}
