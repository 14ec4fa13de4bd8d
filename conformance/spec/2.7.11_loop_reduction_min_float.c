// §2.7.11: a min reduction over float values on a gang vector loop, and a max over long.
#include <stdio.h>
int main(void) {
    float f[300];
    long l[300];
    for (int i = 0; i < 300; i++) {
        f[i] = (float)((i * 53) % 300) * 0.5f - 20.0f;
        l[i] = (long)((i * 31) % 300) * 1000000L;
    }
    float lo = 1.0e30f;
    long hi = -1;
#pragma acc parallel loop gang vector copyin(f, l) reduction(min:lo) reduction(max:hi)
    for (int i = 0; i < 300; i++) {
        lo = f[i] < lo ? f[i] : lo;
        hi = l[i] > hi ? l[i] : hi;
    }
    printf("min = %.1f max = %ld\n", lo, hi);
    return 0;
}
