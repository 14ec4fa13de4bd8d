// §2.6.5.9 on enter data: "If the data is already present, the program behaves as with the
// present clause. No new device memory will be allocated and no data will be moved" -- the
// device copy keeps the device's value, the host's newer value is not copied in.
#include <stdio.h>
int main(void) {
    int a[3] = {1, 2, 3};
    int r[3];
#pragma acc data copyin(a)
    {
        a[0] = 100;
#pragma acc enter data present_or_copyin(a)
#pragma acc parallel loop copyout(r)
        for (int i = 0; i < 3; i++) r[i] = a[i]; /* expect: stale-device-read */
    }
    printf("device saw %d %d %d\n", r[0], r[1], r[2]);
    return 0;
}
