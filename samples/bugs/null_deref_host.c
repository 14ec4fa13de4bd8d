/* A failed lookup leaves a null pointer that the host then reads. */
#include <stdio.h>
#include <openacc.h>
int main(void) {
    float a[4] = {1, 2, 3, 4};
    float *d = (float *)acc_deviceptr(a);
    printf("%.1f\n", *d); /* expect: null-deref */
    return 0;
}
