/* The host reads data an `async` update may still be writing: a wait is missing. */
#include <stdio.h>
int main(void) {
    float a[100];
    for (int i = 0; i < 100; i++) a[i] = i;
#pragma acc data copyin(a)
    {
#pragma acc parallel loop async(1)
        for (int i = 0; i < 100; i++) a[i] += 1.0f;
#pragma acc update host(a) async(1)
        printf("a[9] = %.1f\n", a[9]); /* expect: async-race */
#pragma acc wait(1)
    }
    return 0;
}
