// expect-exit: 2
// expect-stderr: acc_set_device_type
// §3.2.2 restriction: "This routine may not be called within a accelerator parallel or kernels
// region."
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[2] = {0, 0};
#pragma acc parallel num_gangs(1) copy(a)
    {
        acc_set_device_type(acc_device_host); /* expect: compile-error */
        a[0] = 1;
    }
    printf("%d\n", a[0]);
    return 0;
}
