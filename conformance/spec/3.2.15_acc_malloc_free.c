// §3.2.15/§3.2.16: acc_malloc "may be used to allocate memory on the accelerator device";
// acc_free "will free previously allocated memory on the accelerator device". The memory is used
// through deviceptr, filled and read back with acc_memcpy_* (§3.2.30, §3.2.31).
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int n = 10;
    float *d = (float *)acc_malloc(n * sizeof(float));
    printf("allocated: %d\n", d != NULL);
    float h[10];
    for (int i = 0; i < n; i++) h[i] = i;
    acc_memcpy_to_device(d, h, n * sizeof(float));
#pragma acc parallel loop deviceptr(d)
    for (int i = 0; i < n; i++) d[i] = d[i] * d[i];
    acc_memcpy_from_device(h, d, n * sizeof(float));
    acc_free(d);
    printf("%.1f %.1f\n", h[3], h[9]);
    return 0;
}
