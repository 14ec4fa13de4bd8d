// §2.11.1.5 and §2.13.1: "The async clause may appear on ... update"; the update "may be
// processed asynchronously while the local thread continues". After `wait(2)` (§2.13.3) the
// host copy holds the device values.
#include <stdio.h>
#define N 32
int main(void) {
    static int a[N];
#pragma acc data create(a)
    {
#pragma acc parallel loop present(a)
        for (int i = 0; i < N; i++) a[i] = 3 * i;
#pragma acc update host(a) async(2)
#pragma acc wait(2)
    }
    printf("a[5] = %d, a[31] = %d\n", a[5], a[31]);
    return 0;
}
