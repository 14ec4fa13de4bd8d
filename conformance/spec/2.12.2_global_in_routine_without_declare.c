// expect-exit: 2
// expect-stderr: error
// §2.12.2: "C or C++ global ... variables ... used in procedures compiled with the routine
// directive for execution on the device must appear in a declare directive in a create, copyin,
// device_resident or link clause." `scale` appears in none.
#include <stdio.h>
int scale = 3;
#pragma acc routine seq
static int scaled(int x) { return x * scale; } /* expect: compile-error */
int main(void) {
    int v[4];
#pragma acc parallel loop copyout(v)
    for (int i = 0; i < 4; i++) v[i] = scaled(i);
    printf("%d\n", v[3]);
    return 0;
}
