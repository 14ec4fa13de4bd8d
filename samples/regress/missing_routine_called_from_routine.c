// Issue 12 (session 6, item 5): a function called from a `routine` is device code too, so it
// needs a `routine` directive of its own (§2.12.1: the directive "tells the compiler to compile a
// given procedure for an accelerator"; a procedure without one has no device version, and nvc
// and gcc stop at link time). `check` reported `missing-routine` only for calls written in a
// compute region: `norm2` below, called from the routine `distance`, was not reported, because
// the prototypes that unnamed routine directives precede were not kept after lowering. The
// prototype form (`#pragma acc routine seq` before `static double dot(...);`) must still count.
#include <stdio.h>
#include <math.h>

#pragma acc routine seq
static double dot(const double *a, const double *b, int n);

static double norm2(const double *a, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += a[i] * a[i];
    return s;
}

#pragma acc routine seq
static double distance(const double *a, const double *b, int n)
{
    return sqrt(norm2(a, n) + norm2(b, n) - 2 * dot(a, b, n)); /* expect: missing-routine */
}

static double dot(const double *a, const double *b, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

int main(void)
{
    double p[8][3], d[8];
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 3; k++) p[i][k] = i + 0.5 * k;
#pragma acc parallel loop copyin(p) copyout(d)
    for (int i = 0; i < 8; i++) d[i] = distance(p[i], p[0], 3);
    printf("%.3f %.3f\n", d[1], d[7]);
    return 0;
}
