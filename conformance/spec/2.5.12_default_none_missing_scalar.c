// expect-exit: 2
// expect-stderr: `n`
// §2.5.12: under default(none) a scalar without predetermined attributes must appear in a data
// clause too; the loop bound `n` does not.
#include <stdio.h>
int main(void) {
    int n = 8;
    int b[8];
#pragma acc parallel loop default(none) copyout(b) /* expect: compile-error */
    for (int i = 0; i < n; i++) b[i] = i;
    printf("%d\n", b[7]);
    return 0;
}
