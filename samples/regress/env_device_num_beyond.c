// Issue 12, errors runtimes catch: ACC_DEVICE_NUM beyond the devices of the selected type
// (§4.2: "If the value is greater than the number of devices attached, the behavior is
// implementation-defined"; nvc stops). accsim models one device, number 0.
// accsim-env: ACC_DEVICE_NUM=1
// expect-exit: 3
// check: skip
// (`check` stops the same way, but the error has no source line to mark)
// expect-stderr: error[environment]
// expect-stderr: ACC_DEVICE_NUM=1
#include <stdio.h>
#include <openacc.h>

int main(void) {
    int n = 0;
#pragma acc parallel loop reduction(+:n)
    for (int i = 0; i < 10; i++)
        n += 1;
    printf("n = %d on device %d\n", n, acc_get_device_num(acc_device_not_host));
    return 0;
}
