// Issue 12 (check must not sleep): a compute region that calls a function without a `routine`
// directive ran silently; no device version of such a function exists (§2.12.1: nvc and gcc
// compile one only for a routine). `check` warns at the first call of each such function.
// `lerp` has its directive before a prototype and is defined after `main`: no warning for it.
#include <stdio.h>

#define N 512

static float clamp01(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x); }

#pragma acc routine seq
float lerp(float a, float b, float t);

int main(void) {
    float x[N], y[N];
    for (int i = 0; i < N; i++) x[i] = (i - 100) / 300.0f;
#pragma acc parallel loop copyin(x) copyout(y)
    for (int i = 0; i < N; i++) y[i] = lerp(0.0f, 10.0f, clamp01(x[i])); /* expect: missing-routine */
#pragma acc kernels loop copy(y)
    for (int i = 0; i < N; i++) y[i] = clamp01(y[i] / 10.0f);
    printf("y[0] = %.3f, y[200] = %.3f, y[511] = %.3f\n", y[0], y[200], y[511]);
    return 0;
}

float lerp(float a, float b, float t) { return a + (b - a) * t; }
