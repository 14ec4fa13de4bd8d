/* `sum` is firstprivate by default (§2.5.1): the host never sees the device's additions. The
 * loop's vector lanes also share their gang's copy (§2.5.10), so `check` reports their race on it
 * too (a `reduction(+:sum)` clause fixes both). */
#include <stdio.h>
int main(void) {
    double a[100], sum = 0.0;
    for (int i = 0; i < 100; i++) a[i] = i;
#pragma acc parallel loop copyin(a)
    for (int i = 0; i < 100; i++)
        sum += a[i]; /* expect: lost-write */
    printf("sum = %f\n", sum);
    return 0;
}
