// §3.2.2: "The acc_set_device_type routine tells the runtime which type of device to use when
// executing an accelerator parallel or kernels region." With the host type selected, regions run
// on the host: acc_on_device(acc_device_host) is true inside them (§3.2.14).
#include <stdio.h>
#include <openacc.h>
int main(void) {
    acc_set_device_type(acc_device_host);
    int on_host = 0;
#pragma acc parallel num_gangs(1) copy(on_host)
    {
        on_host = acc_on_device(acc_device_host);
    }
    printf("region ran on the host: %d\n", on_host != 0);
    return 0;
}
