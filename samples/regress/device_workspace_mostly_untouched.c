// Issue 14 (device memory zeroed lazily): a program that sizes its device work space for the
// largest input it accepts (1 GiB through a data clause, 512 MiB through acc_malloc, §3.2.15) and
// then uses a few thousand elements. Creating device memory (§2.6.5 create) must cost the pages
// the program touches, not the whole size: before, accsim wrote every word up front (2.1 GB
// resident, 4 s). The sizes still count against --max-memory.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

#define MAX_N (1L << 27)   /* the largest input: 2^27 doubles = 1 GiB */

int main(void) {
    int n = 5000;
    double *x = malloc(MAX_N * sizeof(double));
    double *scratch = acc_malloc((MAX_N / 2) * sizeof(double));
    for (int i = 0; i < n; i++)
        x[i] = 0.5 * i;
    double total = 0.0;
#pragma acc data create(x[0:MAX_N])
    {
#pragma acc update device(x[0:n])
#pragma acc parallel loop deviceptr(scratch)
        for (int i = 0; i < n; i++)
            scratch[i] = 2.0 * x[i];
#pragma acc parallel loop deviceptr(scratch) reduction(+:total)
        for (int i = 0; i < n; i++)
            total += scratch[i] + x[i];
    }
    printf("total = %.1f\n", total);
    acc_free(scratch);
    free(x);
    return 0;
}
