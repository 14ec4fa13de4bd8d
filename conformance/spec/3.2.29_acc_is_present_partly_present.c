// §3.2.29: "the function returns nonzero if the specified data is fully present, and zero
// otherwise." A range that starts in the mapped part and ends past it is not fully present.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    static double a[64];
#pragma acc data copyin(a[0:32])
    {
        printf("a[0:32]: %d\n", acc_is_present(a, 32 * sizeof(double)) != 0);
        printf("a[16:32]: %d\n", acc_is_present(a + 16, 32 * sizeof(double)) != 0);
    }
    return 0;
}
