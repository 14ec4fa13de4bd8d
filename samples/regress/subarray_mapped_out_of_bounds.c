// Issue 12 item 2: an access outside the part of an array that a subarray maps is out of bounds
// of its device copy (§2.7.1: only the subarray has a device copy), reported at the access with
// the mapped range; the array is not mapped again whole (no `partially-present`).
// expect-exit: 3
// expect-stderr: out-of-bounds
// expect-stderr: the device copy of `a[0:50]` (offsets 0..200 mapped)
#include <stdio.h>

int main(void)
{
    int a[100];
    for (int i = 0; i < 100; i++)
        a[i] = i;
#pragma acc parallel loop copy(a[0:50])
    for (int i = 0; i < 60; i++)
        a[i] += 1; /* expect: out-of-bounds */
    printf("a[49] = %d\n", a[49]);
    return 0;
}
