/* Issue 15, `check` on native host code: host functions run as native code under `check`, and
 * only the accesses of data the checkers follow reach them (data with a device copy, data whose
 * host and device copies disagree, anything while an activity queue has work). Every missing
 * update must still be found where the host touches such data in counted loops (the loops whose
 * bounds native code checks once at entry), in helper functions taking pointers, on a local
 * array, on a scalar, and on data that becomes mapped in the middle of a loop:
 * - §2.10.1 `update`: a host write after the copy-in makes the device copy stale
 *   (`stale-device-read`), a device write not copied back makes the host copy stale
 *   (`stale-host-read`);
 * - §2.6.5.2 `copyin`: the device result is discarded at the end of the region, and a host read
 *   after it sees an old value (`stale-host-read`);
 * - §2.14.1 `async`: the host writing data that queued work reads (`async-race`).
 * Data never mapped, and data whose copies agree again, is read and written in place (no finding).
 */
#include <stdio.h>
#include <stdlib.h>

#define N 64

static void fill(double *x, int n, double v)
{
    for (int i = 0; i < n; i++)
        x[i] = v + i; /* expect: async-race */
}

static double total(const double *x, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += x[i]; /* expect: stale-host-read */
    return s;
}

int main(void)
{
    double *a = malloc(N * sizeof(double));
    double *b = malloc(N * sizeof(double));
    double *never_mapped = malloc(N * sizeof(double));
    double local[N];
    double scale = 2.0;
    if (!a || !b || !never_mapped)
        return 1;
    fill(a, N, 1.0);
    fill(b, N, 0.0);
    fill(never_mapped, N, 3.0);
    for (int i = 0; i < N; i++)
        local[i] = i;

#pragma acc data copy(a[0:N]) copyin(b[0:N], local, scale)
    {
        /* Host writes after the copy-in, with no `update device`. */
        for (int i = 0; i < N; i++)
            b[i] = 2.0 * i;
        scale = 3.0;
        /* `scale` is present (§2.6.4): the kernel reads its stale device copy. */
#pragma acc parallel loop present(a[0:N], b[0:N]) /* expect: stale-device-read */
        for (int i = 0; i < N; i++)
            a[i] = b[i] * scale; /* expect: stale-device-read */
        /* The device result is not copied back yet. */
        printf("a before the update: %.1f\n", total(a, N));
#pragma acc update host(a[0:N])
        printf("a after the update: %.1f\n", total(a, N) - a[0]);
#pragma acc parallel loop present(local)
        for (int i = 0; i < N; i++)
            local[i] = local[i] * 2.0;
        for (int i = 0; i < N; i++)
            never_mapped[i] += local[i]; /* expect: stale-host-read */
    }
    /* `local` was only copied in: the doubled values were discarded with its device copy. */
    double s = 0.0;
    for (int i = 0; i < N; i++)
        s += local[i]; /* expect: stale-host-read */
    printf("local after the region: %.1f\n", s);

    /* Mapped in the middle of a loop: the writes after the mapping make its device copy stale. */
    for (int i = 0; i < N; i++) {
        if (i == N / 2) {
#pragma acc enter data copyin(b[0:N])
        }
        b[i] = -1.0;
    }
#pragma acc parallel loop present(b[0:N])
    for (int i = 0; i < N; i++)
        b[i] += 1.0; /* expect: stale-device-read */
#pragma acc exit data copyout(b[0:N])
    printf("b: %.1f %.1f\n", b[0], b[N - 1]);

    /* Queued work reads `a` while the host writes it. */
#pragma acc enter data copyin(a[0:N]) async(1)
    fill(a, N, 5.0);
#pragma acc wait(1)
#pragma acc exit data delete(a[0:N])
    printf("never mapped: %.1f\n", total(never_mapped, N));
    free(a);
    free(b);
    free(never_mapped);
    return 0;
}
