// Issue 12 (async2): `wait(q) async(r)` on parallel, kernels and update orders queue r after
// queue q (§2.13.2), and waiting for r orders the host after both: a two-stage pipeline with no
// host wait between the stages is correct, with every schedule (run under --schedule seed:N by
// the spec harness's schedules too) and with no `check` finding.
#include <stdio.h>
#include <stdlib.h>

#define N 2048

int main(void) {
    double *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *c = malloc(N * sizeof *c);
    for (int i = 0; i < N; i++)
        a[i] = i;
#pragma acc enter data create(a[0:N], b[0:N], c[0:N])
#pragma acc update device(a[0:N]) async(1)
#pragma acc parallel loop present(a[0:N], b[0:N]) wait(1) async(2)
    for (int i = 0; i < N; i++)
        b[i] = 2 * a[i];
#pragma acc kernels loop present(b[0:N], c[0:N]) wait(2) async(3)
    for (int i = 0; i < N; i++)
        c[i] = b[i] + 1;
#pragma acc update self(c[0:N]) wait(3) async(4)
#pragma acc wait(4)
    double sum = 0;
    for (int i = 0; i < N; i++)
        sum += c[i];
    printf("c[1] = %.1f c[%d] = %.1f sum = %.1f\n", c[1], N - 1, c[N - 1], sum);
#pragma acc exit data delete(a[0:N], b[0:N], c[0:N])
    free(a);
    free(b);
    free(c);
    return 0;
}
