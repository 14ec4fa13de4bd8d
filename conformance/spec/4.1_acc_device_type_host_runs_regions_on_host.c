// accsim-env: ACC_DEVICE_TYPE=host
// §4.1: "The ACC_DEVICE_TYPE environment variable controls the default device type to use when
// executing accelerator parallel and kernels regions". With the host type, the region runs on
// the host (acc_on_device(acc_device_host) is true there, §3.2.14).
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int on_host = 0;
#pragma acc parallel num_gangs(1) copy(on_host)
    on_host = acc_on_device(acc_device_host);
    printf("region on host: %d\n", on_host != 0);
    return 0;
}
