/* 02_saxpy.c — y = a*x + y on heap arrays passed to a function.
 *
 * Teaches: inside a function the compiler cannot know how long `x` and `y` are, so the data
 * clauses name subarrays `x[0:n]` (start 0, length n); for a dynamically allocated array the
 * length is required (§2.6.5, C subarray restriction). `copy` (§2.6.5.2) moves y in and back out,
 * `copyin` moves x in only. The scalars n and a are not in any clause: in a parallel construct a
 * referenced scalar is firstprivate (§2.5.1), each gang getting its own copy initialised from the
 * host value, which is exactly what read-only scalars need.
 *
 * Expected output: gcc-derived (see README.md).
 */
#include <stdio.h>
#include <stdlib.h>

static void saxpy(int n, float a, const float *restrict x, float *restrict y) {
#pragma acc parallel loop copyin(x[0:n]) copy(y[0:n])
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

int main(void) {
    int n = 4096;
    float *x = malloc(n * sizeof *x);
    float *y = malloc(n * sizeof *y);
    if (!x || !y) return 1;
    for (int i = 0; i < n; i++) {
        x[i] = 0.5f * (float)i;
        y[i] = (float)(i % 10);
    }

    saxpy(n, 2.5f, x, y);
    saxpy(n, -1.0f, x, y);   /* y = 1.5*x + y0 after both calls */

    double sum = 0.0;
    int errors = 0;
    for (int i = 0; i < n; i++) {
        sum += y[i];
        if (y[i] != 1.5f * x[i] + (float)(i % 10)) errors++;
    }
    printf("y[1] = %.6f, y[%d] = %.6f\n", y[1], n - 1, y[n - 1]);
    printf("sum = %.6f\n", sum);
    printf("errors = %d\n", errors);
    free(x);
    free(y);
    return errors != 0;
}
