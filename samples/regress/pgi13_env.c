// Issue 17, PGI Accelerator 1.3 §4.1 and §4.3: ACC_NOTIFY=1 prints a line on standard output for
// every kernel launched, in order with the program's own output; ACC_DEVICE=host selects the host
// device as 2.0's ACC_DEVICE_TYPE does (the region then runs on the host).
// accsim-env: ACC_NOTIFY=1
// accsim-env: ACC_DEVICE=host
#include <stdio.h>
#include <accel.h>

int main(void) {
    int on_host = 0;
    float a[32];
    printf("before\n");
#pragma acc region for parallel copyout(a, on_host)
    for (int i = 0; i < 32; i++) {
        a[i] = i * 0.5f;
        if (i == 0) on_host = acc_on_device(acc_device_host);
    }
    printf("after: a[31] = %g, on the host: %d\n", a[31], on_host);
    return 0;
}
