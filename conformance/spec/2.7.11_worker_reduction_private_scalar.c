// §2.7.11: the same rule for a worker loop: the gang's private copy holds the worker reduction's
// result right after the loop, and each gang computes its own.
#include <stdio.h>
int main(void) {
    int part;
    int rows[3];
#pragma acc parallel num_gangs(3) num_workers(4) private(part) copyout(rows)
    {
#pragma acc loop gang
        for (int g = 0; g < 3; g++) {
            part = 0;
#pragma acc loop worker reduction(+:part)
            for (int j = 0; j < 10; j++) part += g * 10 + j;
            rows[g] = part;
        }
    }
    printf("%d %d %d\n", rows[0], rows[1], rows[2]);
    return 0;
}
