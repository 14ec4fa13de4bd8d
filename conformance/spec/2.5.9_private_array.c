// §2.5.9: the private clause on an array gives each gang its own array; the host array is not
// changed.
#include <stdio.h>
int main(void) {
    int work[3] = {7, 7, 7};
    int out[12];
#pragma acc parallel num_gangs(3) private(work) copyout(out)
    {
#pragma acc loop gang
        for (int g = 0; g < 12; g++) {
            for (int k = 0; k < 3; k++) work[k] = g + k;
            out[g] = work[0] + work[1] + work[2];
        }
    }
    printf("out = %d %d %d, host work = %d %d %d\n", out[0], out[5], out[11], work[0], work[1], work[2]);
    return 0;
}
