/* `create` allocates the device copy without the host values; the kernel reads it. */
#include <stdio.h>
int main(void) {
    float a[32], b[32];
    for (int i = 0; i < 32; i++) a[i] = i;
#pragma acc data create(a) copyout(b)
    {
#pragma acc parallel loop
        for (int i = 0; i < 32; i++)
            b[i] = a[i] + 1.0f; /* expect: uninit-device-read */
    }
    printf("b[4] = %.1f\n", b[4]);
    return 0;
}
