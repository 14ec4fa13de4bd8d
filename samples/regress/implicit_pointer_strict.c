// Issue 12 item 7 (implicit pointers), under --strict-2.0: OpenACC 2.0 gives a pointer that no
// clause names an implicit attribute of its own (§2.5.2: copied in a kernels construct), not its
// target, so the device reads host memory; the help names the clause nvc would have inferred.
// accsim-flags: --strict-2.0
// expect-exit: 3
// expect-stderr: device-deref-host-ptr
// expect-stderr: --strict-2.0
// expect-stderr: `copyin(x[0:100])`
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 100;
    double *x = malloc(n * sizeof *x);
    double s = 0.0;
    for (int i = 0; i < n; i++)
        x[i] = 1.0;
#pragma acc kernels loop reduction(+:s)
    for (int i = 0; i < n; i++)
        s += x[i]; /* expect: device-deref-host-ptr */
    printf("s = %.1f\n", s);
    free(x);
    return 0;
}
