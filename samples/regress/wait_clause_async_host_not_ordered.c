// Issue 12 (async2): a `wait(1)` clause on a construct with `async(2)` makes queue 2 wait for
// queue 1; the host goes on (§2.13.2: the operation "may not be launched or executed until all
// operations enqueued up to this point ... on the associated asynchronous device activity queues
// have completed" -- "Another legal implementation is for the local thread to enqueue the
// compute or update operation in such a way that the operation will not start until" they have).
// Refilling the host buffer while its upload on queue 1 may still be pending is an async race;
// `check` missed it because the clause counted as a host wait.
#include <stdio.h>
#include <stdlib.h>

#define N 4096

int main(void) {
    float *in = malloc(N * sizeof *in), *out = malloc(N * sizeof *out);
    for (int i = 0; i < N; i++)
        in[i] = 1;
#pragma acc data create(in[0:N]) copyout(out[0:N])
    {
#pragma acc update device(in[0:N]) async(1)
#pragma acc parallel loop present(in[0:N], out[0:N]) wait(1) async(2)
        for (int i = 0; i < N; i++)
            out[i] = 3 * in[i];
        /* next batch: the host must wait for queue 1 (or 2) before this */
        for (int i = 0; i < N; i++)
            in[i] = 7; /* expect: async-race */
#pragma acc wait(2)
    }
    printf("out[0] = %g out[%d] = %g\n", out[0], N - 1, out[N - 1]);
    free(in);
    free(out);
    return 0;
}
