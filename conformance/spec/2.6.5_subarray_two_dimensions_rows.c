// §2.6.5: a subarray of a two-dimensional array: m[1:2] is rows 1 and 2 (contiguous, as the
// restriction requires), with every column.
#include <stdio.h>
int main(void) {
    int m[4][3];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 3; j++) m[i][j] = 10 * i + j;
#pragma acc parallel loop copy(m[1:2][0:3])
    for (int i = 1; i < 3; i++)
        for (int j = 0; j < 3; j++) m[i][j] = -m[i][j];
    for (int i = 0; i < 4; i++) printf("%d %d %d\n", m[i][0], m[i][1], m[i][2]);
    return 0;
}
