// Issue 17: an unknown directive in a PGI Accelerator 1.3 file is a 1.3 diagnostic with
// file:line and the list of 1.3 directives (1.3 §2), and the 2.0-only clause spelling `create`
// on a 1.3 region is refused (1.3 §2.3.1 lists the region's clauses; 1.3 spells it `local`).
// expect-exit: 2
// expect-stderr: `regoin` is not a PGI Accelerator 1.3 directive
// expect-stderr: pgi13_unknown_directive.c:15
// expect-stderr: `create` is not a clause of the 1.3 `region` directive
// check: skip
#include <stdio.h>

int main(void) {
    float a[64], t[64];
#pragma acc data region copyout(a)
    {
#pragma acc regoin
        for (int i = 0; i < 64; i++) a[i] = i;
#pragma acc region create(t)
        for (int i = 0; i < 64; i++) t[i] = a[i];
    }
    printf("%g\n", a[63]);
    return 0;
}
