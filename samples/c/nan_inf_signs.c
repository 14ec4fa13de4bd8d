// Exercises: the sign of NaNs and infinities as glibc prints them. On
// x86-64 an invalid operation (0/0, inf-inf, sqrt(-1)) produces the
// "default NaN" with the sign bit SET, which printf shows as "-nan"; gcc
// folds constant expressions to the same value. The NAN macro is a
// positive quiet NaN. Negation, fabs and copysign only touch the sign bit.
#include <stdio.h>
#include <math.h>
#include <string.h>
#include <stdint.h>

static void show(const char *label, double d) {
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    printf("%-14s %%f=%f %%g=%g %%e=%e %%F=%F signbit=%d bits=%016llx\n", label, d, d, d, d,
           signbit(d) != 0, (unsigned long long)bits);
}

int main(void) {
    volatile double zero = 0.0, one = 1.0, neg = -1.0;
    double inf = one / zero;
    show("const 0/0", 0.0 / 0.0);
    show("runtime 0/0", zero / zero);
    show("-(0/0)", -(zero / zero));
    show("inf-inf", inf - inf);
    show("0*inf", zero * inf);
    show("sqrt(-1)", sqrt(neg));
    show("NAN", NAN);
    show("-NAN", -NAN);
    show("fabs(0/0)", fabs(zero / zero));
    show("copysign", copysign(NAN, -1.0));
    show("nan(\"\")", nan(""));
    show("inf", inf);
    show("-inf", -inf);
    show("-0.0", -zero);
    show("1/-inf", one / -inf);
    float fn = (float)(zero / zero);
    printf("float 0/0: %f signbit=%d\n", fn, signbit(fn) != 0);
    float fp = NAN;
    printf("float NAN: %f\n", fp);
    printf("comparisons with nan: < %d > %d == %d != %d isunordered %d\n", zero / zero < 1, zero / zero > 1,
           NAN == NAN, NAN != NAN, isunordered(NAN, 1.0) != 0);
    printf("(int)(inf > 0)=%d fmax(nan, 1)=%g fmin(-inf, 0)=%g\n", inf > 0, fmax(NAN, 1.0), fmin(-inf, 0.0));
    printf("%%a: %a %a %a\n", zero / zero, NAN, -inf);
    printf("width: [%8f] [%-8f] [%+f] [% f] [%08f]\n", NAN, -NAN, NAN, inf, -inf);
    return 0;
}
