// §2.6.3.1: "When the condition in the if clause evaluates to zero in C or C++ ... no device
// memory will be allocated, and no data will be moved." Inside a data construct whose if is
// false, the array is not present (§3.2.29).
#include <stdio.h>
#include <openacc.h>
int main(void) {
    double a[8] = {0};
    int big = 0;
#pragma acc data copy(a) if(big)
    {
        printf("present with if(0): %d\n", acc_is_present(a, sizeof a) != 0);
    }
#pragma acc data copy(a) if(!big)
    {
        printf("present with if(1): %d\n", acc_is_present(a, sizeof a) != 0);
    }
    return 0;
}
