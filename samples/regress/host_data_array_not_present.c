// Issue 12 item 3: `host_data use_device(a)` on an array that no data clause mapped: the array
// has no device copy, which §2.8 requires; reported at the clause (not by reading the array's
// first bytes as a pointer).
// expect-exit: 3
// expect-stderr: `use_device(a)`: the array `a` is not present on the device
// check: skip
#include <stdio.h>

int main(void)
{
    double a[16] = {0};
#pragma acc host_data use_device(a)
    {
        printf("%p\n", (void *)a);
    }
    return 0;
}
