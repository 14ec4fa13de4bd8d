// §2.5.3: "When the condition evaluates to nonzero in C or C++ ... the accelerator copy will be
// executed." On the device, `copyin(a)` means the device's changes are not copied back
// (§2.6.5.3), and acc_on_device(acc_device_host) is false (§3.2.14).
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[4] = {1, 2, 3, 4};
    int on_host = -1;
    int use_device = 5;
#pragma acc parallel num_gangs(1) if(use_device) copyin(a) copyout(on_host)
    {
        for (int i = 0; i < 4; i++) a[i] = a[i] * 10;
        on_host = acc_on_device(acc_device_host);
    }
    printf("a = %d %d %d %d\n", a[0], a[1], a[2], a[3]); /* expect: stale-host-read */
    printf("on host: %d\n", on_host != 0);
    return 0;
}
