// Exercises: math.h double functions: sqrt pow exp log log10 log2 sin cos
// tan asin acos atan atan2 sinh cosh tanh fabs floor ceil fmod round trunc
// rint nearbyint fmin fmax hypot cbrt expm1 log1p copysign frexp ldexp modf,
// printed with %.17g. Inputs are read from arrays so nothing is folded.
#include <stdio.h>
#include <math.h>

int main(void) {
    double xs[] = {0.5, 1.0, 2.0, 3.7, 10.0, 0.001, 123.456};
    int n = sizeof xs / sizeof xs[0];
    for (int i = 0; i < n; i++) {
        double x = xs[i];
        printf("x=%g\n", x);
        printf("  sqrt %.17g pow(x,1.5) %.17g exp %.17g\n", sqrt(x), pow(x, 1.5), exp(x));
        printf("  log %.17g log10 %.17g log2 %.17g\n", log(x), log10(x), log2(x));
        printf("  sin %.17g cos %.17g tan %.17g\n", sin(x), cos(x), tan(x));
        printf("  atan %.17g sinh %.17g cosh %.17g tanh %.17g\n", atan(x), sinh(x), cosh(x), tanh(x));
        printf("  cbrt %.17g expm1 %.17g log1p %.17g\n", cbrt(x), expm1(x), log1p(x));
    }
    double us[] = {-1.0, -0.5, 0.0, 0.25, 1.0};
    for (int i = 0; i < 5; i++)
        printf("asin(%g)=%.17g acos(%g)=%.17g\n", us[i], asin(us[i]), us[i], acos(us[i]));
    double pts[][2] = {{1, 1}, {-1, 1}, {-1, -1}, {1, -1}, {0, -1}, {3, 4}};
    for (int i = 0; i < 6; i++)
        printf("atan2(%g,%g)=%.17g hypot=%.17g\n", pts[i][0], pts[i][1], atan2(pts[i][0], pts[i][1]),
               hypot(pts[i][0], pts[i][1]));
    double rs[] = {2.5, 3.5, -2.5, -0.4, 1.49999, -7.7, 0.5, -0.5};
    for (int i = 0; i < 8; i++) {
        double r = rs[i];
        printf("r=%g floor %g ceil %g round %g trunc %g rint %g nearbyint %g fabs %g lround %ld\n", r, floor(r),
               ceil(r), round(r), trunc(r), rint(r), nearbyint(r), fabs(r), lround(r));
    }
    double fm[][2] = {{7.5, 2}, {-7.5, 2}, {7.5, -2}, {1e10, 3}, {5.3, 0.1}};
    for (int i = 0; i < 5; i++)
        printf("fmod(%g,%g)=%.17g remainder=%.17g\n", fm[i][0], fm[i][1], fmod(fm[i][0], fm[i][1]),
               remainder(fm[i][0], fm[i][1]));
    volatile double vz = 0.0;
    double nanv = -(vz / vz);
    printf("fmin(1,2)=%g fmax(1,2)=%g fmin(nan,3)=%g fmax(-1,nan)=%g\n", fmin(1, 2), fmax(1, 2), fmin(nanv, 3), fmax(-1, nanv));
    printf("copysign(3,-0.0)=%g signbit(-0.0)=%d\n", copysign(3, -vz), signbit(-vz) != 0);
    int e;
    double m = frexp(48.0, &e);
    printf("frexp(48) = %g * 2^%d, ldexp(0.75, 6) = %g\n", m, e, ldexp(0.75, 6));
    double ip;
    double fp = modf(-3.75, &ip);
    printf("modf(-3.75) = %g + %g\n", ip, fp);
    printf("pow(2,0.5)=%.17g pow(-8,1.0/3)=%f pow(0,0)=%g pow(-2,3)=%g pow(10,-2)=%.17g\n", pow(2, 0.5),
           pow(-8, 1.0 / 3), pow(0, 0), pow(-2, 3), pow(10, -2));
    printf("sqrt(-1)=%f log(0)=%f exp(1000)=%f exp(-1000)=%g\n", -sqrt(-1 + vz), log(vz), exp(1000 + vz), exp(-1000 + vz));
    printf("M_PI=%.17g M_E=%.17g\n", M_PI, M_E);
    double acc = 0;
    for (int k = 1; k <= 100000; k++) acc += 1.0 / ((double)k * k);
    printf("basel partial sum %.17g, sqrt(6*s)=%.17g\n", acc, sqrt(6 * acc));
    double t = 0;
    for (int k = 0; k < 1000; k++) t += sin(k * 0.01) * cos(k * 0.02);
    printf("trig sum %.17g\n", t);
    printf("isfinite %d %d isnormal %d fpclassify(0)==FP_ZERO %d\n", isfinite(1.0 + vz) != 0,
           isfinite(1 / vz) != 0, isnormal(1e-310 + vz) != 0, fpclassify(vz) == FP_ZERO);
    return 0;
}
