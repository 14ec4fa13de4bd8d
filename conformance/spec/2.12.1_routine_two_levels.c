// expect-exit: 2
// expect-stderr: error
// §2.12.1.1: "Only one of gang, worker, vector and seq may be specified."
#include <stdio.h>
#pragma acc routine worker vector /* expect: compile-error */
static int twice(int x) { return 2 * x; }
int main(void) {
    int v[4];
#pragma acc parallel loop copyout(v)
    for (int i = 0; i < 4; i++) v[i] = twice(i);
    printf("%d\n", v[3]);
    return 0;
}
