// §3.2.11 under its OpenACC 2.0 final name acc_wait_all_async(async): queue 9 waits for every
// other queue before its kernel.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int x[8], y[8], z[8];
#pragma acc data create(x, y) copyout(z)
    {
#pragma acc parallel loop async(1)
        for (int i = 0; i < 8; i++) x[i] = i;
#pragma acc parallel loop async(2)
        for (int i = 0; i < 8; i++) y[i] = 2 * i;
        acc_wait_all_async(9);
#pragma acc parallel loop async(9)
        for (int i = 0; i < 8; i++) z[i] = x[i] * y[i];
        acc_wait(9);
    }
    printf("%d %d\n", z[1], z[7]);
    return 0;
}
