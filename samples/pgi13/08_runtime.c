/* 08_runtime.c — the 1.3 runtime library (accel.h) and the _ACCEL macro.
 *
 * Teaches (1.3 §2.2, §3): _ACCEL is the model's version (201011 for 1.3); accel.h declares the
 * routines: acc_get_num_devices, acc_set_device / acc_get_device (2.0 renamed them
 * acc_set_device_type / acc_get_device_type), acc_set_device_num / acc_get_device_num, acc_init
 * and acc_shutdown, acc_on_device. ACC_DEVICE (1.3 §4.1) selects the device type as 2.0's
 * ACC_DEVICE_TYPE does, and ACC_NOTIFY=1 (1.3 §4.3) prints a line for every kernel launched.
 */
#include <stdio.h>
#include <accel.h>

int main(void) {
#ifdef _ACCEL
    printf("_ACCEL = %d\n", _ACCEL);
#endif
    acc_init(acc_device_nvidia);
    printf("devices: %d\n", acc_get_num_devices(acc_device_nvidia));
    acc_set_device(acc_device_nvidia);
    printf("device type is nvidia: %d\n", acc_get_device() == acc_device_nvidia);
    acc_set_device_num(0, acc_device_nvidia);
    printf("device number: %d\n", acc_get_device_num(acc_device_nvidia));
    int on_host = -1;
#pragma acc region copyout(on_host)
    {
        on_host = acc_on_device(acc_device_host);
    }
    printf("region ran on the host: %d; host code on the host: %d\n", on_host, acc_on_device(acc_device_host) != 0);
    acc_shutdown(acc_device_nvidia);
    return 0;
}
