// §2.11.1: "Multiple subarrays of the same array may appear in a var-list of the same or
// different clauses on the same directive."
#include <stdio.h>
int main(void) {
    int a[10];
    for (int i = 0; i < 10; i++) a[i] = 0;
#pragma acc data copyin(a)
    {
#pragma acc parallel loop
        for (int i = 0; i < 10; i++) a[i] = i + 1;
#pragma acc update host(a[0:2], a[8:2])
        for (int i = 0; i < 10; i++) printf("%d ", a[i]); /* expect: stale-host-read */
        printf("\n");
    }
    return 0;
}
