// expect-exit: 2
// expect-stderr: error
// §2.12.1: "The routine directive with a name ... must appear before any definition or use of
// that function." Here it follows the definition.
#include <stdio.h>
static int twice(int x) { return 2 * x; }
#pragma acc routine(twice) seq /* expect: compile-error */
int main(void) {
    int v[4];
#pragma acc parallel loop copyout(v)
    for (int i = 0; i < 4; i++) v[i] = twice(i);
    printf("%d\n", v[3]);
    return 0;
}
