// Issue 12, compile-time errors: in the subarrays of a `cache` directive "the length is a
// constant" (OpenACC 2.0 §2.8). A stencil whose width is a function parameter cannot cache
// `in[i:width]`; the fixed-width `cache(in[i:RADIUS*2+1])` of a macro constant is accepted.
// expect-exit: 2
// expect-stderr: error[directive]: the length of the subarray `in[i:width]` in `cache` is not a constant
// expect-stderr: cache_length_parameter.c:26:19
#include <stdio.h>

#define N 64
#define RADIUS 1

static void box3(const float *restrict in, float *restrict out)
{
#pragma acc kernels loop independent copyin(in[0:N]) copyout(out[0:N - 2])
    for (int i = 0; i < N - 2; i++) {
#pragma acc cache(in[i:RADIUS*2+1])
        out[i] = (in[i] + in[i + 1] + in[i + 2]) / 3.0f;
    }
}

static void box(const float *restrict in, float *restrict out, int width)
{
#pragma acc parallel loop copyin(in[0:N]) copyout(out[0:N])
    for (int i = 0; i < N - width; i++) {
        float s = 0.0f;
#pragma acc cache(in[i:width]) /* expect: compile-error */
        for (int k = 0; k < width; k++)
            s += in[i + k];
        out[i] = s / width;
    }
}

int main(void)
{
    float in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = (float)i;
    box3(in, out);
    box(in, out, 5);
    printf("%.2f\n", out[0]);
    return 0;
}
