/* 03_data_region.c — keep data on the device across several compute regions.
 *
 * Teaches: a `data` construct (§2.6.3) opens a data region: its arrays are allocated (and copied
 * in) once at the start and copied out once at the end, however many compute regions run inside.
 * `create` (§2.6.5.5) makes device-only scratch space that is never transferred; `present`
 * (§2.6.5.7) tells each compute region that the data is already on the device (a runtime error if
 * it is not). Data lifetimes and regions: §2.6.2.
 * Transfers here: a in once, b out once; tmp never moves. Without the data region each of the
 * three loops would move its arrays both ways.
 *
 * Expected output: gcc-derived (see README.md).
 */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    int n = 2048;
    double *a = malloc(n * sizeof *a);
    double *b = malloc(n * sizeof *b);
    double *tmp = malloc(n * sizeof *tmp);
    if (!a || !b || !tmp) return 1;
    for (int i = 0; i < n; i++) a[i] = (double)(i % 17) - 8.0;

#pragma acc data copyin(a[0:n]) create(tmp[0:n]) copyout(b[0:n])
    {
#pragma acc parallel loop present(a[0:n], tmp[0:n])
        for (int i = 0; i < n; i++)
            tmp[i] = a[i] * a[i];

#pragma acc parallel loop present(a[0:n], tmp[0:n], b[0:n])
        for (int i = 0; i < n; i++)
            b[i] = tmp[i] + 2.0 * a[i];

#pragma acc parallel loop present(b[0:n])
        for (int i = 0; i < n; i++)
            b[i] = b[i] / 4.0;
    }

    double sum = 0.0;
    for (int i = 0; i < n; i++) sum += b[i];
    printf("b[0] = %.6f, b[9] = %.6f, b[%d] = %.6f\n", b[0], b[9], n - 1, b[n - 1]);
    printf("sum = %.6f\n", sum);
    free(a);
    free(b);
    free(tmp);
    return 0;
}
