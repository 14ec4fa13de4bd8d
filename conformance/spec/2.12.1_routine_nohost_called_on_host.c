// expect-exit: 2
// expect-stderr: error
// §2.12.1.7: "All calls to this procedure must appear within accelerator compute regions."
#include <stdio.h>
#pragma acc routine seq nohost
static int dev_only_square(int x) { return x * x; }
int main(void) {
    printf("%d\n", dev_only_square(3)); /* expect: compile-error */
    return 0;
}
