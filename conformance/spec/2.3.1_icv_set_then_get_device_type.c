// §2.3.1: acc-device-type-var is modified by acc_set_device_type and retrieved by
// acc_get_device_type (§3.2.2, §3.2.3): setting the host type is read back.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    acc_set_device_type(acc_device_host);
    printf("host selected: %d\n", acc_get_device_type() == acc_device_host);
    acc_set_device_type(acc_device_not_host);
    printf("host still selected: %d\n", acc_get_device_type() == acc_device_host);
    printf("none: %d\n", acc_get_device_type() == acc_device_none);
    return 0;
}
