// §2.6.5.9: "If the data is not present, the program behaves as with the copyin clause": copied
// in, not copied back.
#include <stdio.h>
int main(void) {
    int a[3] = {10, 20, 30};
    int r[3];
#pragma acc parallel loop present_or_copyin(a) copyout(r)
    for (int i = 0; i < 3; i++) { r[i] = a[i] + 1; a[i] = 0; }
    printf("r: %d %d %d  a: %d %d %d\n", r[0], r[1], r[2], a[0], a[1], a[2]); /* expect: stale-host-read */
    return 0;
}
