// §2.5.5/§2.13.2: a wait clause on a kernels construct: the kernels region starts only after the
// producer on queue 8 has completed, and is itself synchronous.
#include <stdio.h>
int main(void) {
    double a[40], b[40];
#pragma acc data create(a) copyout(b)
    {
#pragma acc parallel loop async(8)
        for (int i = 0; i < 40; i++) a[i] = i * 0.25;
#pragma acc kernels wait(8)
        for (int i = 0; i < 40; i++) b[i] = a[i] + 1.0;
    }
    printf("%.2f %.2f\n", b[0], b[39]);
    return 0;
}
