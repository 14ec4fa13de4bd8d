/* Device memory used after `acc_free`. */
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int n = 8;
    float *d = (float *)acc_malloc(n * sizeof(float));
    acc_free(d);
#pragma acc parallel loop deviceptr(d)
    for (int i = 0; i < n; i++)
        d[i] = 0.0f; /* expect: use-after-free */
    printf("done\n");
    return 0;
}
