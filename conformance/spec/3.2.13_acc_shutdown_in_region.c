// expect-exit: 2
// expect-stderr: acc_shutdown
// §3.2.13 restriction: "This routine may not be called during execution of an accelerator region."
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[1] = {0};
#pragma acc parallel num_gangs(1) copy(a)
    {
        acc_shutdown(acc_device_not_host); /* expect: compile-error */
        a[0] = 1;
    }
    printf("%d\n", a[0]);
    return 0;
}
