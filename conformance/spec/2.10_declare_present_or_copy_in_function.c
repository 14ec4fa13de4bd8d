// §2.10: present_or_copy in a function's declare directive: not present on entry, so the local
// array is copied in at the start of the function's implicit data region; `update host` shows
// the device's values before the function returns.
#include <stdio.h>
static int run(void) {
    int w[4] = {1, 2, 3, 4};
#pragma acc declare present_or_copy(w)
#pragma acc parallel loop
    for (int i = 0; i < 4; i++) w[i] = w[i] * w[i];
#pragma acc update host(w)
    return w[0] + w[1] + w[2] + w[3];
}
int main(void) {
    printf("sum of squares = %d\n", run());
    return 0;
}
