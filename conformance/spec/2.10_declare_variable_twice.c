// expect-exit: 2
// expect-stderr: error
// §2.10 restriction: "A variable or array may appear at most once in all the clauses of declare
// directives for a function".
#include <stdio.h>
int main(void) {
    int a[10] = {0};
#pragma acc declare create(a)
#pragma acc declare copyin(a) /* expect: compile-error */
    printf("%d\n", a[0]);
    return 0;
}
