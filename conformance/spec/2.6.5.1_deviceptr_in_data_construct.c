// §2.6.5.1: deviceptr on a data construct: the compute constructs inside use the device pointer
// directly; the values written by the first are read by the second.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int n = 8;
    float *buf = (float *)acc_malloc(n * sizeof(float));
    float out[8];
#pragma acc data deviceptr(buf) copyout(out)
    {
#pragma acc parallel loop
        for (int i = 0; i < n; i++) buf[i] = 0.25f * i;
#pragma acc parallel loop
        for (int i = 0; i < n; i++) out[i] = buf[i] + 1.0f;
    }
    printf("%.2f %.2f\n", out[0], out[7]);
    acc_free(buf);
    return 0;
}
