// Issue 15/16, one machine code for kernels and functions that are the same code: the three
// smoothing loops and the two helpers below are the same code up to their source lines (the
// third loop up to the order of its captures: it writes `a` from `b`, `jit/src/canon.rs`), so
// the native engine generates the loops' code once and the helpers' once (`jit/src/shared.rs`,
// shown by `ACCSIM_PHASE_TIMES=1`). Each copy keeps its own function id for its frame (the
// helpers have an array local) and its own source locations.
#include <stdio.h>

#define N 4096

static double a[N], b[N];

static double first_sum(const double *v, int n) {
    double part[4] = {0, 0, 0, 0};
    for (int i = 0; i < n; i++)
        part[i % 4] += v[i];
    return part[0] + part[1] + part[2] + part[3];
}

static double second_sum(const double *v, int n) {
    double part[4] = {0, 0, 0, 0};
    for (int i = 0; i < n; i++)
        part[i % 4] += v[i];
    return part[0] + part[1] + part[2] + part[3];
}

int main(void) {
    int n = N;
    for (int i = 0; i < n; i++) {
        a[i] = (i * 37 % 101) / 101.0;
        b[i] = 0;
    }
#pragma acc data copy(a, b)
    {
        for (int it = 0; it < 3; it++) {
#pragma acc parallel loop present(a, b)
            for (int i = 1; i < n - 1; i++)
                b[i] = 0.5 * a[i] + 0.25 * (a[i - 1] + a[i + 1]);
#pragma acc parallel loop present(a, b)
            for (int i = 1; i < n - 1; i++)
                b[i] = 0.5 * a[i] + 0.25 * (a[i - 1] + a[i + 1]);
#pragma acc parallel loop present(a, b)
            for (int i = 1; i < n - 1; i++)
                a[i] = 0.5 * b[i] + 0.25 * (b[i - 1] + b[i + 1]);
        }
    }
    printf("%.12f %.12f\n", first_sum(a, n), second_sum(b, n));
    printf("%.12f %.12f\n", a[n / 2], b[n / 3]);
    return 0;
}
