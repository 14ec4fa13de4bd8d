// expect-exit: 2
// expect-stderr: error
// §2.7.3: "The region of a loop with the worker clause may not contain a loop with the gang or
// worker clause unless within a nested parallel or kernels region."
#include <stdio.h>
int main(void) {
    int m[4][4];
#pragma acc parallel copyout(m)
    {
#pragma acc loop worker
        for (int i = 0; i < 4; i++) {
#pragma acc loop gang /* expect: compile-error */
            for (int j = 0; j < 4; j++) m[i][j] = i;
        }
    }
    printf("%d\n", m[3][3]);
    return 0;
}
