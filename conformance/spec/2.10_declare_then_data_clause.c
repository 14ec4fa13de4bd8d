// expect-exit: 2
// expect-stderr: error
// §2.10 restriction: "If a variable or array appears in a declare directive, the same variable or
// array may not appear in a data clause for any construct where the declaration of the variable
// is visible."
#include <stdio.h>
int main(void) {
    int a[10] = {0};
#pragma acc declare create(a)
#pragma acc parallel loop copy(a) /* expect: compile-error */
    for (int i = 0; i < 10; i++) a[i] = i;
    printf("%d\n", a[9]);
    return 0;
}
