// §2.7.1 with §2.6.1: the loop variables of every collapsed loop are associated with the loop
// directive and so private; `j` declared outside keeps its host value.
#include <stdio.h>
int main(void) {
    int i, j = -1;
    int m[3][4];
#pragma acc parallel loop collapse(2) copyout(m)
    for (i = 0; i < 3; i++)
        for (j = 0; j < 4; j++) m[i][j] = i * j; /* expect: lost-write */
    printf("m[2][3] = %d, host j = %d\n", m[2][3], j);
    return 0;
}
