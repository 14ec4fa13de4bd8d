// Issue 17, Cray CCE's acc_model=deep_copy (seeds/003: "recreate the derived type on the
// accelerator recursively") under --strict-2.0: two pointer members that point into one block
// (here `p.a` and `p.b`, and `q.a`) share its device copy. The member mappings are the deep
// copy's, not clauses the program wrote, so OpenACC 2.0's rule that `copy` of present data is an
// error (§2.6.5) does not apply to them; a second mapping of the struct itself still is one
// (simulator/tests/cray.rs).
// accsim-flags: --strict-2.0 --acc-model deep_copy
#include <stdio.h>
#include <stdlib.h>

struct pair {
    double *a;
    double *b;
};

int main(void) {
    double *buf = malloc(8 * sizeof(double));
    for (int i = 0; i < 8; i++) buf[i] = i;
    struct pair p = { buf, buf };
    struct pair q = { buf, buf + 4 };
    #pragma acc data copy(p, q)
    {
        #pragma acc parallel loop present(p, q)
        for (int i = 0; i < 4; i++) {
            p.a[i] += 1;
            q.b[i] += 10;
        }
    }
    double s = 0;
    for (int i = 0; i < 8; i++) s += buf[i];
    printf("sum = %.1f, p.a == p.b on the host: %d\n", s, p.a == p.b);
    free(buf);
    return 0;
}
