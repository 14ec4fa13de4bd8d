// §2.12.1: "The routine directive without a name may appear immediately before a function
// definition or just before a function prototype and applies to that immediately following
// function or prototype."
#include <stdio.h>
#pragma acc routine seq
double half(double x);
int main(void) {
    double h[4];
#pragma acc parallel loop copyout(h)
    for (int i = 0; i < 4; i++) h[i] = half(i + 1.0);
    printf("%.2f %.2f\n", h[0], h[3]);
    return 0;
}
double half(double x) { return x / 2.0; }
