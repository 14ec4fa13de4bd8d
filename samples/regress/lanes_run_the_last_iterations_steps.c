// Issue 15 (native engine, compile share): a window's loop whose lanes run its last iterations
// (no scalar direct version) takes the fuel of its whole trip count at entry, as the direct
// version did; when the fuel left is short it runs its checked version, which stops at the
// iteration where the steps run out. The run stops with the `--max-steps` diagnostic (the native
// engine completes this program from --max-steps 56005027 on, before and after the change).
// accsim-flags: --max-steps 30000000
// expect-exit: 4
// expect-stderr: error[max-steps]
// check: skip
#include <stdio.h>

#define T 13
#define N 4000

static float a[N + T], out[N], w[T];

int main(void)
{
    for (int k = 0; k < T; k++)
        w[k] = (float)k - 6.0f;
    for (int i = 0; i < N + T; i++)
        a[i] = (float)(i % 17);
    for (int r = 0; r < 1000; r++)
        for (int i = 0; i < N; i++) {
            float s = 0.0f;
            for (int k = 0; k < T; k++)
                s += w[k] * a[i + k];
            out[i] = s;
        }
    printf("%f\n", out[N - 1]);
    return 0;
}
