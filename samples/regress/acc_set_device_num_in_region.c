// Issue 12 (async2): §3.2.4 restriction: acc_set_device_num "may not be called within an
// accelerator parallel, kernels or data region" -- the data mapped by the region lives on the
// current device. It was accepted inside a data region (conformance/spec/
// 3.2.4_acc_set_device_num_in_data_region); here from a helper function called in the region.
// expect-exit: 3
// expect-stderr: acc_set_device_num
#include <stdio.h>
#include <openacc.h>

static void choose_device(int rank) {
    int ndev = acc_get_num_devices(acc_device_not_host);
    if (ndev > 0)
        acc_set_device_num(rank % ndev, acc_device_not_host); /* expect: device */
}

int main(void) {
    double x[16];
    for (int i = 0; i < 16; i++)
        x[i] = i;
#pragma acc data copy(x)
    {
        choose_device(1);
    }
    printf("%g\n", x[15]);
    return 0;
}
