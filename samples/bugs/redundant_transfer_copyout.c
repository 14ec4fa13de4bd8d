/* `a` is only read on the device: copying it back is wasted time (a note, not an error). */
#include <stdio.h>
int main(void) {
    float a[64], b[64];
    for (int i = 0; i < 64; i++) a[i] = i;
#pragma acc data copy(a) copyout(b) /* expect: redundant-transfer */
    {
#pragma acc parallel loop
        for (int i = 0; i < 64; i++) b[i] = a[i] + 1.0f;
    }
    printf("b[3] = %.1f\n", b[3]);
    return 0;
}
