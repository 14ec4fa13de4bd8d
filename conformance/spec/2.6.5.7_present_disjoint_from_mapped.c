// expect-exit: 3
// expect-stderr: error
// §2.6.5.7: a present clause naming a subarray no data lifetime covers is a runtime error.
#include <stdio.h>
int main(void) {
    int a[100] = {0};
#pragma acc data copyin(a[0:10])
    {
#pragma acc parallel loop present(a[50:10]) /* expect: not-present */
        for (int i = 50; i < 60; i++) a[i] = 1;
    }
    printf("%d\n", a[55]);
    return 0;
}
