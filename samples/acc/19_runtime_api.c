/* 19_runtime_api.c — the OpenACC runtime library (spec chapter 3).
 *
 * Teaches the §3.2 routines that manage devices and data without directives:
 *   acc_get_num_devices (§3.2.1)       how many devices of a type are attached;
 *   acc_init (§3.2.12)                 start the device up front (keeps setup out of timings);
 *   acc_malloc / acc_free (§3.2.15-16) raw device memory, used through `deviceptr` (§2.6.5.1);
 *   acc_memcpy_to_device / _from_device (§3.2.30-31) copies between host and device addresses;
 *   acc_copyin / acc_copyout / acc_create / acc_delete (§3.2.17, .21, .19, .22) — the routine
 *     forms of enter data / exit data: they start and end dynamic data lifetimes (§2.6.2);
 *   acc_update_device / acc_update_local (§3.2.23-24) — the routine forms of update;
 *   acc_is_present (§3.2.29), acc_deviceptr (§3.2.27), acc_hostptr (§3.2.28) — queries of the
 *     present table;
 *   acc_on_device (§3.2.14) — called inside a compute region, tells where the code runs;
 *   acc_wait / acc_async_test (§3.2.8, §3.2.6).
 *
 * Expected output: hand-written. Two lines depend on the device by design: the device count
 * (§3.2.1) and the acc_on_device answers inside the region (§3.2.14). The expected file is the
 * output on accsim's default device, one modeled non-shared-memory accelerator; every other line
 * is the same on any device (see README.md).
 */
#include <openacc.h>
#include <stdio.h>
#include <stdlib.h>

#define N 512

static double a[N];

int main(void) {
    int ndev = acc_get_num_devices(acc_device_not_host);
    printf("accelerators attached (not_host): %s\n", ndev > 0 ? "at least one" : "none");
    if (ndev > 0) acc_init(acc_device_not_host);
    printf("outside any region, acc_on_device(acc_device_host) = %d\n", acc_on_device(acc_device_host) != 0);

    /* 1. raw device memory */
    double *d = acc_malloc(N * sizeof(double));
    if (!d) return 1;
#pragma acc parallel loop deviceptr(d)
    for (int i = 0; i < N; i++) d[i] = 0.5 * i;
    double back[N];
    acc_memcpy_from_device(back, d, N * sizeof(double));
    double s1 = 0.0;
    for (int i = 0; i < N; i++) s1 += back[i];
    for (int i = 0; i < N; i++) back[i] = 1.0;
    acc_memcpy_to_device(d, back, 16 * sizeof(double));   /* overwrite the first 16 */
#pragma acc parallel loop deviceptr(d) copyout(back)
    for (int i = 0; i < N; i++) back[i] = d[i];
    double s2 = 0.0;
    for (int i = 0; i < N; i++) s2 += back[i];
    acc_free(d);
    printf("acc_malloc buffer: sum = %.6f, after acc_memcpy_to_device of 16: sum = %.6f\n", s1, s2);

    /* 2. a dynamic data lifetime through the API */
    for (int i = 0; i < N; i++) a[i] = (double)(i % 4);
    double *da = acc_copyin(a, sizeof a);
    printf("after acc_copyin: is_present(a) = %d, is_present(a[0:16]) = %d, is_present(a[0:N+1]) = %d\n",
           acc_is_present(a, sizeof a) != 0, acc_is_present(a, 16 * sizeof(double)) != 0,
           acc_is_present(a, sizeof a + sizeof(double)) != 0);
    printf("acc_deviceptr(a) == acc_copyin's result: %d, acc_hostptr(that) == a: %d\n",
           acc_deviceptr(a) == (void *)da, acc_hostptr(da) == (void *)a);

#pragma acc parallel loop present(a)
    for (int i = 0; i < N; i++) a[i] = a[i] * 3.0;

    a[0] = 1000.0;                                      /* host change ... */
    acc_update_device(a, sizeof(double));               /* ... sent: device a[0] = 1000 */
#pragma acc parallel loop present(a)
    for (int i = 0; i < N; i++) a[i] = a[i] + 1.0;
    acc_update_local(&a[N - 4], 4 * sizeof(double));    /* bring back only the last 4 */
    printf("after acc_update_local of a[N-4:4]: a[N-1] = %.6f\n", a[N - 1]);

    acc_copyout(a, sizeof a);
    double s3 = 0.0;
    for (int i = 0; i < N; i++) s3 += a[i];
    printf("after acc_copyout: a[0] = %.6f, sum = %.6f, is_present(a) = %d\n", a[0], s3,
           acc_is_present(a, sizeof a) != 0);

    /* 3. create / delete: device scratch that never moves; only the reduction result comes back */
    static double scratch[N];
    acc_create(scratch, sizeof scratch);
    double total = 0.0;
#pragma acc parallel loop present(scratch) copyin(a)
    for (int i = 0; i < N; i++) scratch[i] = 2.0 * a[i];
#pragma acc parallel loop present(scratch) reduction(+:total)
    for (int i = 0; i < N; i++) total += scratch[i];
    acc_delete(scratch, sizeof scratch);
    printf("acc_create'd scratch: total = %.6f; after acc_delete is_present(scratch) = %d\n", total,
           acc_is_present(scratch, sizeof scratch) != 0);

    /* 4. where does the code run? */
    int where[2] = {-1, -1};
#pragma acc parallel num_gangs(1) copy(where)
    {
        where[0] = acc_on_device(acc_device_host) != 0;
        where[1] = acc_on_device(acc_device_not_host) != 0;
    }
    printf("inside a compute region: acc_on_device(host) = %d, acc_on_device(not_host) = %d\n", where[0], where[1]);

    /* 5. queues */
    int q[N];
#pragma acc parallel loop copyout(q) async(5)
    for (int i = 0; i < N; i++) q[i] = i;
    acc_wait(5);
    long qs = 0;
    for (int i = 0; i < N; i++) qs += q[i];
    printf("after acc_wait(5): acc_async_test(5) = %d, sum = %ld\n", acc_async_test(5) != 0, qs);
    return 0;
}
