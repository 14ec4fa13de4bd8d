// §2.6.2: "Data created on the accelerator for the data construct has a lifetime of the region
// associated with the construct; it remains live until the program exits the data region."
#include <stdio.h>
#include <openacc.h>
int main(void) {
    float a[32];
    printf("before: %d\n", acc_is_present(a, sizeof a) != 0);
#pragma acc data create(a)
    {
        printf("inside: %d\n", acc_is_present(a, sizeof a) != 0);
    }
    printf("after: %d\n", acc_is_present(a, sizeof a) != 0);
    return 0;
}
