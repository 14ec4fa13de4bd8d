/* A function called in a compute region without a `routine` directive (check warns: no device
   version of it would be compiled, §2.12.1) reads a global table that has no device copy (no
   `declare`, §2.12.2): device code touches host memory. With `#pragma acc routine` on `weigh`
   the same mistake is a compile-time error (§2.12.2). */
#include <stdio.h>
float weights[4] = {0.5f, 1.0f, 1.5f, 2.0f};
float weigh(int i, float x) {
    return x * weights[i % 4]; /* expect: device-deref-host-ptr */
}
int main(void) {
    float a[32];
    for (int i = 0; i < 32; i++) a[i] = i;
#pragma acc parallel loop copy(a)
    for (int i = 0; i < 32; i++)
        a[i] = weigh(i, a[i]); /* expect: missing-routine */
    printf("a[3] = %.1f\n", a[3]);
    return 0;
}
