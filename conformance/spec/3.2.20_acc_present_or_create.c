// §3.2.20: acc_present_or_create: "If the data is already present on the device ... no action is
// taken"; otherwise memory is allocated (acc_pcreate is its short name).
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[4] = {1, 2, 3, 4}, b[4];
    int r[4];
    acc_copyin(a, sizeof a);
    acc_present_or_create(a, sizeof a);
    acc_pcreate(b, sizeof b);
    printf("b present: %d\n", acc_is_present(b, sizeof b) != 0);
#pragma acc parallel loop present(a, b) copyout(r)
    for (int i = 0; i < 4; i++) { b[i] = a[i] * 2; r[i] = b[i]; }
    acc_delete(a, sizeof a);
    acc_delete(b, sizeof b);
    printf("%d %d %d %d\n", r[0], r[1], r[2], r[3]);
    return 0;
}
