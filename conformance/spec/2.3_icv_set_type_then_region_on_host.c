// §2.3: "acc-device-type-var controls which type of accelerator device is used." After
// acc_set_device_type(acc_device_host) the compute region runs on the host (§3.2.2), so
// acc_on_device(acc_device_host) is true inside it and the host array is updated in place.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[4] = {1, 2, 3, 4};
    int where = -1;
    acc_set_device_type(acc_device_host);
#pragma acc parallel num_gangs(1) copy(where) copyin(a)
    {
        where = acc_on_device(acc_device_host);
        for (int i = 0; i < 4; i++) a[i] += 10;
    }
    printf("on host: %d, a = %d %d %d %d\n", where != 0, a[0], a[1], a[2], a[3]);
    return 0;
}
