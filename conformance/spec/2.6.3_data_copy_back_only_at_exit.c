// §2.6.5.2: with copy on a data construct the data is "copied back to the local memory and
// deallocated upon exit from the region" -- not before: inside the region the host copy keeps
// its old values until an update or the region's end.
#include <stdio.h>
int main(void) {
    int a[4] = {1, 2, 3, 4};
#pragma acc data copy(a)
    {
#pragma acc parallel loop
        for (int i = 0; i < 4; i++) a[i] = -a[i];
        printf("inside: %d %d\n", a[0], a[3]); /* expect: stale-host-read */
    }
    printf("after: %d %d\n", a[0], a[3]);
    return 0;
}
