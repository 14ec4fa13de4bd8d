/* 06_async_wait.c — asynchronous regions and updates, and waiting for them.
 *
 * Teaches (1.3 §2.3.1.2, §2.7.1.1, §2.7.3, §3.2.6, §3.2.7): `async(handle)` lets the host go on
 * while the region runs; the handle is an `int` variable, and `#pragma acc wait(handle)` (or the
 * routine acc_async_wait(handle)) waits for the latest activity that named it. acc_async_test
 * tells whether it is done. The host must not read the region's results before the wait: run
 * `accsim run --schedule seed:0` to delay the queued work until the wait, as a real accelerator
 * may, and see the same output. In 2.0 the handle's value names the queue: `async(h)`, `wait(h)`.
 */
#include <stdio.h>
#include <accel.h>

#define N 2000

int main(void) {
    static double u[N], v[N];
    int h1 = 1, h2 = 2;
    for (int i = 0; i < N; i++) {
        u[i] = i * 0.5;
        v[i] = 0;
    }
#pragma acc data region copyin(u) copy(v)
    {
#pragma acc region async(h1)
        {
            for (int i = 0; i < N; i++)
                v[i] = u[i] * 2;
        }
        /* Host work that does not touch v may overlap the region. */
        double host_side = 0;
        for (int i = 0; i < 100; i++) host_side += i;
#pragma acc wait(h1)
#pragma acc update host(v) async(h2)
        acc_async_wait(h2);
        printf("after the waits: v[10] = %g, host_side = %g, done = %d\n", v[10], host_side, acc_async_test(h1) != 0);
#pragma acc region async(h1)
        {
            for (int i = 0; i < N; i++)
                v[i] += 1;
        }
#pragma acc wait
    }
    printf("v[0] = %g, v[%d] = %g\n", v[0], N - 1, v[N - 1]);
    return 0;
}
