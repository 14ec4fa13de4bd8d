// Cray CCE's default execution model, acc_model=auto_async_kernel (seeds/003, the CCE man page,
// "-h acc_model": "Execute all kernels asynchronously ensuring program order is maintained").
// The kernels of the two parallel loops go on CCE's implicit queue, one after the other; the
// host does not wait after each, only before the `update host`, a synchronous transfer that
// comes after them in program order. Run with --cray --notify (or CRAY_ACC_DEBUG=1) to see the
// kernels on queue `auto` and the one wait.
// accsim-flags: --cray
#include <stdio.h>

#define N 1000

int main(void) {
    double a[N], b[N];
    for (int i = 0; i < N; i++) {
        a[i] = i;
        b[i] = 0;
    }
    #pragma acc data copyin(a) create(b)
    {
        #pragma acc parallel loop
        for (int i = 0; i < N; i++)
            b[i] = 2 * a[i];
        #pragma acc parallel loop
        for (int i = 0; i < N; i++)
            b[i] = b[i] + 1;
        #pragma acc update host(b)
    }
    double sum = 0;
    for (int i = 0; i < N; i++)
        sum += b[i];
    printf("sum = %.1f\n", sum);
    return 0;
}
