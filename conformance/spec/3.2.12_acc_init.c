// §3.2.12: "The acc_init routine tells the runtime to initialize the runtime for that device
// type"; the program's regions then run as usual.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    acc_init(acc_device_not_host);
    int a[6];
#pragma acc parallel loop copyout(a)
    for (int i = 0; i < 6; i++) a[i] = 6 - i;
    printf("%d %d\n", a[0], a[5]);
    return 0;
}
