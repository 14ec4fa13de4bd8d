// §2.11.1.6 and §2.13.2: "The compute, data or update operation may not be launched or executed
// until all operations enqueued up to this point by this thread on the associated asynchronous
// device activity queues have completed." The update waits for the kernel on queue 1.
#include <stdio.h>
#define N 50
int main(void) {
    static long s[N];
#pragma acc data create(s)
    {
#pragma acc parallel loop present(s) async(1)
        for (int i = 0; i < N; i++) s[i] = (long)i * i;
#pragma acc update host(s) wait(1)
    }
    printf("s[7] = %ld, s[49] = %ld\n", s[7], s[49]);
    return 0;
}
