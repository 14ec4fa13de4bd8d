// expect-exit: 2
// expect-stderr: error
// §2.5.2: reduction is a clause of parallel (§2.5.11) and loop (§2.7.11), not of the kernels
// construct.
#include <stdio.h>
int main(void) {
    int s = 0;
#pragma acc kernels reduction(+:s) /* expect: compile-error */
    {
        s += 1;
    }
    printf("%d\n", s);
    return 0;
}
