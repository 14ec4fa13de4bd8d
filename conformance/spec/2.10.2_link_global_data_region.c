// §2.10.2: "The link clause specifies that the named variables should be allocated in accelerator
// memory only when they appear in a data clause for a data construct, compute construct or enter
// data directive." A routine uses the linked global while a data construct maps it.
#include <stdio.h>
#include <openacc.h>
double coeffs[4];
#pragma acc declare link(coeffs)
#pragma acc routine seq
static double poly(double x) { return coeffs[0] + x * (coeffs[1] + x * (coeffs[2] + x * coeffs[3])); }
int main(void) {
    for (int i = 0; i < 4; i++) coeffs[i] = i + 1;
    printf("present before: %d\n", acc_is_present(coeffs, sizeof coeffs) != 0);
    double y[5];
#pragma acc data copyin(coeffs)
    {
#pragma acc parallel loop copyout(y)
        for (int i = 0; i < 5; i++) y[i] = poly((double)i);
    }
    printf("present after: %d\n", acc_is_present(coeffs, sizeof coeffs) != 0);
    printf("%.1f %.1f %.1f\n", y[0], y[1], y[4]);
    return 0;
}
