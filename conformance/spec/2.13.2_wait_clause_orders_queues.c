// §2.13.2: "The compute, data or update operation may not be launched or executed until all
// operations enqueued up to this point by this thread on the associated asynchronous device
// activity queues have completed." The second region (queue 2) waits for queue 1's producer.
#include <stdio.h>
int main(void) {
    int a[40], b[40];
#pragma acc data create(a) copyout(b)
    {
#pragma acc parallel loop async(1)
        for (int i = 0; i < 40; i++) a[i] = i * i;
#pragma acc parallel loop async(2) wait(1)
        for (int i = 0; i < 40; i++) b[i] = a[i] + 1;
#pragma acc wait(2)
    }
    printf("%d %d %d\n", b[0], b[6], b[39]);
    return 0;
}
