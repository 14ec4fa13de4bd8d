// §2.5.3: "When the condition in the if clause evaluates to zero in C or C++ ... the encountering
// thread will execute the construct." Run on the host, the region updates the host array itself
// even though `a` is only in a copyin clause, and acc_on_device(acc_device_host) is true there
// (§3.2.14).
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[4] = {1, 2, 3, 4};
    int on_host = -1;
    int use_device = 0;
#pragma acc parallel num_gangs(1) if(use_device) copyin(a) copyout(on_host)
    {
        for (int i = 0; i < 4; i++) a[i] = a[i] * 10;
        on_host = acc_on_device(acc_device_host);
    }
    printf("a = %d %d %d %d\n", a[0], a[1], a[2], a[3]);
    printf("on host: %d\n", on_host != 0);
    return 0;
}
