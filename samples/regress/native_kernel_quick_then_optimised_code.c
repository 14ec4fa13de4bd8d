/* Issue 15 (compile time): the native engine's tiers decide by counted work. A launch of
 * little work runs in the interpreter; a kernel launched many times is compiled after some
 * launches, its code generated quick first (no optimiser, single-pass register allocator) and
 * optimised once its launches' counted work pays for it, or at once at a launch of much work.
 * All of them run the same executable form or the code
 * of the same IR, so every launch computes the same values whichever runs it. The program
 * launches one kernel on small data many times (interpreted, then quick code), and another on
 * 2 MiB arrays, 262,144 iterations (optimised before its first launch); the sums must be gcc's.
 */
#include <stdio.h>
#include <stdlib.h>

static void scale_add(int n, double *restrict y, const double *restrict x, double a)
{
#pragma acc parallel loop present(x[0:n], y[0:n])
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i] * 0.5 + (i % 7);
}

static void blend(int n, double *restrict y, const double *restrict x, double a)
{
#pragma acc parallel loop present(x[0:n], y[0:n])
    for (int i = 0; i < n; i++)
        y[i] = (1.0 - a) * y[i] + a * x[i] * x[i];
}

static double sum(int n, const double *v)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += v[i];
    return s;
}

int main(void)
{
    enum { SMALL = 512, BIG = 1 << 18 };
    double *x = malloc(sizeof(double) * BIG), *y = malloc(sizeof(double) * BIG);
    if (!x || !y)
        return 1;
    for (int i = 0; i < BIG; i++) {
        x[i] = (i % 13) * 0.25;
        y[i] = (i % 5) * 0.5;
    }
#pragma acc data copyin(x[0:SMALL]) copy(y[0:SMALL])
    for (int step = 0; step < 400; step++)
        scale_add(SMALL, y, x, 0.001 * step);
    printf("small: %.6f\n", sum(SMALL, y));
#pragma acc data copyin(x[0:BIG]) copy(y[0:BIG])
    for (int step = 0; step < 3; step++)
        blend(BIG, y, x, 0.25 * step);
    printf("big: %.6f\n", sum(BIG, y));
    free(x);
    free(y);
    return 0;
}
