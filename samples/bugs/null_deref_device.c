/* A null device pointer dereferenced in device code. */
#include <stdio.h>
int main(void) {
    float *d = 0;
#pragma acc parallel loop deviceptr(d)
    for (int i = 0; i < 4; i++)
        d[i] = 1.0f; /* expect: null-deref */
    printf("done\n");
    return 0;
}
