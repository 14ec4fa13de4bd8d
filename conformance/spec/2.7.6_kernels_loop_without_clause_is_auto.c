// §2.7.6: "In a kernels construct, a loop directive with no gang, worker, vector or seq clause is
// treated as if it has the auto clause." A dependent loop is therefore not parallelised.
#include <stdio.h>
int main(void) {
    int a[16];
    for (int i = 0; i < 16; i++) a[i] = 1;
#pragma acc kernels copy(a)
    {
#pragma acc loop
        for (int i = 1; i < 16; i++) a[i] = a[i - 1] * 2;
    }
    printf("a[15] = %d\n", a[15]);
    return 0;
}
