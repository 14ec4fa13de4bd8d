// §2.13.1: "If the async clause has an argument, that argument must be a scalar integer
// expression" -- computed queues, one per block of work, then a wait on each.
#include <stdio.h>
#define B 3
#define N 30
int main(void) {
    int a[N];
#pragma acc data create(a)
    {
        for (int b = 0; b < B; b++) {
            int lo = b * (N / B), hi = lo + N / B;
#pragma acc parallel loop async(b + 1) present(a)
            for (int i = lo; i < hi; i++) a[i] = i * 10;
#pragma acc update host(a[lo:N / B]) async(b + 1)
        }
        for (int b = 0; b < B; b++) {
#pragma acc wait(b + 1)
        }
    }
    printf("%d %d %d\n", a[0], a[15], a[29]);
    return 0;
}
