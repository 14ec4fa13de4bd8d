// gpu: skip (NaN payloads: a GPU may give its canonical NaN, which C allows: C11 F.10.13)
// Issue 15 (fconst20): the native engine makes a float constant a Cranelift float constant (the
// arithmetic reads it from memory; a constant left of `+` or `*` is moved right, where x86 reads
// it, unless it is a NaN, whose payload the first operand decides), a negation an `xorpd` with
// -0.0 (a constant's negation the constant of the other sign), `p < q ? q : p` and
// `p < q ? p : q` (also written with `>`) one `maxsd` or `minsd`, and a comparison of `x` with
// zero whose arms are `x` and `-x` a comparison of `x` with `-x`. Each keeps C's results bit for
// bit: -0.0 and NaNs through `x < 0 ? -x : x` (not fabs: C11 6.5.15, F.3), a NaN compares false
// (F.9.3), negation flips the sign bit of every value, NaNs included (F.10.7.1), and `0.0 + x`,
// `-0.0 + x`, `1.0 * x` keep the signed zeros and payloads gcc gives. The same code runs on the
// host and in a `routine seq` called in a `parallel loop` (OpenACC 2.0 §2.13.1). No signaling
// NaN: gcc folds `-0.0 + x` and `1.0 * x` to `x`, which keeps one unquieted.
#include <stdio.h>
#include <string.h>

static unsigned long long bits(double d)
{
    unsigned long long u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static unsigned fbits(float f)
{
    unsigned u;
    memcpy(&u, &f, sizeof u);
    return u;
}

#pragma acc routine seq
static double mag_gt(double x) { return x > 0 ? x : -x; }
#pragma acc routine seq
static double mag_zero_left(double x) { return 0.0 > x ? -x : x; }
#pragma acc routine seq
static double mag_le(double x) { return x <= -0.0 ? -x : x; }
#pragma acc routine seq
static double mag_lt_neg_first(double x) { return -x < 0 ? x : -x; }
#pragma acc routine seq
static double min_lt(double a, double b) { return a < b ? a : b; }
#pragma acc routine seq
static double max_lt(double a, double b) { return a < b ? b : a; }
#pragma acc routine seq
static double min_gt(double a, double b) { return a > b ? b : a; }
#pragma acc routine seq
static double max_gt(double a, double b) { return a > b ? a : b; }
#pragma acc routine seq
static float magf(float x) { return x < 0.0f ? -x : x; }
#pragma acc routine seq
static float maxf(float a, float b) { return a > b ? a : b; }
#pragma acc routine seq
static double consts(double x) { return (1.0 + x) * 0.5 - (-0.0 + x) * (-(2.0)) + 1.5 * x; }
#pragma acc routine seq
static double left_zero(double x) { return 0.0 + x; }
#pragma acc routine seq
static double left_negzero(double x) { return -0.0 + x; }
#pragma acc routine seq
static double left_one(double x) { return 1.0 * x; }
#pragma acc routine seq
static double neg_const(double x) { return x * -(-0.0); }
#pragma acc routine seq
static float constsf(float x) { return 0.25f * x + (-0.0f + x) - -(1.5f); }

#define N 10

int main(void)
{
    const unsigned long long pattern[N] = {0x8000000000000000ull, 0, 0xc004000000000000ull, 0x4008000000000000ull,
                                           0xfff0000000000000ull, 0x7ff0000000000000ull, 0x7ff8000000000123ull,
                                           0xfff8000000000456ull, 0xfffc00000000abcdull, 0x0000000000000001ull};
    double in[N];
    for (int i = 0; i < N; i++)
        memcpy(&in[i], &pattern[i], sizeof in[i]);
    unsigned long long r[N][16];
    unsigned f[N][3];
    for (int i = 0; i < N; i++) {
        double a = in[i], b = in[(i + 1) % N];
        double v[16] = {mag_gt(a), mag_zero_left(a), mag_le(a), mag_lt_neg_first(a), min_lt(a, b), max_lt(a, b),
                        min_gt(a, b), max_gt(a, b), consts(a), left_zero(a), left_negzero(a), left_one(a),
                        neg_const(a), -a, 0.0, 0.0};
        for (int j = 0; j < 16; j++)
            r[i][j] = bits(v[j]);
        f[i][0] = fbits(magf((float)a));
        f[i][1] = fbits(maxf((float)a, (float)b));
        f[i][2] = fbits(constsf((float)a));
    }
    for (int i = 0; i < N; i++) {
        printf("host %d:", i);
        for (int j = 0; j < 14; j++)
            printf(" %016llx", r[i][j]);
        printf(" %08x %08x %08x\n", f[i][0], f[i][1], f[i][2]);
    }

    double rd[N][14];
    float fd[N][3];
#pragma acc parallel loop copyin(in[0:N]) copyout(rd[0:N][0:14], fd[0:N][0:3])
    for (int i = 0; i < N; i++) {
        double a = in[i], b = in[(i + 1) % N];
        rd[i][0] = mag_gt(a);
        rd[i][1] = mag_zero_left(a);
        rd[i][2] = mag_le(a);
        rd[i][3] = mag_lt_neg_first(a);
        rd[i][4] = min_lt(a, b);
        rd[i][5] = max_lt(a, b);
        rd[i][6] = min_gt(a, b);
        rd[i][7] = max_gt(a, b);
        rd[i][8] = consts(a);
        rd[i][9] = left_zero(a);
        rd[i][10] = left_negzero(a);
        rd[i][11] = left_one(a);
        rd[i][12] = neg_const(a);
        rd[i][13] = -a;
        fd[i][0] = magf((float)a);
        fd[i][1] = maxf((float)a, (float)b);
        fd[i][2] = constsf((float)a);
    }
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < 14; j++)
            r[i][j] = bits(rd[i][j]);
        for (int j = 0; j < 3; j++)
            f[i][j] = fbits(fd[i][j]);
    }
    for (int i = 0; i < N; i++) {
        printf("device %d:", i);
        for (int j = 0; j < 14; j++)
            printf(" %016llx", r[i][j]);
        printf(" %08x %08x %08x\n", f[i][0], f[i][1], f[i][2]);
    }
    return 0;
}
