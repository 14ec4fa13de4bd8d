// §2.7.1: "If more than one loop is associated with the loop construct, the iterations of all the
// associated loops are all scheduled according to the rest of the clauses." collapse(2) over a
// 7x9 nest: every (i, j) pair runs exactly once.
#include <stdio.h>
int main(void) {
    int m[7][9];
#pragma acc parallel loop collapse(2) gang vector copyout(m)
    for (int i = 0; i < 7; i++)
        for (int j = 0; j < 9; j++) m[i][j] = 100 * i + j;
    long s = 0;
    for (int i = 0; i < 7; i++)
        for (int j = 0; j < 9; j++) s += m[i][j];
    printf("m[0][0] = %d, m[6][8] = %d, sum = %ld\n", m[0][0], m[6][8], s);
    return 0;
}
