// expect-exit: 2
// expect-stderr: error
// §2.10 restriction: "In C or C++ global scope, only create, copyin, deviceptr, device_resident
// and link clauses are allowed."
#include <stdio.h>
int g[4];
#pragma acc declare copy(g) /* expect: compile-error */
int main(void) {
    printf("%d\n", g[0]);
    return 0;
}
