// §3.2.9 under its OpenACC 2.0 final name acc_wait_async(wait_arg, async): "enqueues a wait
// operation on one async queue for the operations previously enqueued on" the other: queue 5's
// kernel runs after queue 4's producer.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[10], b[10];
#pragma acc data create(a) copyout(b)
    {
#pragma acc parallel loop async(4)
        for (int i = 0; i < 10; i++) a[i] = 5 * i;
        acc_wait_async(4, 5);
#pragma acc parallel loop async(5)
        for (int i = 0; i < 10; i++) b[i] = a[i] - 1;
        acc_wait(5);
    }
    printf("%d %d\n", b[0], b[9]);
    return 0;
}
