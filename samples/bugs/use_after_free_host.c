/* The host buffer is freed before it is copied to the device. */
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int n = 32;
    float *p = malloc(n * sizeof *p);
    for (int i = 0; i < n; i++) p[i] = i;
    free(p);
    float s = 0;
#pragma acc parallel loop copyin(p[0:n]) reduction(+:s) /* expect: use-after-free */
    for (int i = 0; i < n; i++) s += p[i];
    printf("s = %.1f\n", s);
    return 0;
}
