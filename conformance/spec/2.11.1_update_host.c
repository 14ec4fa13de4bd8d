// §2.11.1.2/§2.11.1.1: update host copies "from the accelerator device memory to the local
// memory" during the data lifetime.
#include <stdio.h>
int main(void) {
    int a[6] = {0};
#pragma acc data create(a)
    {
#pragma acc parallel loop
        for (int i = 0; i < 6; i++) a[i] = i * i;
#pragma acc update host(a)
        printf("%d %d %d\n", a[0], a[2], a[5]);
    }
    return 0;
}
