// §3.2.29: "the function returns nonzero if the specified data is fully present, and zero
// otherwise ... If the byte length is zero, the function returns nonzero ... if the given address
// is present at all on the device."
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[20];
#pragma acc data create(a[5:10])
    {
        printf("a[5:10]: %d\n", acc_is_present(&a[5], 10 * sizeof(int)) != 0);
        printf("a[6:4]: %d\n", acc_is_present(&a[6], 4 * sizeof(int)) != 0);
        printf("a[0:20] (partly): %d\n", acc_is_present(a, sizeof a) != 0);
        printf("a[14:2] (partly): %d\n", acc_is_present(&a[14], 2 * sizeof(int)) != 0);
        printf("&a[7], length 0: %d\n", acc_is_present(&a[7], 0) != 0);
        printf("&a[2], length 0: %d\n", acc_is_present(&a[2], 0) != 0);
    }
    return 0;
}
