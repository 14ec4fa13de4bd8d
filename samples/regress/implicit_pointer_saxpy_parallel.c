// Issue 12 item 7 (implicit pointers): saxpy with `parallel loop`, pointer parameters and no
// data clause. The pointers are firstprivate (§2.5.1), their targets not copied by OpenACC 2.0;
// accsim, like nvc, copies `y[0:n]` in and out and `x[0:n]` in, at each call with its own `n`.
#include <stdio.h>
#include <stdlib.h>

static void saxpy(int n, float a, const float *x, float *y)
{
#pragma acc parallel loop
    for (int i = 0; i < n; ++i)
        y[i] = a * x[i] + y[i];
}

int main(void)
{
    int n = 1 << 12;
    float *x = malloc(n * sizeof *x);
    float *y = malloc(n * sizeof *y);
    for (int i = 0; i < n; ++i) {
        x[i] = 1.0f;
        y[i] = 2.0f;
    }
    saxpy(n, 3.0f, x, y);
    saxpy(n / 2, 1.0f, x, y);
    printf("y[0] = %.1f, y[%d] = %.1f\n", y[0], n - 1, y[n - 1]);
    free(x);
    free(y);
    return 0;
}
