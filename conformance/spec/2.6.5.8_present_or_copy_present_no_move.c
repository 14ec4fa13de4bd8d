// §2.6.5.8: "If the data is already present, the program behaves as with the present clause. No
// new device memory will be allocated and no data will be moved to or from the device memory."
// Inside `data copyin(a)`, present_or_copy(a) copies nothing back; update host shows the device
// values.
#include <stdio.h>
int main(void) {
    int a[4] = {1, 2, 3, 4};
#pragma acc data copyin(a)
    {
#pragma acc parallel loop present_or_copy(a)
        for (int i = 0; i < 4; i++) a[i] += 100;
        printf("after pcopy region: %d %d\n", a[0], a[3]); /* expect: stale-host-read */
#pragma acc update host(a)
        printf("after update host: %d %d\n", a[0], a[3]);
    }
    return 0;
}
