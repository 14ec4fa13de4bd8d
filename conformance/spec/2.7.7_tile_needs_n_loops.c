// expect-exit: 2
// expect-stderr: error
// §2.7.7: "If there are n tile sizes in the list, the loop directive must be immediately followed
// by n tightly-nested loops."
#include <stdio.h>
int main(void) {
    int a[8];
#pragma acc parallel loop tile(2, 2) copyout(a)
    for (int i = 0; i < 8; i++) a[i] = i; /* expect: compile-error */
    printf("%d\n", a[7]);
    return 0;
}
