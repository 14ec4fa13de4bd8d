// Issue 12, errors runtimes catch: acc_set_device_num beyond the devices of the type. Device
// numbers start at 0 (§3.2.4, §3.2.5); "if the value of devicenum is greater than the value
// returned by acc_get_num_devices for that device type, the behavior is
// implementation-defined", and accsim stops, for the host as for the accelerator. Here the
// numbers are taken to start at 1.
// expect-exit: 3
// expect-stderr: error[device]
// expect-stderr: acc_set_device_num_host_beyond.c:19:9
#include <stdio.h>
#include <openacc.h>

int main(int argc, char **argv) {
    int use_host = argc == 1; /* no arguments: run on the host */
    acc_device_t type = use_host ? acc_device_host : acc_device_not_host;
    int ndev = acc_get_num_devices(type);
    printf("%d device(s) of the chosen type\n", ndev);
    for (int dev = 1; dev <= ndev; dev++) {
        int sum = 0;
        acc_set_device_num(dev, type); /* expect: device */
#pragma acc parallel loop reduction(+:sum)
        for (int i = 0; i < 100; i++)
            sum += i;
        printf("device %d: sum = %d\n", dev, sum);
    }
    return 0;
}
