// §2.7.3: "the worker clause specifies that the iterations of the associated loop or loops are to
// be executed in parallel by distributing the iterations among the multiple workers within a
// single gang." Rows over gangs, columns over workers.
#include <stdio.h>
#define R 12
#define C 20
int main(void) {
    static int m[R][C];
#pragma acc parallel num_gangs(3) num_workers(4) copyout(m)
    {
#pragma acc loop gang
        for (int i = 0; i < R; i++) {
#pragma acc loop worker
            for (int j = 0; j < C; j++) m[i][j] = i * C + j;
        }
    }
    int ok = 1;
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) ok &= m[i][j] == i * C + j;
    printf("all set: %d, m[11][19] = %d\n", ok, m[R - 1][C - 1]);
    return 0;
}
