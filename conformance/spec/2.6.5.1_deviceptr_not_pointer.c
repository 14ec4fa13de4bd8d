// expect-exit: 2
// expect-stderr: error
// §2.6.5.1: "In C and C++, the variables in var-list must be pointers."
#include <stdio.h>
int main(void) {
    int a[4] = {0};
#pragma acc parallel loop deviceptr(a) /* expect: compile-error */
    for (int i = 0; i < 4; i++) a[i] = i;
    printf("%d\n", a[3]);
    return 0;
}
