// §3.2.29: "If the byte length is zero, the function returns nonzero in C ... if the given address
// is present at all on the device." An element inside a mapped subarray is present; one outside
// it is not.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    static int a[100];
#pragma acc enter data copyin(a[20:30])
    printf("a+25: %d, a+60: %d\n", acc_is_present(a + 25, 0) != 0, acc_is_present(a + 60, 0) != 0);
#pragma acc exit data delete(a[20:30])
    return 0;
}
