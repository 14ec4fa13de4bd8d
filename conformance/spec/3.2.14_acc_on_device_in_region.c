// §3.2.14: "The acc_on_device routine may be used to execute different paths depending on whether
// the code is running on the host or on some accelerator." In a region run on the accelerator,
// acc_device_host gives zero and acc_device_not_host nonzero.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int r[2] = {-1, -1};
#pragma acc parallel num_gangs(1) copy(r)
    {
        r[0] = acc_on_device(acc_device_host) != 0;
        r[1] = acc_on_device(acc_device_not_host) != 0;
    }
    printf("host: %d not_host: %d\n", r[0], r[1]);
    return 0;
}
