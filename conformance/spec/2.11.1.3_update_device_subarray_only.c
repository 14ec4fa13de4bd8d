// §2.11.1.3: "The device clause specifies that the variables, arrays or subarrays in the var-list
// are to be copied from the local memory to the accelerator device memory". Only a[1:2] goes to
// the device; the kernel sees the old device values elsewhere.
#include <stdio.h>
int main(void) {
    int a[4] = {1, 2, 3, 4};
    int b[4];
#pragma acc data copyin(a) copyout(b)
    {
        for (int i = 0; i < 4; i++) a[i] = 100 * (i + 1);
#pragma acc update device(a[1:2])
#pragma acc parallel loop present(a, b)
        for (int i = 0; i < 4; i++) b[i] = a[i]; /* expect: stale-device-read */
    }
    printf("%d %d %d %d\n", b[0], b[1], b[2], b[3]);
    return 0;
}
