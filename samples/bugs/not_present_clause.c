/* `present` asserts the data is on the device; nothing put it there (§2.6.5.6). */
#include <stdio.h>
int main(void) {
    float a[16];
    for (int i = 0; i < 16; i++) a[i] = i;
#pragma acc parallel loop present(a) /* expect: not-present */
    for (int i = 0; i < 16; i++) a[i] += 1.0f;
    printf("a[0] = %.1f\n", a[0]);
    return 0;
}
