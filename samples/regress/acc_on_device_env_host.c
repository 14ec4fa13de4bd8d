// Issue 12 item 4: with ACC_DEVICE_TYPE=host (§4.1) every compute region runs on the host, so
// `acc_on_device(acc_device_host)` is nonzero inside them too (§3.2.14), in the region's own
// code and in the `routine` it calls; `acc_on_device(acc_device_not_host)` is zero.
// accsim-env: ACC_DEVICE_TYPE=host
#include <stdio.h>
#include <openacc.h>

#pragma acc routine seq
int device_kind(void) {
    return acc_on_device(acc_device_host) ? 1 : acc_on_device(acc_device_not_host) ? 2 : 0;
}

int main(void) {
    int kinds[64];
    printf("device type is host: %d\n", acc_get_device_type() == acc_device_host);
#pragma acc parallel loop copyout(kinds)
    for (int i = 0; i < 64; i++)
        kinds[i] = device_kind() * 10 + (acc_on_device(acc_device_not_host) != 0);
    int on_host = 0;
    for (int i = 0; i < 64; i++)
        on_host += kinds[i] == 10;
    printf("iterations that ran on the host: %d of 64\n", on_host);
    return 0;
}
