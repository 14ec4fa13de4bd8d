// Exercises: float arithmetic rounded to float after every operation
// (FLT_EVAL_METHOD 0, as x86-64 SSE does), versus the same computation in
// double; float->double promotion in printf; float constants vs double.
#include <stdio.h>
#include <float.h>

int main(void) {
    printf("FLT_EVAL_METHOD=%d\n", FLT_EVAL_METHOD);
    float f = 0.1f;
    double d = 0.1;
    printf("0.1f=%.17g 0.1=%.17g\n", f, d);
    printf("0.1f==0.1: %d  (double)0.1f==0.1f: %d\n", f == d, (double)f == f);
    float fs = 0.0f;
    double ds = 0.0;
    for (int i = 0; i < 1000; i++) { fs += 0.1f; ds += 0.1; }
    printf("sum 1000*0.1: float %.9g double %.17g\n", fs, ds);
    float a = 16777216.0f;
    float b = a + 1.0f;
    printf("2^24+1 in float = %.1f, in double = %.1f\n", b, (double)a + 1.0);
    float x = 1.0f / 3.0f;
    double y = 1.0 / 3.0;
    printf("1/3 float %.9g double %.17g\n", x, y);
    printf("x*3 float %.9g, (double)x*3 %.17g\n", x * 3.0f, (double)x * 3.0);
    /* mixed float/double expression is computed in double */
    printf("x*3.0 (double constant) %.17g\n", x * 3.0);
    float p = 1.1f, q = 2.2f, r = 3.3f;
    float fr = p * q + r;
    double dr = (double)p * q + r;
    printf("p*q+r float %.9g as double %.17g\n", fr, dr);
    /* catastrophic cancellation differs */
    float big = 1e8f, small = 1.0f;
    printf("(1e8f+1)-1e8f = %.9g\n", (big + small) - big);
    printf("(1e8+1)-1e8 = %.17g\n", (1e8 + 1.0) - 1e8);
    float h = 0.1f;
    for (int i = 0; i < 5; i++) {
        h = h * h + 0.2f;
        printf("iter %d: h=%.9g\n", i, h);
    }
    /* float division and sqrt-free Newton iteration */
    float g = 2.0f;
    for (int i = 0; i < 6; i++) g = 0.5f * (g + 2.0f / g);
    printf("newton sqrt2 float %.9g\n", g);
    double gd = 2.0;
    for (int i = 0; i < 6; i++) gd = 0.5 * (gd + 2.0 / gd);
    printf("newton sqrt2 double %.17g\n", gd);
    /* int <-> float conversions */
    int iv = 123456789;
    float fv = iv;
    printf("(float)123456789 = %.1f back to int %d\n", fv, (int)fv);
    long long lv = 1234567890123456789LL;
    double dv = lv;
    printf("(double)1234567890123456789 = %.1f\n", dv);
    printf("float literal 3.4028235e38f = %.9g\n", 3.4028235e38f);
    float ov = 3.0e38f;
    ov = ov * 10.0f;
    printf("float overflow = %f\n", ov);
    float un = 1e-30f;
    un = un * 1e-20f;
    printf("float underflow to denormal/zero = %.9g\n", un);
    volatile double zero = 0.0;
    printf("1/0 = %f, -1/0 = %f\n", 1.0 / zero, -1.0 / zero);
    printf("0/0 at run time prints %f (x86 default NaN has the sign bit set)\n", zero / zero);
    printf("-(0/0) = %f\n", -(zero / zero));
    double nz = -0.0;
    printf("-0.0 = %f %g %e, -0.0 == 0.0: %d\n", nz, nz, nz, nz == 0.0);
    printf("nan == nan: %d, nan != nan: %d\n", (zero / zero) == (zero / zero), (zero / zero) != (zero / zero));
    return 0;
}
