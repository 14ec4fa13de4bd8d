/* `update` of data that is not on the device (§2.10.1). */
#include <stdio.h>
int main(void) {
    int v[8] = {1, 2, 3, 4, 5, 6, 7, 8};
#pragma acc update device(v) /* expect: not-present */
    printf("v[0] = %d\n", v[0]);
    return 0;
}
