// §3.2.4/§3.2.5: acc_set_device_num "tells the runtime which device to use among those attached
// of the given type"; acc_get_device_num returns "the device number of the specified device type
// that will be used to execute the next accelerator parallel or kernels region". Setting the
// current number reads it back, and a region still runs.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int cur = acc_get_device_num(acc_device_not_host);
    acc_set_device_num(cur, acc_device_not_host);
    printf("same number: %d\n", acc_get_device_num(acc_device_not_host) == cur);
    int a[4];
#pragma acc parallel loop copyout(a)
    for (int i = 0; i < 4; i++) a[i] = i * 5;
    printf("%d\n", a[3]);
    return 0;
}
