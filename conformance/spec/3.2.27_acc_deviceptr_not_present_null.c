// §3.2.27: "The argument is the address of a host variable or array that has an active lifetime
// on the current device. If the data is not present on the device, the routine returns a NULL
// value." Before and after the data region the array has no device copy.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    static float a[10];
    printf("before: %d\n", acc_deviceptr(a) == NULL);
#pragma acc data create(a)
    printf("inside: %d\n", acc_deviceptr(a) == NULL);
    printf("after: %d\n", acc_deviceptr(a) == NULL);
    return 0;
}
