// §2.7.2: "In an accelerator kernels region, the gang clause specifies that the iterations of the
// associated loop or loops are to be executed in parallel across the gangs created for any kernel
// contained within the loop or loops. If an argument with no keyword or an argument after the num
// keyword is specified, it specifies how many gangs to use". Every iteration runs once.
#include <stdio.h>
#define N 1000
int main(void) {
    static int hits[N];
#pragma acc kernels copy(hits)
    {
#pragma acc loop gang(16)
        for (int i = 0; i < N; i++) hits[i] += 1;
    }
    int once = 1;
    for (int i = 0; i < N; i++) once &= hits[i] == 1;
    printf("each iteration once: %d\n", once);
    return 0;
}
