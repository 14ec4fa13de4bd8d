/* `copyin` where `copy` was meant: the device results are discarded at the end of the region. */
#include <stdio.h>
int main(void) {
    double v[50];
    for (int i = 0; i < 50; i++) v[i] = 1.0;
#pragma acc parallel loop copyin(v)
    for (int i = 0; i < 50; i++) v[i] = v[i] + i;
    double s = 0;
    for (int i = 0; i < 50; i++)
        s += v[i]; /* expect: stale-host-read */
    printf("sum = %.1f\n", s);
    return 0;
}
