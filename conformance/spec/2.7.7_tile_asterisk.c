// §2.7.7: "If the tile size is specified with an asterisk, the implementation will choose an
// appropriate value."
#include <stdio.h>
int main(void) {
    int m[6][7];
#pragma acc parallel loop tile(*, *) gang vector copyout(m)
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 7; j++) m[i][j] = 10 * i + j;
    printf("%d %d %d\n", m[0][0], m[3][4], m[5][6]);
    return 0;
}
