/* `copyout` copies nothing in: reading the old values on the device reads garbage. */
#include <stdio.h>
int main(void) {
    int c[48];
    for (int i = 0; i < 48; i++) c[i] = 5;
#pragma acc parallel loop copyout(c)
    for (int i = 0; i < 48; i++)
        c[i] = c[i] * 2; /* expect: uninit-device-read */
    printf("c[0] = %d\n", c[0]);
    return 0;
}
