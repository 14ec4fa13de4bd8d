// expect-exit: 3
// expect-stderr: error
// §2.6.5.7: "It is a runtime error if the subarray in the present clause includes array elements
// that are not part of the subarray specified in the data lifetime."
#include <stdio.h>
int main(void) {
    int a[100] = {0};
#pragma acc data copy(a[0:50])
    {
#pragma acc parallel loop present(a[40:20]) /* expect: partially-present */
        for (int i = 40; i < 60; i++) a[i] = 1;
    }
    printf("%d\n", a[45]);
    return 0;
}
