// §2.11.1: "Only the if, async and wait clauses may follow a device type clause" -- async after
// device_type(*) makes the update asynchronous on queue 1, waited for before the host reads.
#include <stdio.h>
int main(void) {
    int a[5] = {0};
#pragma acc data copyin(a)
    {
#pragma acc parallel loop
        for (int i = 0; i < 5; i++) a[i] = i * 4;
#pragma acc update host(a) device_type(*) async(1)
#pragma acc wait(1)
        printf("%d %d\n", a[1], a[4]);
    }
    return 0;
}
