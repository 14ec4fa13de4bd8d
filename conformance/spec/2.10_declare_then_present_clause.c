// expect-exit: 2
// expect-stderr: error
// §2.10 restriction: "If a variable or array appears in a declare directive, the same variable or
// array may not appear in a data clause for any construct where the declaration of the variable
// is visible." `present` is one of the data clauses (§2.6.5.6) and the restriction makes no
// exception for it: the declare directive already gives the region its device copy.
#include <stdio.h>
static void fill(int *out) {
    int a[10] = {0};
#pragma acc declare create(a)
#pragma acc parallel loop present(a) copyout(out[0:10]) /* expect: compile-error */
    for (int i = 0; i < 10; i++) { a[i] = i; out[i] = 2 * a[i]; }
}
int main(void) {
    int out[10];
    fill(out);
    printf("%d\n", out[9]);
    return 0;
}
