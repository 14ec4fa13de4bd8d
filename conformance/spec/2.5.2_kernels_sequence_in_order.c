// §2.5.2: "The compiler will break the code in the kernels region into a sequence of accelerator
// kernels ... it will launch the sequence of kernels in order on the device." The second loop
// reads what the first wrote; the third reads both (c[i] = 126 - i).
#include <stdio.h>
#define N 64
int main(void) {
    int a[N], b[N], c[N];
#pragma acc kernels copyout(a, b, c)
    {
        for (int i = 0; i < N; i++) a[i] = i;
        for (int i = 0; i < N; i++) b[i] = a[N - 1 - i] * 2;
        for (int i = 0; i < N; i++) c[i] = a[i] + b[i];
    }
    printf("%d %d %d\n", c[0], c[10], c[N - 1]);
    return 0;
}
