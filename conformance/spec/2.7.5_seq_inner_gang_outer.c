// §2.7.5: a seq loop inside a gang loop: each row's running sum is computed sequentially by the
// gang that owns the row.
#include <stdio.h>
int main(void) {
    int m[5][8];
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 8; j++) m[i][j] = i + 1;
#pragma acc parallel loop gang copy(m)
    for (int i = 0; i < 5; i++) {
#pragma acc loop seq
        for (int j = 1; j < 8; j++) m[i][j] += m[i][j - 1];
    }
    printf("%d %d %d\n", m[0][7], m[2][3], m[4][7]);
    return 0;
}
