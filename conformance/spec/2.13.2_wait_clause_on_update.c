// §2.13.2: the wait clause on an update directive: the copy to the host waits for the kernel on
// queue 5, and is itself synchronous.
#include <stdio.h>
int main(void) {
    int a[10] = {0};
#pragma acc data copyin(a)
    {
#pragma acc parallel loop async(5)
        for (int i = 0; i < 10; i++) a[i] = 7 * i;
#pragma acc update host(a) wait(5)
        printf("%d %d\n", a[1], a[9]);
    }
    return 0;
}
