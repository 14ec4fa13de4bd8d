/* `acc_malloc` returns device memory; the host cannot store through it (§3.2.24). */
#include <stdio.h>
#include <openacc.h>
int main(void) {
    float *d = (float *)acc_malloc(16 * sizeof(float));
    d[0] = 1.0f; /* expect: host-deref-device-ptr */
    acc_free(d);
    printf("done\n");
    return 0;
}
