// §2.7.10: a private scalar on a worker loop inside a gang loop: each iteration has its own `acc`.
#include <stdio.h>
int main(void) {
    int m[4][25];
    int acc;
#pragma acc parallel num_gangs(2) num_workers(4) copyout(m)
    {
#pragma acc loop gang
        for (int i = 0; i < 4; i++) {
#pragma acc loop worker private(acc)
            for (int j = 0; j < 25; j++) {
                acc = i * 1000;
                acc += j;
                m[i][j] = acc;
            }
        }
    }
    printf("%d %d\n", m[1][24], m[3][0]);
    return 0;
}
