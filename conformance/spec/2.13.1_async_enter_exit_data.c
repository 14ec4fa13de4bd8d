// §2.13.1: the async clause on enter data and exit data: allocation, copy-in, the kernel and
// the copy-out all on queue 2, in order; the host waits before reading.
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int n = 50;
    double *v = malloc(n * sizeof *v);
    for (int i = 0; i < n; i++) v[i] = i;
#pragma acc enter data copyin(v[0:n]) async(2)
#pragma acc parallel loop present(v[0:n]) async(2)
    for (int i = 0; i < n; i++) v[i] = v[i] * 0.5;
#pragma acc exit data copyout(v[0:n]) async(2)
#pragma acc wait(2)
    printf("%.1f %.1f\n", v[1], v[49]);
    free(v);
    return 0;
}
