// §3.2.11: "The routine will enqueue a wait operation on the appropriate device queue for each
// other device queue": queue 3 waits for queues 1 and 2 before its kernel runs.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int x[16], y[16], z[16];
#pragma acc data create(x, y) copyout(z)
    {
#pragma acc parallel loop async(1)
        for (int i = 0; i < 16; i++) x[i] = i;
#pragma acc parallel loop async(2)
        for (int i = 0; i < 16; i++) y[i] = 10 * i;
        acc_async_wait_all(3);
#pragma acc parallel loop async(3)
        for (int i = 0; i < 16; i++) z[i] = x[i] + y[i];
        acc_wait(3);
    }
    printf("%d %d\n", z[1], z[15]);
    return 0;
}
