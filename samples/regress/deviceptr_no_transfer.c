// Issue 12 (check must not cry wolf): a pointer in a `deviceptr` clause holds a device address
// (§2.6.5.1): the compute construct passes it as it is and moves no data. accsim copied the
// pointer variable itself to the device and back, and `check` then noted a redundant transfer
// that the program never asked for. `parallel loop`, `kernels`, and a data construct around a
// compute construct that uses the pointer implicitly.
#include <stdio.h>
#include <openacc.h>

#define N 1000

int main(void) {
    double *d = (double *)acc_malloc(N * sizeof(double));
    double *e = (double *)acc_malloc(N * sizeof(double));
    double h[N];
    if (!d || !e) return 1;

#pragma acc parallel loop deviceptr(d)
    for (int i = 0; i < N; i++) d[i] = 0.5 * i;

#pragma acc kernels deviceptr(d, e)
    for (int i = 0; i < N; i++) e[i] = d[i] + 1.0;

#pragma acc data deviceptr(e) copyout(h)
    {
#pragma acc parallel loop
        for (int i = 0; i < N; i++) h[i] = 2.0 * e[i];
    }

    acc_free(d);
    acc_free(e);
    printf("h[0] = %.1f, h[%d] = %.1f\n", h[0], N - 1, h[N - 1]);
    return 0;
}
