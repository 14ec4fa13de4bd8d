// expect-exit: 3
// expect-stderr: error
// §2.6.6.1: "The variables or arrays in var-list must be present in the accelerator memory due to
// data regions that contain this construct."
#include <stdio.h>
int main(void) {
    int a[4] = {0};
    void *p = NULL;
#pragma acc host_data use_device(a) /* expect: not-present */
    {
        p = a;
    }
    printf("%d\n", p != NULL);
    return 0;
}
