// §2.7.6 with §2.7.9: in a parallel construct a loop is implicitly independent, so an auto loop
// may be parallelised; an independent loop gives the same answer however it is scheduled.
#include <stdio.h>
int main(void) {
    int sq[128];
#pragma acc parallel copyout(sq)
    {
#pragma acc loop auto
        for (int i = 0; i < 128; i++) sq[i] = i * i;
    }
    printf("%d %d\n", sq[3], sq[127]);
    return 0;
}
