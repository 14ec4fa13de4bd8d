// expect-exit: 2
// expect-stderr: error
// §2.5.2: the kernels construct's clauses are if, async, wait, device_type and the data clauses
// (§2.5.2 list); private belongs to parallel (§2.5.9) and loop (§2.7.10).
#include <stdio.h>
int main(void) {
    int t = 0;
    int a[8];
#pragma acc kernels private(t) copyout(a) /* expect: compile-error */
    for (int i = 0; i < 8; i++) { t = i; a[i] = t; }
    printf("%d\n", a[7]);
    return 0;
}
