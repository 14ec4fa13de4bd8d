// expect-exit: 2
// expect-stderr: error
// §2.10 restriction: "C and C++ extern variables may only appear in create, copyin, deviceptr,
// device resident and link clauses on a declare directive."
#include <stdio.h>
int shared_vals[4] = {1, 2, 3, 4};
int main(void) {
    extern int shared_vals[4];
#pragma acc declare copy(shared_vals) /* expect: compile-error */
    printf("%d\n", shared_vals[0]);
    return 0;
}
