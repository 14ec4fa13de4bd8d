// expect-exit: 2
// expect-stderr: error
// §2.12.1.1-§2.12.1.4: "Only one of gang, worker, vector and seq may be specified."
#include <stdio.h>
#pragma acc routine worker seq /* expect: compile-error */
static int twice(int x) { return 2 * x; }
int main(void) {
    int r = 0;
#pragma acc parallel num_gangs(1) copy(r)
    r = twice(21);
    printf("%d\n", r);
    return 0;
}
