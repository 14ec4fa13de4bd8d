// §2.7.4: in a kernels region, "If an argument with no keyword or an argument after the length
// keyword is specified, the iterations will be processed in vector strips of that length".
#include <stdio.h>
int main(void) {
    double x[300], y[300];
    for (int i = 0; i < 300; i++) x[i] = i;
#pragma acc kernels copyin(x) copyout(y)
    {
#pragma acc loop gang vector(32)
        for (int i = 0; i < 300; i++) y[i] = x[i] * 0.5;
#pragma acc loop gang vector(length:64)
        for (int i = 0; i < 300; i++) y[i] = y[i] + 1.0;
    }
    printf("%.1f %.1f\n", y[0], y[299]);
    return 0;
}
