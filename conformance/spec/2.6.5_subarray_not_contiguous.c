// expect-exit: 2
// expect-stderr: error
// §2.6.5 restriction: "Any array or subarray in a data clause ... must be a contiguous block of
// memory." Columns 0..1 of every row of int m[3][4] are not contiguous.
#include <stdio.h>
int main(void) {
    int m[3][4] = {{0}};
#pragma acc parallel loop copy(m[0:3][0:2]) /* expect: compile-error */
    for (int i = 0; i < 3; i++) m[i][0] = 1;
    printf("%d\n", m[2][0]);
    return 0;
}
