/* 02_data_region.c — a 1.3 data region around two compute regions, with update clauses.
 *
 * Teaches: `#pragma acc data region` (1.3 §2.3.2) keeps arrays on the device across the compute
 * regions inside it. `copyin` copies in at entry, `copyout` back at exit, `local` (1.3 §2.3.3.4)
 * allocates device-only scratch (2.0 calls it `create`). Subarrays in 1.3 name their *upper*
 * bound, included: `a[0:n-1]` is the 2.0 subarray `a[0:n]` (1.3 §2.3.3).
 * An `update host(list)` clause on a region (1.3 §2.3.4) copies the device values back after the
 * region completes: here the host looks at `tmp` halfway, inside the data region.
 */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    int n = 512;
    double *a = malloc(n * sizeof *a);
    double *b = malloc(n * sizeof *b);
    double *tmp = malloc(n * sizeof *tmp);
    if (!a || !b || !tmp) return 1;
    for (int i = 0; i < n; i++) a[i] = (double)(i % 13) - 6.0;

#pragma acc data region copyin(a[0:n-1]) local(tmp[0:n-1]) copyout(b[0:n-1])
    {
#pragma acc region update host(tmp[0:n-1])
        {
            for (int i = 0; i < n; i++)
                tmp[i] = a[i] * a[i];
        }
        double peek = 0;
        for (int i = 0; i < n; i++) peek += tmp[i];
        printf("sum of squares seen on the host inside the data region: %.1f\n", peek);

#pragma acc region
        {
            for (int i = 0; i < n; i++)
                b[i] = tmp[i] - a[i];
        }
    }
    double s = 0;
    for (int i = 0; i < n; i++) s += b[i];
    printf("b[0] = %g, b[%d] = %g, sum = %.1f\n", b[0], n - 1, b[n - 1], s);
    free(a);
    free(b);
    free(tmp);
    return 0;
}
