// §2.6.5.9: present_or_copyin on present data: "no data will be moved" -- the device copy keeps
// the value the device wrote, not the host's.
#include <stdio.h>
int main(void) {
    int a[3] = {10, 20, 30};
    int r[3];
#pragma acc data copyin(a)
    {
#pragma acc parallel loop present(a)
        for (int i = 0; i < 3; i++) a[i] = -1;
#pragma acc parallel loop pcopyin(a) copyout(r)
        for (int i = 0; i < 3; i++) r[i] = a[i];
    }
    printf("%d %d %d\n", r[0], r[1], r[2]);
    return 0;
}
