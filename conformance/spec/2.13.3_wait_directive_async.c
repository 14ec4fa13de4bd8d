// §2.13.3: "If there is an async clause, no new operation may be launched or executed on the async
// device activity queue until all operations enqueued up to this point by this thread on the
// associated wait activity queues have completed." wait(1) async(2) joins queue 1 into queue 2.
#include <stdio.h>
int main(void) {
    float a[32], b[32];
#pragma acc data create(a) copyout(b)
    {
#pragma acc parallel loop async(1)
        for (int i = 0; i < 32; i++) a[i] = 0.5f * i;
#pragma acc wait(1) async(2)
#pragma acc parallel loop async(2)
        for (int i = 0; i < 32; i++) b[i] = a[i] * 4.0f;
#pragma acc wait(2)
    }
    printf("%.1f %.1f\n", b[1], b[31]);
    return 0;
}
