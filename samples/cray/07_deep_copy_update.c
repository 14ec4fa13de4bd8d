// Cray CCE's acc_model=deep_copy and the `update` directive (seeds/003, "-h acc_model" option
// set 3: "Look inside of derived type objects and recreate the derived type on the accelerator
// recursively"), read for C. `update host(s)` of a struct with pointer members brings home what
// the members point to, and the host struct keeps its own (host) pointers; `update device(s)`
// sends the pointees, and the device struct keeps pointing at the device copies. Without
// deep_copy an update moves the struct's bytes only: the host would get device addresses.
// accsim-flags: --acc-model deep_copy
#include <stdio.h>
#include <stdlib.h>

struct field {
    int n;
    double *val;
    int *count;
};

int main(void) {
    struct field s;
    s.n = 100;
    s.val = malloc(s.n * sizeof(double));
    s.count = malloc(sizeof(int));
    for (int i = 0; i < s.n; i++)
        s.val[i] = i;
    *s.count = 0;
    double *host_val = s.val;

    #pragma acc enter data copyin(s)
    #pragma acc parallel loop present(s)
    for (int i = 0; i < s.n; i++)
        s.val[i] = 2 * s.val[i];
    #pragma acc update host(s)
    double sum = 0;
    for (int i = 0; i < s.n; i++)
        sum += s.val[i];
    printf("after update host: sum = %.1f, host pointer kept: %d\n", sum, s.val == host_val);

    for (int i = 0; i < s.n; i++)
        s.val[i] += 1;
    *s.count = 7;
    #pragma acc update device(s)
    #pragma acc parallel loop present(s)
    for (int i = 0; i < s.n; i++)
        s.val[i] = s.val[i] * 10 + *s.count;
    #pragma acc exit data copyout(s)

    sum = 0;
    for (int i = 0; i < s.n; i++)
        sum += s.val[i];
    printf("after exit data: sum = %.1f, host pointer kept: %d\n", sum, s.val == host_val);
    free(s.val);
    free(s.count);
    return 0;
}
