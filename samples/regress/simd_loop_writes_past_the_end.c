// Issue 15 (native engine, SIMD in the direct version of counted loops): a scaling loop written
// with `<=` (`for (i = 0; i <= n; i++) out[i] = in[i] * k;`) stores one element past the end of
// `out` in its last iteration (C11 §6.5.6p8: undefined; accsim stops there). The native engine
// runs such a loop in lanes only after checking all its accesses at entry; here the check fails,
// so the loop runs with a check per access and the fault is the interpreter's: the store of the
// last iteration, at its own line, after the correct loops before it printed what gcc prints
// (float lanes of four over 4..11 elements, so that the iterations after the lanes run too).
// expect-exit: 3
// expect-stderr: out-of-bounds
// expect-stderr: simd_loop_writes_past_the_end.c:41:
// check: skip
#include <stdio.h>
#include <stdlib.h>

static void scale(float *out, const float *in, float k, int n)
{
    for (int i = 0; i < n; i++)
        out[i] = in[i] * k;
}

int main(void)
{
    int n = 11;
    float *in = malloc(sizeof(float) * (n + 1));
    float *out = malloc(sizeof(float) * n);
    if (!in || !out)
        return 1;
    for (int i = 0; i <= n; i++)
        in[i] = 0.5f * i - 1.0f;
    for (int m = 4; m <= n; m++) {
        scale(out, in, 3.0f, m);
        double s = 0.0;
        for (int i = 0; i < m; i++)
            s += out[i] * (i + 1);
        printf("m=%d %.9g\n", m, s);
    }
    fflush(stdout);
    /* One element too many: `<=`. */
    float k = 2.0f;
    for (int i = 0; i <= n; i++)
        out[i] = in[i] * k;
    printf("not reached %g\n", out[0]);
    free(in);
    free(out);
    return 0;
}
