// expect-exit: 2
// expect-stderr: acc_get_device_type
// §3.2.3 restriction: "This routine may not be called within an accelerator parallel or kernels
// region."
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int t[1] = {0};
#pragma acc parallel num_gangs(1) copy(t)
    {
        t[0] = (int)acc_get_device_type(); /* expect: compile-error */
    }
    printf("%d\n", t[0]);
    return 0;
}
