// accsim-env: ACC_DEVICE_NUM=0
// §4.2: "The value of this environment variable must be a nonnegative integer between zero and
// the number of devices of the desired type attached to the host. If the value is zero, the
// implementation-defined default is used." The program runs its region on the default device.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int s = 0;
#pragma acc parallel loop reduction(+:s)
    for (int i = 1; i <= 10; i++) s += i;
    printf("sum %d, device num %d\n", s, acc_get_device_num(acc_device_not_host));
    return 0;
}
