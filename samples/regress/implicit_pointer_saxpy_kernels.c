// Issue 12 item 7 (implicit pointers): the beginner's saxpy with heap vectors and no data
// clause. OpenACC 2.0 gives the pointers `x` and `y` an implicit attribute, not their targets
// (§2.5.2); nvc copies what the loop accesses ("Generating implicit copy(y[:n]), copyin(x[:n])")
// and accsim does the same by default: `y` is written, so copied in and out, `x` only read.
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 1000;
    float a = 2.0f;
    float *x = (float *)malloc(n * sizeof(float));
    float *y = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) {
        x[i] = (float)i;
        y[i] = 1.0f;
    }
#pragma acc kernels
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += y[i];
    printf("y[0] = %.1f, y[%d] = %.1f, sum = %.1f\n", y[0], n - 1, y[n - 1], sum);
    free(x);
    free(y);
    return 0;
}
