// expect-exit: 3
// expect-stderr: error
// §2.11.1 restriction: "A variable or array which appears in the var-list of an update directive
// must have a visible device copy."
#include <stdio.h>
int main(void) {
    int a[4] = {0};
#pragma acc update host(a) /* expect: not-present */
    printf("%d\n", a[0]);
    return 0;
}
