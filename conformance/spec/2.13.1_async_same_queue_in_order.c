// §2.13.1: "Two asynchronous operations with the async-value will be enqueued onto the same
// activity queue, and therefore will be executed on the device in the order they are encountered
// by the host process." A kernel, a second kernel that uses its result, then update host, all on
// queue 4.
#include <stdio.h>
int main(void) {
    float x[64];
    for (int i = 0; i < 64; i++) x[i] = 1.0f;
#pragma acc data copyin(x)
    {
#pragma acc parallel loop async(4)
        for (int i = 0; i < 64; i++) x[i] = x[i] + i;
#pragma acc parallel loop async(4)
        for (int i = 0; i < 64; i++) x[i] = x[i] * 2.0f;
#pragma acc update host(x) async(4)
#pragma acc wait(4)
        printf("%.1f %.1f\n", x[0], x[63]);
    }
    return 0;
}
