/* 26_loop_arguments.c — the arguments of gang, worker and vector, and loop auto.
 *
 * Teaches:
 *   in a kernels region, `gang(n)` / `gang(num:n)`, `worker(n)` / `worker(num:n)` and
 *     `vector(n)` / `vector(length:n)` set how many gangs / workers / lanes that loop's kernel
 *     uses (§2.7.2-§2.7.4): each kernel of a kernels region may have its own shape (§2.5.2);
 *   in a parallel region the shape is fixed by num_gangs / num_workers / vector_length on the
 *     construct, and gang takes only `static:` (§2.7.2): `gang(static:4)` deals iterations to
 *     gangs in chunks of 4, round robin from gang 0; two loops with the same trip count and the
 *     same static argument give every gang the same iterations, so the second loop below can
 *     read what the same gang wrote in the first without waiting for other gangs;
 *     `static:*` lets the implementation pick the chunk;
 *   `loop auto` (§2.7.6) leaves the choice of gang / worker / vector to the implementation.
 *
 * Expected output: gcc-derived (see README.md).
 */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    int n = 2400;
    double *a = malloc(n * sizeof *a);
    double *b = malloc(n * sizeof *b);
    double *c = malloc(n * sizeof *c);
    if (!a || !b || !c) return 1;
    for (int i = 0; i < n; i++) a[i] = (double)(i % 10);

#pragma acc kernels copyin(a[0:n]) create(b[0:n]) copyout(c[0:n])
    {
#pragma acc loop gang(8) vector(32)
        for (int i = 0; i < n; i++) b[i] = 2.0 * a[i];
#pragma acc loop gang(num:4) worker(num:4) vector(length:16)
        for (int i = 0; i < n; i++) c[i] = b[i] + a[i];
    }

    double *d = malloc(n * sizeof *d);
    double *e = malloc(n * sizeof *e);
    if (!d || !e) return 1;
#pragma acc parallel num_gangs(6) vector_length(32) copyin(c[0:n]) create(d[0:n]) copyout(e[0:n])
    {
#pragma acc loop gang(static:4)
        for (int i = 0; i < n; i++) d[i] = c[i] * 0.5;
        /* same trip count and chunk: iteration i is on the same gang as in the loop above */
#pragma acc loop gang(static:4)
        for (int i = 0; i < n; i++) e[i] = d[i] + 1.0;
    }

    /* static:* — the chunk is the implementation's; a loop of its own, since its iterations
       need not land on the gangs that wrote e above */
#pragma acc parallel loop gang(static:*) vector copy(e[0:n])
    for (int i = 0; i < n; i++) e[i] = e[i] * 2.0;

    double total = 0.0;
#pragma acc parallel loop auto copyin(e[0:n]) reduction(+:total)
    for (int i = 0; i < n; i++) total += e[i];

    printf("c[9] = %.6f, e[9] = %.6f, total = %.6f\n", c[9], e[9], total);
    free(a);
    free(b);
    free(c);
    free(d);
    free(e);
    return 0;
}
