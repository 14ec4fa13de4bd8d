// §2.5.11: "Supported data types are the numerical data types in C and C++ (int, float,
// double, complex)" -- float and double sums over 4 gangs.
#include <stdio.h>
int main(void) {
    float f = 0.5f;
    double d = -1.0;
#pragma acc parallel num_gangs(4) reduction(+:f, d)
    {
        f += 0.25f;
        d += 0.125;
    }
    printf("f = %.3f d = %.3f\n", f, d);
    return 0;
}
