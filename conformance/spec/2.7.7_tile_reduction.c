// §2.7.7: tile with a reduction: the tiled nest still visits every (i, j) once.
#include <stdio.h>
int main(void) {
    long s = 0;
#pragma acc parallel loop tile(3, 5) reduction(+:s)
    for (int i = 0; i < 11; i++)
        for (int j = 0; j < 17; j++) s += i * 17 + j;
    printf("s = %ld\n", s);
    return 0;
}
