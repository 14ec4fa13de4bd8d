// §3.2.18: "If the data is already present on the device ... no action is taken." The device copy
// keeps the device's values.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[3] = {1, 2, 3};
    int r[3];
#pragma acc data copyin(a)
    {
#pragma acc parallel loop present(a)
        for (int i = 0; i < 3; i++) a[i] = 50 + i;
        acc_present_or_copyin(a, sizeof a);
#pragma acc parallel loop present(a) copyout(r)
        for (int i = 0; i < 3; i++) r[i] = a[i];
    }
    printf("%d %d %d\n", r[0], r[1], r[2]);
    return 0;
}
