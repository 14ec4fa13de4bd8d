// §3.2.23: "On a non-shared memory device, the data in the local memory is copied to the
// corresponding device memory."
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[4] = {1, 1, 1, 1}, r[4];
    acc_copyin(a, sizeof a);
    for (int i = 0; i < 4; i++) a[i] = 20 + i;
    acc_update_device(a, sizeof a);
#pragma acc parallel loop present(a) copyout(r)
    for (int i = 0; i < 4; i++) r[i] = a[i];
    acc_delete(a, sizeof a);
    printf("%d %d %d %d\n", r[0], r[1], r[2], r[3]);
    return 0;
}
