// Issue 12, errors runtimes catch: `acc_free` of the device copy a data routine made
// (§3.2.16: the argument "should be a pointer value that was returned by a call to
// acc_malloc"; §3.2.17: acc_copyin's result may be used in deviceptr clauses, not freed). The
// copy belongs to the data lifetime, which acc_delete ends.
// expect-exit: 3
// expect-stderr: error[still-mapped]
// expect-stderr: acc_free_of_copyin.c:25:5
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

int main(void) {
    int n = 256;
    float *h = malloc(n * sizeof *h);
    for (int i = 0; i < n; i++)
        h[i] = 1.0f;
    float *d = acc_copyin(h, n * sizeof *h);
    float sum = 0;
#pragma acc parallel loop deviceptr(d) reduction(+:sum)
    for (int i = 0; i < n; i++)
        sum += d[i];
    printf("sum = %g\n", sum);

    /* wrong: the device copy is released with acc_delete(h, ...) */
    acc_free(d); /* expect: still-mapped */
    free(h);
    return 0;
}
