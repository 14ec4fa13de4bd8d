// §3.2.14: "If the argument is acc_device_host, then outside of an accelerator parallel or kernels
// region ... this routine will evaluate to nonzero ... otherwise, it will evaluate to zero".
#include <stdio.h>
#include <openacc.h>
int main(void) {
    printf("host: %d\n", acc_on_device(acc_device_host) != 0);
    printf("not_host: %d\n", acc_on_device(acc_device_not_host) != 0);
    return 0;
}
