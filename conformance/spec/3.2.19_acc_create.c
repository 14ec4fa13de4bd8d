// §3.2.19: acc_create "is equivalent to the enter data directive with a create clause": device
// memory, no copy; acc_copyout then brings the device's values back.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[6] = {-1, -1, -1, -1, -1, -1};
    void *d = acc_create(a, sizeof a);
    printf("returned the device copy: %d\n", d != NULL && d == acc_deviceptr(a));
#pragma acc parallel loop present(a)
    for (int i = 0; i < 6; i++) a[i] = i * 11;
    acc_copyout(a, sizeof a);
    printf("%d %d %d\n", a[0], a[1], a[5]);
    return 0;
}
