/* 01_region.c — a PGI Accelerator 1.3 compute region and its implicit data analysis.
 *
 * Teaches: `#pragma acc region` (1.3 §2.3.1) marks a structured block whose loops become
 * accelerator kernels; with no data clauses the compiler decides what moves (1.3 §2.3.1:
 * "whether the value in host memory needs to be copied to the device memory; whether a value
 * computed on the accelerator will be needed again on the host"). Here `x` is only read (copied
 * in) and `y` is written (copied back). In OpenACC 2.0 this is `#pragma acc kernels
 * copyin(a, x) copy(y)`: run `accsim info samples/pgi13/01_region.c` to see it.
 * A file that uses `region` is read as PGI 1.3 without a flag (a note says so under -W).
 */
#include <stdio.h>

#define N 1000

int main(void) {
    float x[N], y[N];
    float a = 2.0f;
    for (int i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = 1.0f;
    }
#pragma acc region
    {
        for (int i = 0; i < N; i++)
            y[i] = a * x[i] + y[i];
    }
    double sum = 0;
    for (int i = 0; i < N; i++) sum += y[i];
    printf("y[0] = %g, y[%d] = %g, sum = %.1f\n", y[0], N - 1, y[N - 1], sum);
    return 0;
}
