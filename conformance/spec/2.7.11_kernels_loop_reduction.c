// §2.7.11 in a kernels construct: a reduction on a kernels loop; the result is in the variable
// after the region.
#include <stdio.h>
int main(void) {
    float v[256];
    for (int i = 0; i < 256; i++) v[i] = 0.5f;
    float s = 1.0f;
#pragma acc kernels loop reduction(+:s) copyin(v)
    for (int i = 0; i < 256; i++) s += v[i];
    printf("s = %.1f\n", s);
    return 0;
}
