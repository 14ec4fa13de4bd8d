// §2.11.1.3: "The device clause specifies that the variables, arrays or subarrays in the var-list
// are to be copied from the local memory to the accelerator device memory". The host changes
// `a` inside the data region; the kernel after update device sees the new values.
#include <stdio.h>
int main(void) {
    int a[4] = {1, 1, 1, 1};
    int r[4];
#pragma acc data copyin(a) copyout(r)
    {
        for (int i = 0; i < 4; i++) a[i] = 10 + i;
#pragma acc update device(a)
#pragma acc parallel loop
        for (int i = 0; i < 4; i++) r[i] = a[i] * 2;
    }
    printf("%d %d %d %d\n", r[0], r[1], r[2], r[3]);
    return 0;
}
