// Issue 12 item 7: `copy(A)` on a pointer whose target nothing mapped: the extent is unknown, so
// only the 8-byte pointer is mapped (OpenACC 2.0's reading; nvc refuses to compile it). The
// device access through `A` says so and shows the subarray to write, not a data clause the
// program already has.
// expect-exit: 3
// expect-stderr: device-deref-host-ptr
// expect-stderr: only the 8-byte pointer was mapped
// expect-stderr: `A[0:n]`
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 100;
    double *A = malloc(n * sizeof *A);
    for (int i = 0; i < n; i++)
        A[i] = i;
#pragma acc parallel loop copy(A)
    for (int i = 0; i < n; i++)
        A[i] *= 2; /* expect: device-deref-host-ptr */
    printf("A[99] = %.0f\n", A[99]);
    free(A);
    return 0;
}
