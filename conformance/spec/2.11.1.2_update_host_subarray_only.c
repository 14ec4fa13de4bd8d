// §2.11.1.2 (host, a synonym for local, §2.11.1.1): the var-list may name "subarrays"; only the
// named elements are copied to local memory, the others keep their host values.
#include <stdio.h>
int main(void) {
    int a[6] = {0, 0, 0, 0, 0, 0};
#pragma acc data copyin(a)
    {
#pragma acc parallel loop present(a)
        for (int i = 0; i < 6; i++) a[i] = i + 1;
#pragma acc update host(a[2:3])
        printf("%d %d %d %d %d %d\n", a[0], a[1], a[2], a[3], a[4], a[5]); /* expect: stale-host-read */
    }
    return 0;
}
