// §2.11.1: "update all or part of a local memory array" -- update host(a[2:3]) copies only
// elements 2..4.
#include <stdio.h>
int main(void) {
    int a[8];
    for (int i = 0; i < 8; i++) a[i] = -1;
#pragma acc data copyin(a)
    {
#pragma acc parallel loop
        for (int i = 0; i < 8; i++) a[i] = i;
#pragma acc update host(a[2:3])
        for (int i = 0; i < 8; i++) printf("%d ", a[i]); /* expect: stale-host-read */
        printf("\n");
    }
    return 0;
}
