// §2.6.6.1: "The use_device tells the compiler to use the device address of any variable or array
// in the var-list in code within the construct." For a pointer whose target `p[0:n]` is mapped,
// the pointer inside host_data holds the device address of that target (acc_deviceptr, §3.2.27).
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>
int main(void) {
    int n = 50;
    double *p = malloc(n * sizeof *p);
    int same = 0;
#pragma acc data create(p[0:n])
    {
        void *dev = acc_deviceptr(p);
#pragma acc host_data use_device(p)
        same = ((void *)p == dev);
    }
    printf("use_device(p) is the device copy of p[0:n]: %d\n", same);
    free(p);
    return 0;
}
