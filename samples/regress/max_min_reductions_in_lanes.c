// Issue 16 (item 2, laplace's `error = max(error, abs(...))`): the native engine runs `max`/`min`
// reductions of a float local in SIMD lanes, and the result must be bit for bit the sequential
// loop's (C11 5.1.2.3: the loop's order; F.10.9.2: fmax/fmin return the other operand of a NaN
// one). The only equal values of different bits are +0 and -0, so the element a sequential loop
// keeps among equal maxima (the first for `(x > r) ? x : r` and `fmax(r, x)`, the last for
// `fmax(x, r)`, glibc keeping fmax's first operand of two zeros) is what the lanes must find:
// zeros of both signs sit at neighbouring positions (different lanes), NaNs are skipped, a NaN
// held at entry stays (the conditional) or is replaced (fmax), and odd trip counts leave
// iterations to the scalar loop. Host loops, and a kernel with `reduction(max:)` (§2.5.12) over
// values without ties. `ACCSIM_JIT=eager` compiles every function at its first call (the small
// ones would run in the interpreter). The conditional forms' bits are gcc's (-O0 and -O2); of two
// zeros, C leaves fmax's choice open (F.10.9.2), and gcc's inline expansions differ between -O0
// and -O2, so the fmax/fmin lines follow the C library's routine called at run time (glibc's
// fmax(-0, +0) is -0, fmax(+0, -0) is +0: its first operand), checked by hand.
// accsim-env: ACCSIM_JIT=eager
#include <math.h>
#include <stdio.h>
#include <string.h>

#define N 1001

static double x[N], zeros_a[N], zeros_b[N];
static float fx[N], fzeros_a[N], fzeros_b[N];

static unsigned long long bits(double d) {
    unsigned long long u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static unsigned fbits(float f) {
    unsigned u;
    memcpy(&u, &f, sizeof u);
    return u;
}

// The sequential rule of each form, over the first n elements of v, starting from r.
static double max_cond(const double *v, int n, double r) {
    for (int i = 0; i < n; i++)
        r = (v[i] > r) ? v[i] : r;
    return r;
}

static double min_cond(const double *v, int n, double r) {
    for (int i = 0; i < n; i++)
        r = (v[i] < r) ? v[i] : r;
    return r;
}

static double max_fmax_held_first(const double *v, int n, double r) {
    for (int i = 0; i < n; i++)
        r = fmax(r, v[i]);
    return r;
}

static double max_fmax_held_second(const double *v, int n, double r) {
    for (int i = 0; i < n; i++)
        r = fmax(v[i], r);
    return r;
}

static double min_fmin_held_first(const double *v, int n, double r) {
    for (int i = 0; i < n; i++)
        r = fmin(r, fabs(v[i]));
    return r;
}

static float maxf_cond(const float *v, int n, float r) {
    for (int i = 0; i < n; i++)
        r = (v[i] > r) ? v[i] : r;
    return r;
}

static float maxf_fmaxf_held_second(const float *v, int n, float r) {
    for (int i = 0; i < n; i++)
        r = fmaxf(v[i], r);
    return r;
}

static float minf_fminf(const float *v, int n, float r) {
    for (int i = 0; i < n; i++)
        r = fminf(r, v[i]);
    return r;
}

int main(void) {
    for (int i = 0; i < N; i++) {
        x[i] = (double)((i * 7919) % 1013) / 97.0 - 5.0;
        fx[i] = (float)x[i];
        // All negative but two zeros of different signs, neighbours (so in different lanes).
        zeros_a[i] = -1.0 - (double)(i % 13);
        zeros_b[i] = zeros_a[i];
        fzeros_a[i] = (float)zeros_a[i];
        fzeros_b[i] = fzeros_a[i];
    }
    zeros_a[500] = -0.0;
    zeros_a[501] = 0.0;
    zeros_b[500] = 0.0;
    zeros_b[501] = -0.0;
    zeros_b[777] = -0.0;
    fzeros_a[300] = -0.0f;
    fzeros_a[301] = 0.0f;
    fzeros_a[302] = 0.0f;
    fzeros_b[300] = 0.0f;
    fzeros_b[303] = -0.0f;
    x[10] = NAN;
    x[11] = -NAN;
    x[998] = NAN;
    fx[10] = NAN;
    fx[13] = NAN;

    int lengths[4] = {N, N - 1, 3, 1};
    for (int k = 0; k < 4; k++) {
        int n = lengths[k];
        printf("n=%d\n", n);
        printf(" max_cond x %016llx zeros_a %016llx zeros_b %016llx nan-at-entry %016llx\n", bits(max_cond(x, n, -INFINITY)),
               bits(max_cond(zeros_a, n, -INFINITY)), bits(max_cond(zeros_b, n, -INFINITY)), bits(max_cond(x, n, NAN)));
        printf(" min_cond x %016llx zeros_a %016llx\n", bits(min_cond(x, n, INFINITY)), bits(min_cond(zeros_a, n, 0.0)));
        printf(" fmax(r, v) x %016llx zeros_a %016llx zeros_b %016llx nan-at-entry %016llx\n", bits(max_fmax_held_first(x, n, -INFINITY)),
               bits(max_fmax_held_first(zeros_a, n, -INFINITY)), bits(max_fmax_held_first(zeros_b, n, -INFINITY)),
               bits(max_fmax_held_first(x, n, NAN)));
        printf(" fmax(v, r) x %016llx zeros_a %016llx zeros_b %016llx\n", bits(max_fmax_held_second(x, n, -INFINITY)),
               bits(max_fmax_held_second(zeros_a, n, -INFINITY)), bits(max_fmax_held_second(zeros_b, n, -INFINITY)));
        printf(" fmin(r, fabs(v)) x %016llx zeros_b %016llx\n", bits(min_fmin_held_first(x, n, INFINITY)),
               bits(min_fmin_held_first(zeros_b, n, INFINITY)));
        printf(" float cond %08x %08x %08x fmaxf(v, r) %08x %08x fminf %08x %08x\n", fbits(maxf_cond(fx, n, -INFINITY)),
               fbits(maxf_cond(fzeros_a, n, -INFINITY)), fbits(maxf_cond(fzeros_b, n, -INFINITY)),
               fbits(maxf_fmaxf_held_second(fzeros_a, n, -INFINITY)), fbits(maxf_fmaxf_held_second(fzeros_b, n, -INFINITY)),
               fbits(minf_fminf(fx, n, INFINITY)), fbits(minf_fminf(fzeros_b, n, 0.0f)));
    }

    // A kernel's reduction over values without ties (the gangs' results combine in any order).
    double grid[64][N];
    for (int j = 0; j < 64; j++)
        for (int i = 0; i < N; i++)
            grid[j][i] = (double)((i * 31 + j * 17) % 997) / 3.0 + (double)j * 1e-3;
    double top = -INFINITY, bottom = INFINITY;
#pragma acc parallel loop reduction(max:top) reduction(min:bottom) copyin(grid)
    for (int j = 0; j < 64; j++) {
#pragma acc loop reduction(max:top) reduction(min:bottom)
        for (int i = 0; i < N; i++) {
            top = fmax(top, fabs(grid[j][i] - 100.0));
            bottom = (grid[j][i] < bottom) ? grid[j][i] : bottom;
        }
    }
    printf("kernel top %.17g bottom %.17g\n", top, bottom);
    return 0;
}
