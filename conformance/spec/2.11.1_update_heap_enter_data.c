// §2.11.1 during a dynamic data lifetime (§2.6.4): update device and update host on a heap
// array mapped by enter data, the pattern of iterative solvers.
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int n = 20;
    float *p = malloc(n * sizeof *p);
    for (int i = 0; i < n; i++) p[i] = 1.0f;
#pragma acc enter data copyin(p[0:n])
    for (int it = 0; it < 3; it++) {
#pragma acc parallel loop present(p[0:n])
        for (int i = 0; i < n; i++) p[i] *= 2.0f;
#pragma acc update host(p[0:n])
        printf("iteration %d: p[0] = %.1f\n", it, p[0]);
        p[0] = 0.0f;
#pragma acc update device(p[0:1])
    }
#pragma acc exit data delete(p[0:n])
    printf("p[1] = %.1f\n", p[1]);
    free(p);
    return 0;
}
