// §3.2.23: the arguments are "a pointer to the data and length in bytes" -- only that part is
// copied.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[6] = {0, 0, 0, 0, 0, 0}, r[6];
    acc_copyin(a, sizeof a);
    for (int i = 0; i < 6; i++) a[i] = 9;
    acc_update_device(&a[2], 2 * sizeof(int));
#pragma acc parallel loop present(a) copyout(r)
    for (int i = 0; i < 6; i++) r[i] = a[i]; /* expect: stale-device-read */
    acc_delete(a, sizeof a);
    printf("%d %d %d %d %d %d\n", r[0], r[1], r[2], r[3], r[4], r[5]);
    return 0;
}
