// §2.5.7: num_workers sets the workers of each gang; a worker loop (§2.7.3) distributes its
// iterations over them and every iteration runs once.
#include <stdio.h>
int main(void) {
    int hits[64];
    int total = 0;
#pragma acc parallel num_gangs(2) num_workers(4) copyout(hits) reduction(+:total)
    {
#pragma acc loop gang
        for (int g = 0; g < 2; g++) {
#pragma acc loop worker reduction(+:total)
            for (int w = 0; w < 32; w++) {
                hits[g * 32 + w] = g * 32 + w;
                total += 1;
            }
        }
    }
    int ok = 1;
    for (int i = 0; i < 64; i++) ok &= hits[i] == i;
    printf("total = %d, every element once: %d\n", total, ok);
    return 0;
}
