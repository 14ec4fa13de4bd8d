// expect-exit: 2
// expect-stderr: error
// §2.7.1: "The argument to the collapse clause must be a constant positive integer expression."
#include <stdio.h>
int main(void) {
    int depth = 2;
    int m[3][3];
#pragma acc parallel loop collapse(depth) copyout(m) /* expect: compile-error */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) m[i][j] = i + j;
    printf("%d\n", m[2][2]);
    return 0;
}
