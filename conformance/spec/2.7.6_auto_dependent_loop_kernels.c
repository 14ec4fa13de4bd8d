// §2.7.6: auto "by itself does not tell the implementation that the loop iterations are data
// independent, and the implementation cannot apply any parallelism unless ... [it] can analyze
// the loop and determine that the loop iterations are data independent." A recurrence stays
// sequential, so its result is exact.
#include <stdio.h>
int main(void) {
    long f[20];
    f[0] = 0;
    f[1] = 1;
#pragma acc kernels copy(f)
    {
#pragma acc loop auto
        for (int i = 2; i < 20; i++) f[i] = f[i - 1] + f[i - 2];
    }
    printf("f[19] = %ld\n", f[19]);
    return 0;
}
