/* Work on queue 2 reads what work on queue 1 writes; nothing orders the two queues. */
#include <stdio.h>
int main(void) {
    float a[64], b[64];
    for (int i = 0; i < 64; i++) a[i] = i;
#pragma acc data copy(a) copyout(b)
    {
#pragma acc parallel loop async(1)
        for (int i = 0; i < 64; i++) a[i] = a[i] * 3.0f;
#pragma acc parallel loop async(2)
        for (int i = 0; i < 64; i++)
            b[i] = a[i] + 1.0f; /* expect: async-race */
#pragma acc wait
    }
    printf("b[2] = %.1f\n", b[2]);
    return 0;
}
