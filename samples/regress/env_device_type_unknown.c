// Issue 12, errors runtimes catch: an ACC_DEVICE_TYPE that names no device type (§4.1: the
// values are implementation-defined). It stops the program before it runs, as nvc and libgomp
// do, instead of silently using the default device.
// accsim-env: ACC_DEVICE_TYPE=gpu
// expect-exit: 3
// check: skip
// (`check` stops the same way, but the error has no source line to mark)
// expect-stderr: error[environment]
// expect-stderr: ACC_DEVICE_TYPE="gpu"
#include <stdio.h>
#include <openacc.h>

int main(void) {
    int n = 0;
#pragma acc parallel loop reduction(+:n)
    for (int i = 0; i < 10; i++)
        n += 1;
    printf("n = %d on %s\n", n, acc_get_device_type() == acc_device_host ? "the host" : "the device");
    return 0;
}
