// expect-exit: 2
// expect-stderr: acc_get_device_num
// §3.2.5 restriction: "This routine may not be called within an accelerator parallel or kernels
// region."
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int n[1] = {0};
#pragma acc parallel num_gangs(1) copy(n)
    {
        n[0] = acc_get_device_num(acc_device_not_host); /* expect: compile-error */
    }
    printf("%d\n", n[0]);
    return 0;
}
