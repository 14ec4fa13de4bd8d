// expect-exit: 2
// expect-stderr: error
// §2.7.1: collapse(2) associates two tightly nested loops; here the loop body is not a loop.
#include <stdio.h>
int main(void) {
    int a[3];
#pragma acc parallel loop collapse(2) copyout(a)
    for (int i = 0; i < 3; i++) a[i] = i; /* expect: compile-error */
    printf("%d\n", a[2]);
    return 0;
}
