// Issue 12 item 7 (implicit pointers): a gather `y[i] = x[idx[i]]` with no data clause. What the
// loop reads through `x` depends on the values in `idx`, so neither nvc ("size of the GPU copy
// is unknown") nor accsim can infer the range to copy: the device access reaches host memory
// (§2.5.1: only the pointer is firstprivate), and the help names the subarray to write. (The
// kernel has no access plan at all, so accsim copies nothing, `idx` included, which nvc would
// copy: the first access to stop is the read of `idx[i]`.)
// expect-exit: 3
// expect-stderr: device-deref-host-ptr
// expect-stderr: the size of the GPU copy is unknown
// expect-stderr: with the number of elements n
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 256;
    double *x = malloc(n * sizeof *x);
    int *idx = malloc(n * sizeof *idx);
    double *y = malloc(n * sizeof *y);
    for (int i = 0; i < n; i++) {
        x[i] = i;
        idx[i] = (i * 7) % n;
    }
#pragma acc parallel loop
    for (int i = 0; i < n; i++)
        y[i] = x[idx[i]]; /* expect: device-deref-host-ptr */
    printf("y[1] = %.1f\n", y[1]);
    free(x);
    free(idx);
    free(y);
    return 0;
}
