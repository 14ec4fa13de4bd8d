// §2.7.3: "In an accelerator kernels region, the worker clause specifies that the iterations of the
// associated loop or loops are to be executed in parallel across the workers within the gangs
// created for any kernel contained within the loop or loops. If an argument with no keyword or an
// argument after the num keyword is specified, it specifies how many workers to use".
#include <stdio.h>
#define R 12
#define C 20
int main(void) {
    static int m[R][C];
#pragma acc kernels copyout(m)
    {
#pragma acc loop gang
        for (int i = 0; i < R; i++) {
#pragma acc loop worker(num:4)
            for (int j = 0; j < C; j++) m[i][j] = i * C + j;
        }
    }
    long s = 0;
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) s += m[i][j];
    printf("m[11][19] = %d, sum = %ld\n", m[11][19], s);
    return 0;
}
