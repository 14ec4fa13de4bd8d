// Issue 12, V&V on the GPU (parallel_loop_reduction_add_general_type_check_pt2/pt3): `long
// double` data, arithmetic, a `+` reduction and an atomic update in compute regions. accsim
// computes `long double` as a double (on the host and the device, as nvc does on the device)
// and keeps its 16-byte layout; the CUDA back-end refused every kernel that named the type.
#include <stdio.h>

#define N 1000

int main(void)
{
    long double x[N], y[N], total = 10.0L, count = 0.0L;
    for (int i = 0; i < N; i++) {
        x[i] = i * 0.5L;
        y[i] = 0.0L;
    }
#pragma acc parallel loop copyin(x) copyout(y) reduction(+:total) copy(count)
    for (int i = 0; i < N; i++) {
        y[i] = 2.0L * x[i] + 1.0L;
        total += x[i];
        if (x[i] >= 250.0L) {
#pragma acc atomic update
            count += 1.0L;
        }
    }
    printf("y[1] = %.2Lf, y[%d] = %.2Lf, total = %.2Lf, count = %.0Lf, sizeof = %zu\n", y[1], N - 1, y[N - 1], total, count, sizeof x[0]);
    return 0;
}
