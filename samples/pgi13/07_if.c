/* 07_if.c — the `if` clause of a compute region.
 *
 * Teaches (1.3 §2.3.1.1): with `if(condition)` the region runs on the accelerator when the
 * condition is nonzero and on the host otherwise; small problems often stay on the host. The
 * results are the same either way. acc_on_device (1.3 §3.2.10) tells the code where it runs.
 */
#include <stdio.h>
#include <accel.h>

static int work(int n, double *out) {
    double a[1000];
    int where = 0;
    for (int i = 0; i < n; i++) a[i] = i;
#pragma acc region if(n > 100) copyin(a[0:n-1]) copyout(out[0:n-1]) copyout(where)
    {
        for (int i = 0; i < n; i++) {
            out[i] = a[i] * a[i];
            if (i == 0) where = acc_on_device(acc_device_host) ? 1 : 2;
        }
    }
    return where;
}

int main(void) {
    double out[1000];
    int w = work(10, out);
    printf("n = 10 ran on the %s, out[9] = %g\n", w == 1 ? "host" : "accelerator", out[9]);
    w = work(1000, out);
    printf("n = 1000 ran on the %s, out[999] = %g\n", w == 1 ? "host" : "accelerator", out[999]);
    return 0;
}
