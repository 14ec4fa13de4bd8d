// §3.2.27: "The acc_deviceptr routine returns the device pointer associated with a host address
// ... If the data is not present on the device, the routine returns a NULL value." An address
// inside a mapped array maps to the same offset in the device copy.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    double v[10];
    printf("not present: %d\n", acc_deviceptr(v) == NULL);
#pragma acc data create(v)
    {
        char *d0 = (char *)acc_deviceptr(v);
        char *d5 = (char *)acc_deviceptr(&v[5]);
        printf("present: %d, offset: %ld\n", d0 != NULL, (long)(d5 - d0));
    }
    printf("after region: %d\n", acc_deviceptr(v) == NULL);
    return 0;
}
