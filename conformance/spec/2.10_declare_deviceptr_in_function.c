// §2.10: deviceptr in a function's declare directive behaves as a data construct with that
// deviceptr clause around the body (§2.6.5.1): `p` is a device pointer in every region.
#include <stdio.h>
#include <openacc.h>
static void ramp(float *p, int n) {
#pragma acc declare deviceptr(p)
#pragma acc parallel loop
    for (int i = 0; i < n; i++) p[i] = 0.5f * i;
}
int main(void) {
    int n = 20;
    float *d = (float *)acc_malloc(n * sizeof(float));
    ramp(d, n);
    float h[20];
    acc_memcpy_from_device(h, d, n * sizeof(float));
    acc_free(d);
    printf("%.1f %.1f\n", h[1], h[19]);
    return 0;
}
