// expect-exit: 2
// expect-stderr: `a`
// §2.5.12: default(none) tells the compiler "to require that all variables or arrays used in the
// compute region that do not have predetermined data attributes to explicitly appear in a data
// clause". `a` appears in none.
#include <stdio.h>
int main(void) {
    int a[8], b[8];
    for (int i = 0; i < 8; i++) a[i] = i;
#pragma acc parallel loop default(none) copyout(b) /* expect: compile-error */
    for (int i = 0; i < 8; i++) b[i] = a[i] + 1;
    printf("%d\n", b[7]);
    return 0;
}
