// expect-exit: 2
// expect-stderr: error
// §2.5.2 restriction: "Only the if and async clauses may follow a device_type clause." A
// private clause after device_type on a kernels construct is refused.
#include <stdio.h>
int main(void) {
    int a[4] = {1, 2, 3, 4};
    int t = 0;
#pragma acc kernels copy(a) device_type(*) private(t) /* expect: compile-error */
    for (int i = 0; i < 4; i++) a[i] += 1;
    printf("%d %d\n", a[0], t);
    return 0;
}
