// expect-exit: 2
// expect-stderr: error
// §2.6.4: the clauses of exit data are if, async, wait, copyout and delete; copyin is not one.
#include <stdio.h>
int main(void) {
    int a[4] = {0};
#pragma acc enter data create(a)
#pragma acc exit data copyin(a) /* expect: compile-error */
    printf("%d\n", a[0]);
    return 0;
}
