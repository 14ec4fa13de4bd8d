// expect-exit: 2
// expect-stderr: error
// §2.9: a kernels loop takes the clauses of kernels and of loop; num_gangs is a parallel clause
// (§2.5.6), not one of them.
#include <stdio.h>
int main(void) {
    int a[8];
#pragma acc kernels loop num_gangs(4) copyout(a) /* expect: compile-error */
    for (int i = 0; i < 8; i++) a[i] = i;
    printf("%d\n", a[7]);
    return 0;
}
