// §2.6.3: "Data will be allocated in the device memory and copied from the host or local memory
// to the device, or copied back, as required." Two compute regions inside one data region work
// on the same device copy; copy brings the result back at the end.
#include <stdio.h>
#define N 32
int main(void) {
    int a[N];
    for (int i = 0; i < N; i++) a[i] = i;
#pragma acc data copy(a)
    {
#pragma acc parallel loop
        for (int i = 0; i < N; i++) a[i] += 10;
#pragma acc parallel loop
        for (int i = 0; i < N; i++) a[i] *= 2;
    }
    printf("%d %d %d\n", a[0], a[1], a[N - 1]);
    return 0;
}
