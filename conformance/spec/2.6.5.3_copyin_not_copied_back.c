// §2.6.5.3: copyin "implies that the data need not be copied back from the device memory to the
// local memory, even if those values were changed on the accelerator."
#include <stdio.h>
int main(void) {
    int a[5] = {1, 2, 3, 4, 5};
    int s[5];
#pragma acc parallel loop copyin(a) copyout(s)
    for (int i = 0; i < 5; i++) { a[i] = a[i] * 2; s[i] = a[i]; }
    printf("a: %d %d  s: %d %d\n", a[0], a[4], s[0], s[4]); /* expect: stale-host-read */
    return 0;
}
