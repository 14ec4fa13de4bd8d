// §2.7.11: reductions at every level: a vector reduction per row, a worker reduction per plane,
// a gang reduction over planes, each loop with its own reduction clause.
#include <stdio.h>
#define P 4
#define R 6
#define C 50
int main(void) {
    static int cube[P][R][C];
    for (int p = 0; p < P; p++)
        for (int r = 0; r < R; r++)
            for (int c = 0; c < C; c++) cube[p][r][c] = p + r + c;
    long total = 0;
#pragma acc parallel num_gangs(2) num_workers(3) vector_length(32) copyin(cube)
    {
#pragma acc loop gang reduction(+:total)
        for (int p = 0; p < P; p++) {
            long plane = 0;
#pragma acc loop worker reduction(+:plane)
            for (int r = 0; r < R; r++) {
                long row = 0;
#pragma acc loop vector reduction(+:row)
                for (int c = 0; c < C; c++) row += cube[p][r][c];
                plane += row;
            }
            total += plane;
        }
    }
    printf("total = %ld\n", total);
    return 0;
}
