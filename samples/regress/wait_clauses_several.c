// Issue 12 item 10: a construct with several `wait` clauses waits for the queues of all of
// them (§2.13.2: "the compute, data or update operation may not be launched or executed until
// all operations enqueued ... on the associated asynchronous device activity queues have
// completed"), as does one clause or one `wait` directive with several arguments (§2.13.3).
// Only the first clause was honoured: a false `async-race`, and under `--schedule seed:0` the
// kernel read data whose upload was still queued.
#include <stdio.h>
#include <stdlib.h>

#define N 4096

int main(void) {
    float *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
    float *sum = malloc(N * sizeof *sum), *prod = malloc(N * sizeof *prod);
    for (int i = 0; i < N; i++) {
        a[i] = i;
        b[i] = 0.5f * i;
    }
#pragma acc enter data create(a[0:N], b[0:N], sum[0:N], prod[0:N])
#pragma acc update device(a[0:N]) async(1)
#pragma acc update device(b[0:N]) async(2)

    /* sum needs both uploads: one wait clause per queue */
#pragma acc parallel loop present(a[0:N], b[0:N], sum[0:N]) wait(1) wait(2) async(3)
    for (int i = 0; i < N; i++)
        sum[i] = a[i] + b[i];

    /* prod needs them too: one clause naming both queues */
#pragma acc kernels loop present(a[0:N], b[0:N], prod[0:N]) wait(1, 2) async(4)
    for (int i = 0; i < N; i++)
        prod[i] = a[i] * b[i];

    /* both results come back on queue 5, after the kernels that compute them */
#pragma acc update self(sum[0:N]) wait(3) wait(4) async(5)
#pragma acc update self(prod[0:N]) async(5)
#pragma acc wait(5, 1)

    double s = 0, p = 0;
    for (int i = 0; i < N; i++) {
        s += sum[i];
        p += prod[i];
    }
    printf("sum of a+b = %.1f, sum of a*b = %.1f\n", s, p);

#pragma acc exit data delete(a[0:N], b[0:N], sum[0:N], prod[0:N]) wait(2) wait(3) wait(4)
    free(a);
    free(b);
    free(sum);
    free(prod);
    return 0;
}
