// §2.7.4: "In an accelerator kernels region, the vector clause specifies that the iterations of the
// associated loop or loops are to be executed with vector or SIMD processing. If an argument with
// no keyword or an argument after the length keyword is specified, the iterations will be
// processed in vector strips of that length". The result is the sequential one.
#include <stdio.h>
#define N 300
int main(void) {
    static float x[N], y[N];
    for (int i = 0; i < N; i++) x[i] = i * 0.25f;
#pragma acc kernels copyin(x) copyout(y)
    {
#pragma acc loop gang vector(64)
        for (int i = 0; i < N; i++) y[i] = 2.0f * x[i] + 1.0f;
    }
    printf("y[0] = %.2f, y[299] = %.2f\n", y[0], y[299]);
    return 0;
}
