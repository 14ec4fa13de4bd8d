// Issue 12, errors runtimes catch: `acc_memcpy_to_device` into device memory that is not
// mapped. Only the interior rows of the grid are on the device (`enter data copyin` of a
// subarray), but the copy writes as many bytes as the whole grid has: past the end of the
// device copy (§3.2.30: "the destination address must be a device address", here for every
// byte; a GPU runtime faults or corrupts other device data).
// expect-exit: 3
// expect-stderr: error[bad-argument]
// expect-stderr: acc_memcpy_beyond_mapped.c:28:5
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

#define NX 64
#define NY 64

int main(void) {
    double *grid = malloc(NX * NY * sizeof *grid);
    double *fresh = malloc(NX * NY * sizeof *fresh);
    for (int i = 0; i < NX * NY; i++) {
        grid[i] = 0;
        fresh[i] = 1;
    }
    /* rows 1 .. NY-2: the interior */
#pragma acc enter data copyin(grid[NX:NX * (NY - 2)])
    double *d_interior = acc_deviceptr(&grid[NX]);

    /* meant to copy the interior rows: NX * (NY - 2) elements */
    acc_memcpy_to_device(d_interior, &fresh[NX], NX * NY * sizeof *fresh); /* expect: bad-argument */
#pragma acc exit data copyout(grid[NX:NX * (NY - 2)])
    printf("grid[NX] = %g\n", grid[NX]);
    free(grid);
    free(fresh);
    return 0;
}
