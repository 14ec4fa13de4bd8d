/* 04_update.c — keep host and device copies coherent inside a data region.
 *
 * Teaches: within a data region the host copy and the device copy of an array are two different
 * memories (§1.3, §2.6.5). After a compute region changes the device copy, the host sees the old
 * values until an `update host(...)` (§2.11.1.2; `local` is its synonym, §2.11.1.1) copies them
 * back; after the host changes its copy, `update device(...)` (§2.11.1.3) sends the change to the
 * device. Updates take subarrays, so only the elements that changed need to move. Forgetting one of
 * these updates is the most common OpenACC bug: the program then prints stale values on a
 * separate-memory device and correct ones on the host, which is what accsim's coherence checker
 * reports.
 *
 * Expected output: gcc-derived (see README.md).
 */
#include <stdio.h>
#include <stdlib.h>

static double sum_of(const double *a, int lo, int len) {
    double s = 0.0;
    for (int i = lo; i < lo + len; i++) s += a[i];
    return s;
}

int main(void) {
    int n = 1024;
    double *a = malloc(n * sizeof *a);
    if (!a) return 1;
    for (int i = 0; i < n; i++) a[i] = (double)(i % 8);
    printf("start:            sum = %.6f\n", sum_of(a, 0, n));

#pragma acc data copy(a[0:n])
    {
#pragma acc parallel loop present(a[0:n])
        for (int i = 0; i < n; i++)
            a[i] = 2.0 * a[i] + 1.0;

        /* Peek at four device values: only a[100:4] comes back. */
#pragma acc update host(a[100:4])
        printf("after region 1:   a[100..103] = %.6f %.6f %.6f %.6f\n", a[100], a[101], a[102], a[103]);

        /* The whole array, to use it on the host. */
#pragma acc update host(a[0:n])
        printf("after update host: sum = %.6f\n", sum_of(a, 0, n));

        /* The host changes the first and last 16 elements, and sends just those. */
        for (int i = 0; i < 16; i++) {
            a[i] = 100.0 + i;
            a[n - 16 + i] = -100.0 - i;
        }
#pragma acc update device(a[0:16])
#pragma acc update device(a[n-16:16])

#pragma acc parallel loop present(a[0:n])
        for (int i = 0; i < n; i++)
            a[i] = a[i] - 1.0;
    }

    printf("end:              a[0] = %.6f, a[20] = %.6f, a[%d] = %.6f\n", a[0], a[20], n - 1, a[n - 1]);
    printf("end:              sum = %.6f\n", sum_of(a, 0, n));
    free(a);
    return 0;
}
