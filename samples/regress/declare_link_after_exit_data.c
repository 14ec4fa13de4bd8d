// Issue 12 (session 6, item 2): a `declare link` global has a device copy only during the data
// lifetime that a data clause, compute construct or `enter data` gives it (§2.10.2: "The
// accelerator data lifetime of variables ... specified in a link clause is the data region that
// allocates the variable ... or from the execution of the enter data directive that allocates
// the data until an exit data directive deallocates it"); §2.12.2: "If the data appears in a
// link clause, that data must have an active accelerator data lifetime". A routine reading it
// after `exit data` is an error naming the variable (`not-present`), not a host-pointer fault.
// accsim reported `device-deref-host-ptr` and suggested `declare create`.
// expect-exit: 3
// expect-stderr: `coef`, which is in a `declare link` clause but is not present
#include <stdio.h>

double coef[4] = {1, 2, 3, 4};
#pragma acc declare link(coef)

#pragma acc routine seq
static double scale(int k) { return coef[k % 4] * k; } /* expect: not-present */

int main(void)
{
    double out[8];
#pragma acc enter data copyin(coef)
#pragma acc parallel loop copyout(out)
    for (int i = 0; i < 8; i++) out[i] = scale(i);
#pragma acc exit data delete(coef)
    printf("%g %g\n", out[1], out[7]);
#pragma acc parallel loop copyout(out)
    for (int i = 0; i < 8; i++) out[i] = scale(i);
    printf("%g\n", out[2]);
    return 0;
}
