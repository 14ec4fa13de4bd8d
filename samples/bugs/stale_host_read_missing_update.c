/* Inside a data region the host reads the array the kernel wrote, without `update host`. */
#include <stdio.h>
int main(void) {
    float a[100];
    for (int i = 0; i < 100; i++) a[i] = i;
#pragma acc data copy(a)
    {
#pragma acc parallel loop
        for (int i = 0; i < 100; i++) a[i] = 2.0f * a[i];
        printf("a[7] = %.1f\n", a[7]); /* expect: stale-host-read */
    }
    return 0;
}
