/* 01_vector_add.c — the first OpenACC program: add two vectors on the accelerator.
 *
 * Teaches: a `parallel loop` combined construct (§2.9) runs the loop's iterations on the device,
 * spread over gangs (§2.5.1, §2.7). The arrays have a size known at compile time, so they can be
 * named whole in data clauses: `copyin` sends a and b to device memory before the loop and
 * `copyout` brings c back after it (§2.6.5.3, §2.6.5.4). Without those clauses the arrays would be
 * treated as `present_or_copy` (§2.5.1), moving c to the device and a, b back for nothing.
 * The loop variable i is private to the thread running each iteration (§2.6.1).
 *
 * Expected output: gcc-derived (see README.md).
 */
#include <stdio.h>

#define N 1000

static float a[N], b[N], c[N];

int main(void) {
    for (int i = 0; i < N; i++) {
        a[i] = (float)i;
        b[i] = 2.0f * (float)i;
    }

#pragma acc parallel loop copyin(a, b) copyout(c)
    for (int i = 0; i < N; i++)
        c[i] = a[i] + b[i];

    int errors = 0;
    double sum = 0.0;
    for (int i = 0; i < N; i++) {
        if (c[i] != 3.0f * (float)i) errors++;
        sum += c[i];
    }
    printf("c[0] = %.6f, c[%d] = %.6f\n", c[0], N - 1, c[N - 1]);
    printf("sum = %.6f\n", sum);
    printf("errors = %d\n", errors);
    return errors != 0;
}
