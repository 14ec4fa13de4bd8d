// §2.6.6.1: "The use_device tells the compiler to use the device address of any variable or
// array in the var-list in code within the construct." Inside host_data, `a` is the address
// acc_deviceptr (§3.2.27) reports.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    float a[16];
    void *dev = NULL, *inside = NULL;
#pragma acc data create(a)
    {
        dev = acc_deviceptr(a);
#pragma acc host_data use_device(a)
        {
            inside = a;
        }
        printf("device address used: %d\n", inside == dev);
        printf("differs from host address: %d\n", inside != (void *)a);
    }
    return 0;
}
