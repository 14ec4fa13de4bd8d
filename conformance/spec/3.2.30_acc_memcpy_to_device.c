// §3.2.30: "The acc_memcpy_to_device routine copies bytes data from the local address in src to
// the device address in dest. The destination address must be a device address, such as would be
// returned from acc_malloc or acc_deviceptr." Here into the device copy of a mapped array.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[5] = {0, 0, 0, 0, 0};
    int src[5] = {10, 20, 30, 40, 50};
    int r[5];
#pragma acc data copyin(a)
    {
        acc_memcpy_to_device(acc_deviceptr(a), src, sizeof src);
#pragma acc parallel loop copyout(r)
        for (int i = 0; i < 5; i++) r[i] = a[i] + 1;
    }
    printf("%d %d %d, host a[0] = %d\n", r[0], r[2], r[4], a[0]); /* expect: stale-host-read */
    return 0;
}
