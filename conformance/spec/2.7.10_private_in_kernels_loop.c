// §2.7.10 in a kernels construct: `t` is private to each iteration of the loop; the kernels
// construct's implicit copy of `t` (§2.5.2) carries back the device copy, which the loop never
// wrote, so the host keeps 5.
#include <stdio.h>
int main(void) {
    int t = 5;
    int b[16];
#pragma acc kernels copyout(b)
    {
#pragma acc loop independent private(t)
        for (int i = 0; i < 16; i++) {
            t = i * i;
            b[i] = t - i;
        }
    }
    printf("b[15] = %d, t = %d\n", b[15], t);
    return 0;
}
