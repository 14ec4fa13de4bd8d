// §2.6.6.1: "The use_device tells the compiler to use the device address of any variable or
// array in the var-list in code within the construct." Inside host_data, the name's address is
// the one acc_deviceptr (§3.2.27) gives for the host array.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    static double a[32];
    int same = 0;
#pragma acc data create(a)
    {
        void *dev = acc_deviceptr(a);
#pragma acc host_data use_device(a)
        {
            same = ((void *)a == dev);
        }
    }
    printf("use_device address is the device copy: %d\n", same);
    return 0;
}
