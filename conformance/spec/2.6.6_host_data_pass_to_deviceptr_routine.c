// §2.6.6.1: "this may be used to pass the device address of variables or arrays to optimized
// procedures written in a lower-level API" -- here a procedure taking a device pointer
// (deviceptr, §2.6.5.1).
#include <stdio.h>
static void axpy_on_device(int n, float alpha, float *x, float *y) {
#pragma acc parallel loop deviceptr(x, y)
    for (int i = 0; i < n; i++) y[i] += alpha * x[i];
}
int main(void) {
    float x[10], y[10];
    for (int i = 0; i < 10; i++) { x[i] = i; y[i] = 1.0f; }
#pragma acc data copyin(x) copy(y)
    {
#pragma acc host_data use_device(x, y)
        {
            axpy_on_device(10, 2.0f, x, y);
        }
    }
    printf("%.1f %.1f %.1f\n", y[0], y[5], y[9]);
    return 0;
}
