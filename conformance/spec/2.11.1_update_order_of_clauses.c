// §2.11.1: "The updates are done in the order in which they appear on the directive." host(a)
// first brings the device's 2s to the host, then device(a) sends those same 2s back; the other
// order would have sent the host's 1s first.
#include <stdio.h>
int main(void) {
    int a[3] = {1, 1, 1};
    int r[3];
#pragma acc data copyin(a)
    {
#pragma acc parallel loop
        for (int i = 0; i < 3; i++) a[i] = 2;
#pragma acc update host(a) device(a)
#pragma acc parallel loop copyout(r)
        for (int i = 0; i < 3; i++) r[i] = a[i];
        printf("host %d %d %d, device %d %d %d\n", a[0], a[1], a[2], r[0], r[1], r[2]);
    }
    return 0;
}
