/* 22_default_none.c — make every data attribute explicit: default(none).
 *
 * Teaches: without clauses the compiler decides: arrays and structs are present_or_copy, scalars
 * firstprivate in a parallel construct and copy in a kernels construct (§2.5.1, §2.5.2).
 * `default(none)` (§2.5.12) turns that off: every variable the region uses must appear in a data
 * clause (of the construct or of an enclosing data construct) unless its attribute is
 * predetermined — loop variables of associated loops and variables declared inside the region
 * (§2.6.1). A forgotten variable is then a compile-time error instead of a silent copy.
 *
 * Expected output: gcc-derived (see README.md).
 */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    int n = 2000;
    double a = 0.75;
    double *x = malloc(n * sizeof *x);
    double *y = malloc(n * sizeof *y);
    if (!x || !y) return 1;
    for (int i = 0; i < n; i++) {
        x[i] = (double)(i % 8);
        y[i] = 1.0;
    }

    /* parallel: n and a must be named too (firstprivate: read-only inputs) */
#pragma acc parallel loop default(none) firstprivate(n, a) copyin(x[0:n]) copy(y[0:n])
    for (int i = 0; i < n; i++) {
        double t = a * x[i];               /* declared inside: predetermined private */
        y[i] = y[i] + t;
    }

    /* data construct + kernels: y is covered by the enclosing data construct; the scalars are
       named on the kernels construct (copy, as kernels would have made them anyway) */
    double total = 0.0, biggest = 0.0;
#pragma acc data copyin(y[0:n])
    {
#pragma acc kernels default(none) present(y[0:n]) copy(total, biggest, n)
        {
#pragma acc loop gang vector reduction(+:total)
            for (int i = 0; i < n; i++) total += y[i];
#pragma acc loop gang vector reduction(max:biggest)
            for (int i = 0; i < n; i++) biggest = y[i] > biggest ? y[i] : biggest;
        }
    }

    printf("y[7] = %.6f, total = %.6f, max = %.6f\n", y[7], total, biggest);
    free(x);
    free(y);
    return 0;
}
