/* The host changes the data inside the data region; the kernel reads the old device copy. */
#include <stdio.h>
int main(void) {
    float a[64], b[64];
    for (int i = 0; i < 64; i++) a[i] = 1.0f;
#pragma acc data copyin(a) copyout(b)
    {
        for (int i = 0; i < 64; i++) a[i] = 2.0f;
#pragma acc parallel loop
        for (int i = 0; i < 64; i++)
            b[i] = a[i] * 10.0f; /* expect: stale-device-read */
    }
    printf("b[0] = %.1f\n", b[0]);
    return 0;
}
