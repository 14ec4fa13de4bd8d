// §2.3.1: "acc-device-num-var ... ACC_DEVICE_NUM ... acc_set_device_num ... acc_get_device_num".
// Setting device number 0 of the not-host type and reading it back gives 0 (§3.2.4, §3.2.5).
#include <stdio.h>
#include <openacc.h>
int main(void) {
    acc_set_device_num(0, acc_device_not_host);
    printf("device num: %d\n", acc_get_device_num(acc_device_not_host));
    return 0;
}
