// Issue 12, errors runtimes catch: `acc_copyout` of data mapped by `acc_map_data`. The device
// memory is the program's (§3.2.25), so the runtime may neither copy it back as the end of a
// lifetime nor free it; only acc_unmap_data ends that mapping (§3.2.26). The same holds for
// acc_delete and `exit data`.
// expect-exit: 3
// expect-stderr: error[not-map-data]
// expect-stderr: acc_copyout_of_map_data.c:25:5
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

#define N 512

int main(void) {
    float *v = malloc(N * sizeof *v);
    for (int i = 0; i < N; i++)
        v[i] = i;
    float *dv = acc_malloc(N * sizeof *dv);
    acc_map_data(v, dv, N * sizeof *v);
    acc_update_device(v, N * sizeof *v);
#pragma acc parallel loop present(v[0:N])
    for (int i = 0; i < N; i++)
        v[i] = v[i] * v[i];
    /* should be acc_update_self, then acc_unmap_data and acc_free */
    acc_copyout(v, N * sizeof *v); /* expect: not-map-data */
    printf("v[N-1] = %g\n", v[N - 1]);
    acc_free(dv);
    free(v);
    return 0;
}
