// expect-exit: 3
// expect-stderr: error
// §2.6.5.8: "The restrictions regarding subarrays in the present clause apply to this clause" --
// a[0:60] is partly inside the present a[0:30]: a runtime error (§2.6.5.7).
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int *a = calloc(60, sizeof(int));
#pragma acc data copyin(a[0:30])
    {
#pragma acc parallel loop present_or_copy(a[0:60]) /* expect: partially-present */
        for (int i = 0; i < 60; i++) a[i] = i;
    }
    printf("%d\n", a[5]);
    free(a);
    return 0;
}
