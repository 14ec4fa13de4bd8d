// expect-exit: 2
// expect-stderr: error
// §2.7.2: "The region of a loop with the gang clause may not contain another loop with the gang
// clause unless within a nested parallel or kernels region".
#include <stdio.h>
int main(void) {
    int m[4][4];
#pragma acc parallel copyout(m)
    {
#pragma acc loop gang
        for (int i = 0; i < 4; i++) {
#pragma acc loop gang /* expect: compile-error */
            for (int j = 0; j < 4; j++) m[i][j] = i + j;
        }
    }
    printf("%d\n", m[3][3]);
    return 0;
}
