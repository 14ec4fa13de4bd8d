// gpu: skip (NaN payloads: a GPU may give its canonical NaN, which C allows: C11 F.10.13)
// Issue 15 (calltree): the native engine computes a branch-free `c ? a : b` of doubles and floats
// whose condition compares two values of that type in the float registers (a lane mask picks the
// arm), and negation as `fneg`. Both keep C's results bit for bit: `x < 0 ? -x : x` leaves -0.0
// and a NaN's sign as they are (it is not fabs: C11 6.5.15, F.3 and F.9.3), negation flips the
// sign bit of every value, NaNs included (C11 F.10.7.1 leaves only the payload to the machine,
// and x86 and gcc keep it), and a comparison with a NaN is false (C11 F.9.3). The same code runs
// on the host and in a `routine seq` called in a `parallel loop` (OpenACC 2.0 §2.13.1).
#include <stdio.h>
#include <string.h>
#include <math.h>

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
static double magnitude(double x) { return x < 0 ? -x : x; }
#pragma acc routine seq
static double larger(double a, double b) { return a > b ? a : b; }
#pragma acc routine seq
static double not_below(double a, double b) { return a >= b ? a : -b; }
#pragma acc routine seq
static float magnitudef(float x) { return x < 0.0f ? -x : x; }
#pragma acc routine seq
static float same_or_negated(float a, float b) { return a == b ? a : -a; }

#define N 8

int main(void)
{
    double in[N] = {-0.0, 0.0, -2.5, 3.0, -INFINITY, INFINITY, NAN, -NAN};
    double mag[N], big[N], nb[N], neg[N];
    float fmag[N], fsame[N];
    for (int i = 0; i < N; i++) {
        mag[i] = magnitude(in[i]);
        big[i] = larger(in[i], in[(i + 1) % N]);
        nb[i] = not_below(in[i], in[(i + 3) % N]);
        neg[i] = -in[i];
        fmag[i] = magnitudef((float)in[i]);
        fsame[i] = same_or_negated((float)in[i], (float)in[(i + 1) % N]);
    }
    for (int i = 0; i < N; i++)
        printf("host %d: %016llx %016llx %016llx %016llx %08x %08x\n", i, bits(mag[i]), bits(big[i]), bits(nb[i]),
               bits(neg[i]), fbits(fmag[i]), fbits(fsame[i]));

#pragma acc parallel loop copyin(in[0:N]) copyout(mag[0:N], big[0:N], nb[0:N], neg[0:N], fmag[0:N], fsame[0:N])
    for (int i = 0; i < N; i++) {
        mag[i] = magnitude(in[i]);
        big[i] = larger(in[i], in[(i + 1) % N]);
        nb[i] = not_below(in[i], in[(i + 3) % N]);
        neg[i] = -in[i];
        fmag[i] = magnitudef((float)in[i]);
        fsame[i] = same_or_negated((float)in[i], (float)in[(i + 1) % N]);
    }
    for (int i = 0; i < N; i++)
        printf("device %d: %016llx %016llx %016llx %016llx %08x %08x\n", i, bits(mag[i]), bits(big[i]), bits(nb[i]),
               bits(neg[i]), fbits(fmag[i]), fbits(fsame[i]));
    return 0;
}
