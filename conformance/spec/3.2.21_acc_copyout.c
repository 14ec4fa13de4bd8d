// §3.2.21: "A call to this routine copies the data from the accelerator device to the local
// memory, then deallocates the accelerator memory."
#include <stdio.h>
#include <openacc.h>
int main(void) {
    long a[5] = {0, 0, 0, 0, 0};
    acc_copyin(a, sizeof a);
#pragma acc parallel loop present(a)
    for (int i = 0; i < 5; i++) a[i] = 1000L * i;
    acc_copyout(a, sizeof a);
    printf("%ld %ld present: %d\n", a[1], a[4], acc_is_present(a, sizeof a) != 0);
    return 0;
}
