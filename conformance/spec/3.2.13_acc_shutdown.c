// §3.2.13: "The acc_shutdown routine disconnects the program from the accelerator device." Called
// once the device work is done and copied back.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    acc_init(acc_device_not_host);
    long s = 0;
#pragma acc parallel loop reduction(+:s)
    for (int i = 0; i < 100; i++) s += i;
    acc_shutdown(acc_device_not_host);
    printf("s = %ld\n", s);
    return 0;
}
