// §2.5.4: "The async clause is optional; see section 2.13". §2.13.1: "When there is an async
// clause, the parallel or kernels region ... may be processed asynchronously while the local
// thread continues"; the wait directive (§2.13.3) then makes the results available to the host.
#include <stdio.h>
#define N 64
int main(void) {
    static float x[N];
#pragma acc data copyout(x)
    {
#pragma acc parallel loop async(1)
        for (int i = 0; i < N; i++) x[i] = 0.5f * i;
#pragma acc wait(1)
    }
    printf("x[10] = %.1f, x[63] = %.1f\n", x[10], x[63]);
    return 0;
}
