// Exercises: printf floating conversions %f %e %E %g %G %a %A with flags,
// width and precision, rounding (round-half-even on the exact binary
// value), large and tiny magnitudes, inf/nan, negative zero.
#include <stdio.h>
#include <math.h>

int main(void) {
    double vals[] = {0.0, 1.0, -1.5, 3.14159265358979, 1e-5, 123456.789, 1e20, 6.02214076e23,
                     1.0 / 3, 2.5, 0.125, 9.9999, 1e-300, 5e-324, 100.0};
    int n = sizeof vals / sizeof vals[0];
    for (int i = 0; i < n; i++) {
        double v = vals[i];
        printf("%f | %.2f | %e | %.3E | %g | %G | %.3g | %10.4g | %-12.2e|\n", v, v, v, v, v, v, v, v, v);
    }
    for (int i = 0; i < n; i++) printf("%a %A\n", vals[i], vals[i]);
    printf("%.0f %.0f %.0f %.0f %.0f %.0f\n", 0.5, 1.5, 2.5, 3.5, -0.5, -2.5);
    printf("%.1f %.1f %.1f %.2f %.2f\n", 0.05, 0.15, 0.25, 1.005, 2.675);
    printf("%#.0f %#g %#.3g %#x\n", 3.0, 1.0, 2.0, 0);
    printf("[%+.3f] [% .3f] [%08.3f] [%-8.3f] [%+08.2e]\n", 2.5, 2.5, -2.5, 2.5, 12345.678);
    printf("[%*.*f] [%-*.*e]\n", 12, 3, 3.14159, 12, 2, 3.14159);
    printf("%g %g %g %g %g %g\n", 100000.0, 1000000.0, 1e-4, 1e-5, 123456789.0, 0.0001234);
    printf("%.10g %.17g %.20g\n", 0.1, 0.1, 0.1);
    printf("%.15f\n", 1.0 / 7);
    printf("%.30f\n", 1.0 / 1024);
    printf("%.60f\n", 5e-324);
    printf("%f\n", 1e300);
    printf("%.3e %.3e\n", 9.9995, 9.9994);
    volatile double zero = 0.0;
    double inf = 1.0 / zero;
    printf("inf: %f %e %g %E %G %5.1f|%-6f|%+f\n", inf, inf, inf, inf, inf, inf, -inf, inf);
    double nan_pos = -(zero / zero);  /* flips the default (negative) NaN to positive */
    printf("nan: %f %g %F %E %6.2f|\n", nan_pos, nan_pos, nan_pos, nan_pos, nan_pos);
    printf("NAN macro %f INFINITY macro %f isnan %d isinf %d\n", NAN, INFINITY, isnan(nan_pos) != 0, isinf(-inf) != 0);
    printf("-0.0: %f %.0f %g %e %a\n", -0.0, -0.0, -0.0, -0.0, -0.0);
    printf("%.3a %.0a %a %a\n", 1.0, 1.5, 0.1, 1e-320);
    float fv = 0.1f;
    printf("float promoted: %f %.10f %a %g\n", fv, fv, fv, fv);
    printf("%5.2f%%\n", 99.567);
    printf("%F %G %E\n", 1.5, 1e-10, 12.0);
    return 0;
}
