// expect-exit: 2
// expect-stderr: error
// §2.6.4: the clauses of enter data are if, async, wait, copyin, create, present_or_copyin and
// present_or_create; copyout is an exit data clause.
#include <stdio.h>
int main(void) {
    int a[4] = {0};
#pragma acc enter data copyout(a) /* expect: compile-error */
    printf("%d\n", a[0]);
    return 0;
}
