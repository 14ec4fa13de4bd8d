// §2.6.3.1: "When the condition in the if clause evaluates to zero in C or C++ ... no device
// memory will be allocated, and no data will be moved."
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[8];
    int want = 0;
#pragma acc data copyin(a) if(want)
    {
        printf("present with if(0): %d\n", acc_is_present(a, sizeof a) != 0);
    }
    want = 1;
#pragma acc data copyin(a) if(want)
    {
        printf("present with if(1): %d\n", acc_is_present(a, sizeof a) != 0);
    }
    return 0;
}
