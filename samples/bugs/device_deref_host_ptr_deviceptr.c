/* `deviceptr` promises a device address; a host buffer was passed. */
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int n = 16;
    float *h = malloc(n * sizeof *h);
#pragma acc parallel loop deviceptr(h)
    for (int i = 0; i < n; i++)
        h[i] = 1.0f; /* expect: device-deref-host-ptr */
    printf("h[0] = %.1f\n", h[0]);
    free(h);
    return 0;
}
