// expect-exit: 2
// expect-stderr: error
// §2.7.1: the collapse argument must be a constant *positive* integer expression.
#include <stdio.h>
int main(void) {
    int a[3];
#pragma acc parallel loop collapse(0) copyout(a) /* expect: compile-error */
    for (int i = 0; i < 3; i++) a[i] = i;
    printf("%d\n", a[2]);
    return 0;
}
