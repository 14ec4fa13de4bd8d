// §2.13.1: "When there is an async clause, the parallel or kernels region or data operations may
// be processed asynchronously while the local thread continues"; §2.13.3: a wait directive with
// an argument waits for that queue. After the wait the results are on the host.
#include <stdio.h>
int main(void) {
    int a[100];
#pragma acc parallel loop async(1) copyout(a)
    for (int i = 0; i < 100; i++) a[i] = 2 * i;
#pragma acc wait(1)
    printf("%d %d\n", a[0], a[99]);
    return 0;
}
