// Issue 17 (PGI 1.3 limits): `acc_get_device` before any device type is selected returns
// `acc_device_none` (PGI Accelerator 1.3 §3.2.3: "If the device type has not yet been selected,
// the value acc_device_none will be returned"); the first accelerator region selects the
// default device, and `acc_set_device` selects one too.
// accsim-flags: --dialect pgi-1.3
#include <stdio.h>
#include <accel.h>

int main(void) {
    printf("before anything: none %d\n", acc_get_device() == acc_device_none);
    float x[8];
#pragma acc region copyout(x)
    {
        for (int i = 0; i < 8; i++)
            x[i] = i * 0.5f;
    }
    printf("after a region: nvidia %d, x[7] = %.1f\n", acc_get_device() == acc_device_nvidia, x[7]);
    acc_set_device(acc_device_host);
    printf("after acc_set_device(host): host %d\n", acc_get_device() == acc_device_host);
    return 0;
}
