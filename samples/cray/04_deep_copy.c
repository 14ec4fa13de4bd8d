// Cray CCE's acc_model=deep_copy (seeds/003, "-h acc_model" option set 3: "Look inside of
// derived type objects and recreate the derived type on the accelerator recursively"), read for
// C: `copy(grid)` on a struct with pointer members also copies the heap blocks they point to
// and points the device struct's members at the device copies. Under CCE's default,
// no_deep_copy, the device struct would hold host pointers, and the kernel could not follow
// them (`accsim check --cray` reports the device dereferencing a host pointer).
// accsim-flags: --acc-model deep_copy
#include <stdio.h>
#include <stdlib.h>

struct grid {
    int n;
    double *u;
    double *f;
};

int main(void) {
    struct grid g;
    g.n = 64;
    g.u = malloc(g.n * sizeof(double));
    g.f = malloc(g.n * sizeof(double));
    for (int i = 0; i < g.n; i++) {
        g.u[i] = 0;
        g.f[i] = i;
    }
    #pragma acc data copy(g)
    {
        #pragma acc parallel loop present(g)
        for (int i = 0; i < g.n; i++)
            g.u[i] = 0.5 * g.f[i];
    }
    double sum = 0;
    for (int i = 0; i < g.n; i++)
        sum += g.u[i];
    printf("sum = %.1f\n", sum);
    printf("host pointers kept: %d\n", g.u != 0 && g.f != 0);
    free(g.u);
    free(g.f);
    return 0;
}
