// expect-exit: 2
// expect-stderr: error
// §2.10 restriction: "Subarrays are not allowed in declare directives."
#include <stdio.h>
int main(void) {
    int a[10] = {0};
#pragma acc declare create(a[0:5]) /* expect: compile-error */
    printf("%d\n", a[0]);
    return 0;
}
