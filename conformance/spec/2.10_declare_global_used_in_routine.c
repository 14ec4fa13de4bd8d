// §2.12.2: "C or C++ global ... variables or array ... that are used in procedures compiled with
// the routine directive for execution on the device must appear in a declare directive in a
// create, copyin, device_resident or link clause." A lookup table in declare copyin.
#include <stdio.h>
int table[8] = {0, 1, 4, 9, 16, 25, 36, 49};
#pragma acc declare copyin(table)
#pragma acc routine seq
static int lookup(int i) { return table[i % 8]; }
int main(void) {
    int out[20];
#pragma acc parallel loop copyout(out)
    for (int i = 0; i < 20; i++) out[i] = lookup(i);
    printf("%d %d %d\n", out[3], out[8], out[15]);
    return 0;
}
