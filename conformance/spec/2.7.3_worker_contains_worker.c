// expect-exit: 2
// expect-stderr: error
// §2.7.3: a worker loop may not contain another worker loop.
#include <stdio.h>
int main(void) {
    int m[4][4];
#pragma acc parallel copyout(m)
    {
#pragma acc loop gang worker
        for (int i = 0; i < 4; i++) {
#pragma acc loop worker /* expect: compile-error */
            for (int j = 0; j < 4; j++) m[i][j] = j;
        }
    }
    printf("%d\n", m[3][3]);
    return 0;
}
