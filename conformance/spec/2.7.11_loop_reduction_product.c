// §2.7.11: a `*` reduction over a vector loop (initial value 1).
#include <stdio.h>
int main(void) {
    double f[20];
    for (int i = 0; i < 20; i++) f[i] = (i % 2) ? 2.0 : 0.5;
    double p = 3.0;
#pragma acc parallel loop vector copyin(f) reduction(*:p)
    for (int i = 0; i < 20; i++) p *= f[i];
    int ones = 1;
#pragma acc parallel loop reduction(*:ones)
    for (int i = 1; i <= 10; i++) ones *= (i % 3 == 0) ? 2 : 1;
    printf("p = %.1f ones = %d\n", p, ones);
    return 0;
}
