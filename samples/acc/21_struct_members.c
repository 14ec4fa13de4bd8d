/* 21_struct_members.c — data clauses on struct members.
 *
 * Teaches: a data clause may name a member of a struct, including a subarray of a member, when
 * the struct variable itself is automatic, static or global — not reached through a pointer
 * (§2.6.5, restrictions). A member array (`p.w`) is part of the struct's storage; a pointer member
 * (`p.v`) points elsewhere, and naming the whole struct would copy the pointer VALUE (a host
 * address) but not the data it points to (§2.6.5: "the data addressed by that pointer are not
 * implicitly copied"). So the clauses name exactly what the region touches: the pointed-to data
 * `p.v[0:p.n]` and the member array `p.w`; the region reaches `p` member by member, never whole
 * (`accsim info`). Scalar members used directly: see 28_nested_members.c (§2.5.1, §2.5.2).
 *
 * Expected output: gcc-derived (see README.md).
 */
#include <stdio.h>
#include <stdlib.h>

#define W 8

struct particles {
    int n;
    double dt;
    double *v;        /* n values, heap */
    double w[W];      /* weights, inside the struct */
};

int main(void) {
    struct particles p;
    p.n = 1000;
    p.dt = 0.25;
    p.v = malloc(p.n * sizeof *p.v);
    if (!p.v) return 1;
    for (int i = 0; i < p.n; i++) p.v[i] = (double)(i % 20);
    for (int k = 0; k < W; k++) p.w[k] = 1.0 + 0.5 * k;

    int n = p.n;
    double dt = p.dt;
#pragma acc parallel loop copy(p.v[0:p.n]) copyin(p.w)
    for (int i = 0; i < n; i++)
        p.v[i] = p.v[i] + dt * p.w[i % W];

    /* The same member again, this time in a data region with an update. */
#pragma acc data copy(p.v[0:p.n])
    {
#pragma acc parallel loop present(p.v[0:p.n])
        for (int i = 0; i < n; i++)
            p.v[i] = 2.0 * p.v[i];
#pragma acc update host(p.v[0:10])
        printf("first ten after doubling:");
        for (int i = 0; i < 10; i++) printf(" %.2f", p.v[i]);
        printf("\n");
    }

    double s = 0.0;
    for (int i = 0; i < p.n; i++) s += p.v[i];
    printf("v[0] = %.6f, v[%d] = %.6f, sum(v) = %.6f\n", p.v[0], p.n - 1, p.v[p.n - 1], s);
    free(p.v);
    return 0;
}
