/* Only p[0:10] is on the device; the kernel reads past the mapped subarray. */
#include <stdio.h>
int main(void) {
    float a[20], b[10];
    float *p = a;
    for (int i = 0; i < 20; i++) a[i] = i;
#pragma acc parallel loop copyin(p[0:10]) copyout(b)
    for (int i = 0; i < 10; i++)
        b[i] = p[i + 10]; /* expect: out-of-bounds */
    printf("b[0] = %.1f\n", b[0]);
    return 0;
}
