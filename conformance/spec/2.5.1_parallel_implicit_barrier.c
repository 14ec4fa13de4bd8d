// §2.5.1: "If the async clause is not present, there is an implicit barrier at the end of the
// accelerator parallel region, and the execution will not proceed until all gangs have completed
// execution." The host reads every element right after the region.
#include <stdio.h>
#define N 1000
int main(void) {
    static float x[N];
    for (int i = 0; i < N; i++) x[i] = 1.0f;
#pragma acc parallel loop num_gangs(8) copy(x)
    for (int i = 0; i < N; i++) x[i] = x[i] + (float)i;
    double s = 0;
    for (int i = 0; i < N; i++) s += x[i];
    printf("sum = %.1f\n", s);
    return 0;
}
