// Issue 12 (async2; spec program 2.7.2_gangs_not_synchronised_between_loops): an array that a
// data clause names (`create(tmp)`) but no host statement uses was outlined as a variable
// declared inside the region -- a private copy per gang -- instead of the one device copy all
// gangs share (§2.6.5.4 create: "allocates memory on the accelerator device for the data";
// §2.6.1: only variables declared in the region, or in private clauses, are private). A kernel
// reading an element another gang's kernel wrote read its own uninitialised copy, and `check`
// missed the race between two gang loops of one parallel region that share it.
#include <stdio.h>

#define N 256

int main(void) {
    double a[N], out[N];
    double tmp[N];
    for (int i = 0; i < N; i++)
        a[i] = i;

    /* kernels: one kernel per loop, so reversing through tmp is correct */
#pragma acc kernels copyin(a) create(tmp) copyout(out)
    {
        for (int i = 0; i < N; i++)
            tmp[i] = 2 * a[i];
        for (int i = 0; i < N; i++)
            out[i] = tmp[N - 1 - i];
    }
    printf("kernels: out[0] = %.1f, out[%d] = %.1f\n", out[0], N - 1, out[N - 1]);

    /* a backward difference in one parallel region, written as if the end of the first gang
       loop were a barrier: a gang reads tmp[i - 1] at its chunk's start, which the previous gang
       writes (§1.2: no synchronisation between gangs). The values are not determined. */
#pragma acc parallel num_gangs(4) copyin(a) create(tmp) copyout(out)
    {
#pragma acc loop gang
        for (int i = 0; i < N; i++)
            tmp[i] = a[i] * a[i];
#pragma acc loop gang
        for (int i = 1; i < N - 1; i++)
            out[i] = tmp[i] - tmp[i - 1]; /* expect: data-race */
    }
    return 0;
}
