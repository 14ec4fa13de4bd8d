/* Issue 15, native engine: scalars the lowering keeps in the frame's memory (a `kernels`
 * region's locals, whose device copies the runtime makes: §2.6.1, a scalar in a `kernels`
 * construct is `present_or_copy`; scalars named in `copy`/`update`, §2.6.5.3, §2.10) are kept in
 * registers by native code when their address is only read and written in place. The runtime's
 * data actions must still see the host value (`copy`, `update device`) and the host must see
 * what they write back (`copyout` at the region's end, `update host`); a scalar whose address
 * reaches a function stays in memory.
 */
#include <stdio.h>

static void bump(int *p)
{
    ++*p;
}

int main(void)
{
    int n = 200;
    double a[200];
    double sum = 0.0;
    double scale = 2.0;
    int calls = 0;
    for (int i = 0; i < n; i++)
        a[i] = i * 0.5;
#pragma acc data copyin(a) copy(sum)
    {
#pragma acc kernels
        {
            for (int i = 0; i < n; i++)
                sum += a[i] * scale;
        }
        /* The host copy is still 0 until the update. */
        printf("host sum before update %.1f\n", sum); /* expect: stale-host-read */
#pragma acc update host(sum)
        printf("host sum after update %.1f\n", sum);
        sum = 1000.0;
#pragma acc update device(sum)
        sum = -1.0;
#pragma acc kernels
        {
            sum += 1.0; /* expect: stale-device-read */
        }
        printf("host sum in the region %.1f\n", sum); /* expect: stale-host-read */
    }
    printf("host sum after the region %.1f\n", sum);
    for (int k = 0; k < 5; k++)
        bump(&calls);
    printf("calls %d\n", calls);
    /* Counters of a kernels region's loops on the host side of the program: a counted loop. */
    long total = 0;
    for (int r = 0; r < 3; r++) {
#pragma acc kernels copyin(a) copy(total)
        for (int i = 0; i < n; i++)
            total += (long)a[i] * r;
    }
    printf("total %ld\n", total);
    return 0;
}
