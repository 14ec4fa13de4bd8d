/* After `enter data`, host writes need `update device` before the device uses them. */
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int n = 40;
    int *p = malloc(n * sizeof *p);
    for (int i = 0; i < n; i++) p[i] = i;
#pragma acc enter data copyin(p[0:n])
    p[3] = 1000;
    int s = 0;
#pragma acc parallel loop present(p[0:n]) reduction(+:s)
    for (int i = 0; i < n; i++)
        s += p[i]; /* expect: stale-device-read */
    printf("s = %d\n", s);
#pragma acc exit data delete(p[0:n])
    free(p);
    return 0;
}
