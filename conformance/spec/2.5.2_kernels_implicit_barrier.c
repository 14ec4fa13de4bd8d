// §2.5.2: "If the async clause is not present, there is an implicit barrier at the end of the
// kernels region, and execution will not proceed until all kernels have completed execution."
#include <stdio.h>
#define N 500
int main(void) {
    static double u[N];
#pragma acc kernels copyout(u)
    {
        for (int i = 0; i < N; i++) u[i] = 2.0;
        for (int i = 0; i < N; i++) u[i] = u[i] * i;
    }
    double s = 0;
    for (int i = 0; i < N; i++) s += u[i];
    printf("sum = %.1f\n", s);
    return 0;
}
