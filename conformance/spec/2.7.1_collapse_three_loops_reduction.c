// §2.7.1: collapse(3) with a reduction over the linearised iteration space of 4x5x6.
#include <stdio.h>
int main(void) {
    long count = 0, weighted = 0;
#pragma acc parallel loop collapse(3) reduction(+:count, weighted)
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 5; j++)
            for (int k = 0; k < 6; k++) {
                count += 1;
                weighted += i * 100 + j * 10 + k;
            }
    printf("count = %ld, weighted = %ld\n", count, weighted);
    return 0;
}
