// §2.6.5.6: "The delete clause is used on exit data directives to deallocate ... without copying
// values back to local memory." The device's changes never reach the host.
#include <stdio.h>
int main(void) {
    int a[4] = {5, 6, 7, 8};
#pragma acc enter data copyin(a)
#pragma acc parallel loop present(a)
    for (int i = 0; i < 4; i++) a[i] = 0;
#pragma acc exit data delete(a)
    printf("%d %d %d %d\n", a[0], a[1], a[2], a[3]); /* expect: stale-host-read */
    return 0;
}
