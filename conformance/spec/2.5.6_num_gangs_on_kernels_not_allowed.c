// expect-exit: 2
// expect-stderr: error
// §2.5.6: "The num_gangs clause is allowed on the parallel construct" -- not on kernels.
#include <stdio.h>
int main(void) {
    int a[8];
#pragma acc kernels num_gangs(2) copyout(a) /* expect: compile-error */
    for (int i = 0; i < 8; i++) a[i] = i;
    printf("%d\n", a[7]);
    return 0;
}
