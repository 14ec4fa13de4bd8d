// §2.13.1: "An async clause with the argument value acc_async_sync will behave the same as if no
// async clause appeared" -- the host may read the results at once, with no wait.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[8];
#pragma acc parallel loop async(acc_async_sync) copyout(a)
    for (int i = 0; i < 8; i++) a[i] = i + 40;
    printf("%d %d\n", a[0], a[7]);
    return 0;
}
