// §2.5.1: an array "that does not appear in a data clause for the construct or any enclosing data
// construct" gets an implicit present_or_copy; `a` appears (as the subarray a[0:50]) in the
// enclosing data construct, so the region uses that device copy.
#include <stdio.h>
int main(void) {
    int a[100];
    for (int i = 0; i < 100; i++) a[i] = i;
#pragma acc data copy(a[0:50])
    {
#pragma acc parallel loop
        for (int i = 0; i < 50; i++) a[i] += 1000;
    }
    printf("%d %d %d\n", a[0], a[49], a[50]);
    return 0;
}
