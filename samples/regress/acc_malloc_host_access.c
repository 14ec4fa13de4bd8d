// Issue 12 (check must not sleep): the host cannot address `acc_malloc` memory (§1.3, §3.2.6).
// `check` reported a host store through the pointer but not a `memcpy`/`memset` into it (C
// library functions told the checker nothing), nor a data clause that maps the device pointer as
// if it were host memory (it belongs in `deviceptr`, §2.6.5.1). The three planted bugs of a
// program that fills device memory the wrong ways.
#include <stdio.h>
#include <string.h>
#include <openacc.h>

#define N 256

int main(void) {
    double h[N], out[N];
    for (int i = 0; i < N; i++) h[i] = 0.25 * i;
    double *d = (double *)acc_malloc(N * sizeof(double));
    if (!d) return 1;

    memcpy(d, h, sizeof h); /* expect: host-deref-device-ptr */
    memset(d, 0, sizeof(double)); /* expect: host-deref-device-ptr */
#pragma acc parallel loop copyin(d[0:N]) copyout(out) /* expect: host-deref-device-ptr */
    for (int i = 0; i < N; i++) out[i] = 2.0 * d[i];

    /* the right way: acc_memcpy_to_device, and deviceptr */
    acc_memcpy_to_device(d, h, sizeof h);
#pragma acc parallel loop deviceptr(d) copyout(out)
    for (int i = 0; i < N; i++) out[i] = 2.0 * d[i];
    printf("out[%d] = %.2f\n", N - 1, out[N - 1]);
    acc_free(d);
    return 0;
}
