// §3.2.16: "The acc_free routine will free previously allocated memory on the accelerator device;
// the argument should be a pointer value that was returned by a call to acc_malloc." Memory is
// allocated, used through deviceptr, copied back, then freed.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int n = 16;
    int *d = (int *)acc_malloc(n * sizeof(int));
#pragma acc parallel loop deviceptr(d)
    for (int i = 0; i < n; i++) d[i] = i + 100;
    int h[16];
    acc_memcpy_from_device(h, d, n * sizeof(int));
    acc_free(d);
    printf("%d %d\n", h[0], h[15]);
    return 0;
}
