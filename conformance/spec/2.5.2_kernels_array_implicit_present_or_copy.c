// §2.5.2: an array referenced in the kernels construct without a data clause is treated as
// present_or_copy: copied in, updated, copied back.
#include <stdio.h>
int main(void) {
    float v[16];
    for (int i = 0; i < 16; i++) v[i] = (float)i;
#pragma acc kernels
    for (int i = 0; i < 16; i++) v[i] = v[i] * 0.5f;
    printf("%.1f %.1f %.1f\n", v[0], v[1], v[15]);
    return 0;
}
