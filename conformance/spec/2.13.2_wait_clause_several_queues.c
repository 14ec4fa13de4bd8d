// §2.13.2: "If there is an argument to the wait clause, it must be one or more scalar integer
// expressions" -- a kernel waits for two producers on queues 1 and 2.
#include <stdio.h>
int main(void) {
    int x[20], y[20], z[20];
#pragma acc data create(x, y) copyout(z)
    {
#pragma acc parallel loop async(1)
        for (int i = 0; i < 20; i++) x[i] = i;
#pragma acc parallel loop async(2)
        for (int i = 0; i < 20; i++) y[i] = 100;
#pragma acc parallel loop wait(1, 2)
        for (int i = 0; i < 20; i++) z[i] = x[i] + y[i];
    }
    printf("%d %d\n", z[0], z[19]);
    return 0;
}
