// §2.7.11: max and min reductions over a double array on gang vector loops.
#include <stdio.h>
int main(void) {
    double x[500];
    for (int i = 0; i < 500; i++) x[i] = (double)((i * 37) % 500) - 250.5;
    double hi = -1e300, lo = 1e300;
#pragma acc parallel loop gang vector copyin(x) reduction(max:hi) reduction(min:lo)
    for (int i = 0; i < 500; i++) {
        hi = x[i] > hi ? x[i] : hi;
        lo = x[i] < lo ? x[i] : lo;
    }
    printf("max = %.1f min = %.1f\n", hi, lo);
    return 0;
}
