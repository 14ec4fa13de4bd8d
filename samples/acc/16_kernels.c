/* 16_kernels.c — a kernels region: the compiler turns each loop nest into a kernel.
 *
 * Teaches: in a `kernels` construct (§2.5.2) the implementation splits the code into a sequence
 * of kernels, typically one per loop nest, launched in order; each may use a different gang /
 * worker / vector configuration. Loops without a directive, or with a bare `loop`, are `auto`
 * (§2.7.6): the implementation parallelises them only if it can prove the iterations independent
 * — `loop independent` (§2.7.9) asserts it. A loop with a true dependence (the running sum below)
 * must stay sequential: `loop seq` (§2.7.5) says so explicitly. A reduction needs the reduction
 * clause on a gang/vector loop (§2.7.11).
 * Unlike `parallel`, a scalar referenced in a kernels region is treated as `copy` (§2.5.2): the
 * value assigned to `last` inside the region is the host's value after it.
 *
 * Expected output: gcc-derived (see README.md).
 */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    int n = 1000;
    double *x = malloc(n * sizeof *x);
    double *y = malloc(n * sizeof *y);
    double *prefix = malloc(n * sizeof *prefix);
    if (!x || !y || !prefix) return 1;

    double total = 0.0, last = 0.0;
#pragma acc kernels create(x[0:n]) copyout(y[0:n], prefix[0:n])
    {
        /* kernel 1: the compiler can see these iterations are independent */
        for (int i = 0; i < n; i++)
            x[i] = (double)(i % 9) * 0.5;

        /* kernel 2: asserted independent */
#pragma acc loop independent
        for (int i = 0; i < n; i++)
            y[i] = 2.0 * x[i] + 1.0;

        /* kernel 3: a reduction */
#pragma acc loop gang vector reduction(+:total)
        for (int i = 0; i < n; i++)
            total += y[i];

        /* kernel 4: a recurrence, must run in order */
        prefix[0] = y[0];
#pragma acc loop seq
        for (int i = 1; i < n; i++)
            prefix[i] = prefix[i - 1] + y[i];

        /* a scalar assignment: kernels scalars are copy, so this reaches the host */
        last = prefix[n - 1];
    }

    printf("y[8] = %.6f, total = %.6f\n", y[8], total);
    printf("prefix[9] = %.6f, prefix[%d] = %.6f, last = %.6f\n", prefix[9], n - 1, prefix[n - 1], last);
    free(x);
    free(y);
    free(prefix);
    return 0;
}
