// expect-exit: 2
// expect-stderr: error
// §2.7.4: "The region of a loop with the vector clause may not contain a loop with the gang,
// worker or vector clause unless within a nested parallel or kernels region."
#include <stdio.h>
int main(void) {
    int m[4][4];
#pragma acc parallel copyout(m)
    {
#pragma acc loop gang vector
        for (int i = 0; i < 4; i++) {
#pragma acc loop vector /* expect: compile-error */
            for (int j = 0; j < 4; j++) m[i][j] = j;
        }
    }
    printf("%d\n", m[3][3]);
    return 0;
}
