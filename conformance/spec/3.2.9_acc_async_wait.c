// §3.2.9: "The acc_async_wait routine enqueues a wait operation on one async queue for the
// operations previously enqueued on" another: acc_async_wait(1, 2) makes queue 2 wait for queue
// 1 (argument order as acc_wait_async in OpenACC 2.0 final and nvc).
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[24], b[24];
#pragma acc data create(a) copyout(b)
    {
#pragma acc parallel loop async(1)
        for (int i = 0; i < 24; i++) a[i] = i * 2;
        acc_async_wait(1, 2);
#pragma acc parallel loop async(2)
        for (int i = 0; i < 24; i++) b[i] = a[i] + 1;
        acc_wait(2);
    }
    printf("%d %d\n", b[0], b[23]);
    return 0;
}
