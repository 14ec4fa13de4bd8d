/* `acc_deviceptr` gives the device copy's address, which only device code may use. */
#include <stdio.h>
#include <openacc.h>
int main(void) {
    float a[8] = {1, 2, 3, 4, 5, 6, 7, 8};
#pragma acc enter data copyin(a)
    float *d = (float *)acc_deviceptr(a);
    printf("%.1f\n", d[2]); /* expect: host-deref-device-ptr */
#pragma acc exit data delete(a)
    return 0;
}
