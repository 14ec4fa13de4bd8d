// Issue 12, errors runtimes catch: `acc_free` twice of one acc_malloc block (§3.2.16), as
// `free` twice is: the second call frees memory the runtime may have handed out again.
// expect-exit: 3
// expect-stderr: error[double-free]
// expect-stderr: acc_free_twice.c:13:5
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

static double *scratch;

static void cleanup(void) {
    acc_free(scratch); /* expect: double-free */
}

int main(void) {
    int n = 64;
    scratch = acc_malloc(n * sizeof *scratch);
    double out[64];
#pragma acc parallel loop deviceptr(scratch) copyout(out)
    for (int i = 0; i < n; i++) {
        scratch[i] = i * 0.5;
        out[i] = scratch[i];
    }
    printf("out[63] = %g\n", out[63]);
    acc_free(scratch);
    cleanup(); /* frees it again */
    return 0;
}
