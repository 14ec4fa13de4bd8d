// expect-exit: 3
// expect-stderr: not-present
// §2.6.6.1: "The variables or arrays in var-list must be present in the accelerator memory due to
// data regions that contain this construct." Naming an array that no data region maps is an
// error at run time.
#include <stdio.h>
int main(void) {
    static int a[8];
    int *p = 0;
#pragma acc host_data use_device(a) /* expect: not-present */
    {
        p = a;
    }
    printf("%p\n", (void *)p);
    return 0;
}
