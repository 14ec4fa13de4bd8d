// §3.2.3: acc_get_device_type "returns a value to tell the program what type of device will be
// used to run the next accelerator parallel or kernels region" -- the type the program selected
// with acc_set_device_type; acc_device_default "will never be returned by any function" (§3.1).
#include <stdio.h>
#include <openacc.h>
int main(void) {
    printf("never default: %d\n", acc_get_device_type() != acc_device_default);
    acc_set_device_type(acc_device_not_host);
    acc_device_t t = acc_get_device_type();
    printf("not host: %d, not default: %d\n", t != acc_device_host, t != acc_device_default);
    acc_set_device_type(acc_device_host);
    printf("host: %d\n", acc_get_device_type() == acc_device_host);
    return 0;
}
