// §3.2.31: "The acc_memcpy_from_device routine copies bytes data from the device address in src to
// the local address in dest." Copying from the device copy of an array into another host array.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[4] = {0};
    int snap[4];
#pragma acc data create(a)
    {
#pragma acc parallel loop
        for (int i = 0; i < 4; i++) a[i] = 100 - i;
        acc_memcpy_from_device(snap, acc_deviceptr(a), sizeof snap);
    }
    printf("%d %d %d %d\n", snap[0], snap[1], snap[2], snap[3]);
    return 0;
}
