// expect-exit: 2
// expect-stderr: error
// §2.10.2: "In C or C++, the link clause must appear at global scope, or the arguments must be
// extern variables." A local array cannot be linked.
#include <stdio.h>
int main(void) {
    int local[4] = {0};
#pragma acc declare link(local) /* expect: compile-error */
    printf("%d\n", local[0]);
    return 0;
}
