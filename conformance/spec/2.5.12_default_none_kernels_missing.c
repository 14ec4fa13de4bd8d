// expect-exit: 2
// expect-stderr: `x`
// §2.5.12 on a kernels construct: `x` has no data clause.
#include <stdio.h>
int main(void) {
    double x[4] = {1, 2, 3, 4}, y[4];
#pragma acc kernels default(none) copyout(y) /* expect: compile-error */
    for (int i = 0; i < 4; i++) y[i] = 2 * x[i];
    printf("%.1f\n", y[3]);
    return 0;
}
