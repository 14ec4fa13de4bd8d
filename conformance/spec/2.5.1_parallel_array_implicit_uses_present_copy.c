// §2.5.1 with §2.6.5.8: an array referenced in a parallel construct inside `data create(a)` is
// treated as present_or_copy, so the existing device copy is used and nothing is moved: the
// host copy keeps its values after both regions.
#include <stdio.h>
int main(void) {
    int a[8];
    for (int i = 0; i < 8; i++) a[i] = -1;
#pragma acc data create(a)
    {
#pragma acc parallel loop
        for (int i = 0; i < 8; i++) a[i] = i;
    }
    printf("host a: %d %d %d\n", a[0], a[4], a[7]); /* expect: stale-host-read */
    return 0;
}
