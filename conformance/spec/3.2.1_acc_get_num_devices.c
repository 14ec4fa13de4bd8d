// §3.2.1: "The acc_get_num_devices routine returns the number of accelerator devices of the given
// type attached to the host." The program runs its regions on an accelerator, so there is at
// least one non-host device.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int n = acc_get_num_devices(acc_device_not_host);
    printf("at least one accelerator: %d\n", n >= 1);
    return 0;
}
