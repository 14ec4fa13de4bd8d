// §2.6.5.1: "The deviceptr clause is used to declare that the pointers in the var-list are device
// pointers, so the data need not be allocated or moved". With §3.2.15 acc_malloc and §3.2.31
// acc_memcpy_from_device.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int n = 50;
    int *d = (int *)acc_malloc(n * sizeof(int));
#pragma acc parallel loop deviceptr(d)
    for (int i = 0; i < n; i++) d[i] = 3 * i;
    int h[50];
    acc_memcpy_from_device(h, d, n * sizeof(int));
    printf("%d %d %d\n", h[0], h[1], h[49]);
    acc_free(d);
    return 0;
}
