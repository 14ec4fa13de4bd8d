// expect-exit: 2
// expect-stderr: error
// §2.12.1.1: "a procedure with a routine gang directive may not be called from within a loop that
// has a gang clause."
#include <stdio.h>
#pragma acc routine gang
static void init_all(int *v, int n) {
#pragma acc loop gang
    for (int i = 0; i < n; i++) v[i] = i;
}
int main(void) {
    static int v[4][16];
#pragma acc parallel loop gang copyout(v)
    for (int k = 0; k < 4; k++) init_all(v[k], 16); /* expect: compile-error */
    printf("%d\n", v[3][15]);
    return 0;
}
