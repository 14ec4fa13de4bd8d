// Issue 15 (native engine, SIMD in the direct version of counted loops): element-wise loops
// run two or four iterations at a time only when no iteration's store can be seen by another
// iteration. These loops store into arrays that other streams of the same loop read, through
// the same name and through aliased pointer parameters (C11 §6.5.16.1, §6.7.3.1: without
// `restrict` the arrays may overlap): a running sum `a[i] = a[i-1] + b[i]`, a shift by fewer
// elements than the lanes and by more, `y[i] = a*y[i] + x[i]` called with y == x (the same
// element: may run in lanes) and with y one element past x (a recurrence: must not). Each
// prints what gcc prints; a loop vectorised without the overlap check prints other sums.
// The loops' trip counts run from 0 to 19 so that the scalar iterations after the lanes are
// exercised, temporaries (`t`, `u`) keep the last iteration's value after their loop, and the
// `unsigned` lanes wrap as the scalar code does (C11 §6.2.5p9).
#include <limits.h>
#include <stdio.h>

#define N 40

static double a[N], b[N];
static float f[N], g[N];

static void scale_add(double *y, const double *x, double s, int n)
{
    for (int i = 0; i < n; i++)
        y[i] = s * y[i] + x[i];
}

static void reset(void)
{
    for (int i = 0; i < N; i++) {
        a[i] = 0.5 * i + 1.0;
        b[i] = 1.0 / (i + 1);
        f[i] = 0.25f * i - 3.0f;
        g[i] = 1.0f / (i + 2);
    }
}

static double total(const double *v, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += v[i] * (i + 1);
    return s;
}

static double ftotal(const float *v, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += v[i] * (i + 1);
    return s;
}

int main(void)
{
    reset();
    for (int i = 1; i < N; i++)
        a[i] = a[i - 1] + b[i];
    printf("running sum     %.17g\n", total(a, N));

    for (int d = 1; d <= 6; d++) {
        reset();
        for (int i = d; i < N; i++)
            f[i] = f[i - d] * 0.5f + g[i];
        printf("shift by %d      %.9g\n", d, ftotal(f, N));
    }
    reset();
    for (int i = 0; i < N - 3; i++)
        f[i] = f[i + 3] - g[i];
    printf("read ahead      %.9g\n", ftotal(f, N));

    reset();
    scale_add(a, a, 0.75, N);
    printf("y == x          %.17g\n", total(a, N));
    reset();
    scale_add(a + 1, a, 0.75, N - 1);
    printf("y == x + 1      %.17g\n", total(a, N));
    reset();
    scale_add(a, a + 1, 0.75, N - 1);
    printf("y == x - 1      %.17g\n", total(a, N));
    reset();
    scale_add(a, b, 0.75, N);
    printf("apart           %.17g\n", total(a, N));

    for (int n = 0; n <= 19; n++) {
        reset();
        float t = -1.0f;
        for (int i = 0; i < n; i++) {
            t = f[i] * 2.0f;
            t += g[i];
            f[i] = t - g[n];
        }
        double u = -1.0;
        for (int i = 1; i <= n; i++) {
            u = a[i];
            a[i - 1] = u / 4.0 + b[i];
        }
        printf("n=%d  t=%.9g f=%.9g u=%.17g a=%.17g\n", n, t, ftotal(f, N), u, total(a, N));
    }

    unsigned x[N], y[N], z[N];
    for (int i = 0; i < N; i++) {
        x[i] = UINT_MAX - 3u * i;
        y[i] = 7u * i + 1u;
    }
    for (int i = 0; i < N - 1; i++)
        z[i] = (x[i] + y[i]) ^ -(x[i + 1] & y[i]);
    unsigned long sum = 0;
    for (int i = 0; i < N - 1; i++)
        sum += (unsigned long)z[i] * (i + 1);
    printf("unsigned lanes  %lu\n", sum);
    return 0;
}
