// expect-exit: 3
// expect-stderr: acc_set_device_num
// §3.2.4 restriction: "This routine may not be called within an accelerator parallel, kernels or
// data region."
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[4] = {0};
#pragma acc data copy(a)
    {
        acc_set_device_num(0, acc_device_not_host); /* expect: device */
    }
    printf("%d\n", a[0]);
    return 0;
}
