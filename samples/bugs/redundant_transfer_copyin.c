/* `b` is only written on the device: copying it in is wasted time (a note, not an error). */
#include <stdio.h>
int main(void) {
    float a[64], b[64];
    for (int i = 0; i < 64; i++) { a[i] = i; b[i] = 0; }
#pragma acc parallel loop copyin(a) copy(b) /* expect: redundant-transfer */
    for (int i = 0; i < 64; i++) b[i] = 2.0f * a[i];
    printf("b[3] = %.1f\n", b[3]);
    return 0;
}
