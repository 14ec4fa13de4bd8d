// expect-exit: 2
// expect-stderr: error
// §2.12.1.7: "If this procedure is be called from other procedures, those other procedures must
// also have a matching routine directive with the nohost clause".
#include <stdio.h>
#pragma acc routine seq nohost
static int inner(int x) { return x + 1; }
#pragma acc routine seq
static int outer(int x) { return inner(x) * 2; } /* expect: compile-error */
int main(void) {
    int v[3];
#pragma acc parallel loop copyout(v)
    for (int i = 0; i < 3; i++) v[i] = outer(i);
    printf("%d\n", v[2]);
    return 0;
}
