/* 10_host_loop.c — a `host` loop inside a compute region (PGI Accelerator 1.3 §2.4.1.1).
 *
 * Teaches: `#pragma acc for host` runs its loop "sequentially on the host processor", in the
 * middle of a region whose other loops run on the accelerator. Here the running sum in the
 * middle is sequential (each iteration needs the one before), so it stays on the host, and the
 * loops around it are parallel. The region is split at the host loop: in OpenACC 2.0 it is a
 * `data` construct holding two `kernels` constructs, with `update host(a)` before the host loop
 * (it reads what the first kernel computed) and `update device(a)` after it (the second kernel
 * reads what it wrote). Run `accsim info samples/pgi13/10_host_loop.c` to see the 2.0 form.
 */
#include <stdio.h>
#include <accel.h>

#define N 1000

int main(void) {
    static float a[N], b[N];
    float scale = 0.5f;
    int on_host = 0;
#pragma acc region copyout(b)
    {
#pragma acc for parallel
        for (int i = 0; i < N; i++)
            a[i] = (i % 7) * scale;
#pragma acc for host
        for (int i = 1; i < N; i++) {
            a[i] += a[i - 1];
            on_host += acc_on_device(acc_device_host) != 0;
        }
#pragma acc for parallel
        for (int i = 0; i < N; i++)
            b[i] = a[i] / (i + 1);
    }
    printf("iterations of the host loop run on the host: %d of %d\n", on_host, N - 1);
    printf("a[N-1] = %g, b[0] = %g, b[N-1] = %g\n", a[N - 1], b[0], b[N - 1]);
    return 0;
}
