// expect-exit: 2
// expect-stderr: error
// §2.12.1: "The routine directive with a name ... must appear before any definition or use of
// that function." Here a compute region calls the function before the directive.
#include <stdio.h>
int twice(int x);
static void fill(int *v) {
#pragma acc parallel loop copyout(v[0:4])
    for (int i = 0; i < 4; i++) v[i] = twice(i);
}
#pragma acc routine(twice) seq /* expect: compile-error */
int main(void) {
    int v[4];
    fill(v);
    printf("%d\n", v[3]);
    return 0;
}
int twice(int x) { return 2 * x; }
