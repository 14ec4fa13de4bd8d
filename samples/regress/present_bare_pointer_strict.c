// Issue 12 item 7 under --strict-2.0: OpenACC 2.0 reads `present(A)` on a pointer as the
// pointer itself (§2.6.5.6: "the data"), which no clause mapped — only `A[0:n]`, its target.
// expect-exit: 3
// accsim-flags: --strict-2.0
// expect-stderr: not-present
// expect-stderr: `A` is not present on the device
// check: skip
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 100;
    double *A = malloc(n * sizeof *A);
    for (int i = 0; i < n; i++)
        A[i] = i;
#pragma acc enter data copyin(A[0:n])
#pragma acc parallel loop present(A)
    for (int i = 0; i < n; i++)
        A[i] *= 2;
#pragma acc exit data copyout(A[0:n])
    printf("A[99] = %.0f\n", A[99]);
    free(A);
    return 0;
}
