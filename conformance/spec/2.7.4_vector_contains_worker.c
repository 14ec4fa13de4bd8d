// expect-exit: 2
// expect-stderr: error
// §2.7.4: a vector loop may not contain a worker loop.
#include <stdio.h>
int main(void) {
    int m[4][4];
#pragma acc parallel copyout(m)
    {
#pragma acc loop vector
        for (int i = 0; i < 4; i++) {
#pragma acc loop worker /* expect: compile-error */
            for (int j = 0; j < 4; j++) m[i][j] = j;
        }
    }
    printf("%d\n", m[3][3]);
    return 0;
}
